"""Small helpers every game's narration module shares: fallback names, lists, ids, "(you)".

Narration modules (``hiddenrole.games.<name>.narration``) may not import each other, so
what they all say the same way lives here, below the games. Every helper is a pure
function of its arguments (text in, text out), which keeps narration a function of the
event and the viewer only (``tests/games/test_narration_boundary.py``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import hiddenrole as hr

__all__ = ["humane", "named", "and_list", "ids", "me", "who", "unknown_event"]


def humane(value: str, prefix: str = "") -> str:
    """A fallback display name for a value a game does not know: ``WOLF_KING`` -> ``Wolf king``.

    ``prefix`` is the game's own identifier prefix, dropped first (``MS_LADY`` -> ``Lady``).
    """
    text = value.removeprefix(prefix).replace("_", " ").replace(".", " ").strip().lower()
    return text[:1].upper() + text[1:] if text else "Nothing"


def named(names: Mapping[str, str], value: str, prefix: str = "") -> str:
    """``value``'s name in ``names``, else its :func:`humane` fallback."""
    return names.get(value) or humane(value, prefix)


def and_list(items: Iterable[str]) -> str:
    """``a, b and c`` (one item alone, nothing for none)."""
    xs = list(items)
    if len(xs) <= 1:
        return "".join(xs)
    return ", ".join(xs[:-1]) + " and " + xs[-1]


def ids(text: str) -> list[str]:
    """The ids of a comma-separated event field (``"p1,p3"`` -> ``["p1", "p3"]``; empty parts dropped)."""
    return [x for x in text.split(",") if x]


def me(viewer: hr.PlayerView | None) -> str:
    """The viewer's own seat id (``""`` for a spectator)."""
    return viewer.player_id if viewer is not None else ""


def who(pid: str, viewer: hr.PlayerView | None) -> str:
    """A player id, marked ``(you)`` when it is the viewer's own seat."""
    return f"{pid} (you)" if pid and pid == me(viewer) else pid


def unknown_event(event: hr.Event, viewer: hr.PlayerView | None, prefix: str = "") -> str:
    """An event type the game does not know (a third-party extension): its type in words, whom it concerns.

    Seats are marked ``(you)`` for ``viewer``; pass ``None`` to name them plainly.
    """
    about = [who(p, viewer) for p in (event.source, event.target) if p]
    refused = " (refused)" if event.canceled else ""
    return f"{humane(event.type, prefix)}{': ' + and_list(about) if about else ''}{refused}."
