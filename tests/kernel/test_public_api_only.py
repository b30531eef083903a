"""Meta-test: rules packages use only the kernel's public names.

Every module under ``src/hiddenrole/games/`` may import ``hiddenrole`` itself (and use
only names in ``hiddenrole.__all__`` through it), ``from hiddenrole import X`` with X
public, and anything inside its own rules package. Reaching into kernel modules
(``hiddenrole.engine``, ``hiddenrole.state``, ...) or into another rules package is
refused, so the kernel's internals stay free to change.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import hiddenrole as hr
from hiddenrole import gamedef

GAMES = Path(hr.__file__).resolve().parent / "games"
PUBLIC = frozenset(hr.__all__)
GAMEDEF = "hiddenrole.gamedef"
"""The definitions layer below the games: a rules package builds its hosting definition from its public names."""
DEFINITIONS = frozenset(gamedef.__all__)


def module_name(path: Path, games_root: Path) -> str:
    """Dotted name of a file under ``games_root`` (``.../werewolf/roles.py`` -> ``hiddenrole.games.werewolf.roles``)."""
    parts = list(path.relative_to(games_root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(["hiddenrole", "games", *parts])


def own_package(module: str, is_package: bool) -> str:
    """The rules package a module belongs to (``hiddenrole.games`` for the games package itself)."""
    parts = module.split(".")
    return ".".join(parts[:3]) if len(parts) >= 3 else module if is_package else ".".join(parts[:-1])


def _within(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def _resolve(node: ast.ImportFrom, module: str, is_package: bool) -> str:
    if not node.level:
        return node.module or ""
    base = module.split(".") if is_package else module.split(".")[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def check_source(source: str, module: str, is_package: bool = False) -> list[str]:
    """Violations of the public-API rule in one module's source, as readable messages."""
    tree = ast.parse(source)
    own = own_package(module, is_package)
    problems: list[str] = []
    kernel_aliases: set[str] = set()

    def check_module(name: str, line: int) -> None:
        if not _within(name, "hiddenrole") or name in ("hiddenrole", GAMEDEF) or _within(name, own):
            return  # the standard library, the public kernel or definitions API, or the module's own package
        problems.append(f"line {line}: imports {name} (kernel internals or another rules package)")

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                check_module(alias.name, node.lineno)
                if alias.name == "hiddenrole":
                    kernel_aliases.add(alias.asname or "hiddenrole")
        elif isinstance(node, ast.ImportFrom):
            source_mod = _resolve(node, module, is_package)
            if source_mod == "hiddenrole":
                for alias in node.names:
                    if alias.name == "*":
                        problems.append(f"line {node.lineno}: star import from hiddenrole")
                    elif alias.name not in PUBLIC:
                        problems.append(f"line {node.lineno}: hiddenrole.{alias.name} is not public")
            elif source_mod == GAMEDEF:
                for alias in node.names:
                    if alias.name not in DEFINITIONS:
                        problems.append(f"line {node.lineno}: {GAMEDEF}.{alias.name} is not public")
            elif source_mod == "hiddenrole.games":
                for alias in node.names:
                    check_module(f"hiddenrole.games.{alias.name}", node.lineno)
            else:
                check_module(source_mod, node.lineno)
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in kernel_aliases
            and node.attr not in PUBLIC
            and not node.attr.startswith("__")
        ):
            problems.append(f"line {node.lineno}: {node.value.id}.{node.attr} is not public")
    return problems


def check_file(path: Path, games_root: Path = GAMES) -> list[str]:
    return check_source(path.read_text(encoding="utf-8"), module_name(path, games_root), path.name == "__init__.py")


def game_modules() -> list[Path]:
    return sorted(GAMES.rglob("*.py"))


def test_there_are_rules_modules_to_check() -> None:
    names = {p.relative_to(GAMES).parts[0] for p in game_modules()}
    assert "redblue" in names


@pytest.mark.parametrize("path", game_modules(), ids=lambda p: str(p.relative_to(GAMES)))
def test_rules_modules_import_only_public_kernel_names(path: Path) -> None:
    assert check_file(path) == []


GOOD = [
    "import hiddenrole as hr\nx = hr.Engine\n",
    "from hiddenrole import Engine, set_alive\n",
    "import hiddenrole\nhiddenrole.Rules\n",
    "from . import vocab\nfrom .vocab import *\n",
    "from .vocab import WOLF\n",
    "from hiddenrole.games.werewolf import vocab\n",
    "from hiddenrole.games import werewolf as ww\n",
    "import hiddenrole.games.werewolf.vocab\n",
    "import random\nfrom collections import Counter\n",
    "from hiddenrole.gamedef import GameDefinition, Option\n",
    "import hiddenrole.gamedef\n",
]
BAD = {
    "kernel module": "import hiddenrole.engine\n",
    "from kernel module": "from hiddenrole.state import State\n",
    "kernel module via from": "from hiddenrole import engine\n",
    "private name": "from hiddenrole import coerce_effects\n",
    "star from kernel": "from hiddenrole import *\n",
    "attribute reach": "import hiddenrole as hr\nhr.state.State\n",
    "attribute reach, plain import": "import hiddenrole\nhiddenrole.persistence.coerce_log\n",
    "relative escape": "from ... import engine\n",
    "relative escape to module": "from ...effects import frozen_map\n",
    "another rules package": "from hiddenrole.games.missions import vocab\n",
    "another rules package via games": "from hiddenrole.games import onenight\n",
    "another rules package, import": "import hiddenrole.games.redblue\n",
    "definitions internals": "from hiddenrole.gamedef.registry import _discover\n",
    "private definitions name": "from hiddenrole.gamedef import registry_state\n",
    "the host": "from hiddenrole.host import Table\n",
}


@pytest.mark.parametrize("source", GOOD)
def test_checker_accepts_public_and_own_package_imports(source: str) -> None:
    assert check_source(source, "hiddenrole.games.werewolf.roles") == []


@pytest.mark.parametrize("what", sorted(BAD))
def test_checker_flags_private_imports(what: str) -> None:
    assert check_source(BAD[what], "hiddenrole.games.werewolf.roles") != []


def test_checker_fails_on_a_planted_bad_file(tmp_path: Path) -> None:
    root = tmp_path / "games"
    pkg = root / "planted"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("import hiddenrole as hr\nfrom .rules import rules\n", encoding="utf-8")
    bad = pkg / "rules.py"
    bad.write_text(
        "import hiddenrole as hr\nfrom hiddenrole.engine import Engine\n\ndef rules() -> None:\n    return hr.state\n",
        encoding="utf-8",
    )
    assert check_file(pkg / "__init__.py", root) == []
    problems = check_file(bad, root)
    assert len(problems) == 2
    assert "hiddenrole.engine" in problems[0]
    assert "hr.state" in problems[1]


def test_package_init_relative_imports_resolve_inside_the_package() -> None:
    assert check_source("from .vocab import X\n", "hiddenrole.games.werewolf", is_package=True) == []
    assert check_source("from .. import redblue\n", "hiddenrole.games.werewolf", is_package=True) != []
