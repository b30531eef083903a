"""A reader's pushed board is cached while its view core is unchanged: the cache must never serve a stale board."""

from __future__ import annotations

import random
from typing import Any

import pytest

from hiddenrole.host import Move
from hiddenrole.server import hostapi
from hiddenrole.server.bots import choices


def _fresh_board(game: hostapi.Game, reader: hostapi.Reader) -> dict[str, Any]:
    """The board built from scratch: the view without its history or version."""
    v = game.view(reader)
    return {k: v[k] for k in v if k not in ("events", "chat", "version")}


def _play(game: hostapi.Game, check: Any) -> int:
    """Random legal moves, a line of talk where a seat may speak, phase ends; ``check`` after every move."""
    rng = random.Random(4)
    config = game.rules.config
    moves = 0
    while not game.over and moves < 400:
        made = False
        for seat in game.seats:
            board = game.board(seat)
            options = choices(config, board, rng)
            if options:
                o = options[0]
                game.play(Move("act", seat, o["skill"], tuple(o["targets"])))
            elif "say" in board["moves"]:
                game.play(Move("say", seat, text=f"line {moves}"))
            else:
                continue
            made = True
            moves += 1
            check()
        if not made or rng.random() < 0.5:
            game.end_phase()
            moves += 1
            check()
    return moves


def test_the_cached_board_is_always_the_fresh_one() -> None:
    game = hostapi.Game.open("werewolf", 9, None, seed=11)
    hits = {"same": 0}
    last: dict[hostapi.Reader, dict[str, Any]] = {}

    def check() -> None:
        for reader in game.readers:
            got = game.board(reader)
            assert got == _fresh_board(game, reader)
            if last.get(reader) is got:
                hits["same"] += 1
            last[reader] = got

    assert _play(game, check) > 50
    assert hits["same"] > 0  # the cache is used (lines said and others' pending choices rebuild nothing)


def test_a_planted_stale_cache_goes_red(monkeypatch: pytest.MonkeyPatch) -> None:
    """A cache keyed by the phase and round alone (not by the view core's parts) serves stale boards: red."""
    real = hostapi.Game.board

    def stale(self: hostapi.Game, reader: hostapi.Reader) -> dict[str, Any]:
        last = self._boards.get(reader)
        if last is not None and last[1][:2] == (self._table.view(reader).phase, self._table.view(reader).round):
            return last[2]
        return real(self, reader)

    monkeypatch.setattr(hostapi.Game, "board", stale)
    with pytest.raises(AssertionError):
        test_the_cached_board_is_always_the_fresh_one()


def test_a_planted_stale_board_piece_goes_red(monkeypatch: pytest.MonkeyPatch) -> None:
    """Board pieces' JSON kept by kind of piece (not by the very piece object) serves stale pieces: red."""
    kept: dict[Any, Any] = {}

    def by_kind(self: hostapi.Game, piece: Any, to_json: Any) -> Any:
        if to_json not in kept:
            kept[to_json] = to_json(piece)
        return kept[to_json]

    monkeypatch.setattr(hostapi.Game, "_part", by_kind)
    with pytest.raises(AssertionError):
        test_the_cached_board_is_always_the_fresh_one()
