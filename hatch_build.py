"""Optional compiled build of the kernel: ``HIDDENROLE_COMPILE=1 pip install .``.

Without the variable this hook does nothing and the wheel stays pure Python (the
reference). With it, mypyc compiles the kernel's top-level modules and the rules modules of
:data:`RULES_PACKAGES` (globbed, so a new module is compiled too) into C extensions that
sit next to the ``.py`` files in the wheel; Python's importer prefers them.
See docs/ARCHITECTURE.md ("Compiled kernel").
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.config import BuilderConfig
from hatchling.builders.hooks.plugin.interface import BuildHookInterface

ENV_VAR = "HIDDENROLE_COMPILE"
"""Set to ``1`` to compile; anything else (or unset) builds the pure-Python wheel."""

OPT_ENV_VAR = "HIDDENROLE_COMPILE_OPT"
"""The C compiler's optimisation level for the compiled build, ``0`` to ``3``; unset: :data:`DEFAULT_OPT`."""
DEFAULT_OPT = "3"
"""What users get: the fastest code. CI's compiled pass builds at ``0`` (see scripts/check_compiled.py)."""
OPT_LEVELS = ("0", "1", "2", "3")

MYPYC_REQUIREMENTS = ["mypy==2.4.1", "setuptools>=70"]
"""What the compiled build needs in the build environment (pinned: the build is reproducible)."""

RULES_PACKAGES = ("games.werewolf", "games.missions", "games.onenight")
"""Rules packages compiled with the kernel: typed, on the public kernel API only, and their resolvers,
legality and victory checks are what a game runs besides the kernel (the shipped games' play speed)."""

_HOST = "the host layer's part of the package (imports gamedef); not play"
_SETUP = (
    "setup: validates the caller's Python arguments with typed errors (a bool or a str where an int is"
    " declared), which compiled code would turn into a plain TypeError or accept; runs once per game"
)
_REEXPORTS = "the package's re-exports and assembly of its Rules (once, cached); nothing hot"
_VOCAB = "names and constants, nothing to run (compiled callers inline the Final literals); saves CI build CPU"

NOT_COMPILED: dict[str, str] = {
    "__init__": "the public API's re-exports; nothing hot",
    "cli": "the command line, not the kernel",
    "errors": "mypyc refuses InvalidArgument(GameError, TypeError, ValueError): builtin-type multiple inheritance",
    "rules": "mypyc refuses @runtime_checkable Protocols; Bound turns rules into plain callables once anyway",
    "games.werewolf.__init__": _REEXPORTS,
    "games.werewolf.hosting": _HOST,
    "games.werewolf.narration": _HOST,
    "games.werewolf.boards": _SETUP,
    "games.werewolf.roles": _SETUP,
    "games.werewolf.switches": _SETUP,
    "games.werewolf.phases": "builds the phase Config once per Rules (cached), not play; saves CI build CPU",
    "games.werewolf.vocab": _VOCAB,
    "games.missions.__init__": _REEXPORTS,
    "games.missions.hosting": _HOST,
    "games.missions.narration": _HOST,
    "games.missions.boards": _SETUP,
    "games.missions.engines": _SETUP,
    "games.missions.tables": _SETUP,
    "games.missions.vocab": _VOCAB,
    "games.onenight.__init__": _REEXPORTS,
    "games.onenight.hosting": _HOST,
    "games.onenight.narration": _HOST,
    "games.onenight.dealing": _SETUP,
    "games.onenight.vocab": _VOCAB,
}
"""Modules of the kernel (top level of ``hiddenrole``) and of :data:`RULES_PACKAGES` left pure, and why
(dotted, relative to ``hiddenrole``). Every other module there is compiled."""

SETUP = """\
from mypyc.build import mypycify
from setuptools import setup

setup(name="hiddenrole-kernel", ext_modules=mypycify({paths!r}, group_name="hiddenrole", opt_level={opt!r}))
"""


def enabled() -> bool:
    return os.environ.get(ENV_VAR, "") == "1"


def opt_level() -> str:
    """:data:`OPT_ENV_VAR`, checked: a typo must not silently build something else."""
    level = os.environ.get(OPT_ENV_VAR, DEFAULT_OPT)
    if level not in OPT_LEVELS:
        raise ValueError(f"{OPT_ENV_VAR} must be one of {', '.join(OPT_LEVELS)}, not {level!r}")
    return level


def candidate_modules(package: Path) -> list[str]:
    """Every module of the kernel and of :data:`RULES_PACKAGES`, dotted relative to ``package``, sorted."""
    kernel = [p.stem for p in package.glob("*.py")]
    rules = [f"{pkg}.{p.stem}" for pkg in RULES_PACKAGES for p in package.joinpath(*pkg.split(".")).glob("*.py")]
    return sorted(kernel + rules)


def compiled_modules(package: Path) -> list[str]:
    """The compiled modules: :func:`candidate_modules` less :data:`NOT_COMPILED`."""
    return [m for m in candidate_modules(package) if m not in NOT_COMPILED]


def compile_modules(package: Path, out: Path) -> list[Path]:
    """Compile :func:`compiled_modules` of ``package`` (``src/hiddenrole``) in a scratch copy; return the
    extensions (``hiddenrole/<path>.<tag>.so`` and the shared ``hiddenrole__mypyc.<tag>.so``) under ``out``."""
    work = out / "src"
    shutil.copytree(package, work / "hiddenrole", ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    paths = [f"hiddenrole/{m.replace('.', '/')}.py" for m in compiled_modules(package)]
    (work / "setup.py").write_text(SETUP.format(paths=paths, opt=opt_level()))
    subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace"], cwd=work, check=True)
    return sorted(work.glob("*__mypyc*.so")) + sorted((work / "hiddenrole").rglob("*.so"))


class CustomBuildHook(BuildHookInterface[BuilderConfig]):
    """Hatchling's custom hook: pulls mypy in and compiles only when :data:`ENV_VAR` is ``1``."""

    def dependencies(self) -> list[str]:
        return list(MYPYC_REQUIREMENTS) if enabled() else []

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if not enabled():
            return
        if version == "editable":
            raise RuntimeError(f"{ENV_VAR}=1 builds a regular wheel: use `pip install .`, not `pip install -e .`")
        out = Path(tempfile.mkdtemp(prefix="hiddenrole-mypyc-"))
        self._scratch = out
        for so in compile_modules(Path(self.root) / "src" / "hiddenrole", out):
            build_data["force_include"][str(so)] = so.relative_to(out / "src").as_posix()
        build_data["pure_python"] = False
        build_data["infer_tag"] = True

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        scratch = getattr(self, "_scratch", None)
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)
