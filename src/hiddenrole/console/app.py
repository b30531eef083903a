"""The console: a command loop over one hosted table.

Everything goes through a :class:`hiddenrole.host.Table`. Every act, say, end of a
phase or a turn, every undo and every bot's choice is a move in the table's log, and
chance (the race's die) is drawn by the table from its seed. Saving writes that log;
loading replays it, and the host refuses a log of another game or rules version.

Two modes. As **host** (no ``--human``) you read every seat's view and drive every
seat: ``act``, ``say``, ``end``, ``end-turn``, ``undo``, ``run``. As a **player**
(``--human SEAT``) you read only your seat's table view; bots play the other seats
and the console ends each phase once you have decided (or typed ``pass``). Commands
come from stdin, so a script or a test can play a whole game.

What is printed after a move comes from the table's pushes: a player's console
subscribes to its seat (and so prints exactly what that seat was sent), the host's
console to the host's record of every move. Tables get random ids.
"""

from __future__ import annotations

import argparse
import random
import shlex
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import IO, Final

from rich.console import Console as RichConsole
from rich.markup import escape
from rich.table import Table as RichTable

import hiddenrole as hr
from hiddenrole.host import ChatLine, HostNotice, Notice, SeatNotFound, SeenEvent, Table, TableView, verify

from .bots import Bot, owes_move
from .games import (
    catalog_lines,
    data_lines,
    default_seats,
    definition,
    event_text,
    games,
    move_text,
    option_lines,
    parse_pairs,
    value_text,
)

__all__ = ["Console", "add_play_arguments", "run_play", "main"]

MAX_PASSES: Final = 5000
"""Rounds of bot moves and phase ends ``run`` makes before it gives up on a game that will not end."""
SPECTATE_TAIL: Final = 12
"""Public lines ``spectate`` repeats."""

HOST_HELP = """host commands (every change is a move in the table's log):
  status                      phase, round, turn, who is alive, the public board
  view SEAT | spectate        what SEAT may see | what a spectator may see
  god | pending               every seat's role and choices | who still must or may act
  act SEAT SKILL [TARGET...]  SEAT uses SKILL (case-insensitive; MS_/ON_ prefixes optional)
  say SEAT TEXT...            SEAT speaks
  end | end-turn SEAT         end the phase | SEAT ends its turn (turn-ordered phases)
  delay-turn SEAT             SEAT waits its turn (initiative phases)
  undo [SEAT]                 take back the last move (if the game allows it and it drew no chance)
  auto | run                  bots move once for every seat | bots play to the end
  outcome | reveal            the result and statistics | every seat's role
  options | log               the table's options | every move so far
  save FILE | load FILE       write the log | replay a saved log
  verify [FILE]               replay a log and check it reaches its recorded end
  help | quit"""

PLAYER_HELP = """player commands (you see only what your seat may see):
  status | view | spectate    the table | your seat's view | a spectator's view
  act SKILL [TARGET...]       use a skill (case-insensitive)
  pass                        do nothing this phase (on your turn: end your turn)
  say TEXT...                 speak to whoever may hear you
  end-turn | delay-turn       end or delay your turn (turn-ordered phases)
  undo                        take back your last move (if the game allows it)
  outcome | reveal            the result | every role, once the game is over
  options                     the table's options
  save FILE | load FILE       write the log (it holds every secret) | replay a saved log
  verify [FILE]               replay a log and check it reaches its recorded end
  help | quit"""

OLD_SAVE: Final = b'"hiddenrole-console/1"'
"""Marker of the snapshot files the console wrote before it moved onto tables (they do not load)."""

HOST_ONLY = frozenset({"god", "pending", "auto", "run", "end", "log"})


def news_lines(events: Iterable[SeenEvent], chat: Iterable[ChatLine]) -> list[str]:
    """One move's (or one deal's) lines as the console prints them: chat first, then events, in order."""
    return [f"{c.sender} says: {c.text}" for c in chat] + [event_text(e) for e in events]


class Console:
    """One table at the terminal. ``out`` receives all output; feed lines to :meth:`handle`."""

    def __init__(
        self,
        table: Table,
        *,
        bots: bool = False,
        human: str | None = None,
        out: IO[str] | None = None,
        width: int = 100,
    ) -> None:
        self.out = RichConsole(file=out or sys.stdout, width=width, highlight=False, soft_wrap=True)
        self.human = human
        self._fill_with_bots = bots
        self._install(table, shown=-1)

    @classmethod
    def open(
        cls,
        game: str,
        players: int | None = None,
        seed: int | None = 1,
        options: Mapping[str, str] | None = None,
        *,
        bots: bool = False,
        human: str | None = None,
        out: IO[str] | None = None,
        width: int = 100,
    ) -> Console:
        """A console on a new table of ``game``; option values are text, read by the definition.

        Bad options, seat counts or seats raise the host's typed errors (naming the culprit).
        """
        d = definition(game)
        settings = d.parse_options(dict(options or {}))
        table = Table.open(d, players if players is not None else default_seats(d), settings, seed)
        return cls(table, bots=bots, human=human, out=out, width=width)

    def _install(self, table: Table, *, shown: int) -> None:
        """Make ``table`` the console's table; with ``shown`` < 0 its story so far is printed first."""
        if self.human is not None and self.human not in table.seats:
            raise SeatNotFound(f"no seat {self.human!r} at this table (seats: {', '.join(table.seats)})")
        stop = getattr(self, "_unsubscribe", None)
        if stop is not None:
            stop()
        self.table = table
        self.definition = table.definition
        fill = self._fill_with_bots or self.human is not None
        self.bots = frozenset(s for s in table.seats if s != self.human) if fill else frozenset()
        self.bot = Bot(random.Random(table.header.seed * 7919 + table.seq + 1))
        # What happened so far is printed once (unless a load says it was); after that the
        # table pushes each move's lines: the host's for the host, the seat's own for a player.
        self._pending: list[str] = []
        if shown < 0:
            if self.human is None:
                events, chat = table.host_lines()
            else:
                first = table.view(self.human)
                events, chat = first.events, first.chat
            self._pending = news_lines(events, chat)
        if self.human is None:
            self._unsubscribe = table.subscribe_host(self._heard_host)
        else:
            self._unsubscribe = table.subscribe(self.human, self._heard)
        self._where: tuple[str, int] | None = None
        self._board = ""
        self._passed: tuple[str, int] | None = None
        self._prompted = -1
        self._ended = False
        self._report()
        if self.human is not None:
            self._advance()

    # ---------------------------------------------------------------- output

    def _say(self, text: str) -> None:
        self.out.print(escape(text))

    def _heard(self, notice: Notice) -> None:
        """The player's seat was pushed a change: keep its lines for the next report."""
        self._pending += news_lines(notice.events, notice.chat)

    def _heard_host(self, notice: HostNotice) -> None:
        """The host was told of a move: keep what it showed anyone for the next report."""
        self._pending += news_lines(notice.events, notice.chat)

    def _report(self) -> None:
        """Print what happened since the last report, then a header when the phase changed."""
        lines, self._pending = self._pending, []
        for line in lines:
            self._say(f"  {line}")
        if self.table.over:
            if not self._ended:
                self._ended = True
                self._game_over()
            return
        view = self.table.view(self.human)
        where = (view.phase, view.round)
        if where != self._where:
            self._where = where
            self.out.rule(escape(f"round {view.round} · {view.phase}"))
            board = "; ".join(data_lines(view.data))
            if board and board != self._board:
                self._board = board
                self.out.print(f"[dim]{escape('  ' + board)}[/dim]")

    def _show_view(self, view: TableView) -> None:
        who = view.seat or "a spectator"
        grid = RichTable(title=escape(f"{who} sees · round {view.round} · {view.phase} · version {view.version}"))
        for column in ("seat", "alive", "role"):
            grid.add_column(column)
        for p in view.players:
            mark = " (you)" if p.seat == view.seat else ""
            mark += " (turn)" if p.seat == view.turn else ""
            grid.add_row(escape(p.seat + mark), "yes" if p.alive else "no", escape(p.role or "?"))
        self.out.print(grid)
        me = view.me
        if me is not None:
            camp = f", camp {me.camp}" if me.camp else ""
            self._say(f"you are {me.role}{camp}; teammates: {', '.join(me.teammates) or '-'}")
            if me.role_info:
                self._say("you know: " + ", ".join(f"{k}={v}" for k, v in me.role_info.items()))
            self._say("you may: " + (", ".join(me.allowed_skills) or "nothing now"))
            self._say("moves: " + (", ".join(view.moves) or "none now"))
        for line in data_lines(view.data):
            self._say(line)

    def _show_status(self) -> None:
        view = self.table.view(self.human)
        turn = f", {view.turn}'s turn" if view.turn else ""
        over = ", over" if view.over else ""
        # The host counts moves; a player sees only its own view's version (moves it cannot see are not counted).
        count = f"move {self.table.seq}" if self.human is None else f"version {view.version}"
        self._say(f"{self.definition.name} · {count} · round {view.round} · {view.phase}{turn}{over}")
        self._say("alive: " + ", ".join(p.seat for p in view.players if p.alive))
        for line in data_lines(view.data):
            self._say(line)

    def _show_god(self) -> None:
        grid = RichTable(title=escape(f"moderator · round {self.table.status().round} · {self.table.status().phase}"))
        for column in ("seat", "role", "camp", "alive", "may", "knows"):
            grid.add_column(column)
        for seat in self.table.seats:
            me = self.table.view(seat).me
            assert me is not None
            knows = ", ".join(f"{k}={v}" for k, v in me.role_info.items())
            grid.add_row(
                seat,
                escape(me.role),
                escape(me.camp),
                "yes" if me.alive else "no",
                escape(", ".join(me.allowed_skills)),
                escape(knows),
            )
        self.out.print(grid)
        self._show_pending()

    def _show_pending(self) -> None:
        r = self.table.readiness()
        self._say(("ready" if r.ready else "not ready") + (f" · {r.turn}'s turn" if r.turn else ""))
        for a in r.pending:
            self._say(f"  must: {a.player_id} ({a.role}) {a.skill}")
        for a in r.optional:
            self._say(f"  may:  {a.player_id} ({a.role}) {a.skill}")
        self._say("acted: " + (", ".join(r.acted) or "-"))

    def _show_spectator(self) -> None:
        view = self.table.view(None)
        self._show_view(view)
        lines = [(e.at, event_text(e)) for e in view.events] + [(c.at, f"{c.sender} says: {c.text}") for c in view.chat]
        tail = sorted(lines, key=lambda x: x[0])[-SPECTATE_TAIL:]
        if tail:
            self._say("public record (latest):")
            for seq, text in tail:
                self._say(f"  #{seq} {text}")

    def _roles(self) -> dict[str, str]:
        """Roles this reader may print: every one for the host, the public ones for a player."""
        if self.human is None:
            return {p.id: p.role for p in self.table.inspect().all_players()}
        return {p.seat: p.role for p in self.table.view(None).players if p.role}

    def _show_outcome(self) -> None:
        outcome = self.table.outcome
        if outcome is None:
            st = self.table.status()
            self._say(f"the game goes on (round {st.round}, {st.phase}); no outcome yet")
            return
        winners = ", ".join(outcome.winners) or "nobody"
        self.out.print(f"ending: [bold]{escape(outcome.ending)}[/bold] · winners: [bold]{escape(winners)}[/bold]")
        spectator = self.table.view(None)
        roles = self._roles()
        names = sorted({n for stats in outcome.seats.values() for n in stats})
        grid = RichTable(title="reveal")
        for column in ("seat", "role", "alive", "winner", *names):
            grid.add_column(column)
        for p in spectator.players:
            stats = outcome.seats.get(p.seat, {})
            grid.add_row(
                p.seat,
                escape(roles.get(p.seat, "?")),
                "yes" if p.alive else "no",
                "yes" if p.seat in outcome.winners else "",
                *(str(stats.get(n, "")) for n in names),
            )
        self.out.print(grid)
        self._say("statistics: " + (", ".join(f"{k} {v}" for k, v in outcome.table.items()) or "-"))
        for line in data_lines(spectator.data):
            self._say(line)

    def _show_options(self) -> None:
        for line in option_lines(self.definition, self.table.options):
            self._say(line)

    def _game_over(self) -> None:
        self.out.rule("game over")
        self._show_outcome()

    def _show_reveal(self) -> None:
        if self.human is not None and not self.table.over:
            self._say("roles are revealed at the end of the game")
            return
        alive = {p.seat: p.alive for p in self.table.view(None).players}
        for seat, role in sorted(self._roles().items()):
            self._say(f"  {seat}: {role} ({'alive' if alive.get(seat) else 'out'})")

    def _show_log(self) -> None:
        h = self.table.header
        options = " ".join(f"{k}={value_text(v)}" for k, v in h.options.items())
        self._say(f"table {h.table}: {h.game} rules {h.version}, seed {h.seed}, seats {', '.join(h.seats)}")
        self._say(f"options: {options or '-'}")
        for m in self.table.moves():
            self._say(f"  {move_text(m)}")

    def _prompt(self) -> None:
        """Player mode: say once per decision what the seat may do (the whole view the first time)."""
        if self.human is None or self.table.over:
            return
        view = self.table.view(self.human)
        if self._prompted == view.version:
            return
        first = self._prompted < 0
        self._prompted = view.version
        if first:
            self._show_view(view)
        me = view.me
        assert me is not None
        turn = " · your turn" if view.turn == self.human else ""
        alive = ", ".join(p.seat for p in view.players if p.alive)
        self.out.print(
            f"[bold]your move[/bold] {escape(f'— {self.human} ({me.role}) · round {view.round} · {view.phase}{turn}')}"
        )
        self._say(f"  alive: {alive}")
        self._say(f"  you may: {', '.join(me.allowed_skills) or 'nothing'}  (act SKILL [TARGET...] | pass | help)")

    # ---------------------------------------------------------------- moves

    def _confirm(self, done: str) -> None:
        """``ok #seq: done`` for the host; a player is not told the table's move count."""
        self._say(f"ok #{self.table.seq}: {done}" if self.human is None else f"ok: {done}")

    def _move(self, make: Callable[[], int], done: str = "") -> int:
        """Make one move through the table, confirm it and report what followed."""
        got = make()
        if done:
            self._confirm(done)
        self._report()
        return got

    def _bots_pass(self, seats: Iterable[str]) -> bool:
        """Each of ``seats`` that owes a move makes one (through the table); whether anyone moved."""
        moved = False
        for seat in seats:
            if self.table.over:
                break
            if owes_move(self.table, seat) and self.bot.play(self.table, seat) is not None:
                moved = True
                self._report()
        return moved

    def _auto(self) -> None:
        """Host: one bot move for every seat that owes one, then who is still pending."""
        if not self._bots_pass(self.table.seats):
            self._say("no seat owes a move; end the phase with end")
        if not self.table.over:
            self._show_pending()

    def _end_phase(self) -> None:
        self._move(self.table.end_phase)

    def _run(self) -> None:
        """Host: bots move for every seat and phases end until the game is over."""
        for _ in range(MAX_PASSES):
            if self.table.over:
                return
            if not self._bots_pass(self.table.seats):
                self._end_phase()
        self._say(f"stopped after {MAX_PASSES} rounds of moves")

    def _human_owes(self) -> bool:
        assert self.human is not None
        view = self.table.view(self.human)
        return owes_move(self.table, self.human, passed=self._passed == (view.phase, view.round))

    def _advance(self) -> None:
        """Player mode: bots move and phases end until the human has something to decide."""
        for _ in range(MAX_PASSES):
            if self.table.over or self._human_owes():
                break
            if not self._bots_pass(sorted(self.bots)) and not self.table.over:
                self._end_phase()
        self._prompt()

    # ---------------------------------------------------------------- commands

    def handle(self, line: str) -> bool:
        """Run one command line; returns False when the console should stop."""
        try:
            words = shlex.split(line)
        except ValueError as exc:
            self._say(f"error: {exc}")
            return True
        if not words:
            return True
        cmd, args = words[0].lower(), words[1:]
        try:
            return self._dispatch(cmd, args)
        except hr.GameError as exc:
            self._say(f"refused: {exc.code}: {exc.message}")
            return True

    def _dispatch(self, cmd: str, args: list[str]) -> bool:
        if cmd in ("quit", "exit", "q"):
            return False
        if self.human is not None and cmd in HOST_ONLY:
            self._say("that is the host's command; you play one seat")
            return True
        handler = self._handlers().get(cmd)
        if handler is None:
            self._say(f"unknown command {cmd!r}; type help")
        else:
            handler(args)
        return True

    def _handlers(self) -> dict[str, Callable[[list[str]], None]]:
        return {
            "help": lambda a: self._say(PLAYER_HELP if self.human else HOST_HELP),
            "status": lambda a: self._show_status(),
            "view": self._cmd_view,
            "spectate": lambda a: self._show_spectator(),
            "god": lambda a: self._show_god(),
            "pending": lambda a: self._show_pending(),
            "options": lambda a: self._show_options(),
            "log": lambda a: self._show_log(),
            "act": self._cmd_act,
            "say": self._cmd_say,
            "pass": self._cmd_pass,
            "end": lambda a: self._end_phase(),
            "end-turn": self._cmd_end_turn,
            "delay-turn": self._cmd_delay_turn,
            "undo": self._cmd_undo,
            "auto": lambda a: self._auto(),
            "run": lambda a: self._run(),
            "outcome": lambda a: self._show_outcome(),
            "reveal": lambda a: self._show_reveal(),
            "save": lambda a: self.save(Path(a[0])) if a else self._say("usage: save FILE"),
            "load": lambda a: self.load(Path(a[0])) if a else self._say("usage: load FILE"),
            "verify": self._cmd_verify,
        }

    def _seat_args(self, args: list[str], usage: str, least: int) -> tuple[str, list[str]] | None:
        """The acting seat and the remaining words (a player acts for its own seat only)."""
        if self.human is not None:
            if len(args) < least:
                self._say(f"usage: {usage}")
                return None
            return self.human, args
        if len(args) < least + 1:
            self._say(f"usage: {usage}")
            return None
        return args[0], args[1:]

    def _cmd_view(self, args: list[str]) -> None:
        if self.human is not None:
            if args and args[0] != self.human:
                self._say("you may only look at your own seat")
                return
            self._show_view(self.table.view(self.human))
            return
        if not args:
            self._say("usage: view SEAT")
            return
        self._show_view(self.table.view(args[0]))

    def _skill(self, seat: str, typed: str) -> str:
        """The allowed skill ``typed`` names: exact, any case, or without its game prefix."""
        view = self.table.view(seat)
        allowed = view.me.allowed_skills if view.me is not None else ()
        if typed in allowed:
            return typed
        upper = typed.upper()
        same = [s for s in allowed if s.upper() == upper or s.upper().endswith("_" + upper)]
        return same[0] if len(same) == 1 else typed

    def _after_player_move(self) -> None:
        if self.human is not None:
            self._advance()

    def _cmd_act(self, args: list[str]) -> None:
        usage = "act SKILL [TARGET...]" if self.human else "act SEAT SKILL [TARGET...]"
        got = self._seat_args(args, usage, 1)
        if got is None:
            return
        seat, rest = got
        skill, targets = self._skill(seat, rest[0]), tuple(rest[1:])
        self._move(lambda: self.table.act(seat, skill, targets), " ".join((seat, skill, *targets)))
        self._after_player_move()

    def _cmd_say(self, args: list[str]) -> None:
        got = self._seat_args(args, "say TEXT..." if self.human else "say SEAT TEXT...", 1)
        if got is None:
            return
        seat, words = got
        self._move(lambda: self.table.say(seat, " ".join(words)))

    def _cmd_pass(self, args: list[str]) -> None:
        if self.human is None:
            self._say("pass is a player's command; the host ends phases with end")
            return
        view = self.table.view(self.human)
        if view.turn == self.human:
            self._move(lambda: self.table.end_turn(self.human or ""))
        else:
            self._passed = (view.phase, view.round)
        self._advance()

    def _cmd_end_turn(self, args: list[str]) -> None:
        got = self._seat_args(args, "end-turn" if self.human else "end-turn SEAT", 0)
        if got is not None:
            seat = got[0]
            self._move(lambda: self.table.end_turn(seat))
            self._after_player_move()

    def _cmd_delay_turn(self, args: list[str]) -> None:
        got = self._seat_args(args, "delay-turn" if self.human else "delay-turn SEAT", 0)
        if got is not None:
            seat = got[0]
            self._move(lambda: self.table.delay_turn(seat))
            self._after_player_move()

    def _cmd_undo(self, args: list[str]) -> None:
        seat = self.human if self.human is not None else (args[0] if args else None)
        self.table.undo(seat)
        self._confirm("the last standing move is taken back")
        self._where = None
        self._report()
        self._after_player_move()

    def _cmd_verify(self, args: list[str]) -> None:
        try:
            table = verify(Path(args[0]).read_bytes()) if args else verify(self.table.log(), self.definition)
        except OSError as exc:
            self._say(f"cannot read {args[0]}: {exc.strerror or exc}")
            return
        except hr.GameError as exc:
            self._say(f"verify failed: {exc.code}: {exc.message}")
            return
        ending = f", {table.outcome.ending}" if table.outcome is not None else ""
        self._say(f"verified: the {table.header.game} log of {table.seq} moves replays to its recorded end{ending}")

    # ---------------------------------------------------------------- save / load

    def save(self, path: Path) -> None:
        """Write the table's log (its whole truth) to ``path`` as JSON."""
        try:
            path.write_bytes(self.table.log().to_json())
        except OSError as exc:
            self._say(f"cannot save {path}: {exc.strerror or exc}")
            return
        self._say(f"saved the log ({self.table.seq} moves) to {path}")

    def load(self, path: Path) -> None:
        """Replace the table by the replay of the log in ``path`` (same game and rules version only)."""
        try:
            data = path.read_bytes()
        except OSError as exc:
            self._say(f"cannot load {path}: {exc.strerror or exc}")
            return
        try:
            table = Table.replay(self.definition, data)
            if self.human is not None and self.human not in table.seats:
                raise SeatNotFound(f"the saved table has no seat {self.human!r}")
        except hr.GameError as exc:
            old = " (an old console snapshot: saves are table logs now)" if OLD_SAVE in data else ""
            self._say(f"cannot load {path}: {exc.code}: {exc.message}{old}")
            return
        self._say(f"loaded {path}: {table.header.game}, {table.seq} moves replayed")
        self._install(table, shown=table.seq)

    # ---------------------------------------------------------------- loop

    def loop(self, lines: Iterable[str], *, prompt: bool = False) -> None:
        """Read commands until ``quit`` or the end of input."""
        for line in lines:
            if not self.handle(line.strip()):
                return
            if prompt:
                self.out.print("> ", end="")


def add_play_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``hiddenrole play``."""
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = "games:\n  " + "\n  ".join(catalog_lines())
    parser.add_argument("game", choices=games(), help="which game (from the host catalog)")
    parser.add_argument("--players", type=int, default=None, help="number of seats (seats p1, p2, ...)")
    parser.add_argument("--seed", type=int, default=1, help="the table's seed: dealing, dice and bots")
    parser.add_argument(
        "--bots", action="store_true", help="bots play every seat to the end (with --human they always play the others)"
    )
    parser.add_argument("--human", default=None, metavar="SEAT", help="play SEAT yourself; you see only its view")
    parser.add_argument("--variant", default=None, help="shorthand for --option variant=V (missions)")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help="a game option")
    parser.add_argument("--load", default=None, metavar="FILE", help="replay a saved log instead of dealing")
    parser.add_argument("--list-options", action="store_true", help="print the game's options and exit")


def _console(args: argparse.Namespace, out: IO[str] | None) -> Console:
    if args.load:
        table = Table.replay(definition(args.game), Path(args.load).read_bytes())
        return Console(table, bots=args.bots, human=args.human, out=out)
    texts = parse_pairs(args.option)
    if args.variant is not None:
        texts["variant"] = args.variant
    return Console.open(args.game, args.players, args.seed, texts, bots=args.bots, human=args.human, out=out)


def run_play(
    args: argparse.Namespace, stdin: IO[str] | None = None, out: IO[str] | None = None, err: IO[str] | None = None
) -> int:
    """``hiddenrole play``: open the table, then play it out with bots or read commands."""
    errors = err or sys.stderr
    if args.list_options:
        print("\n".join(option_lines(definition(args.game))), file=out or sys.stdout)
        return 0
    try:
        console = _console(args, out)
    except hr.GameError as exc:
        print(f"cannot set up {args.game}: {exc.message}", file=errors)
        return 2
    except OSError as exc:
        print(f"cannot load {args.load}: {exc.strerror or exc}", file=errors)
        return 2
    if args.bots and args.human is None:
        console.handle("run")
        return 0
    stream = stdin or sys.stdin
    interactive = stream.isatty()
    if interactive:
        console.out.print("type help for commands")
        console.out.print("> ", end="")
    console.loop(stream, prompt=interactive)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="hiddenrole play")
    add_play_arguments(parser)
    return run_play(parser.parse_args(argv))
