"""What each Avalon role knows at the start, as at a real table (M2-M4), for 5 to 10 players.

Per role: the exact role info and that no view shows another seat's card. Then a
twin-deal check: a seat's whole start view is a function of exactly what the official
rules tell its role (deals that agree on it look the same; deals that differ in it look
different), with planted breaks proving the check sees a view that names an evil
teammate's exact role.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator

import pytest

import hiddenrole as hr
from hiddenrole.games import missions as ms
from hiddenrole.games.missions import narration as nar

from .support import AVALON7

Seats = tuple[tuple[str, str], ...]

OPTIONAL_SETS: dict[int, tuple[tuple[str, ...], ...]] = {
    2: (("percival", "morgana"), ("mordred",), ("oberon",), ()),
    3: (("percival", "morgana", "mordred"), ("percival", "morgana", "oberon"), ("mordred", "oberon"), ()),
    4: (("percival", "morgana", "mordred", "oberon"), ("percival", "mordred"), ()),
}
"""Avalon's optional roles per evil count, covering every evil role alone and together."""
DEALS = 2
"""Deals per composition (seeds 0..DEALS-1)."""
VISIBLE_EVIL = frozenset({ms.ASSASSIN, ms.MINION, ms.MORDRED, ms.MORGANA})
"""Evil roles that know their fellows (all but Oberon)."""


def _tables() -> Iterator[Seats]:
    for n in range(ms.MIN_PLAYERS, ms.MAX_PLAYERS + 1):
        yield ms.deal(ms.composition(ms.RESISTANCE, n), 0)
        for optional in OPTIONAL_SETS[ms.evil_count(n)]:
            for seed in range(DEALS):
                yield ms.deal(ms.composition(ms.AVALON, n, optional), seed)


TABLES = tuple(_tables())


def official(seats: Seats, pid: str) -> frozenset[str]:
    """The seats the official rules show ``pid``'s role at the start (as a set: no order, no roles)."""
    role = dict(seats)[pid]
    if role == ms.MERLIN:
        return frozenset(p for p, r in seats if ms.camp_of(r) == ms.EVIL and r != ms.MORDRED)
    if role == ms.PERCIVAL:
        return frozenset(p for p, r in seats if r in (ms.MERLIN, ms.MORGANA))
    if role in VISIBLE_EVIL:
        return frozenset(p for p, r in seats if r in VISIBLE_EVIL and p != pid)
    return frozenset()  # servants and Oberon


def _holders(role: str) -> Iterator[tuple[Seats, str]]:
    for seats in TABLES:
        for pid, r in seats:
            if r == role:
                yield seats, pid


def _assert_sees(seats: Seats, pid: str, info: dict[str, str]) -> None:
    view = ms.engine_from_seats(seats).player_view(pid)
    assert dict(view.role_info) == info, (seats, pid)
    assert view.teammates == ()
    assert {p.id: p.role for p in view.players if p.role} == {pid: dict(seats)[pid]}


def _ids(ids: frozenset[str]) -> str:
    return ",".join(sorted(ids))


def test_tables_span_5_to_10_players_and_every_role() -> None:
    assert {len(s) for s in TABLES} == set(range(5, 11))
    assert {r for s in TABLES for _, r in s} == set(ms.ROLES)


def test_merlin_sees_every_evil_seat_but_mordred() -> None:
    for seats, pid in _holders(ms.MERLIN):
        _assert_sees(seats, pid, {ms.KEY_EVIL: _ids(official(seats, pid))})
        assert not any(dict(seats)[p] == ms.MORDRED for p in official(seats, pid))


def test_percival_sees_merlin_and_morgana_as_a_pair() -> None:
    for seats, pid in _holders(ms.PERCIVAL):
        _assert_sees(seats, pid, {ms.KEY_MERLIN_OR_MORGANA: _ids(official(seats, pid))})


@pytest.mark.parametrize("role", [ms.MORGANA, ms.ASSASSIN, ms.MORDRED, ms.MINION])
def test_evil_seats_learn_who_is_evil_not_which_role(role: str) -> None:
    seen = 0
    for seats, pid in _holders(role):
        _assert_sees(seats, pid, {ms.KEY_FELLOW_EVIL: _ids(official(seats, pid))})
        assert not any(dict(seats)[p] == ms.OBERON for p in official(seats, pid))
        seen += 1
    assert seen >= 6


def test_oberon_sees_no_one_and_no_one_evil_sees_him() -> None:
    for seats, pid in _holders(ms.OBERON):
        _assert_sees(seats, pid, {})
        engine = ms.engine_from_seats(seats)
        for other, role in seats:
            if role in VISIBLE_EVIL:
                assert pid not in engine.player_view(other).role_info[ms.KEY_FELLOW_EVIL]


def test_servants_know_nothing() -> None:
    for seats, pid in _holders(ms.SERVANT):
        _assert_sees(seats, pid, {})


def test_evil_narration_names_fellows_not_roles() -> None:
    seats = AVALON7
    engine = ms.engine_from_seats(seats)
    text = nar.identity(engine.player_view("p5"))
    assert "p6" in text and "Morgana" not in text
    assert nar.identity(engine.player_view("p7")).endswith("you play for Evil.")
    no_morgana = (*seats[:5], ("p6", ms.MINION), seats[6])
    text = nar.identity(ms.engine_from_seats(no_morgana).player_view("p2"))
    assert text.endswith("You see p1 as Merlin; there is no Morgana at this table.")


# ---------------------------------------------------------------- twin deals


def _twin(seats: Seats, pid: str, rng: random.Random) -> Seats:
    """Another deal that keeps ``pid``'s role and what the rules show it: roles are shuffled
    among the seats it sees and, separately, among the seats it does not."""
    known = official(seats, pid)
    roles = dict(seats)
    for group in (sorted(known - {pid}), sorted(set(roles) - known - {pid})):
        cards = [roles[p] for p in group]
        rng.shuffle(cards)
        roles.update(zip(group, cards, strict=True))
    return tuple(sorted(roles.items()))


def _moved(seats: Seats, pid: str) -> Seats | None:
    """A deal in which ``pid`` holds the same role but the rules show it something else."""
    known = official(seats, pid)
    roles = dict(seats)
    for a in sorted(known - {pid}):
        for b in sorted(set(roles) - known - {pid}):
            swapped = {**roles, a: roles[b], b: roles[a]}
            other = tuple(sorted(swapped.items()))
            if official(other, pid) != known:
                return other
    return None


def _view(rules: hr.Rules, seats: Seats, pid: str) -> tuple[object, ...]:
    engine = hr.Engine(rules)
    for seat, role in seats:
        engine.add_player(seat, role)
    engine.start()
    v = engine.player_view(pid)
    return (*v._replace(role_info={}), tuple(sorted(v.role_info.items())), engine.allowed_skills(pid))


def knowledge_problems(rules: hr.Rules, tables: tuple[Seats, ...] = TABLES, twins: int = 3) -> list[str]:
    """Seats whose start view tells more (or less) than the official rules show their role."""
    rng = random.Random(0)
    out: list[str] = []
    for seats in tables:
        for pid, role in seats:
            base = _view(rules, seats, pid)
            for _ in range(twins):
                twin = _twin(seats, pid, rng)
                if _view(rules, twin, pid) != base:
                    out.append(f"{pid} ({role}) tells {seats} from {twin}")
            moved = _moved(seats, pid)
            if moved is not None and _view(rules, moved, pid) == base:
                out.append(f"{pid} ({role}) cannot tell {seats} from {moved}")
    return out


def test_each_start_view_is_exactly_what_the_official_rules_show() -> None:
    assert knowledge_problems(ms.rules()) == []


SMALL = tuple(s for s in TABLES if len(s) == 7)


def test_planted_kernel_teammates_name_evil_roles_and_go_red() -> None:
    """The old behaviour: evil players as kernel teammates, whose views show each other's roles."""
    leaky = dataclasses.replace(ms.rules(), teammates=ms.teammates)
    problems = knowledge_problems(leaky, SMALL)
    assert any("(MS_ASSASSIN) tells" in p for p in problems), problems


def test_planted_role_info_naming_a_fellow_role_goes_red() -> None:
    def named(player_id: str, view: hr.GameView) -> dict[str, str]:
        fellows = [p for p in view.all_players() if p.id in ms.teammates(player_id, view)]
        return {ms.KEY_FELLOW_EVIL: ",".join(f"{p.id}={p.role}" for p in fellows)}

    leaky = dataclasses.replace(ms.rules(), role_info={**ms.rules().role_info, ms.ASSASSIN: named})
    problems = knowledge_problems(leaky, SMALL)
    assert problems and all("(MS_ASSASSIN) tells" in p for p in problems), problems


def test_planted_blind_percival_goes_red() -> None:
    """The other direction: a seat told less than the rules give it is caught too."""
    leaky = dataclasses.replace(ms.rules(), role_info={**ms.rules().role_info, ms.PERCIVAL: lambda pid, view: {}})
    problems = knowledge_problems(leaky, SMALL)
    assert problems and all("(MS_PERCIVAL) cannot tell" in p for p in problems), problems
