"""A game from another package reaches the catalog, the host and the console with no edit in hiddenrole.

The package below is written the way a third party would write it: its own module,
built only from hiddenrole's public APIs (the kernel, the definitions layer and, to
keep it short, the red/blue rules), declared under the ``hiddenrole.games`` entry
point group of its own distribution. Installing it is all it takes.
"""

from __future__ import annotations

import argparse
import io

import pytest

from hiddenrole import host
from hiddenrole.console import Console
from hiddenrole.console.app import add_play_arguments, run_play
from hiddenrole.console.games import catalog_lines, games
from hiddenrole.host import catalog

from .conftest import Install

BLUFF = """
import random

from hiddenrole.gamedef import Deal, GameDefinition, Option, Settings
from hiddenrole.games import redblue


def _setup(options: Settings, seats: tuple[str, ...], rng: random.Random) -> Deal:
    roles = [redblue.RED] * options.number("reds") + [redblue.BLUE] * (len(seats) - options.number("reds"))
    rng.shuffle(roles)
    return Deal(redblue.rules(), dict(zip(seats, roles, strict=True)))


DEFINITION = GameDefinition(
    name="bluff",
    version="7",
    setup=_setup,
    min_seats=3,
    max_seats=6,
    default_seats=4,
    options=(Option.integer("reds", 1, 1, 2, help="red seats"),),
    auto_advance=True,
    summary="a third-party game: find the reds",
)
"""


def _play(argv: list[str]) -> tuple[int, str, str]:
    """``hiddenrole play ARGV``, with a parser built now (its game list comes from the registry)."""
    parser = argparse.ArgumentParser()
    add_play_arguments(parser)
    out, err = io.StringIO(), io.StringIO()
    code = run_play(parser.parse_args(argv), stdin=io.StringIO(""), out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def test_an_installed_third_party_game_is_in_the_catalog_the_host_and_the_console(install: Install) -> None:
    assert "bluff" not in catalog.names()
    install("bluff-game", {"bluff": "bluff_rules:DEFINITION"}, {"bluff_rules": BLUFF})

    assert catalog.names() == ("bluff", "missions", "onenight", "race", "redblue", "werewolf")  # sorted, shipped too
    d = catalog.get("bluff")
    assert (d.version, d.default_seats) == ("7", 4) and catalog.get("bluff") is d
    assert "bluff" in catalog.available() and not catalog.problems()

    t = host.Table.open(d, d.default_seats, {"reds": 2}, seed=3)
    assert {p.role for p in t.view(None).players} == {""}  # the shared default: roles hidden while it runs
    assert host.verify(t.log().to_json()).header.game == "bluff"  # verify() finds the game by name too

    assert "bluff" in games()
    assert any(line.startswith("bluff ") and "third-party" in line for line in catalog_lines())
    code, out, err = _play(["bluff", "--bots", "--seed", "2"])
    assert code == 0, err
    assert "game over" in out and "winners:" in out
    assert "p4" in out and "p5" not in out  # the definition's default seat count
    c = Console.open("bluff", None, 2, {}, bots=True, out=io.StringIO())
    c.handle("run")
    assert c.table.over and len(c.table.seats) == 4
    revealed = {p.seat: p.role for p in c.table.view(None).players}
    assert revealed == {p.id: p.role for p in c.table.inspect().all_players()}  # the shared default, at the end


def test_a_broken_third_party_game_is_reported_and_the_others_still_serve(install: Install) -> None:
    install(
        "broken-games",
        {
            "crash": "crash_rules:DEFINITION",
            "notadef": "plain_rules:DEFINITION",
            "misnamed": "bluff_rules2:DEFINITION",
            "missing": "no_such_module_here:DEFINITION",
            "exits": "exit_rules:DEFINITION",
        },
        {
            "crash_rules": "raise RuntimeError('the author forgot something')\n",
            "plain_rules": "DEFINITION = {'name': 'notadef'}\n",
            "bluff_rules2": BLUFF,
            "exit_rules": "raise SystemExit(3)\n",
        },
    )
    expected = {
        "crash": "RuntimeError: the author forgot something",
        "notadef": "is a dict, not a GameDefinition",
        "misnamed": "defines a game named 'bluff'",
        "missing": "ModuleNotFoundError",
        "exits": "SystemExit: 3",
    }
    assert set(expected) <= set(catalog.names())
    for name, why in expected.items():
        with pytest.raises(host.BrokenGame, match=why) as info:
            catalog.get(name)
        assert info.value.code == "BROKEN_GAME" and isinstance(info.value, host.InvalidGame)
    assert sorted(catalog.problems()) == sorted(expected)
    assert all(p.code == "BROKEN_GAME" for p in catalog.problems().values())
    assert catalog.available() == ("missions", "onenight", "race", "redblue", "werewolf")

    # The console lists the games that load, says which do not, and still plays.
    assert games() == catalog.available()
    broken = [line for line in catalog_lines() if "unavailable" in line]
    assert [line.split()[0] for line in broken] == sorted(expected)
    assert all("BROKEN_GAME" in line for line in broken)
    assert _play(["race", "--bots"])[0] == 0


def test_two_packages_claiming_one_name_serve_neither(install: Install) -> None:
    install("bluff-a", {"bluff": "bluff_a:DEFINITION"}, {"bluff_a": BLUFF})
    install("bluff-b", {"bluff": "bluff_b:DEFINITION"}, {"bluff_b": BLUFF})
    with pytest.raises(host.DuplicateGame, match=r"bluff-a 0\.1.*bluff-b 0\.1") as info:
        catalog.get("bluff")
    assert info.value.code == "DUPLICATE_GAME"
    assert "bluff" not in catalog.available() and catalog.names().count("bluff") == 1


def test_a_package_claiming_a_shipped_name_is_a_duplicate_too(install: Install) -> None:
    """No order between packages says which one was meant, so a clash is reported, never resolved silently."""
    install("impostor", {"werewolf": "impostor_rules:DEFINITION"}, {"impostor_rules": BLUFF})
    with pytest.raises(host.DuplicateGame, match=r"impostor 0\.1"):
        catalog.get("werewolf")
    assert catalog.get("race").name == "race"


def test_the_same_entry_seen_twice_is_one_game(install: Install) -> None:
    """One module declared by two distributions (or one seen through two paths) is not a clash."""
    install("bluff-one", {"bluff": "bluff_same:DEFINITION"}, {"bluff_same": BLUFF})
    install("bluff-two", {"bluff": "bluff_same:DEFINITION"}, {})
    assert catalog.get("bluff").name == "bluff"
