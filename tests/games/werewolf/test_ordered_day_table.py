"""R24-R26 at a hosted table: the catalog's ``ordered-day`` option, turns, chat and replay."""

from __future__ import annotations

import random

import pytest

import hiddenrole as hr
from hiddenrole import host
from hiddenrole.games import werewolf as ww
from hiddenrole.host import catalog

OPTIONS = {"ordered-day": True}


def open_table(seed: int = 3) -> host.Table:
    return host.Table.open(catalog.get("werewolf"), 6, OPTIONS, seed=seed)


def to_day(t: host.Table) -> None:
    while t.status().phase != ww.DAY:
        t.end_phase()


def test_R24_the_catalog_offers_ordered_day_as_an_option_that_is_off_by_default() -> None:
    d = catalog.get("werewolf")
    (option,) = [o for o in d.options if o.name == "ordered-day"]
    assert option.default is False
    assert host.Table.open(d, 6, seed=1).rules.version == "1"
    t = open_table()
    assert t.rules.version == ww.version_of(ww.Switches(ordered_day=True))
    assert t.rules.config.phases[ww.DAY].turn_order is hr.SEQUENTIAL


def test_R24_R25_a_table_passes_the_floor_round_the_living_seats() -> None:
    t = open_table()
    to_day(t)
    seats = sorted(p.seat for p in t.view(None).players if p.alive)
    first, second, third = seats[:3]
    assert {v.turn for v in (t.view(None), *(t.view(s) for s in t.seats))} == {first}
    assert {host.SAY, host.ACT, host.END_TURN} <= set(t.view(first).moves)
    assert not {host.SAY, host.ACT, host.END_TURN} & set(t.view(second).moves)
    seq = t.seq
    with pytest.raises(hr.MessageNotAllowed):
        t.say(second, "let me speak")
    with pytest.raises(hr.NotYourTurn):
        t.act(second, ww.DONE)
    with pytest.raises(hr.NotYourTurn):
        t.end_turn(second)
    assert t.seq == seq
    t.say(first, "I am a plain villager")
    t.act(first, ww.DONE)
    assert t.view(None).turn == second
    t.end_turn(second)  # the host's timer ran out for the second speaker
    spectator = t.view(None)
    assert spectator.turn == third
    assert [(c.sender, c.text) for c in spectator.chat] == [(first, "I am a plain villager")]
    ended = [(e.source, e.data["how"]) for e in spectator.events if e.type == ww.SPEECH_ENDED]
    assert ended == [(first, ww.DONE), (second, ww.CUT)]
    again = host.Table.replay(catalog.get("werewolf"), t.log().to_json())
    for seat in (None, *t.seats):
        assert again.view(seat) == t.view(seat)


def play(t: host.Table, rng: random.Random) -> None:
    """A host that lets every living seat speak by day and has the required actions made."""
    for _ in range(1000):
        if t.over:
            return
        turn = t.readiness().turn
        if turn:
            t.say(turn, f"{turn} has spoken")
            t.act(turn, ww.DONE)
            continue
        for action in t.readiness().pending:
            if action.skill in t.view(action.player_id).me.allowed_skills:  # type: ignore[union-attr]
                living = [p.seat for p in t.view(None).players if p.alive]
                t.act(action.player_id, action.skill, [] if action.skill == ww.SKIP else [rng.choice(living)])
        t.end_phase()
    raise AssertionError("the table did not end")


def test_R26_ordered_day_tables_play_to_an_outcome_that_verifies() -> None:
    for seed in range(3):
        t = open_table(seed)
        play(t, random.Random(seed))
        assert t.outcome is not None
        assert any(m.kind == host.ACT and m.skill == ww.DONE for m in t.moves())
        checked = host.verify(t.log().to_json(), catalog.get("werewolf"))
        assert checked.outcome == t.outcome
