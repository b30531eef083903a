"""Shared checks for every game's narration module: random games narrated seat by seat.

A narration module is any module with the shape documented in docs/NARRATION.md; the
helpers here only call that shape, so one set of checks serves all five games.
"""

from __future__ import annotations

import contextlib
import random
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

import hiddenrole as hr
from hiddenrole import enginetest as et

Chooser = Callable[[hr.Engine, str, random.Random], tuple[str, tuple[str, ...]] | None]
"""A seat's random move (defaults to the harness's random submission)."""
Prepare = Callable[[hr.Engine, str, random.Random], None]
"""Called before a seat acts (the race writes its die there)."""

IDENTIFIER = re.compile(r"\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b")
"""``MS_ASSASSIN``, ``NIGHT_WOLF``: internal identifiers that must never reach a sentence."""
RAW_LIST = re.compile(r"\w[,:>]\w")
"""``p1,p4``, ``p4:1``, ``p1>p4``: raw data that must be turned into words."""


def vocabulary(*modules: ModuleType) -> frozenset[str]:
    """Every upper-case string constant of the given vocab modules (``KILL``, ``EVIL``, ``ON_SEER``)."""
    out: set[str] = set()
    for mod in modules:
        for name in dir(mod):
            value = getattr(mod, name)
            if name.isupper() and isinstance(value, str) and len(value) >= 3 and value.isupper():
                out.add(value)
    return frozenset(out | hr.KERNEL_EVENTS | {hr.START, hr.END, hr.SYSTEM, hr.SKIP, hr.ANNOUNCE})


def problems(text: object, words: frozenset[str]) -> list[str]:
    """Why ``text`` is not a plain sentence in the game's words (empty when it is)."""
    if not isinstance(text, str) or not text.strip():
        return [f"not a sentence: {text!r}"]
    out = []
    if text != text.strip() or "  " in text:
        out.append("stray spaces")
    if text[-1] not in ".!":
        out.append("does not end a sentence")
    if IDENTIFIER.search(text):
        out.append(f"internal identifier {IDENTIFIER.search(text)!r}")
    if RAW_LIST.search(text):
        out.append(f"raw data {RAW_LIST.search(text)!r}")
    for bad in ("=", "{", "}", "?", "None", "tally", "[", "]"):
        if bad in text:
            out.append(f"contains {bad!r}")
    caps = {w for w in re.findall(r"[A-Za-z_]+", text) if w in words}
    if caps:
        out.append(f"vocabulary values {sorted(caps)}")
    return out


def assert_plain(text: object, words: frozenset[str], where: str = "") -> None:
    bad = problems(text, words)
    assert not bad, f"{where}: {text!r}: {'; '.join(bad)}"


def assert_names_plain(
    narration: Any, config: hr.Config, roles: Iterable[str], words: frozenset[str], *, system_skills: bool = True
) -> None:
    """Every phase, step skill (the system's too unless ``system_skills`` is false) and role reads as words."""
    for phase, pc in config.phases.items():
        assert_plain(narration.phase_name(phase) + ".", words, phase)
        for step in pc.steps:
            if step.skill and (system_skills or step.role != hr.SYSTEM):
                assert_plain(narration.skill_name(step.skill) + ".", words, step.skill)
    for role in roles:
        assert_plain(narration.role_name(role) + ".", words, role)


@dataclass
class Narrated:
    """What random games produced: every (seat, event, view) delivery and every seat's prompt."""

    deliveries: list[tuple[str, hr.Event, hr.PlayerView]] = field(default_factory=list)
    spectated: list[hr.Event] = field(default_factory=list)
    views: list[hr.PlayerView] = field(default_factory=list)
    types: set[str] = field(default_factory=set)


def play(
    engine: hr.Engine,
    rng: random.Random,
    *,
    steps: int = 200,
    choose: Chooser | None = None,
    prepare: Prepare | None = None,
    into: Narrated | None = None,
) -> Narrated:
    """Play ``engine`` to the end with random moves (starting it if need be); record what each seat got.

    Events are routed with ``audience_of`` on the board as it stands right after they
    were published; the view handed with each delivery is the receiving seat's view then.
    """
    got = into if into is not None else Narrated()
    queue: list[hr.Event] = []
    engine.on_event(queue.append)

    def flush() -> None:
        views = {pid: engine.player_view(pid) for pid in engine.player_ids()}
        for ev in queue:
            got.types.add(ev.type)
            audience = engine.audience_of(ev)
            if audience is None:
                raise AssertionError(f"the rules do not know event {ev.type}")
            if set(audience) == set(engine.player_ids()):
                got.spectated.append(ev)
            for pid in audience:
                got.deliveries.append((pid, ev, views[pid]))
        queue.clear()

    if engine.status().phase == hr.START:
        engine.start()
        flush()
    pick = choose or (lambda e, pid, r: et.random_submission(e, pid, r))
    for _ in range(steps):
        if engine.status().over:
            break
        got.views.extend(engine.player_view(pid) for pid in engine.player_ids())
        for pid in engine.player_ids():
            if prepare is not None:
                prepare(engine, pid, rng)
            move = pick(engine, pid, rng)
            if move is not None:
                with contextlib.suppress(hr.GameError):  # a move the rules refuse is simply lost
                    engine.submit(pid, move[0], move[1])
        flush()
        if engine.readiness().turn:
            engine.end_turn(engine.readiness().turn)
        else:
            engine.end_phase()
        flush()
    got.views.extend(engine.player_view(pid) for pid in engine.player_ids())
    return got


def check_narrated(narration: Any, got: Narrated, words: frozenset[str]) -> None:
    """Every delivery and every view narrates as plain sentences, with the explicit phrasing."""
    for pid, ev, view in got.deliveries:
        assert ev.type in narration.EVENTS, f"{ev.type} has no phrasing of its own"
        text = narration.describe(ev, view)
        assert_plain(text, words, f"{ev.type} to {pid}")
    for ev in got.spectated:
        assert_plain(narration.describe(ev, None), words, f"{ev.type} to a spectator")
    for view in got.views:
        assert_plain(narration.prompt(view), words, f"prompt of {view.player_id} in {view.phase}")
        assert_plain(narration.identity(view), words, f"identity of {view.player_id}")


def ids_in(text: str, ids: Iterable[str]) -> set[str]:
    """The seat ids ``text`` names as whole words."""
    return {i for i in ids if re.search(rf"(?<![\w-]){re.escape(i)}(?![\w-])", text)}
