"""What one host move costs the server at a 9-seat werewolf table (issue 9, load goal).

Run ``python benchmarks/host_moves.py`` (a few seconds; ``--games N``, ``--profile``).
It plays 9-seat werewolf tables to the end through the server's own adapter
(:class:`hiddenrole.server.hostapi.Game`, which subscribes every seat and the
spectator as the server does) and fans each move's notices out to one ``board``
connection per reader through the server's own ``Room._push_notice`` (the board is
built, compared with the one last sent, and the update encoded, as for the load
benchmark's clients). Seats act by random legal moves
(:func:`hiddenrole.server.bots.choices` on the board they were last pushed), each
once per phase visit; when nobody has a move left the host ends the phase, as a
deadline does. Before a phase's acts, each living seat that may speak says
``--talk`` lines (3; the server load's table talk, which is most of its moves).
Each move is timed from ``play`` to the last encoded update.

``--host`` leaves the server out: the tables are the host's own
(:class:`hiddenrole.host.Table`, every reader subscribed with a callback that drops the
notice) and seats pick random allowed acts from their board core, so the figures are
the host layer's (and the kernel's) alone.

It prints microseconds per ``end-phase`` move, per act and per say (median over
the games), and a machine-readable line::

    kind=host_moves end_phase_us=... act_us=... say_us=... end_phases=... acts=... says=...

Compare two trees in one run by running it twice with ``PYTHONPATH`` set to each
tree's ``src`` (the machine is shared: read ratios, not absolute numbers).
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import statistics
import sys
import time
from typing import Any

import hiddenrole as hr
from hiddenrole.host import Move, Table
from hiddenrole.host.catalog import get
from hiddenrole.server.bots import choices
from hiddenrole.server.hostapi import Game, Notice, Reader
from hiddenrole.server.rooms import Room

SEATS = 9
TALK = 3
"""Default lines each living seat says per phase where it may speak (``--talk``)."""


class BoardConn:
    """A ``board: true`` client as a room sees it: it keeps only the last message."""

    wants_views = False
    wants_board = True

    def __init__(self, reader: Reader) -> None:
        self.reader = reader
        self.board_sent: dict[str, Any] | None = None
        self.last: dict[str, Any] | None = None

    def push(self, data: bytes, message: dict[str, Any]) -> None:
        self.last = message


class FanOut:
    """Just what ``Room._push_notice`` reads of a room: its game, connections and public state."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.conns: dict[Reader, list[BoardConn]] = {r: [BoardConn(r)] for r in game.readers}
        for r, (c,) in self.conns.items():
            c.board_sent = game.board(r)  # the welcome's view

    def table_state(self) -> dict[str, Any]:
        return {"deadline": None, "paused": False}

    def send(self, notices: dict[Reader, Notice]) -> None:
        state = self.table_state()
        for reader in self.game.readers:
            n = notices.get(reader)
            if n is not None:
                Room._push_notice(self, reader, n, state)  # type: ignore[arg-type]  # the room's own code


def play_game(seed: int, times: dict[str, list[float]], talk: int = TALK) -> None:
    """One table to the end; appends each timed move's microseconds under its kind."""
    rng = random.Random(seed)
    game = Game.open("werewolf", SEATS, None, seed, table_id=f"bench-{seed}")
    config = game.rules.config
    fan = FanOut(game)
    clock = time.thread_time_ns  # CPU time of this thread: the machine is shared
    for _ in range(2000):
        if game.over:
            return
        for line in range(talk):
            for seat in game.seats:
                board = fan.conns[seat][0].board_sent
                assert board is not None
                if board["over"] or "say" not in board["moves"] or not board["me"]["alive"]:
                    continue
                t0 = clock()
                notices = game.play(Move("say", seat, text=f"line {line} from {seat}"))
                fan.send(notices)
                times["say"].append((clock() - t0) / 1000)
        done: set[str] = set()
        while True:
            order = [s for s in game.seats if s not in done]
            rng.shuffle(order)
            moved = False
            for seat in order:
                board = fan.conns[seat][0].board_sent
                assert board is not None
                opts = choices(config, board, rng)
                done.add(seat)
                if not opts:
                    continue
                o = opts[0]
                t0 = clock()
                try:
                    notices = game.play(Move(o["kind"], seat, o.get("skill", ""), tuple(o.get("targets", ()))))
                except hr.GameError:
                    continue
                fan.send(notices)
                times["act"].append((clock() - t0) / 1000)
                moved = True
                break
            if not moved or game.over:
                break
        if game.over:
            return
        t0 = clock()
        notices = game.end_phase()
        fan.send(notices)
        times["end-phase"].append((clock() - t0) / 1000)
    raise SystemExit(f"seed {seed}: the game did not end")


def play_host(seed: int, times: dict[str, list[float]], talk: int = TALK) -> None:
    """One host table to the end, no server: says, then random allowed acts, then the phase end."""
    rng = random.Random(seed)
    table = Table.open(get("werewolf"), SEATS, None, seed, table_id=f"bench-{seed}")
    for reader in (*table.seats, None):
        table.subscribe(reader, lambda notice: None)
    clock = time.thread_time_ns
    for _ in range(2000):
        if table.over:
            return
        for line in range(talk):
            for seat in table.seats:
                core = table.board(seat)
                assert core is not None
                if core.over or "say" not in core.moves:
                    continue
                t0 = clock()
                table.play(Move("say", seat, text=f"line {line} from {seat}"))
                times["say"].append((clock() - t0) / 1000)
        for seat in rng.sample(table.seats, len(table.seats)):
            core = table.board(seat)
            assert core is not None and core.me is not None
            if core.over or not core.me.allowed_skills:
                continue
            skill = rng.choice(core.me.allowed_skills)
            only = core.me.targets_for(skill)
            pool = list(only) if only is not None else [p.seat for p in core.players if p.alive]
            t0 = clock()
            try:
                table.play(Move("act", seat, skill, (rng.choice(pool),) if pool else ()))
            except hr.GameError:
                continue
            times["act"].append((clock() - t0) / 1000)
        if table.over:
            return
        t0 = clock()
        table.play(Move("end-phase"))
        times["end-phase"].append((clock() - t0) / 1000)
    raise SystemExit(f"seed {seed}: the game did not end")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--talk", type=int, default=TALK, help="lines each living seat says per phase where it may speak")
    ap.add_argument("--host", action="store_true", help="the host's own tables, no server (see above)")
    ap.add_argument("--profile", action="store_true", help="cProfile the run and print the top functions")
    args = ap.parse_args(argv)
    play = play_host if args.host else play_game
    play(0, {"act": [], "end-phase": [], "say": []}, args.talk)  # warm up
    times: dict[str, list[float]] = {"act": [], "end-phase": [], "say": []}
    prof = cProfile.Profile() if args.profile else None
    if prof is not None:
        prof.enable()
    for g in range(args.games):
        play(args.seed + g, times, args.talk)
    if prof is not None:
        prof.disable()
        pstats.Stats(prof, stream=sys.stdout).sort_stats("cumulative").print_stats(40)
        pstats.Stats(prof, stream=sys.stdout).sort_stats("tottime").print_stats(25)
    ep, act, say = times["end-phase"], times["act"], times["say"] or [0.0]
    clients = "no server" if args.host else "board clients"
    print(f"{args.games} werewolf tables x {SEATS} seats + spectator, {clients}")
    print(f"end-phase: {len(ep):6d} moves  median {statistics.median(ep):8.1f} us  mean {statistics.fmean(ep):8.1f} us")
    print(
        f"act:       {len(act):6d} moves  median {statistics.median(act):8.1f} us  mean {statistics.fmean(act):8.1f} us"
    )
    print(
        f"say:       {len(times['say']):6d} moves  median {statistics.median(say):8.1f} us"
        f"  mean {statistics.fmean(say):8.1f} us"
    )
    print(
        f"kind=host_moves end_phase_us={statistics.median(ep):.1f} act_us={statistics.median(act):.1f}"
        f" say_us={statistics.median(say):.1f}"
        f" end_phase_mean_us={statistics.fmean(ep):.1f} act_mean_us={statistics.fmean(act):.1f}"
        f" say_mean_us={statistics.fmean(say):.1f}"
        f" end_phases={len(ep)} acts={len(act)} says={len(times['say'])}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
