"""Display helpers: the games, options, moves and public data as the console prints them.

What a game *is* (seats and their default count, options, statistics, dealing,
chance) comes from its definition, found through the host catalog (the game
registry), so a game installed from another package appears here with no edit.
Nothing here names a game or decides a rule; this module only turns definitions
and views into lines of text. Events are told in the game's words by :mod:`.words`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from hiddenrole.host import GameDefinition, InvalidOptions, LoggedMove, Option, OptionKind, catalog

__all__ = [
    "games",
    "definition",
    "default_seats",
    "parse_pairs",
    "catalog_lines",
    "option_lines",
    "move_text",
    "value_text",
    "data_lines",
]


def games() -> tuple[str, ...]:
    """Every game the catalog can open now, sorted (a registered game that fails to load is left out)."""
    return catalog.available()


def definition(name: str) -> GameDefinition:
    """The catalog's definition of ``name`` (:class:`hiddenrole.host.InvalidGame` if unknown or broken)."""
    return catalog.get(name)


def default_seats(d: GameDefinition) -> int:
    """Seats when ``--players`` is not given: the definition's default (a classic table of the game)."""
    return d.default_seats


def parse_pairs(pairs: Iterable[str]) -> dict[str, str]:
    """``KEY=VALUE`` texts as a mapping; the definition reads each value by its declared kind later."""
    out: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise InvalidOptions(f"option {pair!r}: expected KEY=VALUE", key.strip())
        out[key.strip()] = value
    return out


def catalog_lines() -> list[str]:
    """One line per game: name, seats, summary (for ``--help``); then one per game that cannot be loaded."""
    lines = []
    for name in games():
        d = definition(name)
        seats = f"{d.min_seats}-{d.max_seats} seats"
        lines.append(f"{name:<9} {seats:<11} {d.summary}")
    for name, problem in catalog.problems().items():
        lines.append(f"{name:<9} {'unavailable':<11} {problem.code}: {problem.message}")
    return lines


def _kind(option: Option) -> str:
    if option.kind is OptionKind.INTEGER:
        return f"{option.minimum}..{option.maximum}"
    if option.kind is OptionKind.CHOICE:
        return "|".join(option.choices)
    return "true|false"


def value_text(value: object) -> str:
    """An option value as typed on a command line (``true``, ``30``, ``avalon``)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def option_lines(d: GameDefinition, current: Mapping[str, object] | None = None) -> list[str]:
    """Each option with its kind, its value (``current`` or the default) and its help."""
    lines = [f"{d.name} (rules {d.version}), {d.min_seats}-{d.max_seats} seats, undo {'yes' if d.undo else 'no'}"]
    for o in d.options:
        value = current.get(o.name, o.default) if current is not None else o.default
        note = f"  {o.help}" if o.help else ""
        lines.append(f"  {o.name}={value_text(value)}  ({_kind(o)}){note}")
    if d.statistics:
        lines.append("statistics: " + ", ".join(f"{s.name} ({s.scope.value})" for s in d.statistics))
    return lines


def move_text(m: LoggedMove, skill_name: Callable[[str], str] = str) -> str:
    """One logged move, as the ``log`` command lists it (skills by ``skill_name``)."""
    parts = [f"#{m.seq}", m.kind]
    if m.seat is not None:
        parts.append(m.seat)
    if m.skill:
        parts.append(skill_name(m.skill))
    parts += list(m.targets)
    if m.text:
        parts.append(repr(m.text))
    if m.draws:
        parts.append(f"(drew {m.draws})")
    return " ".join(parts)


def _flat(value: object) -> str:
    if isinstance(value, Mapping):
        return ", ".join(f"{k} {_flat(v)}" for k, v in value.items())
    if isinstance(value, Sequence) and not isinstance(value, str):
        return ", ".join(_flat(v) for v in value)
    return value_text(value)


def _row(item: object) -> str:
    """A record with a ``seat`` (the race's positions) reads ``seat rest``."""
    if isinstance(item, Mapping) and "seat" in item:
        rest = " ".join(value_text(v) for k, v in item.items() if k != "seat")
        return f"{item['seat']} {rest}".strip()
    return _flat(item)


def data_lines(data: Mapping[str, Any]) -> list[str]:
    """The game's public data, one ``key: value`` line each (lists and mappings flattened)."""
    lines = []
    for key, value in data.items():
        if isinstance(value, Sequence) and not isinstance(value, str):
            text = " · ".join(_row(v) for v in value)
        else:
            text = _flat(value)
        lines.append(f"{key}: {text}" if text else f"{key}: -")
    return lines
