"""The presenter and the replay steps without a browser: words, target pickers, god and seat views."""

from __future__ import annotations

import contextlib
import random
import re

import hiddenrole as hr
from hiddenrole.host import Move, Table
from hiddenrole.host.catalog import get
from hiddenrole.server.bots import choices
from hiddenrole.server.web.endpoints import replay_view
from hiddenrole.server.web.present import legal_actions, present

IDENTIFIER = re.compile(r"\b[A-Z]{2,}_[A-Z_]+\b")


WORDS = frozenset({"text", "name", "label", "phase", "role", "camp", "identity", "prompt", "ending", "value"})
"""Fields the page shows as text (``skill``, ``id`` and ``seat`` are what the page sends back)."""


def _texts(x: object) -> str:
    if isinstance(x, dict):
        return " ".join(str(v) if k in WORDS and not isinstance(v, (dict, list)) else _texts(v) for k, v in x.items())
    if isinstance(x, list):
        return " ".join(_texts(v) for v in x)
    return ""


def _played(game: str, seats: int, seed: int) -> Table:
    """A table played to the end by random legal moves (the server's bot policy), phases ended by the host."""
    t = Table.open(get(game), seats, None, seed)
    rng = random.Random(seed)
    for _ in range(500):
        if t.over:
            break
        for s in t.seats:
            for o in choices(t.rules.config, t.view(s).to_dict(), rng)[:1]:
                with contextlib.suppress(hr.GameError):
                    t.play(Move(o["kind"], s, o.get("skill", ""), tuple(o.get("targets", ()))))
        if not t.over:
            t.end_phase()
    assert t.over
    return t


def test_every_seat_reads_words_not_identifiers() -> None:
    for game, n in (("werewolf", 6), ("missions", 5), ("onenight", 4)):
        t = Table.open(get(game), n, None, 3)
        for reader in (*t.seats, None):
            p = present(t.view(reader).to_dict(), t.rules.config)
            assert not IDENTIFIER.search(_texts(p)), (game, reader, IDENTIFIER.search(_texts(p)))
            assert p["events"] and all(e["text"] for e in p["events"])


def test_one_night_centre_cards_are_offered_by_name() -> None:
    for seed in range(100):
        t = Table.open(get("onenight"), 3, None, seed)
        seers = [s for s in t.seats if t.view(s).to_dict()["me"]["role"] == "ON_SEER"]
        if seers:
            break
    seer = seers[0]
    while not t.view(seer).me.allowed_skills:  # type: ignore[union-attr]
        t.end_phase()
    actions = legal_actions(t.view(seer).to_dict(), t.rules.config)
    centre = [a for a in actions if a["pool"]]
    assert centre and [x["id"] for x in centre[0]["targets"]] == ["0", "1", "2"]
    assert centre[0]["targets"][0]["label"] == "centre card 0"
    assert (centre[0]["min"], centre[0]["max"]) == (2, 2)
    players = [a for a in actions if not a["pool"]]
    assert players and seer not in [x["id"] for x in players[0]["targets"]]


def test_replay_steps_show_the_seat_then_and_the_god_view() -> None:
    t = _played("werewolf", 6, 5)
    log = t.log()
    total = len(log.moves)
    last = replay_view(log, None, "god")
    assert last["at"] == total and last["view"]["outcome"] is not None
    first = replay_view(log, 0, "god")
    assert all(p["role"] for p in first["view"]["players"])  # the god view knows every card from the deal
    seat = replay_view(log, 0, "p1")["view"]
    assert [p["seat"] for p in seat["players"] if p["role"]][:1] == ["p1"]
    spectator = replay_view(log, 0, "spectator")["view"]
    assert not any(p["role"] for p in spectator["players"])
    assert replay_view(log, 10**6, "p1")["at"] == total
