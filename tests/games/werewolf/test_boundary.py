"""R18-R21: audiences, teammates, speech, role info; and the phase rhythm hides roles."""

from __future__ import annotations

import pytest

import hiddenrole as hr
from hiddenrole.games import werewolf as ww
from hiddenrole.games.werewolf import idiot

from .helpers import EIGHT, Observation, Script, board, play_script, player, table, until, vote_all

EVERYONE = tuple(f"p{i:02d}" for i in range(8))


def test_R18_public_events_reach_every_seat_dead_or_alive() -> None:
    engine = table(*EIGHT)
    until(engine, ww.VOTE)
    vote_all(engine, "p06")
    engine.end_phase()
    for etype in (hr.GAME_STARTED, hr.GAME_ENDED, ww.DAWN, ww.ELIMINATE, ww.VOTE_TIED, ww.SHOOT):
        assert engine.audience_of(hr.Event(etype, "p05", "p01")) == EVERYONE


def test_R18_the_wolves_as_one_actor_see_their_kill_even_when_it_fails() -> None:
    engine = table(*EIGHT)
    until(engine, ww.NIGHT_WOLF)
    engine.submit("p00", ww.KILL, ["p06"])
    engine.submit("p01", ww.KILL, ["p07"])
    (tied,) = [e for e in engine.end_phase() if e.type == ww.KILL]
    assert tied.canceled and engine.audience_of(tied) == ("p00", "p01")
    assert engine.audience_of(hr.Event(ww.KILL, "", "p06")) == ("p00", "p01")


@pytest.mark.parametrize("etype", [ww.PROTECT, ww.SAVE, ww.POISON, ww.CHECK, ww.SKIP])
def test_R18_private_outcomes_reach_only_their_actor(etype: str) -> None:
    engine = table(*EIGHT)
    assert engine.audience_of(hr.Event(etype, "p03", "p06")) == ("p03",)
    assert engine.audience_of(hr.Event(etype, "", "p06")) == ()


def test_R18_cancelled_events_reach_only_their_actor() -> None:
    engine = table(*EIGHT)
    assert engine.audience_of(hr.Event(ww.SHOOT, "p05", "p00", canceled=True, reason="x")) == ("p05",)
    assert engine.audience_of(hr.Event(ww.ELIMINATE, "", "p00", canceled=True)) == ()
    assert engine.audience_of(hr.Event("SOMETHING_NEW", "p05", canceled=True)) == ("p05",)


def test_R18_unknown_events_are_reported_unknown_and_primitives_never_leave() -> None:
    engine = table(*EIGHT)
    assert engine.audience_of(hr.Event("SOMETHING_NEW", "p05")) is None
    assert engine.audience_of(hr.Event(hr.SET_ALIVE, "", "p05")) == ()


def test_R18_every_event_of_a_played_game_has_a_declared_audience() -> None:
    for seed in range(3):
        engine = ww.new_game(12, seed)
        seen: list[hr.Event] = []
        engine.on_event(seen.append)
        for _ in range(60):
            if engine.status().over:
                break
            for pid in engine.player_ids():
                skills = engine.allowed_skills(pid)
                if skills:
                    skill = skills[0]
                    only = engine.allowed_targets(pid, skill)
                    alive = [p for p in engine.alive_player_ids() if p != pid and (only is None or p in only)]
                    if not alive:
                        continue
                    engine.submit(pid, skill, [] if skill == ww.SKIP else [alive[(seed + len(pid)) % len(alive)]])
            engine.end_phase()
        assert seen and all(engine.audience_of(ev) is not None for ev in seen)


def test_R19_the_evil_camp_knows_itself_dead_members_included() -> None:
    engine = table(*EIGHT)
    assert engine.teammates("p00") == ("p01",)
    view = engine.player_view("p00")
    assert [(p.id, p.role) for p in view.players if p.role] == [("p00", ww.WEREWOLF), ("p01", ww.WEREWOLF)]
    until(engine, ww.VOTE)
    vote_all(engine, "p01")
    engine.end_phase()
    assert engine.teammates("p00") == ("p01",)
    assert engine.teammates("p01") == ("p00",)


def test_R19_the_pack_follows_each_board_a_camp_write_included() -> None:
    """The pack is kept per board (by its ``all_players`` tuple): a camp write, and a view of
    another board in between, each answer as that board itself says."""
    four = board(
        player("p00", ww.WEREWOLF), player("p01", ww.WEREWOLF), player("p02", ww.SEER), player("p03", ww.VILLAGER)
    )
    turned = four.apply([hr.set_var(hr.GAME.of("p03"), hr.VAR_CAMP, ww.EVIL)])
    other = board(player("p00", ww.VILLAGER), player("p01", ww.WEREWOLF), player("p02", ww.WEREWOLF))
    for _ in range(2):
        assert ww.teammates("p00", four.view()) == ("p01",)
        assert ww.teammates("p00", turned.view()) == ("p01", "p03")
        assert ww.teammates("p03", turned.view()) == ("p00", "p01")
        assert ww.teammates("p01", other.view()) == ("p02",)
        assert ww.teammates("p00", other.view()) == ()
    view = turned.view()
    assert ww.teammates("p01", view) == ww.teammates("p01", view) == ("p00", "p03")


def test_R19_good_players_know_nobody() -> None:
    engine = table(*EIGHT)
    for pid in EVERYONE[2:]:
        assert engine.teammates(pid) == ()
        view = engine.player_view(pid)
        assert [p.id for p in view.players if p.role] == [pid]


def test_R20_wolves_whisper_at_night_the_living_talk_by_day_the_dead_never() -> None:
    engine = table(*EIGHT)
    with pytest.raises(hr.MessageNotAllowed):
        engine.send_message("p00", "guard phase")
    until(engine, ww.NIGHT_WOLF)
    assert engine.message_receivers("p00") == ("p00", "p01")
    with pytest.raises(hr.MessageNotAllowed):
        engine.send_message("p06", "anyone?")
    engine.end_phase()
    with pytest.raises(hr.MessageNotAllowed):
        engine.send_message("p00", "witch phase")
    until(engine, ww.DAY)
    assert engine.message_receivers("p06") == EVERYONE
    engine.end_phase()
    with pytest.raises(hr.MessageNotAllowed):
        engine.send_message("p06", "during the vote")
    vote_all(engine, "p01")
    engine.end_phase()
    until(engine, ww.NIGHT_WOLF)
    assert engine.message_receivers("p00") == ("p00",)
    assert engine.message_receivers("p01") == ()
    until(engine, ww.DAY)
    assert "p01" not in engine.message_receivers("p06")
    with pytest.raises(hr.MessageNotAllowed):
        engine.send_message("p01", "from beyond")


def test_R21_the_witch_sees_her_potions_and_tonights_victim_while_she_can_heal() -> None:
    engine = table(*EIGHT)
    present = hr.VAR_PRESENT
    assert engine.player_view("p03").role_info == {ww.INFO_ANTIDOTE: present, ww.INFO_POISON: present}
    until(engine, ww.NIGHT_WOLF)
    engine.submit("p00", ww.KILL, ["p06"])
    engine.end_phase()
    info = engine.player_view("p03").role_info
    assert info == {ww.INFO_ANTIDOTE: present, ww.INFO_POISON: present, ww.INFO_KILL_TARGET: "p06"}
    engine.submit("p03", ww.ANTIDOTE, ["p06"])
    engine.end_phase()
    assert engine.player_view("p03").role_info == {ww.INFO_POISON: present}
    for pid in EVERYONE:
        if pid != "p03":
            assert ww.INFO_KILL_TARGET not in engine.player_view(pid).role_info


def test_R21_a_dead_witch_no_longer_learns_the_victim() -> None:
    engine = table(*EIGHT)
    until(engine, ww.VOTE)
    vote_all(engine, "p03")
    until(engine, ww.NIGHT_WOLF)
    engine.submit("p00", ww.KILL, ["p06"])
    engine.end_phase()
    assert ww.INFO_KILL_TARGET not in engine.player_view("p03").role_info
    assert ww.night_kill_target(engine.view()) == "p06"


def test_R21_armed_roles_see_their_gun_and_nobody_else_has_role_info() -> None:
    engine = table(*EIGHT)
    assert engine.player_view("p05").role_info == {ww.INFO_CAN_SHOOT: "yes"}
    for pid in ("p00", "p02", "p04", "p06"):
        assert engine.player_view(pid).role_info == {}


# ---------------------------------------------------------------- the rhythm of the game hides roles

SWAPPED = (*EIGHT[:5], ww.VILLAGER, ww.VILLAGER, ww.HUNTER)  # p05 and p07 trade hunter and villager


def test_R11_voting_out_the_hunter_looks_like_voting_out_a_villager() -> None:
    script: Script = {(1, ww.VOTE): [("p06", ww.VOTE, ("p05",))]}
    a = play_script(table(*EIGHT), "p06", script, 14)
    b = play_script(table(*SWAPPED), "p06", script, 14)
    assert any(kind == "view" and obs.phase == ww.DAY_LAST_ACTION for kind, obs in a)
    assert a == b


def test_R11_the_wolves_cannot_tell_whom_they_killed_from_the_rhythm() -> None:
    script: Script = {(1, ww.NIGHT_WOLF): [("p00", ww.KILL, ("p05",)), ("p01", ww.KILL, ("p05",))]}
    a = play_script(table(*EIGHT), "p00", script, 12)
    b = play_script(table(*SWAPPED), "p00", script, 12)
    assert any(kind == "view" and obs.phase == ww.NIGHT_LAST_ACTION for kind, obs in a)
    assert a == b


def dawn_of(switches: ww.Switches, killed: str, poisoned: str) -> list[Observation]:
    script: Script = {
        (1, ww.NIGHT_WOLF): [("p00", ww.KILL, (killed,)), ("p01", ww.KILL, (killed,))],
        (1, ww.NIGHT_WITCH): [("p03", ww.POISON, (poisoned,))],
    }
    return play_script(table(*EIGHT, switches=switches), "p02", script, 10)


def test_R10_a_poisoning_looks_like_a_wolf_kill_to_everyone_else() -> None:
    a = dawn_of(ww.Switches(), killed="p06", poisoned="p07")
    b = dawn_of(ww.Switches(), killed="p07", poisoned="p06")
    dawns = [obs for kind, obs in a if kind == "event" and obs.type == ww.DAWN]
    assert [d.data["dead"] for d in dawns] == ["p06,p07"]
    assert a == b


def test_R18_events_that_reveal_roles_by_design_are_declared() -> None:
    assert ww.disclosing_events() == {hr.GAME_ENDED, ww.CHECK}
    assert ww.disclosing_events([idiot.EXTENSION]) == {hr.GAME_ENDED, ww.CHECK, idiot.IDIOT_REVEALED}
    with pytest.raises(hr.InvalidArgument):
        ww.disclosing_events(["idiot"])  # type: ignore[list-item]


def test_R10_the_disclosure_switch_announces_causes() -> None:
    told = ww.Switches(announce_death_causes=True)
    a = dawn_of(told, killed="p06", poisoned="p07")
    b = dawn_of(told, killed="p07", poisoned="p06")
    assert a != b
