"""Options (per table) and preferences (per player): declared kinds and their checked values.

Validation is hand-written on purpose. There are three kinds (boolean, bounded whole
number, choice among texts), each a two-line check, and the rules are strict: a log
is the truth, so ``"1"`` must not silently become ``True`` and ``True`` must not pass
for the number 1. A general validation library would add a dependency to a package
that has none, a second place where coercion rules live, and error messages we would
rewrite anyway to name the option the way players see it.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType
from typing import Final, TypeAlias

from .errors import InvalidGame, InvalidOptions, InvalidPreferences

__all__ = ["OptionKind", "OptionValue", "Option", "Settings", "NAME_PATTERN", "check_name"]

OptionValue: TypeAlias = bool | int | str
"""What an option or preference holds."""

NAME_PATTERN: Final = re.compile(r"[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*")
"""Lowercase words joined by ``-`` or ``_``: names of games, options, preferences, statistics."""

_TRUE = frozenset({"true", "yes", "on", "1"})
_FALSE = frozenset({"false", "no", "off", "0"})


def check_name(name: object, what: str) -> str:
    """``name`` if it is lowercase words joined by - or _; else :class:`InvalidGame`."""
    if not isinstance(name, str) or not NAME_PATTERN.fullmatch(name):
        raise InvalidGame(f"{what} {name!r} must be lowercase words joined by '-' or '_'")
    return name


class OptionKind(StrEnum):
    BOOLEAN = "boolean"
    INTEGER = "integer"
    CHOICE = "choice"


@dataclass(frozen=True, slots=True)
class Option:
    """One declared option or preference. Build with :meth:`boolean`, :meth:`integer`, :meth:`choice`."""

    name: str
    kind: OptionKind
    default: OptionValue
    minimum: int = 0
    maximum: int = 0
    choices: tuple[str, ...] = ()
    help: str = ""
    requires: tuple[str, OptionValue] | None = None
    """``(other, value)``: this option has an effect only while option ``other`` is ``value``
    (werewolf's ``wolves`` only with ``composition=custom``). A value other than the
    default is refused while ``other`` is set otherwise (:meth:`Settings.resolve`)."""

    @classmethod
    def boolean(
        cls, name: str, default: bool = False, help: str = "", requires: tuple[str, OptionValue] | None = None
    ) -> Option:
        return cls(name, OptionKind.BOOLEAN, default, help=help, requires=requires)

    @classmethod
    def integer(
        cls,
        name: str,
        default: int,
        minimum: int,
        maximum: int,
        help: str = "",
        requires: tuple[str, OptionValue] | None = None,
    ) -> Option:
        return cls(name, OptionKind.INTEGER, default, minimum, maximum, help=help, requires=requires)

    @classmethod
    def choice(
        cls,
        name: str,
        default: str,
        choices: tuple[str, ...] | list[str],
        help: str = "",
        requires: tuple[str, OptionValue] | None = None,
    ) -> Option:
        return cls(name, OptionKind.CHOICE, default, choices=tuple(choices), help=help, requires=requires)

    def __post_init__(self) -> None:
        check_name(self.name, "option name")
        try:
            object.__setattr__(self, "kind", OptionKind(self.kind))
        except ValueError:
            raise InvalidGame(f"option {self.name!r}: unknown kind {self.kind!r}") from None
        if not isinstance(self.help, str):
            raise InvalidGame(f"option {self.name!r}: help must be a str")
        if self.kind is OptionKind.INTEGER:
            for bound in (self.minimum, self.maximum):
                if not _is_int(bound):
                    raise InvalidGame(f"option {self.name!r}: bounds must be whole numbers")
            if self.minimum > self.maximum:
                raise InvalidGame(f"option {self.name!r}: minimum {self.minimum} is above maximum {self.maximum}")
        if self.kind is OptionKind.CHOICE:
            if isinstance(self.choices, str) or not self.choices:
                raise InvalidGame(f"option {self.name!r}: a choice needs at least one value")
            if any(not isinstance(c, str) or not c for c in self.choices):
                raise InvalidGame(f"option {self.name!r}: choices must be non-empty texts")
            if len(set(self.choices)) != len(self.choices):
                raise InvalidGame(f"option {self.name!r}: a choice is listed twice")
        problem = self.problem(self.default)
        if problem:
            raise InvalidGame(f"option {self.name!r}: default {self.default!r} is invalid: {problem}")
        if self.requires is not None and not (
            isinstance(self.requires, tuple)
            and len(self.requires) == 2
            and isinstance(self.requires[0], str)
            and self.requires[0] != self.name
            and isinstance(self.requires[1], (bool, int, str))
        ):
            raise InvalidGame(f"option {self.name!r}: requires must be (another option's name, a value)")

    def problem(self, value: object) -> str:
        """Why ``value`` is not allowed (``""`` when it is). Types are strict: no coercion."""
        if self.kind is OptionKind.BOOLEAN:
            return "" if isinstance(value, bool) else "expected true or false"
        if self.kind is OptionKind.INTEGER:
            if not _is_int(value):
                return f"expected a whole number between {self.minimum} and {self.maximum}"
            assert isinstance(value, int)
            if not self.minimum <= value <= self.maximum:
                return f"{value} is outside {self.minimum}..{self.maximum}"
            return ""
        if not isinstance(value, str) or value not in self.choices:
            return f"expected one of {', '.join(self.choices)}"
        return ""

    def parse(self, text: str) -> OptionValue:
        """Read a value typed by a person (command line, web form); refuses what :meth:`problem` refuses."""
        if not isinstance(text, str):
            raise InvalidOptions(f"option {self.name!r}: expected text, got {type(text).__name__}", self.name)
        raw = text.strip()
        value: OptionValue = raw
        if self.kind is OptionKind.BOOLEAN:
            if raw.lower() in _TRUE:
                value = True
            elif raw.lower() in _FALSE:
                value = False
        elif self.kind is OptionKind.INTEGER:
            with contextlib.suppress(ValueError):
                value = int(raw)
        problem = self.problem(value)
        if problem:
            raise InvalidOptions(f"option {self.name!r}: {problem}, got {text!r}", self.name)
        return value


def _text(value: object) -> str:
    """A value as a person types it (``true``, ``custom``)."""
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class Settings(Mapping[str, OptionValue]):
    """Checked values of every declared option (or preference), defaults filled in.

    A read-only mapping in the declaration's name order. The typed readers
    :meth:`flag`, :meth:`number` and :meth:`text` raise :class:`InvalidGame` when the
    game asks for a name it did not declare or reads it as the wrong kind: that is a
    bug in the game, not in the table.
    """

    __slots__ = ("_kinds", "_values")

    def __init__(self, declared: tuple[Option, ...], values: Mapping[str, OptionValue]) -> None:
        self._kinds: Mapping[str, OptionKind] = MappingProxyType({o.name: o.kind for o in declared})
        self._values: Mapping[str, OptionValue] = MappingProxyType(dict(sorted(values.items())))

    @classmethod
    def resolve(
        cls, declared: tuple[Option, ...], given: Mapping[str, object] | None, *, what: str = "option"
    ) -> Settings:
        """Defaults overlaid with ``given``; unknown names and bad values are refused, naming the culprit."""
        err: type[InvalidOptions] = InvalidPreferences if what == "preference" else InvalidOptions
        if given is None:
            given = {}
        if not isinstance(given, Mapping):
            raise err(f"{what}s must be a mapping of name to value, got {type(given).__name__}")
        by_name = {o.name: o for o in declared}
        for name in sorted(given, key=str):
            if name not in by_name:
                offered = ", ".join(sorted(by_name)) or "none"
                raise err(f"unknown {what} {name!r} (this game offers: {offered})", str(name))
        values: dict[str, OptionValue] = {}
        for o in declared:
            value = given.get(o.name, o.default)
            problem = o.problem(value)
            if problem:
                raise err(f"{what} {o.name!r}: {problem}, got {value!r}", o.name)
            assert isinstance(value, (bool, int, str))
            values[o.name] = value
        for o in declared:
            if o.requires is None or values[o.name] == o.default:
                continue
            other, needed = o.requires
            if values.get(other) != needed:
                shown = _text(needed)
                raise err(
                    f"{what} {o.name!r} has no effect unless {other}={shown} (it is {_text(values.get(other))})", o.name
                )
        return cls(declared, values)

    def __getitem__(self, name: str) -> OptionValue:
        return self._values[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def __repr__(self) -> str:
        return f"Settings({dict(self._values)!r})"

    def _read(self, name: str, kind: OptionKind) -> OptionValue:
        if self._kinds.get(name) is not kind:
            raise InvalidGame(f"the game read {name!r} as a {kind.value}, but declares no such {kind.value}")
        return self._values[name]

    def flag(self, name: str) -> bool:
        """A boolean option's value."""
        return bool(self._read(name, OptionKind.BOOLEAN))

    def number(self, name: str) -> int:
        """A whole-number option's value."""
        value = self._read(name, OptionKind.INTEGER)
        assert isinstance(value, int)
        return value

    def text(self, name: str) -> str:
        """A choice option's value."""
        return str(self._read(name, OptionKind.CHOICE))

    def to_dict(self) -> dict[str, OptionValue]:
        """Plain JSON-ready copy."""
        return dict(self._values)
