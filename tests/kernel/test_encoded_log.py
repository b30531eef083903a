"""Engines encode each logged effect once; the bytes are exactly the plain encoding's."""

from __future__ import annotations

import json
from dataclasses import replace

import hiddenrole as hr
from hiddenrole.games import redblue


def plain(doc: dict[str, object]) -> bytes:
    return json.dumps(doc, separators=(",", ":"), ensure_ascii=False).encode()


def test_cached_log_and_snapshot_bytes_equal_the_plain_encoding_as_the_game_grows() -> None:
    engine = redblue.new_game(3, 3)
    engine.start()
    for step in range(6):
        if engine.status().over:
            break
        for pid in engine.alive_player_ids():
            target = [p for p in engine.alive_player_ids() if p != pid][step % 2]
            engine.submit(pid, redblue.VOTE, [target])
        snap = engine.snapshot()
        assert snap.to_json() == plain(snap.to_dict())
        log = engine.log()
        assert log.encoded is not None
        assert log.to_json() == plain(log.to_dict())
        engine.end_phase()
    # An old log object keeps its own (shorter) bytes after the game has moved on.
    early = redblue.new_game(2, 2)
    early.start()
    first = early.log()
    before = first.to_json()
    early.submit("r1", redblue.VOTE, ["b1"])
    early.end_phase()
    assert first.to_json() == before
    assert hr.GameLog.from_json(before).effects == first.effects


def test_board_keeps_a_detour_queue_through_apply() -> None:
    board = hr.Board(players=(hr.seat("h", "HUNTER"), hr.seat("v", "VILLAGER")), phase="DAY")
    after = board.apply([hr.detour("h", "LAST"), hr.set_alive("h", False)])
    assert after.detours == (hr.Detour("h", "LAST"),)
    assert after.view().round_context().detours == (hr.Detour("h", "LAST"),)
    assert not after.player("h").alive  # type: ignore[union-attr]


def test_audience_of_names_only_seated_players() -> None:
    rules = redblue.rules()
    import dataclasses

    leaky = dataclasses.replace(rules, audience=lambda event, view: ("r1", "ghost"))
    engine = hr.Engine(leaky)
    engine.add_player("r1", redblue.RED)
    engine.add_player("b1", redblue.BLUE)
    assert engine.audience_of(hr.Event("NEWS")) == ("r1",)


def test_apply_to_a_finished_game_is_refused_and_changes_nothing() -> None:
    engine = redblue.new_game(1, 2)
    engine.start()
    for pid in engine.alive_player_ids():
        engine.submit(pid, redblue.VOTE, ["r1"] if pid != "r1" else ["b1"])
    engine.end_phase()
    assert engine.status().over
    before = engine.snapshot().to_json()
    import pytest

    with pytest.raises(hr.GameEnded):
        engine.apply(hr.set_alive("r1", True))
    assert engine.snapshot().to_json() == before


def test_decoding_never_changes_or_keeps_the_callers_dicts() -> None:
    effect = hr.Effect("NEWS", data={"a": "1"}).with_data("b", "2")
    doc = hr.GameLog("x", "1", (effect, hr.set_var(hr.ROUND.of("p"), "k", "v"))).to_dict()
    original = json.dumps(doc)
    log = hr.GameLog.from_dict(doc)
    assert json.dumps(doc) == original
    doc["effects"][0]["data"]["a"] = "changed"
    assert log.effects[0].data["a"] == "1"


def test_effect_text_is_the_encoders_for_any_string_and_falls_back_for_other_values() -> None:
    """The per-field text writers (maps, string lists) write the encoder's exact bytes: escapes,
    quotes, control and non-ASCII characters in keys and values; a value the string escaper
    refuses takes the encoder's way for the whole batch, as before."""
    odd = 'q"\\\n\x01é\u2028\ud800'
    effects = (
        hr.Effect("NEWS", source=odd, data={"b": "", odd: odd}),
        hr.Effect("SET_ACTORS", actors=(odd, "x"), winners=("a", odd)),
        hr.Effect("NEWS", data={}, vars={"k": odd}),
    )
    log = hr.GameLog("r", "1", effects)
    assert log.to_json() == json.dumps(log.to_dict(), separators=(",", ":")).encode()
    assert hr.GameLog.from_json(log.to_json()).effects == effects
    unchecked = hr.GameLog("r", "1", (*effects, hr.Effect._make(("NEWS", "", "", {"n": 1}, *hr.Effect("X")[4:]))))
    assert unchecked.to_json() == json.dumps(unchecked.to_dict(), separators=(",", ":")).encode()


def test_snapshot_text_is_the_encoders_for_any_string_and_falls_back_for_other_values() -> None:
    """The board is written field by field from the record tables (no object built); its bytes
    are the encoder's, odd strings included, and a hand-built value of the wrong type takes the
    encoder's way."""
    odd = 'q"\\\n\x01é\u2028'
    log = hr.GameLog("r", odd, (hr.Effect("NEWS", data={odd: odd}),))
    player = hr.PlayerInfo(odd, odd, False, {"a": odd}, {})
    snap = hr.Snapshot(
        log, odd, 3, {odd: ""}, {odd: (odd, "x")}, None, (player,), (hr.Detour(odd, odd),), {}, (), (odd,), ()
    )
    wrong = (
        replace(snap, round=True),
        replace(snap, players=(player._replace(alive=1),)),  # type: ignore[arg-type]
        replace(snap, vars={"k": 1}),  # type: ignore[dict-item]
    )
    for value in (snap, replace(snap, winners=(odd,)), *wrong):
        doc = value.to_dict()
        assert value.to_json() == json.dumps(doc, separators=(",", ":")).encode()
        assert value.log.to_json() == json.dumps(doc["log"], separators=(",", ":")).encode()
