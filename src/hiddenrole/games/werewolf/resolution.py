"""One resolver per phase. Each is a pure function of the submissions and the board.

Every resolver takes ``(uses, view, switches)``; :func:`resolvers` binds the switches.
All state lives in variables (keys in :mod:`.vocab`), so a resolver never remembers
anything between calls and a snapshot or a replayed log restores a game exactly.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from types import MappingProxyType
from typing import Final, TypeVar

import hiddenrole as hr

from .switches import Switches
from .vocab import (
    ANTIDOTE,
    CHECK,
    CUT,
    DAWN,
    DAY,
    DAY_LAST_ACTION,
    DONE,
    ELIMINATE,
    EVIL,
    KILL,
    NIGHT_GUARD,
    NIGHT_LAST_ACTION,
    NIGHT_RESOLVE,
    NIGHT_SEER,
    NIGHT_WITCH,
    NIGHT_WOLF,
    POISON,
    PROTECT,
    SAVE,
    SHOOT,
    SPEECH_ENDED,
    VAR_ANTIDOTE,
    VAR_DEATH_CAUSE,
    VAR_GUARD_LAST_ROUND,
    VAR_GUARD_LAST_TARGET,
    VAR_GUN,
    VAR_KILL_TARGET,
    VAR_NO_VOTE,
    VAR_POISON,
    VAR_POISONED,
    VAR_PROTECTED,
    VAR_SAVED,
    VOTE,
    VOTE_TIED,
)

__all__ = [
    "Resolve",
    "death",
    "first_uses",
    "night_kill_target",
    "resolve_guard",
    "resolve_wolves",
    "resolve_witch",
    "resolve_seer",
    "resolve_night",
    "resolve_last_action",
    "resolve_day",
    "resolve_speech",
    "resolve_vote",
    "resolvers",
    "turn_resolvers",
    "BOTH_POTIONS",
    "GUN_JAMMED",
    "NOT_VICTIM",
    "NO_ANTIDOTE",
    "NO_GUN",
    "NO_KILL",
    "NO_POISON",
    "NO_TARGET",
    "NO_VOTES",
    "REPEAT_PROTECT",
    "SELF_POISON",
    "SELF_PROTECT",
    "SELF_SAVE",
    "STILL_ALIVE",
    "TARGET_GONE",
    "WOLVES_TIED",
]

Resolve = Callable[[Sequence[hr.SkillUse], hr.GameView], list[hr.Effect]]

# Event payloads are built as one read-only map with its keys already in sorted order (what
# ``Effect.with_data`` would produce), instead of a chain of ``with_data`` copies that re-sorts
# the map and copies the effect once per entry: the vote alone would build four.

# Cancel reasons, kept as constants so tests and hosts can match them.
SELF_PROTECT: Final = "the guard may not protect himself"
REPEAT_PROTECT: Final = "the guard may not protect the same player two nights running"
NO_TARGET: Final = "no target"
WOLVES_TIED: Final = "the wolves' vote is tied"
NO_VOTES: Final = "nobody voted"
BOTH_POTIONS: Final = "only one potion per night"
NO_ANTIDOTE: Final = "the antidote is used up"
NO_POISON: Final = "the poison is used up"
SELF_SAVE: Final = "the witch may not save herself"
SELF_POISON: Final = "the witch may not poison herself"
NO_KILL: Final = "nobody was killed tonight"
NOT_VICTIM: Final = "only tonight's victim can be saved"
NO_GUN: Final = "this player cannot shoot"
GUN_JAMMED: Final = "no shot after this death"
STILL_ALIVE: Final = "only a dead player has a last action"
TARGET_GONE: Final = "the target is already dead"


def first_uses(uses: Sequence[hr.SkillUse], skill: str) -> dict[str, hr.SkillUse]:
    """The first submission of ``skill`` by each player, in submission order."""
    return {u.player_id: u for u in _firsts(uses, skill)}


def _firsts(uses: Sequence[hr.SkillUse], skill: str) -> list[hr.SkillUse]:
    """:func:`first_uses`' submissions, as a list: what the resolvers iterate (a night has one or two
    actors per skill: the list itself searched, comparing ids, with no dict nor list of ids built per
    call; compiled, ``in`` on a list is a generic search, a string comparison is not)."""
    out: list[hr.SkillUse] = []
    for u in uses:
        if u.skill != skill:
            continue
        pid = u.player_id
        for kept in out:
            if kept.player_id == pid:
                break
        else:
            out.append(u)
    return out


def death(player_id: str, cause: str, last_phase: str) -> list[hr.Effect]:
    """The three effects of a death: the primitive, its cause, and a last action owed.

    Every death, whatever the role, owes a trip to ``last_phase``; only roles with a
    gun can do anything there. That keeps the phase sequence blind to hidden roles.
    """
    out: list[hr.Effect] = []
    _die(out, player_id, cause, last_phase)
    return out


def _die(out: list[hr.Effect], player_id: str, cause: str, last_phase: str) -> None:
    """:func:`death`'s three effects appended to ``out``: a resolver's list grows in place, with no
    list built per death and spliced in (compiled, ``+=`` and ``*`` on a list are generic calls).
    The three are kept per seat, cause and phase (:func:`_keep`): a table has a few of each."""
    key = (player_id, cause, last_phase)
    got = _DEATHS.get(key)
    if got is None:
        made = (
            hr.set_alive(player_id, False),
            hr.set_var(_owned(False, player_id), VAR_DEATH_CAUSE, cause),
            hr.detour(player_id, last_phase),
        )
        got = _keep(_DEATHS, key, made)
    out.append(got[0])
    out.append(got[1])
    out.append(got[2])


_K = TypeVar("_K", bound=Hashable)
_V = TypeVar("_V")

_MAX_KEPT: Final = 4096
"""How many values each memo of this module keeps per lifetime (a bound: beyond it they are built afresh)."""


def _keep(known: dict[_K, _V], key: _K, value: _V) -> _V:
    """``value``, remembered in ``known`` under ``key`` while ``known`` holds fewer than :data:`_MAX_KEPT`.

    The one memo idiom of the resolvers: what they build is immutable (scopes, effects, payloads)
    and, on a table, one of a few values per seat, so each is built once per process, not once
    per phase (compiled, an effect costs a dozen generic calls to build, a lookup one)."""
    if len(known) < _MAX_KEPT:
        known[key] = value
    return value


_DEATHS: Final[dict[tuple[str, str, str], tuple[hr.Effect, hr.Effect, hr.Effect]]] = {}
_EVENTS: Final[dict[tuple[str, str, str], hr.Effect]] = {}


def _event(kind: str, source: str = "", target: str = "") -> hr.Effect:
    """``hr.event(kind, source, target)``, kept (:func:`_keep`): an action's outcome, told to its actor
    (a last action's SKIP, each seat's once a death; a guard's PROTECT, a witch's potion)."""
    key = (kind, source, target)
    got = _EVENTS.get(key)
    if got is None:
        got = _keep(_EVENTS, key, hr.event(kind, source, target))
    return got


_WRITES: Final[dict[tuple[bool, str, str, str], hr.Effect]] = {}
_KILL_TARGETS: Final[dict[str, hr.Effect]] = {}


def _written(per_round: bool, player_id: str, key: str, value: str) -> hr.Effect:
    """``hr.set_var(scope, key, value)`` on a seat's cell (``scope`` as :func:`_owned` gives it), kept
    (:func:`_keep`): tonight's markers (protected, saved, poisoned), a guard's memory of his last
    night, a potion spent. A table has a few of each; building one costs about twice the lookup."""
    k = (per_round, player_id, key, value)
    got = _WRITES.get(k)
    if got is None:
        got = _keep(_WRITES, k, hr.set_var(_owned(per_round, player_id), key, value))
    return got


def _kill_target(victim: str) -> hr.Effect:
    """``hr.set_var(hr.ROUND, VAR_KILL_TARGET, victim)``, kept (:func:`_keep`): the wolves' victim
    recorded (one value per seat)."""
    got = _KILL_TARGETS.get(victim)
    if got is None:
        got = _keep(_KILL_TARGETS, victim, hr.set_var(_ROUND, VAR_KILL_TARGET, victim))
    return got


def night_kill_target(view: hr.GameView) -> str:
    """Tonight's victim as the wolves chose it (god view), ``""`` if none."""
    return view.var(_ROUND, VAR_KILL_TARGET)


def cell(values: Mapping[str, str], key: str) -> str:
    """``vars.get(key, "")`` for a player's variables, read with ``in`` and ``[]``: compiled,
    ``get`` on a read-only map is a Python-level method call that calls the dict's in turn
    (several times the cost), and resolvers, ``usable`` and the victory census read a cell per seat."""
    return values[key] if key in values else ""  # noqa: SIM401 (the point: not ``get``)


_tuple_new: Final = tuple.__new__
_GAME: Final = hr.GAME  # compiled: a C static (``hr.GAME`` is a module attribute read per use)
_ROUND: Final = hr.ROUND  # likewise
_VAR_SCOPE: Final = hr.VarScope  # compiled: a C static (``hr.VarScope`` is a module attribute read per call)
_EFFECT: Final = hr.Effect  # likewise
_PROXY: Final = MappingProxyType  # likewise (an imported class is a module-dict lookup per read)
_EMPTY: Final[Mapping[str, str]] = hr.Effect._field_defaults["data"]
"""The kernel's shared empty map: an Effect's default ``data`` and ``vars``, what ``hr.event`` gives."""
_NUMERALS: Final = tuple(str(n) for n in range(32))  # _NUMERAL_COUNT entries
"""``str(n)`` of the small counts a tally holds (one per seat at most), read by index: compiled,
``str`` of an int is a generic call, and a vote writes one per target."""
_NUMERAL_COUNT: Final = 32
"""``len(_NUMERALS)``, a C constant compiled."""
_COUNTED: Final = tuple(f":{n}," for n in _NUMERALS)
"""A tally's ``:n,`` after a target another follows (by count, as :data:`_NUMERALS`): one piece to join."""
_COUNTED_LAST: Final = tuple(f":{n}" for n in _NUMERALS)
"""The same after the last target."""


_GAME_SCOPES: Final[dict[str, hr.VarScope]] = {}
_ROUND_SCOPES: Final[dict[str, hr.VarScope]] = {}


def _owned(per_round: bool, player_id: str) -> hr.VarScope:
    """``hr.GAME.of(player_id)`` (``hr.ROUND.of`` when ``per_round``), one value per seat id: scopes
    are immutable, and every death, potion and guard write names a player's cell. A new one is
    built from the tuple: ``VarScope.of`` is a NamedTuple method, a Python frame even compiled."""
    known = _ROUND_SCOPES if per_round else _GAME_SCOPES
    got = known.get(player_id)
    if got is None:
        got = _keep(known, player_id, _tuple_new(_VAR_SCOPE, (per_round, player_id)))
    return got


def _refused(kind: str, source: str, target: str, reason: str, data: Mapping[str, str] = _EMPTY) -> hr.Effect:
    """``hr.event(kind, source, target, data).cancel(reason)``, the same value built as one tuple
    (in :class:`hiddenrole.Effect`'s field order): ``cancel`` is a method of the NamedTuple, a
    Python-level call that slices and rebuilds the event, several times the cost of building it."""
    return _tuple_new(_EFFECT, (kind, source, target, data, True, reason, "", False, _GAME, "", "", (), "", _EMPTY, ()))


def _numeral(n: int) -> str:
    """``str(n)``, read from :data:`_NUMERALS` when it holds it."""
    return _NUMERALS[n] if 0 <= n < _NUMERAL_COUNT else str(n)


def _count(cast: list[str]) -> tuple[list[str], int]:
    """The most-voted targets, sorted, and the top count; ``cast`` (one entry per counted ballot, its
    target) is sorted in place, for :func:`_tally`.

    Counted by runs of equal targets in the sorted list, with no dict of counts to fill and read
    back (compiled, each dict step is a generic call, a list append and a string comparison are
    not). The tally's text is :func:`_tally`'s, apart: a tied day vote never shows it (two in five
    day votes in a random game), and a join is most of a count's cost. One or two ballots (a
    fifth of the counts in a random game: a thinned pack, a late vote) are answered without the
    sort, whose fixed cost is most of a small count's."""
    n = len(cast)
    if n == 1:
        return [cast[0]], 1
    if n == 2:
        a, b = cast[0], cast[1]
        if a == b:
            return [a], 2
        if b < a:
            a, b = b, a
            cast[0], cast[1] = a, b  # sorted in place, as the general way leaves it
        return [a, b], 1
    if n == 0:
        return [], 0
    cast.sort()
    top = i = _run_end(cast, 0)  # the first run leads so far: no empty list of leaders built first
    leaders = [cast[0]]
    while i < n:
        t = cast[i]
        j = _run_end(cast, i)
        votes = j - i
        if votes > top:
            top = votes
            leaders = [t]
        elif votes == top:
            leaders.append(t)
        i = j
    return leaders, top


def _run_end(ordered: list[str], i: int) -> int:
    """Where the run of ballots for ``ordered[i]`` ends in the sorted ``ordered`` (one past its last),
    the one run scan of :func:`_count` and :func:`_tally`."""
    t = ordered[i]
    n = len(ordered)
    j = i + 1
    while j < n and ordered[j] == t:
        j += 1
    return j


def _tally(ordered: list[str]) -> str:
    """The tally of ``ordered`` (the ballots' targets, sorted: as :func:`_count` leaves them) as text:
    ``t:n`` by target, comma-separated. Joined once from two pieces per target, the target and its
    kept ``:n,`` (compiled, an f-string per target cost more: each is a generic native build of a
    new string; and each piece is an append and a step of the join); the last target's count has
    no comma. One or two ballots by concatenation."""
    n = len(ordered)
    if n == 1:
        return ordered[0] + ":1"
    if n == 2:
        a, b = ordered[0], ordered[1]
        return a + ":2" if a == b else a + ":1," + b + ":1"
    if n == 0:
        return ""
    pieces: list[str] = []
    i = votes = 0
    while i < n:
        t = ordered[i]
        j = _run_end(ordered, i)
        votes = j - i
        pieces.append(t)
        pieces.append(_COUNTED[votes] if votes < _NUMERAL_COUNT else f":{votes},")
        i = j
    pieces[-1] = _COUNTED_LAST[votes] if votes < _NUMERAL_COUNT else f":{votes}"
    return "".join(pieces)


def resolve_guard(uses: Sequence[hr.SkillUse], view: hr.GameView, sw: Switches) -> list[hr.Effect]:
    """R4: each guard's first PROTECT marks its target for tonight, within the house rules."""
    out: list[hr.Effect] = []
    for use in _firsts(uses, PROTECT):
        gid = use.player_id
        targets = use.targets  # not ``use.target``: a property of the NamedTuple, a Python-level call
        target = targets[0] if targets else ""
        guard = view.player(gid)
        if not target or guard is None:
            out.append(_refused(PROTECT, gid, target, NO_TARGET))
            continue
        if target == gid and not sw.guard_can_protect_self:
            out.append(_refused(PROTECT, gid, target, SELF_PROTECT))
            continue
        if (
            not sw.guard_can_repeat
            and cell(guard.vars, VAR_GUARD_LAST_TARGET) == target
            and cell(guard.vars, VAR_GUARD_LAST_ROUND) == _numeral(view.round - 1)
        ):
            out.append(_refused(PROTECT, gid, target, REPEAT_PROTECT))
            continue
        out.append(_event(PROTECT, gid, target))
        out.append(_written(True, target, VAR_PROTECTED, hr.VAR_PRESENT))
        out.append(_written(False, gid, VAR_GUARD_LAST_TARGET, target))
        out.append(_written(False, gid, VAR_GUARD_LAST_ROUND, _numeral(view.round)))
    return out


def resolve_wolves(uses: Sequence[hr.SkillUse], view: hr.GameView, sw: Switches) -> list[hr.Effect]:
    """R5: the unique most-voted target of the wolves' first votes is tonight's victim.

    A tie, or no vote at all, is no kill. The victim is only recorded here: whether
    they die is decided at dawn, once the guard and the witch have had their say.
    """
    cast: list[str] = []  # the named targets of each wolf's first KILL (an empty target is no vote)
    for u in _firsts(uses, KILL):
        targets = u.targets  # not ``u.target``: a property of the NamedTuple, a Python-level call
        if targets:
            t = targets[0]
            if t:
                cast.append(t)
    leaders, _ = _count(cast)
    data = _PROXY({"tally": _tally(cast)})
    if len(leaders) != 1:
        return [_refused(KILL, "", "", WOLVES_TIED if leaders else NO_VOTES, data)]
    victim = leaders[0]
    return [hr.event(KILL, target=victim, data=data), _kill_target(victim)]


def _antidote_refusal(wid: str, target: str, held: Mapping[str, str], victim: str, drank: bool, sw: Switches) -> str:
    """Why an antidote fails, checked in table order; ``""`` when it works."""
    if drank and not sw.witch_can_use_both_potions:
        return BOTH_POTIONS
    if not cell(held, VAR_ANTIDOTE):
        return NO_ANTIDOTE
    if target == wid and not sw.witch_can_save_self:
        return SELF_SAVE
    if not victim:
        return NO_KILL
    if target != victim:
        return NOT_VICTIM
    return ""


def _poison_refusal(wid: str, target: str, held: Mapping[str, str], drank: bool, sw: Switches) -> str:
    """Why a poison fails; ``""`` when it works. Self-poisoning is never allowed."""
    if drank and not sw.witch_can_use_both_potions:
        return BOTH_POTIONS
    if not cell(held, VAR_POISON):
        return NO_POISON
    if target == wid:
        return SELF_POISON
    if not target:
        return NO_TARGET
    return ""


def resolve_witch(uses: Sequence[hr.SkillUse], view: hr.GameView, sw: Switches) -> list[hr.Effect]:
    """R6/R7: the witch's potions, in submission order, first use of each potion only.

    Only a potion actually consumed blocks the other one (unless both are allowed).
    A successful poison tells nobody but the witch; the death is announced at dawn.
    """
    for u in uses:
        if u.skill == ANTIDOTE or u.skill == POISON:
            break
    else:  # no potion tonight (most nights): none of the lists below, nor the victim, needed
        return []
    out: list[hr.Effect] = []
    # Who has used each potion, and who drank one: lists, not sets of pairs (a night has a witch or
    # two: no set or key tuple built per call).
    antidotes: list[str] = []
    poisons: list[str] = []
    drank: list[str] = []
    victim = night_kill_target(view)
    for u in uses:
        wid = u.player_id
        if u.skill == ANTIDOTE:
            firsts = antidotes
        elif u.skill == POISON:
            firsts = poisons
        else:
            continue
        if wid in firsts:
            continue
        firsts.append(wid)
        targets = u.targets  # not ``u.target``: a NamedTuple property, a Python-level call
        target = targets[0] if targets else ""
        witch = view.player(wid)
        held: Mapping[str, str] = witch.vars if witch is not None else _EMPTY
        if u.skill == ANTIDOTE:
            kind = SAVE
            reason = _antidote_refusal(wid, target, held, victim, wid in drank, sw)
            potion, mark = VAR_ANTIDOTE, VAR_SAVED
        else:
            kind = POISON
            reason = _poison_refusal(wid, target, held, wid in drank, sw)
            potion, mark = VAR_POISON, VAR_POISONED
        if reason:
            out.append(_refused(kind, wid, target, reason))
            continue
        out.append(_event(kind, wid, target))
        out.append(_written(False, wid, potion, ""))
        out.append(_written(True, target, mark, hr.VAR_PRESENT))
        drank.append(wid)
    return out


def resolve_seer(uses: Sequence[hr.SkillUse], view: hr.GameView, sw: Switches) -> list[hr.Effect]:
    """R8: each seer's first CHECK learns the target's camp, never the role."""
    out: list[hr.Effect] = []
    for use in _firsts(uses, CHECK):
        sid = use.player_id
        targets = use.targets  # not ``use.target``: a NamedTuple property, a Python-level call
        named = targets[0] if targets else ""
        target = view.player(named)
        if target is None:
            out.append(_refused(CHECK, sid, named, NO_TARGET))
            continue
        out.append(_checked(sid, target.id, cell(target.vars, hr.VAR_CAMP)))
    return out


_CHECKS: Final[dict[tuple[str, str, str], hr.Effect]] = {}


def _checked(seer: str, target: str, camp: str) -> hr.Effect:
    """``hr.event(CHECK, seer, target, _seen(camp))``, kept (:func:`_keep`): a check's outcome, one
    per seer, seat and camp (building it costs about twice the lookup)."""
    key = (seer, target, camp)
    got = _CHECKS.get(key)
    if got is None:
        got = _keep(_CHECKS, key, hr.event(CHECK, seer, target, _seen(camp)))
    return got


_NOBODY_DIED: Final[Mapping[str, str]] = hr.constant_map({"dead": ""})
"""A peaceful dawn's data, built once, as a kernel constant (taken without re-reading when applied)."""
_NOBODY_DIED_CAUSES: Final[Mapping[str, str]] = hr.constant_map({"causes": "", "dead": ""})
"""The same, when death causes are announced."""
_PEACEFUL_DAWN: Final = hr.event(DAWN, data=_NOBODY_DIED)
_PEACEFUL_DAWN_CAUSES: Final = hr.event(DAWN, data=_NOBODY_DIED_CAUSES)
_DAWNS: Final[dict[str, hr.Effect]] = {}
"""A dawn with deaths, by its list of the dead (:func:`_keep`)."""


_SEEN: Final[dict[str, Mapping[str, str]]] = {}
"""A seer's check's payload by camp, built once per camp as a kernel constant (a table has a few camps)."""
_MAX_CAMPS: Final = 16
"""How many camps' payloads :data:`_SEEN` keeps (a bound: beyond it they are built afresh)."""


def _seen(camp: str) -> Mapping[str, str]:
    """What a check of a seat in ``camp`` tells the seer: its camp, and whether it is good."""
    got = _SEEN.get(camp)  # a dict: compiled, a native lookup
    if got is None:
        data = {"camp": camp, "good": "false" if camp == EVIL else "true"}
        if len(_SEEN) >= _MAX_CAMPS:
            return _PROXY(data)
        got = _SEEN[camp] = hr.constant_map(data)
    return got


def _victim_dies(p: hr.PlayerInfo, sw: Switches) -> bool:
    """R9: the night resolution matrix (guarded x saved)."""
    guarded = bool(cell(p.round_vars, VAR_PROTECTED))
    saved = bool(cell(p.round_vars, VAR_SAVED))
    if guarded and saved:
        return sw.guard_and_save_dies
    if guarded:
        return not sw.guarded_kill_is_empty
    return not saved


def resolve_night(uses: Sequence[hr.SkillUse], view: hr.GameView, sw: Switches) -> list[hr.Effect]:
    """R9/R10: dawn. Decide the wolves' victim, add the poisoned, announce the dead.

    The announcement (one public DAWN event) lists the dead in id order and says
    nothing about causes, as a moderator would; the causes are recorded in god-view
    variables. A poisoned player's cause is POISON even if the wolves also got them.
    """
    causes: dict[str, str] = {}
    victim = view.player(night_kill_target(view))
    if victim is not None and victim.alive and _victim_dies(victim, sw):
        causes[victim.id] = KILL
    for p in view.alive_players():
        marks = p.round_vars  # per seat: read in place, not through ``cell`` (a call, in pure Python)
        # Most seats hold no marker: their map is the kernel's shared empty one, told by identity
        # (compiled, ``in`` on a read-only map is a generic call); any other map is searched.
        if marks is not _EMPTY and VAR_POISONED in marks and marks[VAR_POISONED]:
            causes[p.id] = POISON
    if not causes:  # a peaceful night: the same announcement every time, kept (an immutable effect)
        return [_PEACEFUL_DAWN_CAUSES if sw.announce_death_causes else _PEACEFUL_DAWN]
    dead = sorted(causes)
    text = ",".join(dead)
    if sw.announce_death_causes:
        dawn = hr.event(DAWN, data=_PROXY({"causes": ",".join([f"{pid}:{causes[pid]}" for pid in dead]), "dead": text}))
    else:  # one announcement per list of the dead, kept (a night has one or two)
        got = _DAWNS.get(text)
        dawn = _keep(_DAWNS, text, hr.event(DAWN, data=_PROXY({"dead": text}))) if got is None else got
    out = [dawn]
    for pid in dead:
        _die(out, pid, causes[pid], NIGHT_LAST_ACTION)
    return out


def gun_refusal(actor: hr.PlayerInfo) -> str:
    """Why ``actor``'s gun would not fire, whatever the target; ``""`` when it would.
    The gun lists the deaths that arm it. Shared by the resolver and ``legality``."""
    gun = cell(actor.vars, VAR_GUN)
    if actor.alive:
        return STILL_ALIVE
    if not gun:
        return NO_GUN
    if cell(actor.vars, VAR_DEATH_CAUSE) not in gun.split(","):
        return GUN_JAMMED
    return ""


def _shot_refusal(actor: hr.PlayerInfo, target: hr.PlayerInfo | None) -> str:
    """Why a shot does not fire; ``""`` when it does."""
    why = gun_refusal(actor)
    if why:
        return why
    if target is None:
        return NO_TARGET
    if not target.alive:
        return TARGET_GONE
    return ""


def resolve_last_action(uses: Sequence[hr.SkillUse], view: hr.GameView, sw: Switches) -> list[hr.Effect]:
    """R11/R12: a dead player's last action. A gun fires unless the death disarmed it.

    The shot is public (the shooter shows their card); its victim dies and owes a last
    action in the same phase, so shots chain. SKIP, and a gun that does not fire, are
    told to the actor alone, so a plain villager's turn looks exactly like a hunter's.
    """
    out: list[hr.Effect] = []
    done: list[str] = []  # a list: one or two actors, no set built per call
    for u in uses:
        # hr.SKIP: a literal compiled code inlines (vocab's alias of it is a module-dict lookup per read).
        if u.player_id in done or u.skill not in (SHOOT, hr.SKIP):
            continue
        done.append(u.player_id)
        actor = view.player(u.player_id)
        if actor is None:
            continue
        if u.skill == hr.SKIP:
            out.append(_event(hr.SKIP, actor.id))
            continue
        targets = u.targets  # not ``u.target``: a NamedTuple property, a Python-level call
        named = targets[0] if targets else ""
        target = view.player(named)
        reason = _shot_refusal(actor, target)
        if reason or target is None:
            out.append(_refused(SHOOT, actor.id, named, reason or NO_TARGET))
            continue
        out.append(_event(SHOOT, actor.id, named))
        _die(out, target.id, SHOOT, view.phase)
    return out


def _banned(values: Mapping[str, str]) -> bool:
    """Whether a seat has lost its vote."""
    return VAR_NO_VOTE in values and bool(values[VAR_NO_VOTE])


_UNBANNED: Final[list[tuple[hr.PlayerInfo, ...]]] = [()]
"""The last living seats found with nobody banned from voting (one slot, read once: another thread
may replace it; it holds the tuple, so the identity it is compared by cannot be reused)."""


def _anyone_banned(living: tuple[hr.PlayerInfo, ...]) -> bool:
    """Whether a seat of ``living`` (``GameView.alive_players``) has lost its vote.

    A day's discussion and its vote read the same tuple (the view returns it until a record
    changes) and most days nobody has lost the vote: the tuple found so is kept, and the vote
    does not search each voter's variables again (compiled, each ``in`` is a generic call)."""
    if _UNBANNED[0] is living:
        return False
    for p in living:
        values = p.vars
        if VAR_NO_VOTE in values and values[VAR_NO_VOTE]:  # noqa: RUF019 (:func:`_banned`, inline)
            return True
    _UNBANNED[0] = living
    return False


def resolve_day(uses: Sequence[hr.SkillUse], view: hr.GameView, sw: Switches) -> list[hr.Effect]:
    """Discussion has no effects, except naming the voters when someone lost the vote."""
    living = view.alive_players()
    if not _anyone_banned(living):  # most days: found without building the list of voters
        return []
    return [hr.set_actors(VOTE, *[p.id for p in living if not _banned(p.vars)])]


def resolve_speech(uses: Sequence[hr.SkillUse], view: hr.GameView, sw: Switches) -> list[hr.Effect]:
    """R24: ordered day, at the end of each turn: announce that the speaker yielded the floor.

    The kernel's own turn bookkeeping reaches no event handler, so this public event is
    how a table learns the floor moved. ``how`` says whether the speaker said DONE or
    the host cut the turn short; neither depends on anyone's role.
    """
    speaker = view.turn()
    if not speaker:
        return []
    done = False
    for u in uses:
        if u.skill == DONE:
            done = True
            break
    return [hr.event(SPEECH_ENDED, speaker, data=_HOW_DONE if done else _HOW_CUT)]


_HOW_DONE: Final[Mapping[str, str]] = hr.constant_map({"how": DONE})
""":func:`resolve_speech`'s two possible payloads, built once as kernel constants."""
_HOW_CUT: Final[Mapping[str, str]] = hr.constant_map({"how": CUT})


def resolve_vote(uses: Sequence[hr.SkillUse], view: hr.GameView, sw: Switches) -> list[hr.Effect]:
    """R13: the unique most-voted player is eliminated; a tie or no votes eliminates nobody.

    Ballots are public, as on a real table. There is no run-off vote.
    """
    # The counted ballots in voter order, as the pieces of "voter>target,..." (appends, joined once:
    # an f-string per ballot cost more): voter ``k``'s id is ``pieces[4 * k]``, its target
    # ``pieces[4 * k + 2]``; and their targets alone, to count.
    pieces: list[str] = []
    cast: list[str] = []
    living = view.alive_players()
    banned = _anyone_banned(living)  # if not, no voter's variables are read
    if not _ballots_in_seat_order(uses, living, banned, pieces, cast):
        pieces.clear()
        cast.clear()
        _ballots(uses, living, banned, pieces, cast)
    text = "".join(pieces)
    leaders, top = _count(cast)  # sorts ``cast``: the ballots' order is kept in ``pieces``
    if len(leaders) != 1:
        return [hr.event(VOTE_TIED, data=_PROXY({"ballots": text, "between": ",".join(leaders)}))]
    out = leaders[0]
    named: list[str] = []
    for k in range(0, len(pieces), 4):
        if pieces[k + 2] == out:
            named.append(pieces[k])
    data = {"ballots": text, "tally": _tally(cast), "voters": ",".join(named), "votes": _numeral(top)}
    effects = [hr.event(ELIMINATE, target=out, data=_PROXY(data))]
    _die(effects, out, VOTE, DAY_LAST_ACTION)
    return effects


def _count_ballot(pieces: list[str], cast: list[str], voter: str, target: str) -> None:
    """One counted ballot appended to :func:`resolve_vote`'s lists."""
    if pieces:
        pieces.append(",")
    pieces.append(voter)
    pieces.append(">")
    pieces.append(target)
    cast.append(target)


def _ballots_in_seat_order(
    uses: Sequence[hr.SkillUse], living: tuple[hr.PlayerInfo, ...], banned: bool, pieces: list[str], cast: list[str]
) -> bool:
    """:func:`_ballots` for the usual day, False (the lists part filled) for any other: when every
    ballot's voter is living and comes after the previous ballot's in seat order (each seat votes
    once, in turn), each ballot is its voter's first and the ballots are already in voter order,
    so they are counted as they come, matched to their records by walking the living once (no
    dict of first ballots to fill and read back: compiled, each step is a generic call). A voter's
    variables are read only when ``banned`` (see :func:`_ballots`)."""
    n = len(living)
    j = 0
    for u in uses:
        if u.skill != VOTE:
            continue
        voter = u.player_id
        while j < n and living[j].id != voter:
            j += 1
        if j == n:  # not living, or not after the previous voter: the general way
            return False
        seat = living[j]
        j += 1
        targets = u.targets  # not ``u.target``: a NamedTuple property, a Python-level call
        if not targets or not targets[0] or (banned and _banned(seat.vars)):
            continue
        _count_ballot(pieces, cast, voter, targets[0])
    return True


def _ballots(
    uses: Sequence[hr.SkillUse], living: tuple[hr.PlayerInfo, ...], banned: bool, pieces: list[str], cast: list[str]
) -> None:
    """The counted ballots, in voter (id) order: each living voter's first VOTE, if it names a
    target and the voter has not lost the vote (the dead's are not counted; ``banned``: whether a
    living seat may have lost it, :func:`_anyone_banned`)."""
    firsts: dict[str, str] = {}  # each voter's first ballot, by voter: the target it names ("" none)
    for u in uses:
        if u.skill == VOTE:
            voter = u.player_id
            if voter not in firsts:
                targets = u.targets  # not ``u.target``: a NamedTuple property, a Python-level call
                firsts[voter] = targets[0] if targets else ""
    if not firsts:
        return
    for p in living:  # the living are in id order: the ballots need no sort
        v = p.id
        t = firsts.get(v)
        if t and not (banned and _banned(p.vars)):
            _count_ballot(pieces, cast, v, t)


_TABLE: dict[str, Callable[[Sequence[hr.SkillUse], hr.GameView, Switches], list[hr.Effect]]] = {
    NIGHT_GUARD: resolve_guard,
    NIGHT_WOLF: resolve_wolves,
    NIGHT_WITCH: resolve_witch,
    NIGHT_SEER: resolve_seer,
    NIGHT_RESOLVE: resolve_night,
    NIGHT_LAST_ACTION: resolve_last_action,
    DAY: resolve_day,
    VOTE: resolve_vote,
    DAY_LAST_ACTION: resolve_last_action,
}


def resolvers(switches: Switches | None = None) -> dict[str, Resolve]:
    """Every phase's resolver with ``switches`` bound (defaults when ``None``)."""
    sw = Switches() if switches is None else switches
    if not isinstance(sw, Switches):
        raise hr.InvalidArgument("switches must be a Switches value")
    return {phase: bind(fn, sw) for phase, fn in _TABLE.items()}


def turn_resolvers(switches: Switches | None = None) -> dict[str, Resolve]:
    """Per-turn resolvers: the ordered day's, when that switch is on; none otherwise."""
    sw = Switches() if switches is None else switches
    if not isinstance(sw, Switches):
        raise hr.InvalidArgument("switches must be a Switches value")
    return {DAY: bind(resolve_speech, sw)} if sw.ordered_day else {}


def bind(fn: Callable[[Sequence[hr.SkillUse], hr.GameView, Switches], list[hr.Effect]], sw: Switches) -> Resolve:
    """``fn`` as a kernel resolver with the table's switches fixed (named after ``fn`` for error texts)."""

    def resolve(uses: Sequence[hr.SkillUse], view: hr.GameView) -> list[hr.Effect]:
        return fn(uses, view, sw)

    resolve.__name__ = resolve.__qualname__ = fn.__name__
    resolve.__doc__ = fn.__doc__
    return resolve
