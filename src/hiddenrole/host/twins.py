"""The host invariant: a reader cannot tell apart two tables that differ only in what it may not know.

The kernel's invariant H (:mod:`hiddenrole.enginetest.leaks`) checks the kernel's
views and events. This checks what the *host* adds on top: ids, versions, the
numbering of events and chat, and above all the number, order and content of the
notices each reader is pushed.

For one *viewer* seat, its *side* is the viewer and the teammates its first view
names. Table A is dealt from a seed; its twin B is dealt from another seed (so the
header, the random stream and every seed-derived value differ) with the roles of
the seats outside the side permuted, and is kept only if every side seat's first
view and the spectator's are the same as at A. Then every seat plays both tables
in lockstep with a policy that is a function of its own input only (a random
stream seeded by the pair and a digest of everything that seat received), and the
host ends phases on a fixed schedule. After each step, for each side seat and the
spectator:

* its *content* (the view as the kernel and the game make it: phase, players,
  self, public data, the text of every event and chat line, without any number)
  is compared between A and B; the first difference is a legitimate divergence
  (the kernel's invariant H judges those) and ends the comparison for that reader;
* until then, its *host input* (every notice pushed to it, the version, table id
  and move list of its view, and the result of its own move) must be identical:
  a difference is a host leak, raised as :class:`HostLeak`.

Each table is also checked on its own: versions go up by one per notice, lines are
stamped with the version they arrived at, every notice carries a change, and the
view the table caches equals one computed from scratch.
"""

from __future__ import annotations

import contextlib
import hashlib
import random
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from hiddenrole.enginetest import choose_targets, find_step

from ..gamedef import ACT, DELAY_TURN, END_TURN, SAY, UNDO, Deal, GameDefinition, Move
from . import table as _table
from .table import Table
from .views import Notice, TableView

__all__ = ["HostLeak", "TwinCheck", "TwinReport", "check_twins", "repeatable_ids"]

HOST = "<host>"
"""The schedule's name for the host's slot (it ends the phase)."""


class HostLeak(AssertionError):
    """Two twins gave a reader different host input while its content agreed."""


@dataclass(frozen=True, slots=True)
class TwinCheck:
    """One ruleset's run: ``pairs`` twin pairs at ``seats`` seats, each played at most ``max_steps`` slots.

    The host ends the phase after every ``passes`` rounds of seat slots.
    """

    definition: GameDefinition
    seats: int
    options: Mapping[str, object] = field(default_factory=dict)
    pairs: int = 100
    start: int = 0
    max_steps: int = 60
    passes: int = 2
    attempts: int = 16
    single: bool = True
    """Also check each table on its own (off only to prove the twin comparison alone catches a leak)."""


@dataclass(slots=True)
class TwinReport:
    """What a run covered."""

    pairs: int = 0
    skipped: int = 0
    steps: int = 0
    notices: int = 0
    compared: int = 0
    """Reader-steps compared before a legitimate divergence (or the end)."""
    diverged: int = 0
    ended: int = 0
    """Pairs whose first table reached the end of its game."""


@contextlib.contextmanager
def repeatable_ids() -> Iterator[None]:
    """Tables opened inside get ids from a counter restarted for each table, so twins share ids.

    A real table's id is random and independent of the deal; giving both twins the
    same one keeps that independence while letting their views be compared byte for
    byte. An id derived from the seed still differs between twins, so it is caught.
    """
    saved = _table._token
    _table._token = lambda: "0" * 32
    try:
        yield
    finally:
        _table._token = saved


def check_twins(check: TwinCheck) -> TwinReport:
    """Run the host invariant over ``check.pairs`` pairs; raise :class:`HostLeak` on the first leak."""
    report = TwinReport()
    for i in range(check.start, check.start + check.pairs):
        _check_pair(check, i, report)
    return report


def _open(definition: GameDefinition, check: TwinCheck, seed: int) -> Table:
    with repeatable_ids():
        return Table.open(definition, check.seats, check.options, seed)


def _permuted(definition: GameDefinition, seed: int, side: frozenset[str], rng: random.Random) -> GameDefinition:
    """A definition dealing like ``seed`` did, with the roles outside ``side`` shuffled.

    It still consumes its own table's random stream the way the real setup does, so
    the twin's later chance is its own seed's.
    """
    real = definition.setup
    order = rng.random()

    def setup(options: Any, seats: tuple[str, ...], stream: random.Random) -> Deal:
        real(options, seats, stream)  # advance the twin's own stream exactly as a real deal would
        deal = real(options, seats, random.Random(seed))
        others = [s for s in seats if s not in side]
        roles = [deal.roles[s] for s in others]
        random.Random(order).shuffle(roles)
        return Deal(deal.rules, {**deal.roles, **dict(zip(others, roles, strict=True))})

    return replace(definition, setup=setup)


def _content(view: TableView) -> tuple[Any, ...]:
    """The reader's view without any number the host adds (version, ``at``, id) and without its move list."""
    return (
        view.phase,
        view.round,
        view.turn,
        view.over,
        view.players,
        view.me,
        tuple(sorted(view.data.items())),
        tuple((e.type, e.source, e.target, tuple(e.data.items()), e.canceled, e.reason) for e in view.events),
        tuple((c.sender, c.text, c.phase, c.round) for c in view.chat),
        view.outcome,
    )


class _Side:
    """One table of a pair: its subscriptions and each reader's input so far."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.inbox: dict[str | None, list[Notice]] = {r: [] for r in (*table.seats, None)}
        self.digest: dict[str | None, Any] = {r: hashlib.sha256() for r in self.inbox}
        self.results: dict[str | None, object] = {}
        self.last: dict[str | None, TableView] = {r: table.view(r) for r in self.inbox}
        for r in self.inbox:
            self.digest[r].update(repr(self.last[r].to_dict()).encode())
            table.subscribe(r, self.inbox[r].append)

    def take(self, reader: str | None) -> tuple[Notice, ...]:
        got = tuple(self.inbox[reader])
        self.inbox[reader].clear()
        return got

    def step_input(self, reader: str | None, notices: tuple[Notice, ...]) -> tuple[Any, ...]:
        """What ``reader`` received this step (numbers included), digested for its policy."""
        view = self.table.view(reader)
        summary = (view.table, view.version, view.moves) if notices else None
        got = (notices, summary, self.results.pop(reader, None))
        self.digest[reader].update(repr(got).encode())
        return got


def _check_table(side: _Side, reader: str | None, notices: tuple[Notice, ...], where: str) -> None:
    """Checks one table passes on its own, whatever its twin does."""
    t = side.table
    prev = side.last[reader]
    version = prev.version
    for n in notices:
        if n.version != version + 1 or n.seat != reader or n.table != t.id:
            raise HostLeak(f"{where}: reader {reader!r} got notice {n} after version {version}")
        if any(e.at != n.version for e in n.events) or any(c.at != n.version for c in n.chat):
            raise HostLeak(f"{where}: reader {reader!r}: lines in notice {n.version} are stamped otherwise")
        version = n.version
    view = t.view(reader)
    if view.version != version:
        raise HostLeak(f"{where}: reader {reader!r} is at version {view.version} but was pushed up to {version}")
    if notices and _content(view) == _content(prev) and view.moves == prev.moves:
        raise HostLeak(f"{where}: reader {reader!r} was pushed a notice for a view that did not change")
    if not notices and view != prev:
        raise HostLeak(f"{where}: reader {reader!r}'s view changed without a notice")
    fresh = t._uncached_core(reader)
    core = (view.phase, view.round, view.turn, view.over, view.players, view.me, view.moves, view.data)
    if core != tuple(fresh)[:8]:
        raise HostLeak(f"{where}: reader {reader!r}'s cached view is stale: {core} != {tuple(fresh)[:8]}")
    side.last[reader] = view


def _check_pair(check: TwinCheck, i: int, report: TwinReport) -> None:
    d = check.definition
    rng = random.Random(f"twins/{d.name}/{i}")
    seed_a = rng.randrange(2**31)
    a = _open(d, check, seed_a)
    viewer = rng.choice(a.seats)
    me = a.view(viewer).me
    side_seats = frozenset((viewer, *(me.teammates if me is not None else ())))
    readers: tuple[str | None, ...] = (*sorted(side_seats), None)
    first = {r: _content(a.view(r)) for r in readers}
    b = None
    for _ in range(check.attempts):
        seed_b = rng.randrange(2**31)
        if seed_b == seed_a:
            continue
        candidate = _open(_permuted(d, seed_a, side_seats, rng), check, seed_b)
        if all(_content(candidate.view(r)) == first[r] for r in readers):
            b = candidate
            break
    if b is None:
        report.skipped += 1
        return
    report.pairs += 1
    pair = (_Side(a), _Side(b))
    where = f"{d.name} pair {i} (seeds {seed_a}/{b.header.seed}, viewer {viewer}, side {sorted(side_seats)})"
    _compare(pair, {r: True for r in readers}, f"{where}, at the deal", report, initial=True, single=check.single)
    live = {r: True for r in readers}
    schedule = [*a.seats] * check.passes + [HOST]
    for step in range(check.max_steps):
        if not any(live.values()) or (a.over and b.over):
            break
        actor = schedule[step % len(schedule)]
        for side in pair:
            if not side.table.over:
                _move(side, actor, f"{d.name}/{i}")
        report.steps += 1
        _compare(pair, live, f"{where}, step {step} ({actor})", report, initial=False, single=check.single)
    report.ended += a.over


def _compare(
    pair: tuple[_Side, _Side],
    live: dict[str | None, bool],
    where: str,
    report: TwinReport,
    *,
    initial: bool,
    single: bool,
) -> None:
    a, b = pair
    for r in a.inbox:
        na, nb = a.take(r), b.take(r)
        report.notices += len(na) + len(nb)
        if single and r in live and not initial:
            _check_table(a, r, na, f"{where} [A]")
            _check_table(b, r, nb, f"{where} [B]")
        ia, ib = a.step_input(r, na), b.step_input(r, nb)
        if not live.get(r):
            continue
        va, vb = a.table.view(r), b.table.view(r)
        if _content(va) != _content(vb):
            live[r] = False
            report.diverged += 1
            continue
        report.compared += 1
        if initial:
            ia, ib = (va.to_dict(),), (vb.to_dict(),)
        if ia != ib:
            raise HostLeak(
                f"{where}: reader {r!r} sees the same content in both twins but got different host input:\n"
                f"  A: {ia!r}\n  B: {ib!r}"
            )


def _move(side: _Side, actor: str, salt: str) -> None:
    """``actor`` moves at one table, deciding from its own input only."""
    t = side.table
    if actor == HOST:
        t.end_phase()
        return
    view = t.view(actor)
    rng = random.Random(f"{salt}/{actor}/{side.digest[actor].hexdigest()}")
    move = _decide(t, view, rng)
    if move is None:
        return
    try:
        side.results[actor] = ("ok", t.play(move, against=view.version))
    except Exception as exc:  # a typed refusal is input too; anything else is a bug and re-raised
        code = getattr(exc, "code", None)
        if code is None:
            raise
        side.results[actor] = ("refused", code)


def _decide(t: Table, view: TableView, rng: random.Random) -> Move | None:
    """A random move among those the view offers (or none), chosen from the view alone."""
    me = view.me
    if view.over or me is None:
        return None
    seat = me.seat
    roll = rng.random()
    if UNDO in view.moves and roll < 0.1:
        return Move(UNDO, seat)
    if SAY in view.moves and roll < 0.25:
        return Move(SAY, seat, text=f"{seat} thinks {rng.randrange(3)}")
    if END_TURN in view.moves and roll < 0.35:
        return Move(END_TURN, seat)
    if DELAY_TURN in view.moves and roll < 0.4:
        return Move(DELAY_TURN, seat)
    if ACT not in view.moves or roll > 0.85:
        return None
    skill = rng.choice(me.allowed_skills)
    config = t.rules.config
    step = find_step(config, view.phase, me.role, skill)
    if step is None:
        return None
    players = [(p.seat, p.alive) for p in view.players]
    targets = choose_targets(step, seat, players, config.target_pools, rng, me.targets_for(skill))
    if targets is None:
        return None
    return Move(ACT, seat, skill, targets)
