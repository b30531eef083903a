"""One Night narration: each night result told to its actor in the second person, votes and
deaths in public words, prompts naming players and centre cards, and what a seat looked at."""

from __future__ import annotations

import random

import pytest

import hiddenrole as hr
from hiddenrole.games import onenight as on
from hiddenrole.games.onenight import narration as nar
from hiddenrole.games.onenight import vocab as on_vocab

from ..narration_support import Narrated, assert_names_plain, check_narrated, ids_in, play, vocabulary

WORDS = vocabulary(on_vocab)


def _engine(seed: int) -> hr.Engine:
    players = 3 + seed % 7
    deck = on.default_deck(players)
    if seed % 2:  # a single werewolf card, so a lone wolf peeks more often
        cards = list(deck)
        cards.remove(on.WEREWOLF)
        spare = next(c for c in (on.HUNTER, on.TANNER, on.MINION, on.DRUNK, on.INSOMNIAC, on.MASON) if c not in cards)
        deck = (*cards, spare)
    return on.new_engine(deck, players, seed, start=False)


@pytest.fixture(scope="module")
def narrated() -> Narrated:
    got = Narrated()
    for seed in range(40):
        play(_engine(seed), random.Random(seed), into=got)
    return got


def test_every_event_type_is_phrased() -> None:
    assert on.PUBLIC_EVENTS | on.PRIVATE_EVENTS == nar.EVENTS


def test_random_games_reach_every_phrased_event(narrated: Narrated) -> None:
    assert narrated.types >= nar.EVENTS, f"never seen: {sorted(nar.EVENTS - narrated.types)}"


def test_everything_a_seat_receives_reads_as_plain_words(narrated: Narrated) -> None:
    check_narrated(nar, narrated, WORDS)


def test_names_of_every_role_skill_and_phase_are_words() -> None:
    assert_names_plain(nar, on.CONFIG, on.ROLES, WORDS)
    assert (nar.role_name(on.TROUBLEMAKER), nar.camp_name(on.TANNER_CAMP)) == ("Troublemaker", "the tanner")


# ---------------------------------------------------------------- sentences, exactly

DEAL = on.Deal(
    seats=(
        ("p0", on.WEREWOLF),
        ("p1", on.SEER),
        ("p2", on.ROBBER),
        ("p3", on.TROUBLEMAKER),
        ("p4", on.MASON),
        ("p5", on.MASON),
    ),
    center=(on.DRUNK, on.TANNER, on.INSOMNIAC),
)


def _view(pid: str) -> hr.PlayerView:
    return on.engine_for(DEAL).player_view(pid)


@pytest.mark.parametrize(
    ("event", "viewer", "text"),
    [
        (
            hr.Event(on.PEEKED, "p0", data={"center": "1", "card": on.TANNER}),
            "p0",
            "You look at centre card 1: the Tanner card.",
        ),
        (
            hr.Event(on.SEER_LOOK, "p1", "p2", {"card": on.ROBBER}),
            "p1",
            "You look at p2's card: the Robber card.",
        ),
        (
            hr.Event(on.SEER_LOOK, "p1", data={"center.0": on.DRUNK, "center.2": on.INSOMNIAC}),
            "p1",
            "You look at the centre: centre card 0 is the Drunk card and centre card 2 is the Insomniac card.",
        ),
        (
            hr.Event(on.ROBBED, "p2", "p0", {"card": on.WEREWOLF}),
            "p2",
            "You swap cards with p0 and now hold the Werewolf card.",
        ),
        (hr.Event(on.MEDDLED, "p3", "p0", {"with": "p1"}), "p3", "You swap the cards of p0 and p1."),
        (
            hr.Event(on.DRUNK_SWAP, "p4", data={"center": "2"}),
            "p4",
            "You swap your card with centre card 2 without looking.",
        ),
        (
            hr.Event(on.DRUNK_SWAP, "p4", data={"center": "0", "default": "1"}),
            "p4",
            "You made no choice and take centre card 0 unseen.",
        ),
        (
            hr.Event(on.INSOMNIA, "p5", data={"card": on.ROBBER}),
            "p5",
            "You wake and see the Robber card in hand.",
        ),
        (hr.Event(on.VOTED, "p1", "p0"), "p0", "p1 votes for p0 (you)."),
        (hr.Event(on.VOTED, "p0", "p1"), "p0", "You vote for p1."),
        (hr.Event(on.LYNCHED, target="p0", data={"votes": "3"}), "p1", "p0 dies with 3 votes."),
        (
            hr.Event(on.NO_ONE_DIES, data={"votes": "1"}),
            "p1",
            "Nobody received more than one vote: nobody dies.",
        ),
        (
            hr.Event(on.HUNTER_HIT, "p3", "p1"),
            "p1",
            "p3 held the Hunter card and takes p1 (you) down too.",
        ),
        (
            hr.Event(hr.GAME_ENDED, data={"winners": "TANNER,VILLAGE"}),
            "p1",
            "The game is over. Winners: the tanner and the village.",
        ),
    ],
)
def test_sentences(event: hr.Event, viewer: str, text: str) -> None:
    assert nar.describe(event, _view(viewer)) == text


def test_a_host_reads_night_results_in_the_third_person() -> None:
    event = hr.Event(on.ROBBED, "p2", "p0", {"card": on.WEREWOLF})
    assert nar.describe(event, None) == "p2 swaps cards with p0 and now holds the Werewolf card."


# ---------------------------------------------------------------- seats and prompts


def _night(engine: hr.Engine, phase: str) -> None:
    for _ in range(12):
        if engine.status().phase == phase:
            return
        engine.end_phase()
    raise AssertionError(phase)


def test_what_a_seat_knows_is_told_as_of_the_moment_of_looking() -> None:
    engine = on.engine_for(DEAL)
    assert nar.identity(engine.player_view("p4")) == (
        "You are p4; you were dealt the Mason card. The other masons: p5."
    )
    assert nar.prompt(engine.player_view("p0")) == (
        "Night: the werewolves. You are the only werewolf: you may look at 1 centre card (0, 1, 2)."
    )
    engine.submit("p0", on.PEEK, ["1"])
    _night(engine, on.NIGHT_SEER)
    assert nar.prompt(engine.player_view("p1")) == (
        "Night: the seer. Look at 1 other player's card (p0, p2, p3, p4, p5) or at 2 centre cards (0, 1, 2)."
    )
    _night(engine, on.NIGHT_ROBBER)
    engine.submit("p2", on.ROB, ["p0"])
    _night(engine, on.DAY)
    assert nar.identity(engine.player_view("p0")) == (
        "You are p0; you were dealt the Werewolf card. You are the only werewolf. "
        "When you looked, centre card 1 was the Tanner card."
    )
    assert nar.identity(engine.player_view("p2")) == (
        "You are p2; you were dealt the Robber card. When you last looked, you held the Werewolf card. "
        "When you looked, p0 held the Robber card."
    )
    assert nar.prompt(engine.player_view("p3")) == "Day: discussion. Talk with everyone; the vote follows."
    engine.end_phase()
    assert nar.prompt(engine.player_view("p3")) == "The vote. Vote for 1 other player: p0, p1, p2, p4, p5."


def test_prompts_name_only_other_players(narrated: Narrated) -> None:
    for view in narrated.views:
        named = ids_in(nar.prompt(view), [p.id for p in view.players])
        if {on.ROB, on.MEDDLE, on.VOTE, on.SEER_PLAYER} & set(view.allowed_skills):
            assert named == {p.id for p in view.players} - {view.player_id}
        else:
            assert not named
