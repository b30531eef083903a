"""The resolvers' shortcuts: one actor's swap without a local board, looks kept as values.

A table dealt from a legal deck has one robber, troublemaker and drunk card, whose resolvers
take a path of their own; hand-made boards with several take the general one, where each swap
sees the ones before. Both must give the same effects wherever both apply.
"""

from __future__ import annotations

import random

import hiddenrole as hr
from hiddenrole import effects
from hiddenrole.games import onenight as on
from hiddenrole.games.onenight import opening
from hiddenrole.games.onenight import resolvers as rs

from .helpers import board, center, held, learned, use

W, V, S, R, T, D = on.WEREWOLF, on.VILLAGER, on.SEER, on.ROBBER, on.TROUBLEMAKER, on.DRUNK
CARDS = (W, W, on.MINION, S, R, T, D, on.INSOMNIAC, V, V, on.HUNTER, on.TANNER)


def _random_board(rng: random.Random, actor: str) -> tuple[hr.Board, list[str]]:
    """Seats (ids not in seat order) with one ``actor`` card dealt and every card held shuffled."""
    n = rng.randint(3, 7)
    others = [c for c in CARDS if c != actor]
    dealt = [actor, *rng.sample(others, n - 1)]
    rng.shuffle(dealt)
    cards = dealt + rng.sample(others, 3)
    rng.shuffle(cards)
    ids = rng.sample(["a", "b", "p1", "p10", "p2", "z", "m"], n)
    seats = [(ids[i], dealt[i], cards[i]) for i in range(n)]
    return board(seats, tuple(cards[n:])), ids


def _random_uses(rng: random.Random, ids: list[str], skills: tuple[str, ...]) -> list[hr.SkillUse]:
    pool = [*ids, "ghost", *on.CENTER_SLOTS]
    return [
        use(rng.choice(ids), rng.choice(skills), *rng.sample(pool, rng.randint(0, 3))) for _ in range(rng.randint(0, 4))
    ]


def test_one_robber_troublemaker_and_drunk_resolve_as_the_general_path() -> None:
    rng = random.Random(7)
    cases = (
        (R, rs.resolve_robber, rs._robberies, (on.ROB, on.MEDDLE)),
        (T, rs.resolve_troublemaker, rs._meddlings, (on.MEDDLE, on.ROB)),
        (D, rs.resolve_drunk, rs._drinks, (on.DRINK, on.ROB)),
    )
    for actor, resolve, general, skills in cases:
        changed = 0
        for _ in range(400):
            b, ids = _random_board(rng, actor)
            actor_id = next(p.id for p in b.players if p.role == actor)
            uses = _random_uses(rng, ids, skills)
            if rng.random() < 0.7:  # mostly a well-formed choice of the actor's own
                pick = rng.sample([p for p in ids if p != actor_id], 2) if actor != D else [rng.choice(on.CENTER_SLOTS)]
                uses.insert(rng.randint(0, len(uses)), use(actor_id, skills[0], *pick[: 2 if actor == T else 1]))
            got = resolve(uses, b.view())
            assert got == general(uses, b.view()), (actor, uses)
            changed += bool(got)
        assert changed > 150  # the swaps were made, not only refused


def test_several_robbers_troublemakers_and_drunks_see_each_others_swaps() -> None:
    b = board([("p0", R), ("p1", R), ("p2", W), ("p3", V)], (S, T, D))
    after = b.apply(rs.resolve_robber([use("p0", on.ROB, "p2"), use("p1", on.ROB, "p0")], b.view()))
    assert [held(after, p) for p in ("p0", "p1", "p2", "p3")] == [R, W, R, V]
    assert learned(after, "p0") == {"learn.self": W, "learn.player.p2": R}
    assert learned(after, "p1") == {"learn.self": W, "learn.player.p0": R}
    b = board([("p0", T), ("p1", T), ("p2", W), ("p3", V), ("p4", S)])
    uses = [use("p1", on.MEDDLE, "p2", "p3"), use("p0", on.MEDDLE, "p3", "p4")]
    after = b.apply(rs.resolve_troublemaker(uses, b.view()))
    assert [held(after, p) for p in ("p0", "p1", "p2", "p3", "p4")] == [T, T, S, W, V]  # in seat order: p0 first
    b = board([("p0", D), ("p1", D), ("p2", V)], (S, T, W))
    after = b.apply(rs.resolve_drunk([use("p1", on.DRINK, "0")], b.view()))
    assert (held(after, "p0"), held(after, "p1"), center(after)) == (
        S,
        D,
        (D, T, W),
    )  # p0 must swap too (slot 0), first


def test_kept_looks_follow_the_cards_seen() -> None:
    for card in (V, T, on.TANNER, V):
        b = board([("p0", W), ("p1", S), ("p2", V)], (card, D, card), phase=on.NIGHT_WEREWOLF)
        peek = rs.resolve_werewolf([use("p0", on.PEEK, "2")], b.view())
        assert dict(peek[0].data) == {"card": card, "center": "2"}
        assert learned(b.apply(peek), "p0") == {"learn.center.2": card}
        look = rs.resolve_seer([use("p1", on.SEER_CENTER, "2", "1")], b.view())
        assert dict(look[0].data) == {"center.1": D, "center.2": card}
        assert learned(b.apply(look), "p1") == {"learn.center.1": D, "learn.center.2": card}


def is_constant_map(m: object) -> bool:
    """A kernel constant map, or made when the kernel kept no more (its bound is shared by every ruleset
    a process loads: after other packages' tests, One Night's maps may come too late)."""
    return effects.is_constant_map(m) or len(effects._CONSTANT_MAPS) >= effects.CONSTANT_MAPS_KEPT


def test_card_payloads_and_vote_counts_are_the_kernels_constant_maps() -> None:
    """Taken by identity when applied (the card's map is also what its seat starts with)."""
    b = board([("p0", R), ("p1", W), ("p2", V)])
    robbed = rs.resolve_robber([use("p0", on.ROB, "p1")], b.view())[0]
    assert robbed.data is rs.card_map(W) is opening.card_setup("p9", W)
    assert is_constant_map(robbed.data)
    b = board([("p0", V), ("p1", V), ("p2", V)], phase=on.VOTE_PHASE)
    votes = [use("p0", on.VOTE, "p1"), use("p2", on.VOTE, "p1"), use("p1", on.VOTE, "p0")]
    (lynched,) = [e for e in rs.resolve_vote(votes, b.view()) if e.type == on.LYNCHED]
    assert dict(lynched.data) == {"votes": "2"} and is_constant_map(lynched.data)


def test_a_seat_holding_no_card_holds_the_empty_card() -> None:
    b = hr.Board(players=(hr.seat("p0", V, True, {}), hr.seat("p1", W, False, {on.VAR_CARD: W})))
    assert [rs.held_card(b.view(), p) for p in ("p0", "p1", "p9")] == ["", W, ""]


def test_a_drunks_chosen_slot_is_a_constant_map() -> None:
    b = board([("p0", D), ("p1", V), ("p2", S)], (W, T, R))
    for slot in on.CENTER_SLOTS:
        swap = rs.resolve_drunk([use("p0", on.DRINK, slot)], b.view())[0]
        assert dict(swap.data) == {"center": slot} and is_constant_map(swap.data)
