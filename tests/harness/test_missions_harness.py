"""Invariants A-H over random missions games (issue 4: at least 1000 games in CI).

Tables of 5 to 10 players: a fifth are The Resistance (servants and minions only),
the rest Avalon with a random choice of Percival, Morgana, Mordred and Oberon. Seats
sometimes stay silent, so forfeited nominations, missing ballots and unplayed mission
cards happen too. The leak check (H) runs on every game and must have had a viewer
of every role in every chunk.

Declared public: the assassination's result (M16). Whether the named player was
Merlin is announced to the table, so from that event on two deals that place Merlin
differently may look different.

Evil seats learn their fellows as role info, not as kernel teammates (M4), so an evil
viewer's side is that seat alone. The twin deal (:func:`evil_swap_first`) is, for half
the viewers, two other evil seats trading roles: H then checks that no evil seat ever
learns which role a fellow holds.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator

import pytest

import hiddenrole as hr
from hiddenrole import enginetest as et
from hiddenrole.games import missions as ms

from .support import (
    Chunk,
    chunks,
    ended_labels,
    planted_leak_found,
    policy,
    refusal_labels,
    run_chunk,
    with_planted_leak,
)

ROLES = tuple(sorted(ms.ROLES))
HIT_KEY = "hit"
"""The data key of ``MS_ASSASSINATED`` that says whether Merlin was named (no constant exported)."""
ASSASSINATION_RESULT = et.Public("M16: the assassination's result is announced", data_keys=frozenset({HIT_KEY}))

RESISTANCE_SHARE = 0.2
OPTIONAL_ROLE = 0.6
"""Chance that an Avalon table asks for each optional role (dropped again if the table has no room)."""
ABSTAIN = 0.08
"""Chance that a seat lets a phase pass: a leader forfeits, a ballot or a mission card is missing."""
AGAIN = 0.2
"""Chance of a second submission (only a player's first ballot or card counts)."""
FOUND_MERLIN = 0.3
"""Chance that the assassin names Merlin (a random guess rarely does at big tables)."""


def _composition(rng: random.Random, players: int) -> tuple[str, ...]:
    if rng.random() < RESISTANCE_SHARE:
        return ms.composition(ms.RESISTANCE, players)
    wanted = [r for r in sorted(ms.OPTIONAL_ROLES[ms.AVALON]) if rng.random() < OPTIONAL_ROLE]
    while True:
        try:
            return ms.composition(ms.AVALON, players, wanted)
        except hr.InvalidBoard:  # too many evil roles for the table, or a missing partner
            wanted.pop(rng.randrange(len(wanted)))


def setup(rng: random.Random) -> et.Game:
    players = rng.randint(ms.MIN_PLAYERS, ms.MAX_PLAYERS)
    return et.Game(ms.rules(), et.deal(rng, list(_composition(rng, players))))


EVIL_SWAP_SHARE = 0.5
"""Chance that a viewer's first candidate twin is two other evil seats trading roles."""


def evil_swap_first(game: et.Game, side: frozenset[str], rng: random.Random) -> Iterable[et.Game]:
    """Candidate twins: sometimes first a swap of two evil roles outside the side, then
    :func:`hiddenrole.enginetest.permute_others`. Random permutations rarely keep an evil
    viewer's start view (its fellows' seats), so without the swap H would hardly ever
    compare deals that differ only in which evil role sits where."""
    if rng.random() < EVIL_SWAP_SHARE:
        seats = list(game.seats)
        evil = [i for i, (pid, role) in enumerate(seats) if pid not in side and ms.camp_of(role) == ms.EVIL]
        pairs = [(a, b) for a in evil for b in evil if a < b and seats[a][1] != seats[b][1]]
        if pairs:
            a, b = rng.choice(pairs)
            seats[a], seats[b] = (seats[a][0], seats[b][1]), (seats[b][0], seats[a][1])
            yield et.Game(game.rules, tuple(seats), game.engine_type)
    yield from et.permute_others(game, side, rng)


def find_merlin(turn: et.Turn, pid: str, skill: hr.SkillType, targets: tuple[str, ...]) -> tuple[str, ...]:
    """The assassin sometimes names Merlin, so that every chunk sees hits as well as misses."""
    if skill == ms.ASSASSINATE and turn.rng.random() < FOUND_MERLIN:
        engine = turn.engine
        merlin = [p for p in engine.player_ids() if engine.player_info(p).role == ms.MERLIN]
        if merlin:
            return (merlin[0],)
    return targets


def labeler(engine: hr.Engine, effects: tuple[hr.Effect, ...]) -> Iterator[str]:
    """How missions and games ended: the assassination, a saved fourth mission, the way each side won."""
    yield from refusal_labels(effects)
    yield from ended_labels(effects)
    types = {e.type for e in effects if not e.canceled}
    for e in effects:
        if e.type == ms.ASSASSINATED:
            yield "assassination:hit" if e.data.get(HIT_KEY) == "true" else "assassination:miss"
        elif e.type == ms.MISSION_SUCCEEDED and e.data.get("fails") == "1" and e.data.get("fails_needed") == "2":
            yield "mission:one-fail-of-two-needed"
        elif e.type == hr.GAME_ENDED:
            won = ",".join(e.winners)
            if ms.HAMMER in types:
                yield f"ended:{won}:hammer"
            elif ms.ASSASSINATED in types:
                yield f"ended:{won}:assassination"
            else:
                yield f"ended:{won}:missions"


MUST_SEE = (
    "won:GOOD",
    "won:EVIL",
    ms.HAMMER,
    "assassination:hit",
    "assassination:miss",
    "ended:GOOD:missions",
    "ended:EVIL:missions",
    "ended:EVIL:hammer",
    "ended:EVIL:assassination",
    "ended:GOOD:assassination",
    "mission:one-fail-of-two-needed",
    ms.NO_NOMINATION,
    ms.MISSION_FAILED,
    f"phase:{ms.PROPOSE_2}",
    f"phase:{ms.PROPOSE_5}",
    f"refused:{ms.FAIL_REFUSED}:a good player's card is always a success",
)

GAMES_PER_CHUNK = 200
CHUNKS = chunks("missions", 0, 1000, GAMES_PER_CHUNK, GAMES_PER_CHUNK)


def spec_for(chunk: Chunk) -> et.Spec:
    return et.Spec(
        name=chunk.name,
        setup=setup,
        act=policy(ABSTAIN, find_merlin, again=AGAIN),
        games=chunk.games,
        start=chunk.start,
        max_steps=200,
        want_end=True,
        must_see=MUST_SEE,
        labeler=labeler,
        leaks=et.LeakCheck(
            roles=ROLES,
            games=chunk.leak_games,
            public=(ASSASSINATION_RESULT,),
            chat=et.default_chat,
            twin=evil_swap_first,
        ),
    )


def test_chunks_cover_at_least_1000_games_with_h_on_300() -> None:
    assert sum(c.games for c in CHUNKS) >= 1000
    assert sum(c.leak_games for c in CHUNKS) >= 300


@pytest.mark.parametrize("chunk", CHUNKS, ids=lambda c: c.name)
def test_missions_keeps_invariants_a_to_h(chunk: Chunk) -> None:
    report = run_chunk(spec_for(chunk))
    assert set(report.leak_viewers) == set(ROLES), report.summary()


def leader_named_with_role(effect: hr.Effect, view: hr.GameView) -> list[hr.Effect] | None:
    """Planted leak: the announcement of a new leader also tells the leader's role."""
    if effect.type != ms.LEADER or effect.canceled:
        return None
    p = view.player(effect.target)
    return [effect.with_data("role", p.role if p is not None else "")]


def test_h_sees_a_leak_the_declarations_do_not_cover() -> None:
    err = planted_leak_found(with_planted_leak(spec_for(CHUNKS[0]), leader_named_with_role, games=5))
    assert "role" in str(err)
