"""Every game's narration module has the one shape docs/NARRATION.md defines.

The kernel knows no game and games never import each other, so the shape lives in the
doc; this test reads it from there and holds all five modules to it, so a front end can
use any game's narration without knowing which game it is.
"""

from __future__ import annotations

import importlib
import inspect
import re
from pathlib import Path
from types import ModuleType

import pytest

import hiddenrole as hr

GAMES = ("werewolf", "missions", "onenight", "race", "redblue")
DOC = Path(__file__).resolve().parents[2] / "docs" / "NARRATION.md"
MARKER = "<!-- narration-shape -->"


def shape(text: str) -> dict[str, str]:
    """``name -> declaration`` from the fenced block after the marker (``def f(x: T) -> R`` or ``N: T``)."""
    block = text.split(MARKER, 1)[1].split("```python", 1)[1].split("```", 1)[0]
    out: dict[str, str] = {}
    for line in block.strip().splitlines():
        m = re.fullmatch(r"def (\w+)(\(.*\) -> .+)", line.strip()) or re.fullmatch(r"(\w+): (.+)", line.strip())
        assert m, f"not a declaration: {line!r}"
        out[m.group(1)] = m.group(2)
    return out


SHAPE = shape(DOC.read_text(encoding="utf-8"))


def module(name: str) -> ModuleType:
    return importlib.import_module(f"hiddenrole.games.{name}.narration")


def declared(value: object) -> str:
    """A function's signature as written in its source (annotations unevaluated)."""
    assert callable(value)
    sig = inspect.signature(value)
    params = []
    for p in sig.parameters.values():
        text = f"{p.name}: {p.annotation}"
        if p.default is not inspect.Parameter.empty:
            text += f" = {p.default!r}"
        params.append(text)
    return f"({', '.join(params)}) -> {sig.return_annotation}"


def test_the_doc_defines_the_shape() -> None:
    assert {"describe", "prompt", "identity", "role_name", "skill_name", "phase_name", "RULES_SUMMARY"} <= set(SHAPE)


@pytest.mark.parametrize("game", GAMES)
def test_exports_exactly_the_shape(game: str) -> None:
    mod = module(game)
    assert sorted(mod.__all__) == sorted(SHAPE), f"{game}: __all__ differs from docs/NARRATION.md"


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("name", sorted(SHAPE))
def test_each_name_has_the_documented_signature_or_type(game: str, name: str) -> None:
    value = getattr(module(game), name)
    want = SHAPE[name]
    if want.startswith("("):
        assert declared(value) == want, f"{game}.{name}"
    elif want == "str":
        assert isinstance(value, str) and value.strip(), f"{game}.{name}"
    elif want == "frozenset[str]":
        assert isinstance(value, frozenset) and value and all(isinstance(v, str) for v in value), f"{game}.{name}"
    else:
        raise AssertionError(f"docs/NARRATION.md declares a type this test does not know: {want}")


@pytest.mark.parametrize("name", sorted(n for n, d in SHAPE.items() if d.startswith("(")))
def test_annotations_mean_the_same_in_every_module(name: str) -> None:
    """Written alike and resolved alike: ``hr.Event`` is the kernel's Event everywhere."""
    sigs = {game: inspect.signature(getattr(module(game), name), eval_str=True) for game in GAMES}
    first = sigs[GAMES[0]]
    for game, sig in sigs.items():
        assert sig == first, f"{game}.{name}{sig} != {GAMES[0]}.{name}{first}"


def test_the_checker_notices_a_different_signature() -> None:
    def describe(event: str, viewer: object) -> str:  # the wrong shape on purpose
        return event

    assert declared(describe) != SHAPE["describe"]


def test_every_package_is_named_after_its_rules() -> None:
    """What lets a front end find the module from ``rules.name``."""
    from hiddenrole.games import missions, onenight, race, redblue, werewolf

    names = (
        werewolf.rules().name,
        missions.rules().name,
        onenight.rules(onenight.default_deck(3)[:3]).name,
        race.rules().name,
        redblue.rules().name,
    )
    assert names == GAMES


@pytest.mark.parametrize("game", GAMES)
def test_rules_summary_is_one_paragraph_of_plain_words(game: str) -> None:
    text = module(game).RULES_SUMMARY
    assert "\n" not in text and 200 <= len(text) <= 1500
    assert not re.search(r"\b[A-Z]{2,}(_[A-Z]+)*\b", text), "no identifiers in the summary"


@pytest.mark.parametrize("game", GAMES)
def test_shared_behaviour_of_every_module(game: str) -> None:
    """What a generic front end may rely on, whatever the game."""
    mod = module(game)
    for kernel_primitive in sorted(hr.INTERNAL_EVENTS):
        assert mod.describe(hr.Event(kernel_primitive, target="p1"), None) is None
    assert mod.describe(hr.Event("LOVERS_LINKED", "p1", "p2"), None) == "Lovers linked: p1 and p2."
    assert mod.describe(hr.Event("LOVERS_LINKED", "p1", canceled=True), None) == "Lovers linked: p1 (refused)."
    for name in (mod.role_name, mod.skill_name, mod.phase_name):
        assert name("SOME_NEW_THING") == "Some new thing"
    assert mod.describe(hr.Event(hr.GAME_ENDED), None) in (
        "The game is over: nobody wins.",
        "The race is over: nobody wins.",
    )
