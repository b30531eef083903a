"""end_phase, step by step: resolution, interceptors, exits, victory, compound phases.

Exit priority is detour > last valid goto > next_phase; victory waits for detours;
the winners are stored once and never recomputed. Compound phases follow the
statechart rule, observed through the round counter and round variables.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from types import MappingProxyType

import pytest

import hiddenrole as hr

from .conftest import Script, Verdict, board_of, game, make_rules, phase, seated, state_fingerprint, step, types

DAY, NIGHT, SHOOT, EXTRA = "DAY", "NIGHT", "SHOOT", "EXTRA"
PLAYERS = {"h1": "hunter", "h2": "hunter", "v1": "villager", "v2": "villager", "w1": "wolf"}
REPLACED = "replaced by an interceptor"


def town(**kw: object) -> hr.Config:
    """DAY <-> NIGHT, plus SHOOT (a detour target) and EXTRA (a goto target)."""
    shoot_enter = kw.pop("shoot_enter", ())
    return hr.Config(
        DAY,
        {
            DAY: phase(step("", "VOTE"), next_phase=NIGHT),
            NIGHT: phase(
                step("wolf", "KILL"),
                next_phase=DAY,
                on_enter=(hr.CLEAR_ROUND_VARS,),
                on_exit=(hr.ADVANCE_ROUND,),
            ),
            SHOOT: phase(step("hunter", "SHOOT"), next_phase=NIGHT, on_enter=shoot_enter),  # type: ignore[arg-type]
            EXTRA: phase(step("", "EXTRA"), next_phase=DAY),
        },
    )


def play(verdict: Verdict | None = None, interceptors: Sequence[object] = (), **kw: object) -> tuple[hr.Engine, Script]:
    return game(town(**kw), PLAYERS, victory=verdict, interceptors=tuple(interceptors))


def phase_after(engine: hr.Engine, script: Script, *effects: hr.Effect) -> str:
    """Resolve the current phase with ``effects`` and return where the game went."""
    script.queue(engine.status().phase, *effects)
    engine.end_phase()
    return engine.status().phase


# ---------------------------------------------------------------- exit priority


def test_next_phase_is_the_default_exit() -> None:
    engine, script = play()
    assert phase_after(engine, script) == NIGHT
    assert phase_after(engine, script) == DAY


def test_goto_beats_next_phase() -> None:
    engine, script = play()
    assert phase_after(engine, script, hr.goto_phase(EXTRA)) == EXTRA


def test_last_valid_goto_wins() -> None:
    engine, script = play()
    assert phase_after(engine, script, hr.goto_phase(SHOOT), hr.goto_phase(EXTRA)) == EXTRA


@pytest.mark.parametrize("bad", ["NOWHERE", hr.START, ""])
def test_goto_to_an_unknown_phase_is_ignored(bad: str) -> None:
    engine, script = play()
    assert phase_after(engine, script, hr.goto_phase(EXTRA), hr.goto_phase(bad)) == EXTRA
    assert phase_after(engine, script, hr.goto_phase(bad)) == DAY  # EXTRA's next phase


def test_each_ignored_goto_is_reported_in_order_unless_a_detour_is_owed(caplog: pytest.LogCaptureFixture) -> None:
    engine, script = play()
    with caplog.at_level("ERROR", logger="hiddenrole"):
        gotos = (hr.goto_phase("NOWHERE"), hr.goto_phase(EXTRA), hr.goto_phase(""), hr.goto_phase("X").cancel("no"))
        assert phase_after(engine, script, *gotos) == EXTRA
        assert [r.getMessage() for r in caplog.records] == [
            "goto to unknown phase 'NOWHERE' ignored",
            "goto to unknown phase '' ignored",
        ]
        caplog.clear()
        assert phase_after(engine, script, hr.goto_phase("NOWHERE"), hr.detour("h1", SHOOT)) == SHOOT
        assert caplog.records == []


def test_cancelled_goto_is_ignored() -> None:
    engine, script = play()
    assert phase_after(engine, script, hr.goto_phase(EXTRA).cancel("no")) == NIGHT


def test_detour_beats_goto() -> None:
    engine, script = play()
    assert phase_after(engine, script, hr.goto_phase(EXTRA), hr.detour("h1", SHOOT)) == SHOOT
    assert phase_after(engine, script) == NIGHT  # SHOOT's own exit; DAY's goto is spent


def test_goto_end_ends_the_game_without_winners() -> None:
    engine, script = play()
    phase_after(engine, script, hr.goto_phase(hr.END))
    assert engine.status() == hr.Status(hr.END, 1, True, ())


# ---------------------------------------------------------------- detours


def test_detour_actor_is_named_on_entering_the_phase_not_at_enqueue() -> None:
    engine, _ = play()
    engine.apply(hr.set_alive("h1", False), hr.detour("h1", SHOOT))
    assert engine.round_context().detours == (hr.Detour("h1", SHOOT),)
    assert engine.view().actors(SHOOT) is None
    engine.end_phase()
    assert engine.status().phase == SHOOT
    assert engine.view().actors(SHOOT) == ("h1",)
    assert engine.allowed_skills("h1") == ("SHOOT",)  # dead, but named
    assert engine.allowed_skills("h2") == ()  # alive hunter, not named
    engine.submit("h1", "SHOOT", ["w1"])


def test_detour_is_popped_and_its_actors_forgotten_on_leaving() -> None:
    engine, script = play()
    phase_after(engine, script, hr.detour("h1", SHOOT))
    assert phase_after(engine, script) == NIGHT
    assert engine.round_context().detours == ()
    assert engine.view().actors(SHOOT) is None


def test_two_detours_in_one_phase_each_get_a_trip_in_order() -> None:
    engine, script = play()
    assert phase_after(engine, script, hr.detour("h2", SHOOT), hr.detour("h1", SHOOT)) == SHOOT
    assert engine.view().actors(SHOOT) == ("h2",)
    assert phase_after(engine, script) == SHOOT
    assert engine.view().actors(SHOOT) == ("h1",)
    assert engine.round_context().detours == (hr.Detour("h1", SHOOT),)
    assert phase_after(engine, script) == NIGHT
    assert [p for p, _ in script.calls] == [DAY, SHOOT, SHOOT]


def test_detours_to_different_phases_run_first_in_first_out() -> None:
    engine, script = play()
    assert phase_after(engine, script, hr.detour("h1", SHOOT), hr.detour("w1", EXTRA)) == SHOOT
    assert phase_after(engine, script) == EXTRA
    assert engine.view().actors(EXTRA) == ("w1",)
    assert phase_after(engine, script) == DAY


def test_detour_queued_during_a_detour_phase_runs_after_it() -> None:
    engine, script = play()
    phase_after(engine, script, hr.detour("h1", SHOOT))
    assert phase_after(engine, script, hr.detour("h2", SHOOT)) == SHOOT
    assert engine.view().actors(SHOOT) == ("h2",)
    assert phase_after(engine, script) == NIGHT


@pytest.mark.parametrize(
    ("bad", "why"),
    [
        (hr.detour("h1", "NOWHERE"), "unknown phase"),
        (hr.detour("h1", hr.END), "END is not a playable phase"),
        (hr.detour("h1", ""), "no phase"),
        (hr.detour("ghost", SHOOT), "unknown player"),
        (hr.detour("", SHOOT), "no player"),
    ],
    ids=lambda x: x if isinstance(x, str) else "",
)
def test_invalid_detour_is_cancelled_and_changes_nothing(bad: hr.Effect, why: str) -> None:
    engine, script = play(Verdict())
    script.queue(DAY, bad)
    out = engine.end_phase()
    assert len(out) == 1 and out[0].type == hr.DETOUR
    assert out[0].canceled and out[0].reason
    assert engine.status().phase == NIGHT
    assert engine.round_context().detours == ()
    assert engine.log().effects[-2].canceled  # the cancelled detour is what was logged


def test_detour_to_a_compound_phase_is_cancelled() -> None:
    cfg = hr.Config(
        "A",
        {
            "A": phase(next_phase="B"),
            "B": phase(next_phase=hr.END, parent="P"),
            "P": phase(),
        },
    )
    engine, script = game(cfg, {"h": "hunter"})
    script.queue("A", hr.detour("h", "P"))
    (out,) = engine.end_phase()
    assert out.canceled
    assert engine.status().phase == "B"


# ---------------------------------------------------------------- victory


def test_victory_ends_the_game_and_stores_winners() -> None:
    verdict = Verdict()
    engine, _ = play(verdict)
    verdict.result = ("wolves",)
    out = engine.end_phase()
    assert engine.status() == hr.Status(hr.END, 1, True, ("wolves",))
    assert out[-1].type == hr.GAME_ENDED and out[-1].winners == ("wolves",)


def test_victory_beats_goto() -> None:
    verdict = Verdict()
    engine, script = play(verdict)
    verdict.result = ("wolves",)
    assert phase_after(engine, script, hr.goto_phase(EXTRA)) == hr.END


def test_victory_is_deferred_while_a_detour_is_pending() -> None:
    verdict = Verdict()
    engine, script = play(verdict)
    verdict.result = ("wolves",)
    assert phase_after(engine, script, hr.set_alive("h1", False), hr.detour("h1", SHOOT)) == SHOOT
    assert not engine.status().over
    assert phase_after(engine, script) == hr.END
    assert engine.status().winners == ("wolves",)


def test_victory_waits_for_every_queued_detour() -> None:
    verdict = Verdict()
    engine, script = play(verdict)
    verdict.result = ("wolves",)
    phase_after(engine, script, hr.detour("h1", SHOOT), hr.detour("h2", SHOOT))
    assert phase_after(engine, script) == SHOOT
    assert phase_after(engine, script) == hr.END


def test_victory_is_checked_on_the_board_before_the_transition() -> None:
    seen: list[tuple[str, int, bool]] = []

    def victory(view: hr.GameView) -> Iterable[str] | None:
        seen.append((view.phase, view.round, view.player("v1").alive))  # type: ignore[union-attr]
        return None

    engine, script = game(town(), PLAYERS, victory=victory)
    seen.clear()  # start() asks once
    phase_after(engine, script)  # DAY -> NIGHT
    phase_after(engine, script, hr.set_alive("v1", False))  # NIGHT -> DAY, NIGHT's exit advances the round
    assert seen == [(DAY, 1, True), (NIGHT, 1, False)]


def test_end_transition_runs_exit_actions() -> None:
    verdict = Verdict()
    engine, script = play(verdict)
    phase_after(engine, script)  # DAY -> NIGHT
    verdict.result = ("wolves",)
    phase_after(engine, script)  # NIGHT -> END: NIGHT's exit still advances the round
    assert engine.status() == hr.Status(hr.END, 2, True, ("wolves",))


def test_multiple_winners_are_sorted_and_unique() -> None:
    verdict = Verdict()
    engine, _ = play(verdict)
    verdict.result = ["villagers", "lovers", "villagers"]
    out = engine.end_phase()
    assert engine.status().winners == ("lovers", "villagers")
    assert out[-1].winners == ("lovers", "villagers")
    assert dict(out[-1].to_event().data) == {"winners": "lovers,villagers"}


def test_empty_winners_mean_ended_with_no_winner() -> None:
    verdict = Verdict()
    engine, _ = play(verdict)
    verdict.result = ()
    out = engine.end_phase()
    assert engine.status() == hr.Status(hr.END, 1, True, ())
    assert types(out) == [hr.GAME_ENDED]


def test_next_phase_end_ends_with_no_winner() -> None:
    cfg = hr.Config("A", {"A": phase(next_phase="B"), "B": phase(next_phase=hr.END)})
    engine, script = game(cfg, {"p": "x"}, victory=Verdict())
    assert phase_after(engine, script) == "B"
    out = engine.end_phase()
    assert engine.status() == hr.Status(hr.END, 1, True, ())
    assert out[-1] == hr.Effect(hr.GAME_ENDED)


def test_running_game_reports_no_winners() -> None:
    engine, _ = play(Verdict())
    assert engine.status() == hr.Status(DAY, 1, False, ())


@pytest.mark.parametrize("bad", ["wolves", [""], [3]])
def test_bad_victory_answer_is_a_typed_error_and_changes_nothing(bad: object) -> None:
    verdict = Verdict()
    engine, script = play(verdict)
    verdict.result = bad  # type: ignore[assignment]
    engine.submit("v1", "VOTE", ["w1"])
    before = state_fingerprint(engine)
    script.queue(DAY, hr.set_alive("w1", False))
    with pytest.raises(hr.InvalidArgument):
        engine.end_phase()
    assert state_fingerprint(engine) == before


def finished_game() -> tuple[hr.Engine, Verdict]:
    verdict = Verdict()
    engine, script = play(verdict)
    verdict.result = ("wolves", "lovers")
    phase_after(engine, script, hr.set_alive("v1", False))
    assert engine.status().winners == ("lovers", "wolves")
    return engine, verdict


def test_winners_are_stored_not_recomputed_on_the_same_engine() -> None:
    engine, verdict = finished_game()
    calls = verdict.calls
    verdict.result = ("villagers",)
    assert engine.status().winners == ("lovers", "wolves")
    assert verdict.calls == calls
    with pytest.raises(hr.GameEnded):
        engine.end_phase()


@pytest.mark.parametrize("how", ["restore", "replay"])
def test_winners_survive_restore_and_replay_under_a_checker_that_disagrees(how: str) -> None:
    engine, _ = finished_game()
    other = Verdict(("villagers",))
    rules = make_rules(town(), victory=other)
    if how == "restore":
        again = hr.Engine.restore(rules, engine.snapshot().to_json())
    else:
        again = hr.Engine.replay(rules, engine.log().to_json())
    assert again.status() == hr.Status(hr.END, 1, True, ("lovers", "wolves"))
    assert other.calls == 0


# ---------------------------------------------------------------- what end_phase returns, logs and publishes


def test_end_phase_returns_every_effect_including_cancelled_ones() -> None:
    engine, script = play()
    effects = (hr.Effect("NEWS"), hr.set_alive("v1", False).cancel("saved"), hr.goto_phase(EXTRA))
    script.queue(DAY, *effects)
    assert engine.end_phase() == effects
    assert engine.player_info("v1").alive


def test_phase_change_is_logged_but_not_returned() -> None:
    engine, script = play()
    script.queue(DAY, hr.Effect("NEWS"))
    before = len(engine.log().effects)
    out = engine.end_phase()
    logged = engine.log().effects[before:]
    assert logged == (*out, hr.Effect(hr.PHASE_CHANGED, phase=NIGHT))


def test_game_end_is_returned_and_logged_last() -> None:
    verdict = Verdict()
    engine, script = play(verdict)
    verdict.result = ("wolves",)
    script.queue(DAY, hr.Effect("NEWS"))
    out = engine.end_phase()
    assert types(out) == ["NEWS", hr.GAME_ENDED]
    assert engine.log().effects[-2:] == out


def test_resolver_gets_this_phase_uses_and_they_are_cleared() -> None:
    engine, script = play()
    a = engine.submit("v1", "VOTE", ["w1"])
    b = engine.submit("v2", "VOTE", ["w1"])
    engine.end_phase()
    engine.end_phase()
    assert script.calls == [(DAY, (a, b)), (NIGHT, ())]
    assert engine.pending_uses() == ()


def event_types(events: Iterable[hr.Event]) -> list[str]:
    return [e.type for e in events]


def collect(engine: hr.Engine) -> list[hr.Event]:
    events: list[hr.Event] = []
    engine.on_event(events.append)
    return events


def test_kernel_primitives_are_never_published() -> None:
    verdict = Verdict()
    engine, script = game(town(), PLAYERS, victory=verdict, start=False)
    events = collect(engine)
    engine.start()
    assert event_types(events) == [hr.GAME_STARTED]  # no PLAYER_ADDED
    script.queue(
        DAY,
        hr.set_alive("v1", False),
        hr.set_var(hr.GAME, "k", "v"),
        hr.set_actors(SHOOT, "h1"),
        hr.detour("h1", SHOOT),
        hr.goto_phase(EXTRA),
        hr.Effect("NEWS", "w1", "v1").with_data("how", "bite"),
    )
    engine.end_phase()
    assert event_types(events) == [hr.GAME_STARTED, "NEWS"]  # no PHASE_CHANGED either
    assert events[-1] == hr.Event("NEWS", "w1", "v1", events[-1].data)
    verdict.result = ("wolves",)
    engine.end_phase()
    assert event_types(events) == [hr.GAME_STARTED, "NEWS", hr.GAME_ENDED]
    assert dict(events[-1].data) == {"winners": "wolves"}
    assert not set(event_types(events)) & hr.INTERNAL_EVENTS


def test_cancelled_rule_events_are_published_as_cancelled() -> None:
    engine, script = play()
    events = collect(engine)
    script.queue(DAY, hr.Effect("NEWS").cancel("hushed"))
    engine.end_phase()
    assert [(e.type, e.canceled, e.reason) for e in events] == [("NEWS", True, "hushed")]


# ---------------------------------------------------------------- interceptors


class Spy:
    """An interceptor that records what it was offered and may replace one type."""

    def __init__(self, name: str, seen: list[tuple[str, str]], replace: dict[str, list[hr.Effect]] | None = None):
        self.name, self.seen, self.replace = name, seen, replace or {}

    def intercept(self, effect: hr.Effect, view: hr.GameView) -> list[hr.Effect] | None:
        self.seen.append((self.name, effect.type))
        return self.replace.get(effect.type)


def test_interceptors_run_in_registration_order() -> None:
    seen: list[tuple[str, str]] = []
    engine, script = play(interceptors=[Spy("first", seen), Spy("second", seen)])
    script.queue(DAY, hr.Effect("A"), hr.Effect("B"))
    engine.end_phase()
    assert seen == [("first", "A"), ("second", "A"), ("first", "B"), ("second", "B")]


def test_with_interceptors_appends_after_existing_ones() -> None:
    seen: list[tuple[str, str]] = []
    rules = make_rules(town(), interceptors=(Spy("first", seen),)).with_interceptors(Spy("second", seen))
    engine = seated(rules, PLAYERS)
    engine.apply(hr.Effect("A"))
    assert seen == [("first", "A"), ("second", "A")]


def test_replacement_cancels_and_keeps_the_original() -> None:
    seen: list[tuple[str, str]] = []
    save = Spy("guard", seen, {hr.SET_ALIVE: [hr.Effect("SAVED", target="v1")]})
    engine, script = play(interceptors=[save])
    script.queue(DAY, hr.set_alive("v1", False))
    out = engine.end_phase()
    assert out == (hr.set_alive("v1", False).cancel(REPLACED), hr.Effect("SAVED", target="v1"))
    assert engine.player_info("v1").alive
    assert engine.log().effects[-3:-1] == out


def test_replacements_are_offered_only_to_later_interceptors() -> None:
    seen: list[tuple[str, str]] = []
    chain = [
        Spy("i0", seen),
        Spy("i1", seen, {"A": [hr.Effect("B")]}),
        Spy("i2", seen, {"B": [hr.Effect("C")]}),
        Spy("i3", seen),
    ]
    engine, script = play(interceptors=chain)
    script.queue(DAY, hr.Effect("A"))
    out = engine.end_phase()
    assert seen == [("i0", "A"), ("i1", "A"), ("i2", "B"), ("i3", "C")]
    assert [(e.type, e.canceled) for e in out] == [("A", True), ("B", True), ("C", False)]


def test_cancelled_effects_are_never_offered() -> None:
    seen: list[tuple[str, str]] = []
    engine, script = play(interceptors=[Spy("i0", seen, {"A": [hr.Effect("B")]}), Spy("i1", seen)])
    script.queue(DAY, hr.Effect("PRE").cancel("vetoed by the resolver"), hr.Effect("A"))
    out = engine.end_phase()
    assert ("i0", "PRE") not in seen and ("i1", "PRE") not in seen
    assert ("i1", "A") not in seen  # the replaced original is cancelled, so not offered on
    assert out[0] == hr.Effect("PRE").cancel("vetoed by the resolver")


def test_empty_replacement_removes_the_effect() -> None:
    engine, script = play(interceptors=[lambda e, v: [] if e.type == hr.SET_ALIVE else None])
    script.queue(DAY, hr.set_alive("v1", False))
    assert engine.end_phase() == (hr.set_alive("v1", False).cancel(REPLACED),)
    assert engine.player_info("v1").alive


def test_interceptor_veto_by_returning_a_cancelled_copy() -> None:
    def veto(e: hr.Effect, view: hr.GameView) -> list[hr.Effect] | None:
        return [e.cancel("guarded")] if e.type == hr.SET_ALIVE else None

    engine, script = play(interceptors=[veto])
    script.queue(DAY, hr.set_alive("v1", False))
    out = engine.end_phase()
    assert [(e.canceled, e.reason) for e in out] == [(True, REPLACED), (True, "guarded")]
    assert engine.player_info("v1").alive


def test_interceptor_view_reflects_earlier_effects_of_the_batch() -> None:
    seen: list[tuple[str, str, bool]] = []

    def probe(e: hr.Effect, view: hr.GameView) -> None:
        seen.append((e.type, view.var(hr.GAME, "k"), view.player("v1").alive))  # type: ignore[union-attr]
        return None

    engine, script = play(interceptors=[probe])
    script.queue(DAY, hr.set_var(hr.GAME, "k", "v"), hr.set_alive("v1", False), hr.Effect("AFTER"))
    engine.end_phase()
    assert seen == [(hr.SET_VAR, "", True), (hr.SET_ALIVE, "v", True), ("AFTER", "v", False)]


def test_interceptors_see_game_setup_and_host_effects() -> None:
    seen: list[tuple[str, str]] = []
    rules = make_rules(town(), interceptors=(Spy("i", seen),), game_setup=lambda view: [hr.Effect("SETUP")])
    engine = seated(rules, PLAYERS)
    engine.apply(hr.Effect("HOST"))
    assert seen == [("i", "SETUP"), ("i", "HOST")]


def test_replay_does_not_rerun_interceptors() -> None:
    seen: list[tuple[str, str]] = []
    save = Spy("guard", seen, {hr.SET_ALIVE: [hr.Effect("SAVED")]})
    engine, script = play(interceptors=[save])
    script.queue(DAY, hr.set_alive("v1", False), hr.set_alive("v2", False))
    engine.end_phase()
    offered = len(seen)
    again = hr.Engine.replay(engine.rules, engine.log())
    assert len(seen) == offered
    assert board_of(again) == board_of(engine)
    assert again.player_info("v1").alive


@pytest.mark.parametrize("bad", ["not effects", [hr.Effect("A"), "B"], hr.Effect("A")])
def test_interceptor_returning_garbage_is_a_typed_error(bad: object) -> None:
    engine, script = play(interceptors=[lambda e, v: bad])
    before = state_fingerprint(engine)
    script.queue(DAY, hr.Effect("A"))
    with pytest.raises(hr.InvalidArgument):
        engine.end_phase()
    assert state_fingerprint(engine) == before


# ---------------------------------------------------------------- Engine.apply


def test_apply_goes_through_interceptors_and_returns_what_took_hold() -> None:
    seen: list[tuple[str, str]] = []
    engine, _ = play(interceptors=[Spy("i", seen, {hr.SET_ALIVE: [hr.Effect("SAVED")]})])
    out = engine.apply(hr.set_alive("v1", False), hr.Effect("A"))
    assert out == (hr.set_alive("v1", False).cancel(REPLACED), hr.Effect("SAVED"), hr.Effect("A"))
    assert seen == [("i", hr.SET_ALIVE), ("i", "A")]
    assert engine.player_info("v1").alive


def test_apply_is_logged_and_published() -> None:
    engine, _ = play()
    events = collect(engine)
    before = engine.log().effects
    out = engine.apply(hr.set_alive("v1", False), hr.Effect("NEWS"))
    assert engine.log().effects == (*before, *out)
    assert event_types(events) == ["NEWS"]


def test_apply_changes_no_phase_and_checks_no_victory() -> None:
    verdict = Verdict()
    engine, _ = play(verdict)
    verdict.result = ("wolves",)
    engine.apply(hr.goto_phase(EXTRA), hr.set_alive("v1", False), hr.set_alive("v2", False))
    assert engine.status() == hr.Status(DAY, 1, False, ())
    engine.end_phase()
    assert engine.status().over


def test_apply_is_replayable_mid_phase_and_shapes_the_next_phase() -> None:
    engine, _ = play()
    engine.apply(hr.set_var(hr.GAME, "k", "v"), hr.detour("h1", SHOOT))
    again = hr.Engine.replay(engine.rules, engine.log().to_json())
    assert board_of(again) == board_of(engine)
    engine.end_phase()
    assert engine.status().phase == SHOOT
    again = hr.Engine.replay(engine.rules, engine.log().to_json())
    assert board_of(again) == board_of(engine)


def test_apply_of_nothing_does_nothing() -> None:
    engine, _ = play()
    before = state_fingerprint(engine)
    assert engine.apply() == ()
    assert state_fingerprint(engine) == before


@pytest.mark.parametrize(
    "bookkeeping",
    [
        hr.Effect(hr.GAME_ENDED, winners=("wolves",)),
        hr.Effect(hr.PHASE_CHANGED, phase=EXTRA),
        hr.Effect(hr.GAME_STARTED, phase=DAY),
        hr.Effect(hr.PLAYER_ADDED, target="zz", role="wolf"),
        hr.Effect(hr.TURN_ENDED, source="v1"),
        hr.Effect(hr.TURN_DELAYED, source="v1"),
    ],
    ids=lambda e: e.type,
)
def test_apply_of_a_bookkeeping_effect_is_refused_or_replays_identically(bookkeeping: hr.Effect) -> None:
    engine, _ = play()
    try:
        engine.apply(bookkeeping)
    except hr.InvalidArgument:
        return
    again = hr.Engine.replay(engine.rules, engine.log())
    assert board_of(again) == board_of(engine)


@pytest.mark.parametrize("kind", [hr.GAME_ENDED, hr.PHASE_CHANGED, hr.GAME_STARTED, hr.PLAYER_ADDED])
def test_resolver_may_not_emit_bookkeeping_effects(kind: str) -> None:
    engine, script = play()
    before = state_fingerprint(engine)
    script.queue(DAY, hr.set_alive("v1", False), hr.Effect(kind, phase=EXTRA, target="v1", role="wolf"))
    with pytest.raises(hr.InvalidArgument):
        engine.end_phase()
    assert state_fingerprint(engine) == before


# ---------------------------------------------------------------- failures change nothing


class Boom(Exception):
    pass


def test_raising_resolver_leaves_state_log_and_pending_unchanged() -> None:
    script = Script()
    calls = {"n": 0}

    def flaky(uses: Sequence[hr.SkillUse], view: hr.GameView) -> list[hr.Effect]:
        calls["n"] += 1
        if calls["n"] == 1:
            raise Boom
        return [hr.set_alive("w1", False)]

    events: list[hr.Event] = []
    engine = seated(make_rules(town(), script, resolvers={DAY: flaky}), PLAYERS)
    engine.on_event(events.append)
    engine.submit("v1", "VOTE", ["w1"])
    before = state_fingerprint(engine)
    with pytest.raises(Boom):
        engine.end_phase()
    assert state_fingerprint(engine) == before
    assert events == []
    engine.end_phase()  # the engine is still usable, the pending use still there
    assert engine.status().phase == NIGHT
    assert not engine.player_info("w1").alive


def test_raising_interceptor_midway_leaves_everything_unchanged() -> None:
    def bomb(e: hr.Effect, view: hr.GameView) -> None:
        if e.type == "BOOM":
            raise Boom
        return None

    engine, script = play(interceptors=[bomb])
    engine.submit("v1", "VOTE", ["w1"])
    before = state_fingerprint(engine)
    script.queue(
        DAY, hr.set_alive("w1", False), hr.set_var(hr.GAME, "k", "v"), hr.detour("h1", SHOOT), hr.Effect("BOOM")
    )
    with pytest.raises(Boom):
        engine.end_phase()
    assert state_fingerprint(engine) == before
    with pytest.raises(Boom):
        engine.apply(hr.set_alive("v2", False), hr.Effect("BOOM"))
    assert state_fingerprint(engine) == before


def test_raising_victory_checker_leaves_everything_unchanged() -> None:
    armed = {"on": False}

    def victory(view: hr.GameView) -> None:
        if armed["on"]:
            raise Boom
        return None

    engine, script = game(town(), PLAYERS, victory=victory)
    engine.submit("v1", "VOTE", ["w1"])
    before = state_fingerprint(engine)
    armed["on"] = True
    script.queue(DAY, hr.set_alive("w1", False))
    with pytest.raises(Boom):
        engine.end_phase()
    assert state_fingerprint(engine) == before


def test_resolver_returning_garbage_is_a_typed_error_and_changes_nothing() -> None:
    engine, script = play()
    before = state_fingerprint(engine)
    script.queued[DAY] = [hr.set_alive("w1", False), "KILL"]  # type: ignore[list-item]
    with pytest.raises(hr.InvalidArgument, match=f"resolver for {DAY} returned str"):
        engine.end_phase()  # the resolver named by its phase, though the fast check names nobody
    assert state_fingerprint(engine) == before


def test_resolver_returning_a_badly_typed_effect_is_named_in_the_error() -> None:
    # The fast check of a resolver's list names nobody: a field it refuses must still reach the
    # caller as the resolver's error, not as an unnamed one.
    engine, script = play()
    before = state_fingerprint(engine)
    script.queued[DAY] = [hr.event("NEWS")._replace(source=3)]  # type: ignore[arg-type]
    with pytest.raises(
        hr.InvalidArgument, match=f"^INVALID_ARGUMENT: resolver for {DAY} returned an effect whose source"
    ):
        engine.end_phase()
    assert state_fingerprint(engine) == before


def test_a_resolvers_list_is_checked_and_frozen_like_any_other_input() -> None:
    # The write path takes a resolver's list as it is when every entry passes the check unchanged;
    # a None to drop or a payload to freeze anywhere in it takes the copying path, for the whole list.
    engine, script = play()
    loose = hr.Effect("NEWS", data=MappingProxyType({"b": "2", "a": "1"}))  # read-only, but not sorted
    actors = hr.Effect(hr.SET_ACTORS, phase=NIGHT, actors=["w1"])  # type: ignore[arg-type]
    for given in ([hr.Effect("FIRST"), loose, actors], [hr.Effect("FIRST"), None, loose, actors]):
        kept = list(given)
        script.queued[engine.status().phase] = given  # type: ignore[assignment]
        out = engine.end_phase()
        assert given == kept  # the resolver's list is left as it was
        assert types(out) == ["FIRST", "NEWS", hr.SET_ACTORS]
        assert list(out[1].data.items()) == [("a", "1"), ("b", "2")] and type(out[1].data) is not dict
        assert type(out[2].actors) is tuple
    for other in (tuple(kept), iter(kept)):  # any iterable, read once
        script.queued[engine.status().phase] = other  # type: ignore[assignment]
        out = engine.end_phase()
        assert types(out) == ["FIRST", "NEWS", hr.SET_ACTORS]
        assert list(out[1].data.items()) == [("a", "1"), ("b", "2")] and type(out[1].data) is not dict
        assert type(out[2].actors) is tuple
    assert hr.Engine.replay(engine.rules, engine.log().to_json()).log().to_json() == engine.log().to_json()
    shared = MappingProxyType({"vote": "yes"})  # a clean map shared by several effects is taken as it is
    script.queued[engine.status().phase] = [hr.Effect("V", data=shared), hr.Effect("V", data=shared)]
    assert engine.end_phase()[1].data is shared
    before = state_fingerprint(engine)
    for bad in ({"a": 1}, MappingProxyType({"a": 1}), None):
        script.queued[engine.status().phase] = [
            hr.Effect("V", data=shared),
            hr.Effect("V", data=shared),
            hr.Effect("NEWS", data=bad),  # type: ignore[arg-type]
        ]
        with pytest.raises(hr.InvalidArgument):
            engine.end_phase()
        assert state_fingerprint(engine) == before
        with pytest.raises(hr.InvalidArgument):
            engine.apply(hr.Effect("NEWS", data=bad))  # type: ignore[arg-type]
        assert state_fingerprint(engine) == before


def test_raising_game_setup_leaves_the_game_unstarted() -> None:
    def setup(view: hr.GameView) -> list[hr.Effect]:
        raise Boom

    engine = seated(make_rules(town(), game_setup=setup), PLAYERS, start=False)
    before = state_fingerprint(engine)
    with pytest.raises(Boom):
        engine.start()
    assert state_fingerprint(engine) == before
    assert engine.status() == hr.Status(hr.START, 0, False, ())


# ---------------------------------------------------------------- round bookkeeping around detours


def test_the_round_boundary_is_held_while_a_detour_is_pending() -> None:
    engine, script = play(shoot_enter=(hr.CLEAR_ROUND_VARS,))
    phase_after(engine, script)  # DAY -> NIGHT
    marks = (hr.set_var(hr.ROUND, "k", "v"), hr.set_var(hr.ROUND.of("v1"), "m", "1"))
    assert phase_after(engine, script, *marks, hr.detour("h1", SHOOT)) == SHOOT
    # NIGHT's exit advance and SHOOT's entry clear are both held: same round, same state ...
    assert engine.status().round == 1
    assert (engine.var(hr.ROUND, "k"), engine.var(hr.ROUND.of("v1"), "m")) == ("v", "1")
    # ... so the detour that brought us here survived to name its actor.
    assert engine.view().actors(SHOOT) == ("h1",)
    assert phase_after(engine, script) == NIGHT  # drained: the boundary lands once, with NIGHT's own clear
    assert engine.status().round == 2
    assert (engine.var(hr.ROUND, "k"), engine.var(hr.ROUND.of("v1"), "m")) == ("", "")


def test_clear_round_vars_runs_when_no_detour_is_pending() -> None:
    engine, script = play(shoot_enter=(hr.CLEAR_ROUND_VARS,))
    assert phase_after(engine, script, hr.set_var(hr.ROUND, "k", "v"), hr.goto_phase(SHOOT)) == SHOOT
    assert engine.var(hr.ROUND, "k") == ""


def test_advance_round_is_held_while_a_detour_is_pending_and_lands_once() -> None:
    engine, script = play(shoot_enter=(hr.ADVANCE_ROUND,))
    assert phase_after(engine, script, hr.detour("h1", SHOOT)) == SHOOT
    assert engine.status().round == 1
    assert phase_after(engine, script, hr.detour("h2", SHOOT)) == SHOOT
    assert engine.status().round == 1
    assert phase_after(engine, script) == NIGHT  # SHOOT entered twice, the round counted once
    assert engine.status().round == 2


def test_start_runs_no_entry_actions_of_the_start_phase() -> None:
    cfg = hr.Config("A", {"A": phase(next_phase="A", on_enter=(hr.ADVANCE_ROUND, hr.CLEAR_ROUND_VARS))})
    engine, script = game(cfg, {"p": "x"})
    assert engine.status() == hr.Status("A", 1, False, ())
    phase_after(engine, script)  # the self-loop re-enters A
    assert engine.status().round == 2


# ---------------------------------------------------------------- compound phases (statechart order)


LEAVES = ("GUARD", "WOLF", "SEER", "DAY", "VOTE")
HOOKED = ("GUARD", "WOLF", "SEER", "NIGHT", "DAY", "VOTE")


def night_config(hook_phase: str, hook: str) -> hr.Config:
    """NIGHT{GUARD, WOLF, SEER}, DAY, VOTE; only ``hook_phase``'s ``hook`` carries actions.

    Every leaf ends the game by default (no loop), so each test drives one
    transition with a goto and sees whether the hooked phase was exited/entered.
    """
    actions = (hr.ADVANCE_ROUND, hr.CLEAR_ROUND_VARS)
    phases: dict[str, hr.PhaseConfig] = {}
    for name in HOOKED:
        kw: dict[str, object] = {}
        if name == hook_phase:
            kw["on_enter" if hook == "enter" else "on_exit"] = actions
        if name in LEAVES:
            kw["next_phase"] = hr.END
        if name in ("GUARD", "WOLF", "SEER"):
            kw["parent"] = "NIGHT"
        phases[name] = phase(**kw)  # type: ignore[arg-type]
    return hr.Config("GUARD", phases)


TRANSITIONS = {
    # (from, to): (exited innermost-first, entered outermost-first)
    ("GUARD", "WOLF"): (["GUARD"], ["WOLF"]),
    ("SEER", "DAY"): (["SEER", "NIGHT"], ["DAY"]),
    ("VOTE", "GUARD"): (["VOTE"], ["NIGHT", "GUARD"]),
    ("GUARD", "GUARD"): (["GUARD"], ["GUARD"]),
    ("DAY", "VOTE"): (["DAY"], ["VOTE"]),
    ("WOLF", hr.END): (["WOLF", "NIGHT"], []),
}


def hooks_fired(src: str, dst: str, hook_phase: str, hook: str) -> bool:
    """Drive ``src -> dst`` and report whether ``hook_phase``'s ``hook`` actions ran."""
    engine, script = game(night_config(hook_phase, hook), {"p": "x"})
    if src != "GUARD":
        phase_after(engine, script, hr.goto_phase(src))
    round_before = engine.status().round
    assert engine.status().phase == src
    after = phase_after(engine, script, hr.set_var(hr.ROUND, "probe", "1"), hr.goto_phase(dst))
    assert after == dst
    advanced = engine.status().round - round_before
    cleared = engine.var(hr.ROUND, "probe") == ""
    assert advanced in (0, 1) and cleared == bool(advanced), "both actions run together or not at all"
    return bool(advanced)


@pytest.mark.parametrize("hook", ["exit", "enter"])
@pytest.mark.parametrize("hook_phase", HOOKED)
@pytest.mark.parametrize(("src", "dst"), list(TRANSITIONS), ids=lambda p: str(p))
def test_compound_transition_exits_and_enters_exactly_the_statechart_sets(
    src: str, dst: str, hook_phase: str, hook: str
) -> None:
    exits, entries = TRANSITIONS[(src, dst)]
    expected = hook_phase in (exits if hook == "exit" else entries)
    assert hooks_fired(src, dst, hook_phase, hook) == expected


def test_in_phase_follows_the_compound_ancestry() -> None:
    engine, script = game(night_config("NIGHT", "enter"), {"p": "x"})
    view = engine.view()
    assert view.in_phase("GUARD") and view.in_phase("NIGHT") and not view.in_phase("DAY")
    phase_after(engine, script, hr.goto_phase("DAY"))
    view = engine.view()
    assert view.in_phase("DAY") and not view.in_phase("NIGHT")
    phase_after(engine, script, hr.goto_phase("WOLF"))  # back into the compound phase
    for e in (engine, hr.Engine.replay(engine.rules, engine.log()), hr.Engine.restore(engine.rules, engine.snapshot())):
        view = e.view()
        assert view.in_phase("WOLF") and view.in_phase("NIGHT") and not view.in_phase("DAY")


def test_goto_a_compound_phase_is_ignored() -> None:
    engine, script = game(night_config("NIGHT", "enter"), {"p": "x"})
    assert phase_after(engine, script, hr.goto_phase("NIGHT")) == hr.END  # GUARD's next phase
