"""Item 3: one ``Rules`` value bundles the config with every extension point.

Extension points may be plain functions or objects with the named method; interceptors
are appended in order; the rules' name and version are validated and recorded, and a
game is never resumed under other rules.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable
from typing import Any

import pytest

import hiddenrole as hr
from hiddenrole.compiled import compiled

from .small_games import (
    CHECK,
    DAY,
    KILL,
    KILLED,
    NIGHT,
    SHOOT,
    SHOT,
    VOTE,
    WOLF,
    counter_game,
    counter_rules,
    mini_config,
    mini_game,
    mini_rules,
    resolve_day,
    resolve_night,
    resolve_shoot,
    snap_bytes,
    started_mini,
)

# ---------------------------------------------------------------- helpers


def note_night(effect: hr.Effect, view: hr.GameView) -> list[hr.Effect] | None:
    """Interceptor with a visible trace: rewrites the round's night marker."""
    if effect.type == hr.SET_VAR and effect.key == "night":
        return [effect._replace(value="noted-" + effect.value), hr.Effect("NOTED")]
    return None


def speech(sender: str, view: hr.GameView) -> tuple[str, ...]:
    p = view.player(sender)
    if p is not None and p.role == WOLF:
        return view.alive_player_ids_by_role(WOLF)
    return tuple(q.id for q in view.alive_players())


# Extension point field -> the method an object must offer instead of being a function.
METHOD = {
    "resolvers": "resolve",
    "victory": "check_victory",
    "role_setup": "setup",
    "game_setup": "setup",
    "role_info": "role_info",
    "audience": "audience",
    "teammates": "teammates",
    "speech": "receivers",
    "interceptors": "intercept",
}


def as_object(fn: Callable[..., Any], method: str) -> object:
    """An object that is not callable itself and offers ``fn`` as ``method``."""
    cls = type("Ext_" + method, (), {method: staticmethod(fn)})
    return cls()


def objectify(rules: hr.Rules, field: str) -> hr.Rules:
    """``rules`` with the functions of ``field`` wrapped into objects."""
    method = METHOD[field]
    value = getattr(rules, field)
    if field in ("resolvers", "role_setup", "role_info"):
        new: Any = {k: as_object(v, method) for k, v in value.items()}
    elif field == "interceptors":
        new = tuple(as_object(v, method) for v in value)
    else:
        new = as_object(value, method)
    return dataclasses.replace(rules, **{field: new})


def transcript(rules: hr.Rules) -> list[object]:
    """Play a scripted game touching every extension point; record everything observable."""
    engine = mini_game(rules)
    events: list[hr.Event] = []
    engine.on_event(events.append)
    engine.start()
    out: list[object] = []
    engine.submit("w1", KILL, ["h1"])
    engine.submit("s1", CHECK, ["w2"])
    out.append(engine.end_phase())
    engine.submit("h1", SHOT, ["v1"])
    out.append(engine.end_phase())
    for pid in engine.alive_player_ids():
        engine.submit(pid, VOTE, ["w1"])
    out.append(engine.end_phase())
    out += [engine.player_view(pid) for pid in engine.player_ids()]
    out += [engine.audience_of(e) for e in events]
    out += [engine.message_receivers(pid) for pid in engine.alive_player_ids()]
    out.append(engine.phase_info())
    out.append(events)
    out.append(snap_bytes(engine))
    return out


def full_rules() -> hr.Rules:
    return mini_rules(speech=speech, interceptors=(note_night,))


# ---------------------------------------------------------------- bundling


def test_rules_bundles_config_and_every_extension_point() -> None:
    called: set[str] = set()

    def spy(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(*args: Any) -> Any:
            called.add(name)
            return fn(*args)

        return wrapper

    base = full_rules()
    rules = dataclasses.replace(
        base,
        resolvers={k: spy("resolver:" + k, v) for k, v in base.resolvers.items()},  # type: ignore[arg-type]
        victory=spy("victory", base.victory),  # type: ignore[arg-type]
        role_setup={k: spy("role_setup", v) for k, v in base.role_setup.items()},  # type: ignore[arg-type]
        game_setup=spy("game_setup", base.game_setup),  # type: ignore[arg-type]
        role_info={k: spy("role_info", v) for k, v in base.role_info.items()},  # type: ignore[arg-type]
        audience=spy("audience", base.audience),  # type: ignore[arg-type]
        teammates=spy("teammates", base.teammates),  # type: ignore[arg-type]
        speech=spy("speech", base.speech),  # type: ignore[arg-type]
        interceptors=tuple(spy("interceptor", i) for i in base.interceptors),  # type: ignore[arg-type]
    )
    assert rules.config == mini_config()
    transcript(rules)
    assert called == {
        "resolver:" + NIGHT,
        "resolver:" + DAY,
        "resolver:" + SHOOT,
        "victory",
        "role_setup",
        "game_setup",
        "role_info",
        "audience",
        "teammates",
        "speech",
        "interceptor",
    }


@pytest.mark.parametrize("field", sorted(METHOD))
def test_objects_with_the_named_method_behave_like_plain_functions(field: str) -> None:
    plain = full_rules()
    assert transcript(objectify(plain, field)) == transcript(plain)


def test_object_method_is_preferred_over_calling_the_object() -> None:
    class Both:
        def __call__(self, uses: object, view: object) -> list[hr.Effect]:
            raise AssertionError("the object itself must not be called")

        def resolve(self, uses: object, view: object) -> list[hr.Effect]:
            return [hr.set_var(hr.GAME, "by", "method")]

    engine = counter_game(rules=counter_rules(resolvers={"LOOP": Both()}))
    engine.end_phase()
    assert engine.var(hr.GAME, "by") == "method"


@pytest.mark.parametrize("field", sorted(set(METHOD) - {"interceptors"}))
def test_object_without_the_named_method_is_refused(field: str) -> None:
    wrong = type("Wrong", (), {"something_else": staticmethod(lambda *a: None)})()
    value: Any = wrong
    if field in ("resolvers", "role_setup", "role_info"):
        value = {k: wrong for k in getattr(full_rules(), field)}
    rules = dataclasses.replace(full_rules(), **{field: value})
    with pytest.raises(hr.InvalidConfig):
        hr.Engine(rules)


def test_interceptor_without_intercept_method_is_refused_at_construction() -> None:
    with pytest.raises(hr.InvalidConfig):
        mini_rules(interceptors=(object(),))
    with pytest.raises(hr.InvalidConfig):
        mini_rules().with_interceptors(42)  # type: ignore[arg-type]


def test_rules_config_must_be_a_config_and_is_validated() -> None:
    with pytest.raises(hr.InvalidConfig):
        hr.Rules("config", name="x")  # type: ignore[arg-type]
    bad = hr.Config(start_phase="NOWHERE", phases=dict(mini_config().phases))
    with pytest.raises(hr.InvalidPhase):
        hr.Rules(bad, name="x", resolvers={NIGHT: resolve_night, DAY: resolve_day, SHOOT: resolve_shoot})


def test_a_config_is_validated_once_and_a_refused_one_every_time() -> None:
    """The verdict is kept with the frozen Config (one Rules per deal validates it once); a refusal never is."""
    from hiddenrole import rules as rules_module

    cfg = mini_config()
    first = hr.Rules(cfg, name="x", resolvers=mini_rules().resolvers)
    assert rules_module._VALID_CONFIGS[id(cfg)][1] is True
    assert hr.Rules(cfg, name="y", resolvers=first.resolvers).config is cfg
    bad = hr.Config(start_phase="NOWHERE", phases=dict(cfg.phases))
    for _ in range(2):
        with pytest.raises(hr.InvalidPhase):
            hr.Rules(bad, name="x", resolvers=first.resolvers)
    assert id(bad) not in rules_module._VALID_CONFIGS


def test_every_leaf_phase_needs_a_resolver() -> None:
    rules = mini_rules(resolvers={NIGHT: resolve_night, DAY: resolve_day})
    with pytest.raises(hr.InvalidPhase):
        hr.Engine(rules)


@pytest.mark.parametrize("field", ["resolvers", "role_setup", "role_info", "interceptors"])
def test_malformed_extension_collections_are_refused(field: str) -> None:
    bad: Any = 42 if field != "interceptors" else "not-a-sequence"
    with pytest.raises(hr.InvalidConfig):
        mini_rules(**{field: bad})
    if field != "interceptors":
        with pytest.raises(hr.InvalidConfig):
            mini_rules(**{field: {NIGHT: None}})


def test_rules_copy_their_mappings() -> None:
    """Mutating the dict passed in afterwards cannot change the rules (or a running game)."""
    resolvers: dict[str, Any] = {NIGHT: resolve_night, DAY: resolve_day, SHOOT: resolve_shoot}
    rules = mini_rules(resolvers=resolvers)
    resolvers[NIGHT] = lambda uses, view: [hr.set_var(hr.GAME, "hijacked", "1")]
    engine = mini_game(rules)
    engine.start()
    engine.end_phase()
    assert engine.var(hr.GAME, "hijacked") == ""
    with pytest.raises(TypeError):
        rules.resolvers[NIGHT] = resolve_day  # type: ignore[index]
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.name = "other"  # type: ignore[misc]


# ---------------------------------------------------------------- interceptors


def _tagger(tag: str, seen: list[str]) -> Callable[[hr.Effect, hr.GameView], None]:
    def intercept(effect: hr.Effect, view: hr.GameView) -> None:
        if effect.type == "PING":
            seen.append(tag)

    return intercept


def test_with_interceptors_appends_in_order_and_leaves_the_original_alone() -> None:
    seen: list[str] = []
    a, b, c = (_tagger(t, seen) for t in "abc")
    base = counter_rules(interceptors=(a,))
    more = base.with_interceptors(b).with_interceptors(c)
    assert more.interceptors == (a, b, c)
    assert base.interceptors == (a,)
    engine = counter_game(rules=more)
    engine.apply(hr.Effect("PING"))
    assert seen == ["a", "b", "c"]
    seen.clear()
    counter_game(rules=base).apply(hr.Effect("PING"))
    assert seen == ["a"]


def _laying(value: str) -> Callable[[hr.GameView], list[hr.Effect]]:
    def setup(view: hr.GameView) -> list[hr.Effect]:
        return [hr.set_var(hr.GAME, "laid", value)]

    return setup


def test_with_game_setup_runs_its_own_setup_and_equals_the_value_built_afresh() -> None:
    base = mini_rules()
    engine = started_mini(base)  # the base compiled first: its copies derive their compiled form from it
    assert engine.var(hr.GAME, "laid") == ""
    first = base.with_game_setup(_laying("one"))
    second = first.with_game_setup(_laying("two"))  # a copy of a copy: derived from the base too
    kept = compiled(base)  # a copy's compiled form is the base's, but for the game setup
    for copy in (first, second):
        assert (
            compiled(copy) is not kept and compiled(copy).bound is kept.bound and compiled(copy).tables is kept.tables
        )
    assert started_mini(first).var(hr.GAME, "laid") == "one"
    assert started_mini(second).var(hr.GAME, "laid") == "two"
    assert started_mini(base).var(hr.GAME, "laid") == ""
    assert first == dataclasses.replace(base, game_setup=first.game_setup)
    assert first.game_setup is not base.game_setup and first.resolvers is base.resolvers
    bare = base.with_game_setup(None)
    assert started_mini(bare).var(hr.GAME, "laid") == ""
    # Everything but the setup is the base's: its phases, resolvers and victory play the same game.
    for rules in (base, first):
        g = play_until_hunter_detour_under(rules)
        assert g.status().phase == SHOOT


def play_until_hunter_detour_under(rules: hr.Rules) -> hr.Engine:
    engine = started_mini(rules)
    engine.submit("w1", KILL, ["h1"])
    engine.end_phase()
    return engine


def test_with_game_setup_refuses_a_setup_that_cannot_run() -> None:
    with pytest.raises(hr.InvalidConfig):
        mini_rules().with_game_setup(object())  # type: ignore[arg-type]


def test_with_game_setup_refuses_rules_no_engine_could_run() -> None:
    # The copy's compiled form is made with it, from the original's: what an engine would refuse.
    broken = mini_rules(resolvers={})
    with pytest.raises(hr.InvalidPhase):
        hr.Engine(broken)
    with pytest.raises(hr.InvalidPhase):
        broken.with_game_setup(_laying("x"))


def test_interceptors_given_as_a_list_keep_their_order() -> None:
    seen: list[str] = []
    order = [_tagger(t, seen) for t in "zyx"]
    rules = counter_rules(interceptors=order)
    assert isinstance(rules.interceptors, tuple)
    counter_game(rules=rules).apply(hr.Effect("PING"))
    assert seen == ["z", "y", "x"]


# ---------------------------------------------------------------- name and version


@pytest.mark.parametrize("name", ["werewolf", "one-night", "v1.2_x", "0x"])
def test_good_rules_names_are_accepted(name: str) -> None:
    assert hr.Rules(mini_config(), name=name, resolvers=mini_rules().resolvers).name == name


@pytest.mark.parametrize(
    "name",
    [
        "",
        "Werewolf",
        "were wolf",
        "-werewolf",
        ".hidden",
        "wolf/x",
        "wölf",
        5,
        None,
        "werewolf\n",
    ],
)
def test_bad_rules_names_are_refused(name: object) -> None:
    with pytest.raises(hr.InvalidConfig):
        hr.Rules(mini_config(), name=name, resolvers=mini_rules().resolvers)  # type: ignore[arg-type]


@pytest.mark.parametrize("version", ["", 1, None, 1.0])
def test_bad_rules_versions_are_refused(version: object) -> None:
    with pytest.raises(hr.InvalidConfig):
        mini_rules(version=version)


def test_rules_name_is_required_and_version_defaults_to_1() -> None:
    with pytest.raises(TypeError):
        hr.Rules(mini_config())  # type: ignore[call-arg]
    rules = hr.Rules(mini_config(), name="mini", resolvers=mini_rules().resolvers)
    assert rules.version == "1"
    assert rules.key == ("mini", "1")


def test_snapshots_and_logs_record_rules_name_and_version() -> None:
    engine = started_mini(mini_rules(version="2.5"))
    snap = engine.snapshot()
    assert (snap.rules_name, snap.rules_version) == ("mini", "2.5")
    assert (engine.log().rules_name, engine.log().rules_version) == ("mini", "2.5")
    assert b'"rules":{"name":"mini","version":"2.5"}' in snap.to_json()


OTHER_RULES = {
    "other name": {"name": "mini2"},
    "other version": {"version": "2"},
}


@pytest.mark.parametrize("change", sorted(OTHER_RULES))
@pytest.mark.parametrize("form", ["object", "json"])
def test_restore_under_other_rules_raises_rules_mismatch(change: str, form: str) -> None:
    engine = started_mini()
    engine.submit("w1", KILL, ["v1"])
    snap: hr.Snapshot | bytes = engine.snapshot() if form == "object" else snap_bytes(engine)
    other = mini_rules(**OTHER_RULES[change])
    with pytest.raises(hr.RulesMismatch):
        hr.Engine.restore(other, snap)
    with pytest.raises(hr.RulesMismatch):
        hr.Engine.restore(other, snap, verify=False)
    assert hr.Engine.restore(mini_rules(), snap).snapshot() == engine.snapshot()


@pytest.mark.parametrize("change", sorted(OTHER_RULES))
@pytest.mark.parametrize("form", ["object", "json"])
def test_replay_under_other_rules_raises_rules_mismatch(change: str, form: str) -> None:
    engine = started_mini()
    engine.submit("w1", KILL, ["v1"])
    engine.end_phase()
    log: hr.GameLog | bytes = engine.log() if form == "object" else engine.log().to_json()
    with pytest.raises(hr.RulesMismatch):
        hr.Engine.replay(mini_rules(**OTHER_RULES[change]), log)
    assert snap_bytes(hr.Engine.replay(mini_rules(), log)) == snap_bytes(engine)


def test_unknown_version_snapshot_is_still_checked_against_the_rules() -> None:
    """The rebuild-from-log path must not skip the rules check."""
    engine = started_mini()
    raw = snap_bytes(engine).replace(b'{"version":%d,' % hr.SNAPSHOT_VERSION, b'{"version":999,', 1)
    assert raw != snap_bytes(engine)
    with pytest.raises(hr.RulesMismatch):
        hr.Engine.restore(mini_rules(version="2"), raw)
    assert hr.Engine.restore(mini_rules(), raw).status() == engine.status()


# ---------------------------------------------------------------- logger


def test_rules_logger_receives_kernel_logging(caplog: pytest.LogCaptureFixture) -> None:
    logger = logging.getLogger("tests.kernel.rules-logger")
    engine = counter_game(rules=counter_rules(logger=logger))

    def boom(event: hr.Event) -> None:
        raise RuntimeError("handler failure")

    engine.on_event(boom)
    with caplog.at_level(logging.ERROR, logger=logger.name):
        engine.apply(hr.Effect("PING"))
    assert [r.name for r in caplog.records] == [logger.name]
    assert "handler" in caplog.records[0].getMessage()


def test_mini_rules_really_resolve_the_night() -> None:
    """Sanity for the transcripts above: the scripted kill takes effect."""
    engine = started_mini()
    engine.submit("w1", KILL, ["v1"])
    assert any(e.type == KILLED for e in engine.end_phase())
