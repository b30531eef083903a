"""Red/blue narration: the vote's outcome in words and a prompt naming every candidate."""

from __future__ import annotations

import random

import pytest

import hiddenrole as hr
from hiddenrole.games import redblue
from hiddenrole.games.redblue import narration as nar

from ..narration_support import Narrated, check_narrated, play, vocabulary

WORDS = vocabulary(redblue)


@pytest.fixture(scope="module")
def narrated() -> Narrated:
    got = Narrated()
    for seed in range(12):
        play(redblue.new_game(1 + seed % 3, 2 + seed % 2), random.Random(seed), into=got)
    return got


def test_random_games_reach_every_phrased_event(narrated: Narrated) -> None:
    assert {hr.GAME_STARTED, hr.GAME_ENDED, redblue.OUT, redblue.TIE} == nar.EVENTS
    assert narrated.types >= nar.EVENTS


def test_everything_a_seat_receives_reads_as_plain_words(narrated: Narrated) -> None:
    check_narrated(nar, narrated, WORDS)


@pytest.mark.parametrize(
    ("event", "text"),
    [
        (hr.Event(redblue.OUT, target="b1", data={"votes": "2"}), "b1 is out with 2 votes."),
        (hr.Event(redblue.OUT, target="r1", data={"votes": "1"}), "You are out with 1 vote."),
        (hr.Event(redblue.TIE, data={"between": "b1,b2"}), "The vote is tied between b1 and b2: nobody is out."),
        (hr.Event(redblue.TIE), "Nobody voted: nobody is out."),
        (hr.Event(hr.GAME_ENDED, data={"winners": redblue.RED}), "The game is over. Winners: Red. You won."),
        (hr.Event(hr.GAME_ENDED), "The game is over: nobody wins."),
    ],
)
def test_sentences(event: hr.Event, text: str) -> None:
    engine = redblue.new_game(1, 2)
    engine.start()
    assert nar.describe(event, engine.player_view("r1")) == text


def test_the_prompt_names_every_candidate() -> None:
    engine = redblue.new_game(1, 2)
    engine.start()
    assert nar.prompt(engine.player_view("r1")) == "The vote. Vote for 1 player to put out: b1, b2."
    assert nar.identity(engine.player_view("b2")) == "You are b2, on the blue side."
