"""Item 10: the information boundary.

Three separate faces of a player; a player's view reveals roles only for self and
teammates, role info only through the role's provider, the camp only from
``VAR_CAMP``; ``audience_of`` is tri-state with a floor the rules cannot lower; speech
defaults to "every living player hears" and is never logged.
"""

from __future__ import annotations

import typing
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

import hiddenrole as hr

from .small_games import (
    CHECK,
    KILL,
    ROSTER,
    SEER,
    TOWN,
    VILLAGER,
    VOTE,
    WOLF,
    counter_game,
    counter_rules,
    mini_game,
    mini_rules,
    snap_bytes,
    started_mini,
)

# ---------------------------------------------------------------- the three faces


def test_three_player_faces_have_exactly_the_documented_fields() -> None:
    assert hr.PlayerInfo._fields == ("id", "role", "alive", "vars", "round_vars")
    assert hr.SelfInfo._fields == ("id", "role", "alive", "camp")
    assert hr.PublicPlayerInfo._fields == ("id", "alive", "role")


def test_three_player_faces_are_unrelated_types() -> None:
    faces = (hr.PlayerInfo, hr.SelfInfo, hr.PublicPlayerInfo)
    for a in faces:
        for b in faces:
            if a is not b:
                assert not issubclass(a, b)


def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _walk_types(tp: Any, path: str, seen: set[Any]) -> Iterator[tuple[str, Any]]:
    """Every (path, type) reachable from ``tp`` through NamedTuple fields and containers."""
    yield path, tp
    origin = typing.get_origin(tp)
    if origin is not None:
        for arg in typing.get_args(tp):
            if arg is not Ellipsis:
                yield from _walk_types(arg, path + "[]", seen)
        return
    if isinstance(tp, type) and hasattr(tp, "_fields") and tp not in seen:
        seen.add(tp)
        for name, sub in _hints(tp).items():
            yield from _walk_types(sub, f"{path}.{name}", seen)


def _is_mapping_type(tp: Any) -> bool:
    origin = typing.get_origin(tp) or tp
    return isinstance(origin, type) and issubclass(origin, Mapping)


@pytest.mark.pure_only
def test_player_view_type_graph_has_no_free_form_mapping_but_role_info() -> None:
    mappings = [p for p, tp in _walk_types(hr.PlayerView, "view", set()) if _is_mapping_type(tp)]
    assert mappings == ["view.role_info"]
    assert _hints(hr.PlayerView)["role_info"] == Mapping[str, str]


@pytest.mark.pure_only
def test_player_view_has_exactly_the_documented_fields() -> None:
    assert hr.PlayerView._fields == (
        "player_id",
        "round",
        "phase",
        "self",
        "players",
        "allowed_skills",
        "teammates",
        "role_info",
        "turn",
        "targets",
    )
    hints = _hints(hr.PlayerView)
    assert hints["self"] is hr.SelfInfo
    assert hints["players"] == tuple[hr.PublicPlayerInfo, ...]


def _values(obj: object, path: str = "view") -> Iterator[tuple[str, object]]:
    yield path, obj
    if isinstance(obj, Mapping):
        for k, v in obj.items():
            yield from _values(k, f"{path}.key")
            yield from _values(v, f"{path}[{k}]")
    elif isinstance(obj, tuple):
        names = getattr(obj, "_fields", None)
        for i, v in enumerate(obj):
            yield from _values(v, f"{path}.{names[i]}" if names else f"{path}[{i}]")


def test_player_view_values_hold_no_mapping_but_role_info_and_no_hidden_var() -> None:
    engine = started_mini()
    engine.submit("s1", CHECK, ["w1"])
    engine.submit("w1", KILL, ["v1"])
    engine.end_phase()
    for pid in engine.player_ids():
        view = engine.player_view(pid)
        found = list(_values(view))
        assert [p for p, v in found if isinstance(v, Mapping)] == ["view.role_info"]
        strings = {v for _, v in found if isinstance(v, str)}
        # Role-setup secrets and the seer's round marker never reach any player's view.
        assert not strings & {"s-" + q for q, _ in ROSTER}
        assert "checked" not in strings


# ---------------------------------------------------------------- roles revealed


def _roles_seen(engine: hr.Engine, viewer: str) -> dict[str, str]:
    return {p.id: p.role for p in engine.player_view(viewer).players if p.role}


def test_roles_are_revealed_only_for_self_and_teammates() -> None:
    engine = started_mini()
    assert _roles_seen(engine, "w1") == {"w1": WOLF, "w2": WOLF}
    assert _roles_seen(engine, "v1") == {"v1": VILLAGER}
    assert _roles_seen(engine, "s1") == {"s1": SEER}
    view = engine.player_view("v1")
    assert [p.id for p in view.players] == sorted(engine.player_ids())
    assert view.self == hr.SelfInfo("v1", VILLAGER, True, TOWN)
    assert view.teammates == ()
    assert engine.player_view("w2").teammates == ("w1",)


def test_dead_players_roles_are_not_revealed() -> None:
    engine = started_mini()
    engine.submit("w1", KILL, ["s1"])
    engine.end_phase()
    for pid in engine.alive_player_ids():
        entry = next(p for p in engine.player_view(pid).players if p.id == "s1")
        assert entry == hr.PublicPlayerInfo("s1", False, "")
    me = engine.player_view("s1")
    assert me.self == hr.SelfInfo("s1", SEER, False, TOWN)


def test_dead_teammate_is_still_a_teammate() -> None:
    engine = started_mini()
    engine.end_phase()  # a quiet night
    for pid in engine.alive_player_ids():
        engine.submit(pid, VOTE, ["w2"])
    engine.end_phase()
    assert not engine.player_info("w2").alive
    assert _roles_seen(engine, "w1") == {"w1": WOLF, "w2": WOLF}


def test_asymmetric_teammates_reveal_one_way_only() -> None:
    def teammates(pid: str, view: hr.GameView) -> tuple[str, ...]:
        return ("w1", "ghost", pid) if pid == "s1" else ()

    engine = started_mini(mini_rules(teammates=teammates))
    assert _roles_seen(engine, "s1") == {"s1": SEER, "w1": WOLF}
    assert engine.player_view("s1").teammates == ("w1",)
    assert _roles_seen(engine, "w1") == {"w1": WOLF}


def test_teammates_follow_the_board_and_are_asked_once_per_board() -> None:
    """The kernel keeps each seat's teammates until the board changes: a change of the
    board that changes the provider's answer reaches the view, phase info and ``teammates``."""
    asked: list[str] = []

    def by_camp(pid: str, view: hr.GameView) -> tuple[str, ...]:
        asked.append(pid)
        me = view.player(pid)
        camp = me.vars.get(hr.VAR_CAMP) if me is not None else None
        return tuple(p.id for p in view.all_players() if p.vars.get(hr.VAR_CAMP) == camp == WOLF)

    engine = started_mini(mini_rules(teammates=by_camp))
    assert engine.teammates("v1") == ()
    assert engine.player_view("v1").teammates == ()
    assert asked.count("v1") == 1
    engine.apply(hr.set_var(hr.GAME.of("v1"), hr.VAR_CAMP, WOLF))
    assert engine.player_view("v1").teammates == ("w1", "w2")
    assert engine.teammates("w1") == ("v1", "w2")
    assert engine.player_view("w1").teammates == ("v1", "w2")
    info = engine.phase_info()
    assert all(r.teammates.get("w1", ("v1", "w2")) == ("v1", "w2") for r in info.roles.values())
    assert asked.count("v1") == 2


def test_without_teammate_provider_only_self_is_revealed() -> None:
    engine = started_mini(mini_rules(teammates=None))
    for pid, role in ROSTER:
        assert _roles_seen(engine, pid) == {pid: role}


# ---------------------------------------------------------------- role info and camp


def test_role_info_comes_only_from_the_roles_own_provider() -> None:
    asked: list[tuple[str, str]] = []

    def seer_info(pid: str, view: hr.GameView) -> dict[str, str]:
        asked.append(("seer", pid))
        return {"saw": view.var(hr.GAME.of(pid), "saw_w1")}

    def villager_info(pid: str, view: hr.GameView) -> dict[str, str]:
        asked.append(("villager", pid))
        return {}

    engine = started_mini(mini_rules(role_info={SEER: seer_info, VILLAGER: villager_info}))
    engine.submit("s1", CHECK, ["w1"])
    engine.end_phase()
    asked.clear()
    assert dict(engine.player_view("s1").role_info) == {"saw": WOLF}
    assert asked == [("seer", "s1")]
    asked.clear()
    assert dict(engine.player_view("v2").role_info) == {}
    assert asked == [("villager", "v2")]
    asked.clear()
    assert dict(engine.player_view("w1").role_info) == {}
    assert asked == []


def test_role_info_follows_the_board_and_is_asked_once_per_board() -> None:
    asked: list[str] = []

    def seer_info(pid: str, view: hr.GameView) -> dict[str, str]:
        asked.append(pid)
        return {"saw": view.var(hr.GAME.of(pid), "saw_w1")}

    engine = started_mini(mini_rules(role_info={SEER: seer_info}))
    assert dict(engine.player_view("s1").role_info) == {"saw": ""}
    engine.phase_info()
    assert asked == ["s1"]
    engine.apply(hr.set_var(hr.GAME.of("s1"), "saw_w1", WOLF))
    assert [dict(r.role_info["s1"]) for r in engine.phase_info().roles.values() if "s1" in r.role_info] == [
        {"saw": WOLF}
    ]
    assert dict(engine.player_view("s1").role_info) == {"saw": WOLF}
    assert asked == ["s1", "s1"]


def test_role_info_is_read_only() -> None:
    engine = started_mini()
    info = engine.player_view("s1").role_info
    with pytest.raises(TypeError):
        info["x"] = "y"  # type: ignore[index]


def test_camp_comes_from_var_camp_only() -> None:
    rules = counter_rules(role_setup={"ANY": lambda pid, role: {"side": "S", "Camp": "C"}})
    engine = counter_game(2, rules)
    assert engine.player_view("p0").self.camp == ""
    engine.apply(
        hr.set_var(hr.ROUND.of("p0"), hr.VAR_CAMP, "round-camp"),
        hr.set_var(hr.GAME, hr.VAR_CAMP, "game-camp"),
        hr.set_var(hr.ROUND, hr.VAR_CAMP, "round-unowned"),
        hr.set_var(hr.GAME.of("p1"), hr.VAR_CAMP, "other-player"),
    )
    assert engine.player_view("p0").self.camp == ""
    engine.apply(hr.set_var(hr.GAME.of("p0"), hr.VAR_CAMP, "mine"))
    assert engine.player_view("p0").self.camp == "mine"
    assert engine.player_view("p1").self.camp == "other-player"
    assert hr.VAR_CAMP == "camp"


# ---------------------------------------------------------------- audience


def _everyone(event: hr.Event, view: hr.GameView) -> tuple[str, ...]:
    return view.player_ids()


def test_audience_without_provider_is_unknown() -> None:
    engine = started_mini(mini_rules(audience=None))
    assert engine.audience_of(hr.Event("KILLED")) is None
    assert engine.audience_of(hr.Event(hr.GAME_STARTED)) is None


@pytest.mark.parametrize(
    ("answer", "expected"),
    [(None, None), ((), ()), ([], ()), (("v2", "v1", "v2"), ("v1", "v2"))],
)
def test_audience_is_tri_state(answer: Any, expected: Any) -> None:
    engine = started_mini(mini_rules(audience=lambda e, v: answer))
    got = engine.audience_of(hr.Event("RULE"))
    assert got == expected
    if expected is not None:
        assert isinstance(got, tuple)


@pytest.mark.parametrize("etype", sorted(hr.INTERNAL_EVENTS))
@pytest.mark.parametrize("form", ["event", "effect", "cancelled"])
def test_kernel_primitives_are_shown_to_nobody_whatever_the_rules_say(etype: str, form: str) -> None:
    asked: list[str] = []

    def audience(event: hr.Event, view: hr.GameView) -> tuple[str, ...]:
        asked.append(event.type)
        return view.player_ids()

    engine = started_mini(mini_rules(audience=audience))
    effect = hr.Effect(etype, source="w1", target="v1")
    forms: dict[str, hr.Event | hr.Effect] = {
        "event": effect.to_event(),
        "effect": effect,
        "cancelled": effect.cancel("why"),
    }
    arg = forms[form]
    assert engine.audience_of(arg) == ()
    assert asked == []


def test_only_game_started_and_ended_are_public_kernel_events() -> None:
    assert frozenset({hr.GAME_STARTED, hr.GAME_ENDED}) == hr.KERNEL_EVENTS - hr.INTERNAL_EVENTS
    assert {
        hr.SET_ALIVE,
        hr.SET_VAR,
        hr.SET_ACTORS,
        hr.DETOUR,
        hr.GOTO_PHASE,
        hr.PLAYER_ADDED,
        hr.PHASE_CHANGED,
    } <= hr.INTERNAL_EVENTS


@pytest.mark.parametrize("etype", [hr.GAME_STARTED, hr.GAME_ENDED, "KILLED"])
def test_public_kernel_events_and_rule_events_are_routed_by_the_rules(etype: str) -> None:
    engine = started_mini(mini_rules(audience=lambda e, v: ("s1",) if e.type == etype else ()))
    assert engine.audience_of(hr.Event(etype)) == ("s1",)


def test_primitives_never_reach_event_handlers() -> None:
    engine = mini_game(mini_rules(audience=_everyone))
    events: list[hr.Event] = []
    engine.on_event(events.append)
    engine.start()
    engine.submit("w1", KILL, ["h1"])
    engine.end_phase()
    engine.submit("h1", "SHOT", ["w2"])
    engine.end_phase()
    engine.apply(hr.set_alive("v1", False), hr.Effect("HOST_NOTE"))
    types = {e.type for e in events}
    assert types == {hr.GAME_STARTED, "KILLED", "SHOT_DOWN", "HOST_NOTE"}
    assert not types & hr.INTERNAL_EVENTS


# ---------------------------------------------------------------- speech


def test_without_speech_rule_every_living_player_hears() -> None:
    engine = started_mini()
    engine.submit("w1", KILL, ["v1"])
    engine.end_phase()
    living = engine.alive_player_ids()
    assert "v1" not in living
    assert engine.message_receivers("w1") == living
    got: list[tuple[hr.Message, tuple[str, ...]]] = []
    engine.on_message(lambda m, r: got.append((m, r)))
    msg = engine.send_message("s1", "hello")
    assert got == [(msg, living)]
    assert msg == hr.Message("s1", "hello", "DAY", 1)


def test_without_speech_rule_a_dead_sender_gets_player_dead() -> None:
    engine = started_mini()
    engine.submit("w1", KILL, ["v1"])
    engine.end_phase()
    got: list[object] = []
    engine.on_message(lambda m, r: got.append(m))
    with pytest.raises(hr.PlayerDead):
        engine.message_receivers("v1")
    with pytest.raises(hr.PlayerDead):
        engine.send_message("v1", "from beyond")
    assert got == []


@pytest.mark.parametrize("call", ["message_receivers", "send_message"])
def test_unknown_sender_is_player_not_found(call: str) -> None:
    engine = started_mini()
    args = ("ghost",) if call == "message_receivers" else ("ghost", "hi")
    with pytest.raises(hr.PlayerNotFound):
        getattr(engine, call)(*args)


def test_speech_provider_decides_who_hears_including_the_dead() -> None:
    def speech(sender: str, view: hr.GameView) -> tuple[str, ...]:
        if sender == "v1":
            return ("v1", "s1", "ghost")
        return ()

    engine = started_mini(mini_rules(speech=speech))
    engine.submit("w1", KILL, ["v1"])
    engine.end_phase()
    assert engine.message_receivers("v1") == ("s1", "v1")
    got: list[tuple[str, tuple[str, ...]]] = []
    engine.on_message(lambda m, r: got.append((m.sender, r)))
    engine.send_message("v1", "the dead may speak when the rules say so")
    assert got == [("v1", ("s1", "v1"))]
    assert engine.message_receivers("w1") == ()


@pytest.mark.parametrize("how", ["as is", "reversed", "twice", "with the dead", "as a list"])
def test_speech_answers_are_seated_sorted_and_unique(how: str) -> None:
    """The answer "every living player" is taken as it is only when it is exactly that tuple."""

    def speech(sender: str, view: hr.GameView) -> Any:
        alive = tuple(p.id for p in view.alive_players())
        everyone = view.player_ids()
        return {
            "as is": alive,
            "reversed": alive[::-1],
            "twice": alive + alive,
            "with the dead": (*everyone[::-1], "ghost"),
            "as a list": list(alive),
        }[how]

    engine = started_mini(mini_rules(speech=speech))
    engine.submit("w1", KILL, ["v1"])
    engine.end_phase()
    living = engine.alive_player_ids()
    expected = tuple(sorted(engine.player_ids())) if how == "with the dead" else living
    assert engine.message_receivers("w1") == expected
    got: list[tuple[str, ...]] = []
    engine.on_message(lambda m, r: got.append(r))
    engine.send_message("w1", "hi")
    assert got == [expected]


@pytest.mark.parametrize("answer", [(), None, ("ghost",)])
def test_message_not_allowed_when_nobody_hears(answer: Any) -> None:
    engine = started_mini(mini_rules(speech=lambda s, v: answer))
    got: list[object] = []
    engine.on_message(lambda m, r: got.append(m))
    assert engine.message_receivers("w1") == ()
    with pytest.raises(hr.MessageNotAllowed):
        engine.send_message("w1", "anyone?")
    assert got == []


def test_messages_are_not_logged_and_change_nothing() -> None:
    engine = started_mini()
    events: list[hr.Event] = []
    engine.on_event(events.append)
    before = snap_bytes(engine)
    for pid in engine.alive_player_ids():
        engine.send_message(pid, "chatter from " + pid)
    assert snap_bytes(engine) == before
    assert b"chatter" not in engine.log().to_json()
    assert events == []
