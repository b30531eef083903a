"""O24-O25 and indistinguishability: what each player can and cannot know."""

from __future__ import annotations

import random
from typing import Any

import pytest

import hiddenrole as hr
from hiddenrole.games import onenight as on

from ..random_moves import EngineRandom
from .helpers import advance_to, game, play_phase, random_deal

W, V, S, R, T, D, INS, M = (
    on.WEREWOLF,
    on.VILLAGER,
    on.SEER,
    on.ROBBER,
    on.TROUBLEMAKER,
    on.DRUNK,
    on.INSOMNIAC,
    on.MINION,
)


def test_O24_night_results_are_private_votes_and_deaths_public() -> None:
    engine = game([("p0", W), ("p1", S), ("p2", R), ("p3", T), ("p4", D), ("p5", INS)], (V, V, on.TANNER))
    everyone = engine.player_ids()
    seen: list[hr.Event] = []
    engine.on_event(seen.append)
    moves = {
        on.NIGHT_WEREWOLF: ("p0", on.PEEK, ["1"]),
        on.NIGHT_SEER: ("p1", on.SEER_PLAYER, ["p0"]),
        on.NIGHT_ROBBER: ("p2", on.ROB, ["p3"]),
        on.NIGHT_TROUBLEMAKER: ("p3", on.MEDDLE, ["p0", "p1"]),
        on.NIGHT_DRUNK: ("p4", on.DRINK, ["2"]),
    }
    while engine.status().phase != on.VOTE_PHASE:
        move = moves.get(engine.status().phase)
        if move is not None:
            engine.submit(*move)
        engine.end_phase()
    for voter in everyone:
        engine.submit(voter, on.VOTE, ["p5" if voter != "p5" else "p0"])
    engine.end_phase()
    private = {on.PEEKED: "p0", on.SEER_LOOK: "p1", on.ROBBED: "p2", on.MEDDLED: "p3", on.DRUNK_SWAP: "p4"}
    private[on.INSOMNIA] = "p5"
    kinds = {e.type for e in seen}
    assert set(private) <= kinds and {on.VOTED, on.LYNCHED, hr.GAME_ENDED} <= kinds
    for ev in seen:
        who = engine.audience_of(ev)
        if ev.type in private:
            assert who == (private[ev.type],), ev
        else:
            assert ev.type in on.PUBLIC_EVENTS and who == everyone, ev
    assert engine.audience_of(hr.Event("SOMETHING_ELSE")) is None
    assert engine.audience_of(hr.Event(on.ROBBED)) == ()
    assert engine.audience_of(hr.Effect(hr.SET_VAR)) == ()
    (drunk,) = [e for e in seen if e.type == on.DRUNK_SWAP]
    assert set(drunk.data) == {"center"}  # the drunk never learns the card


def test_O24_nobody_speaks_at_night() -> None:
    engine = game([("p0", W), ("p1", V), ("p2", S)], (V, V, R))
    for phase in on.PHASES[:8]:
        advance_to(engine, phase)
        with pytest.raises(hr.MessageNotAllowed):
            engine.send_message("p1", "psst")
    advance_to(engine, on.DAY)
    assert engine.message_receivers("p1") == ("p0", "p1", "p2")
    engine.end_phase()
    assert engine.send_message("p0", "not me").sender == "p0"


def test_O25_camp_is_never_written() -> None:
    rng = random.Random(5)
    for _ in range(20):
        engine = on.engine_for(random_deal(rng))
        agent = EngineRandom(rng)
        while not engine.status().over:
            for pid in engine.player_ids():
                view = engine.player_view(pid)
                assert view.self.camp == ""
                assert not (set(view.role_info) & {hr.VAR_CAMP, on.VAR_CARD})
            play_phase(engine, agent, rng)
            engine.end_phase()
        assert all(hr.VAR_CAMP not in engine.player_info(p).vars for p in engine.player_ids())


# ---------------------------------------------------------------- indistinguishability


def _observe(engine: hr.Engine, viewer: str, move: tuple[str, str, list[str]] | None) -> list[Any]:
    """Everything ``viewer`` sees, phase by phase, until the vote is resolved.

    Everyone else abstains; the viewer makes ``move`` in its phase. The game-over
    event is left out: it reveals the winners, as the final reveal does.
    """
    routed: list[hr.Event] = []
    engine.on_event(routed.append)
    out: list[Any] = []
    while not engine.status().over:
        view = engine.player_view(viewer)
        out.append((view._replace(role_info=dict(view.role_info)), engine.allowed_skills(viewer)))
        if move is not None and engine.status().phase == move[0]:
            engine.submit(viewer, move[1], move[2])
        engine.end_phase()
    out.extend(ev for ev in routed if ev.type != hr.GAME_ENDED and viewer in (engine.audience_of(ev) or ()))
    return out


def _twin(the_deal: on.Deal, viewer: str, rng: random.Random) -> on.Deal:
    """The same deal with every card the viewer was not dealt shuffled around."""
    others = [r for p, r in the_deal.seats if p != viewer] + list(the_deal.center)
    rng.shuffle(others)
    seats = []
    for pid, role in the_deal.seats:
        seats.append((pid, role if pid == viewer else others.pop()))
    c0, c1, c2 = others
    return on.Deal(tuple(seats), (c0, c1, c2))


@pytest.mark.parametrize(
    ("role", "move"),
    [
        (R, None),
        (INS, None),
        (T, (on.NIGHT_TROUBLEMAKER, on.MEDDLE, ["", ""])),
        (D, (on.NIGHT_DRUNK, on.DRINK, ["1"])),
        (S, None),
        (W, None),
        (M, None),
        (V, None),
    ],
)
def test_indistinguishable_deals_look_the_same(role: str, move: tuple[str, str, list[str]] | None) -> None:
    rng = random.Random(role)
    checked = 0
    for _ in range(300):
        a = random_deal(rng)
        seats = dict(a.seats)
        if role not in seats.values():
            continue
        viewer = min(p for p, r in seats.items() if r == role)
        b = _twin(a, viewer, rng)
        ea, eb = on.engine_for(a), on.engine_for(b)
        if ea.player_view(viewer) != eb.player_view(viewer):
            continue  # the viewer can tell them apart from the start (e.g. other wolves)
        mv = move
        if move is not None and move[1] == on.MEDDLE:
            others = [p for p in a.player_ids if p != viewer][:2]
            mv = (move[0], move[1], others)
        assert _observe(ea, viewer, mv) == _observe(eb, viewer, mv), (a, b, viewer)
        checked += 1
    assert checked >= 20
