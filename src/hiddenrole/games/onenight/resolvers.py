"""Resolvers: what each phase's submissions do to the cards, and who learns what.

Every resolver is a pure function of the submissions and the board. Night actions
act on the cards held *now* (the ``card`` variables), while who may act is decided by
the card *dealt* (the kernel role). Only a player's first submission in a phase
counts. Whatever a player sees is copied into their own ``learn.*`` variables at the
moment of looking, so later swaps make that knowledge stale, as at a real table.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import Final, TypeVar

import hiddenrole as hr

from .vocab import (
    CENTER_SLOTS,
    DRINK,
    DRUNK,
    DRUNK_SWAP,
    HUNTER,
    HUNTER_HIT,
    INSOMNIA,
    INSOMNIAC,
    LEARN_SELF,
    LYNCHED,
    MEDDLE,
    MEDDLED,
    NO_ONE_DIES,
    PEEK,
    PEEKED,
    ROB,
    ROBBED,
    ROBBER,
    SEER,
    SEER_CENTER,
    SEER_LOOK,
    SEER_PLAYER,
    TROUBLEMAKER,
    VAR_CARD,
    VAR_VOTE_SETTLED,
    VOTE,
    VOTED,
    WEREWOLF,
    center_key,
    learn_center_key,
    learn_player_key,
)

__all__ = [
    "DEFAULT_DRUNK_SLOT",
    "card_map",
    "card_of",
    "dealt",
    "held_card",
    "center_card",
    "first_uses",
    "resolve_werewolf",
    "resolve_nothing",
    "resolve_seer",
    "resolve_robber",
    "resolve_troublemaker",
    "resolve_drunk",
    "resolve_insomniac",
    "resolve_vote",
]

DEFAULT_DRUNK_SLOT: Final = CENTER_SLOTS[0]
"""The centre card a drunk who made no choice ends up with: the swap is compulsory."""

# Event payloads are built as one read-only map with its keys in sorted order (what a chain of
# ``Effect.with_data`` calls produces): one map per event instead of one copy per entry.


def dealt(view: hr.GameView, role: hr.RoleType) -> tuple[str, ...]:
    """Seated players dealt ``role`` (the kernel role), sorted; the centre is not counted."""
    # A list, not a generator: cheaper. ``p[1]``, ``p[0]``: compiled, tuple reads, where ``.role``
    # and ``.id`` are generic attribute lookups (six seats, several resolvers a game).
    return tuple([p[0] for p in view.all_players() if p[1] == role])


def held_card(view: hr.GameView, player_id: str) -> hr.RoleType:
    """The card ``player_id`` holds now (god view; ``""`` for a seat that does not exist)."""
    p = view.player(player_id)  # the seat's own game variable, read from its record
    return "" if p is None else card_of(p)


def card_of(p: hr.PlayerInfo) -> hr.RoleType:
    """The card the seat of record ``p`` holds (for a record already read: no second lookup)."""
    held = p[3]  # ``.vars``: compiled, ``[3]`` is a tuple read, the attribute a generic lookup
    # One ``[]``, not ``.get`` nor ``in`` first: compiled, a Mapping's ``get`` is a generic method
    # call, and every seat holds a card (a seat without one, never dealt, takes the exception).
    try:
        return held[VAR_CARD]
    except KeyError:
        return ""


def _lone(view: hr.GameView, role: hr.RoleType) -> str | None:
    """The one seat dealt ``role``: its id, ``""`` when no seat is, ``None`` when several are (a deck
    the box allows has one robber, troublemaker and drunk card: those resolvers then take the
    general path, whose swaps see each other's)."""
    seats = dealt(view, role)
    if len(seats) > 1:
        return None
    return seats[0] if seats else ""


def _other_player(view: hr.GameView, actor: str, target: str) -> hr.PlayerInfo | None:
    """The record of ``target`` if it is a seat other than ``actor`` (what a swap reads the card of)."""
    return None if target == actor else view.player(target)


def center_card(view: hr.GameView, slot: str) -> hr.RoleType:
    """The card now in centre slot ``slot`` (god view)."""
    return view.var(_GAME, kept(_CENTER_KEYS, _CENTER_KEY, slot))


def first_uses(uses: Sequence[hr.SkillUse], skills: Iterable[hr.SkillType]) -> dict[str, hr.SkillUse]:
    """Each player's first submission among ``skills``; later ones are ignored."""
    wanted = skills if isinstance(skills, frozenset) else frozenset(skills)  # the resolvers pass constants
    out: dict[str, hr.SkillUse] = {}
    for u in uses:
        pid = u[0]  # by position: compiled, an attribute read is a generic lookup
        if u[1] in wanted and pid not in out:
            out[pid] = u
    return out


def _first_use(uses: Sequence[hr.SkillUse], actor: str, skills: frozenset[hr.SkillType]) -> hr.SkillUse | None:
    """``first_uses(uses, skills).get(actor)`` for one actor: a night step has one actor (one card
    of each night role in the box), whose first use is found without a dict of everyone's."""
    for u in uses:
        if u[0] == actor and u[1] in skills:  # by position: compiled, an attribute read is a generic lookup
            return u
    return None


_PEEK: Final = frozenset((PEEK,))
_SEER_SKILLS: Final = frozenset((SEER_PLAYER, SEER_CENTER))
_ROB: Final = frozenset((ROB,))
_MEDDLE: Final = frozenset((MEDDLE,))
_DRINK: Final = frozenset((DRINK,))
_GAME: Final = hr.VarScope()
"""``hr.GAME`` (which mypyc cannot type here at import) as this module's constant: compiled, ``hr.GAME``
is an attribute lookup on the package at every read."""
_SETTLED: Final = hr.set_var(_GAME, VAR_VOTE_SETTLED, hr.VAR_PRESENT)
"""The vote's last effect, the same every game (effects are immutable: built once)."""

MAX_SCOPES: Final = 4096
"""How many values each memo of :func:`kept` remembers by default (a bound: beyond it they are built
afresh): seats' scopes, key names, votes, writes, events, centre cards."""
_SCOPES: Final[dict[str, hr.VarScope]] = {}  # Final: compiled, a static, not a module dict lookup


_K = TypeVar("_K", bound=Hashable)
_V = TypeVar("_V")


def kept(known: dict[_K, _V], make: Callable[[_K], _V], key: _K, bound: int = MAX_SCOPES) -> _V:
    """``make(key)``, remembered in ``known`` (up to ``bound`` keys; beyond it built afresh): the one
    memo of this package, for the immutable values the resolvers and the setup build again and again,
    one per seat, card, slot or a few of them together (an effect, a scope, a payload, a key whose
    helper lives in the vocabulary module, which the compiled build leaves as Python, so each call
    from here would run a Python frame)."""
    got = known.get(key)
    if got is None:
        got = make(key)
        if len(known) < bound:
            known[key] = got
    return got


def _scope(player_id: str) -> hr.VarScope:
    """``GAME.of(player_id)``, one value per seat id: scopes are immutable, and the resolvers
    write a seat's variables several times a game (a NamedTuple method call costs, compiled)."""
    return kept(_SCOPES, _NEW_SCOPE, player_id)


def _new_scope(player_id: str) -> hr.VarScope:
    return _GAME.of(player_id)


_NEW_SCOPE: Final = _new_scope
"""What each memo passes :func:`kept` to build a value is a constant like this one: compiled, a module's
function named as a value is a lookup in the module's dict at every call, a constant a C static."""


MAX_ROWS: Final = 64  # Final: compiled, inlined (a plain module name is a dict lookup at every read)
"""How many rows :func:`kept_by_two` remembers, and how many values each row (a bound: beyond it
values are built afresh)."""

_Row = tuple[dict[str, _V], Callable[[str], _V]]
"""A row of :func:`kept_by_two`: the values kept so far for one first key, and how to build one."""


def kept_by_two(rows: dict[str, _Row[_V]], make_row: Callable[[str], _Row[_V]], first: str, second: str) -> _V:
    """:func:`kept` by two str keys, the first naming a row (made by ``make_row``) that keeps by the
    second: two lookups by a str cost less than one by a pair (a tuple built, hashed and compared
    item by item), for the values a seat makes with another seat or a card. A value already kept is
    read from its row here, with no call to :func:`kept` nor its row unpacked (compiled, about half
    the cost; votes, swaps and lynchings ask about ten times a game)."""
    row = rows.get(first)
    if row is not None:
        got = row[0].get(second)
        if got is not None:
            return got
    known, make = kept(rows, make_row, first, MAX_ROWS)
    return kept(known, make, second, MAX_ROWS)


def rows_of(build: Callable[[str, str], _V]) -> Callable[[str], _Row[_V]]:
    """How :func:`kept_by_two` makes a row for the values ``build(first, second)``: an empty memo and
    ``build`` with its first key given (the one shape of every such row)."""

    def make_row(first: str) -> _Row[_V]:
        def make(second: str) -> _V:
            return build(first, second)

        return ({}, make)

    return make_row


_VOTES: Final[dict[str, _Row[hr.Effect]]] = {}
_DEATHS: Final[dict[str, hr.Effect]] = {}


def _voted(voter: str, target: str) -> hr.Effect:
    """``event(VOTED, voter, target)``, one value per pair of seats: effects are immutable, a table
    has few pairs, and every seat votes every game (the event costs a tuple built and checked)."""
    return kept_by_two(_VOTES, _NEW_VOTE_ROW, voter, target)


def _new_vote(voter: str, target: str) -> hr.Effect:
    return hr.event(VOTED, source=voter, target=target)


_NEW_VOTE_ROW: Final = rows_of(_new_vote)
_HELD: Final[dict[str, _Row[hr.Effect]]] = {}


def _held(player_id: str, card: hr.RoleType) -> hr.Effect:
    """``set_var(GAME.of(player_id), VAR_CARD, card)``, one value per seat and card: every swap
    writes the cards it moved back to the seats (as :func:`_write` would, by two keys)."""
    return kept_by_two(_HELD, _NEW_HELD_ROW, player_id, card)


def _new_held(player_id: str, card: hr.RoleType) -> hr.Effect:
    return hr.set_var(_scope(player_id), VAR_CARD, card)


_NEW_HELD_ROW: Final = rows_of(_new_held)


_WRITES: Final[dict[tuple[str, str, str], hr.Effect]] = {}


def _write(player_id: str, key: str, value: str) -> hr.Effect:
    """``set_var(GAME.of(player_id), key, value)``, one value per (seat, key, value): effects are
    immutable, a table has few seats, keys and cards, and every night writes a few held cards and
    what was learned (building one checks its fields and builds a 15-field tuple: several times
    this lookup's cost)."""
    return kept(_WRITES, _NEW_WRITE, (player_id, key, value))


def _new_write(w: tuple[str, str, str]) -> hr.Effect:
    return hr.set_var(_scope(w[0]), w[1], w[2])


_NEW_WRITE: Final = _new_write


def _death(player_id: str) -> hr.Effect:
    """``set_alive(player_id, False)``, one value per seat (most games kill someone)."""
    return kept(_DEATHS, _NEW_DEATH, player_id)


def _new_death(player_id: str) -> hr.Effect:
    return hr.set_alive(player_id, False)


_NEW_DEATH: Final = _new_death


MAX_CARD_MAPS: Final = 32
"""How many cards' maps :func:`card_map` keeps (the box has eleven kinds; beyond the bound a card's
map is built afresh, a plain frozen map, seated and checked like any other)."""
_CARD_MAPS: Final[dict[str, Mapping[str, str]]] = {}
_CARD_FIELD: Final = "card"
"""The payload key of an event that shows a card: the ``card`` variable's own name, so one map is both."""
assert _CARD_FIELD == VAR_CARD


MAX_COUNT_MAPS: Final = 16
"""How many vote counts' payloads :func:`_count_data` keeps as constant maps (a table's top count is
at most its size; the kernel keeps few constant maps, and every other map's check scans them)."""
_COUNT_MAPS: Final[dict[str, Mapping[str, str]]] = {}


_TOLD: Final[dict[tuple[str, str, str, str, str], hr.Effect]] = {}


def _told(kind: hr.EventType, source: str, target: str, field: str, value: str) -> hr.Effect:
    """``event(kind, source, target, {field: value})``, one value per distinct event: effects are
    immutable, a table has few seats, cards and counts, and every night and vote tells a few (an
    event is a tuple built, its one-field payload a dict and a read-only view of it)."""
    return kept(_TOLD, _NEW_TOLD, (kind, source, target, field, value))


def _new_told(t: tuple[str, str, str, str, str]) -> hr.Effect:
    kind, source, target, field, value = t
    if field == _CARD_FIELD:
        data = card_map(value)
    elif field == "votes":
        data = _count_data(value)
    elif field == "center" and value in CENTER_SLOTS:
        data = _SLOT_MAPS[CENTER_SLOTS.index(value)]
    else:
        data = MappingProxyType({field: value})
    return hr.event(kind, source, target, data)


_NEW_TOLD: Final = _new_told


def _count_data(votes: str) -> Mapping[str, str]:
    """The payload ``{"votes": votes}`` of a vote's outcome, one constant map per count: the kernel
    takes a map it made by identity where it checks every other one key by key when applied."""
    return kept(_COUNT_MAPS, _NEW_COUNT_DATA, votes, MAX_COUNT_MAPS)


def _new_count_data(votes: str) -> Mapping[str, str]:
    return hr.constant_map({"votes": votes})


_NEW_COUNT_DATA: Final = _new_count_data
_SLOT_MAPS: Final = tuple(hr.constant_map({"center": slot}) for slot in CENTER_SLOTS)
"""The payload ``{"center": slot}`` of a drunk's chosen swap, one constant map per centre slot."""
_NOBODY_DIES: Final = (_new_told((NO_ONE_DIES, "", "", "votes", "0")), _new_told((NO_ONE_DIES, "", "", "votes", "1")))
"""The vote's outcome when nobody has more than one vote, by that top count (0 or 1): built once."""
_LYNCHINGS: Final[dict[str, _Row[hr.Effect]]] = {}
_DRUNK_SWAPS: Final[dict[str, _Row[hr.Effect]]] = {}


def _lynched(player_id: str, votes: str) -> hr.Effect:
    """``_told(LYNCHED, "", player_id, "votes", votes)`` kept by seat, then count (:func:`kept_by_two`)."""
    return kept_by_two(_LYNCHINGS, _NEW_LYNCHED_ROW, player_id, votes)


def _new_lynched(player_id: str, votes: str) -> hr.Effect:
    return _new_told((LYNCHED, "", player_id, "votes", votes))


_NEW_LYNCHED_ROW: Final = rows_of(_new_lynched)


def _drunk_swap(drunk: str, slot: str) -> hr.Effect:
    """``_told(DRUNK_SWAP, drunk, "", "center", slot)`` kept by seat, then slot (:func:`kept_by_two`)."""
    return kept_by_two(_DRUNK_SWAPS, _NEW_DRUNK_SWAP_ROW, drunk, slot)


def _new_drunk_swap(drunk: str, slot: str) -> hr.Effect:
    return _new_told((DRUNK_SWAP, drunk, "", "center", slot))


_NEW_DRUNK_SWAP_ROW: Final = rows_of(_new_drunk_swap)


_LOOKS: Final[dict[tuple[str, str, str, str, str], tuple[hr.Effect, hr.Effect]]] = {}


def _looked(kind: hr.EventType, actor: str, target: str, card: hr.RoleType, key: str) -> tuple[hr.Effect, hr.Effect]:
    """A look at a card: the event telling ``actor`` (``{"card": card}``, about ``target``) and the
    write of what they learned (``key`` of their own variables), one memo lookup for the two
    (each alone is one: a key tuple built, hashed and compared)."""
    return kept(_LOOKS, _NEW_LOOK, (kind, actor, target, card, key))


def _new_look(t: tuple[str, str, str, str, str]) -> tuple[hr.Effect, hr.Effect]:
    kind, actor, target, card, key = t
    return (_told(kind, actor, target, "card", card), _write(actor, key, card))


_NEW_LOOK: Final = _new_look


def card_map(card: hr.RoleType) -> Mapping[str, str]:
    """``{"card": card}``, one :func:`hr.constant_map` per card: what a seat dealt ``card`` starts
    with (``card`` is the held card's variable), which the kernel seats as it is, and the payload of
    every event that shows a card, which it takes by identity (a plain map's check reads it key by
    key, each time the event is applied)."""
    got = _CARD_MAPS.get(card)  # :func:`kept`'s hit, inline: six seats a game, and a few events
    return got if got is not None else kept(_CARD_MAPS, _NEW_CARD_MAP, card, MAX_CARD_MAPS)


def _new_card_map(card: hr.RoleType) -> Mapping[str, str]:
    return hr.constant_map({VAR_CARD: card})


_NEW_CARD_MAP: Final = _new_card_map


_CENTER_KEYS: Final[dict[str, str]] = {}
_LAID: Final[dict[tuple[str, str], hr.Effect]] = {}


def lay(slot: str, card: hr.RoleType) -> hr.Effect:
    """``set_var(GAME, center.<slot>, card)``, one value per slot and card: effects are immutable,
    and every game lays three centre cards (a new centre, in the setup) and moves some (the drunk)."""
    return kept(_LAID, _NEW_LAY, (slot, card))


def _new_lay(placed: tuple[str, str]) -> hr.Effect:
    return hr.set_var(_GAME, kept(_CENTER_KEYS, _CENTER_KEY, placed[0]), placed[1])


_NEW_LAY: Final = _new_lay
_CENTER_KEY: Final = center_key
_LEARN_CENTER_KEY: Final = learn_center_key
_LEARN_PLAYER_KEY: Final = learn_player_key


_LEARN_CENTER_KEYS: Final[dict[str, str]] = {}
_LEARN_PLAYER_KEYS: Final[dict[str, str]] = {}


class _Cards:
    """Cards read from the board, swapped locally, written back once in a fixed order.

    Swapping locally lets several actions in one phase see each other's result even
    though the board only changes when the phase's effects are applied. Changed centre
    slots and seats are kept apart, keyed by name: written back centre slots first, then
    seats, each sorted by name (the order of the ``(kind, name)`` slots sorted), and a list
    of plain strings sorts much faster than one of nested tuples. Seats and slots have a
    method each, so no ``(kind, name)`` pair is built per read.
    """

    __slots__ = ("_center", "_seats", "_view")

    def __init__(self, view: hr.GameView) -> None:
        self._view = view
        self._center: dict[str, hr.RoleType] = {}
        self._seats: dict[str, hr.RoleType] = {}

    def seat(self, player_id: str) -> hr.RoleType:
        got = self._seats.get(player_id)
        return got if got is not None else held_card(self._view, player_id)

    def swap_seats(self, a: str, b: str) -> None:
        ca, cb = self.seat(a), self.seat(b)
        seats = self._seats
        seats[a] = cb
        seats[b] = ca

    def swap_with_center(self, player_id: str, slot: str) -> None:
        mine = self.seat(player_id)
        center = self._center
        got = center.get(slot)
        self._seats[player_id] = got if got is not None else center_card(self._view, slot)
        center[slot] = mine

    def write_back(self, out: list[hr.Effect]) -> list[hr.Effect]:
        """``out`` with the changed cards' writes appended (after the phase's events)."""
        center = self._center
        if center:  # usually untouched: no list to build and sort (compiled, sorting even none costs)
            for slot in _sorted_keys(center):  # "center" < "player": the centre's slots come first
                out.append(lay(slot, center[slot]))
        seats = self._seats
        if seats:
            for pid in _sorted_keys(seats):
                out.append(_held(pid, seats[pid]))
        return out


def _sorted_keys(d: dict[str, _V]) -> list[str]:
    """``sorted(d)``: the keys read natively into a list sorted in place (compiled, ``sorted(d)``
    reads the dict through a generic iterator first; a swap changes one or two names)."""
    keys = [k for k in d]
    if len(keys) > 1:
        keys.sort()
    return keys


def _is_other_player(view: hr.GameView, actor: str, target: str) -> bool:
    return target != actor and view.player(target) is not None


def resolve_nothing(uses: Sequence[hr.SkillUse], view: hr.GameView) -> list[hr.Effect]:
    """Watch-only phases (minion, mason) and the day: nothing to resolve."""
    return []


def resolve_werewolf(uses: Sequence[hr.SkillUse], view: hr.GameView) -> list[hr.Effect]:
    """A lone werewolf (exactly one dealt to a player) may look at one centre card."""
    # The seats read once (what ``dealt`` gives, without its tuple): each resolver below the same.
    wolves = 0
    wolf = ""
    for p in view.all_players():
        if p[1] == WEREWOLF:  # ``p[1]``, ``p[0]``: compiled, tuple reads (``.role``, ``.id`` are generic lookups)
            wolves += 1
            wolf = p[0]
    if wolves != 1:
        return []
    use = _first_use(uses, wolf, _PEEK)
    if use is None:
        return []
    targets = use[2]
    if len(targets) != 1 or targets[0] not in CENTER_SLOTS:
        return []
    slot = targets[0]
    peek = kept(_PEEKS, _NEW_PEEK, (wolf, slot, center_card(view, slot)))
    return list(peek)


_PEEKS: Final[dict[tuple[str, str, str], tuple[hr.Effect, hr.Effect]]] = {}


def _new_peek(k: tuple[str, str, str]) -> tuple[hr.Effect, hr.Effect]:
    """A lone wolf's look at a centre card: the event and what they learned, kept per seat, slot and
    card (effects are immutable; the event's two-field payload is a dict and a proxy built)."""
    wolf, slot, card = k
    return (
        hr.event(PEEKED, wolf, data=MappingProxyType({"card": card, "center": slot})),
        _write(wolf, kept(_LEARN_CENTER_KEYS, _LEARN_CENTER_KEY, slot), card),
    )


_NEW_PEEK: Final = _new_peek


def resolve_seer(uses: Sequence[hr.SkillUse], view: hr.GameView) -> list[hr.Effect]:
    """The seer looks at one other player's card or at two different centre cards."""
    out: list[hr.Effect] = []
    for p in view.all_players():
        if p[1] != SEER:
            continue
        seer = p[0]
        use = _first_use(uses, seer, _SEER_SKILLS)
        if use is None:
            continue
        skill = use[1]
        targets = use[2]
        if skill == SEER_PLAYER and len(targets) == 1 and _is_other_player(view, seer, targets[0]):
            target = targets[0]
            card = held_card(view, target)
            out.extend(_looked(SEER_LOOK, seer, target, card, kept(_LEARN_PLAYER_KEYS, _LEARN_PLAYER_KEY, target)))
        elif (
            skill == SEER_CENTER
            and len(targets) == 2
            and targets[0] != targets[1]
            and targets[0] in CENTER_SLOTS
            and targets[1] in CENTER_SLOTS
        ):
            a, b = targets
            if b < a:
                a, b = b, a
            look = kept(_CENTER_LOOKS, _NEW_CENTER_LOOK, (seer, a, center_card(view, a), b, center_card(view, b)))
            out.extend(look)
    return out


_CENTER_LOOKS: Final[dict[tuple[str, str, str, str, str], tuple[hr.Effect, ...]]] = {}


def _new_center_look(k: tuple[str, str, str, str, str]) -> tuple[hr.Effect, ...]:
    """A seer's look at two centre slots (in slot order) and their cards: the event, then what was
    learned of each slot, kept per seat, slots and cards (effects are immutable)."""
    seer, a, card_a, b, card_b = k
    seen = {kept(_CENTER_KEYS, _CENTER_KEY, a): card_a, kept(_CENTER_KEYS, _CENTER_KEY, b): card_b}
    return (
        hr.event(SEER_LOOK, seer, data=MappingProxyType(dict(sorted(seen.items())))),
        _write(seer, kept(_LEARN_CENTER_KEYS, _LEARN_CENTER_KEY, a), card_a),
        _write(seer, kept(_LEARN_CENTER_KEYS, _LEARN_CENTER_KEY, b), card_b),
    )


_NEW_CENTER_LOOK: Final = _new_center_look


def resolve_robber(uses: Sequence[hr.SkillUse], view: hr.GameView) -> list[hr.Effect]:
    """The robber swaps cards with another player and looks at the card they now hold.

    The robber also knows the victim now holds the card the robber gave away.
    """
    robber = _lone(view, ROBBER)
    if robber is None:
        return _robberies(uses, view)
    # The one robber: the two cards read from the board and the swap's effects, in the general
    # path's order, kept as one value (no local board of swaps to build, sort and write back).
    use = _first_use(uses, robber, _ROB) if robber else None
    if use is None:
        return []
    targets = use[2]
    mark = _other_player(view, robber, targets[0]) if len(targets) == 1 else None
    if mark is None:
        return []
    return list(_robbery(robber, mark[0], held_card(view, robber), card_of(mark)))


_ROBBERIES: Final[dict[tuple[str, str, str, str], tuple[hr.Effect, ...]]] = {}


def _robbery(robber: str, victim: str, given: hr.RoleType, got: hr.RoleType) -> tuple[hr.Effect, ...]:
    """What :func:`_robberies` yields for one robbery, one value per seats and cards (effects are
    immutable): the look, what was learned, then both seats' new cards in id order."""
    return kept(_ROBBERIES, _NEW_ROBBERY, (robber, victim, given, got))


def _new_robbery(k: tuple[str, str, str, str]) -> tuple[hr.Effect, ...]:
    robber, victim, given, got = k
    first, second = (_held(robber, got), _held(victim, given))
    if victim < robber:
        first, second = second, first
    return (
        *_looked(ROBBED, robber, victim, got, LEARN_SELF),
        _write(robber, kept(_LEARN_PLAYER_KEYS, _LEARN_PLAYER_KEY, victim), given),
        first,
        second,
    )


_NEW_ROBBERY: Final = _new_robbery


def _robberies(uses: Sequence[hr.SkillUse], view: hr.GameView) -> list[hr.Effect]:
    """Every robber in seat order, each swap seeing the ones before (several robber cards: a
    hand-made table only)."""
    cards = _Cards(view)
    out: list[hr.Effect] = []
    for p in view.all_players():
        if p[1] != ROBBER:
            continue
        robber = p[0]
        use = _first_use(uses, robber, _ROB)
        if use is None:
            continue
        targets = use[2]
        if len(targets) != 1 or not _is_other_player(view, robber, targets[0]):
            continue
        victim = targets[0]
        given = cards.seat(robber)
        cards.swap_seats(robber, victim)
        got = cards.seat(robber)
        out.extend(_looked(ROBBED, robber, victim, got, LEARN_SELF))
        out.append(_write(robber, kept(_LEARN_PLAYER_KEYS, _LEARN_PLAYER_KEY, victim), given))
    return cards.write_back(out)


def resolve_troublemaker(uses: Sequence[hr.SkillUse], view: hr.GameView) -> list[hr.Effect]:
    """The troublemaker swaps two other players' cards; nobody looks, nobody is told."""
    tm = _lone(view, TROUBLEMAKER)
    if tm is None:
        return _meddlings(uses, view)
    use = _first_use(uses, tm, _MEDDLE) if tm else None  # the one troublemaker, as resolve_robber's one robber
    if use is None:
        return []
    targets = use[2]
    if len(targets) != 2:
        return []
    a, b = targets
    if a == b:
        return []
    pa = _other_player(view, tm, a)
    if pa is None:
        return []
    pb = _other_player(view, tm, b)
    if pb is None:
        return []
    # Both seats' new cards in id order, as the general path writes them back. Not kept as one value
    # with the event: seats and cards together are more swaps than a memo's bound.
    first, second = _held(a, card_of(pb)), _held(b, card_of(pa))
    if b < a:
        first, second = second, first
    return [_told(MEDDLED, tm, a, "with", b), first, second]


def _meddlings(uses: Sequence[hr.SkillUse], view: hr.GameView) -> list[hr.Effect]:
    """Every troublemaker in seat order, each swap seeing the ones before (a hand-made table only)."""
    cards = _Cards(view)
    out: list[hr.Effect] = []
    for p in view.all_players():
        if p[1] != TROUBLEMAKER:
            continue
        tm = p[0]
        use = _first_use(uses, tm, _MEDDLE)
        if use is None:
            continue
        targets = use[2]
        if len(targets) != 2:
            continue
        a, b = targets
        if a == b or not _is_other_player(view, tm, a) or not _is_other_player(view, tm, b):
            continue
        cards.swap_seats(a, b)
        out.append(_told(MEDDLED, tm, a, "with", b))
    return cards.write_back(out)


def resolve_drunk(uses: Sequence[hr.SkillUse], view: hr.GameView) -> list[hr.Effect]:
    """The drunk swaps their card with a centre card without looking at it.

    The swap is compulsory: a drunk who chose nothing (or nothing valid) takes
    :data:`DEFAULT_DRUNK_SLOT`, as a moderator would hand them a card.
    """
    drunk = _lone(view, DRUNK)
    if drunk is None:
        return _drinks(uses, view)
    if not drunk:
        return []
    # The one drunk, as resolve_robber's one robber: the event, the centre slot, the seat.
    use = _first_use(uses, drunk, _DRINK)
    targets = () if use is None else use[2]
    if len(targets) == 1 and targets[0] in CENTER_SLOTS:
        slot = targets[0]
        told = _drunk_swap(drunk, slot)
    else:
        slot = DEFAULT_DRUNK_SLOT
        told = kept(_DEFAULT_DRINKS, _NEW_DEFAULT_DRINK, drunk)
    return [told, lay(slot, held_card(view, drunk)), _held(drunk, center_card(view, slot))]


_DEFAULT_DRINKS: Final[dict[str, hr.Effect]] = {}


def _new_default_drink(drunk: str) -> hr.Effect:
    """The event of a drunk who chose no valid slot (kept per seat: effects are immutable)."""
    return hr.event(DRUNK_SWAP, drunk, data=_DEFAULT_DRINK)


_NEW_DEFAULT_DRINK: Final = _new_default_drink
_DEFAULT_DRINK: Final = hr.constant_map({"center": DEFAULT_DRUNK_SLOT, "default": "1"})


def _drinks(uses: Sequence[hr.SkillUse], view: hr.GameView) -> list[hr.Effect]:
    """Every drunk in seat order, each swap seeing the ones before (a hand-made table only)."""
    cards = _Cards(view)
    out: list[hr.Effect] = []
    for p in view.all_players():
        if p[1] != DRUNK:
            continue
        drunk = p[0]
        use = _first_use(uses, drunk, _DRINK)
        targets = () if use is None else use[2]
        chosen = len(targets) == 1 and targets[0] in CENTER_SLOTS
        slot = targets[0] if chosen else DEFAULT_DRUNK_SLOT
        cards.swap_with_center(drunk, slot)
        if chosen:
            out.append(_drunk_swap(drunk, slot))
        else:
            out.append(kept(_DEFAULT_DRINKS, _NEW_DEFAULT_DRINK, drunk))
    return cards.write_back(out)


def resolve_insomniac(uses: Sequence[hr.SkillUse], view: hr.GameView) -> list[hr.Effect]:
    """Every dealt insomniac wakes last and sees the card they hold now."""
    out: list[hr.Effect] = []
    for p in view.all_players():
        if p[1] != INSOMNIAC:
            continue
        pid = p[0]
        card = held_card(view, pid)
        out.extend(_looked(INSOMNIA, pid, "", card, LEARN_SELF))
    return out


def resolve_vote(uses: Sequence[hr.SkillUse], view: hr.GameView) -> list[hr.Effect]:
    """Count the votes; decide who dies; a dying hunter takes their own vote target along.

    Each player's first vote for another living player counts. If nobody received more
    than one vote, nobody dies; otherwise everyone tied at the most votes dies. A
    player holding the hunter card who dies this way kills the player they voted for
    (one level only: a player shot by the hunter shoots nobody).
    """
    # Counted in one pass as they come: seats usually vote once each, in seat order. A voter not
    # after the one before (a repeated vote, or votes in another order) sends the whole count to
    # each voter's first vote in voter order, counted the same way (first_uses' rule: later votes
    # are ignored, even when the first counts for nothing).
    out: list[hr.Effect] = []
    tally: dict[str, int] = {}
    top = 0
    last: str | None = None
    for u in uses:
        if u[1] != VOTE:  # by position: compiled, an attribute read is a generic lookup
            continue
        voter = u[0]
        if last is not None and voter <= last:
            return resolve_vote(_first_votes(uses), view)
        last = voter
        t = _counted_vote(view, voter, u)
        if not t:
            continue
        out.append(_voted(voter, t))
        n = tally.get(t, 0) + 1
        tally[t] = n
        if n > top:
            top = n
    if top <= 1:
        out.append(_NOBODY_DIES[top])  # top is 0 or 1 here
        out.append(_SETTLED)
        return out
    dead = [p for p, n in tally.items() if n == top]  # a list, not a generator: cheaper compiled
    dead.sort()
    count = str(top)
    for p in dead:
        out.append(_lynched(p, count))
        out.append(_death(p))
    killed = dead.copy()  # a few ids: a list's ``in`` is cheaper than building a set
    for p in dead:
        if held_card(view, p) != HUNTER:
            continue
        # The hunter's own counted vote, read again (rare: no dict of every counted vote is kept);
        # their first vote is their only one here.
        ballot = _first_use(uses, p, _VOTE)
        shot = "" if ballot is None else _counted_vote(view, p, ballot)
        if shot and shot not in killed:
            killed.append(shot)
            out.append(hr.event(HUNTER_HIT, source=p, target=shot))
            out.append(_death(shot))
    out.append(_SETTLED)
    return out


_VOTE: Final = frozenset((VOTE,))


def _first_votes(uses: Sequence[hr.SkillUse]) -> list[hr.SkillUse]:
    """Each voter's first vote, in voter order (what :func:`resolve_vote` counts)."""
    firsts = first_uses(uses, _VOTE)
    return [firsts[v] for v in sorted(firsts)]


def _counted_vote(view: hr.GameView, voter: str, use: hr.SkillUse) -> str:
    """The player ``voter``'s first vote ``use`` counts for (``""``: none; it must name one
    other living player)."""
    targets = use[2]  # by position: compiled, an attribute read is a generic lookup
    if len(targets) != 1:
        return ""
    target = view.player(targets[0])
    if target is None or target[0] == voter or not target[2]:  # not another living player
        return ""
    return target[0]
