"""The console: a command loop over one hosted table, in the game's own words.

Everything goes through a :class:`hiddenrole.host.Table`. Every act, say, end of a
phase or a turn, every undo and every bot's choice is a move in the table's log, and
chance (the race's die) is drawn by the table from its seed. Saving writes that log;
loading replays it, and the host refuses a log of another game or rules version.

Two modes. As **host** (no ``--human``) you read every seat's view and drive every
seat: ``act``, ``say``, ``end``, ``end-turn``, ``undo``, ``run``. As a **player**
(``--human SEAT``) you read only your seat's table view; agents (``--bots random`` or
``heuristic``) play the other seats, and the console asks you whenever your seat has
a decision or may speak. Commands come from stdin, so a script or a test can play a
whole game. See ``docs/CONSOLE.md``.

What is printed comes from the table's pushes, in the words of the game's narration
module (:mod:`.words`): a player's console subscribes to its seat (and so prints
exactly what that seat was sent, told in the second person where it acted), the
host's console to the host's record of every move (in the third person).
"""

from __future__ import annotations

import argparse
import shlex
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import IO, Final

from rich.console import Console as RichConsole
from rich.markup import escape
from rich.table import Table as RichTable

import hiddenrole as hr
from hiddenrole.agents import AGENT_NAMES
from hiddenrole.host import SAY, ChatLine, HostNotice, Notice, SeatNotFound, SeenEvent, Table, TableView, verify

from .bots import DEFAULT_AGENT, Bots, Visit, owes_move, seat_agents
from .games import (
    catalog_lines,
    data_lines,
    default_seats,
    definition,
    games,
    move_text,
    option_lines,
    parse_pairs,
    value_text,
)
from .lines import Interrupted, plain_lines, terminal_lines
from .words import kernel_event, narrator_for, player_view

__all__ = ["Console", "add_play_arguments", "run_play", "main"]

MAX_STEPS: Final = 20000
"""Agent decisions and phase ends ``run`` (or a player's wait) makes before it gives up on a game that will not end."""
SPECTATE_TAIL: Final = 12
"""Public lines ``spectate`` repeats."""

HOST_HELP = """host commands (every change is a move in the table's log):
  status                      phase, round, turn, who is alive, the public board
  view SEAT | spectate        what SEAT knows and may do | what a spectator may see
  history [SEAT]              every line SEAT saw and heard (without SEAT: the host's record)
  god | pending               every seat's role and knowledge | who still must or may act
  act SEAT SKILL [TARGET...]  SEAT uses SKILL (its name or identifier, any case)
  say SEAT TEXT...            SEAT speaks
  end | end-turn SEAT         end the phase | SEAT ends its turn (turn-ordered phases)
  delay-turn SEAT             SEAT waits its turn (initiative phases)
  undo [SEAT]                 take back the last move (if the game allows it and it drew no chance)
  auto | run                  agents move once for every seat that owes a move | agents play to the end
  outcome | reveal            the result and statistics | every seat's role
  options | log               the table's options | every move so far
  save FILE | load FILE       write the log | replay a saved log
  verify [FILE]               replay a log and check it reaches its recorded end
  help | quit                 (Ctrl-D quits too)"""

PLAYER_HELP = """player commands (you see only what your seat may see):
  status | view | spectate    the table | who you are, what you learned, what you may do | a spectator's view
  history                     every line your seat saw and heard, in order
  act SKILL [TARGET...]       use a skill (its name or identifier, any case: act check p3)
  pass                        do nothing more this phase (on your turn: end your turn)
  say TEXT...                 speak to whoever may hear you (whenever the game lets you speak)
  end-turn | delay-turn       end or delay your turn (turn-ordered phases)
  undo                        take back your last move (if the game allows it)
  outcome | reveal            the result | every role, once the game is over
  options                     the table's options
  save FILE | load FILE       write the log, once the game is over (it holds every secret) | replay a saved log
  verify [FILE]               replay a log and check it reaches its recorded end
  help | quit                 (Ctrl-D quits too)"""

OLD_SAVE: Final = b'"hiddenrole-console/1"'
"""Marker of the snapshot files the console wrote before it moved onto tables (they do not load)."""

HOST_ONLY = frozenset({"god", "pending", "auto", "run", "end", "log"})


def _said(c: ChatLine) -> str:
    return f"{c.sender} says: {c.text}"


def _seen(events: Iterable[SeenEvent]) -> Counter[tuple[object, ...]]:
    return Counter((e.type, e.source, e.target, tuple(sorted(e.data.items())), e.canceled) for e in events)


class Console:
    """One table at the terminal. ``out`` receives all output; feed lines to :meth:`handle`."""

    def __init__(
        self,
        table: Table,
        *,
        bots: bool = False,
        agent: str = DEFAULT_AGENT,
        human: str | None = None,
        out: IO[str] | None = None,
        width: int = 100,
    ) -> None:
        self.out = RichConsole(file=out or sys.stdout, width=width, highlight=False, soft_wrap=True)
        self.human = human
        self.agent = agent
        self.reading = False
        """Whether :meth:`loop` reads commands (then the host is told it may look on after the end)."""
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
        agent: str = DEFAULT_AGENT,
        human: str | None = None,
        out: IO[str] | None = None,
        width: int = 100,
    ) -> Console:
        """A console on a new table of ``game``; option values are text, read by the definition.

        Bad options, seat counts, seats or agent names raise typed errors (naming the culprit).
        """
        d = definition(game)
        settings = d.parse_options(dict(options or {}))
        table = Table.open(d, players if players is not None else default_seats(d), settings, seed)
        return cls(table, bots=bots, agent=agent, human=human, out=out, width=width)

    def _install(self, table: Table, *, shown: int) -> None:
        """Make ``table`` the console's table; with ``shown`` < 0 its story so far is printed first."""
        if self.human is not None and self.human not in table.seats:
            raise SeatNotFound(f"no seat {self.human!r} at this table (seats: {', '.join(table.seats)})")
        agents = seat_agents(table, (s for s in table.seats if s != self.human), self.agent)
        stop = getattr(self, "_unsubscribe", None)
        if stop is not None:
            stop()
        self.table = table
        self.definition = table.definition
        self.words = narrator_for(table.rules)
        self.agents = agents
        self.bots = Bots(table, agents)
        # What happened so far is printed once (unless a load says it was); after that the
        # table pushes each move's lines: the host's for the host, the seat's own for a player.
        self._pending: list[str] = []
        if shown < 0:
            if self.human is None:
                events, chat = table.host_lines()
            else:
                first = table.view(self.human)
                events, chat = first.events, first.chat
            self._pending = self.news(events, chat)
        if self.human is None:
            self._unsubscribe = table.subscribe_host(self._heard_host)
        else:
            self._unsubscribe = table.subscribe(self.human, self._heard)
        self._where: tuple[str, int] | None = None
        self._board = ""
        self._passed: Visit | None = None
        self._spoke: tuple[Visit, int] | None = None
        self._prompted: tuple[int, Visit] | None = None
        self._ended = False
        self._report()
        if self.human is not None:
            self._advance()

    # ---------------------------------------------------------------- words

    def _viewer(self) -> hr.PlayerView | None:
        """The reader narration speaks to: the player's own seat, or nobody (the host, third person)."""
        return player_view(self.table.view(self.human)) if self.human is not None else None

    def _event_line(self, e: SeenEvent, viewer: hr.PlayerView | None) -> str | None:
        return self.words.describe(kernel_event(e), viewer)

    def news(self, events: Iterable[SeenEvent], chat: Iterable[ChatLine]) -> list[str]:
        """One move's (or one deal's) lines: chat first, then events, in order, in the game's words."""
        viewer = self._viewer()
        lines = [_said(c) for c in chat]
        lines += [line for e in events if (line := self._event_line(e, viewer)) is not None]
        return lines

    def _role(self, role: str) -> str:
        return self.words.role_name(role) if role else "?"

    def _skills(self, skills: Iterable[str]) -> str:
        return ", ".join(self.words.skill_name(s) for s in skills)

    def _phase(self, phase: str) -> str:
        return self.words.phase_name(phase)

    # ---------------------------------------------------------------- output

    def _say(self, text: str) -> None:
        self.out.print(escape(text))

    def _heard(self, notice: Notice) -> None:
        """The player's seat was pushed a change: keep its lines for the next report."""
        self._pending += self.news(notice.events, notice.chat)

    def _heard_host(self, notice: HostNotice) -> None:
        """The host was told of a move: keep what it showed anyone for the next report."""
        self._pending += self.news(notice.events, notice.chat)

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
            self.out.rule(escape(f"Round {view.round} · {self._phase(view.phase)}"))
            board = "; ".join(data_lines(view.data))
            if board and board != self._board:
                self._board = board
                self.out.print(f"[dim]{escape('  ' + board)}[/dim]")

    def _players_grid(self, view: TableView, title: str) -> None:
        grid = RichTable(title=escape(title))
        for column in ("seat", "alive", "role"):
            grid.add_column(column)
        for p in view.players:
            mark = " (you)" if p.seat == view.seat else ""
            mark += " (turn)" if p.seat == view.turn else ""
            grid.add_row(escape(p.seat + mark), "yes" if p.alive else "no", escape(self._role(p.role)))
        self.out.print(grid)

    def _learned(self, view: TableView) -> list[str]:
        """What the seat was told that a spectator was not (a seer's checks, cards it saw), in words."""
        public = _seen(self.table.view(None).events)
        pv = player_view(view)
        out = []
        for e in view.events:
            key = (e.type, e.source, e.target, tuple(sorted(e.data.items())), e.canceled)
            if public[key] > 0:
                public[key] -= 1
                continue
            line = self._event_line(e, pv)
            if line is not None:
                out.append(line)
        return out

    def _show_view(self, view: TableView) -> None:
        who = view.seat or "a spectator"
        self._players_grid(view, f"{who} sees · Round {view.round} · {self._phase(view.phase)}")
        pv = player_view(view)
        if pv is not None:
            self._say(self.words.identity(pv))
            learned = self._learned(view)
            if learned:
                self._say("What you have learned:")
                for line in learned:
                    self._say(f"  {line}")
            if not view.over:
                self._say(self.words.prompt(pv))
                if view.me is not None and view.me.allowed_skills:
                    self._say(f"skills: {self._skills(view.me.allowed_skills)}")
        for line in data_lines(view.data):
            self._say(line)

    def _show_history(self, seat: str | None) -> None:
        """Every line the reader saw and heard, in the order it arrived."""
        if seat is None:
            events, chat = self.table.host_lines()
            viewer = None
        else:
            view = self.table.view(seat)
            events, chat, viewer = view.events, view.chat, player_view(view)
        timed: list[tuple[int, int, str]] = [(c.at, 0, _said(c)) for c in chat]
        for e in events:
            line = self._event_line(e, viewer)
            if line is not None:
                timed.append((e.at, 1, line))
        timed.sort(key=lambda x: (x[0], x[1]))
        title = f"{seat}'s history" if seat else "the host's record"
        self._say(f"{title} ({len(timed)} lines):" if timed else f"{title}: nothing yet")
        for _, _, line in timed:
            self._say(f"  {line}")

    def _show_status(self) -> None:
        view = self.table.view(self.human)
        turn = f", {view.turn}'s turn" if view.turn else ""
        over = ", over" if view.over else ""
        # The host counts moves; a player sees only its own view's version (moves it cannot see are not counted).
        count = f"move {self.table.seq}" if self.human is None else f"version {view.version}"
        self._say(f"{self.definition.name} · {count} · Round {view.round} · {self._phase(view.phase)}{turn}{over}")
        self._say("alive: " + ", ".join(p.seat for p in view.players if p.alive))
        for line in data_lines(view.data):
            self._say(line)

    def _show_god(self) -> None:
        st = self.table.status()
        grid = RichTable(title=escape(f"moderator · Round {st.round} · {self._phase(st.phase)}"))
        for column in ("seat", "role", "camp", "alive", "may", "knows"):
            grid.add_column(column)
        for seat in self.table.seats:
            view = self.table.view(seat)
            me, pv = view.me, player_view(view)
            assert me is not None and pv is not None
            grid.add_row(
                seat,
                escape(self._role(me.role)),
                escape(self.words.camp_name(me.camp) if me.camp else "-"),
                "yes" if me.alive else "no",
                escape(self._skills(me.allowed_skills)),
                escape(self.words.identity(pv)),
            )
        self.out.print(grid)
        self._show_pending()

    def _show_pending(self) -> None:
        r = self.table.readiness()
        self._say(("ready" if r.ready else "not ready") + (f" · {r.turn}'s turn" if r.turn else ""))
        for a in r.pending:
            self._say(f"  must: {a.player_id} ({self._role(a.role)}) {self.words.skill_name(a.skill)}")
        for a in r.optional:
            self._say(f"  may:  {a.player_id} ({self._role(a.role)}) {self.words.skill_name(a.skill)}")
        self._say("acted: " + (", ".join(r.acted) or "-"))

    def _show_spectator(self) -> None:
        view = self.table.view(None)
        self._show_view(view)
        lines = [(e.at, line) for e in view.events if (line := self._event_line(e, None)) is not None]
        lines += [(c.at, _said(c)) for c in view.chat]
        tail = sorted(lines, key=lambda x: x[0])[-SPECTATE_TAIL:]
        if tail:
            self._say("public record (latest):")
            for _, text in tail:
                self._say(f"  {text}")

    def _roles(self) -> dict[str, str]:
        """Roles this reader may print.

        Once the game is over, the public ones (the game decides: the card a One Night
        seat ends with, not the one it was dealt). Before that, the host sees every
        dealt role and a player only the public ones.
        """
        if self.human is None and not self.table.over:
            return {p.id: p.role for p in self.table.inspect().all_players()}
        return {p.seat: p.role for p in self.table.view(None).players if p.role}

    def _show_outcome(self) -> None:
        outcome = self.table.outcome
        if outcome is None:
            st = self.table.status()
            self._say(f"the game goes on (Round {st.round}, {self._phase(st.phase)}); no outcome yet")
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
                p.seat + (" (you)" if p.seat == self.human else ""),
                escape(self._role(roles.get(p.seat, ""))),
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
        if self.human is None and self.reading:
            self._say("As host you may still look at the table (reveal, history, log, save, verify); quit to leave.")

    def _show_reveal(self) -> None:
        if self.human is not None and not self.table.over:
            self._say("roles are revealed at the end of the game")
            return
        alive = {p.seat: p.alive for p in self.table.view(None).players}
        for seat, role in sorted(self._roles().items()):
            self._say(f"  {seat}: {self._role(role)} ({'alive' if alive.get(seat) else 'out'})")

    def _show_log(self) -> None:
        h = self.table.header
        options = " ".join(f"{k}={value_text(v)}" for k, v in h.options.items())
        self._say(f"table {h.table}: {h.game} rules {h.version}, seed {h.seed}, seats {', '.join(h.seats)}")
        self._say(f"options: {options or '-'}")
        for m in self.table.moves():
            self._say(f"  {move_text(m, self.words.skill_name)}")

    def _prompt(self) -> None:
        """Player mode: say once per decision what the seat may do (the whole view the first time)."""
        if self.human is None or self.table.over:
            return
        view = self.table.view(self.human)
        key = (view.version, self._visit())
        if self._prompted == key:
            return
        first = self._prompted is None
        self._prompted = key
        if first:
            self._show_view(view)
        me, pv = view.me, player_view(view)
        assert me is not None and pv is not None
        turn = " · your turn" if view.turn == self.human else ""
        head = f"— {self.human} ({self._role(me.role)}) · Round {view.round} · {self._phase(view.phase)}{turn}"
        self.out.print(f"[bold]your move[/bold] {escape(head)}")
        self._say(f"  {self.words.prompt(pv)}")
        hints = []
        if me.allowed_skills:
            hints.append(f"act SKILL [TARGET...] with a skill of: {self._skills(me.allowed_skills)}")
        if SAY in view.moves:
            hints.append("say TEXT to speak")
        hints.append("pass when you are done" if not view.turn else "pass to end your turn")
        self._say("  (" + " | ".join(hints) + " | history | help)")

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

    def _visit(self) -> Visit:
        return self.bots.visit()

    def _auto(self) -> None:
        """Host: the agent of every seat that owes a move makes one (the phase is not ended)."""
        table = self.table
        owing = self.bots.owing()
        if not owing:
            self._say("no seat owes a move; end the phase with end")
            return
        visit = self._visit()
        for seat in owing:
            if table.over or self._visit() != visit:
                break
            if seat in self.bots.owing([seat]):
                self.bots.ask(seat)
                self._report()
        if not table.over:
            self._show_pending()

    def _end_phase(self) -> None:
        def end() -> int:
            self.bots.end_phase()
            return self.table.seq

        self._move(end)

    def _run(self) -> None:
        """Host: agents play every seat, and phases end, until the game is over."""
        for _ in range(MAX_STEPS):
            if self.table.over:
                return
            self.bots.step()
            self._report()
        self._say(f"stopped after {MAX_STEPS} decisions")

    def _human_owes(self) -> bool:
        """Player mode: whether the console must wait for the human.

        The seat owes a decision (it has the turn, or an action it has not made or
        passed), or, in a phase without turns, it may speak and has not yet said it is
        done (``pass``) in this visit of the phase, or has heard something new since.
        """
        assert self.human is not None
        table, seat = self.table, self.human
        visit = self._visit()
        if owes_move(table, seat, passed=self._passed == visit):
            return True
        view = table.view(seat)
        if view.turn or SAY not in view.moves:
            return False
        if self._spoke is None or self._spoke[0] != visit:
            return True
        return len(view.chat) > self._spoke[1]

    def _done_for_now(self) -> None:
        """The human acted or passed: no more prompts in this visit unless someone speaks to it."""
        assert self.human is not None
        self._spoke = (self._visit(), len(self.table.view(self.human).chat))

    def _advance(self) -> None:
        """Player mode: agents move and phases end until the human has something to decide or say."""
        for _ in range(MAX_STEPS):
            if self.table.over or self._human_owes():
                break
            self.bots.step()
            self._report()
        self._prompt()

    # ---------------------------------------------------------------- commands

    @property
    def finished(self) -> bool:
        """A player's console is finished once the game is over (the host's stays open to look)."""
        return self.human is not None and self.table.over

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
            go_on = self._dispatch(cmd, args)
        except hr.GameError as exc:
            self._say(f"refused: {exc.code}: {exc.message}")
            go_on = True
        return go_on and not self.finished

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
            "history": self._cmd_history,
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
            "save": self._cmd_save,
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

    def _cmd_history(self, args: list[str]) -> None:
        if self.human is not None:
            if args and args[0] != self.human:
                self._say("you may only read your own seat's history")
                return
            self._show_history(self.human)
            return
        seat = args[0] if args else None
        if seat is not None and seat not in self.table.seats:
            self._say(f"no seat {seat!r} (seats: {', '.join(self.table.seats)})")
            return
        self._show_history(seat)

    def _skill(self, seat: str, words: list[str]) -> tuple[str, list[str]]:
        """The allowed skill the first words name, and the words left (the targets).

        A skill is named by its identifier or its display name, in any case, or by one
        word of its display name that no other allowed skill shares (``act nominate
        p1 p2`` for "Nominate a team"). Unknown words go to the table as typed, which
        refuses them with its own error.
        """
        view = self.table.view(seat)
        allowed = view.me.allowed_skills if view.me is not None else ()
        names = {s: self.words.skill_name(s).lower() for s in allowed}
        for k in range(len(words), 0, -1):
            typed = " ".join(words[:k]).lower()
            exact = [s for s in allowed if s.lower() == typed or names[s] == typed]
            if len(exact) == 1:
                return exact[0], words[k:]
        first = words[0].lower()
        by_word = [s for s in allowed if first in names[s].split()]
        if len(by_word) == 1:
            return by_word[0], words[1:]
        return words[0], words[1:]

    def _after_player_move(self) -> None:
        if self.human is not None:
            self._done_for_now()
            self._advance()

    def _cmd_act(self, args: list[str]) -> None:
        usage = "act SKILL [TARGET...]" if self.human else "act SEAT SKILL [TARGET...]"
        got = self._seat_args(args, usage, 1)
        if got is None:
            return
        seat, rest = got
        skill, left = self._skill(seat, rest)
        targets = tuple(left)
        done = " ".join((seat, self.words.skill_name(skill), *targets))
        self._move(lambda: self.table.act(seat, skill, targets), done)
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
            self._passed = self._visit()
        self._after_player_move()

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
        if self.human is not None:
            self._advance()

    def _cmd_save(self, args: list[str]) -> None:
        if not args:
            self._say("usage: save FILE")
        elif self.human is not None and not self.table.over:
            self._say("save is refused until the game is over: the log holds every seat's secrets")
        else:
            self.save(Path(args[0]))

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

    def loop(self, lines: Iterable[str | Interrupted]) -> None:
        """Read commands until ``quit``, the end of input or (for a player) the end of the game.

        Ctrl-C while a command runs stops that command; a line cancelled with Ctrl-C
        (:class:`~.lines.Interrupted`) is dropped. Either way the console reads on.
        """
        self.reading = True
        if self.finished:
            self._say("Goodbye.")
            return
        for line in lines:
            if isinstance(line, Interrupted):
                self._say("(cancelled; type quit or press Ctrl-D to leave)")
                continue
            try:
                go_on = self.handle(line.strip())
            except KeyboardInterrupt:
                self._say("(interrupted)")
                continue
            if not go_on:
                break
        self._say("Goodbye.")


def add_play_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``hiddenrole play``."""
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = "games:\n  " + "\n  ".join(catalog_lines())
    parser.add_argument("game", choices=games(), help="which game (from the host catalog)")
    parser.add_argument("--players", type=int, default=None, help="number of seats (seats p1, p2, ...)")
    parser.add_argument("--seed", type=int, default=1, help="the table's seed: dealing, dice and bots")
    parser.add_argument(
        "--bots",
        nargs="?",
        const=DEFAULT_AGENT,
        default=None,
        choices=AGENT_NAMES,
        metavar="AGENT",
        help=(
            f"agents play every seat to the end; AGENT is one of {', '.join(AGENT_NAMES)} (default {DEFAULT_AGENT})."
            " With --human they play the other seats (which they always do)"
        ),
    )
    parser.add_argument("--human", default=None, metavar="SEAT", help="play SEAT yourself; you see only its view")
    parser.add_argument("--variant", default=None, help="shorthand for --option variant=V (missions)")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE", help="a game option")
    parser.add_argument("--load", default=None, metavar="FILE", help="replay a saved log instead of dealing")
    parser.add_argument("--list-options", action="store_true", help="print the game's options and exit")


def _console(args: argparse.Namespace, out: IO[str] | None) -> Console:
    agent = args.bots or DEFAULT_AGENT
    bots = args.bots is not None
    if args.load:
        table = Table.replay(definition(args.game), Path(args.load).read_bytes())
        return Console(table, bots=bots, agent=agent, human=args.human, out=out)
    texts = parse_pairs(args.option)
    if args.variant is not None:
        texts["variant"] = args.variant
    return Console.open(args.game, args.players, args.seed, texts, bots=bots, agent=agent, human=args.human, out=out)


def _has_line_editor() -> bool:
    """Whether prompt_toolkit is installed (the ``cli`` extra); without it a terminal gets plain lines."""
    try:
        import prompt_toolkit  # noqa: F401
    except ImportError:
        return False
    return True


def run_play(
    args: argparse.Namespace,
    stdin: IO[str] | None = None,
    out: IO[str] | None = None,
    err: IO[str] | None = None,
    lines: Iterable[str | Interrupted] | None = None,
) -> int:
    """``hiddenrole play``: open the table, then play it out with agents or read commands.

    Commands come from ``lines`` if given, else from ``stdin``: edited with
    prompt_toolkit when it is a terminal, read as plain lines otherwise.
    """
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
    except KeyboardInterrupt:
        print("interrupted", file=errors)
        return 130
    if args.bots is not None and args.human is None:
        try:
            console.handle("run")
        except KeyboardInterrupt:
            console.out.print("(interrupted)")
            return 130
        return 0
    if lines is None:
        stream = stdin or sys.stdin
        if stream.isatty() and _has_line_editor():
            console.out.print("type help for commands; Ctrl-D leaves")
            lines = terminal_lines()
        else:
            lines = plain_lines(stream)
    try:
        console.loop(lines)
    except KeyboardInterrupt:  # Ctrl-C while reading a pipe
        console.out.print("(interrupted) Goodbye.")
        return 130
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="hiddenrole play")
    add_play_arguments(parser)
    return run_play(parser.parse_args(argv))
