"""The console plays every game through a host table: moves, bots, undo, save = log, load = replay."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

import hiddenrole as hr
from hiddenrole.cli import main as cli_main
from hiddenrole.console.games import definition
from hiddenrole.console.words import kernel_event, player_view
from hiddenrole.host import ACT, END_PHASE, Table, TableView

from .support import console, run, text

WEREWOLF_ROLES = ("Werewolf", "Seer", "Witch", "Guard", "Hunter", "Villager")


def views(table: Table) -> list[dict[str, object]]:
    """Every seat's view and the spectator's, as JSON-ready data."""
    return [table.view(s).to_dict() for s in (None, *table.seats)]


def role_cells(output: str) -> dict[str, str]:
    """Seat -> role column of the view tables in ``output`` (the last table wins)."""
    cells = {}
    for line in output.splitlines():
        if line.startswith("│ p"):
            row = [cell.strip() for cell in line.strip("│").split("│")]
            cells[row[0].split()[0]] = row[2]
    return cells


def without_version(view: TableView) -> dict[str, object]:
    d = view.to_dict()
    d.pop("version")
    return d


# ---------------------------------------------------------------------- every game, with bots


@pytest.mark.parametrize(
    ("game", "players", "options"),
    [
        ("werewolf", None, {}),
        ("werewolf", 12, {"idiot": "true", "wolf-king": "true"}),
        ("werewolf", 8, {"composition": "custom", "wolves": "2", "witch": "false"}),
        ("missions", 7, {"variant": "avalon", "percival": "yes", "morgana": "yes"}),
        ("missions", 5, {"variant": "resistance"}),
        ("onenight", 6, {}),
        ("redblue", None, {}),
        ("race", 3, {}),
        ("race", 4, {"track": "long", "target": "15"}),
    ],
)
def test_bots_play_every_game_to_the_end_through_the_table(
    game: str, players: int | None, options: dict[str, str]
) -> None:
    c = console(game, players, seed=3, options=options, bots=True)
    c.handle("run")
    table = c.table
    assert table.over and table.outcome is not None
    out = text(c)
    assert "game over" in out and "winners:" in out and "statistics:" in out
    for stat in table.definition.statistics:
        assert stat.name in out, f"statistic {stat.name} not shown"
    # Bots and the host only ever act and end phases, and the log replays to the same end.
    assert {m.kind for m in table.moves()} <= {ACT, END_PHASE}
    c.handle("verify")
    assert "verified:" in text(c)


def test_missions_bots_nominate_teams_of_the_size_the_step_declares() -> None:
    c = console("missions", 7, seed=8, bots=True)
    c.handle("run")
    nominations = [m for m in c.table.moves() if m.skill == "MS_NOMINATE"]
    assert nominations
    events, _ = c.table.host_lines()
    teams = {e.at: e.data["team"] for e in events if e.type == "MS_NOMINATED"}
    for m in nominations:
        assert len(set(m.targets)) == len(m.targets) >= 2
        assert set(teams[m.seq].split(",")) == set(m.targets)


def test_werewolf_with_bots_prints_the_whole_game_and_a_reveal_with_statistics(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert cli_main(["play", "werewolf", "--bots"]) == 0
    out = capsys.readouterr().out
    assert "The game begins." in out and "Round 1 · Night: the guard" in out and "Round 1 · Day: the vote" in out
    assert "game over" in out and "winners:" in out and "ending:" in out
    tail = out[out.index("game over") :]
    for seat in (f"p{n}" for n in range(1, 10)):
        row = next(line for line in tail.splitlines() if re.match(rf"│ {seat}\s", line))
        assert any(role in row for role in WEREWOLF_ROLES), row
    assert re.search(r"statistics: killed-by-wolves \d+, poisoned \d+, rounds \d+, shot \d+, voted-out \d+", tail)


def test_the_race_runs_to_the_end_with_dice_drawn_by_the_table() -> None:
    code, out, _ = run(["race", "--players", "3", "--bots", "--seed", "5"])
    assert code == 0 and "ending: finish-line" in out
    c = console("race", 3, seed=5, bots=True)
    c.handle("run")
    rolls = [m for m in c.table.moves() if m.skill == "ROLL"]
    assert rolls and all(m.draws == 1 for m in rolls)
    assert rolls == list(c.table.moves())  # bots move the race on; out-of-turn taunts are left to people
    dice = [int(d) for d in re.findall(r"p\d rolls a (\d)", text(c))]
    assert len(dice) == len(rolls) and set(dice) <= set(range(1, 7))
    # Same seed, same dice: the table's randomness is the only chance there is.
    again = console("race", 3, seed=5, bots=True)
    again.handle("run")
    assert again.table.moves() == c.table.moves() and again.table.log().end == c.table.log().end


def test_a_human_plays_a_race_seat_from_stdin() -> None:
    c = console("race", 3, seed=4, human="p2")
    c.loop(io.StringIO("act taunt p1\nact roll\n" * 30))
    table = c.table
    assert table.over
    mine = [m for m in table.moves() if m.seat == "p2"]
    assert {m.skill for m in mine} == {"ROLL", "TAUNT"}
    out = text(c)
    assert "your move — p2 (Racer) · Round 1 · The race · your turn" in out
    assert "game over" in out
    # Everybody rolled in turn: p2's rolls were its own moves, the others' were the bots'.
    rounds = table.outcome.stat("rounds") if table.outcome else 0
    assert sum(1 for m in mine if m.skill == "ROLL") == rounds


# ---------------------------------------------------------------------- host mode


def test_a_scripted_host_drives_werewolf_to_the_end_through_moves() -> None:
    c = console("werewolf", 9, seed=5)
    table = c.table
    for _ in range(400):
        if table.over:
            break
        for seat in table.seats:
            me = table.view(seat).me
            if me is None or not me.allowed_skills:
                continue
            skill = me.allowed_skills[0]
            living = [p.seat for p in table.view(seat).players if p.alive and p.seat != seat]
            target = "" if skill in (hr.SKIP, "DONE") else living[0]
            c.handle(f"act {seat} {skill.lower()} {target}".strip())
        c.handle("end")
    assert table.over
    out = text(c)
    assert not re.search(r"^refused: ", out, re.MULTILINE)
    assert "game over" in out
    kinds = [m.kind for m in table.moves()]
    assert set(kinds) == {ACT, END_PHASE}
    assert out.count("ok #") == kinds.count(ACT)


def test_host_commands_show_status_god_pending_views_options_and_log() -> None:
    c = console("werewolf", 9, seed=1)
    for line in (
        "status",
        "god",
        "pending",
        "view p1",
        "spectate",
        "options",
        "auto",
        "end",
        "log",
        "help",
        "nonsense",
    ):
        c.handle(line)
    out = text(c)
    assert "werewolf · move 0 · Round 1 · Night: the guard" in out
    assert "moderator" in out and "Protect" in out
    assert "may:  " in out and "acted:" in out
    assert "p1 sees" in out and "a spectator sees" in out
    assert "victory-mode=side-wipe" in out and "statistics: rounds (table)" in out
    assert re.search(r"#1 act p\d Protect p\d", out) and "end-phase" in out
    assert "unknown command 'nonsense'" in out


def test_refused_moves_are_reported_and_change_nothing() -> None:
    c = console("werewolf", 9, seed=1)
    before = c.table.log().to_json()
    for line in ("act p99 KILL p1", "act p1 FLY", "end-turn p1", "say p1", "act p1"):
        c.handle(line)
    out = text(c)
    assert "refused: SEAT_NOT_FOUND" in out
    assert "refused: SKILL_NOT_ALLOWED" in out
    assert "refused: NOT_YOUR_TURN" in out
    assert "usage: say SEAT TEXT..." in out and "usage: act SEAT SKILL" in out
    assert c.table.log().to_json() == before


def test_spectate_shows_public_information_only() -> None:
    c = console("werewolf", 9, seed=2, bots=True)
    c.handle("auto")
    c.handle("end")
    start = len(text(c))
    c.handle("spectate")
    shown = text(c)[start:]
    assert "a spectator sees" in shown
    assert set(role_cells(shown).values()) == {"?"} and len(role_cells(shown)) == 9
    assert "protect" not in shown.lower()  # the guard's choice is the guard's
    c.handle("run")
    start = len(text(c))
    c.handle("spectate")
    roles = role_cells(text(c)[start:])
    assert "Werewolf" in roles.values() and "?" not in roles.values()  # every card is public at the end


def test_a_player_console_prints_exactly_what_its_seat_was_pushed() -> None:
    seat = _villager_seat(2)
    c = console("werewolf", 9, seed=2, human=seat)
    pushed: list[str] = []
    c.table.subscribe(seat, lambda n: pushed.extend(f"  {line}" for line in c.news(n.events, n.chat)))
    for _ in range(40):
        if c.table.over:
            break
        c.handle("pass")
    assert pushed
    printed = iter(text(c).splitlines())
    assert all(any(line == p for line in printed) for p in pushed), "every pushed line is printed, in order"


def test_tables_the_console_opens_have_random_ids() -> None:
    a, b = console("werewolf", 9, seed=5), console("werewolf", 9, seed=5)
    assert a.table.id != b.table.id and "5" not in a.table.id.split("-", 1)[0]
    assert a.table.log().header.seed == b.table.log().header.seed == 5


# ---------------------------------------------------------------------- player mode


def _villager_seat(seed: int) -> str:
    table = Table.open(definition("werewolf"), 9, seed=seed)
    return next(p.id for p in table.inspect().all_players() if p.role == "VILLAGER")


def test_player_mode_keeps_secrets() -> None:
    seed = 2
    seat = _villager_seat(seed)
    c = console("werewolf", 9, seed=seed, human=seat)
    other = next(s for s in c.table.seats if s != seat)
    for line in (f"view {other}", "god", "log", "pending", "run", "reveal"):
        c.handle(line)
    out = text(c)
    assert "you may only look at your own seat" in out
    assert out.count("that is the host's command") == 4
    assert "roles are revealed at the end of the game" in out
    roles = role_cells(out)
    assert roles == {s: ("Villager" if s == seat else "?") for s in c.table.seats}
    for _ in range(200):
        if c.table.over:
            break
        me = c.table.view(seat).me
        skills = me.allowed_skills if me else ()
        if skills:
            target = next(p.seat for p in c.table.view(seat).players if p.alive and p.seat != seat)
            c.handle(f"act {skills[0]} {'' if skills[0] == hr.SKIP else target}".strip())
        else:
            c.handle("pass")
    assert c.table.over
    out = text(c)
    during = out[: out.index("game over")]
    # No line another seat saw (a seer's check, the wolves' kill, the guard's protection) reached this seat.
    mine = set(c.news(c.table.view(seat).events, ()))
    secret = {
        line
        for s in c.table.seats
        for e in c.table.view(s).events
        for line in (
            c.words.describe(kernel_event(e), None),
            c.words.describe(kernel_event(e), player_view(c.table.view(s))),
        )
        if line is not None and line not in mine
    }
    assert secret, "the game should have had private events"
    for line in secret:
        assert f"  {line}\n" not in during, line
    assert set(role_cells(during).values()) <= {"?", "Villager"}
    assert not re.search(r"\b(Seer|Witch|Guard|Werewolf)\b", during)


def test_unknown_seat_game_or_option_is_refused() -> None:
    with pytest.raises(hr.GameError):
        console("werewolf", 9, human="p99")
    with pytest.raises(hr.GameError):
        console("chess", 2)
    with pytest.raises(SystemExit):
        run(["chess"])


# ---------------------------------------------------------------------- options


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        (["werewolf", "--option", "wolves=9"], "'wolves'"),
        (["werewolf", "--option", "nope=1"], "'nope'"),
        (["werewolf", "--option", "witch=perhaps"], "'witch'"),
        (["werewolf", "--option", "composition=custom", "--option", "wolves=5"], "'wolves'"),
        (["werewolf", "--option", "wolves=1"], "'wolves' has no effect unless composition=custom"),
        (["werewolf", "--option", "witch=false"], "'witch' has no effect unless composition=custom"),
        (["onenight", "--option", "robber=false"], "'robber' has no effect unless deck=custom"),
        (["werewolf", "--human", "p3", "--bots", "heuristic", "--option", "seer=false"], "'seer'"),
        (["werewolf", "--option", "oops"], "KEY=VALUE"),
        (["missions", "--variant", "chess"], "'variant'"),
        (["missions", "--players", "5", "--option", "mordred=true", "--variant", "resistance"], "'mordred'"),
        (["race", "--option", "target=5"], "'target'"),
        (["werewolf", "--players", "3"], "3"),
        (["werewolf", "--human", "p99"], "p99"),
    ],
)
def test_bad_options_and_seats_are_refused_naming_the_culprit(argv: list[str], named: str) -> None:
    code, out, err = run([*argv, "--bots"])
    assert code != 0
    assert named in err and err.startswith(f"cannot set up {argv[0]}:")
    assert out == ""


def test_variant_is_a_shorthand_for_the_missions_variant_option() -> None:
    c = console("missions", 5, options={"variant": "resistance"})
    assert c.table.options["variant"] == "resistance"
    code, out, _ = run(["missions", "--players", "5", "--variant", "resistance", "--bots"])
    assert code == 0 and "MS_ASSASSIN" not in out and "game over" in out


def test_list_options_prints_the_definition(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["race", "--list-options"])
    assert code == 0
    assert "target=20  (10..100)" in out and "track=short  (short|long)" in out
    assert "statistics: rounds (table), position (seat)" in out


# ---------------------------------------------------------------------- undo and turns


def test_undo_takes_back_a_move_where_the_game_allows_it() -> None:
    c = console("redblue", 5, seed=1)
    before = without_version(c.table.view(None))
    seat_view = without_version(c.table.view("p1"))
    c.handle("act p1 VOTE p2")
    assert c.table.view("p1").me is not None
    c.handle("undo")
    assert "ok #2: the last standing move is taken back" in text(c)
    assert [m.kind for m in c.table.moves()] == [ACT, "undo"]
    assert without_version(c.table.view(None)) == before
    assert without_version(c.table.view("p1")) == seat_view
    c.handle("act p1 VOTE p2")
    c.handle("undo p2")  # a seat takes back only its own move: p2 has none
    assert "refused: UNDO_REFUSED: there is no move to take back" in text(c)


def test_undo_is_refused_after_chance_in_the_race_and_where_the_game_forbids_it() -> None:
    c = console("race", 3, seed=1)
    c.handle("act p1 taunt p2")
    c.handle("undo p1")  # everyone saw the taunt
    assert "refused: UNDO_REFUSED: the last move has taken effect" in text(c)
    c.handle("act p1 roll")
    before = c.table.log().to_json()
    c.handle("undo")
    assert "refused: UNDO_REFUSED: the last move drew at random" in text(c)
    assert c.table.log().to_json() == before
    w = console("werewolf", 9)
    w.handle("auto")
    w.handle("undo")
    assert "refused: UNDO_REFUSED" in text(w)


def test_a_player_cannot_undo_a_vote_once_the_round_is_resolved() -> None:
    c = console("redblue", 6, seed=1, human="p1")
    c.handle("act vote p2")  # the bots vote too, the round resolves and everyone sees who is out
    assert c.table.status().round == 2 or c.table.over
    moves = c.table.moves()
    c.handle("undo")
    assert "refused: UNDO_REFUSED" in text(c) and c.table.moves() == moves
    assert "ok #" not in text(c)  # a player is never shown the table's move count


def test_end_turn_is_a_move_for_the_seat_with_the_turn() -> None:
    c = console("race", 3, seed=1)
    c.handle("end-turn p2")
    c.handle("end-turn p1")
    out = text(c)
    assert "refused: NOT_YOUR_TURN: it is p1's turn" in out
    assert "refused: MOVE_REFUSED: a racer ends a turn by rolling" in out
    assert c.table.seq == 0


def test_end_turn_cuts_a_speaker_in_werewolfs_ordered_day() -> None:
    if not any(o.name == "ordered-day" for o in definition("werewolf").options):
        pytest.skip("werewolf has no ordered day yet")
    c = console("werewolf", 9, seed=1, options={"ordered-day": "true"})
    for _ in range(20):
        if c.table.status().phase == "DAY":
            break
        c.handle("auto")
        c.handle("end")
    speaker = c.table.view(None).turn
    assert speaker
    c.handle(f"end-turn {speaker}")
    assert c.table.moves()[-1].kind == "end-turn"
    assert c.table.view(None).turn != speaker
    assert f"{speaker} ran out of time; the floor passes on." in text(c)


# ---------------------------------------------------------------------- save, load, verify


def test_save_writes_the_log_and_load_replays_it_exactly(tmp_path: Path) -> None:
    c = console("werewolf", 9, seed=7, options={"victory-mode": "town-wipe"})
    for line in ("auto", "end", "auto", "say p1 hello", "end", "auto"):
        c.handle(line)
    path = tmp_path / "table.json"
    c.handle(f"save {path}")
    saved = c.table.log().to_json()
    assert path.read_bytes() == saved
    assert json.loads(saved)["header"]["options"]["victory-mode"] == "town-wipe"
    other = console("werewolf", 9, seed=99)
    other.handle(f"load {path}")
    assert "loaded" in text(other)
    assert other.table.log().to_json() == saved
    assert views(other.table) == views(c.table)
    other.handle("run")
    assert other.table.over
    assert [m.kind for m in other.table.moves()][: c.table.seq] == [m.kind for m in c.table.moves()]


def test_a_race_saved_mid_game_replays_its_dice(tmp_path: Path) -> None:
    c = console("race", 3, seed=11, bots=True)
    for _ in range(3):
        c.handle("auto")
    path = tmp_path / "race.json"
    c.handle(f"save {path}")
    again = console("race", 3, seed=1)
    again.handle(f"load {path}")
    assert views(again.table) == views(c.table)
    # A player's console replays the same log, then the bots play on up to the player's turn.
    player = console("race", 3, seed=1, human="p3")
    player.handle(f"load {path}")
    assert player.table.moves()[: c.table.seq] == c.table.moves()
    assert player.table.view("p3").turn == "p3"
    code, out, _ = run(["race", "--load", str(path), "--bots"])
    assert code == 0 and "game over" in out


def test_load_refuses_another_game_or_rules_version_and_keeps_the_table(tmp_path: Path) -> None:
    race = console("race", 3, seed=1)
    race.handle("act p1 roll")
    path = tmp_path / "race.json"
    race.handle(f"save {path}")
    w = console("werewolf", 9)
    before = w.table.log().to_json()
    w.handle(f"load {path}")
    assert "cannot load" in text(w) and "RULES_MISMATCH" in text(w) and "'race'" in text(w)
    assert w.table.log().to_json() == before
    doc = json.loads(path.read_bytes())
    doc["header"]["version"] = "0-old"
    old = tmp_path / "old.json"
    old.write_text(json.dumps(doc))
    race.handle(f"load {old}")
    assert "RULES_MISMATCH" in text(race) and "'0-old'" in text(race)
    bad = tmp_path / "bad.json"
    bad.write_text("{nope")
    race.handle(f"load {bad}")
    race.handle(f"load {tmp_path / 'missing.json'}")
    snapshot = tmp_path / "snapshot.json"
    snapshot.write_text(json.dumps({"format": "hiddenrole-console/1", "setup": {}, "snapshot": {}}))
    race.handle(f"load {snapshot}")
    assert "an old console snapshot" in text(race)
    assert text(race).count("cannot load") == 4
    assert race.table.seq == 1


def test_verify_rechecks_the_log_and_catches_a_tampered_end(tmp_path: Path) -> None:
    c = console("redblue", 5, seed=2, bots=True)
    c.handle("run")
    c.handle("verify")
    assert "verified: the redblue log of" in text(c)
    path = tmp_path / "t.json"
    c.handle(f"save {path}")
    doc = json.loads(path.read_bytes())
    doc["end"]["digest"] = "0" * 64
    path.write_text(json.dumps(doc))
    c.handle(f"verify {path}")
    assert "verify failed: LOG_MISMATCH" in text(c)


def test_outcome_before_and_after_the_end() -> None:
    c = console("race", 2, seed=3, bots=True)
    c.handle("outcome")
    assert "no outcome yet" in text(c)
    c.handle("run")
    start = len(text(c))
    c.handle("outcome")
    shown = text(c)[start:]
    assert "ending: finish-line" in shown and "statistics: rounds" in shown and "position" in shown


def test_cli_entry_points(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["demo"]) == 0
    assert "winners" in capsys.readouterr().out
    assert cli_main(["play", "race", "--players", "3", "--bots"]) == 0
    assert "ending: finish-line" in capsys.readouterr().out


def test_a_cancelled_event_is_shown_as_cancelled() -> None:
    c = console("werewolf", 9, seed=1)
    table = c.table
    wolves = [p.id for p in table.inspect().all_players() if p.role == "WEREWOLF"]
    c.handle("end")  # the guard sleeps
    others = [s for s in table.seats if s not in wolves]
    for wolf, victim in zip(wolves, others, strict=False):  # every wolf a different victim: a tie
        c.handle(f"act {wolf} KILL {victim}")
    c.handle("end")
    assert "The werewolves' vote is split: no kill tonight" in text(c)
