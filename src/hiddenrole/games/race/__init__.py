"""The race: roll a die in turn, first to the finish wins. No hidden roles at all.

It exists to show that the kernel is not tied to hidden-role games: seats take
turns in seat order (a SEQUENTIAL phase, one move per turn), each turn is resolved
as soon as it ends so the next racer sees the new positions, and anyone may taunt
anyone at any time (an out-of-turn skill).

The rules hold no randomness. Whoever runs the game draws the die and writes it to
the :data:`VAR_DIE` game variable just before submitting a :data:`ROLL` (a host
does this through :func:`die_effect` and ``Engine.apply``); the resolver reads it,
moves the racer and clears it, so a die value is never used twice.

Tracks: on the ``short`` track reaching or passing the target finishes; on the
``long`` track the finish must be hit exactly and any excess bounces the racer back.
The race ends at the end of the round in which somebody finished, so everyone gets
the same number of rolls; every racer on the finish then wins.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import hiddenrole as hr

__all__ = [
    "NAME",
    "VERSION",
    "RACE",
    "RACER",
    "ROLL",
    "TAUNT",
    "ROLLED",
    "FINISHED",
    "TAUNTED",
    "VAR_DIE",
    "VAR_POSITION",
    "VAR_ROUNDS",
    "SHORT",
    "LONG",
    "TRACKS",
    "DIE_SIDES",
    "MIN_SEATS",
    "MAX_SEATS",
    "MIN_TARGET",
    "MAX_TARGET",
    "DEFAULT_TARGET",
    "DEFAULT_TRACK",
    "config",
    "rules",
    "new_engine",
    "die_effect",
    "position",
    "positions",
    "rounds_played",
    "advance",
]

NAME = "race"
VERSION = "1"

RACE = "RACE"
"""The only phase: one round of turns, looping until somebody finishes."""
RACER = "RACER"
"""The only role; every seat holds it and it is no secret."""

ROLL = "ROLL"
"""Skill: move forward by the die the host wrote to :data:`VAR_DIE`. Ends the turn."""
TAUNT = "TAUNT"
"""Out-of-turn skill: jeer at another racer. Changes nothing but the mood."""

ROLLED = "ROLLED"
"""Event: ``source`` rolled; data ``die``, ``from``, ``to`` (and ``bounced`` on the long track)."""
FINISHED = "FINISHED"
"""Event: ``source`` reached the finish."""
TAUNTED = "TAUNTED"
"""Event: ``source`` taunted ``target``."""

VAR_DIE = "die"
"""Game variable holding the die for the next roll (written by the host, cleared by the rules)."""
VAR_POSITION = "position"
"""Player variable (game scope): squares covered so far."""
VAR_ROUNDS = "rounds"
"""Game variable: rounds completed."""

SHORT = "short"
LONG = "long"
TRACKS = (SHORT, LONG)
DIE_SIDES = 6
MIN_SEATS = 2
MAX_SEATS = 4
MIN_TARGET = 10
MAX_TARGET = 100
DEFAULT_TARGET = 20
DEFAULT_TRACK = SHORT


def _int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        return 0


def position(view: hr.GameView, player_id: str) -> int:
    """Squares ``player_id`` has covered (0 for an unknown racer)."""
    return _int(view.var(hr.GAME.of(player_id), VAR_POSITION) or "0")


def positions(view: hr.GameView) -> dict[str, int]:
    """Every racer's position, by seat id in seat order."""
    return {p.id: _int(p.vars.get(VAR_POSITION, "0")) for p in view.all_players()}


def rounds_played(view: hr.GameView) -> int:
    """Rounds completed so far."""
    return _int(view.var(hr.GAME, VAR_ROUNDS) or "0")


def advance(start: int, die: int, target: int, track: str) -> tuple[int, bool]:
    """Where a racer at ``start`` lands after ``die``, and whether it bounced.

    Kept separate from the resolver so the track rule can be tested on its own.
    """
    landed = start + die
    if landed <= target:
        return landed, False
    if track == SHORT:
        return target, False
    return target - (landed - target), True


def die_effect(value: int) -> hr.Effect:
    """The effect a host applies before a :data:`ROLL` to hand the rules its die."""
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= DIE_SIDES:
        raise hr.InvalidArgument(f"a die shows 1..{DIE_SIDES}, got {value!r}")
    return hr.set_var(hr.GAME, VAR_DIE, str(value))


def _check(target: int, track: str) -> None:
    if isinstance(target, bool) or not isinstance(target, int) or not MIN_TARGET <= target <= MAX_TARGET:
        raise hr.InvalidArgument(f"target must be a whole number in {MIN_TARGET}..{MAX_TARGET}, got {target!r}")
    if track not in TRACKS:
        raise hr.InvalidArgument(f"track must be one of {', '.join(TRACKS)}, got {track!r}")


def _turn_resolver(target: int, track: str) -> hr.Resolver:
    """Resolve one turn (or one taunt) the moment it ends."""

    class _Turn:
        def resolve(self, uses: Sequence[hr.SkillUse], view: hr.GameView) -> list[hr.Effect]:
            out: list[hr.Effect] = []
            for use in uses:
                if use.skill == TAUNT:
                    out.append(hr.Effect(TAUNTED, source=use.player_id, target=use.target))
                elif use.skill == ROLL:
                    out += _roll(use.player_id, view, target, track)
            return out

    return _Turn()


def _roll(player_id: str, view: hr.GameView, target: int, track: str) -> list[hr.Effect]:
    raw = view.var(hr.GAME, VAR_DIE)
    die = _int(raw)
    if not 1 <= die <= DIE_SIDES:
        # A roll without a die is the host's mistake; the kernel rolls everything back.
        raise hr.InvalidArgument(f"ROLL needs the {VAR_DIE!r} variable set to 1..{DIE_SIDES}, found {raw!r}")
    start = position(view, player_id)
    landed, bounced = advance(start, die, target, track)
    rolled = (
        hr.Effect(ROLLED, source=player_id)
        .with_data("die", str(die))
        .with_data("from", str(start))
        .with_data("to", str(landed))
    )
    if bounced:
        rolled = rolled.with_data("bounced", "true")
    out = [
        rolled,
        hr.set_var(hr.GAME.of(player_id), VAR_POSITION, str(landed)),
        hr.set_var(hr.GAME, VAR_DIE, ""),
    ]
    if landed == target:
        out.append(hr.Effect(FINISHED, source=player_id))
    return out


def _end_round(uses: Sequence[hr.SkillUse], view: hr.GameView) -> list[hr.Effect]:
    """A round is over when every racer has rolled: count it."""
    return [hr.set_var(hr.GAME, VAR_ROUNDS, str(view.round))]


def _victory(target: int) -> hr.VictoryChecker:
    class _Finish:
        def check_victory(self, view: hr.GameView) -> Iterable[str] | None:
            done = sorted(pid for pid, pos in positions(view).items() if pos >= target)
            # Camps are seat ids: every racer is its own side.
            return done or None

    return _Finish()


def config() -> hr.Config:
    """One looping phase of sequential turns; taunts are allowed out of turn."""
    return hr.Config(
        start_phase=RACE,
        phases={
            RACE: hr.PhaseConfig(
                steps=(
                    hr.PhaseStep("", ROLL, required=True),
                    hr.PhaseStep("", TAUNT, min_targets=1, max_targets=1, allow_self_target=False),
                ),
                next_phase=RACE,
                on_enter=(hr.CLEAR_ROUND_VARS,),
                on_exit=(hr.ADVANCE_ROUND,),
                turn_order=hr.SEQUENTIAL,
                moves_per_turn=1,
                out_of_turn=(TAUNT,),
            )
        },
    )


def _everyone(event: hr.Event, view: hr.GameView) -> tuple[str, ...]:
    """Nothing in a race is secret."""
    return view.player_ids()


def _racer(player_id: str, role: str) -> dict[str, str]:
    return {hr.VAR_CAMP: player_id, VAR_POSITION: "0"}


def rules(target: int = DEFAULT_TARGET, track: str = DEFAULT_TRACK) -> hr.Rules:
    """The race to ``target`` squares on ``track`` (``short`` or ``long``)."""
    _check(target, track)
    return hr.Rules(
        config(),
        name=NAME,
        version=VERSION,
        resolvers={RACE: _end_round},
        turn_resolvers={RACE: _turn_resolver(target, track)},
        victory=_victory(target),
        role_setup={RACER: _racer},
        audience=_everyone,
    )


def new_engine(seats: Sequence[str], target: int = DEFAULT_TARGET, track: str = DEFAULT_TRACK) -> hr.Engine:
    """An engine with ``seats`` (2..4 racers) seated, not started."""
    if isinstance(seats, str) or not MIN_SEATS <= len(seats) <= MAX_SEATS:
        raise hr.InvalidArgument(f"a race seats {MIN_SEATS}..{MAX_SEATS} racers")
    engine = hr.Engine(rules(target, track))
    for seat in seats:
        engine.add_player(seat, RACER)
    return engine
