"""Item 4: the Engine's method set, seating, starting and the read-only accessors.

Also item 13's test helpers (``Board``, ``seat``, ``mark``), which must write through
the engine's own write point.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

import pytest

import hiddenrole as hr

from .small_games import (
    CHECK,
    DAY,
    DEALT,
    HUNTER,
    KILL,
    NIGHT,
    ROSTER,
    SEER,
    SHOOT,
    TOWN,
    VILLAGER,
    WOLF,
    counter_game,
    counter_rules,
    mini_game,
    mini_rules,
    play_until_hunter_detour,
    snap_bytes,
    started_mini,
)

METHODS = (
    "add_player",
    "add_players",
    "start",
    "submit",
    "end_phase",
    "apply",
    "status",
    "view",
    "var",
    "player_info",
    "alive_player_ids",
    "round_context",
    "phase_info",
    "readiness",
    "player_view",
    "allowed_skills",
    "teammates",
    "audience_of",
    "send_message",
    "message_receivers",
    "on_event",
    "on_message",
    "snapshot",
    "log",
)


@pytest.mark.parametrize("name", METHODS)
def test_engine_offers_the_full_method_set(name: str) -> None:
    assert callable(getattr(started_mini(), name))


@pytest.mark.parametrize("name", ["restore", "replay"])
def test_restore_and_replay_are_constructors(name: str) -> None:
    engine = started_mini()
    arg = engine.snapshot() if name == "restore" else engine.log()
    again = getattr(hr.Engine, name)(mini_rules(), arg)
    assert isinstance(again, hr.Engine)
    assert snap_bytes(again) == snap_bytes(engine)


def test_engine_needs_rules() -> None:
    with pytest.raises(hr.InvalidArgument):
        hr.Engine(mini_rules().config)  # type: ignore[arg-type]


# ---------------------------------------------------------------- add_player


def test_add_player_runs_role_setup_and_drops_empty_values() -> None:
    calls: list[tuple[str, str]] = []

    def setup(pid: str, role: str) -> dict[str, str]:
        calls.append((pid, role))
        return {hr.VAR_CAMP: "C-" + role, "keep": "x", "drop": ""}

    engine = hr.Engine(mini_rules(role_setup={WOLF: setup}))
    info = engine.add_player("w1", WOLF)
    assert calls == [("w1", WOLF)]
    assert info == hr.PlayerInfo("w1", WOLF, True, {hr.VAR_CAMP: "C-WOLF", "keep": "x"})
    assert dict(engine.player_info("w1").vars) == {hr.VAR_CAMP: "C-WOLF", "keep": "x"}
    assert engine.var(hr.GAME.of("w1"), "drop") == ""


@pytest.mark.parametrize(
    "given",
    [{"a": "", "b": "x"}, {"a": "x", "b": ""}, {"b": "x", "a": ""}, {"a": "x", "b": "y"}],
    ids=["sorted, empty first", "sorted, empty last", "unsorted", "nothing to drop"],
)
def test_a_role_setups_empty_values_are_dropped_whatever_its_key_order(given: dict[str, str]) -> None:
    engine = hr.Engine(mini_rules(role_setup={WOLF: lambda pid, role: dict(given)}))
    want = {k: v for k, v in sorted(given.items()) if v}
    info = engine.add_player("w1", WOLF)
    assert list(info.vars.items()) == list(want.items())
    assert engine.log().effects[-1].vars == want


def test_add_player_without_role_setup_has_no_vars() -> None:
    engine = hr.Engine(mini_rules(role_setup={WOLF: lambda pid, role: None}))
    assert dict(engine.add_player("w1", WOLF).vars) == {}
    assert dict(engine.add_player("v1", VILLAGER).vars) == {}


def test_add_player_is_logged_with_role_and_vars_but_not_published() -> None:
    engine = hr.Engine(mini_rules())
    events: list[hr.Event] = []
    engine.on_event(events.append)
    engine.add_player("s1", SEER)
    (entry,) = engine.log().effects
    assert (entry.type, entry.target, entry.role) == (hr.PLAYER_ADDED, "s1", SEER)
    assert dict(entry.vars) == {hr.VAR_CAMP: TOWN, "secret": "s-s1"}
    assert events == []


def test_add_player_only_before_start() -> None:
    engine = started_mini()
    before = snap_bytes(engine)
    with pytest.raises(hr.GameAlreadyStarted):
        engine.add_player("x1", VILLAGER)
    assert snap_bytes(engine) == before


def test_add_player_refused_after_the_end() -> None:
    engine = counter_game(rules=counter_rules(victory=lambda v: ("X",) if v.phase == "LOOP" else None))
    engine.end_phase()
    assert engine.status().over
    with pytest.raises(hr.GameAlreadyStarted):
        engine.add_player("late", "ANY")


@pytest.mark.pure_only
@pytest.mark.parametrize("pid", ["", 42, None, b"p", ["p"]])
def test_add_player_rejects_bad_ids(pid: object) -> None:
    engine = hr.Engine(mini_rules())
    with pytest.raises(hr.InvalidPlayerID):
        engine.add_player(pid, WOLF)  # type: ignore[arg-type]
    assert engine.log().effects == ()


@pytest.mark.pure_only
@pytest.mark.parametrize("role", ["", hr.SYSTEM, 7, None])
def test_add_player_rejects_bad_roles(role: object) -> None:
    engine = hr.Engine(mini_rules())
    with pytest.raises(hr.InvalidRole):
        engine.add_player("p1", role)  # type: ignore[arg-type]
    assert engine.log().effects == ()


def test_add_player_rejects_duplicates() -> None:
    engine = hr.Engine(mini_rules())
    engine.add_player("p1", WOLF)
    with pytest.raises(hr.PlayerExists):
        engine.add_player("p1", SEER)
    assert engine.player_info("p1").role == WOLF
    assert len(engine.log().effects) == 1


def test_add_player_with_bad_setup_output_leaves_no_trace() -> None:
    engine = hr.Engine(mini_rules(role_setup={WOLF: lambda pid, role: {"k": 3}}))
    with pytest.raises(hr.GameError):
        engine.add_player("w1", WOLF)
    assert engine.player_ids() == ()
    assert engine.log().effects == ()


# ---------------------------------------------------------------- add_players


def test_add_players_seats_as_add_player_does_one_by_one() -> None:
    one = mini_game()
    many = hr.Engine(mini_rules())
    infos = many.add_players(iter(ROSTER))  # any iterable of pairs
    assert infos == tuple(one.player_info(pid) for pid, _ in ROSTER)
    assert many.log().to_json() == one.log().to_json()
    assert snap_bytes(many) == snap_bytes(one)
    one.start()
    many.start()
    assert snap_bytes(many) == snap_bytes(one)
    assert many.player_view("s1") == one.player_view("s1")


def test_add_players_forgets_answers_kept_for_the_table_before() -> None:
    engine = hr.Engine(mini_rules())
    engine.add_player("w1", WOLF)
    before = engine.player_view("w1")  # kept until the board changes
    engine.add_players([("w2", WOLF), ("v1", VILLAGER)])
    after = engine.player_view("w1")
    assert [p.id for p in before.players] == ["w1"]
    assert [p.id for p in after.players] == ["v1", "w1", "w2"]


def test_add_players_in_any_order_seats_by_id() -> None:
    engine = hr.Engine(mini_rules())
    engine.add_players(reversed(ROSTER))
    assert engine.player_ids() == tuple(sorted(pid for pid, _ in ROSTER))


def _refused_table(engine: hr.Engine, seats: object, error: type[BaseException]) -> None:
    """``add_players(seats)`` raises ``error`` and leaves the engine exactly as it was."""
    before = (engine.log().to_json(), snap_bytes(engine), engine.player_view("v1"))
    with pytest.raises(error):
        engine.add_players(seats)  # type: ignore[arg-type]
    assert (engine.log().to_json(), snap_bytes(engine), engine.player_view("v1")) == before
    assert engine.player_ids() == ("v1",)
    with pytest.raises(hr.PlayerNotFound):
        engine.allowed_skills("w1")  # nothing of the undone seats is kept for callers


def test_add_players_is_all_or_nothing() -> None:
    engine = hr.Engine(mini_rules())
    engine.add_player("v1", VILLAGER)
    _refused_table(engine, [("w1", WOLF), ("v1", SEER), ("w2", WOLF)], hr.PlayerExists)
    _refused_table(engine, [("w1", WOLF), ("w2", WOLF), ("w1", SEER)], hr.PlayerExists)  # twice in the batch
    _refused_table(engine, [("w1", WOLF), ("w2", "")], hr.InvalidRole)
    _refused_table(engine, [("w1", WOLF), "w2"], hr.InvalidArgument)

    def broken() -> Iterator[tuple[str, str]]:
        yield ("w1", WOLF)
        raise RuntimeError("the caller's iterable fails midway")

    _refused_table(engine, broken(), RuntimeError)
    engine.add_players([("w1", WOLF)])  # and the table is still open
    assert engine.player_ids() == ("v1", "w1")
    assert [e.target for e in engine.log().effects] == ["v1", "w1"]


@pytest.mark.parametrize("item", [("p1",), ("p1", WOLF, "x"), "p1", ["p1", WOLF], None])
def test_add_players_refuses_what_is_not_a_pair(item: object) -> None:
    engine = hr.Engine(mini_rules())
    with pytest.raises(hr.InvalidArgument):
        engine.add_players([item])  # type: ignore[list-item]
    assert engine.log().effects == ()


@pytest.mark.parametrize(
    ("pid", "role", "error"),
    [
        ("", WOLF, hr.InvalidPlayerID),
        (7, WOLF, hr.InvalidPlayerID),
        ("p1", hr.SYSTEM, hr.InvalidRole),
        ("p1", None, hr.InvalidRole),
    ],
)
def test_add_players_refuses_bad_seats_with_typed_errors_in_both_builds(pid: object, role: object, error: type) -> None:
    engine = hr.Engine(mini_rules())
    with pytest.raises(error):
        engine.add_players([(pid, role)])  # type: ignore[list-item]
    assert engine.log().effects == ()


def test_add_players_after_start_is_refused() -> None:
    engine = started_mini()
    with pytest.raises(hr.GameAlreadyStarted):
        engine.add_players([("x1", VILLAGER)])


# ---------------------------------------------------------------- start


def test_start_without_players_is_an_invalid_board() -> None:
    engine = hr.Engine(mini_rules())
    with pytest.raises(hr.InvalidBoard) as info:
        engine.start()
    assert not isinstance(info.value, hr.BoardAlreadyDecided)
    assert engine.status() == hr.Status(hr.START, 0, False, ())


def test_start_on_an_already_decided_board_is_refused() -> None:
    engine = mini_game(roster=[("v1", VILLAGER), ("v2", VILLAGER)])
    events: list[hr.Event] = []
    engine.on_event(events.append)
    before = snap_bytes(engine)
    with pytest.raises(hr.BoardAlreadyDecided) as info:
        engine.start()
    assert isinstance(info.value, hr.InvalidBoard)
    assert info.value.code == "INVALID_BOARD"
    assert snap_bytes(engine) == before
    assert events == []
    engine.add_player("w1", WOLF)  # still seating: the game never started
    assert engine.status().phase == hr.START


def test_start_asks_the_victory_checker_before_game_setup() -> None:
    order: list[str] = []

    def setup(view: hr.GameView) -> list[hr.Effect]:
        order.append("setup")
        return []

    def check(view: hr.GameView) -> None:
        order.append("victory")

    engine = mini_game(mini_rules(game_setup=setup, victory=check))
    engine.start()
    assert order == ["victory", "setup"]


def test_start_enters_the_start_phase_and_publishes_game_started() -> None:
    engine = mini_game()
    events: list[hr.Event] = []
    engine.on_event(events.append)
    engine.start()
    assert engine.status() == hr.Status(NIGHT, 1, False, ())
    assert [e.type for e in events] == [hr.GAME_STARTED]
    assert events[0].data["phase"] == NIGHT


def test_start_applies_and_logs_game_setup_effects_without_publishing_them() -> None:
    seen: list[tuple[str, int]] = []

    def setup(view: hr.GameView) -> list[hr.Effect]:
        seen.append((view.phase, view.round))
        return [hr.set_var(hr.GAME, "dealt", "yes"), hr.set_actors(NIGHT, "w2"), hr.Effect(DEALT)]

    engine = mini_game(mini_rules(game_setup=setup))
    events: list[hr.Event] = []
    engine.on_event(events.append)
    engine.start()
    assert seen == [(NIGHT, 1)]
    assert engine.var(hr.GAME, "dealt") == "yes"
    assert engine.allowed_skills("w1") == ()
    assert engine.allowed_skills("w2") == (KILL,)
    types = [e.type for e in engine.log().effects]
    assert types == [hr.PLAYER_ADDED] * len(ROSTER) + [hr.GAME_STARTED, hr.SET_VAR, hr.SET_ACTORS, DEALT]
    assert [e.type for e in events] == [hr.GAME_STARTED]


def test_game_setup_goes_through_interceptors() -> None:
    def veto(effect: hr.Effect, view: hr.GameView) -> list[hr.Effect] | None:
        return [hr.set_var(hr.GAME, "dealt", "intercepted")] if effect.key == "dealt" else None

    engine = started_mini(mini_rules(interceptors=(veto,)))
    assert engine.var(hr.GAME, "dealt") == "intercepted"


def test_failing_game_setup_leaves_the_engine_unstarted() -> None:
    def setup(view: hr.GameView) -> list[object]:
        return [hr.set_var(hr.GAME, "half", "done"), "not an effect"]

    engine = mini_game(mini_rules(game_setup=setup))
    before = snap_bytes(engine)
    with pytest.raises(hr.InvalidArgument):
        engine.start()
    assert snap_bytes(engine) == before
    assert engine.var(hr.GAME, "half") == ""
    engine.add_player("late", VILLAGER)


def test_start_twice_is_refused() -> None:
    engine = started_mini()
    before = snap_bytes(engine)
    with pytest.raises(hr.GameAlreadyStarted):
        engine.start()
    assert snap_bytes(engine) == before


# ---------------------------------------------------------------- status and readers


def test_status_reports_phase_round_over_and_sorted_winners() -> None:
    engine = counter_game(rules=counter_rules(victory=lambda v: ("Z", "A", "Z") if v.round >= 2 else None))
    assert engine.status() == hr.Status("LOOP", 1, False, ())
    engine.end_phase()
    assert engine.status() == hr.Status("LOOP", 2, False, ())
    engine.end_phase()
    status = engine.status()
    assert status == hr.Status(hr.END, 3, True, ("A", "Z"))
    assert status.over and isinstance(status.winners, tuple)


def test_status_past_the_kept_rounds_is_still_the_game_s_own() -> None:
    """Running statuses are shared per (phase, round) up to a bound; later rounds are built anew."""
    from hiddenrole import enginebase

    rounds = enginebase._ROUNDS_KEPT + 6
    engine = counter_game(rules=counter_rules(victory=lambda v: None))
    for r in range(1, rounds + 1):
        assert engine.status() == hr.Status("LOOP", r, False, ())
        engine.end_phase()
    assert len(enginebase._RUNNING["LOOP"]) <= enginebase._ROUNDS_KEPT
    assert len(enginebase._RUNNING) <= enginebase._STATUSES_KEPT


def test_status_of_an_ended_game_with_no_winner() -> None:
    engine = counter_game(rules=counter_rules(victory=lambda v: () if v.phase == "LOOP" else None))
    engine.end_phase()
    assert engine.status() == hr.Status(hr.END, 2, True, ())


def test_view_is_a_detached_copy() -> None:
    engine = started_mini()
    view = engine.view()
    assert isinstance(view, hr.GameView)
    engine.submit("w1", KILL, ["v1"])
    engine.end_phase()
    assert view.phase == NIGHT and view.round == 1
    assert view.player("v1") is not None and view.player("v1").alive  # type: ignore[union-attr]
    assert view.var(hr.ROUND, "night") == ""
    assert not engine.player_info("v1").alive
    fresh = engine.view()
    assert fresh.phase == DAY and not fresh.player("v1").alive  # type: ignore[union-attr]
    for name in ("apply", "submit", "seat", "set_var"):
        assert not hasattr(view, name)


def test_player_info_is_the_god_view_of_one_player() -> None:
    engine = play_until_hunter_detour()
    info = engine.player_info("s1")
    assert isinstance(info, hr.PlayerInfo)
    assert (info.id, info.role, info.alive) == ("s1", SEER, True)
    assert dict(info.vars) == {hr.VAR_CAMP: TOWN, "secret": "s-s1", "saw_w2": WOLF}
    assert dict(info.round_vars) == {"checked": "w2"}
    assert not engine.player_info("h1").alive
    with pytest.raises(TypeError):
        info.vars["x"] = "y"  # type: ignore[index]
    with pytest.raises(hr.PlayerNotFound):
        engine.player_info("ghost")


def test_alive_player_ids_are_sorted_whatever_the_seating_order() -> None:
    engine = mini_game(roster=[("z", WOLF), ("b", VILLAGER), ("m", SEER), ("a", HUNTER)])
    engine.start()
    assert engine.alive_player_ids() == ("a", "b", "m", "z")
    engine.submit("z", KILL, ["b"])
    engine.end_phase()
    assert engine.alive_player_ids() == ("a", "m", "z")


def test_round_context_is_a_copy_of_detours_and_round_vars() -> None:
    engine = play_until_hunter_detour()
    ctx = engine.round_context()
    assert ctx == hr.RoundContext((hr.Detour("h1", SHOOT),), {"night": "1"})
    assert isinstance(ctx.vars, Mapping)
    with pytest.raises(TypeError):
        ctx.vars["night"] = "9"  # type: ignore[index]
    engine.end_phase()
    assert engine.round_context().detours == ()
    assert ctx.detours == (hr.Detour("h1", SHOOT),)


def test_var_reads_all_four_cells() -> None:
    engine = play_until_hunter_detour()
    assert engine.var(hr.GAME, "dealt") == str(len(ROSTER))
    assert engine.var(hr.ROUND, "night") == "1"
    assert engine.var(hr.GAME.of("s1"), "saw_w2") == WOLF
    assert engine.var(hr.ROUND.of("s1"), "checked") == "w2"
    assert engine.var(hr.GAME, "missing") == ""
    assert engine.var(hr.GAME.of("ghost"), "x") == ""


def test_log_and_snapshot_are_values_not_live_views() -> None:
    engine = started_mini()
    log = engine.log()
    snap = engine.snapshot()
    engine.submit("w1", KILL, ["v1"])
    engine.end_phase()
    assert len(engine.log().effects) > len(log.effects)
    assert snap.phase == NIGHT and snap.pending == ()
    with pytest.raises(AttributeError):
        log.effects.append(hr.Effect("X"))  # type: ignore[attr-defined]


def test_readiness_allowed_skills_and_phase_info_agree() -> None:
    engine = started_mini()
    ready = engine.readiness()
    assert not ready.ready
    assert {a.player_id for a in ready.pending} == {"w1", "w2"}
    assert engine.allowed_skills("s1") == (CHECK,)
    info = engine.phase_info()
    assert info.roles[WOLF].player_ids == ("w1", "w2")
    assert engine.teammates("w1") == ("w2",)
    engine.submit("w2", KILL, ["v1"])
    assert engine.readiness().ready


# ---------------------------------------------------------------- item 13: test helpers


def test_seat_and_mark_build_player_records() -> None:
    p = hr.seat("p1", WOLF, False, {hr.VAR_CAMP: WOLF})
    assert p == hr.PlayerInfo("p1", WOLF, False, {hr.VAR_CAMP: WOLF})
    marked = hr.mark(p, "voted", "spoke")
    assert dict(marked.round_vars) == {"spoke": hr.VAR_PRESENT, "voted": hr.VAR_PRESENT}
    assert dict(p.round_vars) == {}
    with pytest.raises(hr.InvalidArgument):
        hr.seat("", WOLF)


def test_board_apply_uses_the_engine_write_point() -> None:
    """The same effects on a hand-made board and on a live engine give the same players and vars."""
    engine = started_mini()
    board = hr.Board(tuple(engine.view().all_players()), phase=NIGHT)
    effects = [
        hr.set_alive("v1", False),
        hr.set_var(hr.GAME, "g", "1"),
        hr.set_var(hr.ROUND.of("w1"), "r", "1"),
        hr.set_alive("v2", False).cancel("vetoed"),
        hr.Effect(KILL, target="v3"),
        hr.set_alive("ghost", False),
    ]
    engine.apply(*effects)
    after = board.apply(effects)
    assert after.players == engine.view().all_players()
    assert after.var(hr.GAME, "g") == engine.var(hr.GAME, "g") == "1"
    assert after.var(hr.ROUND.of("w1"), "r") == "1"
    assert board.player("v1").alive  # type: ignore[union-attr]
    assert after.player("v3").alive  # type: ignore[union-attr]


def test_board_view_answers_like_an_engine_view() -> None:
    board = hr.Board((hr.seat("b", WOLF), hr.seat("a", SEER, alive=False)), phase=NIGHT, ancestry=("NIGHTS",))
    view = board.view()
    assert view.round == 1
    assert view.player_ids() == ("a", "b")
    assert [p.id for p in view.alive_players()] == ["b"]
    assert view.in_phase(NIGHT) and view.in_phase("NIGHTS") and not view.in_phase(DAY)
