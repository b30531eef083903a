"""A seat's view made ready to show: sentences in the game's words, display names, legal actions.

The browser gets structured views over the WebSocket; the words come from here, because
the narration modules are Python. :func:`present` reads one reader's view (the dict the
server would send that reader) and the table's public phase configuration, nothing else,
so what it returns is a function of what that reader may know: the page it feeds cannot
show more than the seat's view holds.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType, ModuleType
from typing import Any, Final

import hiddenrole as hr
from hiddenrole.agents import legal_actions as agent_legal_actions

__all__ = ["present", "narration_of", "player_view", "legal_actions", "event_of", "words"]

KINDS_SHOWN: Final = frozenset({"say", "end-turn", "delay-turn", "undo"})
"""Kinds of move (besides ``act``) the page offers as buttons when the view lists them."""


def narration_of(game: str) -> ModuleType | None:
    """The game's narration module (``hiddenrole.games.<name>.narration``), if it has one."""
    try:
        return importlib.import_module(f"hiddenrole.games.{game}.narration")
    except ImportError:
        return None


def words(raw: str) -> str:
    """An identifier in words ("LOVERS_LINKED" -> "Lovers linked"), for games without narration."""
    text = raw.replace("_", " ").replace("-", " ").strip().lower()
    return text[:1].upper() + text[1:]


class _Names:
    """Display names from the game's narration, with a plain fallback."""

    def __init__(self, module: ModuleType | None) -> None:
        self.m = module

    def _call(self, name: str, value: str) -> str:
        if not value:
            return ""
        fn: Callable[[str], str] | None = getattr(self.m, name, None) if self.m is not None else None
        return fn(value) if fn is not None else words(value)

    def role(self, v: str) -> str:
        return self._call("role_name", v)

    def camp(self, v: str) -> str:
        return self._call("camp_name", v)

    def skill(self, v: str) -> str:
        return self._call("skill_name", v)

    def phase(self, v: str) -> str:
        return self._call("phase_name", v)


def player_view(view: Mapping[str, Any]) -> hr.PlayerView | None:
    """The kernel's :class:`hiddenrole.PlayerView` rebuilt from a seat's view dict (``None`` for a spectator)."""
    me = view.get("me")
    if not me:
        return None
    return hr.PlayerView(
        player_id=me["seat"],
        round=view["round"],
        phase=view["phase"],
        self=hr.SelfInfo(me["seat"], me["role"], me["alive"], me["camp"]),
        players=tuple(hr.PublicPlayerInfo(p["seat"], p["alive"], p["role"]) for p in view["players"]),
        allowed_skills=tuple(me["allowed_skills"]),
        teammates=tuple(me["teammates"]),
        role_info=MappingProxyType(dict(me["role_info"])),
        turn=view.get("turn", ""),
        targets=tuple((k, tuple(v)) for k, v in sorted((me.get("targets") or {}).items())),
    )


def event_of(e: Mapping[str, Any]) -> hr.Event:
    return hr.Event(
        e["type"],
        e.get("source", ""),
        e.get("target", ""),
        MappingProxyType(dict(e.get("data", {}))),
        bool(e.get("canceled", False)),
        e.get("reason", ""),
    )


def _fallback(e: Mapping[str, Any]) -> str:
    parts = [words(e["type"])]
    if e.get("source"):
        parts.append(f"by {e['source']}")
    if e.get("target"):
        parts.append(f"on {e['target']}")
    text = " ".join(parts) + "."
    if e.get("canceled"):
        text += f" (No effect{': ' + e['reason'] if e.get('reason') else ''}.)"
    return text


def legal_actions(view: Mapping[str, Any], config: hr.Config, names: _Names | None = None) -> list[dict[str, Any]]:
    """Each skill the seat may use now with the targets its step accepts, labelled for the page.

    The enumeration is the agents' (:func:`hiddenrole.agents.legal_actions`), so the page
    offers exactly what an agent of that seat is offered: choices of the right shape among
    targets the step allows; whatever the rules still refuse comes back as a refusal.
    """
    names = names or _Names(None)
    me = view.get("me")
    if not me:
        return []
    return [
        {
            "skill": la.skill,
            "name": names.skill(la.skill),
            "targets": [{"id": c, "label": _label(c, la.pool, me["seat"])} for c in la.candidates],
            "min": la.min_targets,
            "max": la.max_targets,
            "distinct": la.distinct,
            "pool": bool(la.pool),
        }
        for la in agent_legal_actions(view, config)
    ]


def _label(candidate: str, pool: str, seat: str) -> str:
    if pool:
        return f"centre card {candidate}" if candidate.isdigit() else words(candidate)
    return f"{candidate} (you)" if candidate == seat else candidate


def _outcome(view: Mapping[str, Any], names: _Names) -> dict[str, Any] | None:
    raw = view.get("outcome")
    if not raw:
        return None
    roles = {p["seat"]: p["role"] for p in view["players"]}
    winners = set(raw.get("winners", ()))
    seats = []
    for p in view["players"]:
        s = p["seat"]
        stats = raw.get("seats", {}).get(s, {})
        seats.append(
            {
                "seat": s,
                "role": names.role(roles.get(s, "")),
                "won": s in winners,
                "alive": p["alive"],
                "stats": [{"name": words(k), "value": v} for k, v in sorted(stats.items())],
            }
        )
    return {
        "ending": words(raw.get("ending", "")),
        "winners": sorted(winners),
        "table": [{"name": words(k), "value": v} for k, v in sorted(raw.get("table", {}).items())],
        "seats": seats,
    }


def _data(data: Mapping[str, Any]) -> list[dict[str, str]]:
    out = []
    for k, v in sorted(data.items()):
        if isinstance(v, (list, tuple)):
            text = ", ".join(str(x) for x in v)
        elif isinstance(v, Mapping):
            text = ", ".join(f"{a}: {b}" for a, b in sorted(v.items()))
        else:
            text = str(v)
        out.append({"name": words(k), "value": text})
    return out


def present(view: Mapping[str, Any], config: hr.Config, table_state: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Everything the table page shows for this reader, in words (see the module docstring)."""
    module = narration_of(view["game"])
    names = _Names(module)
    pv = player_view(view)
    describe: Callable[[hr.Event, hr.PlayerView | None], str | None] | None = (
        getattr(module, "describe", None) if module is not None else None
    )
    events = []
    for i, e in enumerate(view["events"], 1):
        text: str | None
        if describe is not None:
            try:
                text = describe(event_of(e), pv)
            except (TypeError, AttributeError, KeyError, ValueError):  # a narrator's bug must not blank the page
                text = _fallback(e)
            if text is None:
                continue
        else:
            text = _fallback(e)
        events.append({"n": e.get("n", i), "text": text, "canceled": bool(e.get("canceled"))})
    chat = [
        {
            "n": c.get("n", i),
            "sender": c["sender"],
            "text": c["text"],
            "phase": names.phase(c["phase"]),
            "round": c["round"],
        }
        for i, c in enumerate(view["chat"], 1)
    ]
    me = view.get("me")
    seat = view.get("seat")
    mine: dict[str, Any] | None = None
    prompt = ""
    if me and pv is not None:
        identity_fn = getattr(module, "identity", None) if module is not None else None
        prompt_fn = getattr(module, "prompt", None) if module is not None else None
        mine = {
            "seat": me["seat"],
            "role": names.role(me["role"]),
            "camp": names.camp(me["camp"]),
            "alive": me["alive"],
            "teammates": list(me["teammates"]),
            "identity": identity_fn(pv) if identity_fn is not None else "",
        }
        prompt = prompt_fn(pv) if prompt_fn is not None else ""
    spoke = {c["sender"] for c in view["chat"] if (c["phase"], c["round"]) == (view["phase"], view["round"])}
    players = [
        {
            "seat": p["seat"],
            "alive": p["alive"],
            "role": names.role(p["role"]),
            "me": p["seat"] == seat,
            "turn": p["seat"] == view.get("turn"),
            "teammate": p["seat"] in (me["teammates"] if me else ()),
            "spoke": p["seat"] in spoke,
        }
        for p in view["players"]
    ]
    moves: Sequence[str] = view.get("moves", ())
    return {
        "version": view["version"],
        "game": view["game"],
        "seat": seat,
        "phase": names.phase(view["phase"]),
        "round": view["round"],
        "turn": view.get("turn", ""),
        "over": view["over"],
        "players": players,
        "me": mine,
        "prompt": prompt,
        "actions": legal_actions(view, config, names),
        "moves": [k for k in moves if k in KINDS_SHOWN],
        "data": _data(view.get("data", {})),
        "events": events,
        "chat": chat,
        "outcome": _outcome(view, names),
        **({} if table_state is None else dict(table_state)),
    }
