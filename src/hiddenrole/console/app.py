"""The console: a command loop over one engine.

Two modes. As **host** (no ``--human``) you see the god view and drive every seat:
``act``, ``say``, ``end``, ``run``. As a **player** (``--human SEAT``) you see only what
your seat may see; bots fill the other seats and phases end by themselves once you
have acted (or typed ``pass``). Commands come from stdin, so a script or a test can
play a whole game.
"""

from __future__ import annotations

import argparse
import json
import random
import shlex
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import IO

from rich.console import Console as RichConsole
from rich.markup import escape
from rich.table import Table

import hiddenrole as hr
from hiddenrole.agents import RandomAgent

from .games import GAMES, GameEntry, Setup, role_reveal

__all__ = ["Console", "main"]

SAVE_FORMAT = "hiddenrole-console/1"
MAX_PHASES = 1000

HELP = """commands:
  status                      phase, round, who is alive
  view SEAT                   what SEAT may see (as a player: your own seat only)
  act SEAT SKILL [TARGET...]  submit a skill use (as a player: act SKILL [TARGET...])
  pass                        (player) do nothing this phase
  say SEAT TEXT...            send a message (as a player: say TEXT...)
  god                         (host) moderator's view of this phase
  pending                     (host) who still must or may act
  auto                        (host) bots act for their seats in this phase
  end                         (host) end the phase
  run                         (host) bots act and phases end until the game is over
  save FILE | load FILE       save or load the table
  reveal                      roles of everyone (host, or after the game)
  help | quit"""


class Console:
    """One table at the terminal. ``out`` receives all output; feed lines to :meth:`handle`."""

    def __init__(
        self,
        setup: Setup,
        *,
        bots: bool = False,
        human: str | None = None,
        out: IO[str] | None = None,
        width: int = 100,
    ) -> None:
        self.out = RichConsole(file=out or sys.stdout, width=width, highlight=False, soft_wrap=True)
        self.entry = _entry(setup.game)
        self.setup = setup
        self.rules = self.entry.rules(setup)
        self.engine = hr.Engine(self.rules)
        self.entry.seat(setup, self.engine)
        self.human = human
        if human is not None and human not in self.engine.player_ids():
            raise SystemExit(f"--human {human!r}: no such seat (seats: {', '.join(self.engine.player_ids())})")
        self.bots = {pid for pid in self.engine.player_ids() if bots and pid != human}
        self.agent = RandomAgent(self.rules, random.Random(setup.seed * 7919 + 1), self.entry.choose_targets)
        self._passed = False
        self._wire()
        self.engine.start()
        self._phase_header()

    # ---------------------------------------------------------------- wiring

    def _wire(self) -> None:
        self.engine.on_event(self._on_event)
        self.engine.on_message(self._on_message)

    def _on_event(self, event: hr.Event) -> None:
        if self.human is not None:
            audience = self.engine.audience_of(event)
            if audience is None or self.human not in audience:
                return
        data = " ".join(f"{k}={v}" for k, v in event.data.items())
        who = f"{event.source}→{event.target}" if event.source and event.target else event.source or event.target
        note = f" (cancelled: {event.reason})" if event.canceled else ""
        self.out.print(f"  [bold]{escape(event.type)}[/bold] " + escape(f"{who} {data}{note}".rstrip()))

    def _on_message(self, msg: hr.Message, receivers: tuple[str, ...]) -> None:
        if self.human is not None and self.human not in receivers:
            return
        self.out.print(escape(f"  {msg.sender} says: {msg.content}"))

    # ---------------------------------------------------------------- output

    def _phase_header(self) -> None:
        st = self.engine.status()
        if st.over:
            self._game_over()
            return
        self.out.rule(f"round {st.round} · {st.phase}")
        if self.human is not None:
            self._show_view(self.human)

    def _game_over(self) -> None:
        st = self.engine.status()
        winners = ", ".join(st.winners) if st.winners else "nobody"
        self.out.rule("game over")
        self.out.print(f"winners: [bold]{winners}[/bold]")
        self._reveal()

    def _reveal(self) -> None:
        lines = (self.entry.reveal or role_reveal)(self.engine)
        for line in lines:
            self.out.print(escape(f"  {line}"))

    def _show_status(self) -> None:
        st = self.engine.status()
        self.out.print(f"phase {st.phase}, round {st.round}" + (", over" if st.over else ""))
        self.out.print("alive: " + ", ".join(self.engine.alive_player_ids()))

    def _show_view(self, pid: str) -> None:
        v = self.engine.player_view(pid)
        table = Table(title=f"{pid} sees · round {v.round} · {v.phase}", show_lines=False)
        table.add_column("player")
        table.add_column("alive")
        table.add_column("role")
        for p in v.players:
            table.add_row(p.id + (" (you)" if p.id == pid else ""), "yes" if p.alive else "no", p.role or "?")
        self.out.print(table)
        camp = f", camp {v.self.camp}" if v.self.camp else ""
        self.out.print(f"you are {v.self.role}{camp}; teammates: {', '.join(v.teammates) or '-'}")
        if v.role_info:
            self.out.print(escape("you know: " + ", ".join(f"{k}={val}" for k, val in v.role_info.items())))
        self.out.print("you may: " + (", ".join(v.allowed_skills) or "nothing this phase"))

    def _show_god(self) -> None:
        info = self.engine.phase_info()
        table = Table(title=f"moderator · {info.phase}")
        table.add_column("role")
        table.add_column("players")
        table.add_column("skills")
        table.add_column("knows")
        for role, rinfo in info.roles.items():
            knows = "; ".join(
                f"{pid}: " + ",".join(f"{k}={v}" for k, v in ri.items()) for pid, ri in rinfo.role_info.items() if ri
            )
            table.add_row(role or "(everyone)", ", ".join(rinfo.player_ids), ", ".join(rinfo.allowed_skills), knows)
        self.out.print(table)
        self._show_pending()

    def _show_pending(self) -> None:
        r = self.engine.readiness()
        self.out.print("ready" if r.ready else "not ready")
        for a in r.pending:
            self.out.print(f"  must: {a.player_id} ({a.role}) {a.skill}")
        for a in r.optional:
            self.out.print(f"  may:  {a.player_id} ({a.role}) {a.skill}")
        self.out.print("acted: " + (", ".join(r.acted) or "-"))

    # ---------------------------------------------------------------- actions

    def _bots_act(self) -> None:
        for pid in self.engine.player_ids():
            if pid in self.bots:
                self.agent.act(self.engine, pid)

    def _end_phase(self) -> None:
        self.engine.end_phase()
        self._passed = False
        self._phase_header()

    def _run(self) -> None:
        for _ in range(MAX_PHASES):
            if self.engine.status().over:
                return
            self._bots_act()
            self._end_phase()
        self.out.print(f"stopped after {MAX_PHASES} phases")

    def _advance_for_human(self) -> None:
        """Player mode: bots act and phases end until the human has something to decide."""
        assert self.human is not None
        for _ in range(MAX_PHASES):
            if self.engine.status().over:
                return
            can_act = bool(self.engine.allowed_skills(self.human))
            acted = self.human in self.engine.readiness().acted
            if can_act and not acted and not self._passed:
                return
            self._bots_act()
            self._end_phase()

    # ---------------------------------------------------------------- commands

    def handle(self, line: str) -> bool:
        """Run one command line; returns False when the console should stop."""
        try:
            words = shlex.split(line)
        except ValueError as exc:
            self.out.print(f"error: {exc}")
            return True
        if not words:
            return True
        cmd, args = words[0].lower(), words[1:]
        try:
            return self._dispatch(cmd, args)
        except hr.GameError as exc:
            self.out.print(escape(f"refused: {exc.code}: {exc.message}"))
            return True

    def _dispatch(self, cmd: str, args: list[str]) -> bool:
        host = self.human is None
        if cmd in ("quit", "exit", "q"):
            return False
        if cmd in ("help", "h", "?"):
            self.out.print(HELP)
        elif cmd == "status":
            self._show_status()
        elif cmd == "view":
            pid = args[0] if args else (self.human or "")
            if not host and pid != self.human:
                self.out.print("you may only look at your own seat")
            else:
                self._show_view(pid)
        elif cmd == "act":
            self._act(args, host)
        elif cmd == "pass" and not host:
            self._passed = True
            self._advance_for_human()
        elif cmd == "say":
            self._say(args, host)
        elif cmd in ("god", "pending", "auto", "end", "run") and not host:
            self.out.print("that is the host's command; you play one seat")
        elif cmd == "god":
            self._show_god()
        elif cmd == "pending":
            self._show_pending()
        elif cmd == "auto":
            self._bots_act()
            self._show_pending()
        elif cmd == "end":
            self._end_phase()
        elif cmd == "run":
            self._run()
        elif cmd == "save" and args:
            self.save(Path(args[0]))
        elif cmd == "load" and args:
            self.load(Path(args[0]))
        elif cmd == "reveal":
            if host or self.engine.status().over:
                self._reveal()
            else:
                self.out.print("roles are revealed at the end of the game")
        else:
            self.out.print(f"unknown command {cmd!r}; type help")
        return True

    def _act(self, args: list[str], host: bool) -> None:
        if host:
            if len(args) < 2:
                self.out.print("usage: act SEAT SKILL [TARGET...]")
                return
            pid, skill, targets = args[0], args[1], args[2:]
        else:
            assert self.human is not None
            if not args:
                self.out.print("usage: act SKILL [TARGET...]")
                return
            pid, skill, targets = self.human, args[0], args[1:]
        self.engine.submit(pid, skill.upper() if skill.upper() in self._skills(pid) else skill, targets)
        self.out.print(f"ok: {pid} {skill} {' '.join(targets)}".rstrip())
        if not host:
            self._advance_for_human()

    def _skills(self, pid: str) -> tuple[str, ...]:
        try:
            return self.engine.allowed_skills(pid)
        except hr.GameError:
            return ()

    def _say(self, args: list[str], host: bool) -> None:
        if host:
            if len(args) < 2:
                self.out.print("usage: say SEAT TEXT...")
                return
            self.engine.send_message(args[0], " ".join(args[1:]))
        else:
            assert self.human is not None
            self.engine.send_message(self.human, " ".join(args))

    # ---------------------------------------------------------------- save / load

    def save(self, path: Path) -> None:
        """Write the table (setup + snapshot) to ``path`` as JSON."""
        doc = {
            "format": SAVE_FORMAT,
            "setup": {
                "game": self.setup.game,
                "players": self.setup.players,
                "seed": self.setup.seed,
                "options": dict(sorted(self.setup.options.items())),
            },
            "human": self.human,
            "bots": sorted(self.bots),
            "snapshot": json.loads(self.engine.snapshot().to_json()),
        }
        path.write_text(json.dumps(doc, indent=1, sort_keys=True), encoding="utf-8")
        self.out.print(f"saved to {path}")

    def load(self, path: Path) -> None:
        """Replace the table with the one saved in ``path`` (rules rebuilt from its setup)."""
        try:
            doc = json.loads(path.read_text(encoding="utf-8"))
            if doc.get("format") != SAVE_FORMAT:
                raise ValueError(f"not a {SAVE_FORMAT} file")
            s = doc["setup"]
            setup = Setup(str(s["game"]), int(s["players"]), int(s["seed"]), dict(s.get("options", {})))
            entry = _entry(setup.game)
        except (OSError, ValueError, KeyError, TypeError) as exc:
            self.out.print(f"cannot load {path}: {exc}")
            return
        rules = entry.rules(setup)
        engine = hr.Engine.restore(rules, json.dumps(doc["snapshot"]).encode())
        self.entry, self.setup, self.rules, self.engine = entry, setup, rules, engine
        self.human = doc.get("human")
        self.bots = set(doc.get("bots", []))
        self.agent = RandomAgent(rules, random.Random(setup.seed * 7919 + 1), entry.choose_targets)
        self._wire()
        self.out.print(f"loaded {path}")
        self._phase_header()

    # ---------------------------------------------------------------- loop

    def loop(self, lines: Iterable[str], *, prompt: bool = False) -> None:
        """Read commands until ``quit`` or the end of input."""
        if self.human is not None:
            self._advance_for_human()
        for line in lines:
            if not self.handle(line.strip()):
                return
            if prompt:
                self.out.print("> ", end="")


def _entry(game: str) -> GameEntry:
    entry = GAMES.get(game)
    if entry is None:
        raise SystemExit(f"unknown game {game!r}; choose from: {', '.join(sorted(GAMES))}")
    return entry


def _parse_options(pairs: Sequence[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise SystemExit(f"--option {pair!r}: expected KEY=VALUE")
        out[key] = value
    return out


def add_play_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``hiddenrole play``."""
    parser.add_argument("game", choices=sorted(GAMES), help="which game")
    parser.add_argument("--players", type=int, default=None, help="number of seats")
    parser.add_argument("--seed", type=int, default=1, help="seed for dealing and bots")
    parser.add_argument("--bots", action="store_true", help="bots play every seat except --human")
    parser.add_argument("--human", default=None, help="play this seat yourself (you see only what it may see)")
    parser.add_argument("--variant", default=None, help="game variant (e.g. avalon)")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help="game option")


def run_play(args: argparse.Namespace, stdin: IO[str] | None = None, out: IO[str] | None = None) -> int:
    """``hiddenrole play``: build the table, then autoplay or read commands."""
    entry = _entry(args.game)
    options = _parse_options(args.option)
    if args.variant:
        options["variant"] = args.variant
    setup = Setup(args.game, args.players or entry.default_players, args.seed, options)
    try:
        console = Console(setup, bots=args.bots, human=args.human, out=out)
    except hr.GameError as exc:
        print(f"cannot set up {args.game}: {exc}", file=sys.stderr)
        return 2
    stream = stdin or sys.stdin
    if args.bots and args.human is None:
        console.handle("run")
        return 0
    interactive = stream.isatty()
    if interactive:
        console.out.print("type help for commands")
    console.loop(stream, prompt=interactive)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="hiddenrole play")
    add_play_arguments(parser)
    return run_play(parser.parse_args(argv))
