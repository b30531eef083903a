"""``Engine.who_acts()`` against a loop asking ``allowed_skills`` seat by seat, in lockstep.

``who_acts`` asks only the seats the board's pass offered anything while that pass is the
board's, and every remaining seat again once the board changes under the loop. Two engines
are driven by the same random policy, one through ``who_acts`` and one through the per-seat
loop; what each loop yields, every submission's outcome and the logs must be the same. The
policy changes the board in the middle of the loop every way a driver can: a move resolved at
once (FREE), a turn passed or ended (SEQUENTIAL, INITIATIVE), a submission made for a later
seat (SIMULTANEOUS, where ``usable`` also depends on the seat's own waiting submissions), a
host's ``apply``; and seats with no offer when the loop starts gain one (a turn reaching them,
a dead seat raised).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence

import pytest

import hiddenrole as hr

from .test_turns import PLAY, SHOUT, STEP, ZAP, turn_config

RAISE = "RAISE"
X, Y = "X", "Y"
SEATS = ("a", "b", "c", "d", "e", "f")

Asker = Callable[[hr.Engine], Iterator[tuple[str, tuple[hr.SkillType, ...]]]]


def seat_by_seat(engine: hr.Engine) -> Iterator[tuple[str, tuple[hr.SkillType, ...]]]:
    """What ``who_acts`` promises: each seat asked when the loop reaches it."""
    for pid in engine.player_ids():
        skills = engine.allowed_skills(pid)
        if skills:
            yield pid, skills


def _resolve(uses: Sequence[hr.SkillUse], view: hr.GameView) -> list[hr.Effect]:
    out: list[hr.Effect] = []
    for u in uses:
        out.append(hr.Effect(u.skill, source=u.player_id, target=u.target))
        if u.skill == STEP:
            pos = int(view.var(hr.GAME.of(u.player_id), "pos") or "0") + 1
            out.append(hr.set_var(hr.GAME.of(u.player_id), "pos", str(pos)))
        elif u.skill == ZAP and u.target:
            out.append(hr.set_alive(u.target, False))
        elif u.skill == RAISE and u.target:
            out.append(hr.set_alive(u.target, True))
    return out


def _usable(pid: str, skill: str, view: hr.GameView, mine: Sequence[hr.SkillUse]) -> str | tuple[str, ...] | None:
    """SHOUT is refused once the seat's own STEP waits; ZAP only at the living whose position is even;
    RAISE only at the dead."""
    if skill == SHOUT:
        return "" if any(u.skill == STEP for u in mine) else None
    if skill == ZAP:
        return tuple(p.id for p in view.alive_players() if p.id != pid and int(p.vars.get("pos", "0")) % 2 == 0)
    if skill == RAISE:
        return tuple(p.id for p in view.all_players() if not p.alive)
    return None


def make_rules(order: hr.TurnOrder, *, moves: int = 1, out_of_turn: Sequence[str] = (), gate: bool = True) -> hr.Rules:
    steps = (
        hr.PhaseStep(X, STEP),
        hr.PhaseStep("", SHOUT),
        hr.PhaseStep(Y, ZAP),
        hr.PhaseStep(Y, RAISE, allow_dead_target=True),
    )
    initiative_var = "init" if order is hr.INITIATIVE else ""
    config = turn_config(steps, order, moves=moves, out_of_turn=out_of_turn, initiative_var=initiative_var)
    return hr.Rules(
        config,
        name="lockstep",
        resolvers={PLAY: _resolve},
        turn_resolvers={PLAY: _resolve},
        role_setup={X: lambda pid, role: {"init": "1"}, Y: lambda pid, role: {"init": "9"}},
        usable=_usable if gate else None,
        usable_skills=frozenset({SHOUT, ZAP, RAISE}) if gate else None,
    )


def new(rules: hr.Rules, roles: str = "XYXYYX") -> hr.Engine:
    engine = hr.Engine(rules)
    for pid, role in zip(SEATS, roles, strict=True):
        engine.add_player(pid, role)
    engine.start()
    return engine


def _targets(engine: hr.Engine, pid: str, skill: str, rng: random.Random) -> tuple[str, ...]:
    if skill == ZAP:
        others = [p for p in engine.alive_player_ids() if p != pid]
        return (rng.choice(others),) if others else ()
    if skill == RAISE:
        return (rng.choice(SEATS),)
    return ()


def _try(record: list[object], call: Callable[..., object], *args: object) -> None:
    try:
        call(*args)
        record.append("ok")
    except hr.GameError as e:
        record.append(e.code)


def drive(engine: hr.Engine, ask: Asker, seed: int, phases: int = 5) -> list[object]:
    """Play ``phases`` phases under a random policy acting inside the loop; everything it saw and did."""
    rng = random.Random(seed)
    record: list[object] = []
    for _ in range(phases):
        for pid, skills in ask(engine):
            record.append((pid, skills))
            r = rng.random()
            if r < 0.55:
                skill = rng.choice(skills)
                _try(record, engine.submit, pid, skill, _targets(engine, pid, skill, rng))
            elif r < 0.7:
                # A submission for another seat, often one the loop has not reached yet.
                other = rng.choice(SEATS)
                theirs = engine.allowed_skills(other)
                if theirs:
                    skill = rng.choice(theirs)
                    _try(record, engine.submit, other, skill, _targets(engine, other, skill, rng))
            elif r < 0.78:
                _try(record, engine.end_turn, pid)
            elif r < 0.84:
                _try(record, engine.delay_turn, pid)
            elif r < 0.92:
                # The host changes the board under the loop: a seat dies or comes back, or moves on.
                seat = rng.choice(SEATS)
                if rng.random() < 0.5:
                    engine.apply(hr.set_alive(seat, rng.random() < 0.5))
                else:
                    engine.apply(hr.set_var(hr.GAME.of(seat), "pos", str(rng.randrange(4))))
        record.append(("after", list(engine.who_acts()), list(seat_by_seat(engine))))
        engine.end_phase()
    record.append(tuple(engine.log().effects))
    return record


ORDERS = (hr.SIMULTANEOUS, hr.SEQUENTIAL, hr.INITIATIVE, hr.FREE)


@pytest.mark.parametrize("seed", range(48))
def test_who_acts_gives_what_asking_seat_by_seat_gives(seed: int) -> None:
    order = ORDERS[seed % 4]
    rules = make_rules(
        order, moves=1 + seed // 4 % 2, out_of_turn=(SHOUT,) if seed // 8 % 2 else (), gate=seed // 16 % 3 != 2
    )
    roles = ["XYXYYX", "XXXXXY", "YXXXXX", "YYYYYY"][seed // 4 % 4]
    fast = drive(new(rules, roles), lambda e: e.who_acts(), seed)
    slow = drive(new(rules, roles), seat_by_seat, seed)
    assert fast == slow
    for got in fast:
        if isinstance(got, tuple) and got and got[0] == "after":
            assert got[1] == got[2]


def test_a_turn_passed_in_the_loop_reaches_seats_offered_nothing_when_it_started() -> None:
    """SEQUENTIAL: only "a" is offered anything when the loop starts; each submission passes the turn
    to the next seat, which the loop then reaches and asks."""
    engine = new(make_rules(hr.SEQUENTIAL, gate=False))
    assert [pid for pid, _ in engine.who_acts()] == ["a"]
    got = []
    for pid, _skills in engine.who_acts():
        got.append(pid)
        engine.submit(pid, SHOUT)
    assert got == list(SEATS)


def test_a_turn_passed_back_to_an_earlier_seat_is_not_reached() -> None:
    """INITIATIVE: the Y seats (high initiative) go first; a delayed turn goes to the end of the
    order, and the loop, already past that seat, does not go back to it."""
    engine = new(make_rules(hr.INITIATIVE, gate=False))
    assert [pid for pid, _ in engine.who_acts()] == ["b"]
    got = []
    for pid, _skills in engine.who_acts():
        got.append(pid)
        engine.delay_turn(pid)  # the turn goes to "d", then "e" (after "b" in seat order)
    assert got == ["b", "d", "e"]


def test_a_move_resolved_at_once_in_a_free_phase_changes_who_is_reached() -> None:
    """FREE: "b" zaps "d" (later in seat order), whom the loop then passes over; "e" raises "f", dead
    (offered nothing) when the loop started, whom the loop then reaches."""
    engine = new(make_rules(hr.FREE, gate=False))
    engine.apply(hr.set_alive("f", False))
    got = []
    for pid, _skills in engine.who_acts():
        got.append(pid)
        if pid == "b":
            engine.submit("b", ZAP, ["d"])
        elif pid == "c":
            engine.submit("c", SHOUT)
        elif pid == "e":
            engine.submit("e", RAISE, ["f"])  # "f" had nothing when the loop started
    assert got == ["a", "b", "c", "e", "f"]


def test_a_submission_for_a_later_seat_in_a_simultaneous_phase_narrows_its_answer() -> None:
    """SIMULTANEOUS: a step used by a later seat during the loop is no longer offered to it when the
    loop reaches it, and ``usable`` (SHOUT refused once the seat's own STEP waits) is asked again."""
    engine = new(make_rules(hr.SIMULTANEOUS))
    got = []
    for pid, skills in engine.who_acts():
        got.append((pid, skills))
        if pid == "a":
            engine.submit("c", STEP)
            engine.submit("f", SHOUT)
    assert got == [("a", (STEP, SHOUT)), ("b", (SHOUT, ZAP)), ("d", (SHOUT, ZAP)), ("e", (SHOUT, ZAP)), ("f", (STEP,))]


def test_advancing_it_inside_an_extension_point_raises_even_when_no_seat_is_left_to_offer() -> None:
    """An iterator made outside and advanced by a resolver: the next seat is asked, which an extension
    point may not do, even though the board's pass offered it nothing."""
    outside: list[Iterator[tuple[str, tuple[hr.SkillType, ...]]]] = []
    seen: list[object] = []

    def resolver(uses: Sequence[hr.SkillUse], view: hr.GameView) -> list[hr.Effect]:
        try:
            seen.append(next(outside[0]))
        except hr.ReentrantCall as e:
            seen.append(e.code)
        return []

    rules = make_rules(hr.SEQUENTIAL, gate=False)
    rules = hr.Rules(rules.config, name="lockstep", resolvers={PLAY: resolver})
    engine = new(rules)
    it = engine.who_acts()
    assert next(it)[0] == "a"
    outside.append(it)
    engine.end_phase()
    assert seen == ["REENTRANT_CALL"]


@pytest.mark.pure_only  # replaces a kernel method and iterates a list subclass: compiled code does neither
def test_the_loop_moves_on_when_the_board_changes_under_it_before_any_seat_is_asked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Another thread's step can replace the pass between reading it and asking its first seat: every
    pass here is gone the moment the loop walks its seats, so the loop must fall back to asking the
    seat it reached, seat by seat, and still end with what the per-seat loop gives (not ask the same
    seat forever)."""
    import threading

    from hiddenrole.whoacts import WhoActs

    engine = new(make_rules(hr.SIMULTANEOUS, gate=False))
    expected = list(seat_by_seat(engine))
    assert expected

    class _Vanishing(list[str]):
        """The pass's seats: walking them finds the pass replaced (as a step in another thread would)."""

        def __iter__(self) -> Iterator[str]:
            engine._answers = None
            engine._now = {}  # what a board change drops
            return iter(())

    offers = WhoActs._offers

    def vanishing_offers(self: WhoActs) -> dict[str, tuple[hr.SkillType, ...]]:
        got = offers(self)
        kept, acting = self._acting
        self._acting = (kept, _Vanishing(acting))
        return got

    monkeypatch.setattr(WhoActs, "_offers", vanishing_offers)
    engine._answers = None  # the start's pass goes: the next one is made patched
    engine._now = {}
    box: list[object] = []
    t = threading.Thread(target=lambda: box.append(list(engine.who_acts())), daemon=True)
    t.start()
    t.join(5.0)
    assert not t.is_alive(), "who_acts asked the same seat again and again"
    assert box == [expected]
