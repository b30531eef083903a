"""O1-O2: decks and dealing; the entry points the console and benchmarks use."""

from __future__ import annotations

import random
from collections import Counter

import pytest

import hiddenrole as hr
from hiddenrole.games import onenight as on
from hiddenrole.games.onenight.decks import check_cards

SIX = (
    on.WEREWOLF,
    on.WEREWOLF,
    on.SEER,
    on.ROBBER,
    on.TROUBLEMAKER,
    on.DRUNK,
    on.INSOMNIAC,
    on.HUNTER,
    on.TANNER,
)


def test_O1_a_deck_of_players_plus_three_known_cards_is_accepted() -> None:
    assert on.validate_deck(list(SIX), 6) == SIX


@pytest.mark.parametrize(
    ("deck", "players", "error", "match"),
    [
        pytest.param(SIX[:-1], 6, hr.InvalidBoard, "9 cards", id="one-card-short"),
        pytest.param((*SIX, on.VILLAGER), 6, hr.InvalidBoard, "9 cards", id="one-card-over"),
        pytest.param(SIX[:5], 2, hr.InvalidBoard, "at least 3 players", id="two-players"),
        pytest.param((*SIX[:-1], "ON_DOPPELGANGER"), 6, hr.InvalidRole, "DOPPELGANGER", id="not-in-the-box"),
        pytest.param((*SIX[:-1], "WEREWOLF"), 6, hr.InvalidRole, None, id="another-rulesets-value"),
        pytest.param((on.WEREWOLF, *SIX[:-1]), 6, hr.InvalidBoard, "3 copies of ON_WEREWOLF", id="too-many-copies"),
        pytest.param("ON_SEER", 3, hr.InvalidArgument, None, id="deck-is-a-string"),
        pytest.param(SIX, "6", hr.InvalidArgument, None, id="players-is-a-string"),
        pytest.param(SIX, True, hr.InvalidArgument, None, id="players-is-a-bool"),
    ],
)
def test_O1_deck_must_hold_players_plus_three_known_cards_within_the_box(
    deck: object, players: object, error: type[Exception], match: str | None
) -> None:
    with pytest.raises(error, match=match):
        on.validate_deck(deck, players)  # type: ignore[arg-type]


def test_O1_rules_and_start_check_the_table_too() -> None:
    with pytest.raises(hr.InvalidBoard, match="exactly 3"):
        on.rules((on.VILLAGER, on.VILLAGER))
    with pytest.raises(hr.InvalidRole):
        on.rules((on.VILLAGER, on.VILLAGER, "VILLAGER"))
    # Too few seats: start refuses and leaves the engine untouched.
    engine = hr.Engine(on.rules((on.VILLAGER, on.VILLAGER, on.VILLAGER)))
    engine.add_player("p0", on.SEER)
    engine.add_player("p1", on.WEREWOLF)
    with pytest.raises(hr.InvalidBoard, match="at least 3"):
        engine.start()
    assert engine.status().phase == hr.START
    # Seats plus centre beyond the box (four villagers).
    engine.add_player("p2", on.VILLAGER)
    with pytest.raises(hr.InvalidBoard, match="ON_VILLAGER"):
        engine.start()
    assert engine.status().phase == hr.START
    # An unknown role seated by hand.
    engine = hr.Engine(on.rules((on.SEER, on.ROBBER, on.DRUNK)))
    for pid, role in (("p0", on.VILLAGER), ("p1", on.WEREWOLF), ("p2", "ON_WITCH")):
        engine.add_player(pid, role)
    with pytest.raises(hr.InvalidRole):
        engine.start()
    assert engine.status().phase == hr.START and engine.log().effects[-1].type != hr.GAME_STARTED


@pytest.mark.parametrize(
    ("seats", "legal"),
    [
        pytest.param((on.SEER, on.WEREWOLF, on.VILLAGER), True, id="each-within-the-box"),
        pytest.param((on.SEER, on.SEER, on.WEREWOLF), False, id="a-single-card-twice"),
        pytest.param((on.WEREWOLF, on.WEREWOLF, on.SEER), True, id="both-werewolves"),
        pytest.param((on.WEREWOLF, on.SEER, on.WEREWOLF, on.WEREWOLF), False, id="three-werewolves"),
        pytest.param((on.VILLAGER, on.SEER, on.VILLAGER), True, id="the-last-villagers"),
        pytest.param((on.VILLAGER, on.VILLAGER, on.SEER, on.VILLAGER), False, id="one-villager-too-many"),
    ],
)
def test_O1_start_counts_seated_cards_against_what_the_centre_left_in_the_box(
    seats: tuple[str, ...], legal: bool
) -> None:
    engine = hr.Engine(on.rules((on.VILLAGER, on.DRUNK, on.ROBBER)))
    engine.add_players([(f"p{i}", role) for i, role in enumerate(seats)])
    if legal:
        engine.start()
        assert engine.status().phase == on.NIGHT_WEREWOLF
    else:
        with pytest.raises(hr.InvalidBoard, match="copies of"):
            engine.start()
        assert engine.status().phase == hr.START


def test_O2_deal_is_seeded_shuffle_of_the_sorted_deck() -> None:
    d = on.deal(SIX, 6, 42)
    assert d.player_ids == ("p0", "p1", "p2", "p3", "p4", "p5")
    cards = sorted(SIX)
    random.Random(42).shuffle(cards)
    assert tuple(role for _, role in d.seats) == tuple(cards[:6])
    assert d.center == tuple(cards[6:])
    assert Counter([*(r for _, r in d.seats), *d.center]) == Counter(SIX)
    # The order the caller lists the deck in does not matter; the seed does.
    assert on.deal(tuple(reversed(SIX)), 6, 42) == d
    assert len({on.deal(SIX, 6, seed) for seed in range(20)}) > 10
    with pytest.raises(hr.InvalidArgument):
        on.deal(SIX, 6, "42")  # type: ignore[arg-type]
    with pytest.raises(hr.InvalidBoard):
        on.deal(SIX, 5, 1)


def test_O2_the_deal_makes_the_library_shuffles_draws() -> None:
    """Dealing shuffles with the kernel's ``shuffled`` (its draws are checked in tests/kernel): the
    library's deal, seed for seed."""
    deck = on.default_deck(10)
    for seed in range(200):
        cards = sorted(deck)
        random.Random(seed).shuffle(cards)
        assert on.deal(deck, 10, seed) == (
            tuple(zip(map(on.seat_id, range(10)), cards[:10], strict=True)),
            tuple(cards[10:]),
        )


def test_O2_default_decks_are_valid_for_three_to_ten_players() -> None:
    for n in range(3, 11):
        deck = on.default_deck(n)
        assert on.validate_deck(deck, n) == deck
        assert deck.count(on.WEREWOLF) == 2
    with pytest.raises(hr.InvalidBoard):
        on.default_deck(11)
    with pytest.raises(hr.InvalidBoard):
        on.default_deck(2)


def test_entry_points_build_a_ready_game() -> None:
    engine = on.new_engine(SIX, 6, 7)
    d = on.deal(SIX, 6, 7)
    assert engine.status() == hr.Status(on.NIGHT_WEREWOLF, 1, False, ())
    assert engine.rules.name == "onenight" and engine.rules.version == on.VERSION
    table = on.current_cards(engine)
    assert table.held == d.seats and table.center == d.center
    assert tuple((p, engine.player_info(p).role) for p in engine.player_ids()) == d.seats
    unstarted = on.new_engine(SIX, 6, 7, start=False)
    assert unstarted.status().phase == hr.START
    assert on.rules_for(SIX, 6, 7).config is on.CONFIG
    assert on.new_engine(SIX, 6, 7, minion_clause=True).rules.version == on.VERSION_MINION_CLAUSE


def test_vocabulary_is_prefixed_and_distinct() -> None:
    values = [*on.ROLES, *on.PHASES, *on.SKILLS, *on.EVENTS, on.CENTER_POOL]
    assert all(v.startswith("ON_") for v in values)
    assert len(set(on.ROLES) | set(on.PHASES) | set(on.EVENTS)) == len(on.ROLES) + len(on.PHASES) + len(on.EVENTS)
    assert set(on.DISPLAY_NAMES) == set(on.ROLES) == set(on.BOX_COPIES)
    assert {on.camp_of(r) for r in on.ROLES} == set(on.CAMPS)


def test_O1_a_remembered_legal_card_list_never_lets_an_illegal_one_through() -> None:
    """check_cards remembers legal lists only: refusals are decided afresh every time."""
    legal = on.default_deck(5)
    for _ in range(3):
        assert check_cards(legal, "deck") == tuple(legal)
        assert check_cards(iter(legal), "deck") == tuple(legal)  # any iterable, read once
        with pytest.raises(hr.InvalidBoard):
            check_cards([on.TANNER, on.TANNER], "deck")
        with pytest.raises(hr.InvalidRole):
            check_cards([*legal, "WW_WEREWOLF"], "deck")
        with pytest.raises(hr.InvalidRole):
            check_cards([[on.SEER]], "deck")  # unhashable: refused as an unknown card, not a crash
