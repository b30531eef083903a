"""Whole games on the engine: random legal games to the end, saves and replays mid-game."""

from __future__ import annotations

import random
from collections import Counter

import hiddenrole as hr
from hiddenrole import enginetest as et
from hiddenrole.games import onenight as on

from ..random_moves import EngineRandom
from .helpers import play_phase, random_deal

GAMES = 300


def _finish(engine: hr.Engine, agent: EngineRandom, rng: random.Random) -> int:
    phases = 0
    while not engine.status().over:
        play_phase(engine, agent, rng)
        engine.end_phase()
        phases += 1
    return phases


def test_random_games_reach_the_end_and_reveal_consistently() -> None:
    rng = random.Random(2024)
    outcomes: Counter[tuple[str, ...]] = Counter()
    for _ in range(GAMES):
        d = random_deal(rng)
        engine = on.engine_for(d)
        agent = EngineRandom(rng)
        assert _finish(engine, agent, rng) == len(on.PHASES)
        st = engine.status()
        assert st.over and st.round == 1 and set(st.winners) <= set(on.CAMPS)
        reveal = on.final_reveal(engine)
        dealt = Counter([r for _, r in d.seats] + list(d.center))
        assert Counter([p.held for p in reveal.players] + list(reveal.center)) == dealt
        assert [(p.id, p.dealt) for p in reveal.players] == list(d.seats)
        assert reveal.winners == on.decide(engine.view()) == st.winners
        for p in reveal.players:
            assert p.won == (on.camp_of(p.held) in st.winners)
        outcomes[st.winners] += 1
    # The random games are not degenerate: every kind of result shows up.
    assert {(on.VILLAGE,), (on.WOLF,), (), (on.TANNER_CAMP,), (on.TANNER_CAMP, on.VILLAGE)} <= set(outcomes)


def test_saves_and_replays_mid_game_keep_the_game_under_the_harness() -> None:
    # Invariants A-G after every phase (snapshot JSON round trip with pending submissions,
    # restore, replay, the same future, a finished game stays finished) under the random agent.
    def setup(rng: random.Random) -> et.Game:
        d = random_deal(rng)
        return et.Game(on.rules(d.center), d.seats)

    spec = et.Spec(
        name="onenight-agent",
        setup=setup,
        act=lambda turn: play_phase(turn.engine, EngineRandom(turn.rng), turn.rng),
        games=60,
        max_steps=len(on.PHASES) + 1,
        want_end=True,
        leaks=None,
    )
    assert et.run(spec).finished == 60


def test_replay_rebuilds_the_board_under_rules_built_for_any_centre() -> None:
    rng = random.Random(77)
    other_rules = on.rules((on.VILLAGER, on.VILLAGER, on.VILLAGER))
    for _ in range(20):
        d = random_deal(rng)
        engine = on.engine_for(d)
        agent = EngineRandom(rng)
        for _ in range(rng.randrange(len(on.PHASES))):
            play_phase(engine, agent, rng)
            engine.end_phase()
        replayed = hr.Engine.replay(other_rules, engine.log().to_json())
        assert replayed.snapshot().to_json() == engine.snapshot().to_json()


def test_same_deal_and_moves_give_the_same_bytes() -> None:
    logs = set()
    for _ in range(2):
        rng = random.Random(9)
        engine = on.new_engine(on.default_deck(7), 7, 3)
        _finish(engine, EngineRandom(rng), rng)
        logs.add(engine.log().to_json())
    assert len(logs) == 1
