"""The canonical log reader: the kernel's own log text read without the JSON scanner.

A compiled kernel reads a saved log (a snapshot's, or a log's JSON) with ``_canonical_log``
first: it takes only the exact text the writers write and must read it as the reference reader
(the strict JSON reader, then the record tables) does; any other text is left to that reader.
These tests call it directly, so the interpreted run covers it too.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import hiddenrole as hr
from hiddenrole import persistence

from .small_games import finished_mini, rich_engine, started_mini


def _reference(text: str, start: int) -> tuple[Any, int] | None:
    """The reference reading of the log at ``text[start]``: the strict scanner, then the table."""
    try:
        value, end = persistence._scan(text, start)
        log = persistence._LOG.read(value, persistence._Reader(hr.InvalidLog), "log")
    except (StopIteration, ValueError, RecursionError, hr.GameError):
        return None
    return log, end


def _every_field() -> hr.GameLog:
    """A log whose effects set every field of an effect, escapes and all."""
    scope = hr.VarScope.parse("round:p1")
    full = hr.Effect(
        "T",
        source="s",
        target="p1",
        data={"a": "1", "b": ""},
        canceled=True,
        reason='why, and "how" \\ \u00e9',
        phase="P",
        alive=True,
        scope=scope,
        key="k",
        value="v\n",
        actors=("p1", "p2"),
        role="R",
        vars={"x": "y"},
        winners=("p1",),
    )
    return hr.GameLog("r", "1", (hr.Effect("A"), full, hr.Effect("B", actors=("",))))


def _logs() -> list[bytes]:
    logs = [engine().log().to_json() for engine in (started_mini, rich_engine, finished_mini)]
    return [*logs, _every_field().to_json(), hr.GameLog("r", "1", ()).to_json()]


@pytest.mark.parametrize("n", range(5))
def test_the_kernels_own_log_text_is_read_as_the_reference_reads_it(n: int) -> None:
    raw = _logs()[n].decode()
    got = persistence._canonical_log(raw, 0)
    expected = _reference(raw, 0)
    assert expected is not None and expected[1] == len(raw)
    if "\\" in raw:  # an escape: left to the reference reader
        assert got is None
        return
    assert got is not None and got == expected
    assert [[type(x) for x in e] for e in got[0].effects] == [[type(x) for x in e] for e in expected[0].effects]
    assert got[0].well_typed and got[0].to_json().decode() == raw


def test_a_snapshots_log_is_read_where_it_lies() -> None:
    raw = rich_engine().snapshot().to_json().decode()
    start = len(persistence._SAVED_HEAD)
    got = persistence._canonical_log(raw, start)
    assert got is not None
    assert raw[got[1] :].startswith(',"phase":')
    assert got == _reference(raw, start)


OTHER_TEXT = {
    "space": (',"effects":[', ', "effects":['),
    "key order": ('{"name":"r","version":"1"}', '{"version":"1","name":"r"}'),
    "repeated key": ('{"type":"A"}', '{"type":"A","type":"A"}'),
    "repeated field": ('"source":"s"', '"source":"s","source":"s"'),
    "fields out of order": ('"source":"s","target":"p1"', '"target":"p1","source":"s"'),
    "unknown field": ('{"type":"A"}', '{"type":"A","nope":"1"}'),
    "empty type": ('{"type":"A"}', '{"type":""}'),
    "type not first": ('{"type":"B","actors":[""]}', '{"actors":[""],"type":"B"}'),
    "map keys unsorted": ('{"a":"1","b":""}', '{"b":"","a":"1"}'),
    "map key repeated": ('{"a":"1","b":""}', '{"a":"1","a":""}'),
    "escape": ('"k"', '"\\u006b"'),
    "control character": ('"k"', '"k\x01"'),
    "non-ASCII": ('"k"', '"k\u00e9"'),
    "number as string": ('"version":1', '"version":"1"'),
    "leading zero": ('"version":1', '"version":01'),
    "float": ('"version":1', '"version":1.0'),
    "exponent": ('"version":1', '"version":1e0'),
    "flag as number": ('"canceled":true', '"canceled":1'),
    "flag null": ('"canceled":true', '"canceled":null'),
    "string null": ('"source":"s"', '"source":null'),
    "list of numbers": ('"actors":["p1","p2"]', '"actors":[1]'),
    "trailing comma": ('"actors":["p1","p2"]', '"actors":["p1","p2",]'),
    "unclosed": ("]}", "]"),
    "bad scope": ('"round:p1"', '"forever:p1"'),
}
SAME_VALUE = {
    "flag false": ('"canceled":true', '"canceled":false'),
    "empty field": ('"source":"s"', '"source":""'),
    "negative zero version": ('"version":1', '"version":-0'),
}


@pytest.mark.parametrize("what", sorted({**OTHER_TEXT, **SAME_VALUE}))
def test_other_text_is_left_to_the_reference_reader(what: str) -> None:
    """Text the writers would not write is refused (the reference reader then decides), or, where
    it means the same value, read as the reference reader reads it."""
    log = _every_field()
    clean = hr.GameLog(
        log.rules_name,
        log.rules_version,
        (*log.effects[:1], log.effects[1]._replace(reason="r", value="v"), *log.effects[2:]),
    )
    raw = clean.to_json().decode()
    old, new = {**OTHER_TEXT, **SAME_VALUE}[what]
    assert old in raw
    other = raw.replace(old, new, 1)
    got = persistence._canonical_log(other, 0)
    if what in OTHER_TEXT:
        assert got is None
    else:
        assert got is not None and got == _reference(other, 0)


def test_damaged_log_text_is_never_read_otherwise() -> None:
    """Whatever a random edit makes of the text, the canonical reader refuses it or reads it as
    the reference reader does, to the same end."""
    rng = random.Random(11)
    texts = [log.decode() for log in _logs()[:3]]
    pieces = ['"', "\\", ",", ":", "{", "}", "[", "]", " ", "0", "1", "-", "a", "\x00", "true", "null", "\u00e9"]
    taken = 0
    for _ in range(3000):
        raw = rng.choice(texts)
        at = rng.randrange(len(raw))
        cut = rng.choice((0, 0, 1, 2))
        other = raw[:at] + rng.choice(pieces) * rng.choice((0, 1, 1, 2)) + raw[at + cut :]
        got = persistence._canonical_log(other, 0)
        if got is not None:
            taken += 1
            assert got == _reference(other, 0), repr(other)
    assert taken  # some edits keep the text the writers' (a letter of a value changed)


NO_PENDING_SPELT = ["[][]", "{}", '""', "[ ]", " []", "[]\n", "[0]", "[[]]"]


@pytest.mark.parametrize("spelt", NO_PENDING_SPELT)
def test_a_verified_restore_takes_no_pending_only_as_the_kernel_writes_it(spelt: str) -> None:
    """A verified restore reads "no pending submissions" from the text in place only when it is
    exactly ``[]`` between the board and the turns; anything else there is decided as the
    reference reader decides it (the same error, or the same engine)."""
    raw = started_mini().snapshot().to_json()
    assert raw.count(b'"pending":[],') == 1
    other = raw.replace(b'"pending":[],', b'"pending":' + spelt.encode() + b",")
    try:
        value = hr.Snapshot.from_json(other)
    except hr.GameError as exc:
        with pytest.raises(type(exc)) as caught:
            hr.Engine.restore(started_mini().rules, other)
        assert caught.value.message == exc.message
        return
    again = hr.Engine.restore(started_mini().rules, value).snapshot().to_json()
    assert hr.Engine.restore(started_mini().rules, other).snapshot().to_json() == again
