"""The shared harness (invariants A-H) over random One Night games.

The twin deals for the leak check (H) move every card the viewer's side was not
dealt, centre cards included, so a leak of the centre would show. What a player
learns by looking at a card is declared public: it legitimately tells deals apart.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import hiddenrole as hr
from hiddenrole import enginetest as et
from hiddenrole.games import onenight as on

from .helpers import random_deal

LOOKING = et.Public(
    "looking at a card shows it",
    data_keys=frozenset({"card", *(on.center_key(s) for s in on.CENTER_SLOTS)}),
    role_info_keys=frozenset(
        {
            on.LEARN_SELF,
            *(on.learn_center_key(s) for s in on.CENTER_SLOTS),
            *(on.learn_player_key(on.seat_id(i)) for i in range(12)),
        }
    ),
)
VOTING = et.Public(
    "votes, deaths and the result are announced",
    event_types=frozenset({on.VOTED, on.LYNCHED, on.NO_ONE_DIES, on.HUNTER_HIT, hr.GAME_ENDED}),
)


def setup(rng: random.Random) -> et.Game:
    d = random_deal(rng)
    return et.Game(on.rules(d.center), d.seats)


def twins(game: et.Game, side: frozenset[str], rng: random.Random) -> Iterator[et.Game]:
    """The deal with every card outside the side (seats and centre) shuffled around."""
    probe = hr.Engine(game.rules)
    for pid, role in game.seats:
        probe.add_player(pid, role)
    probe.start()
    center = on.current_cards(probe).center
    outside = [i for i, (pid, _) in enumerate(game.seats) if pid not in side]
    for _ in range(40):
        cards = [game.seats[i][1] for i in outside] + list(center)
        rng.shuffle(cards)
        seats = list(game.seats)
        for i in outside:
            seats[i] = (seats[i][0], cards.pop(0))
        yield et.Game(on.rules(cards), tuple(seats))


def test_invariants_a_to_h_over_random_games() -> None:
    spec = et.Spec(
        name="onenight",
        setup=setup,
        games=60,
        max_steps=len(on.PHASES) + 1,
        want_end=True,
        must_see=(on.PEEKED, on.SEER_LOOK, on.ROBBED, on.MEDDLED, on.DRUNK_SWAP, on.INSOMNIA, on.LYNCHED),
        leaks=et.LeakCheck(
            viewers_per_game=1,
            roles=(on.ROBBER, on.INSOMNIAC, on.SEER, on.WEREWOLF, on.MINION, on.DRUNK, on.TROUBLEMAKER, on.MASON),
            public=(LOOKING, VOTING),
            chat=et.default_chat,
            twin=twins,
        ),
    )
    report = et.run(spec)
    assert report.finished == 60
    assert report.leak_viewers[on.ROBBER] > 0 and report.leak_viewers[on.INSOMNIAC] > 0
