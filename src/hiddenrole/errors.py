"""Typed errors: one class per stable error code, all under :class:`GameError`.

Callers branch on the class (``except PlayerDead``) or on ``err.code`` (a stable
string that survives serialization, e.g. over a network). Every public entry point
raises one of these for bad input and leaves the engine unchanged.
"""

from __future__ import annotations

__all__ = [
    "GameError",
    "Refusal",
    "RulesError",
    "PlayerNotFound",
    "PlayerDead",
    "TargetNotFound",
    "TargetDead",
    "SkillNotAllowed",
    "InvalidTargets",
    "NotYourTurn",
    "AlreadySubmitted",
    "TooManySubmissions",
    "GameNotStarted",
    "GameEnded",
    "InvalidPhase",
    "MessageNotAllowed",
    "PlayerExists",
    "InvalidPlayerID",
    "InvalidRole",
    "GameAlreadyStarted",
    "InvalidBoard",
    "BoardAlreadyDecided",
    "InvalidSnapshot",
    "NilSnapshot",
    "InvalidConfig",
    "InvalidLog",
    "InvalidArgument",
    "RulesMismatch",
    "ReentrantCall",
    "ERROR_CODES",
    "error_for_code",
]


class GameError(Exception):
    """Base of every error the engine raises on purpose.

    ``code`` is the stable machine-readable name; ``message`` the human one.
    """

    code: str = ""

    def __init__(self, message: str = "") -> None:
        super().__init__(message or self.code)
        self.message = message or self.code

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"


class Refusal(GameError):
    """Base of "this request is refused": bad input from a player or client (show it to
    them); the engine is unchanged and the game can go on. No code of its own."""


class RulesError(GameError):
    """Base of "the game or its rules package is broken": a bug to fix, not a move to
    refuse (a bad config, a phase without a resolver, an extension point calling back).
    No code of its own."""


class PlayerNotFound(Refusal):
    code = "PLAYER_NOT_FOUND"


class PlayerDead(Refusal):
    code = "PLAYER_DEAD"


class TargetNotFound(Refusal):
    code = "TARGET_NOT_FOUND"


class TargetDead(Refusal):
    code = "TARGET_DEAD"


class SkillNotAllowed(Refusal):
    code = "SKILL_NOT_ALLOWED"


class InvalidTargets(SkillNotAllowed):
    """The targets break the step's shape: count, distinctness or self-targeting."""

    code = "INVALID_TARGETS"


class NotYourTurn(SkillNotAllowed):
    """In a turn-ordered phase, somebody else has the turn."""

    code = "NOT_YOUR_TURN"


class AlreadySubmitted(SkillNotAllowed):
    """In a simultaneous phase, the player already submitted for this step (or its group).

    The first submission counts; a second one for the same step is refused, so a seat's
    ballot counts once whatever it sends.
    """

    code = "ALREADY_SUBMITTED"


class TooManySubmissions(SkillNotAllowed):
    """The player already holds :data:`~hiddenrole.vocab.MAX_PENDING_PER_SEAT` submissions
    in this phase (only turn-ordered, free or out-of-turn moves can get there)."""

    code = "TOO_MANY_SUBMISSIONS"


class GameNotStarted(Refusal):
    code = "GAME_NOT_STARTED"


class GameEnded(Refusal):
    code = "GAME_ENDED"


class InvalidPhase(RulesError):
    code = "INVALID_PHASE"


class MessageNotAllowed(Refusal):
    code = "MESSAGE_NOT_ALLOWED"


class PlayerExists(GameError):
    code = "PLAYER_EXISTS"


class InvalidPlayerID(GameError):
    code = "INVALID_PLAYER_ID"


class InvalidRole(GameError):
    code = "INVALID_ROLE"


class GameAlreadyStarted(GameError):
    code = "GAME_ALREADY_STARTED"


class InvalidBoard(GameError):
    code = "INVALID_BOARD"


class BoardAlreadyDecided(InvalidBoard):
    """The victory checker already declares a result before the first phase."""


class InvalidSnapshot(GameError):
    code = "INVALID_SNAPSHOT"


class NilSnapshot(InvalidSnapshot):
    """``None`` (or nothing at all) was passed where a snapshot was expected."""


class InvalidConfig(RulesError):
    code = "INVALID_CONFIG"


class InvalidLog(GameError):
    code = "INVALID_EFFECT_LOG"


class InvalidArgument(GameError, TypeError, ValueError):
    """An argument of the wrong type or form (a programming error, not a rules error).

    It is also a ``TypeError`` and a ``ValueError`` so that generic handlers catch it.
    """

    code = "INVALID_ARGUMENT"


class RulesMismatch(GameError):
    """A snapshot or log recorded under other rules (name or version) was offered."""

    code = "RULES_MISMATCH"


class ReentrantCall(RulesError):
    """An extension point called back into the engine that is running it."""

    code = "REENTRANT_CALL"


def _all_codes() -> dict[str, type[GameError]]:
    table: dict[str, type[GameError]] = {}
    for name in __all__:
        obj = globals().get(name)
        if isinstance(obj, type) and issubclass(obj, GameError) and obj.code:
            table.setdefault(obj.code, obj)
    return dict(sorted(table.items()))


ERROR_CODES: dict[str, type[GameError]] = _all_codes()
"""Every stable code mapped to the class that carries it (parents, not children)."""


def error_for_code(code: str, message: str = "") -> GameError:
    """Rebuild a typed error from its code (e.g. one received over the wire)."""
    if not isinstance(code, str) or not isinstance(message, str):
        raise InvalidArgument(f"error_for_code needs str code and message, got {code!r}")
    cls = ERROR_CODES.get(code, GameError)
    return cls(message)
