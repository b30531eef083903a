"""R4-R13: every resolver on hand-made boards."""

from __future__ import annotations

import random
from collections.abc import Mapping
from types import MappingProxyType

import pytest

import hiddenrole as hr
from hiddenrole.games import werewolf as ww
from hiddenrole.games.werewolf import resolution as rs

from .helpers import board, events, killed, player, reasons, use

SW = ww.Switches()


def town(*extra: hr.PlayerInfo, round: int = 1, phase: str = "", kill: str = "") -> hr.Board:
    """Wolves p00 p01, seer p02, witch p03, guard p04, hunter p05, villagers p06 p07."""
    seats = {
        p.id: p
        for p in (
            player("p00", ww.WEREWOLF),
            player("p01", ww.WEREWOLF),
            player("p02", ww.SEER),
            player("p03", ww.WITCH),
            player("p04", ww.GUARD),
            player("p05", ww.HUNTER),
            player("p06", ww.VILLAGER),
            player("p07", ww.VILLAGER),
        )
    }
    for p in extra:
        seats[p.id] = p
    return board(*seats.values(), round=round, phase=phase, kill=kill)


# ---------------------------------------------------------------- R4 guard


def test_R4_guard_marks_the_protected_player_and_remembers_the_night() -> None:
    b = town(round=3)
    effects = ww.resolve_guard([use("p04", ww.PROTECT, "p06"), use("p04", ww.PROTECT, "p07")], b.view(), SW)
    assert events(effects) == [(ww.PROTECT, "p04", "p06", False)]
    after = b.apply(effects)
    assert after.var(hr.ROUND.of("p06"), ww.VAR_PROTECTED) == hr.VAR_PRESENT
    assert after.var(hr.ROUND.of("p07"), ww.VAR_PROTECTED) == ""
    assert after.var(hr.GAME.of("p04"), ww.VAR_GUARD_LAST_TARGET) == "p06"
    assert after.var(hr.GAME.of("p04"), ww.VAR_GUARD_LAST_ROUND) == "3"


def test_R4_guard_self_protection_follows_the_switch() -> None:
    b = town()
    assert events(ww.resolve_guard([use("p04", ww.PROTECT, "p04")], b.view(), SW))[0][3] is False
    no_self = ww.Switches(guard_can_protect_self=False)
    effects = ww.resolve_guard([use("p04", ww.PROTECT, "p04")], b.view(), no_self)
    assert events(effects) == [(ww.PROTECT, "p04", "p04", True)]
    assert reasons(effects) == [rs.SELF_PROTECT]
    assert b.apply(effects).var(hr.ROUND.of("p04"), ww.VAR_PROTECTED) == ""


def test_R4_guard_cannot_repeat_on_consecutive_nights() -> None:
    guard = player("p04", ww.GUARD, extra={ww.VAR_GUARD_LAST_TARGET: "p06", ww.VAR_GUARD_LAST_ROUND: "2"})
    b = town(guard, round=3)
    effects = ww.resolve_guard([use("p04", ww.PROTECT, "p06")], b.view(), SW)
    assert reasons(effects) == [rs.REPEAT_PROTECT]
    assert b.apply(effects).var(hr.GAME.of("p04"), ww.VAR_GUARD_LAST_ROUND) == "2"
    # another target is fine; the switch lifts the restriction
    assert reasons(ww.resolve_guard([use("p04", ww.PROTECT, "p07")], b.view(), SW)) == []
    assert (
        reasons(ww.resolve_guard([use("p04", ww.PROTECT, "p06")], b.view(), ww.Switches(guard_can_repeat=True))) == []
    )


def test_R4_a_night_off_resets_the_repeat_restriction() -> None:
    guard = player("p04", ww.GUARD, extra={ww.VAR_GUARD_LAST_TARGET: "p06", ww.VAR_GUARD_LAST_ROUND: "1"})
    effects = ww.resolve_guard([use("p04", ww.PROTECT, "p06")], town(guard, round=3).view(), SW)
    assert events(effects) == [(ww.PROTECT, "p04", "p06", False)]


# ---------------------------------------------------------------- R5 wolves


def test_R5_wolf_majority_picks_the_victim() -> None:
    b = town(player("p08", ww.WEREWOLF))
    uses = [
        use("p00", ww.KILL, "p06"),
        use("p01", ww.KILL, "p06"),
        use("p08", ww.KILL, "p07"),
        use("p08", ww.KILL, "p06"),  # only a wolf's first vote counts
    ]
    effects = ww.resolve_wolves(uses, b.view(), SW)
    assert events(effects) == [(ww.KILL, "", "p06", False)]
    assert effects[0].data["tally"] == "p06:2,p07:1"
    assert ww.night_kill_target(b.apply(effects).view()) == "p06"
    assert killed(effects) == []  # nobody dies before dawn


def test_R5_wolf_tie_means_no_kill() -> None:
    b = town()
    effects = ww.resolve_wolves([use("p00", ww.KILL, "p06"), use("p01", ww.KILL, "p07")], b.view(), SW)
    assert events(effects) == [(ww.KILL, "", "", True)]
    assert reasons(effects) == [rs.WOLVES_TIED]
    assert ww.night_kill_target(b.apply(effects).view()) == ""


def test_R5_no_wolf_vote_means_no_kill() -> None:
    b = town()
    effects = ww.resolve_wolves([], b.view(), SW)
    assert reasons(effects) == [rs.NO_VOTES]
    assert ww.night_kill_target(b.apply(effects).view()) == ""


# ---------------------------------------------------------------- R6 antidote


def test_R6_antidote_saves_tonights_victim_once() -> None:
    b = town(kill="p06")
    effects = ww.resolve_witch([use("p03", ww.ANTIDOTE, "p06")], b.view(), SW)
    assert events(effects) == [(ww.SAVE, "p03", "p06", False)]
    after = b.apply(effects)
    assert after.var(hr.ROUND.of("p06"), ww.VAR_SAVED) == hr.VAR_PRESENT
    assert after.var(hr.GAME.of("p03"), ww.VAR_ANTIDOTE) == ""
    assert after.var(hr.GAME.of("p03"), ww.VAR_POISON) == hr.VAR_PRESENT
    again = ww.resolve_witch([use("p03", ww.ANTIDOTE, "p06")], after.view(), SW)
    assert reasons(again) == [rs.NO_ANTIDOTE]


@pytest.mark.parametrize(
    ("kill", "target", "reason"),
    [("", "p06", rs.NO_KILL), ("p07", "p06", rs.NOT_VICTIM), ("p03", "p03", rs.SELF_SAVE)],
)
def test_R6_antidote_cancel_reasons(kill: str, target: str, reason: str) -> None:
    b = town(kill=kill)
    effects = ww.resolve_witch([use("p03", ww.ANTIDOTE, target)], b.view(), SW)
    assert events(effects) == [(ww.SAVE, "p03", target, True)]
    assert reasons(effects) == [reason]
    assert b.apply(effects).var(hr.GAME.of("p03"), ww.VAR_ANTIDOTE) == hr.VAR_PRESENT


def test_R6_witch_self_save_follows_the_switch() -> None:
    b = town(kill="p03")
    effects = ww.resolve_witch([use("p03", ww.ANTIDOTE, "p03")], b.view(), ww.Switches(witch_can_save_self=True))
    assert events(effects) == [(ww.SAVE, "p03", "p03", False)]


def test_R6_R7_one_potion_per_night_unless_the_switch_allows_both() -> None:
    b = town(kill="p06")
    uses = [use("p03", ww.POISON, "p00"), use("p03", ww.ANTIDOTE, "p06")]
    effects = ww.resolve_witch(uses, b.view(), SW)
    assert events(effects) == [(ww.POISON, "p03", "p00", False), (ww.SAVE, "p03", "p06", True)]
    assert reasons(effects) == [rs.BOTH_POTIONS]
    both = ww.resolve_witch(uses, b.view(), ww.Switches(witch_can_use_both_potions=True))
    assert reasons(both) == []
    after = b.apply(both)
    assert after.var(hr.GAME.of("p03"), ww.VAR_ANTIDOTE) == after.var(hr.GAME.of("p03"), ww.VAR_POISON) == ""


def test_R6_only_a_consumed_potion_blocks_the_other() -> None:
    b = town(kill="p06")
    uses = [use("p03", ww.ANTIDOTE, "p07"), use("p03", ww.POISON, "p00")]  # the save fails: wrong target
    effects = ww.resolve_witch(uses, b.view(), SW)
    assert events(effects) == [(ww.SAVE, "p03", "p07", True), (ww.POISON, "p03", "p00", False)]


# ---------------------------------------------------------------- R7 poison


def test_R7_poison_marks_its_target_and_is_spent() -> None:
    b = town()
    effects = ww.resolve_witch([use("p03", ww.POISON, "p01"), use("p03", ww.POISON, "p00")], b.view(), SW)
    assert events(effects) == [(ww.POISON, "p03", "p01", False)]
    after = b.apply(effects)
    assert after.var(hr.ROUND.of("p01"), ww.VAR_POISONED) == hr.VAR_PRESENT
    assert after.var(hr.ROUND.of("p00"), ww.VAR_POISONED) == ""
    assert after.var(hr.GAME.of("p03"), ww.VAR_POISON) == ""
    assert killed(effects) == []  # the death waits for dawn
    assert reasons(ww.resolve_witch([use("p03", ww.POISON, "p00")], after.view(), SW)) == [rs.NO_POISON]


def test_R7_the_witch_never_poisons_herself() -> None:
    every = ww.Switches(witch_can_save_self=True, witch_can_use_both_potions=True)
    effects = ww.resolve_witch([use("p03", ww.POISON, "p03")], town().view(), every)
    assert reasons(effects) == [rs.SELF_POISON]


# ---------------------------------------------------------------- R8 seer


def test_R8_seer_sees_camp_only() -> None:
    b = town()
    effects = ww.resolve_seer([use("p02", ww.CHECK, "p00"), use("p02", ww.CHECK, "p05")], b.view(), SW)
    assert events(effects) == [(ww.CHECK, "p02", "p00", False)]
    assert dict(effects[0].data) == {"camp": ww.EVIL, "good": "false"}
    hunter = ww.resolve_seer([use("p02", ww.CHECK, "p05")], b.view(), SW)
    assert dict(hunter[0].data) == {"camp": ww.GOOD, "good": "true"}
    for e in (*effects, *hunter):
        assert ww.HUNTER not in e.data.values() and ww.WEREWOLF not in e.data.values()


# ---------------------------------------------------------------- R9 / R10 dawn


@pytest.mark.parametrize(
    ("marks", "switches", "dies"),
    [
        ((), SW, True),
        ((ww.VAR_PROTECTED,), SW, False),
        ((ww.VAR_PROTECTED,), ww.Switches(guarded_kill_is_empty=False), True),
        ((ww.VAR_SAVED,), SW, False),
        ((ww.VAR_PROTECTED, ww.VAR_SAVED), SW, True),
        ((ww.VAR_PROTECTED, ww.VAR_SAVED), ww.Switches(guard_and_save_dies=False), False),
    ],
)
def test_R9_night_resolution_matrix(marks: tuple[str, ...], switches: ww.Switches, dies: bool) -> None:
    b = town(player("p06", ww.VILLAGER, marks=marks), kill="p06")
    effects = ww.resolve_night([], b.view(), switches)
    assert killed(effects) == (["p06"] if dies else [])
    assert effects[0].type == ww.DAWN and effects[0].data["dead"] == ("p06" if dies else "")
    if dies:
        assert b.apply(effects).var(hr.GAME.of("p06"), ww.VAR_DEATH_CAUSE) == ww.KILL


def test_R9_no_victim_is_a_peaceful_night() -> None:
    effects = ww.resolve_night([], town().view(), SW)
    assert events(effects) == [(ww.DAWN, "", "", False)]
    assert effects[0].data["dead"] == "" and killed(effects) == []


@pytest.mark.parametrize("causes", [False, True])
def test_R9_a_peaceful_dawn_is_the_same_announcement_as_any_other(causes: bool) -> None:
    """The kept peaceful-dawn payload equals what a dawn with deaths would be built as, with nobody."""
    effects = ww.resolve_night([], town().view(), ww.Switches(announce_death_causes=causes))
    want = {"causes": "", "dead": ""} if causes else {"dead": ""}
    assert dict(effects[0].data) == want and list(effects[0].data) == sorted(want)
    assert effects == [hr.event(ww.DAWN, data=MappingProxyType(want))]


def test_R10_night_deaths_in_id_order_under_one_announcement_without_causes() -> None:
    b = town(
        player("p07", ww.VILLAGER, marks=(ww.VAR_POISONED,)),
        player("p02", ww.SEER, marks=(ww.VAR_POISONED,)),
        kill="p05",
    )
    effects = ww.resolve_night([], b.view(), SW)
    assert killed(effects) == ["p02", "p05", "p07"]
    assert events(effects) == [(ww.DAWN, "", "", False)]
    assert dict(effects[0].data) == {"dead": "p02,p05,p07"}
    after = b.apply(effects)
    causes = {pid: after.var(hr.GAME.of(pid), ww.VAR_DEATH_CAUSE) for pid in ("p02", "p05", "p07")}
    assert causes == {"p02": ww.POISON, "p05": ww.KILL, "p07": ww.POISON}
    told = ww.resolve_night([], b.view(), ww.Switches(announce_death_causes=True))
    assert told[0].data["causes"] == "p02:POISON,p05:KILL,p07:POISON"


def test_R10_a_victim_also_poisoned_died_of_poison() -> None:
    b = town(player("p05", ww.HUNTER, marks=(ww.VAR_POISONED,)), kill="p05")
    effects = ww.resolve_night([], b.view(), SW)
    assert killed(effects) == ["p05"]
    assert b.apply(effects).var(hr.GAME.of("p05"), ww.VAR_DEATH_CAUSE) == ww.POISON


# ---------------------------------------------------------------- R11 / R12 last action


def test_R11_every_night_death_owes_a_last_action() -> None:
    b = town(player("p06", ww.VILLAGER, marks=(ww.VAR_POISONED,)), kill="p05")
    effects = ww.resolve_night([], b.view(), SW)
    detours = [(e.source, e.phase) for e in effects if e.type == hr.DETOUR]
    assert detours == [("p05", ww.NIGHT_LAST_ACTION), ("p06", ww.NIGHT_LAST_ACTION)]


def test_R11_a_skip_is_told_to_the_actor_alone_and_changes_nothing() -> None:
    dead = player("p06", ww.VILLAGER, alive=False, extra={ww.VAR_DEATH_CAUSE: ww.KILL})
    b = town(dead, phase=ww.NIGHT_LAST_ACTION)
    effects = ww.resolve_last_action([use("p06", ww.SKIP)], b.view(), SW)
    assert effects == [hr.Effect(ww.SKIP, "p06")]
    assert ww.resolve_last_action([], b.view(), SW) == []


def test_R11_only_an_armed_role_can_shoot() -> None:
    dead = player("p06", ww.VILLAGER, alive=False, extra={ww.VAR_DEATH_CAUSE: ww.KILL})
    effects = ww.resolve_last_action([use("p06", ww.SHOOT, "p00")], town(dead).view(), SW)
    assert reasons(effects) == [rs.NO_GUN] and killed(effects) == []


def test_R12_hunter_shot_kills_and_the_victim_owes_a_last_action() -> None:
    hunter = player("p05", ww.HUNTER, alive=False, extra={ww.VAR_DEATH_CAUSE: ww.VOTE})
    b = town(hunter, phase=ww.DAY_LAST_ACTION)
    effects = ww.resolve_last_action([use("p05", ww.SHOOT, "p00"), use("p05", ww.SHOOT, "p01")], b.view(), SW)
    assert events(effects) == [(ww.SHOOT, "p05", "p00", False)]
    assert killed(effects) == ["p00"]
    assert [(e.source, e.phase) for e in effects if e.type == hr.DETOUR] == [("p00", ww.DAY_LAST_ACTION)]
    assert b.apply(effects).var(hr.GAME.of("p00"), ww.VAR_DEATH_CAUSE) == ww.SHOOT


def test_R12_a_shot_hunter_shoots_in_turn() -> None:
    hunter = player("p05", ww.HUNTER, alive=False, extra={ww.VAR_DEATH_CAUSE: ww.SHOOT})
    effects = ww.resolve_last_action([use("p05", ww.SHOOT, "p01")], town(hunter).view(), SW)
    assert killed(effects) == ["p01"]


def test_R12_no_shot_when_poisoned() -> None:
    hunter = player("p05", ww.HUNTER, alive=False, extra={ww.VAR_DEATH_CAUSE: ww.POISON})
    b = town(hunter, phase=ww.NIGHT_LAST_ACTION)
    effects = ww.resolve_last_action([use("p05", ww.SHOOT, "p00")], b.view(), SW)
    assert events(effects) == [(ww.SHOOT, "p05", "p00", True)]
    assert reasons(effects) == [rs.GUN_JAMMED] and killed(effects) == []


def test_R12_the_living_and_the_dead_are_not_valid_shots() -> None:
    alive_hunter = ww.resolve_last_action([use("p05", ww.SHOOT, "p00")], town().view(), SW)
    assert reasons(alive_hunter) == [rs.STILL_ALIVE]
    hunter = player("p05", ww.HUNTER, alive=False, extra={ww.VAR_DEATH_CAUSE: ww.KILL})
    gone = player("p00", ww.WEREWOLF, alive=False)
    assert reasons(ww.resolve_last_action([use("p05", ww.SHOOT, "p00")], town(hunter, gone).view(), SW)) == [
        rs.TARGET_GONE
    ]


# ---------------------------------------------------------------- R13 vote


def test_R13_unique_most_voted_player_is_eliminated_with_public_ballots() -> None:
    b = town(phase=ww.VOTE)
    uses = [
        use("p00", ww.VOTE, "p06"),
        use("p01", ww.VOTE, "p06"),
        use("p02", ww.VOTE, "p00"),
        use("p00", ww.VOTE, "p02"),  # only a player's first vote counts
    ]
    effects = ww.resolve_vote(uses, b.view(), SW)
    assert events(effects) == [(ww.ELIMINATE, "", "p06", False)]
    assert dict(effects[0].data) == {
        "votes": "2",
        "voters": "p00,p01",
        "ballots": "p00>p06,p01>p06,p02>p00",
        "tally": "p00:1,p06:2",
    }
    assert killed(effects) == ["p06"]
    assert [(e.source, e.phase) for e in effects if e.type == hr.DETOUR] == [("p06", ww.DAY_LAST_ACTION)]
    assert b.apply(effects).var(hr.GAME.of("p06"), ww.VAR_DEATH_CAUSE) == ww.VOTE


def test_R13_vote_tie_means_no_elimination() -> None:
    uses = [use("p00", ww.VOTE, "p06"), use("p01", ww.VOTE, "p07")]
    effects = ww.resolve_vote(uses, town().view(), SW)
    assert events(effects) == [(ww.VOTE_TIED, "", "", False)]
    assert effects[0].data["between"] == "p06,p07" and killed(effects) == []
    none = ww.resolve_vote([], town().view(), SW)
    assert events(none) == [(ww.VOTE_TIED, "", "", False)] and none[0].data["between"] == ""


def test_R13_the_dead_and_the_disenfranchised_do_not_vote() -> None:
    b = town(player("p02", ww.SEER, alive=False), player("p03", ww.WITCH, extra={ww.VAR_NO_VOTE: "1"}))
    uses = [use("p02", ww.VOTE, "p07"), use("p03", ww.VOTE, "p07"), use("p00", ww.VOTE, "p06")]
    effects = ww.resolve_vote(uses, b.view(), SW)
    assert killed(effects) == ["p06"]
    day = ww.resolve_day([], b.view(), SW)
    assert day == [hr.set_actors(ww.VOTE, "p00", "p01", "p04", "p05", "p06", "p07")]
    assert ww.resolve_day([], town().view(), SW) == []


def test_R13_a_ban_is_found_whatever_the_day_read_before() -> None:
    """The living found with nobody banned are kept (:func:`resolution._anyone_banned`): the same
    living skip the search, other living (a ban written since) are searched, and living with a ban
    are never kept."""
    quiet = town().view()
    banned = town(player("p06", ww.VILLAGER, extra={ww.VAR_NO_VOTE: "1"})).view()
    uses = [use("p00", ww.VOTE, "p07"), use("p06", ww.VOTE, "p05"), use("p07", ww.VOTE, "p05")]
    for view in (quiet, quiet, banned, banned, quiet, banned):
        assert ww.resolve_vote(uses, view, SW) == _vote_as_written(uses, view)
        assert ww.resolve_vote(uses[::-1], view, SW) == _vote_as_written(uses, view)  # the general way
        day = ww.resolve_day([], view, SW)
        assert day == (
            [] if view is quiet else [hr.set_actors(ww.VOTE, "p00", "p01", "p02", "p03", "p04", "p05", "p07")]
        )
        assert killed(ww.resolve_vote(uses, view, SW)) == (["p05"] if view is quiet else [])


def _vote_as_written(uses: list[hr.SkillUse], view: hr.GameView) -> list[hr.Effect]:
    """R13 written plainly: each voter's first VOTE, the living and enfranchised counted, by a dict."""
    firsts: dict[str, str] = {}
    for u in uses:
        if u.skill == ww.VOTE and u.player_id not in firsts:
            firsts[u.player_id] = u.targets[0] if u.targets else ""
    ballots = [
        (p.id, firsts[p.id]) for p in view.alive_players() if firsts.get(p.id) and not p.vars.get(ww.VAR_NO_VOTE)
    ]
    tally: dict[str, int] = {}
    for _, t in ballots:
        tally[t] = tally.get(t, 0) + 1
    top = max(tally.values(), default=0)
    leaders = [t for t in sorted(tally) if tally[t] == top]
    text = ",".join(f"{v}>{t}" for v, t in ballots)
    if len(leaders) != 1:
        return [hr.event(ww.VOTE_TIED, data={"ballots": text, "between": ",".join(leaders)})]
    out = leaders[0]
    data = {
        "ballots": text,
        "tally": ",".join(f"{t}:{tally[t]}" for t in sorted(tally)),
        "voters": ",".join(v for v, t in ballots if t == out),
        "votes": str(top),
    }
    return [hr.event(ww.ELIMINATE, target=out, data=data), *rs.death(out, ww.VOTE, ww.DAY_LAST_ACTION)]


def test_R13_every_ballot_order_counts_as_written() -> None:
    """Ballots in seat order, one per living voter (a real table's day), are counted as they come;
    any other order, a second ballot, a dead or unknown voter, an empty ballot or another skill
    takes the general way: both give what the rule as written gives."""
    rng = random.Random(13)
    seats = [f"p{i:02d}" for i in range(8)]
    for _ in range(600):
        b = town(
            *(player(pid, ww.VILLAGER, alive=False) for pid in seats if rng.random() < 0.2),
            *(player(pid, ww.VILLAGER, extra={ww.VAR_NO_VOTE: "1"}) for pid in seats if rng.random() < 0.1),
        )
        voters = sorted(rng.sample([*seats, "p99"], rng.randint(0, 9)))
        if rng.random() < 0.3:
            rng.shuffle(voters)
        uses = [use(v, ww.VOTE, *([] if rng.random() < 0.05 else [rng.choice([*seats, ""])])) for v in voters]
        for _ in range(rng.choice((0, 0, 1, 2))):
            uses.insert(
                rng.randint(0, len(uses)), use(rng.choice(seats), rng.choice((ww.VOTE, ww.SKIP)), rng.choice(seats))
            )
        assert ww.resolve_vote(uses, b.view(), SW) == _vote_as_written(uses, b.view()), uses
        assert ww.resolve_day([], b.view(), SW) is not None  # the day before, on the same living
        assert ww.resolve_vote(uses, b.view(), SW) == _vote_as_written(uses, b.view()), uses


def test_each_players_first_use_of_a_skill_is_kept_in_submission_order() -> None:
    rng = random.Random(4)
    for _ in range(300):
        uses = [
            use(rng.choice(("p00", "p01", "p02")), rng.choice((ww.KILL, ww.CHECK)), rng.choice(("p03", "p04")))
            for _ in range(rng.randint(0, 6))
        ]
        firsts: dict[str, hr.SkillUse] = {}
        for u in uses:
            if u.skill == ww.KILL:
                firsts.setdefault(u.player_id, u)
        assert rs.first_uses(uses, ww.KILL) == firsts
        assert list(rs.first_uses(uses, ww.KILL)) == list(firsts)  # in submission order
        assert rs._firsts(uses, ww.KILL) == list(firsts.values())


def test_R13_resolvers_mapping_binds_the_switches() -> None:
    table = ww.resolvers(ww.Switches(guard_can_protect_self=False))
    effects = list(table[ww.NIGHT_GUARD]([use("p04", ww.PROTECT, "p04")], town().view()) or ())
    assert reasons(effects) == [rs.SELF_PROTECT]
    with pytest.raises(hr.InvalidArgument):
        ww.resolvers("x")  # type: ignore[arg-type]


@pytest.mark.parametrize("data", [hr.Effect("A").data, hr.event("A", data={"tally": "p01:1"}).data])
def test_a_refused_action_is_its_event_cancelled_field_for_field(data: Mapping[str, str]) -> None:
    """The resolvers build a cancelled event as one tuple: the same value as ``event(...).cancel(...)``."""
    built = rs._refused(ww.KILL, "p00", "p01", rs.NO_TARGET, data)
    assert tuple(built) == tuple(hr.event(ww.KILL, "p00", "p01", data).cancel(rs.NO_TARGET))
    assert type(built) is hr.Effect and built.scope == hr.GAME and built.vars is hr.Effect("A").vars
    assert tuple(rs._refused(ww.SHOOT, "p05", "", rs.NO_TARGET)) == tuple(
        hr.event(ww.SHOOT, "p05").cancel(rs.NO_TARGET)
    )


def test_a_tally_counts_past_the_numerals_kept() -> None:
    assert [rs._numeral(n) for n in (0, 1, 12, len(rs._NUMERALS), 100)] == [
        "0",
        "1",
        "12",
        str(len(rs._NUMERALS)),
        "100",
    ]


@pytest.mark.parametrize(
    "cast",
    [
        [],
        ["p01"],
        ["p02", "p01"],
        ["p01", "p02"],
        ["p02", "p02"],
        ["p02", "p01", "p02"],
        ["p03", "p01", "p02", "p01", "p03"],
        ["p1", "p10", "p2", "p10", "p1", "p10"],
        ["p02"] * 40,  # past the counts kept as text
        ["p03"] * 31 + ["p01"] * 33 + ["p02"] * 32,
    ],
)
def test_a_count_names_the_leaders_and_the_tally_by_target(cast: list[str]) -> None:
    """Counted by runs of the sorted ballots: the same as counting into a dict."""
    tally = {t: cast.count(t) for t in cast}
    top = max(tally.values(), default=0)
    want = ([t for t in sorted(tally) if tally[t] == top], ",".join(f"{t}:{tally[t]}" for t in sorted(tally)), top)
    given = list(cast)
    leaders, top = rs._count(given)
    assert given == sorted(cast)  # sorted in place, whatever the size: what the tally reads
    assert (leaders, rs._tally(given), top) == want


@pytest.mark.parametrize("per_round", [False, True])
def test_a_seat_scope_is_its_keyword_form_and_kept(per_round: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    base = hr.ROUND if per_round else hr.GAME
    first = rs._owned(per_round, "p01")
    assert type(first) is hr.VarScope and first == base.of("p01") and rs._owned(per_round, "p01") is first
    monkeypatch.setattr(rs, "_MAX_KEPT", 0)  # full: built afresh, not kept (pure build: compiled inlines it)
    assert rs._owned(per_round, "p99") == base.of("p99")


def test_kept_deaths_and_outcomes_are_the_values_built_afresh(monkeypatch: pytest.MonkeyPatch) -> None:
    """The resolvers' memo (:func:`resolution._keep`) gives what the kernel helpers build, keyed by
    every argument: another cause, phase, actor or target is another value."""
    for cause, phase in (
        (ww.KILL, ww.NIGHT_LAST_ACTION),
        (ww.POISON, ww.NIGHT_LAST_ACTION),
        (ww.VOTE, ww.DAY_LAST_ACTION),
    ):
        want = [
            hr.set_alive("p01", False),
            hr.set_var(hr.GAME.of("p01"), ww.VAR_DEATH_CAUSE, cause),
            hr.detour("p01", phase),
        ]
        assert ww.death("p01", cause, phase) == want
        assert ww.death("p01", cause, phase) == want  # kept now
    assert rs._event(ww.SKIP, "p01") == hr.event(ww.SKIP, "p01") and rs._event(ww.SKIP, "p02") == hr.event(
        ww.SKIP, "p02"
    )
    assert rs._event(ww.SHOOT, "p01", "p03") == hr.event(ww.SHOOT, "p01", "p03")
    assert rs._event(ww.SHOOT, "p01", "p02") == hr.event(ww.SHOOT, "p01", "p02")
    assert rs._event(ww.SHOOT, "p01", "p02") is rs._event(ww.SHOOT, "p01", "p02")
    for per_round, scope in ((True, hr.ROUND), (False, hr.GAME)):
        for key, value in ((ww.VAR_PROTECTED, hr.VAR_PRESENT), (ww.VAR_GUARD_LAST_ROUND, "2"), (ww.VAR_POISON, "")):
            for pid in ("p01", "p02"):
                assert rs._written(per_round, pid, key, value) == hr.set_var(scope.of(pid), key, value)
                assert rs._written(per_round, pid, key, value) is rs._written(per_round, pid, key, value)
    assert rs._written(False, "p01", ww.VAR_GUARD_LAST_ROUND, "3") == hr.set_var(
        hr.GAME.of("p01"), ww.VAR_GUARD_LAST_ROUND, "3"
    )
    for camp in (ww.EVIL, ww.GOOD, ww.EVIL):  # the same seer and seat seen in another deal
        want_check = hr.event(ww.CHECK, "p01", "p02", {"camp": camp, "good": "false" if camp == ww.EVIL else "true"})
        assert rs._checked("p01", "p02", camp) == want_check
        assert rs._checked("p01", "p02", camp) is rs._checked("p01", "p02", camp)
    assert rs._checked("p01", "p03", ww.GOOD).target == "p03" and rs._checked("p04", "p03", ww.GOOD).source == "p04"
    for pid in ("p01", "p02"):
        assert rs._kill_target(pid) == hr.set_var(hr.ROUND, ww.VAR_KILL_TARGET, pid)
        assert rs._kill_target(pid) is rs._kill_target(pid)
    monkeypatch.setattr(rs, "_MAX_KEPT", 0)  # full: built afresh, not kept (pure build: compiled inlines it)
    assert ww.death("p98", ww.SHOOT, ww.DAY_LAST_ACTION)[1] == hr.set_var(
        hr.GAME.of("p98"), ww.VAR_DEATH_CAUSE, ww.SHOOT
    )
    assert rs._event(ww.SKIP, "p98") == hr.event(ww.SKIP, "p98")
    assert rs._written(True, "p98", ww.VAR_SAVED, hr.VAR_PRESENT) == hr.set_var(
        hr.ROUND.of("p98"), ww.VAR_SAVED, hr.VAR_PRESENT
    )
    assert rs._kill_target("p98") == hr.set_var(hr.ROUND, ww.VAR_KILL_TARGET, "p98")


def test_a_dawn_announces_each_list_of_the_dead_and_a_peaceful_dawn_alike() -> None:
    """Dawn effects are kept per list of the dead: two different nights never share an announcement."""
    for victim in ("p06", "p07", "p06"):
        out = rs.resolve_night([], town(kill=victim).view(), SW)[0]
        assert out.type == ww.DAWN and dict(out.data) == {"dead": victim}
    quiet = rs.resolve_night([], town().view(), SW)
    assert [(e.type, dict(e.data)) for e in quiet] == [(ww.DAWN, {"dead": ""})]
    told = rs.resolve_night([], town().view(), ww.Switches(announce_death_causes=True))
    assert [(e.type, dict(e.data)) for e in told] == [(ww.DAWN, {"causes": "", "dead": ""})]
