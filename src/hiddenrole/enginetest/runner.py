"""Play random games from seeds and check invariants A-G after every step.

One game is a loop over steps. Step ``k`` is the state after ``k`` phases have ended
(step 0: just after ``start``). At each step, with nothing pending yet, the harness
checks the status (E) and the log replay (B); a finished game then gets C, D, the
snapshot round trip (A) and F, and the loop stops. A running game gets its act
function, then C, D and A, where A ends the phase on the original and on a restored
copy (two on full replay steps) and compares what comes out. Events reach a recorder
that enforces G. Nothing here costs more as the game grows: the JSON round trips cover
the new log entries only and the whole log is replayed on a schedule
(:mod:`.roundtrip`), so a game's checks cost time linear in its length.
"""

from __future__ import annotations

import dataclasses
import json
import random
import traceback
from collections import Counter
from collections.abc import Callable, Iterable
from functools import partial
from typing import NoReturn, TypeVar

import hiddenrole as hr

from .checks import Behaviour, behaviour, behaviour_diff, diff, plain, requery, status_problems, who_acts_problems
from .core import Game, Invariant, InvariantError, Labeler, Turn
from .leaks import check_leaks
from .roundtrip import FULL, GrowingLog, ReplaySchedule, roundtrip_snapshot
from .spec import Report, Spec

__all__ = ["run", "run_one", "victory_now"]

T = TypeVar("T")


def run(spec: Spec) -> Report:
    """Play every seed of ``spec``; raise :class:`InvariantError` at the first broken invariant.

    After all games, checks ``must_see`` labels and the leak check's viewer coverage.
    """
    if not isinstance(spec, Spec):
        raise hr.InvalidArgument("run() needs an enginetest.Spec")
    report = Report(spec.name)
    for seed in spec.seeds:
        _play(spec, seed, report)
    missing = [label for label in spec.must_see if report.labels[label] == 0]
    if missing:
        seen = ", ".join(f"{k}={v}" for k, v in sorted(report.labels.items()))
        raise InvariantError(
            spec.name,
            Invariant.MUST_SEE,
            f"never seen in {report.games} games: {', '.join(missing)}\nlabels seen: {seen}",
        )
    if spec.leaks is not None and (spec.leaks.games is None or spec.leaks.games > 0):
        uncovered = [r for r in spec.leaks.roles if report.leak_viewers[r] == 0]
        if uncovered:
            raise InvariantError(
                spec.name,
                Invariant.COVERAGE,
                f"no indistinguishability check had a viewer of role {', '.join(uncovered)} "
                f"(no deal held it, or no twin deal was found; skipped: {dict(sorted(report.leak_skipped.items()))})",
            )
    return report


def run_one(spec: Spec, seed: int) -> Report:
    """Play the single game ``seed`` of ``spec`` exactly as :func:`run` does (to reproduce a failure).

    The run-wide checks (``must_see``, viewer coverage) are not made for one game.
    """
    if not isinstance(spec, Spec):
        raise hr.InvalidArgument("run_one() needs an enginetest.Spec")
    report = Report(spec.name)
    _play(spec, seed, report)
    return report


def _play(spec: Spec, seed: int, report: Report) -> None:
    g = _GameRun(spec, seed, report)
    g.play()
    report.games += 1
    report.finished += g.finished
    report.steps += g.step
    leaks = spec.leaks
    if leaks is None:
        return
    if leaks.games is None or 0 <= seed - spec.start < leaks.games:
        check_leaks(spec, leaks, seed, g.game, report)


class _EventRecorder:
    """Counts event types and remembers any kernel primitive that was published (G)."""

    __slots__ = ("leaked", "types")

    def __init__(self) -> None:
        self.types: Counter[str] = Counter()
        self.leaked: list[hr.Event] = []

    def __call__(self, event: hr.Event) -> None:
        self.types[event.type] += 1
        if event.type in hr.INTERNAL_EVENTS:
            self.leaked.append(event)


class _GameRun:
    """One seeded game under the harness. ``fail`` raises with the seed and step."""

    def __init__(self, spec: Spec, seed: int, report: Report) -> None:
        self.spec = spec
        self.seed = seed
        self.report = report
        self.step = 0
        self.finished = 0
        self.rng = random.Random(seed)
        self.recorder = _EventRecorder()
        self.clone_recorder = _EventRecorder()
        self.previous_round = 0
        self.log_json = GrowingLog()
        """The log's JSON round trip, shared by B (the log) and A (the snapshot's log): each
        entry is encoded and decoded once, by whichever check meets it first."""
        self.schedule = ReplaySchedule()
        self.replayed = False
        self._pre_checked: tuple[str, int] | None = None
        game: object = self._guarded(partial(spec.setup, self.rng), "setup")
        if not isinstance(game, Game):
            self.fail(Invariant.CRASH, f"setup returned {type(game).__name__}, not an enginetest.Game")
        self.game = game
        self.rules = game.rules
        self.watch = VictoryWatch.of(game.rules)
        """E's check of ``Rules.victory_after`` (``None`` when the rules declare none)."""
        self.engine_type = game.engine_type
        self.engine = self._guarded(self._build, "seating and start")

    # ------------------------------------------------------------------ plumbing

    def fail(self, invariant: Invariant, detail: str) -> NoReturn:
        raise InvariantError(self.spec.name, invariant, detail, seed=self.seed, step=self.step)

    def _guarded(self, fn: Callable[[], T], what: str, invariant: Invariant = Invariant.CRASH) -> T:
        """Run ``fn``; any exception becomes an :class:`InvariantError` with seed, step and traceback."""
        try:
            return fn()
        except InvariantError:
            raise
        except Exception as exc:
            tb = "".join(traceback.format_exception(exc, limit=-4))
            self.fail(invariant, f"{what} raised {type(exc).__name__}: {exc}\n{tb.rstrip()}")

    def _build(self) -> hr.Engine:
        engine = self.engine_type(self.rules)
        for pid, role in self.game.seats:
            engine.add_player(pid, role)
        engine.on_event(self.recorder)
        engine.start()
        return engine

    def _label(self, names: Iterable[str]) -> None:
        for n in names:
            self.report.labels[n] += 1

    # ------------------------------------------------------------------ the loop

    def play(self) -> None:
        spec = self.spec
        while True:
            status = self.engine.status()
            self.check_status(status)
            last = status.over or self.step >= spec.max_steps
            current = self.check_replay(status, last)
            if status.over:
                self.check_finished(status, current)
                self.finished = 1
                self._label([f"won:{w}" for w in status.winners] or ["won:none"])
                return
            self._label([f"phase:{status.phase}"])
            # C before anyone acts too (once every seat has used its step, nobody may act and the
            # three answers agree trivially): on every step whose behaviour was read, and on the
            # first step of each phase visit, when the most seats may act.
            where = (status.phase, status.round)
            if current is not None or where != self._pre_checked:
                self._pre_checked = where
                before = current if current is not None else self._read(self.engine)
                problems = self._guarded(partial(who_acts_problems, self.engine, before), "reading the engine")
                if problems:
                    self.fail(Invariant.WHO_ACTS, "\n".join(problems))
            if last:
                self.check_restore(self.check_who_acts_and_stable(current), end=False, verified=True)
                if spec.want_end:
                    self.fail(Invariant.WANT_END, f"still running after {spec.max_steps} steps: {status}")
                return
            if spec.act is not None:
                turn = Turn(self.engine, self.rng, self.seed, self.step, self.game)
                self._guarded(partial(spec.act, turn), "act")
                self.report.labels.update(turn.labels)
            effects = self.check_restore(self.check_who_acts_and_stable(), end=True, verified=self.replayed)
            self.step += 1
            self.check_primitives()
            if spec.labeler is not None:
                self._label(self._guarded(partial(_labels, spec.labeler, self.engine, effects), "labeler"))

    # ------------------------------------------------------------------ invariants

    def check_status(self, status: hr.Status) -> None:
        """E: status coherent; rounds never decrease."""
        problems = status_problems(status, self.previous_round)
        if problems:
            self.fail(Invariant.STATUS, "\n".join(problems))
        self.previous_round = status.round

    def _read(
        self, engine: hr.Engine, what: str = "reading the engine", invariant: Invariant = Invariant.CRASH
    ) -> Behaviour:
        return self._guarded(partial(behaviour, engine), what, invariant)

    def check_who_acts_and_stable(self, b: Behaviour | None = None) -> tuple[Behaviour, hr.Snapshot]:
        """C and D on the live engine; returns its behaviour (each seat's view built once) and
        snapshot (the second of D's two) for A.

        D asks every cheap question again (status, allowed skills, readiness, phase
        info, pending, snapshot) and one seat's view, a different seat each step; a
        later disagreement with another engine first re-asks everything (:meth:`_unstable`).
        """
        engine = self.engine
        if b is None:
            b = self._read(engine)
        problems = self._guarded(partial(who_acts_problems, engine, b), "reading the engine")
        if problems:
            self.fail(Invariant.WHO_ACTS, "\n".join(problems))
        probe = self.step % len(b.views)
        again = self._guarded(partial(requery, engine, b, probe), "reading the engine", Invariant.STABLE)
        d = behaviour_diff(b, again)
        if d:
            self.fail(Invariant.STABLE, f"asking twice gave different answers: {d}")
        snap = engine.snapshot()
        if engine.snapshot() != snap:
            self.fail(Invariant.STABLE, "two snapshots in a row differ")
        return b, snap

    def _unstable(self, b: Behaviour, other: hr.Engine, theirs: Behaviour, how: str) -> None:
        """D before blaming A or B: if either engine answers differently when asked again, say so."""
        d = behaviour_diff(b, self._read(self.engine, "reading the engine", Invariant.STABLE))
        if d:
            self.fail(Invariant.STABLE, f"asking twice gave different answers: {d}")
        d = behaviour_diff(theirs, self._read(other, how, Invariant.STABLE))
        if d:
            self.fail(Invariant.STABLE, f"the engine from {how}: asking twice gave different answers: {d}")

    def _restored(self, snap: hr.Snapshot, verify: bool) -> hr.Engine:
        # The every-step copy runs under the declaration lifted, its checker watched (E); the verified
        # copy under the rules as given, like the original.
        watch = self.watch
        rules = self.rules if verify or watch is None else watch.rules
        clone = self.engine_type.restore(rules, snap, verify=verify)
        clone.on_event(self.clone_recorder)
        return clone

    def check_restore(self, read: tuple[Behaviour, hr.Snapshot], end: bool, verified: bool) -> tuple[hr.Effect, ...]:
        """A: restore from snapshot JSON; same behaviour; with ``end``, the same future.

        ``read`` is the live engine's behaviour and snapshot, as :meth:`check_who_acts_and_stable`
        just read them. The snapshot goes through JSON with its log's new entries only (:mod:`.roundtrip`).
        Every step restores without verification (the board as saved); ``verified``
        steps (:data:`FULL` replay steps) also restore with ``verify=True``, which
        replays the whole log.
        """
        b, saved = read
        decode = partial(roundtrip_snapshot, saved, self.log_json)
        snap = self._guarded(decode, "the snapshot JSON round trip", Invariant.SNAPSHOT)
        clones: list[tuple[str, hr.Engine]] = []
        for verify in (False, True) if verified else (False,):
            how = f"restore(verify={verify})"
            clone = self._guarded(partial(self._restored, snap, verify), how, Invariant.SNAPSHOT)
            theirs = self._read(clone, how, Invariant.SNAPSHOT)
            d = behaviour_diff(b, theirs)
            if d:
                self._unstable(b, clone, theirs, how)
                self.fail(Invariant.SNAPSHOT, f"the engine from {how} behaves differently: {d}")
            clones.append((how, clone))
        if not end:
            return ()
        effects = self._guarded(self.engine.end_phase, "end_phase")
        after = self.engine.snapshot()
        status = self.engine.status()
        for how, clone in clones:
            got = self._guarded(clone.end_phase, f"end_phase on the engine from {how}", Invariant.SNAPSHOT)
            self.check_victory_after()
            if got != effects:
                d = diff(plain(effects), plain(got), "effects")
                self.fail(Invariant.SNAPSHOT, f"after {how}, end_phase produced other effects: {d}")
            d = snapshot_diff(after, clone.snapshot())
            if d:
                self.fail(Invariant.SNAPSHOT, f"after {how} and end_phase, snapshots differ: {d}")
            if clone.status() != status:
                self.fail(Invariant.SNAPSHOT, f"after {how} and end_phase: {clone.status()} != {status}")
        return effects

    def check_victory_after(self) -> None:
        """E: no phase end that ``Rules.victory_after`` leaves out found the game decided.

        The engine never asks the checker then, so a declaration that forgot a phase would let a
        decided game play on without a sound. The restored copy that runs without the declaration
        asks it after every phase end (but while a detour is owed, as the engine does), on the very
        board the engine would have shown it; :class:`VictoryWatch` records what it said."""
        watch = self.watch
        if watch is None or not watch.hidden:
            return
        phase, rnd, camps = watch.hidden[0]
        self.fail(
            Invariant.STATUS,
            f"Rules.victory_after leaves out {phase!r}, but when it ended (round {rnd}) the victory checker "
            f"said {list(camps)}: the engine, which does not ask it then, let a decided game run on "
            f"(declared: {sorted(watch.declared)})",
        )

    def check_replay(self, status: hr.Status, last: bool) -> Behaviour | None:
        """B: the log's new entries survive JSON every step; on scheduled steps the whole log replays.

        A replay (nothing may be pending) must hold the same log and rebuild the same
        board; on :data:`FULL` steps it must also behave the same. Returns the live
        engine's behaviour when it was read.
        """
        engine = self.engine
        log = self._guarded(engine.log, "reading the engine")
        decoded = self._guarded(partial(self.log_json.roundtrip, log), "the log JSON round trip", Invariant.REPLAY)
        due = self.schedule.due(status.phase, len(log.effects), last)
        self.replayed = due == FULL
        if due is None or engine.pending_uses():
            return None
        again = self._guarded(partial(self.engine_type.replay, self.rules, decoded), "replay", Invariant.REPLAY)
        theirs = again.log()
        if theirs != log and theirs.to_json() != log.to_json():
            self.fail(Invariant.REPLAY, "the replayed engine's log differs from the log it was built from")
        d = snapshot_diff(engine.snapshot(), again.snapshot())
        if d:
            self.fail(Invariant.REPLAY, f"replay rebuilt a different board: {d}")
        if due != FULL:
            return None
        mine = self._read(engine)
        replayed = self._read(again, "replay", Invariant.REPLAY)
        d = behaviour_diff(mine, replayed)
        if d:
            self._unstable(mine, again, replayed, "replay")
            self.fail(Invariant.REPLAY, f"the replayed engine behaves differently: {d}")
        return mine

    def check_primitives(self) -> None:
        """G: no kernel primitive reached an event handler (original or restored engines)."""
        for who, rec in (("the engine", self.recorder), ("a restored engine", self.clone_recorder)):
            if rec.leaked:
                ev = rec.leaked[0]
                self.fail(Invariant.PRIMITIVES, f"{who} published kernel primitive {ev.type}: {ev}")
        self._label(self.recorder.types.elements())
        self.recorder.types.clear()

    def _must_refuse(self, what: str, poke: Callable[[], object]) -> None:
        """F: ``poke`` on a finished game raises GameEnded."""
        try:
            poke()
        except hr.GameEnded:
            return
        except Exception as exc:
            self.fail(Invariant.FINISHED, f"{what} after the end raised {type(exc).__name__}, not GameEnded")
        self.fail(Invariant.FINISHED, f"{what} after the end was accepted")

    def check_finished(self, status: hr.Status, current: Behaviour | None) -> None:
        """F (plus C, D, A and G on the final board): the end is final and survives saving."""
        self.check_restore(self.check_who_acts_and_stable(current), end=False, verified=True)
        engine = self.engine
        data = engine.snapshot().to_json()
        first = engine.player_ids()[0]
        self._must_refuse("end_phase", engine.end_phase)
        self._must_refuse("submit", partial(engine.submit, first, hr.SKIP))
        if engine.snapshot().to_json() != data or engine.status() != status:
            self.fail(Invariant.FINISHED, "poking a finished game changed it")
        for verify in (False, True):
            restore = partial(self.engine_type.restore, self.rules, data, verify=verify)
            clone = self._guarded(restore, f"restore(verify={verify})", Invariant.FINISHED)
            if clone.status() != status or clone.snapshot().to_json() != data:
                self.fail(Invariant.FINISHED, f"a saved finished game restores as {clone.status()}, not {status}")
            self._must_refuse(f"end_phase on a restored (verify={verify}) finished game", clone.end_phase)
        again = self._guarded(partial(victory_now, self.rules, engine.view()), "victory", Invariant.FINISHED)
        if again is not None and again != status.winners:
            self.fail(
                Invariant.FINISHED,
                f"the game ended with winners {list(status.winners)}, but the rules now say {list(again)} "
                "for the same final board",
            )
        self.check_primitives()


def snapshot_diff(a: hr.Snapshot, b: hr.Snapshot) -> str | None:
    """``None`` if the two snapshots encode to the same JSON bytes, else the first difference.

    Equal values encode identically, so bytes are produced only when the values differ.
    """
    if a == b:
        return None
    ours, theirs = a.to_json(), b.to_json()
    if ours == theirs:
        return None
    return diff(json.loads(ours), json.loads(theirs), "snapshot") or "snapshot: bytes differ"


def _labels(labeler: Labeler, engine: hr.Engine, effects: tuple[hr.Effect, ...]) -> tuple[str, ...]:
    return tuple(labeler(engine, effects))


def victory_now(rules: hr.Rules, view: hr.GameView) -> tuple[str, ...] | None:
    """Ask the rules' victory checker about ``view`` directly (``None``: undecided or no checker)."""
    fn = _checker(rules)
    if fn is None:
        return None
    got = fn(view)
    return None if got is None else tuple(sorted(set(got)))


def _checker(rules: hr.Rules) -> Callable[[hr.GameView], Iterable[str] | None] | None:
    """The rules' victory checker as a plain callable (its ``check_victory`` method, or itself)."""
    checker = rules.victory
    if checker is None:
        return None
    method = getattr(checker, "check_victory", None)
    fn: Callable[[hr.GameView], Iterable[str] | None] = method if callable(method) else checker  # type: ignore[assignment]
    return fn


class VictoryWatch:
    """The rules' victory checker, watched: what it decides after a phase their ``victory_after``
    leaves out is recorded in :attr:`hidden` (phase, round, camps).

    :attr:`rules` are the rules with the declaration lifted and this watch as their checker (same
    name and version, so a snapshot restores under them): an engine of them asks after every phase
    end, on the board the declared engine would have asked about had it asked, and otherwise
    decides exactly as the rules do.
    """

    __slots__ = ("declared", "fn", "hidden", "rules")

    def __init__(self, rules: hr.Rules, fn: Callable[[hr.GameView], Iterable[str] | None]) -> None:
        self.declared: frozenset[str] = rules.victory_after or frozenset()
        self.fn = fn
        self.hidden: list[tuple[str, int, tuple[str, ...]]] = []
        self.rules = dataclasses.replace(rules, victory=self, victory_after=None)

    @classmethod
    def of(cls, rules: hr.Rules) -> VictoryWatch | None:
        """A watch for ``rules``, ``None`` when they declare no ``victory_after`` (nothing is skipped)."""
        fn = _checker(rules)
        if rules.victory_after is None or fn is None:
            return None
        return cls(rules, fn)

    def __call__(self, view: hr.GameView) -> tuple[str, ...] | None:
        got = self.fn(view)
        if got is None:
            return None
        camps = tuple(got)  # read once: the engine gets the same camps
        phase = view.phase  # the phase that just ended: the engine asks before it moves on
        if phase not in self.declared and phase != hr.START:  # START: the check before the start
            self.hidden.append((phase, view.round, camps))
        return camps
