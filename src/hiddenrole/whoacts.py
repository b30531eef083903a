"""Who may act, and what: the one answer that ``submit``, ``allowed_skills``, readiness,
``phase_info``, player views and the turn queue all share.

"Who may act" has one source, :meth:`WhoActs._actors`: the players named for the
phase (``set_actors``, a detour), else the living. On top of it come the phase's
steps for the player's role, the turn order, the one-submission-per-step rule of
simultaneous phases, and finally the rules' ``usable`` gate.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable, Iterator
from types import MappingProxyType
from typing import Any, Final, cast

from .compiled import PhaseTable
from .config import PhaseStep
from .effects import EMPTY_MAP, Effect, SkillUse, frozen_map, kernel_entry
from .enginebase import REENTRY, EngineBase, Gate, ids_from
from .errors import GameError, PlayerDead, ReentrantCall, SkillNotAllowed
from .views import PendingAction, PhaseInfo, PlayerInfo, Readiness, RolePhaseInfo, Status
from .vocab import TURN_ENDED, RoleType, SkillType, TurnOrder

__all__ = ["NOT_USABLE", "NO_TARGET_NOW", "WhoActs", "frozen_tuple_map"]

_new: Final = tuple.__new__
"""Builds a NamedTuple answer without its generated ``__new__`` (a Python frame)."""

NOT_USABLE = "the rules do not allow it now"
"""Reason given when a ``usable`` provider refuses with an empty string."""
NO_TARGET_NOW = "no target is allowed now"
"""Reason given when a ``usable`` provider allows an empty set of targets."""


class WhoActs(EngineBase):
    """Who may act, which skills each player is offered now, and the turn queue."""

    __slots__ = ("_acting",)

    _acting: tuple[dict[str, tuple[SkillType, ...]], list[str]]
    """The seats :meth:`_offers` offered anything, in seat order, with the map of that pass (its
    ``_answers``): every other seat's answer is ``()`` while that map is the board's. Set by each
    pass before its map is kept, so it is read only once ``_answers`` is set (never unset then)."""

    @abstractmethod
    def status(self) -> Status:
        """The game's status (defined by ``Engine``). Declared here so that every base from this
        one to ``Phases`` is abstract, as none is meant to be used alone: compiled, a public method
        then checks its ``self`` against ``Engine``, the one concrete class, with one type
        comparison, where a base with more than three concrete subclasses walked the MRO
        (``PyType_IsSubtype``) on every call from Python (``allowed_skills``: about 40 instructions
        of about 270)."""

    def _actors(self) -> tuple[PlayerInfo, ...]:
        """The single source of "who may act": the players named for the phase (``set_actors``,
        a detour; the dead included), else the living; records sorted by id (the living come
        straight from the board's kept tuple: no lookup per seat)."""
        s = self._state
        named = s.actors.get(s.phase) if s.actors else None  # no lookup while nobody is named anywhere
        if named is None:
            return s.alive_players()
        players = s.players
        return tuple([players[i] for i in named])  # a tuple, as compiled callers iterate it natively

    def _may_act(self, p: PlayerInfo) -> bool:
        """Whether ``p`` (a seat's current record) is among :meth:`_actors` (records compare by
        identity first; two seats' records never compare equal, their ids differ)."""
        return p in self._actors()

    def _not_acting(self, p: PlayerInfo) -> GameError:
        """Why ``p`` may not act now (``_may_act`` is false): not named, or eliminated."""
        s = self._state
        if s.actors.get(s.phase) is not None:
            return SkillNotAllowed(f"{p.id!r} is not named to act in {s.phase}")
        return PlayerDead(f"{p.id!r} is eliminated")

    def _actors_for(self, role: RoleType) -> tuple[str, ...]:
        """The ids of :meth:`_actors` with step role ``role`` (``""``: any role), sorted."""
        if not role:
            return tuple([p.id for p in self._actors()])
        return tuple([p.id for p in self._actors() if p.role == role])

    def _eligible(self, p: PlayerInfo, table: PhaseTable) -> tuple[SkillType, ...]:
        """Skills the phase gives ``p`` now, before turn order is considered."""
        if not self._may_act(p):
            return ()
        got = table._skills_for.get(p.role)
        return got if got is not None else table.skills_for(p.role)

    def _offers(self) -> dict[str, tuple[SkillType, ...]]:
        """What the phase offers each seat now, in one pass per board (the steps for the role,
        for those who may act; in a turn-ordered phase, only out-of-turn skills off the turn;
        ``()``: nothing). With it, the final answer of every seat it can give (see below)."""
        got = self._answers
        if got is not None:
            return got
        s = self._state
        # Every seat's entry starts as ``()`` (a copy of the board's template); an offered seat's is
        # replaced, which costs a fraction of inserting it into a fresh map.
        offers = s.blank_by_seat()
        acting: list[str] = []  # the seats offered anything, in seat order (the actors are sorted by id)
        gated: list[str] | None = None  # offered seats whose offer names a skill ``usable`` is asked about
        here = self._here
        table = (here if here.name is s.phase else self._row()).table
        if table is not None and table.active_roles:
            fn = self._usable
            asked = self._b.usable_skills
            if not table.queued and len(table.active_roles) == 1:
                # One role acts, no turn order (most night phases, and a day vote's role-less step):
                # every seat it concerns gets one shared tuple, found without a lookup per seat.
                only = table.active_roles[0]
                shared = table.one_role_offer
                if shared:
                    actors = self._actors()
                    if not only:
                        # Role-less steps: every actor (a list made at its length, no append per seat).
                        acting = [p[0] for p in actors]
                        for pid in acting:
                            offers[pid] = shared
                    else:
                        # A named role: its seats are found by comparing roles; every other seat is
                        # offered nothing.
                        for p in actors:
                            if p.role == only:
                                pid = p.id
                                offers[pid] = shared
                                acting.append(pid)
                    if fn is not None and table.asks(asked):
                        gated = acting  # every seat offered the one tuple is asked about it
            else:
                head = s.turns[0] if table.queued and s.turns else None
                last: tuple[SkillType, ...] = ()
                ask = False
                for p in self._actors():
                    skills = table.offer(p.role, p.id == head)
                    if skills:
                        offers[p.id] = skills
                        acting.append(p.id)
                        if fn is not None:
                            if skills is not last:  # one verdict per run of seats sharing a role's tuple
                                last = skills
                                ask = _asks(asked, skills)
                            if ask:
                                if gated is None:
                                    gated = []
                                gated.append(p.id)
        kept = cast("dict[str, tuple[SkillType, ...]]", offers)  # entries may become None (see below)
        self._acting = (kept, acting)  # before the map is kept: see _acting
        self._answers = kept
        # The final answer of every seat, in this one pass: nothing offered, or (nothing waiting)
        # the offer less what ``usable`` refuses, asked only for the seats offered a skill the
        # rules' ``usable_skills`` names. allowed_skills then costs one lookup for every seat.
        # Nothing waiting, the one map serves as both: a seat's entry may then be narrowed by
        # ``usable``, or dropped (``usable`` raised, or later the seat's own submission), and
        # :meth:`_allowed` recomputes a dropped seat's offer rather than reading it here.
        now = offers
        if self._pending:
            now = offers.copy()
            for pid, offer in offers.items():
                if offer:
                    del now[pid]  # narrowed by the seat's own waiting submissions: asked per seat
        elif gated:
            fn = self._usable
            assert fn is not None  # gated seats are collected only under a usable gate
            asked = self._b.usable_skills
            for pid in gated:
                offer = offers[pid]
                assert offer is not None
                try:
                    now[pid] = self._usable_only(fn, pid, offer, asked, ())
                except Exception:
                    # Left for the seat's own question, which raises it then (``usable`` is
                    # pure: asking again gives the same answer, or the same error).
                    del now[pid]
        self._now = now
        return kept

    def _offer_of(self, p: PlayerInfo) -> tuple[SkillType, ...]:
        """What the phase offers ``p`` now: :meth:`_offers`' answer for one seat, recomputed when
        the map the pass shared with the final answers no longer holds it."""
        s = self._state
        table = self._tables.get(s.phase)
        if table is None or not table.active_roles or not self._may_act(p):
            return ()
        return table.offer(p.role, p.id == (s.turns[0] if s.turns else None))

    def _allowed(self, p: PlayerInfo) -> tuple[SkillType, ...]:
        """What ``p`` may submit now: the phase's offer, less what the rules' ``usable``
        refuses, less the steps ``p`` already used in a simultaneous phase. Kept per seat
        until the board or the seat's own waiting submissions change."""
        now = self._now
        got = now.get(p.id)
        if got is not None:
            return got
        offers = self._answers
        if offers is None:
            offers = self._offers()
            now = self._now
            got = now.get(p.id)  # the pass answers every seat it can
            if got is not None:
                return got
        known = offers.get(p.id) if offers is not now else None
        skills = known if known is not None else self._offer_of(p)
        if skills:
            fn = self._usable
            if fn is not None:
                skills = self._usable_only(fn, p.id, skills, self._b.usable_skills)
            if skills and self._pending:
                table = self._row().table
                if table is not None and table.simultaneous:
                    # One submission per step: a step the seat already used is no longer offered.
                    used = {u.skill for u in self._pending if u.player_id == p.id}
                    if used:
                        sib = table.siblings
                        step_for = table.find_step
                        skills = tuple(k for k in skills if used.isdisjoint(sib[_key(step_for(p.role, k))]))
        now[p.id] = skills
        return skills

    def _usable_only(
        self,
        fn: Callable[..., Any],
        player_id: str,
        skills: tuple[SkillType, ...],
        asked: frozenset[SkillType] | None,
        mine: tuple[SkillUse, ...] | None = None,
    ) -> tuple[SkillType, ...]:
        """``skills`` less those the rules' ``usable`` refuses now (one pass, answers kept as :meth:`_gate`;
        ``asked``: the rules' ``usable_skills``, the only skills it is asked about, ``None`` for all;
        ``mine``: the seat's own waiting submissions, when the caller has them)."""
        gates = self._gates.get(player_id)
        fresh = gates is None  # nothing asked yet (the pass after a board change): no lookup per skill
        if gates is None:
            gates = self._gates[player_id] = {}
        refused = False
        for k in skills:
            if asked is not None and k not in asked:
                continue  # never asked: usable on any target (see _gate)
            if not fresh and k in gates:
                gate = gates[k]
            else:
                if mine is None:
                    mine = self._mine(player_id)
                gate = gates[k] = self._ask_usable(fn, player_id, k, mine)
            if isinstance(gate, str):
                refused = True
        if not refused:
            return skills
        return tuple([k for k in skills if not isinstance(gates.get(k), str)])

    def _mine(self, player_id: str) -> tuple[SkillUse, ...]:
        """The seat's own submissions waiting in this phase (what ``usable`` may depend on besides the board)."""
        pending = self._pending
        return tuple([u for u in pending if u.player_id == player_id]) if pending else ()

    def _limits(self, player_id: str, skills: tuple[SkillType, ...]) -> tuple[tuple[SkillType, tuple[str, ...]], ...]:
        """``(skill, only targets)`` for each allowed skill the rules' ``usable`` limits now (targets sorted)."""
        if self._usable is None or not skills:
            return ()
        out = []
        for k in skills:
            gate = self._gate(player_id, k)
            if isinstance(gate, frozenset):
                out.append((k, tuple(sorted(gate))))
        return tuple(out)

    def _gate(
        self, player_id: str, skill: SkillType, mine: tuple[SkillUse, ...] | None = None, any_form: bool = False
    ) -> Gate:
        """The rules' ``usable`` answer: ``None`` (yes), a reason (no), or the allowed targets, as a
        frozenset; with ``any_form``, targets kept as the rules gave them may come as a tuple (whose
        ``in`` gives the same answer: what ``submit`` asks).

        ``usable`` is pure (a function of the board and the seat's own waiting submissions,
        ``mine`` when the caller has them), so its answer is kept per seat and skill until
        the board or the seat's own submissions change. A skill outside the rules'
        ``usable_skills`` is never asked about: ``None``.
        """
        fn = self._usable
        if fn is None:
            return None
        asked = self._b.usable_skills
        if asked is not None and skill not in asked:
            return None  # the rules promise usable never refuses nor narrows it: not asked, not kept
        gates = self._gates.get(player_id)
        if gates is None:
            gates = self._gates[player_id] = {}
        if skill in gates:
            answer = gates[skill]
        else:
            if mine is None:
                mine = self._mine(player_id)
            answer = gates[skill] = self._ask_usable(fn, player_id, skill, mine)
        if not any_form and type(answer) is tuple:
            answer = gates[skill] = frozenset(answer)  # made once, when a reader needs the set
        return answer

    def _ask_usable(self, fn: Callable[..., Any], player_id: str, skill: SkillType, mine: tuple[SkillUse, ...]) -> Gate:
        """Call ``usable`` once (re-entry refused) and normalise its answer. Targets that are all
        plain ``str`` are kept as the tuple they came in (``in`` on it answers as on their set; the set,
        about 1,500 instructions compiled, is made by :meth:`_gate` only for a reader that needs it)."""
        self._in_ext = True
        try:
            got = fn(player_id, skill, self._view, mine)
        finally:
            self._in_ext = False
        if got is None:
            return None
        if isinstance(got, str):
            return got or NOT_USABLE
        targets = ids_from(got, "usable")
        if not targets:
            return NO_TARGET_NOW
        for t in targets:
            if type(t) is not str:
                return frozenset(targets)  # hashes each: an unhashable target raises here, as it always did
        return targets

    # ------------------------------------------------------------------ the turn queue

    def _start_turns(self) -> None:
        """Every phase starts with a fresh turn order (empty unless the phase is queued)."""
        s = self._state
        s.delayed = ()
        table = self._tables.get(s.phase)
        s.turns = self._turn_queue(table) if table is not None and table.queued else []

    def _turn_queue(self, table: PhaseTable) -> list[str]:
        """Who takes a turn in this phase, in order: seat order, or initiative (high first)."""
        s = self._state
        players = s.players
        ids = [i for i in s.order if any(k not in table.out_of_turn for k in self._eligible(players[i], table))]
        if table.order is TurnOrder.INITIATIVE:
            key = table.initiative_var
            ids.sort(key=lambda i: (-_as_int(players[i].vars.get(key, "")), i))
        return ids

    def _skip_idle_turns(self, out: list[Effect]) -> None:
        """Pass over queued players who can no longer act (e.g. eliminated meanwhile)."""
        s = self._state
        table = self._tables[s.phase]
        while s.turns and not any(k not in table.out_of_turn for k in self._eligible(s.players[s.turns[0]], table)):
            out.append(kernel_entry(TURN_ENDED, s.turns.pop(0)))

    # ------------------------------------------------------------------ public readers

    def allowed_skills(self, player_id: str) -> tuple[SkillType, ...]:
        """What ``player_id`` may submit now (the same answer submit and readiness use)."""
        # A kept answer is read without the lock (see DESIGN.md, "Threads and re-entry"):
        # it is only ever stored under the lock, from a whole board, and dropped by the
        # step that changes the board before that step releases the lock.
        if type(player_id) is str and not self._in_ext:
            got = self._now.get(player_id)
            if got is not None:
                return got
        self._lock.acquire()
        try:
            if self._in_ext:
                raise ReentrantCall(REENTRY)
            if type(player_id) is str:
                p = self._state.players.get(player_id)
                if p is not None:
                    return self._allowed(p)
            self._player(player_id)  # raises unless a str subclass names a player
            return ()
        finally:
            self._lock.release()

    def who_acts(self) -> Iterator[tuple[str, tuple[SkillType, ...]]]:
        """Every seat that may submit now, in seat order, with its ``allowed_skills`` (never empty).

        Each seat is asked when the iteration reaches it, so a submission made during the loop
        (a turn passed, a move resolved at once) is reflected exactly as asking ``allowed_skills``
        seat by seat would be. Why: a driver of every seat asks a dozen seats a phase and most
        answers are empty; this is one native step per seat that acts, where the per-seat loop
        was one Python call per seat (compiled werewolf: about 4% of a random game)."""
        if self._in_ext:
            raise ReentrantCall(REENTRY)
        # The seat order without the lock: it changes only while seating, and a tuple of it is one
        # atomic copy; each answer then takes allowed_skills' own path.
        return self._seats_asked(tuple(self._state.order))

    def _seats_asked(self, ids: tuple[str, ...]) -> Iterator[tuple[str, tuple[SkillType, ...]]]:
        """Each seat of ``ids`` (seat order: sorted) asked in turn. While the board's pass (``_answers``)
        is at hand and stays the board's, only the seats it offered anything are asked: any other
        seat's answer is ``()`` until the board changes (the pass is forgotten with it), so passing
        over them gives what asking them would, without a lookup each (a dozen seats a phase, most
        answers empty: compiled werewolf, about 100k instructions a game). Once the pass is no longer
        the board's (a move resolved at once, a turn passed) or an extension point runs, the next
        seat is asked as the loop reaches it, which makes the new board's pass (or raises)."""
        n = len(ids)
        i = 0  # ids[i:] are still to be asked
        while i < n:
            pid = ids[i]
            skills = None  # seat i's answer, when asking it was to make the board's pass
            if self._answers is None or self._in_ext:
                skills = self.allowed_skills(pid)  # as the loop asking seat by seat: raises inside an extension point
            answers = self._answers
            if answers is not None:
                kept, acting = self._acting
                if kept is answers:
                    first = pid if i else None  # the offered seats before it were asked already
                    last: str | None = None  # the last seat asked here
                    for seat in acting:
                        if first is not None:
                            if seat < first:
                                continue
                            first = None
                        got = self._now.get(seat)  # allowed_skills' own fast path (a kept answer), inline
                        if got is None:
                            got = self.allowed_skills(seat)
                        last = seat
                        if got:
                            yield seat, got
                            if self._answers is not answers or self._in_ext:
                                break  # the driver's step changed the board (or runs an extension point)
                    if self._answers is answers and not self._in_ext:
                        return  # every seat left was offered nothing by the board's pass: ``()``
                    if last is not None:
                        while i < n and ids[i] <= last:
                            i += 1
                        continue
                    # Nothing asked from seat i on, and the pass is gone (another thread's step): seat i
                    # is asked below, so the loop moves on even if the board keeps changing under it.
            # No pass to go by (another thread's board; or none made: seating): this seat alone.
            if skills is None:
                skills = self._now.get(pid) if not self._in_ext else None
                if skills is None:
                    skills = self.allowed_skills(pid)
            i += 1
            if skills:
                yield pid, skills

    def allowed_targets(self, player_id: str, skill: SkillType) -> tuple[str, ...] | None:
        """The only targets ``player_id`` may give ``skill`` now, sorted; ``None``: any the step permits.

        ``()`` when the skill is not allowed now (the same answer submit uses).
        """
        with self._lock:
            self._guard()
            p = self._player(player_id)
            if skill not in self._allowed(p):
                return ()
            gate = self._gate(p.id, skill)
            return None if gate is None else tuple(sorted(gate))

    def readiness(self) -> Readiness:
        """Who still owes an action; advice only (ending the phase is never refused)."""
        self._lock.acquire()
        try:
            if self._in_ext:
                raise ReentrantCall(REENTRY)
            s = self._state
            pending_uses = self._pending
            acted = tuple(sorted({u.player_id for u in pending_uses})) if pending_uses else ()
            pend: list[PendingAction] = []
            opt: list[PendingAction] = []
            ready = True
            players = s.players
            table = self._table()
            if table.queued:
                # The turn holder's answer (a host asks it after every turn), built as tuples directly.
                if not s.turns:
                    return _new(Readiness, (s.phase, s.round, True, (), (), acted, "", s.delayed))
                head = players[s.turns[0]]
                hid, role, out_of_turn = head.id, head.role, table.out_of_turn
                owed = tuple([_new(PendingAction, (hid, role, k)) for k in self._allowed(head) if k not in out_of_turn])
                return _new(Readiness, (s.phase, s.round, False, owed, (), acted, hid, s.delayed))
            for req in table.requirements:
                actors = self._actors_for(req.role)
                if not actors:
                    continue
                done = {u.player_id for u in pending_uses if u.skill in req.skills}
                missing = [a for a in actors if a not in done]
                if not missing:
                    continue
                if self._usable is None:
                    actions = [_new(PendingAction, (a, players[a].role, req.skill)) for a in missing]
                else:
                    # A seat is asked only for a skill the rules let it use now (the first, in step order).
                    actions = []
                    for a in missing:
                        live = [k for k in req.order if not isinstance(self._gate(a, k), str)]
                        if live:
                            actions.append(_new(PendingAction, (a, players[a].role, live[0])))
                    if not actions:
                        continue
                if not req.required:
                    opt.extend(actions)
                elif req.multiple or not any(a in done for a in actors):
                    pend.extend(actions)
                    ready = False
            return _new(Readiness, (s.phase, s.round, ready, tuple(pend), tuple(opt), acted, "", ()))
        finally:
            self._lock.release()

    def phase_info(self) -> PhaseInfo:
        """God view of the phase for a moderator: steps, active roles, who and what."""
        with self._lock:
            self._guard()
            s = self._state
            table = self._table()
            roles: dict[RoleType, RolePhaseInfo] = {}
            players = s.players
            for role in table.active_roles:
                ids = self._actors_for(role)
                skills = tuple(x.skill for x in table.steps if x.skill and x.role == role)
                refused: dict[str, Any] = {}
                targets: dict[str, Any] = {}
                if self._usable is not None:
                    for i in ids:
                        gates = {k: self._gate(i, k) for k in skills}
                        no = {k: g for k, g in gates.items() if isinstance(g, str)}
                        only = {k: tuple(sorted(g)) for k, g in gates.items() if isinstance(g, frozenset)}
                        if no:
                            refused[i] = frozen_map(no)
                        if only:
                            targets[i] = frozen_tuple_map(only)
                roles[role] = RolePhaseInfo(
                    ids,
                    skills,
                    frozen_tuple_map({i: self._teammates(i) for i in ids}),
                    frozen_tuple_map({i: self._role_info(players[i]) for i in ids}),
                    frozen_tuple_map(refused),
                    frozen_tuple_map(targets),
                )
            return PhaseInfo(s.phase, s.round, table.steps, table.active_roles, frozen_tuple_map(roles))

    # ------------------------------------------------------------------ what a seat knows of others

    def _teammates(self, player_id: str) -> tuple[str, ...]:
        """The teammates provider's answer, seated players other than ``player_id``, sorted
        (kept per seat until the board changes: views and phase info ask every time)."""
        got = self._mates.get(player_id)
        if got is not None:
            return got
        fn = self._b.teammates
        if fn is None:
            return ()
        self._in_ext = True  # what _call does, without its frame
        try:
            raw = fn(player_id, self._view)
        finally:
            self._in_ext = False
        got = self._seated(raw, "teammates provider", player_id) if raw else ()  # () the common answer: nobody
        self._mates[player_id] = got
        return got

    def _seated(self, raw: Any, who: str, but: str = "") -> tuple[str, ...]:
        """A provider's answer as the seated players it names (less ``but``), sorted and unique."""
        players = self._state.players
        return tuple(sorted({i for i in ids_from(raw, who) if i in players and i != but}))

    def _role_info(self, p: PlayerInfo) -> Any:
        """The role's private info for ``p`` (kept per seat until the board changes, as teammates are)."""
        fn = self._b.role_info.get(p.role)
        if fn is None:
            return EMPTY_MAP  # the common answer (no provider for the role): nothing to keep
        got = self._infos.get(p.id)
        if got is not None:
            return got
        self._in_ext = True  # what _call does, without its frame
        try:
            raw = fn(p.id, self._view)
        finally:
            self._in_ext = False
        got = self._infos[p.id] = frozen_map(raw)
        return got


def _asks(asked: frozenset[SkillType] | None, skills: tuple[SkillType, ...]) -> bool:
    """Whether ``usable`` is asked about any of ``skills`` (``asked``: the rules' ``usable_skills``)."""
    return asked is None or any(k in asked for k in skills)  # compiled, any() of a generator is a native loop


def _key(step: PhaseStep | None) -> tuple[RoleType, SkillType]:
    assert step is not None  # every skill offered to a role has a step
    return (step.role, step.skill)


def _as_int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        return 0


def frozen_tuple_map(d: dict[str, Any]) -> Any:
    """A read-only mapping with sorted keys (deterministic iteration)."""
    return MappingProxyType(dict(sorted(d.items())))
