"""R1 roles, R2 switches, R3 phase cycle, R22 boards and dealing, R23 entry points."""

from __future__ import annotations

import random
from collections.abc import Callable
from types import MappingProxyType

import pytest

import hiddenrole as hr
from hiddenrole.games import werewolf as ww

from .helpers import EIGHT, table, until


def test_R1_every_role_has_a_camp_and_a_category() -> None:
    engine = table(*EIGHT, ww.VILLAGER)
    expected = {
        ww.WEREWOLF: (ww.EVIL, ww.WOLF),
        ww.SEER: (ww.GOOD, ww.GOD),
        ww.WITCH: (ww.GOOD, ww.GOD),
        ww.GUARD: (ww.GOOD, ww.GOD),
        ww.HUNTER: (ww.GOOD, ww.GOD),
        ww.VILLAGER: (ww.GOOD, ww.VILLAGER),
    }
    for pid in engine.player_ids():
        p = engine.player_info(pid)
        assert (p.vars[ww.VAR_CAMP], p.vars[ww.VAR_CATEGORY]) == expected[p.role]
        assert engine.player_view(pid).self.camp == expected[p.role][0]
    witch = engine.player_info("p03")
    assert witch.vars[ww.VAR_ANTIDOTE] == witch.vars[ww.VAR_POISON] == hr.VAR_PRESENT
    assert engine.player_info("p05").vars[ww.VAR_GUN] == "KILL,SHOOT,VOTE"
    assert ww.VAR_GUN not in engine.player_info("p06").vars
    assert ww.VAR_ANTIDOTE not in engine.player_info("p02").vars


def test_R1_a_custom_role_without_setup_has_no_camp() -> None:
    engine = table(*EIGHT, start=False)
    engine.add_player("p99", "JESTER")
    assert engine.player_info("p99").vars == {}
    assert ww.camp_vars(ww.GOOD, ww.GOD) == {ww.VAR_CAMP: ww.GOOD, ww.VAR_CATEGORY: ww.GOD}


def test_R2_switch_defaults_follow_the_baseline() -> None:
    sw = ww.Switches()
    assert (sw.witch_can_save_self, sw.witch_can_use_both_potions) == (False, False)
    assert (sw.guard_can_protect_self, sw.guard_can_repeat) == (True, False)
    assert (sw.guarded_kill_is_empty, sw.guard_and_save_dies) == (True, True)
    assert sw.victory_mode == ww.SIDE_WIPE
    assert sw.disclosures == ()
    assert ww.Switches(announce_death_causes=True).disclosures == ("announce_death_causes",)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"victory_mode": "ALL_DEAD"},
        {"victory_mode": ""},
        {"witch_can_save_self": 1},
        {"guard_can_repeat": "yes"},
        {"guarded_kill_is_empty": None},
        {"announce_death_causes": 0},
    ],
)
def test_R2_bad_switch_values_raise_invalid_config(kwargs: dict[str, object]) -> None:
    with pytest.raises(hr.InvalidConfig):
        ww.Switches(**kwargs)  # type: ignore[arg-type]


def test_R2_switches_are_frozen() -> None:
    sw = ww.Switches()
    with pytest.raises(AttributeError):
        sw.guard_can_repeat = True  # type: ignore[misc]


def test_R3_night_then_day_in_table_order_with_announcements_and_timeouts() -> None:
    engine = table(*EIGHT)
    seen = [engine.status().phase]
    for _ in range(7):
        engine.end_phase()
        seen.append(engine.status().phase)
    assert seen == [
        ww.NIGHT_GUARD,
        ww.NIGHT_WOLF,
        ww.NIGHT_WITCH,
        ww.NIGHT_SEER,
        ww.NIGHT_RESOLVE,
        ww.DAY,
        ww.VOTE,
        ww.NIGHT_GUARD,
    ]
    cfg = engine.rules.config
    for phase in (*seen, ww.NIGHT_LAST_ACTION, ww.DAY_LAST_ACTION):
        steps = cfg.phases[phase].steps
        assert (steps[0].role, steps[0].skill) == (hr.SYSTEM, hr.ANNOUNCE)
        assert ww.announcement(phase)
        assert cfg.phase_timeout(phase) == ww.TIMEOUTS[phase]
    assert cfg.phase_timeout(ww.DAY) == 60.0
    assert ww.announcement("NOPE") == ""


def test_R3_a_round_is_one_night_and_one_day() -> None:
    engine = table(*EIGHT)
    assert engine.status().round == 1
    until(engine, ww.VOTE)
    assert engine.status().round == 1
    engine.end_phase()
    assert engine.status() == hr.Status(ww.NIGHT_GUARD, 2, False, ())


def test_R3_the_wolf_kill_and_the_vote_are_required_the_rest_optional() -> None:
    engine = table(*EIGHT)
    assert engine.readiness().ready
    until(engine, ww.NIGHT_WOLF)
    r = engine.readiness()
    assert not r.ready and [p.player_id for p in r.pending] == ["p00", "p01"]
    until(engine, ww.NIGHT_WITCH)
    assert engine.readiness().ready
    # nobody was attacked (no wolf voted), so the antidote is not usable and not asked for
    assert {(p.player_id, p.skill) for p in engine.readiness().optional} == {
        ("p03", ww.POISON),
    }
    until(engine, ww.VOTE)
    assert len(engine.readiness().pending) == 8


@pytest.mark.parametrize(
    ("seat", "targets", "error"),
    [
        pytest.param("p04", [], hr.SkillNotAllowed, id="no-target"),
        pytest.param("p04", ["p01", "p02"], hr.SkillNotAllowed, id="two-targets"),
        pytest.param("p04", ["p42"], hr.TargetNotFound, id="unknown-target"),
        pytest.param("p06", ["p01"], hr.SkillNotAllowed, id="not-the-guard"),
    ],
)
def test_R3_skills_take_exactly_one_living_target(seat: str, targets: list[str], error: type[hr.GameError]) -> None:
    engine = table(*EIGHT)
    with pytest.raises(error):
        engine.submit(seat, ww.PROTECT, targets)
    assert engine.pending_uses() == ()


def test_R22_boards_for_six_to_twelve_players() -> None:
    for n in range(ww.MIN_PLAYERS, ww.MAX_PLAYERS + 1):
        cards = ww.board(n)
        assert len(cards) == n
        wolves = cards.count(ww.WEREWOLF)
        assert 2 <= wolves < n - wolves
        assert {ww.SEER, ww.WITCH} <= set(cards) and cards.count(ww.VILLAGER) >= 2
        ww.new_game(n, seed=n)  # every preset starts: none is decided before play
    assert sorted(ww.board(12)) == sorted(
        [ww.WEREWOLF] * 4 + [ww.SEER, ww.WITCH, ww.HUNTER, ww.GUARD] + [ww.VILLAGER] * 4
    )
    for bad in (5, 13, 0):
        with pytest.raises(hr.InvalidBoard):
            ww.board(bad)
    with pytest.raises(hr.InvalidArgument):
        ww.board("12")  # type: ignore[arg-type]
    with pytest.raises(hr.InvalidArgument):
        ww.board(True)


def test_R22_dealing_is_a_seeded_shuffle_onto_seats_in_order() -> None:
    cards = ww.board(12)
    dealt = ww.deal(cards, 7)
    assert list(dealt) == [f"p{i:02d}" for i in range(12)]
    deck = list(cards)
    random.Random(7).shuffle(deck)
    assert list(dealt.values()) == deck
    assert ww.deal(cards, 7) == dealt
    assert ww.deal(cards, 8) != dealt
    engine = ww.new_game(12, seed=7)
    assert {pid: engine.player_info(pid).role for pid in engine.player_ids()} == dealt
    assert ww.seat_ids(3) == ("p00", "p01", "p02")
    with pytest.raises(hr.InvalidRole):
        ww.deal([ww.WEREWOLF, ""], 1)
    with pytest.raises(hr.InvalidArgument):
        ww.deal(cards, "seed")  # type: ignore[arg-type]
    with pytest.raises(hr.InvalidArgument):
        ww.deal("WEREWOLF", 1)


def test_R23_rules_are_named_versioned_and_built_from_switches() -> None:
    r = ww.rules()
    assert (r.name, r.version) == ("werewolf", "1")
    assert r is ww.rules(ww.Switches())
    assert set(r.resolvers) == {
        ww.NIGHT_GUARD,
        ww.NIGHT_WOLF,
        ww.NIGHT_WITCH,
        ww.NIGHT_SEER,
        ww.NIGHT_RESOLVE,
        ww.NIGHT_LAST_ACTION,
        ww.DAY,
        ww.VOTE,
        ww.DAY_LAST_ACTION,
    }
    town = ww.rules(ww.Switches(victory_mode=ww.TOWN_WIPE))
    assert town is not r and town.version == "1;victory_mode=TOWN_WIPE"
    both = ww.Switches(witch_can_save_self=True, guard_can_repeat=True)
    assert ww.version_of(both) == "1;witch_can_save_self=True,guard_can_repeat=True"
    assert both.changed() == (("witch_can_save_self", True), ("guard_can_repeat", True))
    engine = ww.new_game(8, seed=3, start=False)
    assert engine.status().phase == hr.START and len(engine.player_ids()) == 8
    with pytest.raises(hr.InvalidArgument):
        ww.rules("defaults")  # type: ignore[arg-type]
    with pytest.raises(hr.InvalidArgument):
        ww.rules(extensions=("idiot",))  # type: ignore[arg-type]
    with pytest.raises(hr.InvalidArgument):
        ww.rules(extra_interceptors=(42,))  # type: ignore[arg-type]


def test_R23_extra_interceptors_run_after_the_core() -> None:
    seen: list[str] = []

    def spy(effect: hr.Effect, view: hr.GameView) -> None:
        seen.append(effect.type)

    engine = hr.Engine(ww.rules(extra_interceptors=(spy,)))
    for pid, role in zip(ww.seat_ids(8), EIGHT, strict=True):
        engine.add_player(pid, role)
    engine.start()
    engine.submit("p04", ww.PROTECT, ["p06"])
    engine.end_phase()
    assert seen[0] == ww.PROTECT and hr.SET_VAR in seen


@pytest.mark.parametrize(
    "build",
    [
        pytest.param(
            lambda: ww.rules(extensions=(ww.Extension("dup", roles=(ww.RoleSpec(ww.SEER, ww.GOOD, ww.GOD),)),)),
            id="role-already-in-the-core",
        ),
        pytest.param(
            lambda: ww.rules(extensions=(ww.Extension("clash", events=((ww.DAWN, ww.PUBLIC),)),)),
            id="event-already-in-the-core",
        ),
        pytest.param(lambda: ww.Extension("x", events=(("NEW", "everyone"),)), id="unknown-audience"),
        pytest.param(lambda: ww.Extension(""), id="no-name"),
        pytest.param(lambda: ww.RoleSpec("", ww.GOOD), id="role-without-name"),
        pytest.param(lambda: ww.RoleSpec("X", ww.GOOD, gun="KILL"), id="gun-not-a-bool"),  # type: ignore[arg-type]
        pytest.param(lambda: ww.RoleSpec("X", ww.GOOD, vars={"k": 1}), id="var-not-a-string"),  # type: ignore[arg-type]
        pytest.param(lambda: ww.Extension("x", reveals=("UNDECLARED",)), id="reveals-undeclared-event"),
    ],
)
def test_R23_extensions_are_validated(build: Callable[[], object]) -> None:
    with pytest.raises(hr.InvalidConfig):
        build()


def test_R23_a_valid_extension_normalises_its_events_and_versions_the_rules() -> None:
    ok = ww.Extension("ok", events={"NEW": ww.PUBLIC})  # type: ignore[arg-type]
    assert ok.events == (("NEW", ww.PUBLIC),)
    assert ww.rules(extensions=(ok,)).version == "1+ok"


def test_R23_a_saved_game_restores_and_replays_under_the_same_rules() -> None:
    engine = table(*EIGHT)
    until(engine, ww.NIGHT_WITCH)
    engine.submit("p03", ww.POISON, ["p00"])
    snap = engine.snapshot().to_json()
    again = ww.restore(snap)
    assert again.snapshot().to_json() == snap
    assert again.end_phase() == engine.end_phase()
    replayed = ww.replay(engine.log().to_json())
    assert replayed.snapshot().to_json() == engine.snapshot().to_json()
    with pytest.raises(hr.RulesMismatch):
        ww.restore(snap, extensions=(ww.Extension("other"),))
    with pytest.raises(hr.RulesMismatch):
        ww.restore(snap, ww.Switches(guard_can_repeat=True))


def test_R23_every_public_name_exists() -> None:
    missing = [name for name in ww.__all__ if not hasattr(ww, name)]
    assert missing == []
    assert len(set(ww.__all__)) == len(ww.__all__)


def test_R1_a_plain_role_seats_its_setup_kept_and_a_subclass_is_asked_per_seat() -> None:
    """A plain RoleSpec's setup is kept per ruleset (:mod:`.seating`): every seat gets exactly what the
    spec's setup gives, as one shared read-only constant map (which the kernel seats as it is). A
    subclass may read the seat, so it is asked each time."""
    from hiddenrole.games.werewolf.seating import Seating

    rules = ww.rules()
    for spec in ww.CORE_ROLES:
        kept = rules.role_setup[spec.role]
        assert isinstance(kept, Seating)
        first = kept.setup("p00", spec.role)
        given = spec.setup("p00", spec.role)
        assert given and "" not in given.values()  # what lets the kernel seat the kept map as it is
        assert type(first) is MappingProxyType and dict(first) == given and first is kept.setup("p01", spec.role)

    class PerSeat(ww.RoleSpec):
        def setup(self, player_id: str, role: str) -> dict[str, str]:
            return {**super().setup(player_id, role), "seat": player_id}

    ext = ww.Extension("perseat", roles=(PerSeat("SQUIRE", ww.GOOD, ww.VILLAGER),))
    engine = hr.Engine(ww.rules(extensions=(ext,)))
    engine.add_players([("p00", "SQUIRE"), ("p01", "SQUIRE")])
    assert [engine.player_info(p).vars.get("seat") for p in ("p00", "p01")] == ["p00", "p01"]


def test_R22_new_game_seats_the_deal() -> None:
    """``new_game`` seats what ``deal`` gives, preset or explicit cards, and checks them as ``deal`` does."""
    for players in (6, 12, [ww.WEREWOLF, ww.SEER, ww.VILLAGER, ww.VILLAGER]):
        engine = ww.new_game(players, seed=7, start=False)
        cards = ww.board(players) if isinstance(players, int) else players
        assert {p: engine.player_info(p).role for p in engine.player_ids()} == ww.deal(cards, 7)
    with pytest.raises(hr.InvalidRole):
        ww.new_game([ww.WEREWOLF, ""], seed=1)
    with pytest.raises(hr.InvalidArgument):
        ww.new_game(12, seed=True)
