"""The optional compiled build (``hatch_build.py``): what it compiles and when it runs at all.

Building and testing the compiled kernel itself is ``scripts/check_compiled.py`` (CI's second pass).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import hatch_build  # noqa: E402

SRC = ROOT / "src" / "hiddenrole"
TOP_LEVEL = frozenset(p.stem for p in SRC.glob("*.py"))
RULES = frozenset(
    f"{pkg}.{p.stem}" for pkg in hatch_build.RULES_PACKAGES for p in SRC.joinpath(*pkg.split(".")).glob("*.py")
)


def test_every_kernel_and_rules_module_is_compiled_unless_named_with_a_reason() -> None:
    compiled = hatch_build.compiled_modules(SRC)
    assert compiled == sorted((TOP_LEVEL | RULES) - set(hatch_build.NOT_COMPILED))
    assert {"engine", "state", "effects"} <= set(compiled)
    assert {"games.werewolf.resolution", "games.missions.play", "games.onenight.resolvers"} <= set(compiled)


def test_what_stays_pure_exists_and_says_why() -> None:
    stale = set(hatch_build.NOT_COMPILED) - TOP_LEVEL - RULES
    assert not stale, f"NOT_COMPILED names modules that are gone: {sorted(stale)}"
    assert all(reason.strip() for reason in hatch_build.NOT_COMPILED.values())


@pytest.mark.parametrize(("value", "compiles"), [(None, False), ("", False), ("0", False), ("yes", False), ("1", True)])
def test_only_the_variable_set_to_1_compiles(
    monkeypatch: pytest.MonkeyPatch, value: str | None, compiles: bool
) -> None:
    if value is None:
        monkeypatch.delenv(hatch_build.ENV_VAR, raising=False)
    else:
        monkeypatch.setenv(hatch_build.ENV_VAR, value)
    assert hatch_build.enabled() is compiles


def test_the_compiler_is_pinned() -> None:
    assert any(r.startswith("mypy==") for r in hatch_build.MYPYC_REQUIREMENTS)


@pytest.mark.parametrize(("value", "level"), [(None, "3"), ("0", "0"), ("3", "3")])
def test_the_optimisation_level_defaults_to_the_fastest(
    monkeypatch: pytest.MonkeyPatch, value: str | None, level: str
) -> None:
    if value is None:
        monkeypatch.delenv(hatch_build.OPT_ENV_VAR, raising=False)
    else:
        monkeypatch.setenv(hatch_build.OPT_ENV_VAR, value)
    assert hatch_build.opt_level() == level
    assert f"opt_level={level!r}" in hatch_build.SETUP.format(paths=[], opt=hatch_build.opt_level())


@pytest.mark.parametrize("value", ["", "O2", "4", " 3"])
def test_a_mistyped_optimisation_level_is_refused(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    monkeypatch.setenv(hatch_build.OPT_ENV_VAR, value)
    with pytest.raises(ValueError, match=hatch_build.OPT_ENV_VAR):
        hatch_build.opt_level()
