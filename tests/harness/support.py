"""What the three harness modules share: seed chunks, a random policy that sometimes abstains, labels.

Why chunks: one ``et.run`` is one pytest test, and pytest-xdist spreads tests, not
games. A chunk is a run over consecutive seeds, big enough to prove its own
``must_see`` labels and viewer coverage, because chunks may run in different worker
processes and in any order, so they cannot pool their counts.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace

import hiddenrole as hr
from hiddenrole import enginetest as et

__all__ = [
    "Chunk",
    "Plant",
    "Retarget",
    "chunks",
    "ended_labels",
    "planted_leak_found",
    "policy",
    "refusal_labels",
    "run_chunk",
    "with_planted_leak",
]


@dataclass(frozen=True, slots=True)
class Chunk:
    """Seeds ``start .. start + games - 1`` of one family; H runs on the first ``leak_games``."""

    family: str
    start: int
    games: int
    leak_games: int

    @property
    def name(self) -> str:
        return f"{self.family}[{self.start}..{self.start + self.games - 1}]"


def chunks(family: str, first_seed: int, total: int, size: int, leak_games: int) -> list[Chunk]:
    """``total`` games of ``family`` from ``first_seed`` on, cut into chunks of ``size``."""
    assert total % size == 0, "equal chunks keep the per-chunk must_see margins equal"
    return [Chunk(family, first_seed + i, size, leak_games) for i in range(0, total, size)]


Plant = Callable[[hr.Effect, hr.GameView], Iterable[hr.Effect] | None]
"""An interceptor that plants a leak into a ruleset, for tests that prove H still sees it."""

Retarget = Callable[[et.Turn, str, hr.SkillType, tuple[str, ...]], tuple[str, ...]]
"""``(turn, player, skill, random targets) -> targets``: a ruleset's nudge towards rare mechanisms."""


def policy(abstain: float, retarget: Retarget | None = None, again: float = 0.0) -> et.Act:
    """The harness's random policy, except that seats sometimes abstain or act twice.

    Each seat with something to do abstains with probability ``abstain``; after a
    submission it submits once more with probability ``again`` (while it still may).
    Under ``et.random_policy`` every seat acts exactly once, so rules for a silent
    leader, a missing ballot, a second potion or "only the first submission counts"
    are never reached. ``retarget`` may replace the targets of a chosen skill; they
    must stay legal, since ``submit`` refusing them fails the run as a CRASH.
    """

    def submit_one(turn: et.Turn, pid: str) -> bool:
        choice = et.random_submission(turn.engine, pid, turn.rng)
        if choice is None:
            return False
        skill, targets = choice
        if retarget is not None:
            targets = retarget(turn, pid, skill, targets)
        turn.engine.submit(pid, skill, targets)
        return True

    def act(turn: et.Turn) -> None:
        engine, rng = turn.engine, turn.rng
        for pid in engine.player_ids():
            if not engine.allowed_skills(pid):
                continue
            if rng.random() < abstain:
                turn.label("abstained")
                continue
            if submit_one(turn, pid) and rng.random() < again:
                # What the first submission withholds (a second potion): the board between the
                # two is never a step boundary, so the labeler could not see it.
                for r in engine.phase_info().roles.values():
                    for reason in sorted(set(r.refused.get(pid, {}).values())):
                        turn.label(f"second-withheld:{reason}")
                if engine.allowed_skills(pid):
                    turn.label("acted-twice")
                    submit_one(turn, pid)

    return act


def refusal_labels(effects: Iterable[hr.Effect]) -> Iterator[str]:
    """``refused:<type>:<reason>`` for every cancelled rule event, so must_see can name a refusal."""
    for e in effects:
        if e.canceled and not e.is_internal:
            yield f"refused:{e.type}:{e.reason}"


def ended_labels(effects: Iterable[hr.Effect]) -> Iterator[str]:
    """``winners:several`` / ``winners:none`` from the GAME_ENDED effect (``won:<camp>`` is the harness's)."""
    for e in effects:
        if e.type == hr.GAME_ENDED:
            if len(e.winners) > 1:
                yield "winners:several"
            elif not e.winners:
                yield "winners:none"


def run_chunk(spec: et.Spec) -> et.Report:
    """Run one chunk; raise on any broken invariant; check every game was played and finished."""
    report = et.run(spec)
    assert report.games == spec.games
    assert report.finished == spec.games, report.summary()
    if spec.leaks is not None and spec.leaks.games:
        assert report.leak_pairs > 0, report.summary()
    return report


def with_planted_leak(spec: et.Spec, interceptor: Plant, games: int) -> et.Spec:
    """``spec`` on its first ``games`` seeds, every deal's rules carrying ``interceptor``, H on each.

    For tests that prove the run, with its declarations, still sees a leak: a
    declaration broader than the ruleset's real disclosures would hide it.
    """
    setup = spec.setup

    def leaky(rng: random.Random) -> et.Game:
        game = setup(rng)
        return et.Game(game.rules.with_interceptors(interceptor), game.seats, game.engine_type)

    assert spec.leaks is not None
    leaks = replace(spec.leaks, games=games)
    return replace(spec, setup=leaky, games=games, must_see=(), leaks=leaks)


def planted_leak_found(spec: et.Spec) -> et.InvariantError:
    """Run ``spec`` and return the error: it must be a leak (H), not any other failure."""
    try:
        et.run(spec)
    except et.InvariantError as err:
        assert err.invariant == et.Invariant.LEAK, str(err)
        return err
    raise AssertionError(f"{spec.name}: the planted leak went unnoticed")
