"""What an agent receives: an :class:`Observation`, built only from its seat's table view.

The builder reads a seat's :class:`hiddenrole.host.TableView` and the table's public
phase configuration (the rules every player knows) and nothing else. It drops the
view's two host numbers, the table id and the global sequence number (issue 8: both
can carry hidden information), and numbers events and chat lines by their position
in this seat's own history instead. So whatever an agent does, it can only ever
learn what its seat may know; the twin-deal tests in ``tests/agents`` hold it to that.

An observation carries the legal actions *now* (each skill the seat may use, the
targets that skill accepts, how many) and a JSON Schema of a valid answer, so a
language model or an RL policy is told exactly what it may say.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

import hiddenrole as hr
from hiddenrole.enginetest import find_step
from hiddenrole.host import MAX_SAY, SAY, ChatLine, SeatPlayer, Table, TableView
from hiddenrole.host import SeenEvent as ViewEvent

from .errors import InvalidAction

__all__ = [
    "Action",
    "LegalAction",
    "Observation",
    "SeenChat",
    "SeenEvent",
    "Player",
    "observe",
    "observe_table",
    "legal_actions",
    "seen_events",
    "seen_chat",
    "MAX_REASONING",
]

MAX_REASONING: Final = 20_000
"""Longest private reasoning kept per decision, in characters (longer is cut)."""


Player = SeatPlayer
"""Another seat as this seat knows it: the host view's own record (``role`` is ``""`` unless the seat may know it)."""


@dataclass(frozen=True, slots=True)
class SeenEvent:
    """An event this seat saw; ``index`` is its position in this seat's history (0, 1, ...)."""

    index: int
    type: str
    source: str = ""
    target: str = ""
    data: Mapping[str, str] = field(default_factory=dict)
    canceled: bool = False
    reason: str = ""

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "index": self.index,
            "type": self.type,
            "source": self.source,
            "target": self.target,
            "data": dict(sorted(self.data.items())),
        }
        if self.canceled:
            out |= {"canceled": True, "reason": self.reason}
        return out


@dataclass(frozen=True, slots=True)
class SeenChat:
    """A line this seat heard; ``index`` is its position in this seat's chat history."""

    index: int
    sender: str
    text: str
    phase: str
    round: int

    def to_dict(self) -> dict[str, Any]:
        return {"index": self.index, "sender": self.sender, "text": self.text, "phase": self.phase, "round": self.round}


@dataclass(frozen=True, slots=True)
class LegalAction:
    """One skill the seat may use now, and the targets it accepts.

    ``candidates`` are the seats (or pool members, e.g. One Night's centre cards) a
    target may be; a valid answer names between ``min_targets`` and ``max_targets`` of
    them, without repeats when ``distinct``. ``out_of_turn`` marks an extra that does
    not move the game on (the race's taunt). A step whose targets the rules leave open
    (red/blue's vote) is offered with 0..1 targets among the living.
    """

    skill: str
    candidates: tuple[str, ...]
    min_targets: int
    max_targets: int
    distinct: bool
    pool: str = ""
    out_of_turn: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "skill": self.skill,
            "candidates": list(self.candidates),
            "min_targets": self.min_targets,
            "max_targets": self.max_targets,
            "distinct": self.distinct,
            "pool": self.pool,
            "out_of_turn": self.out_of_turn,
        }

    def schema(self) -> dict[str, Any]:
        """JSON Schema of an answer using this skill."""
        targets: dict[str, Any] = {"type": "array", "minItems": self.min_targets, "maxItems": self.max_targets}
        if self.candidates:
            targets["items"] = {"enum": list(self.candidates)}
        if self.distinct:
            targets["uniqueItems"] = True
        return {
            "type": "object",
            "properties": {"skill": {"const": self.skill}, "targets": targets},
            "required": ["skill", "targets"],
        }

    def check(self, targets: Sequence[str]) -> str:
        """Why ``targets`` do not fit, or ``""``."""
        n = len(targets)
        if not self.min_targets <= n <= self.max_targets:
            want = (
                str(self.min_targets)
                if self.min_targets == self.max_targets
                else f"{self.min_targets}..{self.max_targets}"
            )
            return f"{self.skill} takes {want} target(s), got {n}"
        for t in targets:
            if t not in self.candidates:
                return f"{t!r} is not a target {self.skill} accepts (choose among: {', '.join(self.candidates)})"
        if self.distinct and len(set(targets)) != n:
            return f"{self.skill} needs distinct targets"
        return ""


@dataclass(frozen=True, slots=True)
class Action:
    """An agent's answer: use ``skill`` on ``targets``, or pass (``skill`` ``None``); ``say`` speaks first.

    ``reasoning`` is private: the runner stores it in the game record under this seat
    and never shows it to any other seat.
    """

    skill: str | None = None
    targets: tuple[str, ...] = ()
    say: str = ""
    reasoning: str = ""

    @property
    def passes(self) -> bool:
        return self.skill is None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"skill": self.skill, "targets": list(self.targets)}
        if self.say:
            out["say"] = self.say
        return out


@dataclass(frozen=True)
class Observation:
    """Everything one seat may know now, as structure; :meth:`text` renders it in words.

    Built by :func:`observe` from the seat's table view. ``error`` holds the reason
    the seat's previous answer was refused (empty otherwise), so an agent can retry.
    """

    game: str
    seat: str
    role: str
    camp: str
    alive: bool
    teammates: tuple[str, ...]
    role_info: Mapping[str, str]
    phase: str
    round: int
    turn: str
    over: bool
    players: tuple[Player, ...]
    data: Mapping[str, Any]
    events: tuple[SeenEvent, ...]
    chat: tuple[SeenChat, ...]
    legal: tuple[LegalAction, ...]
    can_say: bool
    winners: tuple[str, ...] = ()
    ending: str = ""
    error: str = ""

    # ------------------------------------------------------------- reading

    def legal_for(self, skill: str) -> LegalAction | None:
        for la in self.legal:
            if la.skill == skill:
                return la
        return None

    @property
    def living(self) -> tuple[str, ...]:
        return tuple(p.seat for p in self.players if p.alive)

    def with_error(self, error: str) -> Observation:
        """The same observation, telling the agent why its last answer was refused."""
        import dataclasses

        return dataclasses.replace(self, error=error)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (sorted keys inside mappings, so equal observations give equal JSON)."""
        return {
            "game": self.game,
            "seat": self.seat,
            "role": self.role,
            "camp": self.camp,
            "alive": self.alive,
            "teammates": list(self.teammates),
            "role_info": dict(sorted(self.role_info.items())),
            "phase": self.phase,
            "round": self.round,
            "turn": self.turn,
            "over": self.over,
            "players": [{"seat": p.seat, "alive": p.alive, "role": p.role} for p in self.players],
            "data": _plain(self.data),
            "events": [e.to_dict() for e in self.events],
            "chat": [c.to_dict() for c in self.chat],
            "legal": [la.to_dict() for la in self.legal],
            "can_say": self.can_say,
            "winners": list(self.winners),
            "ending": self.ending,
            "error": self.error,
        }

    def action_schema(self) -> dict[str, Any]:
        """JSON Schema of a valid answer now: one of the legal skills with fitting targets, or a pass.

        Every answer may carry ``say`` (when the seat may speak) and a private ``reasoning``.
        """
        common: dict[str, Any] = {"reasoning": {"type": "string", "maxLength": MAX_REASONING}}
        if self.can_say:
            common["say"] = {"type": "string", "maxLength": MAX_SAY}
        options: list[dict[str, Any]] = []
        for la in self.legal:
            s = la.schema()
            s["properties"] |= common
            options.append(s)
        options.append({"type": "object", "properties": {"skill": {"type": "null"}} | common, "required": ["skill"]})
        return {"$schema": "https://json-schema.org/draft/2020-12/schema", "oneOf": options}

    def parse(self, answer: Any) -> Action:
        """The :class:`Action` a JSON answer (a dict) stands for; :class:`InvalidAction` saying why not."""
        if not isinstance(answer, Mapping):
            raise InvalidAction("the answer must be a JSON object with a 'skill' field")
        unknown = sorted(set(answer) - {"skill", "targets", "say", "reasoning"})
        if unknown:
            raise InvalidAction(f"unknown field(s) {', '.join(map(repr, unknown))}")
        if "skill" not in answer:
            raise InvalidAction("the answer has no 'skill' field (use null to pass)")
        skill = answer["skill"]
        raw_targets = answer.get("targets", [])
        say = answer.get("say", "")
        reasoning = answer.get("reasoning", "")
        if not isinstance(say, str) or len(say) > MAX_SAY:
            raise InvalidAction(f"'say' must be text of at most {MAX_SAY} characters")
        if say and not self.can_say:
            raise InvalidAction("you may not speak now")
        if not isinstance(reasoning, str):
            raise InvalidAction("'reasoning' must be text")
        if not isinstance(raw_targets, list) or not all(isinstance(t, str) for t in raw_targets):
            raise InvalidAction("'targets' must be a list of texts")
        targets = tuple(raw_targets)
        if skill is None:
            if targets:
                raise InvalidAction("a pass takes no targets")
            return Action(None, (), say, reasoning[:MAX_REASONING])
        if not isinstance(skill, str):
            raise InvalidAction("'skill' must be text or null")
        la = self.legal_for(skill)
        if la is None:
            offered = ", ".join(a.skill for a in self.legal) or "nothing (pass with null)"
            raise InvalidAction(f"{skill!r} is not a skill you may use now (you may use: {offered})")
        problem = la.check(targets)
        if problem:
            raise InvalidAction(problem)
        return Action(skill, targets, say, reasoning[:MAX_REASONING])

    def check(self, action: Action) -> None:
        """Refuse (``InvalidAction``) an action this observation does not offer."""
        self.parse({"skill": action.skill, "targets": list(action.targets), "say": action.say})

    def text(self) -> str:
        """The observation in words (the game's own words where the game provides a narrator)."""
        from .text import render

        return render(self)


def _plain(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in sorted(value.items())}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def legal_actions(view: TableView | Mapping[str, Any], config: hr.Config) -> tuple[LegalAction, ...]:
    """The seat's skills now, each with its target shape read from the public phase configuration.

    The one enumeration of what a seat may do: ``view`` is the seat's own host view, or
    its JSON form (:meth:`TableView.to_dict`, what the server sends), so the web page and
    the server's bots offer exactly what an agent is offered.
    """
    limits: Mapping[str, Sequence[str]]
    if isinstance(view, TableView):
        me = view.me
        if me is None or view.over:
            return ()
        seat, role, skills = me.seat, me.role, me.allowed_skills
        limits = dict(me.targets)
        phase = view.phase
        players = tuple((p.seat, p.alive) for p in view.players)
    else:
        d = view.get("me")
        if not d or view.get("over"):
            return ()
        seat, role, skills = d["seat"], d["role"], tuple(d["allowed_skills"])
        limits = d.get("targets") or {}
        phase = view["phase"]
        players = tuple((p["seat"], p["alive"]) for p in view["players"])
    pc = config.phases.get(phase)
    extras = frozenset(pc.out_of_turn) if pc is not None else frozenset()
    out: list[LegalAction] = []
    for skill in skills:
        step = find_step(config, phase, role, skill)
        if step is None:
            continue
        out.append(_shape(step, seat, players, config, skill in extras, limits.get(skill)))
    return tuple(out)


def _shape(
    step: hr.PhaseStep,
    seat: str,
    players: Sequence[tuple[str, bool]],
    config: hr.Config,
    out_of_turn: bool,
    only: Sequence[str] | None = None,
) -> LegalAction:
    """The step's target shape, narrowed to ``only`` when the rules limit the targets now."""
    if step.target_pool:
        candidates = tuple(config.target_pools.get(step.target_pool, ()))
    else:
        candidates = tuple(s for s, alive in players if alive or step.allow_dead_target)
        if not step.allow_self_target:
            candidates = tuple(c for c in candidates if c != seat)
    if only is not None:
        allowed = frozenset(only)
        candidates = tuple(c for c in candidates if c in allowed)
    if step.skill == hr.SKIP:
        lo = hi = 0
    elif not step.checks_targets:
        lo, hi = 0, 1
    else:
        lo = step.min_targets
        hi = step.max_targets if step.max_targets is not None else max(lo, 1)
        if step.distinct_targets:
            hi = min(hi, len(candidates))
    return LegalAction(
        step.skill, candidates if hi else (), lo, hi, step.distinct_targets, step.target_pool, out_of_turn
    )


def seen_events(events: Sequence[ViewEvent], start: int = 0) -> list[SeenEvent]:
    """The view's events as this seat's history, numbered from ``start``."""
    return [
        SeenEvent(i, e.type, e.source, e.target, dict(e.data), e.canceled, e.reason)
        for i, e in enumerate(events, start)
    ]


def seen_chat(chat: Sequence[ChatLine], start: int = 0) -> list[SeenChat]:
    """The view's chat lines as this seat's chat history, numbered from ``start``."""
    return [SeenChat(i, c.sender, c.text, c.phase, c.round) for i, c in enumerate(chat, start)]


def observe(
    view: TableView,
    config: hr.Config,
    error: str = "",
    *,
    history: tuple[tuple[SeenEvent, ...], tuple[SeenChat, ...]] | None = None,
) -> Observation:
    """The observation of the seat whose view this is. A spectator's view (no seat) is refused.

    ``history``: the seat's events and chat already converted (:class:`SeatFeed` keeps
    them from the pushed notices); it must be exactly the view's, converted.
    """
    me = view.me
    if view.seat is None or me is None:
        raise hr.InvalidArgument("an observation is built from a seat's view, not a spectator's")
    outcome = view.outcome
    if history is None:
        history = (tuple(seen_events(view.events)), tuple(seen_chat(view.chat)))
    return Observation(
        game=view.game,
        seat=view.seat,
        role=me.role,
        camp=me.camp,
        alive=me.alive,
        teammates=tuple(me.teammates),
        role_info=dict(me.role_info),
        phase=view.phase,
        round=view.round,
        turn=view.turn,
        over=view.over,
        players=tuple(view.players),
        data=dict(view.data),
        events=history[0],
        chat=history[1],
        legal=legal_actions(view, config),
        can_say=SAY in view.moves,
        winners=outcome.winners if outcome is not None else (),
        ending=outcome.ending if outcome is not None else "",
        error=error,
    )


def observe_table(table: Table, seat: str, error: str = "") -> Observation:
    """:func:`observe` of ``seat``'s current view at ``table`` (the rules' configuration is public)."""
    return observe(table.view(seat), table.rules.config, error)
