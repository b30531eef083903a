"""Invariant H now covers what evil players learn about each other during play.

Evil seats know their fellows as role info, not as kernel teammates, so an evil
viewer's side is that seat alone and the twin deals move the other evil roles among
the evil seats. A planted private message that tells the evil seats which role each
of them holds must therefore be found (with the old teammates the whole evil team was
the side, its roles fixed in both deals, and H could not see it).
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterable

import hiddenrole as hr
from hiddenrole import enginetest as et
from hiddenrole.games import missions as ms

from .support import planted_leak_found
from .test_missions_harness import CHUNKS, spec_for

WHISPER = "MS_TEST_WHISPER"
"""The planted event: sent to the evil seats that know each other, naming their roles."""


def _told(view: hr.GameView) -> list[hr.PlayerInfo]:
    """The evil seats that know each other (all but Oberon): the whisper's audience and subject."""
    return [p for p in view.all_players() if p.role != ms.OBERON and ms.camp_of(p.role) == ms.EVIL]


def _whisper(effect: hr.Effect, view: hr.GameView) -> list[hr.Effect] | None:
    if effect.type != ms.LEADER or effect.canceled:
        return None
    roles = ",".join(f"{p.id}={p.role}" for p in _told(view))
    return [effect, hr.Effect(WHISPER).with_data("roles", roles)]


def _leaky(rules: hr.Rules) -> hr.Rules:
    inner = rules.audience
    assert callable(inner)

    def audience(event: hr.Event, view: hr.GameView) -> Iterable[str] | None:
        if event.type == WHISPER:
            return tuple(p.id for p in _told(view))
        return inner(event, view)

    return dataclasses.replace(rules, audience=audience).with_interceptors(_whisper)


def test_h_sees_evil_seats_told_each_others_roles() -> None:
    spec = spec_for(CHUNKS[0])
    setup = spec.setup

    def leaky(rng: random.Random) -> et.Game:
        game = setup(rng)
        return et.Game(_leaky(game.rules), game.seats, game.engine_type)

    assert spec.leaks is not None
    leaks = dataclasses.replace(spec.leaks, games=8, roles=(ms.ASSASSIN, ms.MORGANA, ms.MINION))
    err = planted_leak_found(dataclasses.replace(spec, setup=leaky, games=8, must_see=(), leaks=leaks))
    assert WHISPER in str(err)
