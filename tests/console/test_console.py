"""The host console plays every game to the end from a script, and keeps secrets in player mode."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

import hiddenrole as hr
from hiddenrole.cli import main as cli_main
from hiddenrole.console import Console, Setup


def run(argv: list[str], script: str = "") -> str:
    out = io.StringIO()
    import argparse

    from hiddenrole.console.app import add_play_arguments, run_play

    parser = argparse.ArgumentParser()
    add_play_arguments(parser)
    assert run_play(parser.parse_args(argv), stdin=io.StringIO(script), out=out) == 0
    return out.getvalue()


@pytest.mark.parametrize(
    "argv",
    [
        ["werewolf", "--bots", "--seed", "3"],
        ["werewolf", "--bots", "--players", "12", "--option", "extensions=idiot,wolfking"],
        ["missions", "--variant", "avalon", "--players", "7", "--bots"],
        ["missions", "--variant", "resistance", "--players", "5", "--bots", "--seed", "9"],
        ["onenight", "--players", "6", "--bots"],
        ["redblue", "--bots"],
    ],
)
def test_bots_play_every_game_to_the_end_with_a_reveal(argv: list[str]) -> None:
    text = run(argv)
    assert "game over" in text
    assert "winners:" in text


def test_a_scripted_host_drives_werewolf_to_the_end() -> None:
    console = Console(Setup("werewolf", 9, 5), out=io.StringIO())
    engine = console.engine
    for _ in range(400):
        if engine.status().over:
            break
        for pid in engine.player_ids():
            skills = engine.allowed_skills(pid)
            if not skills:
                continue
            targets = "" if skills[0] == hr.SKIP else next(p for p in engine.alive_player_ids() if p != pid)
            console.handle(f"act {pid} {skills[0]} {targets}".strip())
        console.handle("end")
    assert engine.status().over
    text = console.out.file.getvalue()  # type: ignore[attr-defined]
    assert "refused" not in text
    assert "game over" in text


def test_host_commands_show_status_god_view_and_pending() -> None:
    out = io.StringIO()
    console = Console(Setup("werewolf", 9, 1), out=out)
    for line in ("status", "god", "pending", "view p00", "help", "nonsense"):
        console.handle(line)
    text = out.getvalue()
    assert "NIGHT_GUARD" in text and "moderator" in text and "unknown command" in text
    assert "must:" in text or "may:" in text


def test_refused_moves_are_reported_and_change_nothing() -> None:
    out = io.StringIO()
    console = Console(Setup("werewolf", 9, 1), out=out)
    before = console.engine.snapshot().to_json()
    console.handle("act p99 KILL p01")
    console.handle("act p00 FLY")
    assert "refused: PLAYER_NOT_FOUND" in out.getvalue()
    assert "refused: SKILL_NOT_ALLOWED" in out.getvalue()
    assert console.engine.snapshot().to_json() == before


def test_save_and_load_restore_the_same_table(tmp_path: Path) -> None:
    out = io.StringIO()
    console = Console(Setup("werewolf", 9, 7, {"victory_mode": "TOWN_WIPE"}), bots=True, out=out)
    console.handle("auto")
    console.handle("end")
    console.handle("auto")
    path = tmp_path / "table.json"
    console.handle(f"save {path}")
    saved = console.engine.snapshot().to_json()
    other = Console(Setup("redblue", 4, 1), out=io.StringIO())
    other.handle(f"load {path}")
    assert other.engine.snapshot().to_json() == saved
    assert other.engine.rules.version == console.engine.rules.version
    other.handle("run")
    assert other.engine.status().over
    doc = json.loads(path.read_text())
    assert doc["setup"]["options"] == {"victory_mode": "TOWN_WIPE"}


def test_load_of_a_bad_file_is_reported(tmp_path: Path) -> None:
    out = io.StringIO()
    console = Console(Setup("redblue", 4, 1), out=out)
    bad = tmp_path / "bad.json"
    bad.write_text("{nope")
    console.handle(f"load {bad}")
    assert "cannot load" in out.getvalue()


def _events_human_heard(text: str) -> list[str]:
    return [line.strip().split()[0] for line in text.splitlines() if line.startswith("  ") and line.strip()]


def test_player_mode_sees_only_its_own_seat() -> None:
    out = io.StringIO()
    console = Console(Setup("werewolf", 9, 2), bots=True, human="p03", out=out)
    role = console.engine.player_info("p03").role
    console.handle("view p04")
    console.handle("god")
    assert "you may only look at your own seat" in out.getvalue()
    assert "host's command" in out.getvalue()
    view = console.engine.player_view("p03")
    hidden = [p for p in view.players if not p.role]
    assert hidden, "a villager-side seat must not see everyone's role"
    for _ in range(300):
        if console.engine.status().over:
            break
        skills = console.engine.allowed_skills("p03")
        if skills:
            target = next((p for p in console.engine.alive_player_ids() if p != "p03"), "")
            console.handle(f"act {skills[0]} {'' if skills[0] == hr.SKIP else target}".strip())
        else:
            console.handle("pass")
    assert console.engine.status().over
    text = out.getvalue()
    # Private events of other seats (a seer's CHECK, a guard's PROTECT) never reach this seat.
    heard = set(_events_human_heard(text))
    if role != "SEER":
        assert "CHECK" not in heard
    if role != "GUARD":
        assert "PROTECT" not in heard


def test_unknown_seat_or_game_is_refused() -> None:
    with pytest.raises(SystemExit):
        Console(Setup("werewolf", 9, 1), human="p99", out=io.StringIO())
    with pytest.raises(SystemExit):
        Console(Setup("chess", 2, 1), out=io.StringIO())


def test_cli_demo_and_play_entry_points(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["demo"]) == 0
    assert "winners" in capsys.readouterr().out
