"""``Rules.victory_after``: the phases after whose end the victory can be decided.

The engine asks the victory checker when a declared phase ends and skips the call when any
other phase ends; ``None`` (the default) asks after every phase, as before. A decision is
still deferred while a detour is owed, ``start`` still asks once, replay and restore never ask
(``GAME_ENDED`` comes from the log) and a host's ``apply`` never asks. The declaration is the
rules' promise; the random-game harness checks it (tests/enginetest, invariant E).
"""

from __future__ import annotations

import dataclasses

import pytest

import hiddenrole as hr

from .conftest import Script, game, make_rules, phase
from .test_end_phase import DAY, EXTRA, NIGHT, PLAYERS, SHOOT, phase_after, town


class Spy:
    """A victory checker that records the phase of every board it is asked about."""

    def __init__(self, result: tuple[str, ...] | None = None) -> None:
        self.result = result
        self.asked: list[str] = []

    def check_victory(self, view: hr.GameView) -> tuple[str, ...] | None:
        self.asked.append(view.phase)
        return self.result


def declared(after: object) -> tuple[hr.Engine, Script, Spy]:
    spy = Spy()
    engine, script = game(town(), PLAYERS, victory=spy, victory_after=after)
    return engine, script, spy


# ---------------------------------------------------------------- the declaration


def test_victory_after_is_checked_and_kept_as_a_frozenset() -> None:
    rules = make_rules(town(), victory=Spy(), victory_after=[DAY, SHOOT, DAY])
    assert rules.victory_after == frozenset({DAY, SHOOT})
    assert type(rules.victory_after) is frozenset
    assert rules.with_game_setup(None).victory_after == rules.victory_after
    assert make_rules(town(), victory=Spy()).victory_after is None
    assert make_rules(town(), victory=Spy(), victory_after=()).victory_after == frozenset()


@pytest.mark.parametrize("bad", [DAY, b"DAY", 3, [[DAY]], [""], [3]])
def test_victory_after_that_is_not_a_collection_of_names_is_refused(bad: object) -> None:
    with pytest.raises(hr.InvalidConfig) as info:
        make_rules(town(), victory=Spy(), victory_after=bad)
    assert info.value.code == "INVALID_CONFIG"


def test_victory_after_without_a_victory_checker_is_refused() -> None:
    with pytest.raises(hr.InvalidConfig, match=r"Rules\.victory is None"):
        make_rules(town(), victory_after=frozenset({DAY}))


@pytest.mark.parametrize("bad", ["NOWHERE", hr.START, hr.END, "day"])
def test_victory_after_naming_no_phase_of_the_config_is_refused(bad: str) -> None:
    with pytest.raises(hr.InvalidPhase, match="not a phase of the config") as info:
        make_rules(town(), victory=Spy(), victory_after=frozenset({DAY, bad}))
    assert info.value.code == "INVALID_PHASE"


def test_victory_after_naming_a_compound_phase_is_refused() -> None:
    cfg = hr.Config(
        "A",
        {
            "G": phase(on_enter=(hr.CLEAR_ROUND_VARS,), on_exit=(hr.ADVANCE_ROUND,)),
            "A": phase(next_phase="B", parent="G"),
            "B": phase(next_phase="A"),
        },
    )
    with pytest.raises(hr.InvalidPhase, match="compound phase 'G'") as info:
        make_rules(cfg, victory=Spy(), victory_after=frozenset({"G"}))
    assert info.value.code == "INVALID_PHASE"
    assert make_rules(cfg, victory=Spy(), victory_after=frozenset({"A"})).victory_after == frozenset({"A"})


# ---------------------------------------------------------------- live play


def test_the_checker_is_asked_only_when_a_declared_phase_ends() -> None:
    engine, script, spy = declared(frozenset({NIGHT}))
    assert spy.asked == [hr.START]  # start asks once, declared or not
    for _ in range(4):
        phase_after(engine, script)  # DAY -> NIGHT -> DAY -> NIGHT -> DAY
    phase_after(engine, script, hr.goto_phase(EXTRA))  # DAY -> EXTRA
    phase_after(engine, script)  # EXTRA -> DAY
    assert spy.asked == [hr.START, NIGHT, NIGHT]


def test_none_asks_after_every_phase_as_before() -> None:
    engine, script, spy = declared(None)
    phase_after(engine, script)
    phase_after(engine, script)
    assert spy.asked == [hr.START, DAY, NIGHT]


def test_an_empty_declaration_asks_only_before_the_start() -> None:
    engine, script, spy = declared(frozenset())
    spy.result = ("wolves",)
    phase_after(engine, script)
    phase_after(engine, script, hr.goto_phase(hr.END))
    assert spy.asked == [hr.START]
    assert engine.status() == hr.Status(hr.END, 2, True, ())  # ended by the goto, with no winner


def test_a_declared_phase_decides_as_it_would_undeclared() -> None:
    runs = []
    for after in (None, frozenset({NIGHT})):
        engine, script, spy = declared(after)
        phase_after(engine, script)  # DAY -> NIGHT
        spy.result = ("wolves",)
        script.queue(NIGHT, hr.set_alive("v1", False))
        runs.append((engine.end_phase(), engine.status(), engine.log().effects))
    assert runs[0] == runs[1]
    assert runs[1][1] == hr.Status(hr.END, 2, True, ("wolves",))


def test_a_phase_left_out_is_not_asked_even_when_the_checker_would_decide() -> None:
    # The promise broken on purpose: the engine trusts it (the harness is what catches it).
    engine, script, spy = declared(frozenset({NIGHT}))
    spy.result = ("wolves",)
    assert phase_after(engine, script) == NIGHT  # DAY left out: the decision waits for NIGHT's end
    assert phase_after(engine, script) == hr.END
    assert engine.status().winners == ("wolves",)


def test_the_start_asks_whatever_the_declaration() -> None:
    spy = Spy(("wolves",))
    rules = make_rules(town(), victory=spy, victory_after=frozenset())
    engine = hr.Engine(rules)
    engine.add_players(sorted(PLAYERS.items()))
    with pytest.raises(hr.BoardAlreadyDecided):
        engine.start()
    assert spy.asked == [hr.START]


# ---------------------------------------------------------------- detours


def test_a_detour_defers_the_check_to_the_end_of_a_declared_detour_phase() -> None:
    engine, script, spy = declared(frozenset({DAY, SHOOT}))
    spy.asked.clear()
    spy.result = ("wolves",)
    assert phase_after(engine, script, hr.set_alive("h1", False), hr.detour("h1", SHOOT)) == SHOOT
    assert spy.asked == []  # a detour is owed: nobody asks, declared or not
    assert phase_after(engine, script) == hr.END  # SHOOT, reached by detour, is declared
    assert spy.asked == [SHOOT]
    assert engine.status().winners == ("wolves",)


def test_a_detour_phase_left_out_is_not_asked() -> None:
    # The decision DAY's death made is held while the trip is owed; SHOOT is left out, so it waits
    # for the next declared phase's end (a declaration must name the detour phases too).
    engine, script, spy = declared(frozenset({DAY}))
    spy.asked.clear()
    spy.result = ("wolves",)
    assert phase_after(engine, script, hr.set_alive("h1", False), hr.detour("h1", SHOOT)) == SHOOT
    assert phase_after(engine, script) == NIGHT  # SHOOT's next phase
    assert spy.asked == []
    assert phase_after(engine, script) == DAY
    assert phase_after(engine, script) == hr.END
    assert spy.asked == [DAY]


# ---------------------------------------------------------------- replay, restore, apply


def test_replay_and_restore_take_the_end_from_the_log_and_never_ask() -> None:
    engine, script, spy = declared(frozenset({NIGHT}))
    phase_after(engine, script)  # DAY -> NIGHT
    spy.result = ("wolves",)
    phase_after(engine, script)  # NIGHT decides
    status, log, snap = engine.status(), engine.log(), engine.snapshot()
    asked = list(spy.asked)
    for again in (
        hr.Engine.replay(engine.rules, log),
        hr.Engine.restore(engine.rules, snap, verify=True),
        hr.Engine.restore(engine.rules, snap.to_json(), verify=False),
    ):
        assert again.status() == status
        assert again.log() == log
    assert spy.asked == asked


def test_a_log_replays_under_rules_with_or_without_the_declaration() -> None:
    # The declaration changes no log (when it holds): either rules value replays the other's games.
    engine, script, spy = declared(frozenset({NIGHT}))
    phase_after(engine, script)
    spy.result = ("wolves",)
    phase_after(engine, script)
    undeclared = dataclasses.replace(engine.rules, victory_after=None)
    assert hr.Engine.replay(undeclared, engine.log()).snapshot() == engine.snapshot()


def test_a_host_apply_never_asks_and_its_decision_waits_for_a_declared_phase() -> None:
    engine, script, spy = declared(frozenset({NIGHT}))
    spy.asked.clear()
    spy.result = ("wolves",)
    engine.apply(hr.set_alive("v1", False), hr.set_alive("v2", False))
    assert spy.asked == [] and not engine.status().over  # apply checks no victory, as before
    assert phase_after(engine, script) == NIGHT  # DAY is left out
    assert phase_after(engine, script) == hr.END
    assert spy.asked == [NIGHT]


def test_rules_without_a_checker_never_ask() -> None:
    engine, script = game(town(), PLAYERS)
    assert phase_after(engine, script) == NIGHT
    assert phase_after(engine, script, hr.goto_phase(hr.END)) == hr.END
    assert engine.status().winners == ()


def test_an_undeclared_copy_of_declared_rules_asks_after_every_phase() -> None:
    spy = Spy()
    rules = make_rules(town(), victory=spy, victory_after=frozenset({NIGHT}))
    lifted = dataclasses.replace(rules, victory_after=None)
    engine = hr.Engine(lifted)
    engine.add_players(sorted(PLAYERS.items()))
    engine.start()
    engine.end_phase()
    assert spy.asked == [hr.START, DAY]
