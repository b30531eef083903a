"""The host invariant over every shipped ruleset, and planted leaks it must catch (issue 8, "Proofs").

Each ruleset gets 200 twin pairs of short games (about 15 s of CPU for all five).
The planted leaks are the three the issue found on main: a table id made from the
seed, a counter of every move in the views, and a notice for every move. Each must
go red both through the whole invariant and through the twin comparison alone
(``single=False``), so that the comparison does not rely on the per-table checks.
"""

from __future__ import annotations

from typing import Any

import pytest

from hiddenrole.host import readers, table
from hiddenrole.host.catalog import get
from hiddenrole.host.twins import HostLeak, TwinCheck, check_twins

RULESETS: list[tuple[str, int, dict[str, Any]]] = [
    ("redblue", 5, {}),
    ("race", 3, {}),
    ("werewolf", 6, {}),
    ("missions", 5, {}),
    ("onenight", 5, {}),
]


@pytest.mark.parametrize(("game", "seats", "options"), RULESETS, ids=[r[0] for r in RULESETS])
def test_no_reader_can_tell_twin_tables_apart_by_what_the_host_adds(
    game: str, seats: int, options: dict[str, Any]
) -> None:
    report = check_twins(TwinCheck(get(game), seats, options, pairs=200, max_steps=60))
    assert report.pairs >= 190 and report.compared > 4 * report.pairs
    assert report.notices > 0


def _seed_in_id(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(table, "default_table_id", lambda definition, seed: f"{definition.name}-{seed}")


def _notice_per_move(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every move looks at every reader and tells each one, changed or not (main's publisher)."""
    filed = table.Table._filed
    update = readers.Reader.update

    def every_reader(self: Any, run: Any, m: Any, simultaneous: bool, still: bool, *, deliver: bool) -> None:
        filed(self, run, m, False, False, deliver=deliver)

    def always(self: readers.Reader, core: Any, events: Any, chat: Any) -> Any:
        got = update(self, core, events, chat)
        if got is None:
            self.version += 1
            self.cached = None
            return (self.version, [], [])
        return got

    monkeypatch.setattr(table.Table, "_filed", every_reader)
    monkeypatch.setattr(readers.Reader, "update", always)


def _global_counter(monkeypatch: pytest.MonkeyPatch) -> None:
    """Versions count every move (silently): main's ``TableView.seq``."""
    filed = table.Table._filed
    update = readers.Reader.update

    def every_reader(self: Any, run: Any, m: Any, simultaneous: bool, still: bool, *, deliver: bool) -> None:
        filed(self, run, m, False, False, deliver=deliver)

    def counting(self: readers.Reader, core: Any, events: Any, chat: Any) -> Any:
        got = update(self, core, events, chat)
        if got is None:
            self.version += 1
            self.cached = None
        return got

    monkeypatch.setattr(table.Table, "_filed", every_reader)
    monkeypatch.setattr(readers.Reader, "update", counting)


LEAKS = {"seed-in-id": _seed_in_id, "notice-per-move": _notice_per_move, "global-counter": _global_counter}


@pytest.mark.parametrize("single", [True, False], ids=["invariant", "twins-alone"])
@pytest.mark.parametrize("leak", sorted(LEAKS))
@pytest.mark.parametrize("game", ["werewolf", "onenight", "redblue"])
def test_each_planted_leak_goes_red(monkeypatch: pytest.MonkeyPatch, leak: str, game: str, single: bool) -> None:
    LEAKS[leak](monkeypatch)
    seats = {"werewolf": 6, "onenight": 5, "redblue": 5}[game]
    with pytest.raises(HostLeak):
        check_twins(TwinCheck(get(game), seats, pairs=60, max_steps=60, single=single))
