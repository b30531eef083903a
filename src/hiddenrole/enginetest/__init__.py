"""enginetest: random games from seeds, checked for the kernel's invariants at every step.

A rules author describes how to deal a game from a seeded generator and calls
:func:`run` from a pytest test::

    from hiddenrole import enginetest as et
    from hiddenrole.games import redblue

    def test_redblue_invariants() -> None:
        spec = et.Spec(
            name="redblue",
            setup=lambda rng: et.Game(redblue.rules(), et.deal(rng, {"RED": 2, "BLUE": 3})),
            games=200, max_steps=60, want_end=True, must_see=("OUT", "TIE"),
            leaks=et.LeakCheck(roles=("RED", "BLUE"), chat=et.default_chat),
        )
        et.run(spec)

A broken invariant raises :class:`InvariantError` naming the invariant (A-H), the
seed and the step; ``run_one(spec, seed)`` replays that one game. See
``docs/ENGINETEST.md`` for what each invariant means.
"""

from .checks import behaviour, diff, plain
from .core import Act, ChatScript, Game, Invariant, InvariantError, Labeler, Observation, Public, Turn, Twin
from .leaks import default_chat, observe
from .policy import choose_targets, deal, find_step, permute_others, random_policy, random_submission
from .runner import run, run_one, victory_now
from .spec import LeakCheck, Report, Spec

__all__ = [
    "Act",
    "ChatScript",
    "Game",
    "Invariant",
    "InvariantError",
    "Labeler",
    "LeakCheck",
    "Observation",
    "Public",
    "Report",
    "Spec",
    "Turn",
    "Twin",
    "behaviour",
    "choose_targets",
    "deal",
    "default_chat",
    "diff",
    "find_step",
    "observe",
    "permute_others",
    "plain",
    "random_policy",
    "random_submission",
    "run",
    "run_one",
    "victory_now",
]
