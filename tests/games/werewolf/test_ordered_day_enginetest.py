"""R24-R26 under random play: invariants A to H with the ordered day switched on.

The act function stops the discussion at a random speaker often, so the harness's
snapshot round trip (A) and its checks of who may act (C, D) run in the middle of
the day, not only after everyone has spoken. The leak check (H) plays twin deals
with every seat outside the viewer's side silent: the turn order must tell the
viewer nothing either way.

Invariant C knows turn orders: off turn, only out-of-turn skills are allowed.
"""

from __future__ import annotations

import random

from hiddenrole import enginetest as et
from hiddenrole.games import werewolf as ww

GAMES = 60
"""Random games; the ordered day is also played by a third of the harness's house tables
(tests/harness), so this run only has to reach its own mid-discussion labels."""
H_MAX_STEPS = 60
"""Phases per leak-check game (the harness's H_MAX_STEPS): with every seat outside the side
silent most of these games stall, and after 60 phases they only repeat the same rounds."""
SWITCHES = (
    ww.Switches(ordered_day=True),
    ww.Switches(ordered_day=True, victory_mode=ww.TOWN_WIPE),
)
DISCLOSED = et.Public("werewolf.disclosing_events", event_types=ww.disclosing_events())
STOPPED = "day:stopped-mid-discussion"
EVERYONE_SPOKE = "day:everyone-spoke"
CUT = "day:host-cut-a-turn"


def setup(rng: random.Random) -> et.Game:
    cards = ww.board(rng.randint(ww.MIN_PLAYERS, ww.MAX_PLAYERS))
    return et.Game(ww.rules(rng.choice(SWITCHES)), et.deal(rng, cards))


def act(turn: et.Turn) -> None:
    """By day: speakers in turn say a line and pass (or are cut), until the host stops."""
    engine = turn.engine
    if engine.status().phase != ww.DAY:
        et.random_policy(turn)
        return
    rng = turn.rng
    while speaker := engine.readiness().turn:
        roll = rng.random()
        if roll < 0.1:
            turn.label(STOPPED)
            return
        engine.send_message(speaker, f"{speaker} has the floor")
        if roll < 0.3:
            engine.end_turn(speaker)
            turn.label(CUT)
        else:
            engine.submit(speaker, ww.DONE)
    turn.label(EVERYONE_SPOKE)


def spec(games: int, leaks: et.LeakCheck | None) -> et.Spec:
    return et.Spec(
        name="werewolf-ordered-day",
        setup=setup,
        act=act,
        games=games,
        max_steps=120,
        want_end=True,
        must_see=(
            ww.SPEECH_ENDED,
            STOPPED,
            EVERYONE_SPOKE,
            CUT,
            ww.DAWN,
            ww.ELIMINATE,
            ww.SHOOT,
            "won:GOOD",
            "won:EVIL",
        ),
        leaks=leaks,
    )


def test_R24_R25_R26_ordered_day_keeps_invariants_a_to_h() -> None:
    leaks = et.LeakCheck(
        viewers_per_game=1,
        roles=(ww.WEREWOLF, ww.SEER, ww.WITCH, ww.GUARD, ww.HUNTER, ww.VILLAGER),
        games=30,
        public=(DISCLOSED,),
        chat=et.default_chat,
        max_steps=H_MAX_STEPS,
    )
    report = et.run(spec(GAMES, leaks))
    assert report.finished == GAMES
    assert report.labels["phase:DAY"] > 0 and report.leak_pairs > 0
