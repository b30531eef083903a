"""The catalog: every shipped game's definition, loaded on demand."""

from __future__ import annotations

import random

import pytest

from hiddenrole import host
from hiddenrole.games import onenight, werewolf
from hiddenrole.host import catalog

from .support import every_view, host_game, host_turn


def test_catalog_serves_race_and_redblue() -> None:
    race = catalog.get("race")
    assert race.name == "race" and (race.min_seats, race.max_seats) == (2, 4)
    assert {o.name for o in race.options} == {"target", "track"}
    assert [p.name for p in race.preferences] == ["leader-first"]
    assert {(s.name, s.scope.value) for s in race.statistics} == {("rounds", "table"), ("position", "seat")}
    assert catalog.get("race") is race
    assert {"race", "redblue"} <= set(catalog.available())


def test_an_unknown_game_is_invalid_game() -> None:
    with pytest.raises(host.InvalidGame, match="no game 'chess'"):
        catalog.get("chess")


PUBLIC_ROLES = {"race"}
"""Games without secrets: every role is public from the start."""


@pytest.mark.parametrize("name", catalog.names())
def test_every_available_definition_opens_a_table_at_its_minimum_and_maximum(name: str) -> None:
    if name not in catalog.available():
        pytest.skip(f"{name} is not available yet")
    d = catalog.get(name)
    for seats in sorted({d.min_seats, d.max_seats}):
        t = host.Table.open(d, seats, seed=seats)
        assert len(t.seats) == seats
        shown = {p.role for p in t.view(None).players}
        assert (shown != {""}) == (name in PUBLIC_ROLES), shown


# ---------------------------------------------------------------------- every game, played to the end

GAMES: list[tuple[str, int, dict[str, object]]] = [
    ("race", 3, {"target": 15}),
    ("redblue", 5, {"split": "lone-red"}),
    ("werewolf", 6, {}),
    ("werewolf", 9, {"composition": "custom", "wolves": 3, "guard": False, "idiot": True, "victory-mode": "town-wipe"}),
    ("werewolf", 12, {"wolf-king": True, "witch-can-save-self": True}),
    ("missions", 5, {"variant": "resistance"}),
    ("missions", 7, {"percival": True, "morgana": True}),
    ("onenight", 5, {"deck": "custom", "villager": 1, "tanner": True, "minion": True}),
    ("onenight", 8, {"minion-clause": True}),
]


@pytest.mark.parametrize(("name", "seats", "options"), GAMES)
def test_every_game_plays_to_an_outcome_that_replays_and_verifies(
    name: str, seats: int, options: dict[str, object]
) -> None:
    if name not in catalog.available():
        pytest.skip(f"{name} is not available yet")
    d = catalog.get(name)
    for seed in range(2):
        t = host.Table.open(d, seats, options, seed=seed)
        hidden = name not in PUBLIC_ROLES
        secret_during_play = True
        rng = random.Random(seed)
        for _ in range(600):
            if t.over:
                break
            if hidden and {p.role for p in t.view(None).players} != {""}:
                secret_during_play = False
            host_turn(t, rng)
        assert t.over and t.outcome is not None
        assert secret_during_play, "a spectator saw a role before the end"
        o = t.outcome
        declared = {s.name for s in d.statistics}
        assert set(o.table) | {k for stats in o.seats.values() for k in stats} <= declared
        assert set(o.seats) == set(t.seats) and o.ending
        assert all(o.seat_stat(s, "won") == int(s in o.winners) for s in t.seats if "won" in declared)
        again = host.verify(t.log().to_json())
        assert every_view(again) == every_view(t)


def test_onenight_winners_are_decided_by_the_card_held_at_the_end() -> None:
    """The robber takes the werewolf's card: the robber now wins with the wolves, the dealt wolf does not."""
    d = catalog.get("onenight")
    options = {"deck": "custom", "werewolf": 1, "villager": 2, "tanner": False}  # 1 wolf, seer, robber, troublemaker
    for seed in range(40):
        t = host.Table.open(d, 3, options, seed=seed)
        roles = {p.id: p.role for p in t.inspect().all_players()}
        if sorted(roles.values()) == sorted([onenight.WEREWOLF, onenight.ROBBER, onenight.VILLAGER]):
            break
    else:
        pytest.fail("no seed dealt werewolf, robber and villager to the seats")
    wolf, robber, villager = (
        next(s for s, r in roles.items() if r == role)
        for role in (onenight.WEREWOLF, onenight.ROBBER, onenight.VILLAGER)
    )
    while t.status().phase != onenight.NIGHT_ROBBER:
        t.end_phase()
    t.act(robber, onenight.ROB, [wolf])
    while t.status().phase != onenight.VOTE_PHASE:
        t.end_phase()
    for seat, target in ((wolf, villager), (robber, villager), (villager, wolf)):
        t.act(seat, onenight.VOTE, [target])
    t.end_phase()
    o = t.outcome
    assert o is not None and t.status().winners == (onenight.WOLF,)  # the villager died, the wolf card lives
    assert o.winners == (robber,)  # by the card held, not the card dealt
    assert o.stat("swaps") == 1 and o.seat_stat(villager, "survived") == 0
    assert t.view(None).data["held"][robber] == "Werewolf"  # the final reveal is public


def test_werewolf_counts_deaths_by_cause() -> None:
    causes = ("killed-by-wolves", "poisoned", "voted-out", "shot")
    seen: dict[str, int] = dict.fromkeys(causes, 0)
    for seed in (0, 1):  # seed 1 ends with a hunter's shot (since spent/jammed guns are refused)
        t = host.Table.open(catalog.get("werewolf"), 12, {"witch-can-use-both-potions": True}, seed=seed)
        host_game(t, seed)
        o = t.outcome
        assert o is not None
        dead = sum(1 for p in t.inspect().all_players() if not p.alive)
        assert sum(o.stat(n) or 0 for n in causes) == dead and (o.stat("rounds") or 0) >= 1
        for n in causes:
            seen[n] += o.stat(n) or 0
    assert all(seen.values()), f"every cause should occur in these games: {seen}"


def test_missions_reports_successes_and_fails() -> None:
    t = host.Table.open(catalog.get("missions"), 6, seed=2)
    host_game(t, 2)
    o = t.outcome
    assert o is not None
    assert (o.stat("successes") or 0) + (o.stat("fails") or 0) == o.stat("missions")
    assert all(o.seat_stat(s, "survived") == 1 for s in t.seats)


@pytest.mark.parametrize(
    ("name", "seats", "options", "culprit"),
    [
        ("werewolf", 6, {"composition": "custom", "wolves": 3}, "wolves"),
        (
            "werewolf",
            6,
            {"composition": "custom", "wolves": 3, "seer": False, "witch": False, "guard": False},
            "wolves",
        ),
        ("werewolf", 6, {"composition": "custom", "wolves": 2}, None),
        ("werewolf", 6, {"victory-mode": "everyone"}, "victory-mode"),
        ("werewolf", 6, {"composition": "custom", "wolves": 1, "idiot": True, "seer": True}, None),
        ("werewolf", 6, {"witch-can-save-self": "yes"}, "witch-can-save-self"),
        ("missions", 7, {"variant": "resistance", "percival": True}, "percival"),
        ("missions", 7, {"morgana": True}, "morgana needs Percival"),
        ("missions", 5, {"percival": True, "morgana": True, "mordred": True}, "mordred"),
        ("onenight", 4, {"deck": "custom"}, "deck"),
        ("onenight", 4, {"werewolf": 3}, "werewolf"),
    ],
)
def test_game_options_that_cannot_be_played_are_refused_naming_the_option(
    name: str, seats: int, options: dict[str, object], culprit: str | None
) -> None:
    if name not in catalog.available():
        pytest.skip(f"{name} is not available yet")
    d = catalog.get(name)
    if culprit is None:
        assert host.Table.open(d, seats, options, seed=1).seq == 0
        return
    with pytest.raises(host.InvalidOptions, match=culprit) as info:
        host.Table.open(d, seats, options, seed=1)
    assert info.value.option == culprit.split()[0]


def test_werewolf_offers_every_boolean_switch_as_an_option() -> None:
    import dataclasses

    d = catalog.get("werewolf")
    names = {o.name for o in d.options}
    for f in dataclasses.fields(werewolf.Switches):
        if f.name != "victory_mode":
            assert f.name.replace("_", "-") in names
    t = host.Table.open(d, 6, {"guard-can-repeat": True, "victory-mode": "town-wipe"}, seed=1)
    assert t.rules.version != werewolf.rules().version  # the kernel records the house rules
