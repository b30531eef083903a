"""Narration is no new channel: a seat's sentences are a pure function of what it received.

Three checks, each with a planted narrator that breaks it:

* the modules read nothing but their arguments (no engine, board or log; no state kept
  between calls), checked on their source;
* a seat's narration is the same whether narrated alone or interleaved with every other
  seat's (a narrator that remembers the wolves' choice and repeats it at dawn goes red);
* two deals a seat cannot tell apart narrate identically for it (a narrator that peeks at
  the board goes red).
"""

from __future__ import annotations

import ast
import importlib
import inspect
import random
from collections.abc import Callable, Mapping
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import hiddenrole as hr
from hiddenrole.games import missions as ms
from hiddenrole.games import onenight as on
from hiddenrole.games import werewolf as ww
from hiddenrole.games.werewolf import narration as ww_nar

from .narration_support import Narrated, play

GAMES = ("werewolf", "missions", "onenight", "race", "redblue")
ALLOWED_IMPORTS = {"__future__", "collections.abc", "typing", "hiddenrole"}
ALLOWED_FROM = {"hiddenrole.gamedef": {"words"}}
"""Besides the kernel, a narration module may take the shared narration words (held to the same check) and nothing
else of the definitions layer."""
FORBIDDEN_READS = {
    "GameView",
    "Engine",
    "Board",
    "GameLog",
    "Snapshot",
    "PlayerInfo",
    "player_info",
    "player_view",
    "all_players",
    "alive_players",
    "audience_of",
    "var",
    "log",
    "snapshot",
    "status",
}


def narration(game: str) -> ModuleType:
    return importlib.import_module(f"hiddenrole.games.{game}.narration")


# ---------------------------------------------------------------- 1. the source reads nothing else


def source_problems(mod: ModuleType) -> list[str]:
    """Why a narration module might read more than its arguments (empty when it cannot)."""
    return problems_in(Path(inspect.getfile(mod)).read_text(encoding="utf-8"), mod)


def problems_in(source: str, mod: ModuleType | None) -> list[str]:
    """The check on one module's source; ``mod`` (when given) resolves its own-package imports."""
    tree = ast.parse(source)
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [f"imports {a.name}" for a in node.names if a.name not in ALLOWED_IMPORTS]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module not in ALLOWED_IMPORTS:
            allowed = ALLOWED_FROM.get(node.module or "", set())
            out += [f"imports from {node.module}" for a in node.names if a.name not in allowed][:1]
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            out.append("keeps state between calls (global/nonlocal)")
        elif isinstance(node, ast.Attribute) and node.attr in FORBIDDEN_READS:
            out.append(f"reads .{node.attr}")
        elif isinstance(node, ast.Name) and node.id in FORBIDDEN_READS:
            out.append(f"uses {node.id}")
    if mod is None:
        return out
    package = importlib.import_module(mod.__name__.rsplit(".", 1)[0])
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level > 0:
            for alias in node.names:
                value = getattr(mod, alias.asname or alias.name)
                out += _imported_problems(package.__name__, alias.name, value)
    return out


def _imported_problems(package: str, name: str, value: object) -> list[str]:
    """What a narration module takes from its own package: words, or a function of words only."""
    if isinstance(value, (str, int, frozenset, tuple, Mapping)):
        return []
    if callable(value):
        sig = str(inspect.signature(value))
        bad = [w for w in ("GameView", "Engine", "PlayerInfo") if w in sig]
        return [f"imports {package}.{name}, a function of {bad}"] if bad else []
    return [f"imports {package}.{name}, which is neither words nor a function"]


@pytest.mark.parametrize("game", GAMES)
def test_narration_reads_only_its_arguments(game: str) -> None:
    assert source_problems(narration(game)) == []


def test_the_shared_narration_words_read_only_their_arguments() -> None:
    assert source_problems(importlib.import_module("hiddenrole.gamedef.words")) == []


def test_the_source_check_catches_a_narrator_that_reads_the_board() -> None:
    planted = (
        "import hiddenrole as hr\n"
        "from hiddenrole.games.werewolf.boards import deal\n"
        "from hiddenrole.gamedef.registry import catalog\n"
        "from hiddenrole.gamedef import registry\n"
        "_SEEN = []\n"
        "def describe(event, viewer, engine=None):\n"
        "    global _SEEN\n"
        "    return engine.player_info(event.target).role\n"
    )
    found = " | ".join(problems_in(planted, None))
    for complaint in (
        "imports from hiddenrole.games.werewolf.boards",
        "imports from hiddenrole.gamedef.registry",
        "imports from hiddenrole.gamedef |",
        "global",
        "reads .player_info",
    ):
        assert complaint in found


# ---------------------------------------------------------------- 2. alone or interleaved, the same

Narrator = Any
"""Anything with the narration shape: a module, or a planted stand-in."""


def texts_interleaved(nar: Narrator, got: Narrated) -> dict[str, list[str | None]]:
    """Every seat's sentences, narrated in publication order across all seats."""
    out: dict[str, list[str | None]] = {}
    for pid, ev, view in got.deliveries:
        out.setdefault(pid, []).append(nar.describe(ev, view))
    return out


def texts_alone(nar: Narrator, got: Narrated) -> dict[str, list[str | None]]:
    """Every seat's sentences, narrated one seat at a time (nobody else narrated in between)."""
    out: dict[str, list[str | None]] = {}
    for seat in sorted({pid for pid, _, _ in got.deliveries}):
        fresh = nar.fresh() if hasattr(nar, "fresh") else nar
        out[seat] = [fresh.describe(ev, view) for pid, ev, view in got.deliveries if pid == seat]
    return out


class Remembering:
    """Planted: remembers the wolves' victim from a wolf's narration and repeats it at dawn."""

    def __init__(self) -> None:
        self.victim = ""

    def fresh(self) -> Remembering:
        return Remembering()

    def describe(self, event: hr.Event, viewer: hr.PlayerView | None) -> str | None:
        if event.type == ww.KILL and not event.canceled:
            self.victim = event.target
        text = ww_nar.describe(event, viewer)
        if event.type == ww.DAWN and self.victim and text:
            text += f" The werewolves had chosen {self.victim}."
        return text


def _werewolf_games() -> Narrated:
    got = Narrated()
    for seed in range(6):
        play(ww.new_game(9, seed, start=False), random.Random(seed), into=got)
    return got


def _engine_for(game: str, seed: int) -> hr.Engine:
    if game == "werewolf":
        return ww.new_game(9, seed, start=False)
    if game == "missions":
        return ms.new_engine(ms.AVALON, 7, ("percival", "morgana"), seed, start=False)
    if game == "onenight":
        return on.new_engine(on.default_deck(6), 6, seed, start=False)
    from hiddenrole.games import race, redblue

    if game == "race":
        return race.new_engine(["p0", "p1", "p2"])
    return redblue.new_game(2, 3)


def _prepare(game: str) -> Callable[[hr.Engine, str, random.Random], None] | None:
    if game != "race":
        return None
    from hiddenrole.games import race

    def die(engine: hr.Engine, pid: str, rng: random.Random) -> None:
        if race.ROLL in engine.allowed_skills(pid):
            engine.apply(race.die_effect(rng.randint(1, race.DIE_SIDES)))

    return die


@pytest.mark.parametrize("game", GAMES)
def test_a_seat_reads_the_same_alone_or_interleaved(game: str) -> None:
    got = Narrated()
    for seed in range(4):
        choose = None
        if game == "missions":

            def choose(e: hr.Engine, pid: str, r: random.Random) -> tuple[str, tuple[str, ...]] | None:
                return ms.random_submission(e.player_view(pid), r)

        play(_engine_for(game, seed), random.Random(seed), choose=choose, prepare=_prepare(game), into=got)
    nar = narration(game)
    assert texts_alone(nar, got) == texts_interleaved(nar, got)


def test_a_narrator_that_remembers_across_seats_goes_red() -> None:
    got = _werewolf_games()
    assert texts_alone(ww_nar, got) == texts_interleaved(ww_nar, got)
    assert texts_alone(Remembering(), got) != texts_interleaved(Remembering(), got)


# ---------------------------------------------------------------- 3. twin deals, the same words

Script = Callable[[hr.PlayerView], tuple[str, tuple[str, ...]] | None]


def seat_stream(engine: hr.Engine, viewer: str, script: Script, nar: Narrator, steps: int = 14) -> list[str | None]:
    """Everything ``viewer`` reads while only it acts (everyone else abstains)."""
    queue: list[hr.Event] = []
    engine.on_event(queue.append)
    out: list[str | None] = []

    def read() -> None:
        view = engine.player_view(viewer)
        for ev in queue:
            audience = engine.audience_of(ev)
            if audience is not None and viewer in audience:
                out.append(nar.describe(ev, view))
        queue.clear()
        out.extend((nar.prompt(view), nar.identity(view)))

    engine.start()
    read()
    for _ in range(steps):
        if engine.status().over:
            break
        move = script(engine.player_view(viewer))
        if move is not None:
            engine.submit(viewer, *move)
        turn = engine.readiness().turn
        if turn:
            engine.end_turn(turn)
        else:
            engine.end_phase()
        read()
    return out


def _ww_table(roles: tuple[str, ...]) -> hr.Engine:
    engine = hr.Engine(ww.rules())
    for pid, role in zip(ww.seat_ids(len(roles)), roles, strict=True):
        engine.add_player(pid, role)
    return engine


WW_A = (ww.WEREWOLF, ww.WEREWOLF, ww.SEER, ww.WITCH, ww.GUARD, ww.HUNTER, ww.VILLAGER, ww.VILLAGER)
WW_B = (ww.WEREWOLF, ww.WEREWOLF, ww.VILLAGER, ww.WITCH, ww.HUNTER, ww.GUARD, ww.VILLAGER, ww.SEER)
"""p06's twin: the seer, guard, hunter and a villager moved among the seats p06 cannot read."""


def _vote_p02(view: hr.PlayerView) -> tuple[str, tuple[str, ...]] | None:
    if ww.VOTE in view.allowed_skills:
        return (ww.VOTE, ("p02",))
    if ww.SKIP in view.allowed_skills:
        return (ww.SKIP, ())
    return None


class Peeking:
    """Planted: narrates like werewolf but looks the eliminated player's card up on the board."""

    def __init__(self, engine: hr.Engine) -> None:
        self.engine = engine

    def describe(self, event: hr.Event, viewer: hr.PlayerView | None) -> str | None:
        text = ww_nar.describe(event, viewer)
        if event.type == ww.ELIMINATE and text:
            text += f" They were the {ww_nar.role_name(self.engine.player_info(event.target).role)}."
        return text

    def prompt(self, view: hr.PlayerView) -> str:
        return ww_nar.prompt(view)

    def identity(self, view: hr.PlayerView) -> str:
        return ww_nar.identity(view)


def test_werewolf_twin_deals_narrate_alike_for_the_seat() -> None:
    a, b = _ww_table(WW_A), _ww_table(WW_B)
    texts_a = seat_stream(a, "p06", _vote_p02, ww_nar)
    texts_b = seat_stream(b, "p06", _vote_p02, ww_nar)
    assert any(t and "p02 is voted out" in t for t in texts_a)
    assert texts_a == texts_b


def test_a_narrator_that_peeks_at_the_board_goes_red() -> None:
    a, b = _ww_table(WW_A), _ww_table(WW_B)
    assert seat_stream(a, "p06", _vote_p02, Peeking(a)) != seat_stream(b, "p06", _vote_p02, Peeking(b))


ON_A = on.Deal(
    seats=(("p0", on.WEREWOLF), ("p1", on.SEER), ("p2", on.ROBBER), ("p3", on.VILLAGER), ("p4", on.TROUBLEMAKER)),
    center=(on.DRUNK, on.TANNER, on.WEREWOLF),
)
ON_B = on.Deal(
    seats=(("p0", on.ROBBER), ("p1", on.WEREWOLF), ("p2", on.TROUBLEMAKER), ("p3", on.VILLAGER), ("p4", on.SEER)),
    center=(on.DRUNK, on.TANNER, on.WEREWOLF),
)
"""p3's twin: the other cards moved around the table; p3 looks at nothing."""


def _vote_p0(view: hr.PlayerView) -> tuple[str, tuple[str, ...]] | None:
    return (on.VOTE, ("p0",)) if on.VOTE in view.allowed_skills else None


def test_onenight_twin_deals_narrate_alike_for_the_seat() -> None:
    on_nar = narration("onenight")
    texts_a = seat_stream(on.engine_for(ON_A, start=False), "p3", _vote_p0, on_nar)
    texts_b = seat_stream(on.engine_for(ON_B, start=False), "p3", _vote_p0, on_nar)
    assert any(t and "You vote for p0." in t for t in texts_a)
    assert texts_a == texts_b
