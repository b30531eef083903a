"""A player at the console, tried as a new player would (issue 10): words, speech, memory, saving."""

from __future__ import annotations

import ast
import random
import re
from pathlib import Path

import pytest

import hiddenrole as hr
from hiddenrole.agents import RandomAgent
from hiddenrole.agents.heuristics import HEURISTICS
from hiddenrole.console import Console
from hiddenrole.console.games import definition
from hiddenrole.host import SAY, Table

from .support import console, run, text

CONSOLE_SRC = Path(__file__).resolve().parents[2] / "src" / "hiddenrole" / "console"
IDENTIFIER = re.compile(r"\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b")
"""``MS_ASSASSIN``, ``NIGHT_WOLF``: internal identifiers that must never be printed."""
RAW = re.compile(r"\b(dead|tally|good|die|team|hit|how|default|center|card)=")
"""``DAWN dead=``, ``KILL tally=``: raw event data."""


def seat_of(role: str, seed: int, game: str = "werewolf", players: int = 9) -> str:
    table = Table.open(definition(game), players, seed=seed)
    return next(p.id for p in table.inspect().all_players() if p.role == role)


def play_passing(c: Console, until: int = 400) -> None:
    """The human passes at every prompt (in the race, where a turn ends by rolling, it rolls)."""
    command = "act roll" if c.table.rules.name == "race" else "pass"
    for _ in range(until):
        if c.table.over:
            return
        c.handle(command)


# ---------------------------------------------------------------------- narration everywhere


@pytest.mark.parametrize(
    ("game", "players", "options"),
    [
        ("werewolf", 9, {}),
        ("werewolf", 12, {"idiot": "true", "wolf-king": "true"}),
        ("missions", 7, {"variant": "avalon", "percival": "yes", "morgana": "yes"}),
        ("onenight", 6, {}),
        ("race", 3, {}),
        ("redblue", 5, {}),
    ],
)
def test_a_whole_game_is_told_in_the_games_words(game: str, players: int, options: dict[str, str]) -> None:
    seat = Table.open(definition(game), players, seed=4).seats[1]
    for human in (None, seat):
        c = console(game, players, seed=4, options=options, bots=True, human=human)
        c.handle("god" if human is None else "view")
        c.handle("run" if human is None else "status")
        play_passing(c)
        c.handle("history" if human else f"history {seat}")
        out = text(c)
        assert c.table.over and "game over" in out
        assert not IDENTIFIER.search(out), IDENTIFIER.search(out)
        assert not RAW.search(out), RAW.search(out)


def test_the_witchs_prompt_names_tonights_victim_and_every_target() -> None:
    seed = 1
    witch = seat_of("WITCH", seed)
    c = console("werewolf", 9, seed=seed, human=witch)
    out = text(c)
    prompt = out[out.rindex("your move") :]
    assert "Night: the witch" in prompt
    victim = re.search(r"Tonight's victim is (p\d): you may save \1 with the antidote\.", prompt)
    assert victim, prompt
    listed = re.search(r"Choose 1 player to poison: ([p\d, ]+)\.", prompt)
    assert listed
    living = [p.seat for p in c.table.view(witch).players if p.alive and p.seat != witch]
    assert listed.group(1).split(", ") == living


def test_a_night_without_a_victim_says_so_to_the_witch() -> None:
    c = console("werewolf", 9, seed=1)  # host: the wolves split their vote
    table = c.table
    wolves = [p.id for p in table.inspect().all_players() if p.role == "WEREWOLF"]
    witch = next(p.id for p in table.inspect().all_players() if p.role == "WITCH")
    c.handle("end")
    others = [s for s in table.seats if s not in wolves]
    for wolf, victim in zip(wolves, others, strict=False):
        c.handle(f"act {wolf} kill {victim}")
    c.handle("end")
    start = len(text(c))
    c.handle(f"view {witch}")
    assert "Nobody was attacked tonight: there is no one to save." in text(c)[start:]


def test_skills_are_typed_by_name_or_identifier_in_any_case() -> None:
    c = console("missions", 5, seed=2, options={"variant": "resistance"})
    leader = c.table.readiness().pending[0].player_id
    c.handle(f"act {leader} nominate p1 p2")
    assert c.table.moves()[-1].skill == "MS_NOMINATE"
    for seat, typed in (("p1", "APPROVE"), ("p2", "approve"), ("p3", "Reject")):
        c.handle(f"act {seat} {typed}")
    assert [m.skill for m in c.table.moves()[1:]] == ["MS_APPROVE", "MS_APPROVE", "MS_REJECT"]


# ---------------------------------------------------------------------- speaking


def test_a_human_is_asked_by_day_and_may_speak_there() -> None:
    seed = 2
    seat = seat_of("VILLAGER", seed)
    c = console("werewolf", 9, seed=seed, human=seat)
    # A villager has nothing to do at night: the first prompt is the day's discussion.
    assert c.table.status().phase == "DAY"
    assert "your move" in text(c) and "Day: discussion. Talk with the living; the vote follows." in text(c)
    c.handle("say I am a plain villager")
    said = c.table.moves()[-1]
    assert said.kind == SAY and said.seat == seat and c.table.status().phase == "DAY"
    assert f"{seat} says: I am a plain villager" in text(c)
    c.handle("pass")
    assert c.table.status().phase == "VOTE"
    c.handle("say can I still talk")  # the rule: the vote is silent (docs/CONSOLE.md)
    assert "refused: MESSAGE_NOT_ALLOWED" in text(c)


def test_a_human_hears_the_agents_claims_and_may_answer_them() -> None:
    c = console("onenight", 5, seed=3, human="p1", agent="heuristic")
    for _ in range(10):
        if c.table.status().phase == "ON_DAY":
            break
        c.handle("pass")
    assert c.table.status().phase == "ON_DAY"
    start = len(text(c))
    c.handle("pass")  # done talking; the heuristic agents claim, and the human may answer
    assert c.table.status().phase == "ON_DAY", "asked again after hearing a claim"
    assert re.search(r"p\d says: ", text(c)[start:]) and "your move" in text(c)[start:]
    c.handle("say I do not believe you")
    assert c.table.moves()[-1].kind == SAY


# ---------------------------------------------------------------------- memory


def test_the_seer_remembers_her_checks_in_view_and_history() -> None:
    seed = 1
    seer = seat_of("SEER", seed)
    c = console("werewolf", 9, seed=seed, human=seer)
    target = next(p.seat for p in c.table.view(seer).players if p.seat != seer)
    for _ in range(20):
        if c.table.status().phase == "NIGHT_SEER":
            break
        c.handle("pass")
    c.handle(f"act check {target}")
    check = re.search(rf"Your check: {target} is (good|on the werewolves' side)\.", text(c))
    assert check
    for _ in range(6):  # a day later
        c.handle("pass")
    start = len(text(c))
    c.handle("view")
    shown = text(c)[start:]
    assert "What you have learned:" in shown and check.group(0) in shown
    start = len(text(c))
    c.handle("history")
    history = text(c)[start:]
    assert check.group(0) in history and "The game begins." in history
    assert history.index("The game begins.") < history.index(check.group(0))


def test_history_shows_only_the_seats_own_lines() -> None:
    seed = 2
    seat = seat_of("VILLAGER", seed)
    c = console("werewolf", 9, seed=seed, human=seat)
    for _ in range(30):
        if c.table.over:
            break
        c.handle("pass")
    start = len(text(c))
    c.handle("history")
    history = text(c)[start:]
    assert "Your check" not in history and "The seer's check" not in history and "protect" not in history.lower()
    c.handle(f"history {next(s for s in c.table.seats if s != seat)}")
    assert "you may only read your own seat's history" in text(c)


# ---------------------------------------------------------------------- agents


def test_bots_are_the_projects_agents_by_name() -> None:
    c = console("werewolf", 9, seed=1, human="p3", agent="heuristic")
    assert set(c.agents) == set(c.table.seats) - {"p3"}
    assert all(type(a) is HEURISTICS["werewolf"] for a in c.agents.values())
    r = console("werewolf", 9, seed=1, bots=True)
    assert all(isinstance(a, RandomAgent) for a in r.agents.values())
    code, out, _ = run(["werewolf", "--human", "p3", "--bots", "heuristic"], "pass\n" * 200)
    assert code == 0 and "game over" in out
    code, out, _ = run(["werewolf", "--bots", "--seed", "1"])  # the README's command
    assert code == 0 and "game over" in out
    code, _, err = run(["race", "--bots", "heuristic"])
    assert code == 2 and "no heuristic agent for 'race'" in err


def test_the_console_has_no_random_bot_of_its_own_and_no_test_harness() -> None:
    for path in sorted(CONSOLE_SRC.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
        imported |= {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        assert not any("enginetest" in m or m == "random" for m in imported), (path.name, imported)


# ---------------------------------------------------------------------- the end, saving


def test_one_night_reveals_the_card_each_seat_ends_with_and_marks_winners_by_it() -> None:
    for seed in range(1, 60):
        c = console("onenight", 5, seed=seed, bots=True)
        c.handle("run")
        players = c.table.inspect().all_players()
        held = {p.id: p.vars["card"] for p in players}
        if held == {p.id: p.role for p in players}:
            continue  # no card moved: try another deal
        reveal = text(c)[text(c).index("reveal") :]
        rows = {}
        for line in reveal.splitlines():
            if line.startswith("│ p"):
                cells = [x.strip() for x in line.strip("│").split("│")]
                rows[cells[0]] = (cells[1], cells[3] == "yes")
        assert {s: r for s, (r, _) in rows.items()} == {s: c.words.role_name(card) for s, card in held.items()}
        assert c.table.outcome is not None
        assert {s for s, (_, won) in rows.items() if won} == set(c.table.outcome.winners)
        assert {p.seat: p.role for p in c.table.view(None).players} == held
        return
    raise AssertionError("no deal in which a card moved")


def test_a_player_may_save_only_once_the_game_is_over(tmp_path: Path) -> None:
    c = console("werewolf", 9, seed=2, human=seat_of("VILLAGER", 2))
    path = tmp_path / "t.json"
    c.handle(f"save {path}")
    assert "save is refused until the game is over" in text(c) and not path.exists()
    play_passing(c)
    assert c.table.over
    c.handle(f"save {path}")
    assert path.read_bytes() == c.table.log().to_json()
    host = console("werewolf", 9, seed=2)
    host.handle(f"save {path}")  # the host may save at any time
    assert path.read_bytes() == host.table.log().to_json()


def test_a_players_console_says_the_game_is_over_and_stops_reading() -> None:
    c = console("redblue", 5, seed=1, human="p1")
    lines = iter(["act vote p2", *(["pass"] * 50), "status", "status"])
    c.loop(lines)
    out = text(c)
    assert c.table.over and out.rstrip().endswith("Goodbye.")
    assert "The game is over." in out
    assert next(lines, None) is not None, "lines after the end are not read"
    host = console("redblue", 5, seed=1, bots=True)
    more = iter(["run", "reveal", "log", "quit", "status"])
    host.loop(more)
    assert "As host you may still look at the table" in text(host)
    assert "#1 act" in text(host) and list(more) == ["status"]


def test_the_end_of_input_says_goodbye() -> None:
    code, out, _ = run(["werewolf", "--human", "p3"], "status\n")
    assert code == 0 and out.rstrip().endswith("Goodbye.")


# ---------------------------------------------------------------------- options that need another option


def test_an_option_that_needs_another_is_refused_unless_that_one_is_set() -> None:
    d = definition("werewolf")
    with pytest.raises(hr.GameError, match="'wolves' has no effect unless composition=custom"):
        d.parse_options({"wolves": "1"})
    assert d.parse_options({"wolves": "1", "composition": "custom"})["wolves"] == 1
    assert d.parse_options({"wolves": "2"})["wolves"] == 2  # the default changes nothing: accepted
    # A log records every option with its default, so replaying one is never refused.
    t = Table.open(d, 9, d.parse_options({}), seed=1)
    assert Table.replay(d, t.log().to_json()).options == t.options
    described = {o["name"]: o for o in d.describe()["options"]}
    assert described["wolves"]["requires"] == {"option": "composition", "value": "custom"}


def test_a_requirement_must_name_a_declared_option_and_a_value_it_may_hold() -> None:
    from hiddenrole.gamedef import Deal, GameDefinition, InvalidGame, Option, Settings

    def setup(options: Settings, seats: tuple[str, ...], rng: random.Random) -> Deal:
        raise AssertionError("never dealt")

    mode = Option.choice("mode", "a", ("a", "b"))
    with pytest.raises(InvalidGame, match="requires 'nope', which is not declared"):
        GameDefinition("g", "1", setup, options=(Option.integer("n", 1, 0, 3, requires=("nope", "b")),))
    with pytest.raises(InvalidGame, match="requires mode='c'"):
        GameDefinition("g", "1", setup, options=(mode, Option.integer("n", 1, 0, 3, requires=("mode", "c"))))
    with pytest.raises(InvalidGame, match="another option's name"):
        Option.boolean("x", requires=("x", True))
