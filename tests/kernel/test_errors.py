"""Item 12: typed errors, and bad input never changes a game.

One class per stable code, all under ``GameError``; the documented child relations;
``error_for_code`` rebuilds a typed error from its code. A hypothesis test throws
bad input (unknown ids, wrong phase, wrong types, empty strings) at every public
Engine entry point and checks for a typed error with the state untouched.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import hiddenrole as hr

from .small_games import (
    CHECK,
    KILL,
    NIGHT,
    SHOT,
    VOTE,
    finished_mini,
    mini_game,
    mini_rules,
    play_until_hunter_detour,
    snap_bytes,
    started_mini,
)

# The seed's codes (digest §1.14) plus the ones this kernel adds.
SEED_CODES = {
    "PLAYER_NOT_FOUND": hr.PlayerNotFound,
    "PLAYER_DEAD": hr.PlayerDead,
    "TARGET_NOT_FOUND": hr.TargetNotFound,
    "TARGET_DEAD": hr.TargetDead,
    "SKILL_NOT_ALLOWED": hr.SkillNotAllowed,
    "GAME_NOT_STARTED": hr.GameNotStarted,
    "GAME_ENDED": hr.GameEnded,
    "INVALID_PHASE": hr.InvalidPhase,
    "MESSAGE_NOT_ALLOWED": hr.MessageNotAllowed,
    "PLAYER_EXISTS": hr.PlayerExists,
    "INVALID_PLAYER_ID": hr.InvalidPlayerID,
    "INVALID_ROLE": hr.InvalidRole,
    "GAME_ALREADY_STARTED": hr.GameAlreadyStarted,
    "INVALID_BOARD": hr.InvalidBoard,
    "INVALID_SNAPSHOT": hr.InvalidSnapshot,
    "INVALID_CONFIG": hr.InvalidConfig,
    "INVALID_EFFECT_LOG": hr.InvalidLog,
}
OUR_CODES = {
    "INVALID_ARGUMENT": hr.InvalidArgument,
    "RULES_MISMATCH": hr.RulesMismatch,
    "REENTRANT_CALL": hr.ReentrantCall,
    "INVALID_TARGETS": hr.InvalidTargets,
    "NOT_YOUR_TURN": hr.NotYourTurn,
    "ALREADY_SUBMITTED": hr.AlreadySubmitted,
    "TOO_MANY_SUBMISSIONS": hr.TooManySubmissions,
}
# Children that share their parent's code (the seed's two wrapped sentinels).
SAME_CODE_CHILDREN: dict[type[hr.GameError], type[hr.GameError]] = {
    hr.BoardAlreadyDecided: hr.InvalidBoard,
    hr.NilSnapshot: hr.InvalidSnapshot,
}
# Children with a code of their own: still caught by ``except SkillNotAllowed``.
OWN_CODE_CHILDREN: dict[type[hr.GameError], type[hr.GameError]] = {
    hr.InvalidTargets: hr.SkillNotAllowed,
    hr.NotYourTurn: hr.SkillNotAllowed,
    hr.AlreadySubmitted: hr.SkillNotAllowed,
    hr.TooManySubmissions: hr.SkillNotAllowed,
}


def exported_errors() -> list[type[BaseException]]:
    out: list[type[BaseException]] = []
    for name in hr.__all__:
        obj = getattr(hr, name)
        if isinstance(obj, type) and issubclass(obj, BaseException):
            out.append(obj)
    return out


def test_error_codes_are_exactly_the_seeds_plus_ours() -> None:
    assert dict(hr.ERROR_CODES) == {**SEED_CODES, **OUR_CODES}
    assert list(hr.ERROR_CODES) == sorted(hr.ERROR_CODES)


@pytest.mark.parametrize("code", sorted({**SEED_CODES, **OUR_CODES}))
def test_each_code_has_one_class_under_game_error(code: str) -> None:
    cls = hr.ERROR_CODES[code]
    assert issubclass(cls, hr.GameError) and cls is not hr.GameError
    assert cls.code == code
    owners = [c for c in exported_errors() if getattr(c, "code", None) == code and c not in SAME_CODE_CHILDREN]
    assert owners == [cls]


def test_every_exported_exception_is_a_game_error() -> None:
    errors = exported_errors()
    assert all(issubclass(c, hr.GameError) for c in errors)
    assert set(errors) == {hr.GameError, hr.Refusal, hr.RulesError, *hr.ERROR_CODES.values(), *SAME_CODE_CHILDREN}


REFUSALS = (
    hr.PlayerNotFound,
    hr.PlayerDead,
    hr.TargetNotFound,
    hr.TargetDead,
    hr.SkillNotAllowed,
    hr.InvalidTargets,
    hr.NotYourTurn,
    hr.AlreadySubmitted,
    hr.TooManySubmissions,
    hr.GameNotStarted,
    hr.GameEnded,
    hr.MessageNotAllowed,
)
RULES_ERRORS = (hr.InvalidConfig, hr.InvalidPhase, hr.ReentrantCall)


@pytest.mark.parametrize("cls", REFUSALS + RULES_ERRORS, ids=lambda c: c.__name__)
def test_a_caller_tells_a_refused_move_from_a_broken_ruleset(cls: type[hr.GameError]) -> None:
    refused = cls in REFUSALS
    assert issubclass(cls, hr.Refusal) is refused
    assert issubclass(cls, hr.RulesError) is not refused
    assert not hr.Refusal.code and not hr.RulesError.code  # groups, not codes
    assert "" not in hr.ERROR_CODES


def test_a_refused_submission_is_a_refusal() -> None:
    cfg = hr.Config("A", {"A": hr.PhaseConfig(steps=(hr.PhaseStep("", "ACT"),), next_phase=hr.END)})
    engine = hr.Engine(hr.Rules(cfg, name="refusal", resolvers={"A": lambda uses, view: []}))
    engine.add_player("a", "R")
    engine.start()
    engine.submit("a", "ACT")
    with pytest.raises(hr.Refusal):
        engine.submit("a", "ACT")
    with pytest.raises(hr.Refusal):
        engine.submit("ghost", "ACT")
    with pytest.raises(hr.RulesError):
        hr.Engine(hr.Rules(cfg, name="broken", resolvers={}))  # a phase without a resolver


@pytest.mark.parametrize("child", list(SAME_CODE_CHILDREN), ids=[c.__name__ for c in SAME_CODE_CHILDREN])
def test_same_code_children(child: type[hr.GameError]) -> None:
    parent = SAME_CODE_CHILDREN[child]
    assert issubclass(child, parent)
    assert child.code == parent.code
    assert hr.ERROR_CODES[parent.code] is parent
    with pytest.raises(parent):
        raise child("x")


@pytest.mark.parametrize("child", list(OWN_CODE_CHILDREN), ids=[c.__name__ for c in OWN_CODE_CHILDREN])
def test_own_code_children_are_caught_as_their_parent(child: type[hr.GameError]) -> None:
    parent = OWN_CODE_CHILDREN[child]
    assert issubclass(child, parent) and child.code != parent.code
    with pytest.raises(parent):
        raise child("x")


def test_unrelated_codes_are_not_subclasses_of_each_other() -> None:
    classes = list(hr.ERROR_CODES.values())
    allowed = set(OWN_CODE_CHILDREN.items())
    for a in classes:
        for b in classes:
            if a is not b and issubclass(a, b):
                assert (a, b) in allowed, f"{a.__name__} should not derive from {b.__name__}"


@pytest.mark.parametrize("code", sorted(hr.ERROR_CODES))
def test_error_for_code_rebuilds_the_typed_error(code: str) -> None:
    err = hr.error_for_code(code, "over the wire")
    assert type(err) is hr.ERROR_CODES[code]
    assert err.code == code
    assert err.message == "over the wire"
    assert str(err) == f"{code}: over the wire"


def test_error_for_unknown_code_is_a_plain_game_error() -> None:
    err = hr.error_for_code("NO_SUCH_CODE", "m")
    assert type(err) is hr.GameError
    assert err.message == "m"


def test_error_message_defaults_to_the_code() -> None:
    err = hr.PlayerDead()
    assert err.message == "PLAYER_DEAD"
    assert err.code == "PLAYER_DEAD"
    assert isinstance(err, Exception)


def test_invalid_argument_is_also_a_builtin_type_and_value_error() -> None:
    assert issubclass(hr.InvalidArgument, TypeError)
    assert issubclass(hr.InvalidArgument, ValueError)


def test_error_for_code_with_a_non_string_is_typed() -> None:
    with pytest.raises(hr.GameError):
        hr.error_for_code([])  # type: ignore[arg-type]


# ---------------------------------------------------------------- bad input leaves state unchanged

GAMES: dict[str, Callable[[], hr.Engine]] = {
    "seating": mini_game,
    "running": lambda: _pending(started_mini()),
    "detour": play_until_hunter_detour,
    "over": finished_mini,
}
VALID_SKILLS = {KILL, CHECK, VOTE, hr.SKIP, SHOT}


def _pending(engine: hr.Engine) -> hr.Engine:
    engine.submit("w1", KILL, ["v1"])
    engine.submit("s1", CHECK, ["w2"])
    return engine


# Values of the wrong type for any parameter: ints, None, lists, bytes, floats, dicts.
junk = st.one_of(
    st.integers(),
    st.none(),
    st.lists(st.integers(), max_size=2),
    st.binary(max_size=4),
    st.floats(allow_nan=False),
    st.dictionaries(st.integers(), st.integers(), max_size=2),
    st.tuples(st.integers()),
)
known_ids = {"h1", "s1", "v1", "v2", "v3", "w1", "w2"}
unknown_id = st.text(max_size=6).filter(lambda s: s not in known_ids)  # includes ""
bad_id = st.one_of(unknown_id, junk)
known_id = st.sampled_from(sorted(known_ids))
bad_skill = st.one_of(st.text(max_size=6).filter(lambda s: s not in VALID_SKILLS), junk)
bad_targets = st.one_of(
    st.integers(),
    st.lists(st.one_of(st.integers(), st.none(), st.binary(max_size=2)), min_size=1, max_size=2),
    st.lists(unknown_id.filter(bool), min_size=1, max_size=2),
)
not_a_scope = st.one_of(junk, st.text(max_size=5), st.just(("game", "")))


def calls(engine: hr.Engine) -> dict[str, st.SearchStrategy[Callable[[], Any]]]:
    """Per entry point, a strategy of bad calls (arguments bound)."""

    def bind(fn: Callable[..., Any], *strategies: st.SearchStrategy[Any]) -> st.SearchStrategy[Callable[[], Any]]:
        return st.tuples(*strategies).map(lambda args: lambda: fn(*args))

    phase = engine.status().phase
    live = phase not in (hr.START, hr.END)
    out: dict[str, st.SearchStrategy[Callable[[], Any]]] = {
        "add_player(bad id)": bind(engine.add_player, st.one_of(junk, st.just("")), st.just("VILLAGER")),
        "add_player(bad role)": bind(
            engine.add_player, st.just("new"), st.one_of(junk, st.sampled_from(["", hr.SYSTEM]))
        ),
        "add_player(existing)": bind(engine.add_player, known_id, st.just("VILLAGER")),
        "submit(bad player)": bind(engine.submit, bad_id, st.just(KILL), st.just(("v1",))),
        "submit(bad skill)": bind(engine.submit, known_id, bad_skill, st.just(())),
        "apply(junk)": st.lists(junk.filter(lambda v: v is not None), min_size=1, max_size=3).map(
            lambda vals: lambda: engine.apply(*vals)
        ),
        "apply(untyped effect)": st.just(lambda: engine.apply(hr.Effect(""))),
        "var(bad scope)": bind(engine.var, not_a_scope, st.just("k")),
        "var(bad key)": bind(engine.var, st.just(hr.GAME), junk),
        "player_info": bind(engine.player_info, bad_id),
        "allowed_skills": bind(engine.allowed_skills, bad_id),
        "teammates": bind(engine.teammates, bad_id),
        "player_view": bind(engine.player_view, bad_id),
        "message_receivers": bind(engine.message_receivers, bad_id),
        "send_message(bad sender)": bind(engine.send_message, bad_id, st.just("hi")),
        "send_message(bad content)": bind(engine.send_message, known_id, junk),
        "audience_of": bind(engine.audience_of, st.one_of(junk, st.text(max_size=5))),
        "on_event": bind(engine.on_event, junk),
        "on_message": bind(engine.on_message, junk),
    }
    if phase == hr.START:
        out["add_player(existing)"] = bind(
            engine.add_player, st.sampled_from(sorted(engine.player_ids())), st.just("VILLAGER")
        )
    if live:
        actor = engine.readiness().optional + engine.readiness().pending
        pid, skill = (actor[0].player_id, actor[0].skill) if actor else ("w1", KILL)
        out["submit(bad targets)"] = bind(engine.submit, st.just(pid), st.just(skill), bad_targets)
    else:
        # Wrong phase: submitting or ending is refused before anything else is looked at.
        out["submit(wrong phase)"] = bind(engine.submit, known_id, st.sampled_from(sorted(VALID_SKILLS)), st.just(()))
        out["end_phase(wrong phase)"] = st.just(engine.end_phase)
    if phase != hr.START:
        out["start(again)"] = st.just(engine.start)
    return out


@pytest.mark.pure_only
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), game=st.sampled_from(sorted(GAMES)))
def test_bad_input_to_any_entry_point_is_typed_and_changes_nothing(data: st.DataObject, game: str) -> None:
    engine = GAMES[game]()
    table = calls(engine)
    name = data.draw(st.sampled_from(sorted(table)), label="entry point")
    call = data.draw(table[name], label="call")
    before = (snap_bytes(engine), engine.pending_uses(), engine.log())
    events: list[object] = []
    engine.on_event(events.append)
    engine.on_message(lambda m, r: events.append(m))
    try:
        result = call()
    except hr.GameError:
        pass
    else:
        pytest.fail(f"{name} accepted bad input and returned {result!r}")
    assert (snap_bytes(engine), engine.pending_uses(), engine.log()) == before
    assert events == []


@pytest.mark.pure_only
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    snap=st.one_of(junk, st.binary(max_size=40), st.text(max_size=40)),
    log=st.one_of(junk, st.binary(max_size=40), st.text(max_size=40)),
)
def test_bad_snapshots_and_logs_are_typed(snap: Any, log: Any) -> None:
    with pytest.raises(hr.InvalidSnapshot):
        hr.Engine.restore(mini_rules(), snap)
    with pytest.raises(hr.InvalidLog):
        hr.Engine.replay(mini_rules(), log)


@settings(max_examples=50, deadline=None)
@given(rules=junk)
def test_engine_and_replay_need_rules(rules: Any) -> None:
    with pytest.raises(hr.GameError):
        hr.Engine(rules)
    with pytest.raises(hr.GameError):
        hr.Engine.replay(rules, started_mini().log())


def test_engine_start_on_empty_table_is_typed() -> None:
    engine = hr.Engine(mini_rules())
    with pytest.raises(hr.InvalidBoard):
        engine.start()
    with pytest.raises(hr.GameNotStarted):
        engine.end_phase()
    with pytest.raises(hr.GameNotStarted):
        engine.submit("x", KILL)


# ---------------------------------------------------------------- known kernel gaps (typed errors missing)


@pytest.mark.parametrize("rules", [None, 42, "mini"])
def test_restore_needs_rules(rules: Any) -> None:
    with pytest.raises(hr.GameError):
        hr.Engine.restore(rules, started_mini().snapshot())


@pytest.mark.pure_only
def test_var_with_malformed_scope_is_typed() -> None:
    with pytest.raises(hr.InvalidArgument):
        started_mini().var(hr.VarScope(False, ["x"]), "k")  # type: ignore[arg-type]


@pytest.mark.parametrize("etype", [42, None, ""])
def test_audience_of_malformed_event_is_typed(etype: Any) -> None:
    with pytest.raises(hr.InvalidArgument):
        started_mini().audience_of(hr.Event(etype))


@pytest.mark.parametrize(
    "effect",
    [
        hr.Effect("NOTE", source=1),  # type: ignore[arg-type]
        hr.set_var(hr.GAME, "k", "v")._replace(key=5),  # type: ignore[arg-type]
        hr.Effect(hr.SET_ALIVE, target="v1", alive="no"),  # type: ignore[arg-type]
        hr.Effect(hr.SET_ACTORS, phase=NIGHT, actors=(1,)),  # type: ignore[arg-type]
        hr.Effect("NOTE", canceled="yes"),  # type: ignore[arg-type]
    ],
    ids=["int-source", "int-key", "str-alive", "int-actor", "str-canceled"],
)
def test_apply_refuses_mistyped_effects(effect: hr.Effect) -> None:
    engine = started_mini()
    before = snap_bytes(engine)
    with pytest.raises(hr.InvalidArgument):
        engine.apply(effect)
    assert snap_bytes(engine) == before
