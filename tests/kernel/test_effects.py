"""Effects, scopes and the single write point.

Effects are immutable values; only five kernel primitives change a board, and they
change it through one function shared by the engine, replay and the test Board.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import hiddenrole as hr
from hiddenrole import effects, phases
from hiddenrole.effects import frozen_map, kernel_entry, vetted

from .conftest import board_of, game, phase, step
from .small_games import counter_rules

PLAYERS = {"p1": "red", "p2": "blue", "p3": "red"}


def one_phase_config() -> hr.Config:
    """A single phase that loops, for tests that only need a running engine."""
    return hr.Config(
        "MAIN",
        {
            "MAIN": phase(
                step("", "ACT"),
                next_phase="MAIN",
                on_enter=(hr.CLEAR_ROUND_VARS,),
                on_exit=(hr.ADVANCE_ROUND,),
            ),
            "OTHER": phase(next_phase="MAIN"),
        },
    )


def running() -> hr.Engine:
    engine, _ = game(one_phase_config(), PLAYERS)
    return engine


def board() -> hr.Board:
    return hr.Board(tuple(hr.seat(pid, role) for pid, role in sorted(PLAYERS.items())), phase="MAIN")


# ---------------------------------------------------------------- constructors


def test_set_alive_builds_a_targeted_primitive() -> None:
    e = hr.set_alive("p1", False)
    assert (e.type, e.target, e.alive, e.canceled) == (hr.SET_ALIVE, "p1", False, False)
    assert hr.set_alive("p1", True).alive is True


def test_set_var_targets_the_scope_owner() -> None:
    e = hr.set_var(hr.GAME.of("p2"), "k", "v")
    assert (e.type, e.target, e.scope, e.key, e.value) == (hr.SET_VAR, "p2", hr.GAME.of("p2"), "k", "v")
    assert hr.set_var(hr.ROUND, "k", "v").target == ""


def test_set_actors_stores_ids_sorted_and_unique() -> None:
    e = hr.set_actors("MAIN", "p3", "p1", "p3")
    assert (e.type, e.phase, e.actors) == (hr.SET_ACTORS, "MAIN", ("p1", "p3"))
    assert hr.set_actors("MAIN").actors == ()


class _Id(str):
    """A str subclass: set_actors keeps the sort-and-dedupe way for it."""


@pytest.mark.parametrize(
    ("ids", "want"),
    [
        (("p1", "p3"), ("p1", "p3")),  # already sorted and unique: taken as given
        (("p1", "p1", "p2"), ("p1", "p2")),  # sorted with a repeat
        (("p1", "p3", "p2"), ("p1", "p2", "p3")),  # out of order after the first pair
        (("", "p1"), ("", "p1")),  # an empty id sorts first
        (("p2", _Id("p1")), ("p1", "p2")),
    ],
)
def test_set_actors_sorts_and_dedupes_every_list(ids: tuple[str, ...], want: tuple[str, ...]) -> None:
    assert hr.set_actors("MAIN", *ids).actors == want


def test_detour_and_goto_carry_their_phase() -> None:
    d = hr.detour("p1", "OTHER")
    assert (d.type, d.source, d.phase) == (hr.DETOUR, "p1", "OTHER")
    g = hr.goto_phase("OTHER")
    assert (g.type, g.phase, g.source, g.target) == (hr.GOTO_PHASE, "OTHER", "", "")


_CARD = MappingProxyType({"card": "x"})


@pytest.mark.parametrize(
    ("built", "keywords"),
    [
        (lambda: hr.set_alive("p1", True), lambda: hr.Effect(hr.SET_ALIVE, target="p1", alive=True)),
        (
            lambda: hr.set_var(hr.ROUND.of("p2"), "k", "v"),
            lambda: hr.Effect(hr.SET_VAR, target="p2", scope=hr.ROUND.of("p2"), key="k", value="v"),
        ),
        (
            lambda: hr.set_actors("MAIN", "p3", "p1"),
            lambda: hr.Effect(hr.SET_ACTORS, phase="MAIN", actors=("p1", "p3")),
        ),
        (lambda: hr.detour("p1", "OTHER"), lambda: hr.Effect(hr.DETOUR, source="p1", phase="OTHER")),
        (lambda: hr.goto_phase("OTHER"), lambda: hr.Effect(hr.GOTO_PHASE, phase="OTHER")),
        (lambda: kernel_entry(hr.TURN_ENDED, "p1"), lambda: hr.Effect(hr.TURN_ENDED, source="p1")),
        (lambda: kernel_entry(hr.GAME_STARTED, phase="MAIN"), lambda: hr.Effect(hr.GAME_STARTED, phase="MAIN")),
        (lambda: kernel_entry(hr.GAME_ENDED, winners=("A",)), lambda: hr.Effect(hr.GAME_ENDED, winners=("A",))),
        (lambda: hr.event("A"), lambda: hr.Effect("A")),
        (lambda: hr.event("A", "p1"), lambda: hr.Effect("A", "p1")),
        (lambda: hr.event("A", "p1", "p2", _CARD), lambda: hr.Effect("A", "p1", "p2", _CARD)),
        (lambda: hr.event("A", target="p2", data=_CARD), lambda: hr.Effect("A", target="p2", data=_CARD)),
    ],
)
def test_each_primitive_is_its_keyword_form_field_for_field(built: Any, keywords: Any) -> None:
    """The constructors build their tuples by position; every other field is at its default."""
    got, want = built(), keywords()
    assert type(got) is hr.Effect
    assert got._asdict() == want._asdict()


@pytest.mark.parametrize("base", [hr.GAME, hr.ROUND])
def test_scope_of_is_its_keyword_form(base: hr.VarScope) -> None:
    """``of`` builds the scope from the tuple: the same value and type as the keyword form."""
    got = base.of("p1")
    assert type(got) is hr.VarScope
    assert got == hr.VarScope(per_round=base.per_round, owner="p1")
    assert (got.per_round, got.owner) == (base.per_round, "p1")


def test_an_event_without_data_shares_the_empty_map() -> None:
    """The kernel's fast path knows the shared empty map by identity."""
    assert hr.event("A").data is hr.Effect("A").data


def test_rule_event_is_a_plain_effect() -> None:
    e = hr.Effect("KILL", "wolf1", "p2")
    assert (e.type, e.source, e.target, dict(e.data), e.canceled, e.reason) == ("KILL", "wolf1", "p2", {}, False, "")


@pytest.mark.pure_only
@pytest.mark.parametrize(
    "build",
    [  # deliberately ill-typed calls
        lambda: hr.set_var("game", "k", "v"),  # type: ignore[arg-type]
        lambda: hr.set_var(hr.GAME, "", "v"),
        lambda: hr.set_var(hr.GAME, 1, "v"),  # type: ignore[arg-type]
        lambda: hr.set_var(hr.GAME, "k", 1),  # type: ignore[arg-type]
        lambda: hr.set_var(hr.GAME, "k", None),  # type: ignore[arg-type]
        lambda: hr.set_actors("MAIN", "p1", 2),  # type: ignore[arg-type]
        lambda: hr.Effect("X").with_data("k", 1),  # type: ignore[arg-type]
        lambda: hr.Effect("X").with_data(1, "v"),  # type: ignore[arg-type]
    ],
)
def test_constructors_reject_bad_types(build: Any) -> None:
    with pytest.raises(hr.InvalidArgument):
        build()


# ---------------------------------------------------------------- with_data, cancel, immutability


def test_with_data_returns_a_new_effect_and_chains() -> None:
    base = hr.Effect("SEEN", "p1", "p2")
    e = base.with_data("b", "2").with_data("a", "1").with_data("b", "3")
    assert dict(e.data) == {"a": "1", "b": "3"}
    assert list(e.data) == ["a", "b"]  # sorted, whatever the insertion order
    assert dict(base.data) == {}


def test_effect_data_is_read_only() -> None:
    e = hr.Effect("SEEN").with_data("a", "1")
    with pytest.raises(TypeError):
        e.data["a"] = "2"  # type: ignore[index]


@pytest.mark.parametrize(
    "data",
    [{"a": "1"}, {"b": "2", "a": "1"}, {"a": "1", "b": "2", "c": "3"}, {"a": "1", "c": "3", "b": "2"}],
    ids=["one entry", "two entries", "sorted already", "one key out of order"],
)
def test_frozen_map_is_a_sorted_read_only_copy_of_the_callers_dict(data: dict[str, str]) -> None:
    want = dict(sorted(data.items()))
    frozen = frozen_map(data)
    data["a"] = "changed"
    assert type(frozen) is MappingProxyType and frozen["a"] == "1"
    assert list(frozen.items()) == list(want.items())


@pytest.mark.parametrize(
    "data",
    [{"a": 1}, {1: "a"}, {"a": "1", "b": 2}, {"a": "1", "b": "2", 3: "c"}],
    ids=["value", "key", "later value", "later key"],
)
def test_frozen_map_refuses_a_wrongly_typed_entry(data: Any) -> None:
    with pytest.raises(hr.InvalidArgument):
        frozen_map(data)


@pytest.mark.parametrize("data", [{"b": "2", "a": "1"}, {"vote": "approve"}], ids=["out of order", "one entry"])
def test_a_constant_map_is_a_frozen_map_the_kernel_takes_as_it_is(data: dict[str, str]) -> None:
    """A constant map is a sorted read-only copy, like frozen_map's; an effect carrying one is vetted
    as it is (the same object), and a clean map that is not a constant is still vetted by reading it."""
    want = sorted(data.items())
    const = hr.constant_map(data)
    data["a"] = "changed"
    assert type(const) is MappingProxyType and list(const.items()) == want
    e = hr.event("X", data=const)
    got = vetted([e])
    assert got is not None and got[0] is e
    assert any(m is const for m in effects._CONSTANT_MAPS)  # remembered: taken without reading it
    assert effects._is_clean_map(const) and not effects._is_clean_map(MappingProxyType({"b": "2", "a": "1"}))
    assert hr.constant_map({}) is hr.Effect("X").data


def test_constant_maps_past_the_kept_ones_are_still_clean_copies() -> None:
    kept, seatable = len(effects._CONSTANT_MAPS), len(effects._SEATABLE_MAPS)
    try:
        made = [hr.constant_map({"k": f"past {i}"}) for i in range(effects.CONSTANT_MAPS_KEPT + 2)]
        assert len(effects._CONSTANT_MAPS) <= effects.CONSTANT_MAPS_KEPT
        assert all(effects._is_clean_map(m) and m["k"] == f"past {i}" for i, m in enumerate(made))
        assert not effects.is_seatable_constant(made[-1])  # not kept: a role setup's copy is frozen anew
    finally:  # leave room for the constants other tests make in this process
        del effects._CONSTANT_MAPS[kept:]
        del effects._SEATABLE_MAPS[seatable:]


def test_a_role_setup_answering_a_constant_map_is_seated_with_it_as_it_is() -> None:
    """A kept constant map with no empty value is a seat's initial variables as it is (no sorted,
    frozen copy); one with an empty value has it dropped, as from any setup; the log is the same as
    a dict setup's."""
    card = hr.constant_map({"card": "seer", "team": "village"})
    blank = hr.constant_map({"card": "seer", "note": "", "team": "village"})
    assert effects.is_seatable_constant(card) and not effects.is_seatable_constant(blank)
    assert not effects.is_seatable_constant(MappingProxyType({"card": "seer", "team": "village"}))
    setups = {"A": lambda p, r: card, "B": lambda p, r: blank, "C": lambda p, r: {"team": "village", "card": "seer"}}
    engine = hr.Engine(counter_rules(role_setup=setups))
    for pid, role in (("p0", "A"), ("p1", "B"), ("p2", "C")):
        engine.add_player(pid, role)
    infos = [engine.player_info(p) for p in ("p0", "p1", "p2")]
    assert infos[0].vars is card
    assert [list(i.vars.items()) for i in infos] == [[("card", "seer"), ("team", "village")]] * 3
    added = [e for e in engine.log().effects if e.type == hr.PLAYER_ADDED]
    assert [e.data for e in added] == [added[2].data] * 3


def test_a_seat_given_a_constant_map_again_takes_its_kept_record_and_entry(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same (id, role, kept constant map) seated in another game takes the record and
    ``PLAYER_ADDED`` entry the first one made (immutable values, equal to what seating builds); the
    same id and role with another map, or past the bound, is seated with what it was given."""
    red = hr.constant_map({"card": "kept-red"})
    blue = hr.constant_map({"card": "kept-blue"})
    answer = {"map": red}
    setups = {"KEPT": lambda p, r: answer["map"]}

    def seated(pid: str) -> tuple[hr.PlayerInfo, hr.Effect]:
        engine = hr.Engine(counter_rules(role_setup=setups))
        (info,) = engine.add_players([(pid, "KEPT")])
        (entry,) = engine.log().effects
        assert engine.player_info(pid) is info
        return info, entry

    first = seated("kept-seat")
    again = seated("kept-seat")
    assert again[0] is first[0] and again[1] is first[1]
    assert first == (
        hr.PlayerInfo("kept-seat", "KEPT", True, red, effects.EMPTY_MAP),
        effects.player_added("kept-seat", "KEPT", red),
    )
    answer["map"] = blue  # the same id and role, another map: not the kept seating
    other = seated("kept-seat")
    assert other[0].vars is blue and other[1].vars is blue
    monkeypatch.setattr(phases, "_SEATED_COUNT", phases.SEATINGS_KEPT)  # full: built, not kept
    past = seated("kept-seat-past")
    assert past[0].vars is blue and seated("kept-seat-past")[0] is not past[0]


def test_every_game_of_the_same_rules_logs_the_kept_game_started_entry() -> None:
    """``start`` keeps its ``GAME_STARTED`` entry on the start phase's row: every later game of
    these rules logs that same value, naming the start phase."""
    the_rules = counter_rules()
    entries = []
    for _ in range(3):
        engine = hr.Engine(the_rules)
        engine.add_player("p1", "red")
        engine.start()
        (started,) = [e for e in engine.log().effects if e.type == hr.GAME_STARTED]
        assert started == kernel_entry(hr.GAME_STARTED, phase=the_rules.config.start_phase)
        entries.append(started)
    assert entries[1] is entries[0] and entries[2] is entries[0]


def test_a_map_that_is_not_a_constant_is_read_even_when_its_twin_is() -> None:
    """Known by identity only: an equal map built elsewhere is read, and refused when out of order."""
    hr.constant_map({"b": "2", "a": "1"})
    twin = MappingProxyType({"b": "2", "a": "1"})
    assert vetted([hr.event("X", data=twin)]) is None  # left to coerce_effects, which freezes it anew
    out = effects.coerce_effects([hr.event("X", data=twin)], "test")
    assert out[0].data is not twin and list(out[0].data) == ["a", "b"]


def test_cancel_returns_a_vetoed_copy() -> None:
    e = hr.set_alive("p1", False)
    c = e.cancel("protected")
    assert (c.canceled, c.reason) == (True, "protected")
    assert (e.canceled, e.reason) == (False, "")
    assert c._replace(canceled=False, reason="") == e


def test_effects_are_immutable() -> None:
    e = hr.set_alive("p1", False)
    with pytest.raises(AttributeError):
        e.alive = True  # type: ignore[misc]
    assert e == hr.set_alive("p1", False)


# ---------------------------------------------------------------- inspectors


def test_sets_alive_reads_only_live_set_alive_effects() -> None:
    assert hr.set_alive("p1", False).sets_alive() is False
    assert hr.set_alive("p1", True).sets_alive() is True
    assert hr.set_alive("p1", False).cancel("no").sets_alive() is None
    assert hr.set_var(hr.GAME, "k", "v").sets_alive() is None
    assert hr.Effect("KILL", target="p1").sets_alive() is None


def test_sets_var_reads_only_live_set_var_effects() -> None:
    scope = hr.ROUND.of("p1")
    assert hr.set_var(scope, "k", "v").sets_var() == (scope, "k", "v")
    assert hr.set_var(hr.GAME, "k", "").sets_var() == (hr.GAME, "k", "")
    assert hr.set_var(scope, "k", "v").cancel("no").sets_var() is None
    assert hr.set_alive("p1", False).sets_var() is None


# ---------------------------------------------------------------- to_event


def test_to_event_keeps_header_and_copies_data() -> None:
    e = hr.Effect("SEEN", "p1", "p2").with_data("what", "wolf").cancel("blind")
    ev = e.to_event()
    assert ev == hr.Event("SEEN", "p1", "p2", ev.data, True, "blind")
    assert dict(ev.data) == {"what": "wolf"}
    # Data given as a plain dict (not through with_data) is published read-only and sorted.
    loose = hr.Effect("SEEN", data={"b": "1", "a": "2"}).to_event()
    assert list(loose.data) == ["a", "b"]
    with pytest.raises(TypeError):
        loose.data["a"] = "3"  # type: ignore[index]


@pytest.mark.parametrize(
    ("effect", "flat"),
    [
        (hr.set_alive("p1", True), {"alive": "true"}),
        (hr.set_alive("p1", False), {}),
        (hr.set_var(hr.ROUND.of("p1"), "k", "v"), {"scope": "round:p1", "var_key": "k", "value": "v"}),
        (hr.set_var(hr.GAME, "k", ""), {"scope": "game", "var_key": "k", "value": ""}),
        (hr.set_actors("MAIN", "p2", "p1"), {"phase": "MAIN", "actors": "p1,p2"}),
        (hr.detour("p1", "OTHER"), {"phase": "OTHER"}),
        (hr.goto_phase("OTHER"), {"phase": "OTHER"}),
        (hr.Effect(hr.PLAYER_ADDED, target="p1", role="red"), {"role": "red"}),
        (hr.Effect(hr.GAME_ENDED, winners=("blue", "red")), {"winners": "blue,red"}),
        (hr.Effect(hr.GAME_STARTED, phase="MAIN"), {"phase": "MAIN"}),
    ],
)
def test_to_event_flattens_the_kernel_payload(effect: hr.Effect, flat: dict[str, str]) -> None:
    ev = effect.to_event()
    assert dict(ev.data) == flat
    assert (ev.type, ev.source, ev.target) == (effect.type, effect.source, effect.target)


def test_to_event_merges_rule_data_with_the_payload() -> None:
    ev = hr.goto_phase("OTHER").with_data("why", "tie").to_event()
    assert dict(ev.data) == {"phase": "OTHER", "why": "tie"}
    assert list(ev.data) == sorted(ev.data)


# ---------------------------------------------------------------- VarScope


@pytest.mark.parametrize(
    ("scope", "text", "per_round", "owner"),
    [
        (hr.GAME, "game", False, ""),
        (hr.ROUND, "round", True, ""),
        (hr.GAME.of("p1"), "game:p1", False, "p1"),
        (hr.ROUND.of("p1"), "round:p1", True, "p1"),
    ],
)
def test_var_scope_two_by_two_table(scope: hr.VarScope, text: str, per_round: bool, owner: str) -> None:
    assert str(scope) == text
    assert hr.VarScope.parse(text) == scope
    assert (scope.per_round, scope.owner) == (per_round, owner)


def test_var_scope_of_keeps_the_lifetime_and_replaces_the_owner() -> None:
    assert hr.ROUND.of("p1").of("p2") == hr.VarScope(True, "p2")
    assert hr.GAME.of("p1").of("") == hr.GAME


@pytest.mark.pure_only
@pytest.mark.parametrize("text", ["", "forever", "game:", "Game", "round:", None, 3])
def test_var_scope_parse_rejects_other_text_with_a_typed_error(text: object) -> None:
    with pytest.raises(hr.InvalidArgument):
        hr.VarScope.parse(text)  # type: ignore[arg-type]


# ---------------------------------------------------------------- the four cells in a running game


def read_cell(engine: hr.Engine, scope: hr.VarScope, key: str) -> str:
    """Read a cell through the structure that holds it, not through ``engine.var``."""
    if scope.owner:
        p = engine.player_info(scope.owner)
        return (p.round_vars if scope.per_round else p.vars).get(key, "")
    if scope.per_round:
        return engine.round_context().vars.get(key, "")
    return engine.snapshot().vars.get(key, "")


CELLS = [hr.GAME, hr.ROUND, hr.GAME.of("p2"), hr.ROUND.of("p2")]


@pytest.mark.parametrize("scope", CELLS, ids=str)
def test_set_var_writes_exactly_one_cell(scope: hr.VarScope) -> None:
    engine = running()
    engine.apply(hr.set_var(scope, "k", "v"))
    for other in [*CELLS, hr.GAME.of("p1"), hr.ROUND.of("p3")]:
        expected = "v" if other == scope else ""
        assert engine.var(other, "k") == expected
        assert read_cell(engine, other, "k") == expected


@pytest.mark.parametrize("scope", CELLS, ids=str)
def test_empty_value_deletes_in_every_cell(scope: hr.VarScope) -> None:
    engine = running()
    engine.apply(hr.set_var(scope, "k", "v"), hr.set_var(scope, "keep", "1"))
    engine.apply(hr.set_var(scope, "k", ""))
    assert engine.var(scope, "k") == ""
    assert engine.var(scope, "keep") == "1"
    if scope.owner:
        p = engine.player_info(scope.owner)
        assert "k" not in (p.round_vars if scope.per_round else p.vars)
    elif scope.per_round:
        assert "k" not in engine.round_context().vars
    else:
        assert "k" not in engine.snapshot().vars


@pytest.mark.parametrize("scope", [hr.GAME.of("ghost"), hr.ROUND.of("ghost")], ids=str)
def test_write_to_a_missing_owner_is_ignored(scope: hr.VarScope) -> None:
    engine = running()
    before = engine.snapshot()
    engine.apply(hr.set_var(scope, "k", "v"))
    after = engine.snapshot()
    assert engine.var(scope, "k") == ""
    assert "ghost" not in engine.player_ids()
    assert (after.players, after.vars, after.round_vars) == (before.players, before.vars, before.round_vars)


def test_round_cells_are_cleared_by_the_round_reset_and_game_cells_survive() -> None:
    engine = running()
    engine.apply(*(hr.set_var(scope, "k", "v") for scope in CELLS))
    engine.end_phase()  # MAIN -> MAIN: exit advances the round, entry clears round state
    assert [engine.var(scope, "k") for scope in CELLS] == ["v", "", "v", ""]


# ---------------------------------------------------------------- inert effects


INERT = [
    hr.Effect("KILL", "p1", "p2"),
    hr.Effect("KILL", target="p2").with_data("alive", "false"),
    hr.Effect("REVIVE", target="p3"),
    hr.Effect("SET_CAMP", target="p2", scope=hr.GAME.of("p2"), key="camp", value="x"),
    hr.Effect("SET_ALIVE_LATER", target="p2", alive=False),
    hr.Effect("DETOUR_NOTICE", source="p2", phase="OTHER", actors=("p1",)),
]


@pytest.mark.parametrize("effect", INERT, ids=lambda e: e.type)
def test_non_primitive_effects_change_nothing_on_a_board(effect: hr.Effect) -> None:
    b = board()
    assert b.apply([effect]) == b


@pytest.mark.parametrize("effect", INERT, ids=lambda e: e.type)
def test_non_primitive_effects_change_nothing_in_an_engine(effect: hr.Effect) -> None:
    engine = running()
    before = board_of(engine)
    assert engine.apply(effect) == (effect,)
    assert board_of(engine) == before


@pytest.mark.parametrize(
    "effect",
    [
        hr.Effect(hr.GAME_STARTED, phase="OTHER"),
        hr.Effect(hr.GAME_ENDED, winners=("red",)),
        hr.Effect(hr.PHASE_CHANGED, phase="OTHER"),
        hr.Effect(hr.PLAYER_ADDED, target="p9", role="red"),
        hr.Effect(hr.TURN_ENDED, source="p1"),
    ],
    ids=lambda e: e.type,
)
def test_bookkeeping_effects_change_no_board(effect: hr.Effect) -> None:
    # Bookkeeping types are written by the engine itself; a board either refuses
    # them or ignores them, but never acts on them.
    b = board()
    try:
        after = b.apply([effect])
    except hr.InvalidArgument:
        return
    assert after == b


def test_a_lone_kill_kills_nobody() -> None:
    engine = running()
    engine.apply(hr.Effect("KILL", "p1", "p2"))
    assert engine.player_info("p2").alive
    engine.apply(hr.Effect("KILL", "p1", "p2"), hr.set_alive("p2", False))
    assert not engine.player_info("p2").alive


def test_goto_phase_applied_by_the_host_changes_no_state() -> None:
    engine = running()
    before = board_of(engine)
    engine.apply(hr.goto_phase("OTHER"))
    assert engine.status() == hr.Status("MAIN", 1, False, ())
    assert board_of(engine) == before


CANCELLED = [
    hr.set_alive("p1", False),
    hr.set_var(hr.GAME, "k", "v"),
    hr.set_var(hr.ROUND, "k", "v"),
    hr.set_var(hr.GAME.of("p1"), "k", "v"),
    hr.set_var(hr.ROUND.of("p1"), "k", "v"),
    hr.set_actors("MAIN", "p1"),
    hr.set_actors("MAIN"),
    hr.detour("p1", "OTHER"),
]


@pytest.mark.parametrize("effect", CANCELLED, ids=lambda e: f"{e.type}-{e.scope}")
def test_cancelled_primitives_change_nothing(effect: hr.Effect) -> None:
    engine = running()
    before = board_of(engine)
    engine.apply(effect.cancel("vetoed"))
    assert board_of(engine) == before
    b = board()
    assert b.apply([effect.cancel("vetoed")]) == b
    engine.apply(effect)  # the same effect, live, does change the board
    assert board_of(engine) != before


def test_set_alive_on_a_missing_player_is_ignored() -> None:
    engine = running()
    before = board_of(engine)
    engine.apply(hr.set_alive("ghost", False))
    assert board_of(engine) == before


def test_set_alive_can_revive() -> None:
    engine = running()
    engine.apply(hr.set_alive("p1", False))
    engine.apply(hr.set_alive("p1", True))
    assert engine.player_info("p1").alive


def test_set_actors_drops_unknown_ids() -> None:
    b = board().apply([hr.set_actors("MAIN", "ghost", "p2")])
    assert b.actors["MAIN"] == ("p2",)
    assert b.view().actors("MAIN") == ("p2",)


def test_a_hand_made_actors_effect_is_stored_sorted_and_unique() -> None:
    made = hr.Effect(hr.SET_ACTORS, phase="MAIN", actors=("p2", "p1", "p2", "ghost"))
    assert board().apply([made]).actors["MAIN"] == ("p1", "p2")
    assert board().apply([hr.Effect(hr.SET_ACTORS, phase="MAIN", actors=("p2", "p1"))]).actors["MAIN"] == ("p1", "p2")


# ---------------------------------------------------------------- Board, seat, mark


def test_seat_builds_a_player_record() -> None:
    p = hr.seat("p1", "red", False, {"camp": "reds"})
    assert (p.id, p.role, p.alive, dict(p.vars), dict(p.round_vars)) == ("p1", "red", False, {"camp": "reds"}, {})
    assert hr.seat("p1", "red").alive is True


def test_mark_sets_round_markers_to_present() -> None:
    p = hr.mark(hr.seat("p1", "red"), "protected", "checked")
    assert dict(p.round_vars) == {"checked": hr.VAR_PRESENT, "protected": hr.VAR_PRESENT}
    assert hr.VAR_PRESENT == "1"


def test_board_starts_at_round_one_and_reads_its_cells() -> None:
    b = hr.Board(
        (hr.mark(hr.seat("p1", "red", vars={"camp": "r"}), "m"),),
        round=0,
        phase="MAIN",
        vars={"g": "1"},
        round_vars={"r": "2"},
    )
    assert b.round == 1
    assert (b.var(hr.GAME, "g"), b.var(hr.ROUND, "r")) == ("1", "2")
    assert (b.var(hr.GAME.of("p1"), "camp"), b.var(hr.ROUND.of("p1"), "m")) == ("r", "1")
    assert b.player("p1") is not None and b.player("nobody") is None
    view = b.view()
    assert (view.phase, view.round, view.player_ids()) == ("MAIN", 1, ("p1",))


def test_board_apply_returns_a_new_board_and_keeps_the_old() -> None:
    b = board()
    after = b.apply([hr.set_alive("p1", False), hr.set_var(hr.GAME, "k", "v")])
    assert b.player("p1") == hr.seat("p1", "red")
    assert after.player("p1") == hr.seat("p1", "red", False)
    assert (b.var(hr.GAME, "k"), after.var(hr.GAME, "k")) == ("", "v")


def test_board_view_answers_in_phase_through_ancestry() -> None:
    view = hr.Board((), phase="GUARD", ancestry=("NIGHT",)).view()
    assert view.in_phase("GUARD") and view.in_phase("NIGHT") and not view.in_phase("DAY")


def test_board_apply_rejects_non_effects() -> None:
    with pytest.raises(hr.InvalidArgument):
        board().apply(["SET_ALIVE"])  # type: ignore[list-item]


# Random batches of effects: the Board and the engine must agree, because both
# go through the same write point.
PIDS = ["p1", "p2", "p3", "ghost"]
effect_strategy = st.one_of(
    st.builds(hr.set_alive, st.sampled_from(PIDS), st.booleans()),
    st.builds(
        hr.set_var,
        st.sampled_from([hr.GAME, hr.ROUND]).flatmap(
            lambda s: st.sampled_from([s, *(s.of(p) for p in PIDS)]),
        ),
        st.sampled_from(["a", "b"]),
        st.sampled_from(["", "x", "y"]),
    ),
    st.builds(lambda ids: hr.set_actors("MAIN", *ids), st.lists(st.sampled_from(PIDS), max_size=3)),
    st.builds(lambda t: hr.Effect("KILL", target=t), st.sampled_from(PIDS)),
)
batch_strategy = st.lists(
    st.tuples(effect_strategy, st.booleans()).map(lambda ec: ec[0].cancel("no") if ec[1] else ec[0]),
    max_size=12,
)


@settings(max_examples=60, deadline=None)
@given(batch_strategy)
def test_board_apply_and_engine_apply_share_one_write_point(batch: list[hr.Effect]) -> None:
    engine = running()
    engine.apply(*batch)
    after = board().apply(batch)
    snap = engine.snapshot()
    assert snap.players == after.players
    assert dict(snap.vars) == dict(after.vars)
    assert dict(snap.round_vars) == dict(after.round_vars)
    assert {k: tuple(v) for k, v in snap.actors.items()} == dict(after.actors)
