"""The registry: shipped games come through entry points like any other; in-process registration; typed errors."""

from __future__ import annotations

import dataclasses
import random
import tomllib
from importlib import metadata
from pathlib import Path

import pytest

import hiddenrole as hr
from hiddenrole import gamedef
from hiddenrole.gamedef import Deal, GameDefinition, registry
from hiddenrole.games import werewolf

from .conftest import Install

ROOT = Path(__file__).resolve().parents[2]
GAMES = Path(hr.__file__).resolve().parent / "games"


def _setup(options: gamedef.Settings, seats: tuple[str, ...], rng: random.Random) -> Deal:
    raise AssertionError("not called")


SOLO = GameDefinition(name="solo", version="1", setup=_setup)


def _declared() -> dict[str, str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return dict(project["project"]["entry-points"][gamedef.ENTRY_POINT_GROUP])


def test_every_shipped_rules_package_with_a_hosting_module_is_declared_and_installed() -> None:
    """A new game in this package needs its hosting.py and one entry point line; nothing else names it."""
    hosted = sorted(p.parent.name for p in GAMES.glob("*/hosting.py"))
    declared = _declared()
    assert sorted(declared) == hosted
    assert all(value == f"hiddenrole.games.{name}.hosting:DEFINITION" for name, value in declared.items())
    installed = {ep.name: ep.value for ep in metadata.entry_points(group=gamedef.ENTRY_POINT_GROUP)}
    stale = {n: v for n, v in declared.items() if installed.get(n) != v}
    assert not stale, f"the installed metadata lags pyproject.toml, reinstall: pip install -e . ({stale})"
    assert registry.available() == tuple(hosted) and not registry.problems()


@pytest.mark.parametrize("name", ["missions", "redblue", "werewolf"])
def test_hidden_role_games_share_the_one_default_reveal(name: str) -> None:
    # One Night turns over the card each seat ends with (it decides the winners): tests/console.
    d = registry.get(name)
    assert d.public_roles is gamedef.roles_public_at_end  # not a copy in each game
    assert d.min_seats <= d.default_seats <= d.max_seats


def test_default_seats_are_a_classic_table_of_each_game() -> None:
    seats = {name: registry.get(name).default_seats for name in registry.names()}
    assert seats == {"missions": 7, "onenight": 6, "race": 3, "redblue": 5, "werewolf": 9}


def test_an_unknown_game_has_its_own_code_and_is_still_invalid_game() -> None:
    with pytest.raises(gamedef.UnknownGame, match=r"no game 'chess'.*werewolf") as info:
        registry.get("chess")
    assert info.value.code == "UNKNOWN_GAME" and isinstance(info.value, gamedef.InvalidGame)
    with pytest.raises(gamedef.UnknownGame, match="text"):
        registry.get(3)  # type: ignore[arg-type]


def test_register_serves_a_definition_in_process_until_unregistered() -> None:
    try:
        assert registry.register(SOLO) is SOLO
        assert registry.register(SOLO) is SOLO  # the same object again: no-op
        assert "solo" in registry.names() and registry.get("solo") is SOLO and "solo" in registry.available()
        with pytest.raises(gamedef.DuplicateGame, match="already registered"):
            registry.register(dataclasses.replace(SOLO, version="2"))
    finally:
        registry.unregister("solo")
    assert "solo" not in registry.names()
    registry.unregister("solo")  # forgetting twice is harmless


def test_register_refuses_an_installed_name_and_what_is_not_a_definition() -> None:
    with pytest.raises(gamedef.DuplicateGame, match="hiddenrole"):
        registry.register(dataclasses.replace(SOLO, name="werewolf"))
    assert registry.get("werewolf").version == werewolf.VERSION
    with pytest.raises(gamedef.InvalidGame, match="GameDefinition"):
        registry.register("werewolf")  # type: ignore[arg-type]


def test_a_registration_that_a_package_later_claims_is_a_duplicate(install: Install) -> None:
    registry.register(SOLO)
    try:
        install("solo-pkg", {"solo": "solo_rules:DEFINITION"}, {"solo_rules": "DEFINITION = None\n"})
        with pytest.raises(gamedef.DuplicateGame, match="in-process"):
            registry.get("solo")
    finally:
        registry.unregister("solo")


def test_names_are_sorted_whatever_the_order_of_sys_path(install: Install) -> None:
    install("zeta", {"zz-game": "zz:DEFINITION", "aa-game": "aa:DEFINITION"}, {})
    install("alpha", {"mm-game": "mm:DEFINITION"}, {})
    names = registry.names()
    assert names == tuple(sorted(names)) and {"aa-game", "mm-game", "zz-game"} <= set(names)


def test_an_entry_with_a_bad_game_name_is_broken_not_served(install: Install) -> None:
    install("shouty", {"Shouty": "shouty_rules:DEFINITION"}, {"shouty_rules": "raise SystemExit('never imported')\n"})
    with pytest.raises(gamedef.BrokenGame, match="lowercase"):
        registry.get("Shouty")
    assert "Shouty" in registry.problems() and "Shouty" not in registry.available()


def test_a_broken_module_is_imported_once(install: Install, tmp_path: Path) -> None:
    counter = tmp_path / "imports.txt"
    source = (
        f"from pathlib import Path\np = Path({str(counter)!r})\np.write_text(p.read_text() + 'x')\nraise ValueError\n"
    )
    counter.write_text("")
    install("once", {"once": "once_rules:DEFINITION"}, {"once_rules": source})
    for _ in range(3):
        with pytest.raises(gamedef.BrokenGame, match="ValueError"):
            registry.get("once")
    registry.available()
    assert counter.read_text() == "x"
