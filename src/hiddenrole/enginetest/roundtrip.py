"""JSON round trips of a growing log, each entry encoded and decoded once per game.

An engine's log only grows, so a step's snapshot or log is the previous one plus a
tail. Sending the whole history through JSON after every step makes a game's check
cost grow with the square of its length; :class:`GrowingLog` sends only the tail
(framed as a log of its own, so it is the real encoder and decoder at work) and keeps
the decoded entries, so the value handed to ``restore`` or ``replay`` is still built
entirely from decoded JSON. A log whose history changed (not a prefix of the next
one) is decoded again from scratch, so nothing is taken on trust.

The schedule (:class:`ReplaySchedule`) decides when the whole log is replayed: at
the start, whenever the log has doubled since the last replay, and at the end, with
every check (:data:`FULL`); at the first step in each phase, for the log and board
only (:data:`BOARD`). Each replay costs the log's length, so a game's replays cost a
small multiple of its final length (times the number of phases), not its square.
"""

from __future__ import annotations

import dataclasses

import hiddenrole as hr

__all__ = ["BOARD", "FULL", "GrowingLog", "ReplaySchedule", "RoundTripError", "roundtrip_snapshot"]


class RoundTripError(Exception):
    """The JSON of a log or snapshot does not decode to the value it came from."""


class GrowingLog:
    """The decoded copy of a log that grows, built one JSON round trip of its tail at a time."""

    __slots__ = ("_decoded", "_seen", "_well_typed")

    def __init__(self) -> None:
        self._seen: tuple[hr.Effect, ...] = ()
        self._decoded: tuple[hr.Effect, ...] = ()
        self._well_typed = True

    def roundtrip(self, log: hr.GameLog) -> hr.GameLog:
        """``log`` as decoded from JSON; only entries new since the last call are encoded and decoded.

        The result is marked ``well_typed`` exactly when every decoded tail was (the
        decoder marks what it type-checked), as a log read from JSON bytes by a host
        would be: ``restore`` and ``replay`` then skip re-checking every entry's types,
        which would make each step's restore cost the game's length.
        """
        effects = log.effects
        k = len(self._seen)
        if len(effects) < k or effects[:k] != self._seen:
            k, self._decoded, self._well_typed = 0, (), True  # history changed: decode all of it again
        tail = hr.GameLog(log.rules_name, log.rules_version, effects[k:], log.version)
        data = tail.to_json()
        parsed = hr.GameLog.from_json(data)
        if parsed != tail and parsed.to_json() != data:
            raise RoundTripError(f"log entries {k}..{len(effects) - 1}: the JSON does not decode to the entries")
        self._seen = effects
        self._decoded = self._decoded + parsed.effects
        self._well_typed = self._well_typed and parsed.well_typed
        return hr.GameLog(
            parsed.rules_name, parsed.rules_version, self._decoded, parsed.version, well_typed=self._well_typed
        )


def roundtrip_snapshot(snap: hr.Snapshot, log: GrowingLog) -> hr.Snapshot:
    """``snap`` as decoded from JSON: its board whole, its log through ``log`` (tail only)."""
    decoded_log = log.roundtrip(snap.log)
    board = dataclasses.replace(snap, log=hr.GameLog(snap.rules_name, snap.rules_version, (), snap.log.version))
    data = board.to_json()
    parsed = hr.Snapshot.from_json(data)
    if parsed != board and parsed.to_json() != data:
        raise RoundTripError("the snapshot's board does not decode to the board it came from")
    return dataclasses.replace(parsed, log=decoded_log)


FULL = "full"
"""A replay step on which the replayed engine's behaviour is compared too, and A also restores verified."""
BOARD = "board"
"""A replay step on which the replayed log and board are compared (no views are built)."""


class ReplaySchedule:
    """When to replay the whole log: start, log doubled, end (:data:`FULL`); first step in a phase (:data:`BOARD`)."""

    __slots__ = ("_length", "_phases")

    def __init__(self) -> None:
        self._phases: set[str] = set()
        self._length = 0

    def due(self, phase: hr.PhaseType, log_length: int, last: bool) -> str | None:
        """What this step replays; ``last`` is the final step of the game (over or out of steps)."""
        new_phase = phase not in self._phases
        self._phases.add(phase)
        if last or log_length >= 2 * self._length:
            self._length = max(log_length, 1)
            return FULL
        return BOARD if new_phase else None
