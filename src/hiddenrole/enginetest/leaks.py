"""Invariant H: a seat cannot tell apart two deals that differ only in what it may not know.

For a viewer seat P, its *side* is P plus the teammates the rules show P. Deal A is the
game as set up; deal B (the *twin*) gives the side the same roles and P's side the same
initial views, and differs elsewhere (by default: the roles of the other seats are
permuted). Both deals are then played the same way: every seat outside the side
abstains, and each side seat picks its actions from its view with a generator seeded by
the seed, the viewer, the seat and the number of observations the side has had so far.
While the two deals look the same to the side, the side therefore acts the same in both,
and the first observation that differs is a leak (everything after it is never looked
at, so the side's choices need not depend on more than that).

Observations are: each side seat's player view at every step, every event whose
audience includes a side seat (an unknown audience counts as everyone, as a host that
broadcasts unrouted events would), every chat line a side seat hears, and the results
of the side's own submissions and chat attempts. Information a spec declares
:class:`~.core.Public` may differ, but a difference in it ends the comparison (the
table told the side something that tells the deals apart). The end of the game is
public at every table: ``GAME_ENDED`` is not compared, and a deal whose observations
stopped earlier (it ended, or reached ``max_steps``) only has to be a prefix of the
other.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Any

import hiddenrole as hr

from .checks import differences, plain
from .core import ChatScript, Game, Invariant, InvariantError, Observation
from .policy import choose_targets, find_step
from .spec import LeakCheck, Report, Spec

__all__ = ["check_leaks", "default_chat", "observe"]


def default_chat(sender: str, phase: hr.PhaseType, round_: int) -> str:
    """A line that depends only on public facts, so hearing it or not is the only signal."""
    return f"{sender} speaks in {phase} of round {round_}"


def check_leaks(spec: Spec, leaks: LeakCheck, seed: int, game: Game, report: Report) -> None:
    """Run invariant H for the viewers chosen for ``seed``; raise on the first leak."""
    rng = random.Random(f"leaks/{seed}")
    probe = _start(game)
    for viewer in _viewers(leaks, game, rng):
        side = frozenset((viewer, *probe.teammates(viewer)))
        role = game.role_of(viewer)
        twin = _find_twin(spec, leaks, game, probe, side, rng, seed, viewer)
        if twin is None:
            report.leak_skipped[role] += 1
            continue
        choices: _Choices = {}
        deal_a = _Deal(spec, leaks, game, side, seed, viewer, choices)
        deal_b = _Deal(spec, leaks, twin, side, seed, viewer, choices)
        report.leak_pairs += 1
        report.leak_viewers[role] += 1
        problem = _compare_as_played(deal_a, deal_b)
        if problem is not None:
            first = problem[1] or problem[2]
            raise InvariantError(
                spec.name,
                Invariant.LEAK,
                _leak_text(game, twin, viewer, side, problem),
                seed=seed,
                step=None if first is None else first.step,
            )


def _viewers(leaks: LeakCheck, game: Game, rng: random.Random) -> list[str]:
    """One seat of each required role present, then random seats up to ``viewers_per_game``."""
    chosen: list[str] = []
    for role in leaks.roles:
        holders = [pid for pid, r in game.seats if r == role and pid not in chosen]
        if holders:
            chosen.append(rng.choice(holders))
    rest = [pid for pid, _ in game.seats if pid not in chosen]
    rng.shuffle(rest)
    while len(chosen) < leaks.viewers_per_game and rest:
        chosen.append(rest.pop())
    return chosen


def _start(game: Game) -> hr.Engine:
    engine = game.engine_type(game.rules)
    for pid, role in game.seats:
        engine.add_player(pid, role)
    engine.start()
    return engine


def _redactor(leaks: LeakCheck) -> Callable[[Observation], Observation | None]:
    """One function applying every :class:`Public` declaration to an observation."""
    types = frozenset().union(*(p.event_types for p in leaks.public))
    keys = frozenset().union(*(p.data_keys for p in leaks.public))
    phases = frozenset().union(*(p.phases for p in leaks.public))
    info_keys = frozenset().union(*(p.role_info_keys for p in leaks.public))
    custom = [p.redact for p in leaks.public if p.redact is not None]

    def split(o: Observation, field: str, public_keys: frozenset[str]) -> Observation:
        inner = o.value[field]
        if not any(k in public_keys for k in inner):
            return o
        private = {k: v for k, v in inner.items() if k not in public_keys}
        public = {k: v for k, v in inner.items() if k in public_keys}
        return replace(o, value={**o.value, field: private}, public={field: public})

    def redact(o: Observation) -> Observation | None:
        if o.phase in phases or (o.kind == "event" and o.value["type"] in types):
            o = replace(o, value=None, public=o.value, public_only=True)
        elif o.kind == "event" and keys:
            o = split(o, "data", keys)
        elif o.kind == "view" and info_keys:
            o = split(o, "role_info", info_keys)
        for fn in custom:
            got = fn(o)
            if got is None:
                return None
            o = got
        return o

    return redact


def _side_views(engine: hr.Engine, side: frozenset[str]) -> list[hr.PlayerView]:
    return [engine.player_view(pid) for pid in sorted(side)]


def _same_start(
    a: list[hr.PlayerView], b: list[hr.PlayerView], redact: Callable[[Observation], Observation | None]
) -> bool:
    """Whether the side's start views match: equal as they are, or once plain and redacted."""
    if a == b:
        return True

    def keys(views: list[hr.PlayerView]) -> list[Any]:
        out = []
        for v in views:
            o = redact(Observation(0, v.player_id, "view", v.phase, plain(v)))
            out.append(None if o is None else o.full_key())
        return out

    return keys(a) == keys(b)


def _find_twin(
    spec: Spec,
    leaks: LeakCheck,
    game: Game,
    started: hr.Engine,
    side: frozenset[str],
    rng: random.Random,
    seed: int,
    viewer: str,
) -> Game | None:
    """The first candidate twin in which the side holds the same roles and sees the same start.

    ``started`` is ``game`` just started (nothing played on it)."""
    redact = _redactor(leaks)
    base = _side_views(started, side)
    try:
        candidates = iter(leaks.twin(game, side, rng))
    except Exception as exc:
        raise InvariantError(spec.name, Invariant.CRASH, f"twin() raised {exc!r}", seed=seed) from exc
    for _ in range(leaks.attempts):
        try:
            twin = next(candidates, None)
        except Exception as exc:
            raise InvariantError(spec.name, Invariant.CRASH, f"twin() raised {exc!r}", seed=seed) from exc
        if twin is None:
            return None
        if twin == game or any(twin.role_of(pid) != game.role_of(pid) for pid in side):
            continue
        try:
            views = _side_views(_start(twin), side)
        except hr.GameError:
            continue  # e.g. BoardAlreadyDecided: not a playable deal
        if _same_start(views, base, redact):
            return twin
    return None


class _Observer:
    """Collects one deal's observations for the side, in order, as the engine handed them out.

    Values are kept as the engine's own immutable structures (NamedTuples, read-only
    mappings): two deals are compared item by item with ``==`` first, and only an item
    that differs is made plain and redacted (:meth:`item`) to tell a leak from a public
    difference. Redacting is a function of the item's kind, phase and value, so equal
    raw items redact equally. A custom :attr:`Public.redact` may drop items or look at
    anything, so with one every item is made plain and redacted as it arrives.
    """

    def __init__(self, leaks: LeakCheck, side: frozenset[str]) -> None:
        self.side = sorted(side)
        self.side_set = side
        self.redact = _redactor(leaks)
        self.eager = any(p.redact is not None for p in leaks.public)
        self.raw: list[tuple[int, str, str, hr.PhaseType, Any]] = []
        """``(step, seat, kind, phase, value)`` of each item (lazy mode)."""
        self.keys: list[Any] = []
        """What two deals compare first: the raw ``(seat, kind, phase, value)``, or (eager mode)
        the redacted item's :meth:`Observation.full_key`."""
        self._items: list[Observation | None] = []
        self.events: list[tuple[hr.Event, hr.PhaseType]] = []
        self.messages: list[tuple[hr.Message, tuple[str, ...]]] = []
        self.phase: hr.PhaseType = hr.START

    def __len__(self) -> int:
        return len(self.keys)

    def add(self, step: int, seat: str, kind: str, phase: hr.PhaseType, value: Any) -> None:
        self.add_for(step, (seat,), kind, phase, value)

    def add_for(self, step: int, seats: Iterable[str], kind: str, phase: hr.PhaseType, value: Any) -> None:
        """One item per seat in ``seats`` (in order), all seeing ``value``."""
        flat = None
        for seat in seats:
            if not self.eager:
                self.raw.append((step, seat, kind, phase, value))
                self.keys.append((seat, kind, phase, value))
                self._items.append(None)
                continue
            if flat is None:
                flat = plain(value)
            o = self.redact(Observation(step, seat, kind, phase, flat))
            if o is not None:
                self.keys.append(o.full_key())
                self._items.append(o)

    def item(self, j: int) -> Observation:
        """The ``j``-th observation, plain and redacted (made on demand in lazy mode)."""
        o = self._items[j]
        if o is None:
            step, seat, kind, phase, value = self.raw[j]
            o = self.redact(Observation(step, seat, kind, phase, plain(value)))
            assert o is not None, "only a custom Public.redact drops items, and then items are eager"
            self._items[j] = o
        return o

    def items(self) -> list[Observation]:
        return [self.item(j) for j in range(len(self.keys))]

    def on_event(self, event: hr.Event) -> None:
        self.events.append((event, self.phase))

    def on_message(self, message: hr.Message, receivers: tuple[str, ...]) -> None:
        self.messages.append((message, receivers))

    def flush_events(self, engine: hr.Engine, step: int) -> None:
        """Route recorded events by ``audience_of`` (board as when they were published)."""
        for ev, phase in self.events:
            if ev.type == hr.GAME_ENDED:
                continue
            audience = engine.audience_of(ev)
            seats = self.side if audience is None else [pid for pid in self.side if pid in audience]
            self.add_for(step, seats, "event", phase, ev)
        self.events.clear()

    def flush_messages(self, step: int) -> None:
        for msg, receivers in self.messages:
            self.add_for(step, [pid for pid in self.side if pid in receivers], "message", msg.phase, msg)
        self.messages.clear()


_Problem = tuple[int, Observation | None, Observation | None]

_Choices = dict[str, tuple[hr.PlayerView, hr.Config, tuple[hr.SkillType, tuple[str, ...]] | None]]
"""The side's choices by generator seed, with the view and config each was a function of: the two
deals of a pair make the same choice from the same view, so the second one reuses it."""


class _Deal:
    """One deal played for the side, a step at a time, so two deals can be compared as they go."""

    def __init__(
        self,
        spec: Spec,
        leaks: LeakCheck,
        game: Game,
        side: frozenset[str],
        seed: int,
        viewer: str,
        choices: _Choices | None = None,
    ) -> None:
        self.spec, self.leaks, self.game, self.seed, self.viewer = spec, leaks, game, seed, viewer
        self.choices: _Choices = {} if choices is None else choices
        self.obs = _Observer(leaks, side)
        self.speakers = sorted(pid for pid, _ in game.seats)
        self.steps = spec.max_steps if leaks.max_steps is None else min(spec.max_steps, leaks.max_steps)
        self.step = 0
        self.done = False
        self.engine = game.engine_type(game.rules)
        self._guarded(self._start)

    def _guarded(self, fn: Callable[[], None]) -> None:
        try:
            fn()
        except InvariantError:
            raise
        except Exception as exc:
            raise InvariantError(
                self.spec.name,
                Invariant.CRASH,
                f"while checking indistinguishability for viewer {self.viewer} on deal {self.game.describe()}: "
                f"{type(exc).__name__}: {exc}",
                seed=self.seed,
            ) from exc

    def _start(self) -> None:
        engine, obs = self.engine, self.obs
        for pid, role in self.game.seats:
            engine.add_player(pid, role)
        engine.on_event(obs.on_event)
        engine.on_message(obs.on_message)
        engine.start()
        obs.phase = engine.status().phase
        obs.flush_events(engine, 0)

    def advance(self) -> None:
        """Play one step (or notice the end); sets ``done`` when the deal has no further step."""
        if not self.done:
            self._guarded(self._advance)

    def _advance(self) -> None:
        engine, obs, game, step = self.engine, self.obs, self.game, self.step
        status = engine.status()
        if status.over or step >= self.steps:
            self.done = True
            return
        obs.phase = status.phase
        views = {pid: engine.player_view(pid) for pid in obs.side}
        for pid in obs.side:
            obs.add(step, pid, "view", status.phase, views[pid])
        if self.leaks.chat is not None:
            _chat(engine, self.leaks.chat, obs, self.speakers, status, step)
        # Whose turn it is: every view carries it (what readiness().turn answers; chat changes nothing).
        turn = views[obs.side[0]].turn
        if turn:
            _take_turns(engine, game, obs, turn, self.seed, self.viewer, step, self.choices)
        else:
            for pid in obs.side:
                _side_act(engine, game, obs, views[pid], self.seed, self.viewer, step, self.choices)
        engine.end_phase()
        obs.flush_events(engine, step + 1)
        self.step += 1


def observe(
    spec: Spec, leaks: LeakCheck, game: Game, side: frozenset[str], seed: int, viewer: str
) -> list[Observation]:
    """Play ``game`` with the side scripted and everyone else abstaining; return what the side saw."""
    deal = _Deal(spec, leaks, game, side, seed, viewer)
    while not deal.done:
        deal.advance()
    return deal.obs.items()


def _compare_as_played(a: _Deal, b: _Deal) -> _Problem | None:
    """The first index where the side's private observations differ (a leak), if any.

    The walk stops without a leak at the first difference in declared-public
    information: from there on the deals are legitimately distinguishable. A stream
    that is a strict prefix of the other is not a leak either: it stopped because its
    game ended (announced at every table) or reached ``max_steps`` (a harness limit).
    The deals are played a step at a time and the walk stops as soon as the verdict
    is known (a deal's play never depends on the other's, so the verdict is the one
    the two finished streams would give).
    """
    i = 0
    ka, kb = a.obs.keys, b.obs.keys
    while True:
        n = min(len(ka), len(kb))
        for j in range(i, n):
            if ka[j] == kb[j]:
                continue
            x, y = a.obs.item(j), b.obs.item(j)
            if x.full_key() == y.full_key():
                continue  # equal once plain (e.g. the same mapping in another order)
            if x.public_only or y.public_only or x.key() == y.key():
                return None
            return (j, x, y)
        i = n
        if (a.done and len(kb) >= len(ka)) or (b.done and len(ka) >= len(kb)):
            return None
        a.advance()
        b.advance()


def _chat(
    engine: hr.Engine, chat: ChatScript, obs: _Observer, speakers: list[str], status: hr.Status, step: int
) -> None:
    """Every seat (``speakers``, sorted) says its line; the side's own lines are sent.

    A line from outside the side: only whether it reaches a side seat is observed.
    ``message_receivers`` answers what ``send_message`` would deliver to (the same rule,
    without building and raising the refusal a silenced seat's line costs), and the
    message is built only when a side seat hears it.
    """
    phase, round_ = status.phase, status.round
    side = obs.side_set
    receivers_of = engine.message_receivers
    for pid in speakers:
        line = chat(pid, phase, round_)
        if line is None:
            continue
        if pid not in side:
            try:
                receivers = receivers_of(pid)
            except hr.GameError:
                continue
            if not side.isdisjoint(receivers):
                obs.on_message(hr.Message(pid, line, phase, round_), receivers)
            continue
        try:
            engine.send_message(pid, line)
            result = "ok"
        except hr.GameError as exc:
            result = exc.code
        obs.add(step, pid, "speak", phase, result)
    obs.flush_messages(step)


def _take_turns(
    engine: hr.Engine, game: Game, obs: _Observer, turn: str, seed: int, viewer: str, step: int, choices: _Choices
) -> None:
    """A turn-ordered phase, ``turn`` holding the turn: side seats act when their turn comes;
    every other seat abstains by passing its turn at once, so the side's turns do come round."""
    for n in range(8 * len(game.seats)):
        if n:
            turn = engine.readiness().turn
        if not turn:
            return
        if turn in obs.side_set:
            _side_act(engine, game, obs, engine.player_view(turn), seed, viewer, step, choices)
            if engine.readiness().turn != turn:
                continue
        engine.end_turn(turn)


def _side_act(
    engine: hr.Engine,
    game: Game,
    obs: _Observer,
    view: hr.PlayerView,
    seed: int,
    viewer: str,
    step: int,
    choices: _Choices,
) -> None:
    """One side seat acts, choosing only from what the side has observed."""
    if not view.allowed_skills:
        return
    config = game.rules.config
    key = f"{seed}/{viewer}/{len(obs)}/{view.player_id}"
    kept = choices.get(key)
    if kept is not None and kept[1] is config and kept[0] == view:
        choice = kept[2]
    else:
        choice = _choose(config, view, random.Random(key))
        choices[key] = (view, config, choice)
    if choice is None:
        return
    skill, targets = choice
    try:
        engine.submit(view.player_id, skill, targets)
        result = "ok"
    except hr.GameError as exc:
        result = exc.code
    obs.add(step, view.player_id, "submit", view.phase, {"skill": skill, "targets": list(targets), "result": result})


def _choose(config: hr.Config, view: hr.PlayerView, rng: random.Random) -> tuple[hr.SkillType, tuple[str, ...]] | None:
    """The skill and targets ``view``'s seat picks with ``rng`` (``None``: nothing it can do)."""
    skill = rng.choice(view.allowed_skills)
    pstep = find_step(config, view.phase, view.self.role, skill)
    if pstep is None:
        return None
    players = [(p.id, p.alive) for p in view.players]
    targets = choose_targets(pstep, view.player_id, players, config.target_pools, rng)
    if targets is None:
        return None
    return skill, targets


def _leak_text(game: Game, twin: Game, viewer: str, side: frozenset[str], problem: _Problem) -> str:
    i, x, y = problem
    moved = [f"{pid}: {r} -> {twin.role_of(pid)}" for pid, r in game.seats if twin.role_of(pid) != r]
    lines = [
        f"viewer {viewer} ({game.role_of(viewer)}), side {sorted(side)}",
        f"deal A: {game.describe()}",
        f"deal B: {twin.describe()}",
        f"differs at: {', '.join(moved) if moved else '(rules/deal data only)'}",
        f"first differing observation #{i}:",
        f"  A: {_obs_text(x)}",
        f"  B: {_obs_text(y)}",
    ]
    if x is not None and y is not None and x.kind == y.kind:
        found = list(itertools.islice(differences(x.value, y.value, x.kind), 4))
        lines.append(f"  in short: {'; '.join(found)}")
    return "\n".join(lines)


def _obs_text(o: Observation | None) -> str:
    if o is None:
        return "(nothing: the deal produced no further observation)"
    text = repr(o.value)
    if o.public is not None and not o.public_only:
        text += f" (public part: {o.public!r})"
    if len(text) > 600:
        text = text[:597] + "..."
    return f"step {o.step}, phase {o.phase}, {o.kind} seen by {o.seat}: {text}"
