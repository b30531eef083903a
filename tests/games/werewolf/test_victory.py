"""R14-R16: the victory census on hand-made boards."""

from __future__ import annotations

import random

import pytest

import hiddenrole as hr
from hiddenrole.games import werewolf as ww
from hiddenrole.games.werewolf import idiot, victory, wolfking

from .helpers import board, player


def seats(dead: tuple[str, ...] = (), *extra: hr.PlayerInfo) -> hr.Board:
    """Wolves p00 p01; seer p02, witch p03; villagers p04 p05 p06."""
    roles = (ww.WEREWOLF, ww.WEREWOLF, ww.SEER, ww.WITCH, ww.VILLAGER, ww.VILLAGER, ww.VILLAGER)
    ps = {f"p{i:02d}": player(f"p{i:02d}", r, alive=f"p{i:02d}" not in dead) for i, r in enumerate(roles)}
    for p in extra:
        ps[p.id] = p
    return board(*ps.values())


def test_R14_no_living_wolf_means_good_wins() -> None:
    assert ww.check_victory(seats(("p00", "p01")).view()) == (ww.GOOD,)
    assert ww.check_victory(seats(("p00",)).view()) is None


def test_R14_no_living_good_player_means_evil_wins() -> None:
    b = seats(("p02", "p03", "p04", "p05", "p06"))
    assert ww.check_victory(b.view(), ww.SIDE_WIPE) == (ww.EVIL,)
    assert ww.check_victory(b.view(), ww.TOWN_WIPE) == (ww.EVIL,)


def test_R14_evil_wins_when_good_players_outside_every_category_are_gone() -> None:
    # A good extension role with no category is invisible to side wipe; the census still counts it.
    b = board(player("p00", ww.WEREWOLF), hr.seat("p01", "HERMIT", False, ww.camp_vars(ww.GOOD)))
    assert ww.check_victory(b.view(), ww.SIDE_WIPE) == (ww.EVIL,)
    alive = board(player("p00", ww.WEREWOLF), hr.seat("p01", "HERMIT", True, ww.camp_vars(ww.GOOD)))
    assert ww.check_victory(alive.view(), ww.SIDE_WIPE) is None
    # ... and never stands for a category: the villagers are wiped out though the hermit lives.
    hermit = hr.seat("p02", "HERMIT", True, ww.camp_vars(ww.GOOD))
    no_villager = board(player("p00", ww.WEREWOLF), player("p01", ww.VILLAGER, alive=False), hermit)
    assert ww.check_victory(no_villager.view(), ww.SIDE_WIPE) == (ww.EVIL,)
    assert ww.Victory(ww.SIDE_WIPE).check_victory(no_villager.view()) == (ww.EVIL,)


def test_R14_good_wins_first_when_both_sides_are_gone() -> None:
    everyone = tuple(f"p{i:02d}" for i in range(7))
    assert ww.check_victory(seats(everyone).view()) == (ww.GOOD,)


def test_R14_roles_without_a_camp_are_not_counted() -> None:
    jester = hr.seat("p07", "JESTER")
    b = seats(("p02", "p03", "p04", "p05", "p06"), jester)
    assert ww.check_victory(b.view()) == (ww.EVIL,)


def test_R15_side_wipe_all_gods_dead() -> None:
    assert ww.check_victory(seats(("p02", "p03")).view(), ww.SIDE_WIPE) == (ww.EVIL,)
    assert ww.check_victory(seats(("p02",)).view(), ww.SIDE_WIPE) is None


def test_R15_side_wipe_all_villagers_dead() -> None:
    assert ww.check_victory(seats(("p04", "p05", "p06")).view(), ww.SIDE_WIPE) == (ww.EVIL,)
    assert ww.check_victory(seats(("p04", "p05")).view(), ww.SIDE_WIPE) is None


def test_R15_side_wipe_ignores_a_category_never_dealt() -> None:
    b = board(player("p00", ww.WEREWOLF), player("p01", ww.VILLAGER), player("p02", ww.VILLAGER))
    assert ww.check_victory(b.view(), ww.SIDE_WIPE) is None


def test_R16_town_wipe_parity() -> None:
    # 2 wolves vs 3 good: going on; 2 vs 2: evil wins; side wipe would already have ended.
    three = seats(("p02", "p03"))
    assert ww.check_victory(three.view(), ww.TOWN_WIPE) is None
    assert ww.check_victory(three.view(), ww.SIDE_WIPE) == (ww.EVIL,)
    two = seats(("p02", "p03", "p04"))
    assert ww.check_victory(two.view(), ww.TOWN_WIPE) == (ww.EVIL,)


def test_R16_the_bound_checker_follows_the_mode() -> None:
    three = seats(("p02", "p03")).view()
    assert ww.Victory(ww.TOWN_WIPE).check_victory(three) is None
    assert ww.Victory(ww.SIDE_WIPE).check_victory(three) == (ww.EVIL,)
    assert ww.check_victory(three) == (ww.EVIL,)  # side wipe is the default


@pytest.mark.pure_only  # spies on victory._verdict: compiled code calls it directly, not through the module
def test_R16_the_bound_checker_recounts_only_when_what_it_reads_changes(monkeypatch: pytest.MonkeyPatch) -> None:
    """A write the census does not read keeps the answer; a death or a camp/category change recounts."""
    counted: list[int] = []
    census = victory._verdict

    def spy(players: tuple[hr.PlayerInfo, ...], kinds: list[int], mode: str) -> tuple[str, ...] | None:
        counted.append(1)
        return census(players, kinds, mode)

    monkeypatch.setattr(victory, "_verdict", spy)
    checker = ww.Victory(ww.SIDE_WIPE)
    assert checker.check_victory(seats(("p02",)).view()) is None
    banned = player("p04", ww.VILLAGER, extra={ww.VAR_NO_VOTE: hr.VAR_PRESENT})
    assert checker.check_victory(seats(("p02",), banned).view()) is None
    assert len(counted) == 1  # a vote ban is not read by the census
    # The witch (the last special role alive) turns evil: same alive flags, gods wiped.
    turned = hr.seat("p03", ww.WITCH, True, ww.camp_vars(ww.EVIL, ww.GOD))
    assert checker.check_victory(seats(("p02",), turned).view()) == (ww.EVIL,)
    assert len(counted) == 2
    assert checker.check_victory(seats(("p02",)).view()) is None
    assert len(counted) == 3
    # Only her category changes: no special role is left alive either.
    plain = hr.seat("p03", ww.WITCH, True, ww.camp_vars(ww.GOOD, ww.VILLAGER))
    assert checker.check_victory(seats(("p02",), plain).view()) == (ww.EVIL,)
    assert len(counted) == 4
    assert checker.check_victory(seats(("p02",)).view()) is None
    assert checker.check_victory(seats(("p02", "p04")).view()) is None  # a death
    assert len(counted) == 6


def test_R16_the_bound_checker_agrees_with_the_census_seat_by_seat() -> None:
    """A kept answer never goes stale: every step of a sequence of boards answers as a fresh census."""
    checker = ww.Victory(ww.SIDE_WIPE)
    steps = [
        seats(()),
        seats(("p02",)),
        seats(("p02",), hr.seat("p03", ww.WITCH, True, ww.camp_vars(ww.EVIL, ww.GOD))),
        seats(("p02",)),
        seats(("p02", "p03")),
        seats(("p04", "p05", "p06")),
        seats(("p00", "p01")),
    ]
    for b in steps:
        view = b.view()
        assert checker.check_victory(view) == ww.check_victory(view)


def test_R16_the_bound_checker_follows_writes_to_one_board() -> None:
    """On one board a death keeps every variable map and a write replaces one: the kept census
    (what each seat counts for, read again only from a new map) answers as a fresh one."""
    checker = ww.Victory(ww.SIDE_WIPE)
    b = seats()
    writes = [
        hr.set_var(hr.GAME.of("p04"), ww.VAR_NO_VOTE, hr.VAR_PRESENT),  # not read by the census
        hr.set_alive("p02", False),
        hr.set_var(hr.GAME.of("p03"), ww.VAR_CATEGORY, ww.VILLAGER),  # gods wiped: p02 dead, p03 no god
        hr.set_var(hr.GAME.of("p03"), ww.VAR_CATEGORY, ww.GOD),
        hr.set_var(hr.GAME.of("p05"), hr.VAR_CAMP, ww.EVIL),
        hr.set_alive("p00", False),
        hr.set_alive("p01", False),  # p05 is the last wolf
        hr.set_var(hr.GAME.of("p05"), hr.VAR_CAMP, ""),  # uncounted: no wolf left
    ]
    answers = []
    for e in writes:
        b = b.apply([e])
        view = b.view()
        answers.append(checker.check_victory(view))
        assert answers[-1] == ww.check_victory(view)
    assert answers == [None, None, (ww.EVIL,), None, None, None, None, (ww.GOOD,)]


@pytest.mark.parametrize("mode", [ww.SIDE_WIPE, ww.TOWN_WIPE])
def test_R16_the_bound_checker_agrees_with_the_census_through_random_deaths_and_turns(mode: str) -> None:
    """Deaths, returns to life and camp/category changes, one or several per step, in random order:
    the kept census answers as a fresh one at every step."""
    rng = random.Random(16)
    roles = (ww.WEREWOLF, ww.WEREWOLF, ww.SEER, ww.WITCH, ww.VILLAGER, ww.VILLAGER, ww.VILLAGER, "JESTER")
    camps = [ww.camp_vars(ww.EVIL, ww.WOLF), ww.camp_vars(ww.GOOD, ww.GOD), ww.camp_vars(ww.GOOD, ww.VILLAGER)]
    camps += [ww.camp_vars(ww.GOOD), {}]
    for _ in range(40):
        checker = ww.Victory(mode)
        b = board(*(player(f"p{i:02d}", r) for i, r in enumerate(roles)))
        for _ in range(12):
            writes: list[hr.Effect] = []
            for _ in range(rng.randint(1, 3)):
                pid = f"p{rng.randrange(len(roles)):02d}"
                if rng.random() < 0.8:
                    writes.append(hr.set_alive(pid, rng.random() < 0.3))
                else:
                    for key in (hr.VAR_CAMP, ww.VAR_CATEGORY):
                        writes.append(hr.set_var(hr.GAME.of(pid), key, rng.choice(camps).get(key, "")))
            b = b.apply(writes)
            view = b.view()
            assert checker.check_victory(view) == ww.check_victory(view, mode)


def test_R17_the_census_is_asked_only_after_the_phases_that_kill() -> None:
    # Rules.victory_after (the harness checks the promise): deaths come from dawn, the vote and the
    # last actions only, whatever the roles (the wolf king is data); with any interceptor, an
    # extension's (the idiot's) or the host's, every phase is asked.
    killing = frozenset({ww.NIGHT_RESOLVE, ww.VOTE, ww.NIGHT_LAST_ACTION, ww.DAY_LAST_ACTION})
    assert ww.rules().victory_after == killing
    assert ww.rules(ww.Switches(ordered_day=True)).victory_after == killing
    assert ww.rules(ww.Switches(bid_for_floor=True)).victory_after == killing
    assert ww.rules(extensions=(idiot.EXTENSION,)).victory_after is None
    assert ww.rules(extensions=(wolfking.EXTENSION,)).victory_after == killing
    assert ww.rules(extra_interceptors=(lambda effect, view: None,)).victory_after is None
