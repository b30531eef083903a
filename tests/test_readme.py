"""README's quickstart must run as printed."""

import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def test_readme_quickstart_runs() -> None:
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    assert blocks, "README has no python example"
    namespace: dict[str, object] = {}
    exec(compile(blocks[0], "README.md", "exec"), namespace)
    engine = namespace["engine"]
    assert engine.status().winners == ("RED",)  # type: ignore[attr-defined]


def test_ci_runs_exactly_the_readme_test_command() -> None:
    """CI (``.ci/run``) runs the README's test command, character for character."""
    blocks = re.findall(r"```bash\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    tests = [line for block in blocks for line in block.splitlines() if "pytest" in line]
    assert len(tests) == 1, tests
    ci = (README.parent / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert tests[0] in ci
    assert "--durations=15" in tests[0]
