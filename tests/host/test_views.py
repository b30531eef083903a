"""Views: each seat sees what it may; a spectator sees public information only."""

from __future__ import annotations

import json

import pytest

import hiddenrole as hr
from hiddenrole import host
from hiddenrole.host import InvalidGame, Table
from hiddenrole.host.catalog import get

from .support import PEEK, PEEKED, POKE, SPIES_DEF, SPY, civilians, play_out, spy_of

REDBLUE = get("redblue")
RACE = get("race")


def _roles_shown(view: host.TableView) -> dict[str, str]:
    return {p.seat: p.role for p in view.players if p.role}


def test_spectators_see_no_role_that_is_not_public() -> None:
    t = Table.open(REDBLUE, 6, seed=4)
    for _ in range(2):
        if t.over:
            break
        for seat in [p.seat for p in t.view(None).players if p.alive]:
            t.act(seat, "VOTE", [seat])  # everyone votes for themselves: a tie
        assert _roles_shown(t.view(None)) == {}
        assert t.view(None).me is None
        assert "RED" not in json.dumps(t.view(None).to_dict())
        assert "BLUE" not in json.dumps(t.view(None).to_dict())


def test_roles_made_public_by_the_game_are_shown_to_spectators() -> None:
    t = Table.open(REDBLUE, 4, seed=4)
    play_out(t, 4)
    shown = _roles_shown(t.view(None))
    assert set(shown) == set(t.seats)  # the final reveal
    assert shown == {p.id: p.role for p in t.inspect().all_players()}
    race = Table.open(RACE, 2, seed=1)
    assert _roles_shown(race.view(None)) == {"p1": "RACER", "p2": "RACER"}  # no secret in a race


def test_a_seat_sees_its_own_role_and_no_one_elses() -> None:
    t = Table.open(REDBLUE, 6, seed=7)
    god = {p.id: p.role for p in t.inspect().all_players()}
    for seat in t.seats:
        v = t.view(seat)
        assert v.me is not None and v.me.role == god[seat] and v.me.camp == god[seat]
        assert _roles_shown(v) == {seat: god[seat]}


def test_private_events_reach_their_audience_only() -> None:
    t = Table.open(SPIES_DEF, 4, seed=2)
    spy = spy_of(t)
    a, b, c = civilians(t)
    t.act(spy, PEEK, [a])
    t.act(b, POKE, [c])
    peeks = {s: [e for e in t.view(s).events if e.type == PEEKED] for s in (None, *t.seats)}
    assert len(peeks[spy]) == 1 and peeks[spy][0].data["role"] == "CIV" and peeks[spy][0].at == 2
    assert all(not peeks[s] for s in (None, a, b, c))
    assert all(any(e.type == "POKED" for e in t.view(s).events) for s in (None, *t.seats))


def test_spectators_hear_public_chat_only() -> None:
    t = Table.open(SPIES_DEF, 4, seed=2)
    spy = spy_of(t)
    a, b, _ = civilians(t)
    t.say(spy, "psst")  # a spy whispers: only spies hear
    t.say(a, "hello all")
    heard = {s: [c.text for c in t.view(s).chat] for s in (None, *t.seats)}
    assert heard[None] == ["hello all"]
    assert heard[spy] == ["psst", "hello all"]
    assert heard[b] == ["hello all"]
    assert t.view(spy).chat[0].at == 2 and t.view(spy).chat[0].sender == spy
    assert [c.at for c in t.view(b).chat] == [2]  # b heard one line: its view changed once


def test_the_spectator_view_carries_no_private_data_at_all() -> None:
    t = Table.open(SPIES_DEF, 5, seed=9)
    spy = spy_of(t)
    t.act(spy, PEEK, [civilians(t)[0]])
    t.say(spy, "I am the spy")
    text = json.dumps(t.view(None).to_dict())
    assert SPY not in text and "I am the spy" not in text and PEEKED not in text


def test_a_view_for_an_unknown_seat_is_refused() -> None:
    t = Table.open(RACE, 2, seed=1)
    with pytest.raises(host.SeatNotFound):
        t.view("p3")


def test_arrange_must_return_the_same_seats_view() -> None:
    import dataclasses

    cheat = dataclasses.replace(RACE, arrange=lambda view, prefs: dataclasses.replace(view, seat="p2"))
    t = Table.open(cheat, 2, seed=1)
    with pytest.raises(InvalidGame, match="arrange"):
        t.view("p1")


def test_public_roles_hook_may_only_name_seats() -> None:
    import dataclasses

    bad = dataclasses.replace(RACE, public_roles=lambda ctx: {"ghost": "RACER"})
    with pytest.raises(InvalidGame, match="public_roles"):
        Table.open(bad, 2, seed=1).view(None)


def test_view_to_dict_is_json_ready() -> None:
    t = Table.open(RACE, 2, {"target": 10}, seed=1)
    play_out(t, 1)
    d = json.loads(json.dumps(t.view("p1").to_dict()))
    assert d["seat"] == "p1" and d["over"] is True and d["outcome"]["ending"] == "finish-line"
    assert d["events"][0]["type"] == hr.GAME_STARTED
