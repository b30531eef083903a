"""Arena reports: PNG charts (matplotlib, the ``arena`` extra) and a self-contained HTML page.

The HTML report holds the summary tables and, per game, its seats, agents, roles and
winners with a replay: the table log's moves in order, and each seat's private
decisions (the post-game record), all in one file with no outside resources.
"""

from __future__ import annotations

import html
import importlib
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Final

from .arena import Rate, Summary

__all__ = ["write_plot", "write_html", "MAX_HTML_GAMES"]

MAX_HTML_GAMES: Final = 200
"""Games listed with a replay in the HTML report (the summary always covers all)."""


def write_plot(summary: Summary, path: Path, title: str = "") -> None:
    """Bar charts of win rate by camp and by agent and camp, with Wilson 95% error bars."""
    matplotlib: Any = importlib.import_module("matplotlib")  # the 'arena' extra; typed loosely
    matplotlib.use("Agg")
    plt: Any = importlib.import_module("matplotlib.pyplot")

    panels = [("by camp", summary.by_camp), ("by agent and camp", summary.by_agent_camp)]
    fig, axes = plt.subplots(1, len(panels), figsize=(6 * len(panels), 4), squeeze=False)
    for ax, (name, rates) in zip(axes[0], panels, strict=True):
        keys = sorted(rates)
        vals = [rates[k].rate for k in keys]
        lows = [max(0.0, rates[k].rate - rates[k].interval[0]) for k in keys]
        highs = [max(0.0, rates[k].interval[1] - rates[k].rate) for k in keys]
        ax.bar(range(len(keys)), vals, yerr=[lows, highs], capsize=4, color="#4c72b0")
        ax.set_xticks(range(len(keys)), keys, rotation=30, ha="right")
        ax.set_ylim(0, 1)
        ax.set_ylabel("win rate (Wilson 95%)")
        ax.set_title(f"{title} win rate {name} ({summary.games} games)")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def _table(title: str, rates: Mapping[str, Rate]) -> str:
    rows = "".join(
        f"<tr><td>{html.escape(k)}</td><td>{v.rate:.1%}</td><td>{v.interval[0]:.1%} to {v.interval[1]:.1%}</td>"
        f"<td>{v.wins}/{v.games}</td></tr>"
        for k, v in sorted(rates.items())
    )
    head = "<tr><th></th><th>win rate</th><th>95% (Wilson)</th><th>n</th></tr>"
    return f"<h3>{html.escape(title)}</h3><table>{head}{rows}</table>"


def _move(m: Mapping[str, Any]) -> str:
    bits = [str(m.get("seq")), str(m.get("move")), str(m.get("seat") or "host")]
    if m.get("skill"):
        bits.append(str(m["skill"]))
    if m.get("targets"):
        bits.append("→ " + ", ".join(m["targets"]))
    if m.get("text"):
        bits.append(repr(m["text"]))
    return html.escape(" ".join(bits))


def _game(r: Mapping[str, Any]) -> str:
    seats = "".join(
        f"<tr><td>{html.escape(s)}</td><td>{html.escape(r['agents'][s])}</td><td>{html.escape(r['roles'][s])}</td>"
        f"<td>{html.escape(r['camps'][s])}</td><td>{'won' if s in r['winners'] else ''}</td></tr>"
        for s in r["seats"]
    )
    moves = "".join(f"<li>{_move(m)}</li>" for m in r["log"]["moves"])
    private = "".join(
        f"<details><summary>{html.escape(seat)}'s decisions</summary>"
        f"<pre>{html.escape(json.dumps(ds, indent=1))}</pre></details>"
        for seat, ds in sorted(r.get("reasoning", {}).items())
    )
    return (
        f"<details id='{html.escape(r['id'])}'><summary>{html.escape(r['id'])}: {html.escape(r['ending'])} "
        f"({r['length']} moves)</summary><table><tr><th>seat</th><th>agent</th><th>role</th><th>camp</th><th></th></tr>"
        f"{seats}</table><h4>Replay</h4><ol>{moves}</ol>{private}</details>"
    )


def write_html(summary: Summary, results: Sequence[Mapping[str, Any]], path: Path, title: str = "") -> None:
    """One self-contained page: the summary, then each game with its replay."""
    body = [
        f"<h1>{html.escape(title)} arena</h1>",
        f"<p>{summary.games} games; {summary.mean_length:.1f} moves on average.</p>",
        _table("Win rate by camp", summary.by_camp),
        _table("Win rate by agent and camp", summary.by_agent_camp),
        _table("Win rate by agent", summary.by_agent),
        _table("Win rate by role", summary.by_role),
        "<h2>Games</h2>",
        *(_game(r) for r in results[:MAX_HTML_GAMES]),
    ]
    style = (
        "body{font-family:sans-serif;max-width:60em;margin:auto}table{border-collapse:collapse}"
        "td,th{padding:2px 8px;border-bottom:1px solid #ddd}"
    )
    head = f"<meta charset='utf-8'><title>{html.escape(title)} arena</title><style>{style}</style>"
    page = f"<!doctype html><html><head>{head}</head><body>{''.join(body)}</body></html>"
    path.write_text(page, encoding="utf-8")
