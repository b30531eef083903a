"""``GameView.same_board``: equal exactly when every fact a view can report is equal.

A host skips its own hooks on an unchanged board on the strength of this answer, so a
change it missed would leave a stale view: each kind of board change must be seen.
"""

from __future__ import annotations

import pytest

import hiddenrole as hr


def _engine() -> hr.Engine:
    config = hr.Config(
        "A",
        {
            "A": hr.PhaseConfig(steps=(hr.PhaseStep("X", "GO"),), next_phase="B"),
            "B": hr.PhaseConfig(steps=(hr.PhaseStep("X", "GO"),), next_phase="END"),
        },
    )
    rules = hr.Rules(config, name="same", resolvers={"A": lambda uses, view: [], "B": lambda uses, view: []})
    engine = hr.Engine(rules)
    engine.add_player("p1", "X")
    engine.add_player("p2", "X")
    engine.start()
    return engine


def test_two_copies_of_one_board_are_the_same_board() -> None:
    engine = _engine()
    first = engine.view()
    assert first.same_board(engine.view())
    assert first.same_board(first)


@pytest.mark.parametrize(
    "change",
    [
        lambda e: e.apply(hr.set_var(hr.GAME, "k", "v")),
        lambda e: e.apply(hr.set_alive("p2", False)),
        lambda e: e.apply(hr.set_var(hr.VarScope(False, "p1"), "k", "v")),
        lambda e: e.apply(hr.set_var(hr.ROUND, "k", "v")),
        lambda e: e.end_phase(),
    ],
    ids=["game-var", "alive", "player-var", "round-var", "phase"],
)
def test_every_kind_of_change_makes_another_board(change: object) -> None:
    engine = _engine()
    before = engine.view()
    change(engine)  # type: ignore[operator]
    assert not before.same_board(engine.view())
    assert not engine.view().same_board(before)


@pytest.mark.pure_only
def test_same_board_compares_only_views() -> None:
    with pytest.raises(hr.InvalidArgument):
        _engine().view().same_board("board")  # type: ignore[arg-type]
