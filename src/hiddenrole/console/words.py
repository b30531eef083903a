"""The console's words: every event, prompt and name as the game's narration module says it.

Each rules package ships ``hiddenrole.games.<rules name>.narration`` (see
``docs/NARRATION.md``); the console finds it from the table's rules, so a game
installed from another package is narrated in its own words with no edit here. A game
without one gets :class:`_Plain`, which still writes words (``Lovers linked: p1 and
p2.``) rather than identifiers and raw data.

Narration reads kernel values (``hr.Event``, ``hr.PlayerView``); a host table hands out
:class:`~hiddenrole.host.TableView` and :class:`~hiddenrole.host.SeenEvent`.
:func:`player_view` converts a seat's own table view, field by field and nothing more,
so a sentence can never hold more than the seat's view does.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Protocol

import hiddenrole as hr
from hiddenrole.host import SeenEvent, TableView

__all__ = ["Narrator", "narrator_for", "player_view", "kernel_event", "humane"]


class Narrator(Protocol):
    """The part of a narration module the console uses (the shape of ``docs/NARRATION.md``)."""

    def role_name(self, role: str) -> str: ...
    def camp_name(self, camp: str) -> str: ...
    def skill_name(self, skill: str) -> str: ...
    def phase_name(self, phase: str) -> str: ...
    def describe(self, event: hr.Event, viewer: hr.PlayerView | None) -> str | None: ...
    def prompt(self, view: hr.PlayerView) -> str: ...
    def identity(self, view: hr.PlayerView) -> str: ...


def humane(value: str) -> str:
    """An identifier in words, for a game with no narration module: ``LOVERS_LINKED`` -> ``Lovers linked``."""
    text = value.replace("_", " ").replace(".", " ").strip().lower()
    return text[:1].upper() + text[1:] if text else "Nothing"


class _Plain:
    """Words for a game that ships no narration module: names in words, events by type and seats."""

    def role_name(self, role: str) -> str:
        return humane(role)

    def camp_name(self, camp: str) -> str:
        return humane(camp)

    def skill_name(self, skill: str) -> str:
        return humane(skill)

    def phase_name(self, phase: str) -> str:
        return humane(phase)

    def describe(self, event: hr.Event, viewer: hr.PlayerView | None) -> str | None:
        me = viewer.player_id if viewer is not None else ""
        who = [f"{p} (you)" if p == me else p for p in (event.source, event.target) if p]
        refused = f" (refused: {event.reason or 'no reason given'})" if event.canceled else ""
        return f"{humane(event.type)}{': ' + ' and '.join(who) if who else ''}{refused}."

    def prompt(self, view: hr.PlayerView) -> str:
        if not view.allowed_skills:
            return f"{self.phase_name(view.phase)}. Nothing to do for you now."
        living = ", ".join(p.id for p in view.players if p.alive)
        limits = dict(view.targets)
        skills = ", ".join(
            self.skill_name(s) + (f" ({', '.join(limits[s]) or 'nobody'})" if s in limits else "")
            for s in view.allowed_skills
        )
        return f"{self.phase_name(view.phase)}. You may: {skills}. Players: {living}."

    def identity(self, view: hr.PlayerView) -> str:
        return f"You are {view.player_id}, {self.role_name(view.self.role)}."


def narrator_for(rules: hr.Rules) -> Narrator:
    """The narration module of ``rules`` (named after ``rules.name``), or plain words without one."""
    try:
        module: ModuleType = importlib.import_module(f"hiddenrole.games.{rules.name}.narration")
    except ImportError:
        return _Plain()
    needed = ("role_name", "camp_name", "skill_name", "phase_name", "describe", "prompt", "identity")
    if not all(callable(getattr(module, name, None)) for name in needed):
        return _Plain()
    return module  # a module with the documented shape (checked above)


def kernel_event(e: SeenEvent) -> hr.Event:
    """A seen event as the kernel's value, which narration reads."""
    return hr.Event(e.type, e.source, e.target, dict(e.data), e.canceled, e.reason)


def player_view(view: TableView) -> hr.PlayerView | None:
    """A seat's own table view as the kernel's :class:`hiddenrole.PlayerView`; ``None`` for a spectator."""
    me = view.me
    if me is None:
        return None
    return hr.PlayerView(
        player_id=me.seat,
        round=view.round,
        phase=view.phase,
        self=hr.SelfInfo(me.seat, me.role, me.alive, me.camp),
        players=tuple(hr.PublicPlayerInfo(p.seat, p.alive, p.role) for p in view.players),
        allowed_skills=me.allowed_skills,
        teammates=me.teammates,
        role_info=dict(me.role_info),
        turn=view.turn,
        targets=me.targets,
    )
