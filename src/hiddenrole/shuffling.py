"""A seeded shuffle with the standard library's exact draws, for rules that deal cards.

``random.Random(seed).shuffle`` runs a Python frame per card (its ``_randbelow``), and
``random.Random(seed)`` two more to seed (its ``__init__`` and ``seed``): a visible share of a
short game's deal. :func:`shuffled` makes exactly the library's draws and swaps (a kernel test
checks it against ``random.Random(seed).shuffle`` seed for seed), so a deal seeded before it
existed deals the same cards; compiled, it is one native loop. The generator is the C base
class ``_random.Random``, which an int seed seeds exactly as ``random.Random(seed)`` does (that
one hands an int straight to the base's ``seed``).
"""

from __future__ import annotations

import _random
from collections.abc import Iterable
from typing import TypeVar

__all__ = ["shuffled"]

_T = TypeVar("_T")


def shuffled(items: Iterable[_T], seed: int) -> list[_T]:
    """A new list of ``items`` in the order ``random.Random(seed).shuffle`` leaves them.

    From the last item down, item ``i`` swaps with a uniform pick in ``[0, i]``, drawn as the
    library's ``_randbelow`` draws it: ``getrandbits(n.bit_length())`` until below ``n``."""
    out = list(items)
    getrandbits = _random.Random(seed).getrandbits
    for i in range(len(out) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        out[i], out[j] = out[j], out[i]
    return out
