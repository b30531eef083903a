"""Invariants A-H over random One Night games (issue 4: at least 1000 games in CI).

Decks are random parts of the box for 3 to 10 players; two tables in five play
with the optional minion clause. The leak check (H) runs on every game, with twins
that move the centre cards too (:mod:`.onenight_support`), and must have had a
viewer of every one of the eleven roles in every chunk.

Declared public (narrowly, see :mod:`.onenight_support`): the card a seat looks at,
only in the events and role info of the roles that look, and a dying hunter's shot.
Votes, lynchings and "nobody dies" are compared like everything else.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

import hiddenrole as hr
from hiddenrole import enginetest as et
from hiddenrole.games import onenight as on

from .onenight_support import HUNTER_SHOT, LOOKING, has_minion_clause, random_game, twins
from .support import Chunk, chunks, ended_labels, planted_leak_found, policy, run_chunk, with_planted_leak

ABSTAIN = 0.15
"""Chance that a seat lets a phase pass: a drunk handed the default card, a missing vote."""
AGAIN = 0.3
"""Chance of a second submission (only a player's first one counts)."""
SUSPECT = 0.4
"""Chance that a vote goes to a holder of a tanner, werewolf or hunter card (see :func:`suspect`)."""
MINION_CLAUSE = 0.4
"""Share of tables that play with the minion clause."""


def setup(rng: random.Random) -> et.Game:
    return random_game(rng, minion_clause=rng.random() < MINION_CLAUSE)


def suspect(turn: et.Turn, pid: str, skill: hr.SkillType, targets: tuple[str, ...]) -> tuple[str, ...]:
    """Some votes go to a tanner, werewolf or hunter card, the cards whose deaths decide games.

    Several camps win at once only when the tanner dies with a wolf (or the hunter
    takes one along); uniform votes rarely get there. The target is another living
    player, so the vote stays legal.
    """
    if skill != on.VOTE or turn.rng.random() >= SUSPECT:
        return targets
    held = on.current_cards(turn.engine).held
    suspects = [p for p, card in held if p != pid and card in (on.TANNER, on.WEREWOLF, on.HUNTER)]
    return (turn.rng.choice(suspects),) if suspects else targets


def _end_labels(engine: hr.Engine, winners: tuple[str, ...]) -> Iterator[str]:
    """How the game was decided, read from the cards held at the end."""
    if on.WEREWOLF in {card for _, card in on.current_cards(engine).held}:
        return
    if on.VILLAGE in winners:
        yield "village:no-werewolf-in-play"
    if on.WOLF in winners:
        yield "wolf:minion-clause"
    elif has_minion_clause(engine.rules):
        yield "minion-clause:no-wolf-win"


def labeler(engine: hr.Engine, effects: tuple[hr.Effect, ...]) -> Iterator[str]:
    """Mechanism labels: several dead, a lone wolf's peek, a drunk's default card, how games end."""
    yield from ended_labels(effects)
    if sum(e.type == on.LYNCHED for e in effects) > 1:
        yield "lynched:several"
    for e in effects:
        if e.type == on.DRUNK_SWAP and e.data.get("default"):
            yield "drunk:default"
        elif e.type == on.ROBBED and e.data.get("card") == on.WEREWOLF:
            yield "robber:took-a-werewolf"
        elif e.type == on.SEER_LOOK:
            yield "seer:centre" if not e.target else "seer:player"
        elif e.type == hr.GAME_ENDED:
            yield from _end_labels(engine, e.winners)


MUST_SEE = (
    "won:TANNER",
    "won:VILLAGE",
    "won:WOLF",
    "winners:several",
    "winners:none",
    on.NO_ONE_DIES,
    on.HUNTER_HIT,
    on.PEEKED,
    on.ROBBED,
    on.MEDDLED,
    on.INSOMNIA,
    "lynched:several",
    "drunk:default",
    on.DRUNK_SWAP,
    "robber:took-a-werewolf",
    "seer:centre",
    "seer:player",
    "village:no-werewolf-in-play",
    "wolf:minion-clause",
    "minion-clause:no-wolf-win",
)

GAMES_PER_CHUNK = 250
CHUNKS = chunks("onenight", 0, 1000, GAMES_PER_CHUNK, GAMES_PER_CHUNK)


def spec_for(chunk: Chunk) -> et.Spec:
    return et.Spec(
        name=chunk.name,
        setup=setup,
        act=policy(ABSTAIN, suspect, again=AGAIN),
        games=chunk.games,
        start=chunk.start,
        max_steps=len(on.PHASES) + 1,
        want_end=True,
        must_see=MUST_SEE,
        labeler=labeler,
        leaks=et.LeakCheck(
            roles=on.ROLES,
            games=chunk.leak_games,
            public=(LOOKING, HUNTER_SHOT),
            chat=et.default_chat,
            twin=twins,
        ),
    )


def test_chunks_cover_at_least_1000_games_with_h_on_300() -> None:
    assert sum(c.games for c in CHUNKS) >= 1000
    assert sum(c.leak_games for c in CHUNKS) >= 300


@pytest.mark.parametrize("chunk", CHUNKS, ids=lambda c: c.name)
def test_onenight_keeps_invariants_a_to_h(chunk: Chunk) -> None:
    report = run_chunk(spec_for(chunk))
    assert set(report.leak_viewers) == set(on.ROLES), report.summary()


def drunk_told_the_card(effect: hr.Effect, view: hr.GameView) -> list[hr.Effect] | None:
    """Planted leak: the drunk's swap names the card taken (under the key that looked-at cards use)."""
    if effect.type != on.DRUNK_SWAP or effect.canceled:
        return None
    taken = view.var(hr.GAME, on.center_key(effect.data["center"]))
    return [effect.with_data("card", taken)]


def test_h_sees_a_card_shown_to_a_role_that_never_looks() -> None:
    err = planted_leak_found(with_planted_leak(spec_for(CHUNKS[0]), drunk_told_the_card, games=30))
    assert on.DRUNK_SWAP in str(err)
