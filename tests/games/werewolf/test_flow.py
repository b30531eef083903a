"""Whole games on a real engine: last actions (R11, R12), victory timing (R17)."""

from __future__ import annotations

import pytest

import hiddenrole as hr
from hiddenrole.games import werewolf as ww
from hiddenrole.games.werewolf import resolution as rs

from .helpers import EIGHT, killed, table, until, vote_all


def night_kill(engine: hr.Engine, victim: str, poison: str = "") -> list[hr.Effect]:
    """From NIGHT_GUARD, wolves kill ``victim`` (and the witch poisons), up to dawn's end."""
    until(engine, ww.NIGHT_WOLF)
    for pid in engine.alive_player_ids():
        if ww.KILL in engine.allowed_skills(pid):
            engine.submit(pid, ww.KILL, [victim])
    effects = list(engine.end_phase())
    if poison:
        engine.submit("p03", ww.POISON, [poison])
    effects += until(engine, ww.NIGHT_RESOLVE)
    return effects + list(engine.end_phase())


def test_R11_a_night_death_is_followed_by_the_dead_players_last_action() -> None:
    engine = table(*EIGHT)
    effects = night_kill(engine, "p06")
    assert killed(effects) == ["p06"]
    assert engine.status().phase == ww.NIGHT_LAST_ACTION
    info = engine.phase_info()
    assert info.roles[ww.VILLAGER].player_ids == ("p06",)
    assert engine.allowed_skills("p06") == (ww.SKIP,)
    assert all(engine.allowed_skills(p) == () for p in engine.player_ids() if p != "p06")
    r = engine.readiness()
    assert not r.ready and [(p.player_id, p.skill) for p in r.pending] == [("p06", ww.SKIP)]
    with pytest.raises(hr.SkillNotAllowed):
        engine.submit("p06", ww.SHOOT, ["p00"])
    engine.submit("p06", ww.SKIP)
    assert engine.readiness().ready
    engine.end_phase()
    assert engine.status().phase == ww.DAY


def test_R11_every_dead_player_gets_a_turn_in_id_order() -> None:
    engine = table(*EIGHT)
    night_kill(engine, "p07", poison="p02")
    order = []
    while engine.status().phase == ww.NIGHT_LAST_ACTION:
        (actor,) = [p for p in engine.player_ids() if engine.allowed_skills(p)]
        order.append(actor)
        engine.end_phase()
    assert order == ["p02", "p07"]
    assert engine.status().phase == ww.DAY


def test_R11_a_vote_death_is_followed_by_a_last_action_and_the_next_night() -> None:
    engine = table(*EIGHT)
    until(engine, ww.VOTE)
    vote_all(engine, "p07")
    effects = engine.end_phase()
    assert killed(effects) == ["p07"]
    assert engine.status() == hr.Status(ww.DAY_LAST_ACTION, 1, False, ())
    assert engine.allowed_skills("p07") == (ww.SKIP,)
    engine.end_phase()
    assert engine.status() == hr.Status(ww.NIGHT_GUARD, 2, False, ())


def test_R12_hunter_shoots_at_his_last_action_and_the_shot_chains() -> None:
    engine = table(*EIGHT)
    until(engine, ww.VOTE)
    vote_all(engine, "p05")
    engine.end_phase()
    assert engine.allowed_skills("p05") == (ww.SHOOT, ww.SKIP)
    assert engine.player_view("p05").role_info == {ww.INFO_CAN_SHOOT: "yes"}
    with pytest.raises(hr.TargetDead):
        engine.submit("p05", ww.SHOOT, ["p05"])
    engine.submit("p05", ww.SHOOT, ["p06"])
    effects = engine.end_phase()
    assert [(e.type, e.source, e.target) for e in effects if not e.is_internal] == [(ww.SHOOT, "p05", "p06")]
    assert killed(effects) == ["p06"]
    assert engine.status().phase == ww.DAY_LAST_ACTION
    assert engine.allowed_skills("p06") == (ww.SKIP,) and engine.allowed_skills("p05") == ()
    engine.end_phase()
    assert engine.status() == hr.Status(ww.NIGHT_GUARD, 2, False, ())


def test_R12_a_poisoned_hunter_has_a_turn_but_the_gun_does_not_fire() -> None:
    engine = table(*EIGHT)
    effects = night_kill(engine, "p06", poison="p05")
    assert killed(effects) == ["p05", "p06"]
    assert engine.status().phase == ww.NIGHT_LAST_ACTION
    assert engine.player_view("p05").role_info == {ww.INFO_CAN_SHOOT: "no"}
    # The gun is not offered (the hunter is told it would not fire), submit refuses it with
    # the reason, and readiness asks the hunter to pass, as it asks any other dead seat.
    assert engine.allowed_skills("p05") == (ww.SKIP,)
    assert ("p05", ww.SKIP) in {(a.player_id, a.skill) for a in engine.readiness().pending}
    with pytest.raises(hr.SkillNotAllowed, match=rs.GUN_JAMMED):
        engine.submit("p05", ww.SHOOT, ["p00"])
    assert engine.pending_uses() == ()
    engine.submit("p05", ww.SKIP)
    assert engine.readiness().ready or all(a.player_id != "p05" for a in engine.readiness().pending)
    shot = engine.end_phase()
    assert not any(e.type == ww.SHOOT for e in shot)
    assert engine.player_info("p00").alive


def test_R17_victory_waits_for_the_hunters_shot() -> None:
    # p00 wolf, p01 hunter (the only god), p02-p03 villagers: killing the hunter would
    # wipe the gods, but his shot at the last wolf comes first.
    engine = table(ww.WEREWOLF, ww.HUNTER, ww.VILLAGER, ww.VILLAGER)
    until(engine, ww.NIGHT_WOLF)
    engine.submit("p00", ww.KILL, ["p01"])
    until(engine, ww.NIGHT_LAST_ACTION)
    assert not engine.status().over
    engine.submit("p01", ww.SHOOT, ["p00"])
    engine.end_phase()
    assert engine.status().phase == ww.NIGHT_LAST_ACTION  # the shot wolf's own last action
    assert engine.allowed_skills("p00") == (ww.SKIP,)
    effects = engine.end_phase()
    assert engine.status() == hr.Status(hr.END, 1, True, (ww.GOOD,))
    assert effects[-1].type == hr.GAME_ENDED


def test_R17_without_a_shot_the_wipe_stands_after_the_last_action() -> None:
    engine = table(ww.WEREWOLF, ww.HUNTER, ww.VILLAGER, ww.VILLAGER)
    until(engine, ww.NIGHT_WOLF)
    engine.submit("p00", ww.KILL, ["p01"])
    until(engine, ww.NIGHT_LAST_ACTION)
    engine.submit("p01", ww.SKIP)
    engine.end_phase()
    assert engine.status() == hr.Status(hr.END, 1, True, (ww.EVIL,))


def test_R17_a_decided_board_cannot_start() -> None:
    with pytest.raises(hr.BoardAlreadyDecided):
        table(ww.SEER, ww.VILLAGER, ww.VILLAGER)
    with pytest.raises(hr.BoardAlreadyDecided):
        table(ww.WEREWOLF, ww.WEREWOLF, ww.SEER, ww.VILLAGER, switches=ww.Switches(victory_mode=ww.TOWN_WIPE))
    table(ww.WEREWOLF, ww.WEREWOLF, ww.VILLAGER, ww.VILLAGER)  # side wipe: a category never dealt is not wiped


def test_R17_voting_out_the_last_wolf_ends_after_the_last_action() -> None:
    engine = table(ww.WEREWOLF, ww.SEER, ww.VILLAGER, ww.VILLAGER)
    until(engine, ww.VOTE)
    vote_all(engine, "p00")
    engine.end_phase()
    assert engine.status().phase == ww.DAY_LAST_ACTION
    engine.end_phase()
    assert engine.status() == hr.Status(hr.END, 2, True, (ww.GOOD,))


def test_R4_R9_a_guarded_victim_survives_the_night_in_a_real_game() -> None:
    engine = table(*EIGHT)
    engine.submit("p04", ww.PROTECT, ["p06"])
    effects = night_kill(engine, "p06")
    assert killed(effects) == [] and engine.status().phase == ww.DAY
    # next night the guard may not repeat
    until(engine, ww.NIGHT_GUARD)
    assert "p06" not in (engine.allowed_targets("p04", ww.PROTECT) or ())
    with pytest.raises(hr.InvalidTargets, match="p06"):
        engine.submit("p04", ww.PROTECT, ["p06"])
    assert engine.pending_uses() == ()
