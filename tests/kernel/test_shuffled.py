"""``hiddenrole.shuffled``: the standard library's shuffle, draw for draw.

Rules packages deal with it (werewolf, One Night), so a seed deals the same cards as
``random.Random(seed).shuffle`` always did: checked for many seeds and deck sizes, including
long decks (draws of more than 8 bits), negative and huge seeds.
"""

from __future__ import annotations

import random

import pytest

import hiddenrole as hr


def test_shuffled_makes_the_library_shuffles_draws() -> None:
    for n in (*range(0, 20), 40, 300):
        for seed in (*range(60), -7, 2**70 + 3):
            lib = [f"c{i}" for i in range(n)]
            random.Random(seed).shuffle(lib)
            assert hr.shuffled([f"c{i}" for i in range(n)], seed) == lib, (n, seed)


@pytest.mark.parametrize("items", [(), ("a",), ("a", "b", "c")], ids=["empty", "one", "tuple"])
def test_shuffled_returns_a_new_list_and_leaves_its_argument(items: tuple[str, ...]) -> None:
    out = hr.shuffled(items, 3)
    assert isinstance(out, list)
    assert sorted(out) == sorted(items)
    source = list(items)
    assert hr.shuffled(source, 3) is not source
    assert source == list(items)
