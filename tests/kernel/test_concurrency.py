"""Item 4 (concurrency): thread safety, re-entry and handler dispatch.

* Many threads may submit and read while another ends phases; only typed errors
  escape and the final state is consistent (nothing lost, nothing doubled).
* An extension point that calls back into the engine gets :class:`ReentrantCall`,
  never a deadlock (every check runs in a worker thread with a timeout).
* Event and message handlers run outside the lock and may call the engine; a raising
  handler is logged and the other handlers still run.
"""

from __future__ import annotations

import logging
import random
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest

import hiddenrole as hr

from .small_games import ACT, LOOP, counter_game, counter_rules, snap_bytes

TIMEOUT = 5.0


def run_with_timeout(fn: Callable[[], Any]) -> Any:
    """Run ``fn`` in a worker thread; a hang fails the test instead of freezing the suite."""
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["value"] = fn()
        except BaseException as exc:
            box["error"] = exc

    t = threading.Thread(target=target, daemon=True)
    t.start()
    t.join(TIMEOUT)
    assert not t.is_alive(), "deadlock: the call did not return"
    if "error" in box:
        raise box["error"]
    return box.get("value")


# ---------------------------------------------------------------- thread safety


def _slow_interceptor(effect: hr.Effect, view: hr.GameView) -> None:
    """Holds the write path open a moment per write, so an unlocked reader would see a half-applied batch."""
    if effect.type == "TICK":  # offered after the batch's SET_VAR was applied, before the log is written
        time.sleep(0.0003)


def test_threads_submit_and_read_while_another_ends_phases() -> None:
    players = 6
    rules = counter_rules(interceptors=(_slow_interceptor,))
    engine = counter_game(players, rules)
    ticks: list[hr.Event] = []
    engine.on_event(ticks.append)
    accepted = [0] * 4
    unexpected: list[BaseException] = []
    phases = 60
    stop = threading.Event()

    def submitter(n: int) -> None:
        rng = random.Random(n)
        try:
            while not stop.is_set():
                pid = rng.choice([f"p{i}" for i in range(players)] + ["ghost"])
                try:
                    engine.submit(pid, ACT, [rng.choice(["p0", "p1", "nobody"])])
                    accepted[n] += 1
                except hr.GameError:
                    pass
        except BaseException as exc:
            unexpected.append(exc)

    def reader(n: int) -> None:
        last_round = 0
        try:
            while not stop.is_set():
                status = engine.status()
                assert status.round >= last_round
                last_round = status.round
                snap = engine.snapshot()
                changes = sum(1 for e in snap.log.effects if e.type == hr.PHASE_CHANGED)
                assert snap.round == changes + 1, "snapshot board and log out of step"
                assert all(u.round == snap.round for u in snap.pending)
                # A snapshot taken at any moment is consistent, so it restores (board checked against log).
                hr.Engine.restore(rules, snap)
                engine.player_view(f"p{n}")
                engine.readiness()
                engine.allowed_skills("p1")
                engine.view().alive_players()
                engine.phase_info()
                engine.log()
        except BaseException as exc:
            unexpected.append(exc)

    def snapshotter() -> None:
        """Tight loop: every snapshot must show a board that its own log accounts for."""
        try:
            while not stop.is_set():
                snap = engine.snapshot()
                logged = [e.value for e in snap.log.effects if e.type == hr.SET_VAR and e.key == "count"]
                assert snap.vars.get("count", "") == (logged[-1] if logged else ""), "board ahead of its log"
        except BaseException as exc:
            unexpected.append(exc)

    threads = [threading.Thread(target=submitter, args=(i,)) for i in range(4)]
    threads += [threading.Thread(target=reader, args=(i,)) for i in range(2)]
    threads.append(threading.Thread(target=snapshotter))
    for t in threads:
        t.start()
    old_interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)  # interleave threads finely so races would show
    try:
        for _ in range(phases):
            deadline = time.monotonic() + 0.05
            while len(engine.pending_uses()) < 5 and time.monotonic() < deadline:
                time.sleep(0.0005)
            engine.end_phase()
    finally:
        sys.setswitchinterval(old_interval)
        stop.set()
        for t in threads:
            t.join(TIMEOUT)
    assert not any(t.is_alive() for t in threads)
    assert unexpected == []
    resolved = int(engine.var(hr.GAME, "count") or "0")
    assert resolved + len(engine.pending_uses()) == sum(accepted)
    assert resolved >= phases * 5, "submitters barely ran; the test proves little"
    assert engine.status().round == phases + 1
    assert [e.type for e in ticks] == ["TICK"] * phases
    assert sum(int(e.data["n"]) for e in ticks) == resolved
    again = hr.Engine.restore(rules, snap_bytes(engine))
    assert snap_bytes(again) == snap_bytes(engine)


def test_status_is_read_atomically() -> None:
    """Phase, round, over and winners always belong to the same moment."""
    rules = counter_rules(victory=lambda v: ("B", "A") if v.round >= 30 else None)
    engine = counter_game(2, rules)
    bad: list[hr.Status] = []
    done = threading.Event()

    def reader() -> None:
        while not done.is_set():
            s = engine.status()
            ok = (s.over == (s.phase == hr.END)) and (s.winners == (("A", "B") if s.over else ()))
            if not ok or (s.over and s.round != 31) or (not s.over and s.phase != LOOP):
                bad.append(s)

    t = threading.Thread(target=reader)
    t.start()
    try:
        while not engine.status().over:
            engine.end_phase()
    finally:
        done.set()
        t.join(TIMEOUT)
    assert bad == []


class _Name(str):
    """A str subclass: readers take their locked path for it (kept answers are keyed by plain str)."""


def test_the_hand_taken_lock_is_released_on_return_and_on_refusal() -> None:
    """The hottest calls take the lock by hand (acquire / try / finally release, not ``with``):
    a return and a typed refusal must both release it, or every other thread is locked out."""
    engine = counter_game(2)
    ended = counter_game(2, counter_rules(victory=lambda v: ("p0",) if v.var(hr.GAME, "count") else None))
    ended.end_phase()
    calls: list[tuple[hr.Engine, Callable[[], Any], type[BaseException] | None]] = [
        (engine, lambda: engine.submit("nobody", ACT), hr.PlayerNotFound),
        (engine, lambda: engine.allowed_skills(_Name("nobody")), hr.PlayerNotFound),  # skips the kept answers
        (engine, lambda: engine.player_view("nobody"), hr.PlayerNotFound),
        (engine, lambda: engine.submit("p0", ACT), None),
        (engine, engine.end_phase, None),
        (engine, engine.status, None),  # the board just changed: the locked path
        (engine, engine.alive_player_ids, None),
        (engine, lambda: engine.allowed_skills("p0"), None),
        (engine, lambda: engine.player_view("p0"), None),
        (ended, ended.end_phase, hr.GameEnded),
    ]
    for eng, call, refusal in calls:
        if refusal is None:
            call()
        else:
            with pytest.raises(refusal):
                call()
        assert run_with_timeout(eng.player_ids) == ("p0", "p1")  # another thread gets the lock


# ---------------------------------------------------------------- re-entry from extension points


def _hook(kind: str, call: Callable[[], Any], seen: list[BaseException]) -> tuple[dict[str, Any], str]:
    """Rules fields that install ``call`` in extension point ``kind``, and the op that triggers it."""

    def reenter() -> None:
        try:
            call()
        except BaseException as exc:
            seen.append(exc)

    def resolver(uses: object, view: object) -> list[hr.Effect]:
        reenter()
        return []

    def ext(*args: object) -> None:
        reenter()

    def speech(*args: object) -> tuple[str, ...]:
        reenter()
        return ("p0",)

    table: dict[str, tuple[dict[str, Any], str]] = {
        "resolver": ({"resolvers": {LOOP: resolver}}, "end_phase"),
        "victory": ({"victory": ext}, "end_phase"),
        "role_setup": ({"role_setup": {"LATE": ext}}, "add_player"),
        "game_setup": ({"game_setup": ext}, "start"),
        "role_info": ({"role_info": {"ANY": ext}}, "player_view"),
        "audience": ({"audience": ext}, "audience_of"),
        "teammates": ({"teammates": ext}, "teammates"),
        "speech": ({"speech": speech}, "message_receivers"),
        "interceptor": ({"interceptors": (ext,)}, "apply"),
    }
    return table[kind]


def _trigger(engine: hr.Engine, op: str) -> None:
    if op == "end_phase":
        engine.end_phase()
    elif op == "add_player":
        engine.add_player("late", "LATE")
    elif op == "start":
        engine.start()
    elif op == "player_view":
        engine.player_view("p0")
    elif op == "audience_of":
        engine.audience_of(hr.Event("RULE_EVENT"))
    elif op == "teammates":
        engine.teammates("p0")
    elif op == "message_receivers":
        engine.message_receivers("p0")
    elif op == "apply":
        engine.apply(hr.Effect("PING"))


KINDS = [
    "resolver",
    "victory",
    "role_setup",
    "game_setup",
    "role_info",
    "audience",
    "teammates",
    "speech",
    "interceptor",
]


@pytest.mark.parametrize("kind", KINDS)
def test_extension_point_calling_back_gets_reentrant_call(kind: str) -> None:
    holder: list[hr.Engine] = []
    seen: list[BaseException] = []
    fields, op = _hook(kind, lambda: holder[0].view(), seen)
    engine = hr.Engine(counter_rules(**fields))
    holder.append(engine)
    for i in range(2):
        engine.add_player(f"p{i}", "ANY")
    if op not in ("start", "add_player"):
        engine.start()
    seen.clear()
    run_with_timeout(lambda: _trigger(engine, op))
    assert seen, "the extension point was not called"
    assert all(isinstance(e, hr.ReentrantCall) for e in seen), seen
    assert hr.ReentrantCall.code == "REENTRANT_CALL"


def test_reentrant_call_escaping_a_resolver_leaves_the_state_unchanged() -> None:
    holder: list[hr.Engine] = []

    def resolver(uses: object, view: object) -> list[hr.Effect]:
        holder[0].end_phase()
        return []

    engine = counter_game(rules=counter_rules(resolvers={LOOP: resolver}))
    holder.append(engine)
    engine.submit("p0", ACT)
    before = snap_bytes(engine)
    with pytest.raises(hr.ReentrantCall):
        run_with_timeout(engine.end_phase)
    assert snap_bytes(engine) == before
    # The engine still works afterwards: the guard was reset.
    assert engine.view().phase == LOOP


CALLBACKS: dict[str, Callable[[hr.Engine], Any]] = {
    "add_player": lambda e: e.add_player("x", "ANY"),
    "start": lambda e: e.start(),
    "submit": lambda e: e.submit("p0", ACT),
    "end_phase": lambda e: e.end_phase(),
    "apply": lambda e: e.apply(hr.Effect("PING")),
    "view": lambda e: e.view(),
    "teammates": lambda e: e.teammates("p0"),
    "player_view": lambda e: e.player_view("p0"),
    "phase_info": lambda e: e.phase_info(),
    "audience_of": lambda e: e.audience_of(hr.Event("X")),
    "message_receivers": lambda e: e.message_receivers("p0"),
    "send_message": lambda e: e.send_message("p0", "hi"),
    "status": lambda e: e.status(),
    "var": lambda e: e.var(hr.GAME, "count"),
    "player_info": lambda e: e.player_info("p0"),
    "alive_player_ids": lambda e: e.alive_player_ids(),
    "round_context": lambda e: e.round_context(),
    "allowed_skills": lambda e: e.allowed_skills("p0"),
    "readiness": lambda e: e.readiness(),
    "snapshot": lambda e: e.snapshot(),
    "log": lambda e: e.log(),
    "on_event": lambda e: e.on_event(print),
    "on_message": lambda e: e.on_message(print),
}


@pytest.mark.parametrize("name", sorted(CALLBACKS))
def test_every_engine_method_refuses_reentry_from_a_resolver(name: str) -> None:
    seen = _called_from_a_resolver(name, warm=False)
    assert len(seen) == 1 and isinstance(seen[0], hr.ReentrantCall), seen


def _called_from_a_resolver(name: str, *, warm: bool) -> list[BaseException]:
    """What calling ``CALLBACKS[name]`` from inside a resolver raised (``warm``: asked twice before, so kept)."""
    holder: list[hr.Engine] = []
    seen: list[BaseException] = []
    fields, _ = _hook("resolver", lambda: CALLBACKS[name](holder[0]), seen)
    engine = counter_game(rules=counter_rules(**fields))
    holder.append(engine)
    if warm:
        CALLBACKS[name](engine)
        CALLBACKS[name](engine)
    run_with_timeout(engine.end_phase)
    return seen


@pytest.mark.parametrize("name", ["allowed_skills", "status"])
def test_a_kept_answer_is_still_refused_to_an_extension_point(name: str) -> None:
    """The lock-free readers check re-entry first: a kept answer never leaks into a batch."""
    seen = _called_from_a_resolver(name, warm=True)
    assert len(seen) == 1 and isinstance(seen[0], hr.ReentrantCall), seen


def test_a_kept_answer_read_from_another_thread_waits_for_a_running_extension_point() -> None:
    """While a resolver runs, another thread's reader waits for the lock (not ReentrantCall,
    not the kept answer of the board being resolved) and then answers for the new board."""
    inside = threading.Event()
    got: dict[str, Any] = {}

    def reader(engine: hr.Engine) -> None:
        inside.wait(TIMEOUT)
        try:
            got["status"] = engine.status()
            got["skills"] = engine.allowed_skills("p0")
        except BaseException as exc:
            got["error"] = exc

    def resolver(uses: object, view: object) -> list[hr.Effect]:
        inside.set()
        time.sleep(0.05)  # the reader runs meanwhile
        return [hr.set_actors(LOOP, "p1")]

    engine = counter_game(rules=counter_rules(resolvers={LOOP: resolver}))
    engine.status()
    assert engine.allowed_skills("p0") == (ACT,)  # both answers kept
    t = threading.Thread(target=reader, args=(engine,))
    t.start()
    run_with_timeout(engine.end_phase)
    t.join(TIMEOUT)
    assert "error" not in got, got
    assert got["status"] == engine.status()
    assert got["skills"] == ()  # p0 is no longer named to act


# ---------------------------------------------------------------- handlers


def test_event_handlers_run_outside_the_lock() -> None:
    """Another thread can use the engine while a handler is still running."""
    engine = counter_game()
    other_done = threading.Event()

    def other_thread() -> None:
        engine.submit("p1", ACT)
        engine.status()
        other_done.set()

    def handler(event: hr.Event) -> None:
        t = threading.Thread(target=other_thread)
        t.start()
        assert other_done.wait(TIMEOUT), "engine lock still held while handlers run"
        t.join()

    engine.on_event(handler)
    run_with_timeout(engine.end_phase)
    assert other_done.is_set()
    assert [u.player_id for u in engine.pending_uses()] == ["p1"]


def test_event_handlers_may_call_back_into_the_engine() -> None:
    engine = counter_game()
    seen: list[tuple[str, int]] = []

    def handler(event: hr.Event) -> None:
        status = engine.status()
        seen.append((event.type, status.round))
        engine.submit("p0", ACT, ["p2"])
        engine.player_view("p0")
        engine.snapshot()
        if status.round < 3:
            engine.end_phase()

    engine.on_event(handler)
    run_with_timeout(engine.end_phase)
    assert seen == [("TICK", 2), ("TICK", 3)]
    assert engine.status().round == 3
    assert len(engine.pending_uses()) == 1
    assert engine.var(hr.GAME, "count") == "1"


def test_message_handlers_run_outside_the_lock_and_may_call_the_engine() -> None:
    engine = counter_game()
    got: list[tuple[hr.Message, tuple[str, ...]]] = []
    other_done = threading.Event()

    def handler(msg: hr.Message, receivers: tuple[str, ...]) -> None:
        got.append((msg, receivers))

        def other() -> None:
            engine.submit("p3", ACT)
            other_done.set()

        t = threading.Thread(target=other)
        t.start()
        assert other_done.wait(TIMEOUT)
        t.join()
        engine.end_phase()

    engine.on_message(handler)
    run_with_timeout(lambda: engine.send_message("p0", "hello"))
    assert got == [(hr.Message("p0", "hello", LOOP, 1), ("p0", "p1", "p2", "p3"))]
    assert engine.status().round == 2
    assert engine.var(hr.GAME, "count") == "1"


def test_raising_event_handler_is_logged_and_others_still_run(caplog: pytest.LogCaptureFixture) -> None:
    engine = counter_game()
    calls: list[str] = []

    def first(event: hr.Event) -> None:
        calls.append("first")
        raise RuntimeError("boom in first")

    def second(event: hr.Event) -> None:
        calls.append("second:" + event.type)

    engine.on_event(first)
    engine.on_event(second)
    engine.on_event(lambda e: calls.append("third"))
    with caplog.at_level(logging.ERROR, logger="hiddenrole"):
        effects = engine.end_phase()
    assert [e.type for e in effects] == [hr.SET_VAR, "TICK"]
    assert calls == ["first", "second:TICK", "third"]
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1
    assert errors[0].exc_info is not None and "boom in first" in str(errors[0].exc_info[1])
    assert engine.status().round == 2


def test_raising_message_handler_is_logged_and_others_still_run(caplog: pytest.LogCaptureFixture) -> None:
    engine = counter_game()
    calls: list[str] = []

    def first(msg: hr.Message, receivers: tuple[str, ...]) -> None:
        raise ValueError("bad handler")

    engine.on_message(first)
    engine.on_message(lambda m, r: calls.append(m.content))
    with caplog.at_level(logging.ERROR, logger="hiddenrole"):
        msg = engine.send_message("p1", "still delivered")
    assert msg.content == "still delivered"
    assert calls == ["still delivered"]
    assert [str(r.exc_info[1]) for r in caplog.records if r.exc_info] == ["bad handler"]
