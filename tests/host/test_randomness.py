"""Chance comes only from the table's seeded randomness, and replays exactly."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import hiddenrole as hr
from hiddenrole import host
from hiddenrole.host import Table
from hiddenrole.host.catalog import get

from .support import POKE, SPIES_DEF, play_out, spy_of

RACE = get("race")
REDBLUE = get("redblue")
SRC = Path(hr.__file__).parent


def _rolls(t: Table) -> list[str]:
    return [e.data["die"] for e in t.view(None).events if e.type == "ROLLED"]


def test_the_same_seed_gives_the_same_game() -> None:
    a = Table.open(RACE, 3, {"target": 30}, seed=77)
    b = Table.open(RACE, 3, {"target": 30}, seed=77)
    play_out(a, 1)
    play_out(b, 1)
    assert a.moves() == b.moves() and a.log().end == b.log().end  # (the ids are random)
    assert _rolls(a) == _rolls(b)


def test_another_seed_gives_other_dice() -> None:
    a = Table.open(RACE, 2, {"target": 100}, seed=1)
    b = Table.open(RACE, 2, {"target": 100}, seed=2)
    for t in (a, b):
        for _ in range(20):
            t.act(t.view().turn, "ROLL")
    assert _rolls(a) != _rolls(b)


def test_the_seed_deals_the_roles() -> None:
    deals = {tuple(p.role for p in Table.open(REDBLUE, 8, seed=s).inspect().all_players()) for s in range(12)}
    assert len(deals) > 1
    assert spy_of(Table.open(SPIES_DEF, 6, seed=5)) == spy_of(Table.open(SPIES_DEF, 6, seed=5))


def test_each_draw_is_recorded_and_the_global_random_is_untouched() -> None:
    random.seed(1234)
    state = random.getstate()
    t = Table.open(SPIES_DEF, 3, seed=3)
    t.act("p1", POKE, ["p2"])
    t.act("p2", POKE, ["p3"])
    assert [m.draws for m in t.moves()] == [1, 1]
    assert random.getstate() == state


def test_dice_are_handed_to_the_kernel_as_a_variable_and_consumed() -> None:
    t = Table.open(RACE, 2, {"target": 100}, seed=8)
    t.act("p1", "ROLL")
    die = int(_rolls(t)[0])
    assert 1 <= die <= 6
    assert t.inspect().var(hr.GAME.of("p1"), "position") == str(die)
    assert t.inspect().var(hr.GAME, "die") == ""  # the rules cleared it: a die is never used twice


def test_shuffle_draws_replay_exactly() -> None:
    def draws(move: host.Move, ctx: host.Context) -> tuple[host.Draw, ...]:
        if move.kind == host.ACT:
            return (host.Draw.shuffled("deck", ["a", "b", "c", "d"]), host.Draw.die("d20", 20))
        return ()

    import dataclasses

    d = dataclasses.replace(SPIES_DEF, draws=draws)
    t = Table.open(d, 3, seed=21)
    for _ in range(3):
        t.act("p1", POKE, ["p2"])
    deck = t.inspect().var(hr.GAME, "deck")
    assert sorted(deck.split(",")) == ["a", "b", "c", "d"]
    again = Table.replay(d, t.log().to_json())
    assert again.inspect().var(hr.GAME, "deck") == deck
    assert again.inspect().var(hr.GAME, "d20") == t.inspect().var(hr.GAME, "d20")
    assert [m.draws for m in t.moves()] == [2, 2, 2]


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            names.add("." * node.level + (node.module or ""))
    return names


def test_the_race_rules_hold_no_randomness_and_use_the_public_kernel_api_only() -> None:
    for path in sorted((SRC / "games" / "race").glob("*.py")):
        imported = _imports(path)
        assert "secrets" not in imported, path
        if path.name == "hosting.py":  # the definition: its setup hook is handed the table's rng, and ignores it
            allowed = {"__future__", "collections.abc", "dataclasses", "random", "typing"}
            assert imported <= allowed | {"hiddenrole.games", "hiddenrole.gamedef"}, (path, imported)
            continue
        assert "random" not in imported, path
        allowed = {"__future__", "collections.abc", "typing", "hiddenrole", "hiddenrole.gamedef", "."}
        assert imported <= allowed, (path, imported)


def test_games_never_import_the_host() -> None:
    for path in sorted((SRC / "games").rglob("*.py")):
        assert not any("host" in name for name in _imports(path)), path
