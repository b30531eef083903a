"""The arena: Wilson intervals, statistics on known counts, resumable JSONL that replays to the
same outcomes, parallel workers giving the same lines, and the command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hiddenrole.agents.arena import ArenaSpec, parse_seat_agents, play_game, read_results, run, summarize, wilson
from hiddenrole.agents.errors import UnknownAgent
from hiddenrole.cli import main
from hiddenrole.host import Table, verify
from hiddenrole.host.catalog import get


def test_wilson_matches_published_values() -> None:
    assert wilson(0, 0) == (0.0, 1.0)
    lo, hi = wilson(5, 10)
    assert (round(lo, 4), round(hi, 4)) == (0.2366, 0.7634)
    lo, hi = wilson(0, 10)
    assert lo == 0.0 and round(hi, 4) == 0.2775
    lo, hi = wilson(10, 10)
    assert round(lo, 4) == 0.7225 and round(hi, 9) == 1.0


def _row(i: int, winners: list[str]) -> dict[str, object]:
    return {
        "id": f"g-{i}",
        "index": i,
        "seats": ["a", "b", "c"],
        "agents": {"a": "heuristic", "b": "heuristic", "c": "random"},
        "roles": {"a": "V", "b": "V", "c": "W"},
        "camps": {"a": "GOOD", "b": "GOOD", "c": "EVIL"},
        "winners": winners,
        "length": 10 + i,
        "decisions": 5,
    }


def test_statistics_on_known_counts() -> None:
    rows = [_row(0, ["a", "b"]), _row(1, ["a", "b"]), _row(2, ["c"]), _row(3, ["a", "b"])]
    s = summarize(rows)
    assert s.games == 4
    assert (s.by_camp["GOOD"].wins, s.by_camp["GOOD"].games) == (3, 4)
    assert (s.by_camp["EVIL"].wins, s.by_camp["EVIL"].games) == (1, 4)
    assert (s.by_role["V"].wins, s.by_role["V"].games) == (3, 4)  # one trial per game, not per seat
    assert (s.by_agent_camp["heuristic as GOOD"].wins, s.by_agent_camp["heuristic as GOOD"].games) == (3, 4)
    assert (s.by_agent["heuristic"].wins, s.by_agent["heuristic"].games) == (6, 8)  # per seat
    assert s.mean_length == 11.5
    assert s.by_camp["GOOD"].interval == wilson(3, 4)


def test_seat_agent_specs() -> None:
    assert parse_seat_agents("heuristic") == {"*": "heuristic"}
    assert parse_seat_agents("GOOD=heuristic, EVIL=random,p3=pass") == {
        "GOOD": "heuristic",
        "EVIL": "random",
        "p3": "pass",
    }
    with pytest.raises(UnknownAgent):
        parse_seat_agents("GOOD=")
    with pytest.raises(UnknownAgent):
        run(ArenaSpec("onenight", 1, {"*": "nobody"}), Path("/nonexistent/never-written.jsonl"), progress=False)


def test_runs_resume_and_every_line_replays_to_its_outcome(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    spec = ArenaSpec("werewolf", 3, {"GOOD": "heuristic", "EVIL": "random"}, seed=100)
    first = run(spec, out, progress=False)
    assert [r["id"] for r in first] == ["werewolf-100", "werewolf-101", "werewolf-102"]
    before = out.read_text()
    more = run(ArenaSpec("werewolf", 5, spec.seat_agents, seed=100), out, progress=False)
    assert len(more) == 5
    assert out.read_text().startswith(before)  # finished games were skipped, not replayed
    assert len(read_results(out)) == 5
    for r in more:
        assert {r["agents"][s] for s in r["seats"] if r["camps"][s] == "GOOD"} == {"heuristic"}
        table = verify(json.dumps(r["log"]))
        assert table.outcome is not None
        assert list(table.outcome.winners) == r["winners"]
        assert table.outcome.ending == r["ending"]
        again = Table.replay(get("werewolf"), json.dumps(r["log"]))
        assert again.seq == r["length"]


def test_a_torn_last_line_is_ignored_and_its_game_played_again(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    spec = ArenaSpec("onenight", 2, {"*": "random"})
    run(spec, out, progress=False)
    lines = out.read_text().splitlines()
    out.write_text(lines[0] + "\n" + lines[1][: len(lines[1]) // 2])
    again = run(spec, out, progress=False)
    assert [r["id"] for r in again] == ["onenight-0", "onenight-1"]


def test_two_workers_give_the_same_games_as_one(tmp_path: Path) -> None:
    spec = ArenaSpec("onenight", 4, {"*": "heuristic"}, seed=7)
    one = run(spec, tmp_path / "one.jsonl", jobs=1, progress=False)
    two = run(spec, tmp_path / "two.jsonl", jobs=2, progress=False)
    assert one == two
    assert one[0] == play_game(spec, 0)


def test_the_command_line_writes_results_a_report_and_a_plot(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "r.jsonl"
    html = tmp_path / "r.html"
    args = ["arena", "missions", "--games", "3", "--seat-agents", "GOOD=heuristic,EVIL=random"]
    args += ["--jobs", "1", "--out", str(out), "--html", str(html), "--quiet"]
    try:
        import matplotlib  # noqa: F401

        args += ["--plot", str(tmp_path / "r.png")]
    except ImportError:
        pass
    assert main(args) == 0
    printed = capsys.readouterr().out
    assert "win rate by camp" in printed and "GOOD" in printed
    assert len(read_results(out)) == 3
    page = html.read_text()
    assert page.startswith("<!doctype html>") and "missions-0" in page and "<script" not in page
    if "--plot" in args:
        assert (tmp_path / "r.png").read_bytes()[:4] == b"\x89PNG"


def test_a_camp_wins_by_the_kernels_winning_camps_not_by_a_seat_that_changed_sides() -> None:
    row = _row(0, ["a", "b"]) | {"winning_camps": ["EVIL"]}  # a and b were dealt GOOD, then won as EVIL
    s = summarize([row])
    assert s.by_camp["EVIL"].wins == 1 and s.by_camp["GOOD"].wins == 0
    assert s.by_role["V"].wins == 1  # the seats holding the role did win
