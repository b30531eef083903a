"""The table log: a header (game, rules version, options, seats, seed) and numbered moves.

The log is the table's truth; every other piece of table state is a cache rebuilt
by replaying it. It also records the end it reached (sequence number, a digest of
the board and the outcome) so that :func:`~hiddenrole.host.verify` can check that
a replay arrives at the same place.

JSON is the format. The benchmark (``benchmarks/host_bench.py``) measures encoding
and decoding at a few percent of the replay itself, so a faster codec would buy
almost nothing and cost a dependency.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Final, NoReturn

import hiddenrole as hr

from ..gamedef import MOVE_KINDS, InvalidGame, OptionValue, Outcome
from .errors import InvalidTableLog

__all__ = ["LOG_FORMAT", "TableHeader", "LoggedMove", "TableEnd", "TableLog"]

LOG_FORMAT: Final = 1
"""Version of the table-log layout; bumped on any incompatible change."""


@dataclass(frozen=True, slots=True)
class TableHeader:
    """Everything needed to set a table up again: which game, under which rules, for whom, with which seed."""

    table: str
    game: str
    version: str
    options: Mapping[str, OptionValue]
    seats: tuple[str, ...]
    seed: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "table": self.table,
            "game": self.game,
            "version": self.version,
            "options": dict(self.options),
            "seats": list(self.seats),
            "seed": self.seed,
        }


@dataclass(frozen=True, slots=True)
class LoggedMove:
    """One accepted move: its number, what it was, and how many random draws it took."""

    seq: int
    kind: str
    seat: str | None = None
    skill: str = ""
    targets: tuple[str, ...] = ()
    text: str = ""
    draws: int = 0

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"seq": self.seq, "move": self.kind}
        if self.seat is not None:
            d["seat"] = self.seat
        if self.skill:
            d["skill"] = self.skill
        if self.targets:
            d["targets"] = list(self.targets)
        if self.text:
            d["text"] = self.text
        if self.draws:
            d["draws"] = self.draws
        return d


@dataclass(frozen=True, slots=True)
class TableEnd:
    """Where the log arrived: the last sequence number, a digest of the board, the outcome if over."""

    seq: int
    digest: str
    outcome: Outcome | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "seq": self.seq,
            "digest": self.digest,
            "outcome": None if self.outcome is None else self.outcome.to_dict(),
        }


@dataclass(frozen=True, slots=True)
class TableLog:
    """A whole table: header, moves in order, and (when written by a table) the end it reached."""

    header: TableHeader
    moves: tuple[LoggedMove, ...] = ()
    end: TableEnd | None = None
    format: int = LOG_FORMAT

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": self.format,
            "header": self.header.to_dict(),
            "moves": [m.to_dict() for m in self.moves],
            "end": None if self.end is None else self.end.to_dict(),
        }

    def to_json(self) -> bytes:
        """Compact JSON bytes, same input same bytes."""
        return json.dumps(self.to_dict(), separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode()

    @classmethod
    def from_json(cls, data: bytes | str) -> TableLog:
        """Decode and shape-check; raises :class:`InvalidTableLog` naming the bad field."""
        return cls.from_dict(hr.read_json(data, InvalidTableLog))

    @classmethod
    def from_dict(cls, raw: Any) -> TableLog:
        r = _Reader()
        d = r.obj(raw, "log", ("format", "header", "moves"), ("end",))
        fmt = r.int_(d["format"], "log.format")
        if fmt != LOG_FORMAT:
            r.fail("log.format", f"format {fmt} is not {LOG_FORMAT}")
        header = _header(r, d["header"])
        moves = tuple(_move(r, x, f"log.moves[{i}]") for i, x in enumerate(r.list_(d["moves"], "log.moves")))
        end_raw = d.get("end")
        end = None if end_raw is None else _end(r, end_raw)
        return cls(header, moves, end, fmt)


class _Reader:
    """Typed field access that raises :class:`InvalidTableLog` with the path of the bad field."""

    def fail(self, where: str, what: str) -> NoReturn:
        raise InvalidTableLog(f"{where}: {what}")

    def obj(self, v: Any, where: str, required: tuple[str, ...], optional: tuple[str, ...] = ()) -> dict[str, Any]:
        if type(v) is not dict:
            self.fail(where, "expected an object")
        for k in required:
            if k not in v:
                self.fail(where, f"missing field {k!r}")
        extra = sorted(set(v) - set(required) - set(optional))
        if extra:
            self.fail(where, f"unknown field {extra[0]!r}")
        return v

    def str_(self, v: Any, where: str) -> str:
        if type(v) is not str:
            self.fail(where, "expected a string")
        return v

    def int_(self, v: Any, where: str) -> int:
        if type(v) is not int:
            self.fail(where, "expected a whole number")
        return v

    def list_(self, v: Any, where: str) -> list[Any]:
        if type(v) is not list:
            self.fail(where, "expected an array")
        return v

    def strs(self, v: Any, where: str) -> tuple[str, ...]:
        return tuple(self.str_(x, f"{where}[{i}]") for i, x in enumerate(self.list_(v, where)))


def _header(r: _Reader, raw: Any) -> TableHeader:
    w = "log.header"
    h = r.obj(raw, w, ("table", "game", "version", "options", "seats", "seed"))
    opts = h["options"]
    if type(opts) is not dict:
        r.fail(f"{w}.options", "expected an object")
    for k, v in opts.items():
        if type(v) not in (bool, int, str):
            r.fail(f"{w}.options.{k}", "expected true/false, a whole number or a text")
    return TableHeader(
        r.str_(h["table"], f"{w}.table"),
        r.str_(h["game"], f"{w}.game"),
        r.str_(h["version"], f"{w}.version"),
        MappingProxyType(dict(sorted(opts.items()))),
        r.strs(h["seats"], f"{w}.seats"),
        r.int_(h["seed"], f"{w}.seed"),
    )


def _move(r: _Reader, raw: Any, where: str) -> LoggedMove:
    m = r.obj(raw, where, ("seq", "move"), ("seat", "skill", "targets", "text", "draws"))
    kind = r.str_(m["move"], f"{where}.move")
    if kind not in MOVE_KINDS:
        r.fail(f"{where}.move", f"unknown move {kind!r}")
    draws = r.int_(m.get("draws", 0), f"{where}.draws")
    if draws < 0:
        r.fail(f"{where}.draws", "negative")
    seat = m.get("seat")
    return LoggedMove(
        r.int_(m["seq"], f"{where}.seq"),
        kind,
        None if seat is None else r.str_(seat, f"{where}.seat"),
        r.str_(m.get("skill", ""), f"{where}.skill"),
        r.strs(m.get("targets", []), f"{where}.targets"),
        r.str_(m.get("text", ""), f"{where}.text"),
        draws,
    )


def _end(r: _Reader, raw: Any) -> TableEnd:
    w = "log.end"
    e = r.obj(raw, w, ("seq", "digest", "outcome"))
    out_raw = e["outcome"]
    outcome = None
    if out_raw is not None:
        o = r.obj(out_raw, f"{w}.outcome", ("winners", "ending", "table", "seats"))
        try:
            outcome = Outcome(
                r.strs(o["winners"], f"{w}.outcome.winners"),
                r.str_(o["ending"], f"{w}.outcome.ending"),
                o["table"],
                o["seats"],
            )
        except InvalidGame as exc:
            r.fail(f"{w}.outcome", exc.message)
    return TableEnd(r.int_(e["seq"], f"{w}.seq"), r.str_(e["digest"], f"{w}.digest"), outcome)
