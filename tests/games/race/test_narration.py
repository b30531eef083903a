"""Race narration: rolls, bounces, taunts and the finish in words; whose turn it is."""

from __future__ import annotations

import random

import pytest

import hiddenrole as hr
from hiddenrole.games import race
from hiddenrole.games.race import narration as nar

from ..narration_support import Narrated, check_narrated, play, vocabulary

WORDS = vocabulary(race)


def _die(engine: hr.Engine, pid: str, rng: random.Random) -> None:
    """The host's part: a fresh die before the seat whose turn it is may roll."""
    if race.ROLL in engine.allowed_skills(pid):
        engine.apply(race.die_effect(rng.randint(1, race.DIE_SIDES)))


@pytest.fixture(scope="module")
def narrated() -> Narrated:
    got = Narrated()
    for seed in range(12):
        seats = [f"p{i}" for i in range(2 + seed % 3)]
        engine = race.new_engine(seats, target=10 + seed, track=race.TRACKS[seed % 2])
        play(engine, random.Random(seed), prepare=_die, into=got)
    return got


def test_random_races_reach_every_phrased_event(narrated: Narrated) -> None:
    assert {hr.GAME_STARTED, hr.GAME_ENDED, race.ROLLED, race.FINISHED, race.TAUNTED} == nar.EVENTS
    assert narrated.types >= nar.EVENTS


def test_everything_a_seat_receives_reads_as_plain_words(narrated: Narrated) -> None:
    check_narrated(nar, narrated, WORDS)


@pytest.mark.parametrize(
    ("event", "text"),
    [
        (
            hr.Event(race.ROLLED, "p1", data={"die": "4", "from": "3", "to": "7"}),
            "p1 rolls a 4 and moves from square 3 to square 7.",
        ),
        (
            hr.Event(race.ROLLED, "p0", data={"die": "4", "from": "3", "to": "7"}),
            "You roll a 4 and move from square 3 to square 7.",
        ),
        (
            hr.Event(race.ROLLED, "p1", data={"die": "5", "from": "17", "to": "18", "bounced": "true"}),
            "p1 rolls a 5 on square 17, too far past the finish: bounced back to square 18.",
        ),
        (hr.Event(race.FINISHED, "p1"), "p1 reaches the finish!"),
        (hr.Event(race.TAUNTED, "p1", "p0"), "p1 taunts you."),
        (hr.Event(hr.GAME_ENDED, data={"winners": "p0,p1"}), "The race is over. Winners: p0 and p1. You win!"),
    ],
)
def test_sentences(event: hr.Event, text: str) -> None:
    engine = race.new_engine(["p0", "p1"])
    engine.start()
    assert nar.describe(event, engine.player_view("p0")) == text


def test_the_prompt_says_whose_turn_it_is_and_whom_to_taunt() -> None:
    engine = race.new_engine(["p0", "p1", "p2"])
    engine.start()
    assert (
        nar.prompt(engine.player_view("p0"))
        == "The race. Your turn: roll the die. You may taunt 1 other racer: p1, p2."
    )
    assert (
        nar.prompt(engine.player_view("p1"))
        == "The race. It is p0's turn to roll. You may taunt 1 other racer: p0, p2."
    )
    assert nar.identity(engine.player_view("p1")) == "You are p1, a racer; every racer races for themself."
