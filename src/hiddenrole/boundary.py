"""The information boundary: what a seat sees (its view, its teammates), who sees an event,
who hears a chat line, and the handlers that carry events and messages out.

Everything here answers "who may know what" through the rules' providers (teammates,
role info, audience, speech); the kernel adds only its own guarantees (kernel
primitives reach nobody; roles are shown only for self and teammates).
"""

from __future__ import annotations

from typing import Final

from .effects import Effect, Event, checked_effect, checked_event
from .enginebase import REENTRY, EventHandler, MessageHandler
from .errors import InvalidArgument, MessageNotAllowed, PlayerDead, ReentrantCall
from .views import Message, PlayerInfo, PlayerView, SelfInfo
from .vocab import INTERNAL_EVENTS, VAR_CAMP
from .whoacts import WhoActs

__all__ = ["Boundary"]

_new: Final = tuple.__new__
_SELF_INFO: Final[type[SelfInfo]] = SelfInfo
_PLAYER_VIEW: Final[type[PlayerView]] = PlayerView
"""Read from C statics by compiled ``player_view`` (a class name is a module-dict lookup)."""


class Boundary(WhoActs):
    """Player views, teammates, audiences, speech and the event and message handlers."""

    __slots__ = ()

    def teammates(self, player_id: str) -> tuple[str, ...]:
        with self._lock:
            self._guard()
            return self._teammates(self._player(player_id).id)

    def player_view(self, player_id: str) -> PlayerView:
        """Everything ``player_id`` may see now. Roles are shown only for self and teammates.

        A view is a function of the board and the seat's own waiting submissions (the
        providers it asks are pure), so it is kept per seat until either changes, as the
        seat's allowed skills are.
        """
        self._lock.acquire()
        try:
            if self._in_ext:
                raise ReentrantCall(REENTRY)
            spent = self._spent
            if spent:
                spent.clear()  # the stale views that moves left behind (see EngineBase._spent)
            if type(player_id) is str:
                kept = self._views.get(player_id)
                if kept is not None:
                    return kept
            s = self._state
            p = s.players.get(player_id) if type(player_id) is str else None
            if p is None:
                p = self._player(player_id)  # raises unless a str subclass names a player
            pid = p.id
            mates = self._mates.get(pid)  # a kept answer without the call (phase info may have asked)
            if mates is None:
                mates = self._teammates(pid)
            allowed = self._now.get(pid)  # the kept answer (the board's pass gives every seat one) without the call
            if allowed is None:
                allowed = self._allowed(p)
            # Built as tuples directly: a NamedTuple's generated __new__ is one more Python call each.
            me = _new(_SELF_INFO, (pid, p.role, p.alive, p.vars.get(VAR_CAMP, "")))
            view: PlayerView = _new(
                _PLAYER_VIEW,
                (
                    pid,
                    s.round,
                    s.phase,
                    me,
                    s.public_infos(pid, mates),
                    allowed,
                    mates,
                    self._role_info(p),
                    s.turns[0] if s.turns else "",
                    self._limits(pid, allowed) if allowed and self._usable is not None else (),
                ),
            )
            self._views[pid] = view
            return view
        finally:
            self._lock.release()

    def audience_of(self, event: Event | Effect) -> tuple[str, ...] | None:
        """Who may see ``event``: ids; ``()`` for nobody; ``None`` when the rules do not know.

        Kernel primitives are shown to nobody, whatever the rules say.
        """
        self._lock.acquire()
        try:
            if self._in_ext:
                raise ReentrantCall(REENTRY)
            if isinstance(event, Effect):
                event = checked_effect(event, "audience_of", logged=True).to_event()
            event = checked_event(event, "audience_of")
            if event.type in INTERNAL_EVENTS:
                return ()
            fn = self._b.audience
            if fn is None:
                return None
            got = self._call(fn, event, self._view)
            if got is None:
                return None
            return self._seated(got, "audience provider")
        finally:
            self._lock.release()

    # ------------------------------------------------------------------ speech

    def message_receivers(self, sender_id: str) -> tuple[str, ...]:
        """Who would hear ``sender_id`` now. Without a speech rule: every living player."""
        self._lock.acquire()
        try:
            if self._in_ext:
                raise ReentrantCall(REENTRY)
            p = self._state.players.get(sender_id) if type(sender_id) is str else None
            if p is None:
                p = self._player(sender_id)  # raises unless a str subclass names a player
            return self._receivers(p)
        finally:
            self._lock.release()

    def _receivers(self, p: PlayerInfo) -> tuple[str, ...]:
        fn = self._b.speech
        if fn is None:
            if not p.alive:
                raise PlayerDead(f"{p.id!r} is eliminated and cannot speak")
            return self._state.alive_ids()
        self._in_ext = True  # what _call does, without its frame (every seat may speak every step)
        try:
            got = fn(p.id, self._view)
        finally:
            self._in_ext = False
        if not got:
            return ()  # the sender cannot speak now
        alive = self._state.alive_ids()
        if got == alive:
            return alive  # the common answer, every living player: already sorted, unique and seated
        return self._seated(got, "speech provider")

    def send_message(self, sender_id: str, content: str) -> Message:
        """Deliver a chat line to the receivers the speech rule allows (not logged)."""
        self._lock.acquire()
        try:
            if self._in_ext:
                raise ReentrantCall(REENTRY)
            p = self._player(sender_id)
            if not isinstance(content, str):
                raise InvalidArgument("message content must be a str")
            receivers = self._receivers(p)
            if not receivers:
                raise MessageNotAllowed(f"nobody can hear {sender_id!r} now")
            msg: Message = _new(Message, (p.id, content, self._state.phase, self._state.round))
            handlers = self._message_handlers
        finally:
            self._lock.release()
        for h in handlers:
            try:
                h(msg, receivers)
            except Exception:
                self._b.logger.exception("message handler raised; other handlers still run")
        return msg

    def on_event(self, handler: EventHandler) -> None:
        """Call ``handler(event)`` for every published event (after the lock is released)."""
        if not callable(handler):
            raise InvalidArgument("handler must be callable")
        with self._lock:
            self._guard()
            self._event_handlers = (*self._event_handlers, handler)  # replaced, never changed: see EngineBase

    def on_message(self, handler: MessageHandler) -> None:
        """Call ``handler(message, receivers)`` for every message sent."""
        if not callable(handler):
            raise InvalidArgument("handler must be callable")
        with self._lock:
            self._guard()
            self._message_handlers = (*self._message_handlers, handler)
