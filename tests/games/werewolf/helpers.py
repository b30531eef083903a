"""Shared helpers: hand-made boards for resolvers, fixed tables for whole games."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import hiddenrole as hr
from hiddenrole.games import werewolf as ww

SPECS = {s.role: s for s in ww.CORE_ROLES}


def player(
    pid: str,
    role: str,
    alive: bool = True,
    *,
    marks: Iterable[str] = (),
    extra: Mapping[str, str] | None = None,
) -> hr.PlayerInfo:
    """A seat with the role's real initial variables (plus ``extra``) and round marks."""
    spec = SPECS.get(role)
    base = dict(spec.setup(pid, role)) if spec else {}
    base.update(extra or {})
    base = {k: v for k, v in base.items() if v}
    return hr.mark(hr.seat(pid, role, alive, base), *marks)


def board(*players: hr.PlayerInfo, round: int = 1, phase: str = "", kill: str = "") -> hr.Board:
    rv = {ww.VAR_KILL_TARGET: kill} if kill else {}
    return hr.Board(players, round=round, phase=phase, round_vars=rv)


def use(pid: str, skill: str, *targets: str) -> hr.SkillUse:
    return hr.SkillUse(pid, skill, tuple(targets))


def events(effects: Sequence[hr.Effect]) -> list[tuple[str, str, str, bool]]:
    """Rule events only, as (type, source, target, canceled)."""
    return [(e.type, e.source, e.target, e.canceled) for e in effects if not e.is_internal]


def reasons(effects: Sequence[hr.Effect]) -> list[str]:
    return [e.reason for e in effects if e.canceled]


def killed(effects: Sequence[hr.Effect]) -> list[str]:
    return [e.target for e in effects if e.sets_alive() is False]


def table(
    *roles: str,
    switches: ww.Switches | None = None,
    extensions: Sequence[ww.Extension] = (),
    start: bool = True,
) -> hr.Engine:
    """An engine with ``roles`` seated in order at p00, p01, ... (no shuffle)."""
    engine = hr.Engine(ww.rules(switches, extensions=extensions))
    for pid, role in zip(ww.seat_ids(len(roles)), roles, strict=True):
        engine.add_player(pid, role)
    if start:
        engine.start()
    return engine


EIGHT = (
    ww.WEREWOLF,  # p00
    ww.WEREWOLF,  # p01
    ww.SEER,  # p02
    ww.WITCH,  # p03
    ww.GUARD,  # p04
    ww.HUNTER,  # p05
    ww.VILLAGER,  # p06
    ww.VILLAGER,  # p07
)


def until(engine: hr.Engine, phase: str, limit: int = 40) -> list[hr.Effect]:
    """End phases until ``phase`` is current; return every effect produced on the way."""
    out: list[hr.Effect] = []
    for _ in range(limit):
        if engine.status().phase == phase:
            return out
        out += engine.end_phase()
    raise AssertionError(f"never reached {phase}; at {engine.status()}")


def vote_all(engine: hr.Engine, target: str) -> None:
    for pid in engine.alive_player_ids():
        if ww.VOTE in engine.allowed_skills(pid):
            engine.submit(pid, ww.VOTE, [target])


Observation = tuple[str, Any]


class Observer:
    """Everything one seat receives: its view at every step, its events, its messages."""

    def __init__(self, engine: hr.Engine, viewer: str) -> None:
        self.engine = engine
        self.viewer = viewer
        self.seen: list[Observation] = []
        engine.on_event(self._event)
        engine.on_message(self._message)

    def _event(self, event: hr.Event) -> None:
        audience = self.engine.audience_of(event)
        assert audience is not None, f"event {event.type} has no declared audience"
        if self.viewer in audience:
            self.seen.append(("event", event))

    def _message(self, message: hr.Message, receivers: tuple[str, ...]) -> None:
        if self.viewer in receivers:
            self.seen.append(("message", (message.sender, message.content, message.phase)))

    def look(self) -> None:
        self.seen.append(("view", self.engine.player_view(self.viewer)))


Script = Mapping[tuple[int, str], Sequence[tuple[str, str, tuple[str, ...]]]]


def play_script(engine: hr.Engine, viewer: str, script: Script, phases: int) -> list[Observation]:
    """Play ``phases`` phases; at (round, phase) submit the scripted actions; others abstain."""
    obs = Observer(engine, viewer)
    for _ in range(phases):
        obs.look()
        st = engine.status()
        if st.over:
            break
        for pid, skill, targets in script.get((st.round, st.phase), ()):
            engine.submit(pid, skill, targets)
        obs.look()
        engine.end_phase()
    return obs.seen
