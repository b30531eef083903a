"""Whole games on the engine: random legal games to the end, saves and replays mid-game."""

from __future__ import annotations

import random
from collections import Counter

import hiddenrole as hr
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


def test_snapshot_and_replay_round_trip_mid_game() -> None:
    rng = random.Random(77)
    for _ in range(60):
        d = random_deal(rng)
        rules = on.rules(d.center)
        engine = on.engine_for(d)
        agent = EngineRandom(rng)
        stop = rng.randrange(len(on.PHASES))
        for _ in range(stop):
            play_phase(engine, agent, rng)
            engine.end_phase()
        # Replay rebuilds the board at the start of the phase, under rules built for any centre.
        other_rules = on.rules((on.VILLAGER, on.VILLAGER, on.VILLAGER))
        replayed = hr.Engine.replay(other_rules, engine.log().to_json())
        assert replayed.snapshot().to_json() == engine.snapshot().to_json()
        # A snapshot with pending submissions restores them.
        play_phase(engine, agent, rng)
        snap = engine.snapshot().to_json()
        clone = hr.Engine.restore(rules, hr.Snapshot.from_json(snap))
        assert clone.snapshot().to_json() == snap
        for pid in engine.player_ids():
            assert clone.player_view(pid) == engine.player_view(pid)
            assert clone.allowed_skills(pid) == engine.allowed_skills(pid)
        assert clone.readiness() == engine.readiness()
        # Both continue identically to the end.
        seed = rng.randrange(1 << 30)
        for e in (engine, clone):
            r = random.Random(seed)
            _finish(e, EngineRandom(r), r)
        assert clone.snapshot().to_json() == engine.snapshot().to_json()
        assert on.final_reveal(clone) == on.final_reveal(engine)
        final = hr.Engine.replay(rules, engine.log())
        assert final.status() == engine.status()
        assert final.snapshot().to_json() == engine.snapshot().to_json()


def test_same_deal_and_moves_give_the_same_bytes() -> None:
    logs = set()
    for _ in range(2):
        rng = random.Random(9)
        engine = on.new_engine(on.default_deck(7), 7, 3)
        _finish(engine, EngineRandom(rng), rng)
        logs.add(engine.log().to_json())
    assert len(logs) == 1
