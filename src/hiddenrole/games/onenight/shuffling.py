"""The deal's shuffle, kept apart from :mod:`.dealing` so the compiled build compiles it.

``random.Random.shuffle`` runs a Python frame per card (its ``_randbelow``); a One Night game
is short enough that those frames were a visible share of it. :func:`shuffle` makes exactly
the library's draws and swaps (a test checks it against ``random.Random(seed).shuffle``), so
the same deck and seed still give the same deal. The generator is the C base class
``_random.Random``: ``random.Random(seed)`` seeds it the same way (an int seed goes straight to the
base's ``seed``) but through two Python frames (its ``__init__`` and ``seed``).
"""

from __future__ import annotations

import _random

__all__ = ["shuffle"]


def shuffle(cards: list[str], seed: int) -> None:
    """Shuffle ``cards`` in place as ``random.Random(seed).shuffle(cards)`` does.

    From the last card down, card ``i`` swaps with a uniform pick in ``[0, i]``, drawn as the
    library's ``_randbelow`` draws it: ``getrandbits(n.bit_length())`` until below ``n``."""
    getrandbits = _random.Random(seed).getrandbits
    for i in range(len(cards) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]
