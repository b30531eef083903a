"""The write point's copy-on-write of variable maps (``state._with``) against a plain reference."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hiddenrole import state
from hiddenrole.effects import EMPTY_MAP, GAME, constant_map, set_var
from hiddenrole.views import PlayerInfo

_KEYS = st.sampled_from(["a", "b", "c", "d", "e"])
_CONSTANT = constant_map({"b": "1", "d": "2"})
"""Made once: the kernel remembers a bounded number of constant maps per process."""


def _reference(cell: Mapping[str, str], key: str, value: str) -> Mapping[str, str]:
    """The one-line meaning: unchanged if equal; else the new value set (``""``: removed), the
    keys left in their order when the key is there or sorts last, else sorted."""
    if cell.get(key, "") == value:
        return cell
    d = dict(cell)
    if not value:
        del d[key]
        return MappingProxyType(d) if d else EMPTY_MAP
    if key in d or not d or key > list(d)[-1]:
        d[key] = value
        return MappingProxyType(d)
    d[key] = value
    return MappingProxyType(dict(sorted(d.items())))


@given(st.dictionaries(_KEYS, st.sampled_from(["1", "2"])), _KEYS, st.sampled_from(["", "1", "2"]))
def test_with_writes_what_the_reference_does(cells: dict[str, str], key: str, value: str) -> None:
    """Sorted maps (every map the kernel makes) and maps in any other order (hand-made records)."""
    for d in (dict(sorted(cells.items())), cells, dict(reversed(cells.items()))):
        cell = MappingProxyType(d)
        got, want = state._with(cell, key, value), _reference(cell, key, value)
        assert list(got.items()) == list(want.items())
        assert (got is cell) == (want is cell)
        assert (got is EMPTY_MAP) == (want is EMPTY_MAP)
        assert type(got) is MappingProxyType


@given(st.lists(st.tuples(_KEYS, st.sampled_from(["", "1", "2"])), max_size=8))
def test_remembered_writes_give_what_the_reference_does(writes: list[tuple[str, str]]) -> None:
    """From the immutable maps whose writes are remembered (the empty map, a constant map), a chain
    of writes made twice: the second time the remembered maps, equal to the reference's each step."""
    for start in (EMPTY_MAP, _CONSTANT):
        for _ in range(2):
            cell = start
            for key, value in writes:
                got, want = state._with(cell, key, value), _reference(cell, key, value)
                assert list(got.items()) == list(want.items())
                assert (got is cell) == (want is cell)
                assert (got is EMPTY_MAP) == (want is EMPTY_MAP)
                assert type(got) is MappingProxyType
                cell = got


def test_writes_of_a_map_someone_else_holds_are_not_remembered() -> None:
    """A read-only view of a dict its maker still holds may change under it: its writes are made anew."""
    d = {"a": "1"}
    cell = MappingProxyType(d)
    assert dict(state._with(cell, "b", "2")) == {"a": "1", "b": "2"}
    d["a"] = "3"
    assert dict(state._with(cell, "b", "2")) == {"a": "3", "b": "2"}


def test_a_record_whose_id_is_an_equal_copy_is_stored_in_its_own_row() -> None:
    """The rows find a written seat by identity first; a record seated again under an equal but
    distinct id string (a restored record) is found through the index instead, in its own row."""
    board = state.State()
    for pid in ("p1", "p2", "p3"):
        board.seat(PlayerInfo(pid, "r", True, EMPTY_MAP, EMPTY_MAP))
    board.all_players()  # the rows, kept from now on
    copy = "".join(["p", "2"])
    assert copy == "p2" and copy is not board.order[1]
    board.seat(PlayerInfo(copy, "r", True, EMPTY_MAP, EMPTY_MAP))
    board.all_players()
    board.apply(set_var(GAME.of("p2"), "k", "v"))
    assert board.all_players() == tuple(board.players[pid] for pid in board.order)
    assert board.all_players()[1].vars == {"k": "v"}


@pytest.mark.pure_only  # a spy on a module function that compiled code calls directly
def test_a_write_another_engine_remembered_meanwhile_is_taken(monkeypatch: pytest.MonkeyPatch) -> None:
    """The memo is shared by engines in several threads: when another thread remembers the same write
    while this one makes it, this one takes the remembered map, so the memo never replaces an entry
    (a map it dropped could die while its identity stays a key, then be another map's)."""
    monkeypatch.setattr(state, "_KEPT_WRITES", {})  # room, whatever other games in this process kept
    real = state._written
    theirs: list[Mapping[str, str]] = []

    def racing(cell: Mapping[str, str], key: str, value: str) -> Mapping[str, str]:
        monkeypatch.setattr(state, "_written", real)
        theirs.append(state._with(cell, key, value))  # the other thread, between this one's steps
        return real(cell, key, value)

    monkeypatch.setattr(state, "_written", racing)
    mine = state._with(EMPTY_MAP, "race.key", "won")
    assert theirs and mine is theirs[0]
    assert dict(mine) == {"race.key": "won"}
    assert state._with(EMPTY_MAP, "race.key", "won") is mine
