"""The arena: many games of one ruleset with chosen agents, in parallel, one JSON line per game.

``hiddenrole arena werewolf --games 1000 --seat-agents GOOD=heuristic,EVIL=random
--jobs 2 --out results.jsonl`` plays games ``0..N-1`` (game ``i`` is dealt from seed
``base + i``), in ``--jobs`` worker processes, and appends one line per finished game:
its id, seed, seats, each seat's agent, role and camp, the winners, the ending and
the game's statistics, its length, and the whole table log (replayable with
``hiddenrole.host.verify``) with every seat's private decisions. Lines already in the
file are skipped, so an interrupted run resumes where it stopped. The summary gives
win rates by camp, role and agent with Wilson 95% intervals, and the average length.

The arena is the host: it reads the deal to give each seat the agent its camp or
role asks for. Agents still see only their own seat's observation.
"""

from __future__ import annotations

import json
import math
import os
import random
import sys
from collections.abc import Iterable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, TextIO

import hiddenrole as hr
from hiddenrole.host import Table
from hiddenrole.host.catalog import get

from .errors import UnknownAgent
from .registry import make_agent, seat_rng
from .runner import SeatRunner, full_observation

__all__ = [
    "ArenaSpec",
    "DEFAULT_SEATS",
    "Rate",
    "Summary",
    "camp_of",
    "parse_seat_agents",
    "play_game",
    "read_results",
    "run",
    "summarize",
    "wilson",
]

DEFAULT_SEATS: Final[Mapping[str, int]] = {"missions": 7, "onenight": 5, "race": 3, "redblue": 5, "werewolf": 9}
"""Seats per game when ``--seats`` is not given (the definition's minimum for other games)."""
Z95: Final = 1.959963984540054
"""The normal quantile of a two-sided 95% interval."""


def wilson(wins: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for ``wins`` successes in ``n`` trials (``(0, 1)`` when ``n`` is 0)."""
    if n <= 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def camp_of(game: str, role: str, vars: Mapping[str, str]) -> str:
    """The camp a dealt role plays for: the kernel's camp variable, One Night's card camp, else the role."""
    camp = vars.get(hr.VAR_CAMP, "")
    if camp:
        return camp
    if game == "onenight":
        from hiddenrole.games import onenight

        return str(onenight.camp_of(role))
    return role


def parse_seat_agents(text: str) -> dict[str, str]:
    """``"heuristic"`` (every seat) or ``"GOOD=heuristic,EVIL=random,p3=llm,*=random"`` -> key -> agent.

    A key is a seat, a role or a camp; ``*`` is every other seat. Precedence: seat,
    role, camp, ``*``.
    """
    out: dict[str, str] = {}
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        key, eq, name = part.partition("=")
        if not eq:
            key, name = "*", key
        if not key.strip() or not name.strip():
            raise UnknownAgent(f"bad --seat-agents item {part!r} (use KEY=AGENT)")
        out[key.strip()] = name.strip()
    if not out:
        raise UnknownAgent("--seat-agents is empty")
    return out


@dataclass(frozen=True)
class ArenaSpec:
    """What to play: the game, how many games, seats, options, agents by key and the base seed."""

    game: str
    games: int
    seat_agents: Mapping[str, str]
    seats: int | None = None
    options: Mapping[str, Any] = field(default_factory=dict)
    seed: int = 0
    incremental: bool = True
    """Build observations from the pushed events (``False``: from the whole view; benchmarks compare)."""

    def seat_count(self) -> int:
        if self.seats is not None:
            return self.seats
        return DEFAULT_SEATS.get(self.game, get(self.game).min_seats)

    def game_id(self, index: int) -> str:
        return f"{self.game}-{self.seed + index}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "games": self.games,
            "seat_agents": dict(self.seat_agents),
            "seats": self.seats,
            "options": dict(self.options),
            "seed": self.seed,
            "incremental": self.incremental,
        }


def _agent_for(spec: Mapping[str, str], seat: str, role: str, camp: str) -> str:
    for key in (seat, role, camp, "*"):
        if key in spec:
            return spec[key]
    raise UnknownAgent(f"--seat-agents names no agent for seat {seat} ({role}, {camp}); add '*=random'")


def play_game(spec: ArenaSpec, index: int) -> dict[str, Any]:
    """Play game ``index`` of ``spec``; its result line (a JSON-ready dict)."""
    definition = get(spec.game)
    seed = spec.seed + index
    table = Table.open(definition, spec.seat_count(), dict(spec.options), seed=seed, table_id=spec.game_id(index))
    god = {p.id: p for p in table.inspect().all_players()}
    roles = {s: god[s].role for s in table.seats}
    camps = {s: camp_of(spec.game, god[s].role, god[s].vars) for s in table.seats}
    names = {s: _agent_for(spec.seat_agents, s, roles[s], camps[s]) for s in table.seats}
    agents = {s: make_agent(names[s], spec.game, s, seat_rng(seed, s)) for s in table.seats}
    record = SeatRunner(table, agents, observe_fn=None if spec.incremental else full_observation).run()
    outcome = table.outcome
    status = table.status()
    return {
        "id": spec.game_id(index),
        "index": index,
        "game": spec.game,
        "seed": seed,
        "seats": list(table.seats),
        "agents": names,
        "roles": roles,
        "camps": camps,
        "winners": list(outcome.winners) if outcome is not None else [],
        "winning_camps": list(status.winners),
        "ending": outcome.ending if outcome is not None else "unfinished",
        "statistics": outcome.to_dict() if outcome is not None else {},
        "length": table.seq,
        "decisions": len(record.decisions),
        "truncated": record.truncated,
        "log": json.loads(table.log().to_json()),
        "reasoning": record.reasoning(),
    }


def read_results(path: Path) -> list[dict[str, Any]]:
    """The result lines of a file (a torn last line, from an interrupted run, is ignored)."""
    if not path.exists():
        return []
    out = []
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            line = line.strip()
            if not line:
                continue
            try:
                out.append(json.loads(line))
            except ValueError:
                continue
    return out


def _worker(spec_dict: dict[str, Any], index: int) -> str:
    spec = ArenaSpec(**spec_dict)
    return json.dumps(play_game(spec, index), sort_keys=True, separators=(",", ":"))


def _play_all(spec: ArenaSpec, todo: Sequence[int], jobs: int, ray: bool = False) -> Iterator[str]:
    if ray:
        from .scale import play_on_ray

        yield from play_on_ray(_worker, spec.to_dict(), todo, jobs)
        return
    if jobs <= 1:
        for i in todo:
            yield _worker(spec.to_dict(), i)
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        pending: set[Future[str]] = set()
        queue = list(todo)
        spec_dict = spec.to_dict()
        while queue or pending:
            while queue and len(pending) < jobs * 4:
                pending.add(pool.submit(_worker, spec_dict, queue.pop(0)))
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for f in done:
                yield f.result()


def run(spec: ArenaSpec, out: Path, *, jobs: int = 1, progress: bool = True, ray: bool = False) -> list[dict[str, Any]]:
    """Play every game of ``spec`` not already in ``out``, appending its line; all results of the spec.

    ``jobs`` worker processes, or with ``ray`` as many Ray workers (``hiddenrole.agents.scale``).
    """
    if spec.games < 0:
        raise hr.InvalidArgument("--games must be >= 0")
    for name in sorted(set(spec.seat_agents.values())):
        make_agent(name, spec.game, "probe", random.Random(0))  # fail before any work on an unknown name
    have = {r.get("id") for r in read_results(out)}
    todo = [i for i in range(spec.games) if spec.game_id(i) not in have]
    out.parent.mkdir(parents=True, exist_ok=True)
    torn = out.exists() and out.stat().st_size > 0 and not out.read_bytes().endswith(b"\n")
    with out.open("a", encoding="utf-8") as fh:
        if torn:
            fh.write("\n")  # end an interrupted line so the next one starts clean
        _drive(spec, todo, jobs, fh, progress, ray)
    wanted = {spec.game_id(i) for i in range(spec.games)}
    return sorted((r for r in read_results(out) if r.get("id") in wanted), key=lambda r: int(r["index"]))


def _drive(spec: ArenaSpec, todo: Sequence[int], jobs: int, fh: TextIO, progress: bool, ray: bool = False) -> None:
    lines = _play_all(spec, todo, jobs, ray)
    if not progress or not todo:
        for line in lines:
            fh.write(line + "\n")
            fh.flush()
        return
    try:
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
    except ImportError:
        for n, line in enumerate(lines, 1):
            fh.write(line + "\n")
            fh.flush()
            print(f"\r{spec.game}: {n}/{len(todo)} games", end="", file=sys.stderr)
        print(file=sys.stderr)
        return
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, transient=False) as bar:
        task = bar.add_task(f"{spec.game} ({jobs} job{'s' if jobs != 1 else ''})", total=len(todo))
        for line in lines:
            fh.write(line + "\n")
            fh.flush()
            bar.advance(task)


# ---------------------------------------------------------------------- statistics


@dataclass(frozen=True)
class Rate:
    """Wins out of games, with its Wilson 95% interval."""

    wins: int
    games: int

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.games)

    def __str__(self) -> str:
        lo, hi = self.interval
        return f"{self.rate:6.1%} [{lo:6.1%}, {hi:6.1%}]  ({self.wins}/{self.games})"

    def to_dict(self) -> dict[str, Any]:
        lo, hi = self.interval
        return {"wins": self.wins, "games": self.games, "rate": self.rate, "low": lo, "high": hi}


@dataclass(frozen=True)
class Summary:
    games: int
    by_camp: dict[str, Rate]
    by_role: dict[str, Rate]
    by_agent: dict[str, Rate]
    by_agent_camp: dict[str, Rate]
    mean_length: float
    mean_decisions: float
    truncated: int

    def to_dict(self) -> dict[str, Any]:
        def rates(d: Mapping[str, Rate]) -> dict[str, Any]:
            return {k: v.to_dict() for k, v in sorted(d.items())}

        return {
            "games": self.games,
            "by_camp": rates(self.by_camp),
            "by_role": rates(self.by_role),
            "by_agent": rates(self.by_agent),
            "by_agent_camp": rates(self.by_agent_camp),
            "mean_length": self.mean_length,
            "mean_decisions": self.mean_decisions,
            "truncated": self.truncated,
        }

    def text(self) -> str:
        lines = [f"{self.games} games, {self.mean_length:.1f} moves and {self.mean_decisions:.1f} decisions on average"]
        if self.truncated:
            lines.append(f"{self.truncated} games stopped unfinished")
        for title, table in (
            ("win rate by camp (games the camp won)", self.by_camp),
            ("win rate by role (games its holders won)", self.by_role),
            ("win rate by agent and camp (games that side won)", self.by_agent_camp),
            ("win rate by agent (per seat; seats of a game are correlated)", self.by_agent),
        ):
            lines.append(title + ":")
            lines += [f"  {k:<28} {v}" for k, v in sorted(table.items())]
        return "\n".join(lines)


def summarize(results: Iterable[Mapping[str, Any]]) -> Summary:
    """Win rates with Wilson 95% intervals.

    By camp, role and agent+camp, each game is one trial (a role's or a camp's seats win
    or lose together, so counting seats would fake precision). A camp (or an agent
    playing it) wins a game when the kernel names that camp among the winners (One
    Night: a seat's camp is the one of its dealt card, and a seat whose card changed
    may win for another camp); a role wins when a seat holding it won. By agent alone
    (an agent may play both sides) each seat is a trial; seats of one game are not
    independent, so that interval is optimistic.
    """
    rows = list(results)
    per_game: dict[str, dict[str, list[int]]] = {"camp": {}, "role": {}, "agent_camp": {}}
    per_seat: dict[str, list[int]] = {}
    for r in rows:
        won = set(r["winners"])
        camps_won = set(r.get("winning_camps", ())) or {r["camps"][s] for s in won}
        keys: dict[str, dict[str, bool]] = {"camp": {}, "role": {}, "agent_camp": {}}
        for seat in r["seats"]:
            camp, role, agent = r["camps"][seat], r["roles"][seat], r["agents"][seat]
            keys["camp"][camp] = camp in camps_won
            keys["agent_camp"][f"{agent} as {camp}"] = camp in camps_won
            keys["role"][role] = keys["role"].get(role, False) or seat in won
            t = per_seat.setdefault(agent, [0, 0])
            t[0] += seat in won
            t[1] += 1
        for kind, found in keys.items():
            for key, w in found.items():
                t = per_game[kind].setdefault(key, [0, 0])
                t[0] += w
                t[1] += 1
    n = len(rows)
    return Summary(
        n,
        {k: Rate(*v) for k, v in per_game["camp"].items()},
        {k: Rate(*v) for k, v in per_game["role"].items()},
        {k: Rate(*v) for k, v in per_seat.items()},
        {k: Rate(*v) for k, v in per_game["agent_camp"].items()},
        sum(r["length"] for r in rows) / n if n else 0.0,
        sum(r["decisions"] for r in rows) / n if n else 0.0,
        sum(1 for r in rows if r.get("truncated")),
    )


def default_jobs() -> int:
    return max(1, min(4, os.cpu_count() or 1))
