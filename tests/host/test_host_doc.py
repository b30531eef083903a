"""docs/HOST.md: its opening example runs, and its sample log is what a table writes."""

from __future__ import annotations

import json
import re
from pathlib import Path

from hiddenrole.host import Table
from hiddenrole.host.catalog import get

HOST_MD = Path(__file__).resolve().parents[2] / "docs" / "HOST.md"


def _blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", HOST_MD.read_text(encoding="utf-8"), flags=re.S)


def test_the_opening_example_runs() -> None:
    scope: dict[str, object] = {}
    exec(_blocks("python")[0], scope)
    table = scope["table"]
    assert isinstance(table, Table)
    assert scope["version"] == 2 and table.seq == 1
    pushed = scope["pushed"]
    assert [n.version for n in pushed] == [2] and pushed[0].events[0].type == "ROLLED"  # type: ignore[index]
    assert scope["again"].log().to_json() == scope["saved"]  # type: ignore[attr-defined]


def test_the_sample_log_is_what_a_table_writes() -> None:
    sample = json.loads(_blocks("json")[0].replace("…sha256 of the board…", "x"))
    t = Table.open(get("race"), ["ann", "bob", "cy"], {"target": 30}, seed=42, table_id="t1")
    t.act("ann", "ROLL")
    t.say("bob", "good luck")
    t.act("bob", "TAUNT", ["ann"])
    written = json.loads(t.log().to_json())
    assert written["header"] == sample["header"]
    assert written["moves"] == sample["moves"]
    assert written["end"]["seq"] == sample["end"]["seq"] and written["end"]["outcome"] is None
