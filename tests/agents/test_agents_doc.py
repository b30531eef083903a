"""docs/AGENTS.md's examples run as written, and the names it documents exist."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

import hiddenrole.agents as agents

DOC = Path(__file__).resolve().parents[2] / "docs" / "AGENTS.md"
BLOCKS = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.DOTALL)


def test_the_doc_has_its_examples() -> None:
    assert len(BLOCKS) >= 3


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_each_example_runs(index: int, capsys: pytest.CaptureFixture[str]) -> None:
    code = BLOCKS[index]
    if "hiddenrole.agents.pz" in code and importlib.util.find_spec("pettingzoo") is None:
        pytest.skip("needs the rl extra")
    exec(compile(code, f"AGENTS.md block {index}", "exec"), {"__name__": f"agents_doc_{index}"})


def test_documented_names_exist() -> None:
    text = DOC.read_text(encoding="utf-8")
    for name in ("MAX_ATTEMPTS", "MAX_DECISIONS", "MAX_IDLE_PHASES", "make_agent", "seat_rng", "SeatRunner"):
        assert name in text and hasattr(agents, name)
    assert f"`MAX_ATTEMPTS` ({agents.MAX_ATTEMPTS})" in text
    assert f"`MAX_DECISIONS`\n({agents.MAX_DECISIONS})" in text or f"({agents.MAX_DECISIONS})" in text
