"""Red versus blue: the smallest complete ruleset.

One public vote per round; the unique most-voted player is out; the game ends when
one side is gone. It exists to show a whole game in one page and to exercise the
kernel in tests and benchmarks.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

import hiddenrole as hr

__all__ = ["RED", "BLUE", "VOTE", "OUT", "TIE", "rules", "new_game"]

VOTE_PHASE = "VOTE"
RED = "RED"
BLUE = "BLUE"
VOTE = "VOTE"
OUT = "OUT"
TIE = "TIE"


def resolve_vote(uses: Sequence[hr.SkillUse], view: hr.GameView) -> list[hr.Effect]:
    """Unique most-voted player is out; a tie or no votes eliminates nobody."""
    first: dict[str, str] = {}
    for u in uses:
        first.setdefault(u.player_id, u.target)
    tally = Counter(t for t in first.values() if t)
    if not tally:
        return [hr.Effect(TIE)]
    top = max(tally.values())
    leaders = sorted(p for p, n in tally.items() if n == top)
    if len(leaders) > 1:
        return [hr.Effect(TIE).with_data("between", ",".join(leaders))]
    out = leaders[0]
    return [hr.Effect(OUT, target=out).with_data("votes", str(top)), hr.set_alive(out, False)]


def last_side_standing(view: hr.GameView) -> Iterable[str] | None:
    """A side with nobody alive has lost; a red and a blue left alone is a draw (no winner),
    since each votes the other out forever."""
    alive = view.alive_players()
    sides = {p.role for p in alive}
    if RED not in sides:
        return (BLUE,)
    if BLUE not in sides:
        return (RED,)
    if len(alive) == 2:
        return ()
    return None


def rules() -> hr.Rules:
    """The red/blue ruleset: one phase looping forever, one vote per living player."""
    config = hr.Config(
        start_phase=VOTE_PHASE,
        phases={
            VOTE_PHASE: hr.PhaseConfig(
                steps=(
                    hr.PhaseStep(RED, VOTE, required=True, multiple=True),
                    hr.PhaseStep(BLUE, VOTE, required=True, multiple=True),
                ),
                next_phase=VOTE_PHASE,
                on_enter=(hr.CLEAR_ROUND_VARS,),
                on_exit=(hr.ADVANCE_ROUND,),
            )
        },
    )
    return hr.Rules(
        config,
        name="redblue",
        version="1",
        resolvers={VOTE_PHASE: resolve_vote},
        victory=last_side_standing,
        audience=lambda event, view: tuple(p.id for p in view.all_players()),
        role_setup={RED: lambda pid, role: {hr.VAR_CAMP: RED}, BLUE: lambda pid, role: {hr.VAR_CAMP: BLUE}},
    )


def new_game(reds: int = 2, blues: int = 2) -> hr.Engine:
    """An engine with ``reds`` red and ``blues`` blue players seated (not started)."""
    engine = hr.Engine(rules())
    for i in range(reds):
        engine.add_player(f"r{i + 1}", RED)
    for i in range(blues):
        engine.add_player(f"b{i + 1}", BLUE)
    return engine
