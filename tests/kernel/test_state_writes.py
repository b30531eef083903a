"""The write point's copy-on-write of variable maps (``state._with``) against a plain reference."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from hypothesis import given
from hypothesis import strategies as st

from hiddenrole import state
from hiddenrole.effects import EMPTY_MAP

_KEYS = st.sampled_from(["a", "b", "c", "d", "e"])


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
