"""X1 the idiot (an interceptor), X2 the wolf king (data only); public-API discipline."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import hiddenrole as hr
from hiddenrole.games import werewolf as ww
from hiddenrole.games.werewolf import idiot, wolfking

from .helpers import killed, table, until, vote_all

PACKAGE = Path(ww.__file__).parent

#: p00 p01 wolves, p02 seer, p03 witch, p04 guard, p05 hunter, p06 idiot, p07 villager
WITH_IDIOT = (ww.WEREWOLF, ww.WEREWOLF, ww.SEER, ww.WITCH, ww.GUARD, ww.HUNTER, idiot.IDIOT, ww.VILLAGER)
#: p00 wolf king, p01 wolf, then as above with a villager at p06
WITH_KING = (wolfking.WOLF_KING, ww.WEREWOLF, ww.SEER, ww.WITCH, ww.GUARD, ww.HUNTER, ww.VILLAGER, ww.VILLAGER)


def idiot_table() -> hr.Engine:
    return table(*WITH_IDIOT, extensions=(idiot.EXTENSION,))


def king_table(ext: ww.Extension = wolfking.EXTENSION) -> hr.Engine:
    return table(*WITH_KING, extensions=(ext,))


# ---------------------------------------------------------------- X1 idiot


def test_X1_idiot_voted_out_is_revealed_and_survives() -> None:
    engine = idiot_table()
    assert engine.rules.version == "1+idiot"
    assert engine.player_info("p06").vars[ww.VAR_CAMP] == ww.GOOD
    until(engine, ww.VOTE)
    vote_all(engine, "p06")
    effects = engine.end_phase()
    public = [(e.type, e.target) for e in effects if not e.is_internal]
    assert public == [(ww.ELIMINATE, "p06"), (idiot.IDIOT_REVEALED, "p06")]
    assert killed(effects) == []
    assert engine.player_info("p06").alive
    (revealed,) = [e for e in effects if e.type == idiot.IDIOT_REVEALED]
    assert engine.audience_of(revealed) == engine.player_ids()
    # no last action for the living: straight on to the next night
    assert engine.status() == hr.Status(ww.NIGHT_GUARD, 2, False, ())
    assert engine.var(hr.GAME.of("p06"), ww.VAR_DEATH_CAUSE) == ""
    assert engine.var(hr.GAME.of("p06"), idiot.VAR_REVEALED) == hr.VAR_PRESENT
    cancelled = [e for e in effects if e.canceled]
    assert {e.type for e in cancelled} == {hr.SET_ALIVE, hr.SET_VAR, hr.DETOUR}
    assert all(e.reason == "replaced by an interceptor" for e in cancelled)


def test_X1_a_revealed_idiot_loses_the_vote() -> None:
    engine = idiot_table()
    until(engine, ww.VOTE)
    vote_all(engine, "p06")
    engine.end_phase()
    until(engine, ww.VOTE)
    assert engine.allowed_skills("p06") == ()
    with pytest.raises(hr.SkillNotAllowed):
        engine.submit("p06", ww.VOTE, ["p00"])
    assert "p06" not in [p.player_id for p in engine.readiness().pending]
    assert engine.allowed_skills("p07") == (ww.VOTE,)


def test_X1_the_second_exile_and_night_deaths_are_ordinary() -> None:
    engine = idiot_table()
    until(engine, ww.VOTE)
    vote_all(engine, "p06")
    engine.end_phase()
    until(engine, ww.VOTE)
    vote_all(engine, "p06")
    effects = engine.end_phase()
    assert killed(effects) == ["p06"] and engine.status().phase == ww.DAY_LAST_ACTION

    night = idiot_table()
    until(night, ww.NIGHT_WOLF)
    night.submit("p00", ww.KILL, ["p06"])
    assert killed(until(night, ww.DAY)) == ["p06"]


def test_X1_only_the_vote_triggers_the_reveal() -> None:
    engine = idiot_table()
    until(engine, ww.VOTE)
    vote_all(engine, "p05")  # the hunter goes, then shoots the idiot
    engine.end_phase()
    engine.submit("p05", ww.SHOOT, ["p06"])
    assert killed(engine.end_phase()) == ["p06"]
    assert engine.var(hr.GAME.of("p06"), idiot.VAR_REVEALED) == ""


def test_X1_the_revealed_card_survives_save_restore_and_replay() -> None:
    engine = idiot_table()
    until(engine, ww.VOTE)
    vote_all(engine, "p06")
    engine.end_phase()
    rules = ww.rules(extensions=(idiot.EXTENSION,))
    again = hr.Engine.restore(rules, engine.snapshot().to_json())
    assert again.var(hr.GAME.of("p06"), idiot.VAR_REVEALED) == hr.VAR_PRESENT
    replayed = hr.Engine.replay(rules, engine.log().to_json())
    assert replayed.snapshot().to_json() == engine.snapshot().to_json()
    with pytest.raises(hr.RulesMismatch):
        hr.Engine.restore(ww.rules(), engine.snapshot().to_json())


def test_X1_idiot_board_swaps_a_villager() -> None:
    cards = idiot.board(9)
    assert cards.count(idiot.IDIOT) == 1 and cards.count(ww.VILLAGER) == ww.board(9).count(ww.VILLAGER) - 1
    ww.new_game(cards, seed=1, extensions=(idiot.EXTENSION,))


# ---------------------------------------------------------------- X2 wolf king


def test_X2_wolf_king_is_a_wolf() -> None:
    engine = king_table()
    assert engine.rules.version == "1+wolfking"
    assert engine.teammates("p00") == ("p01",) and engine.teammates("p01") == ("p00",)
    until(engine, ww.NIGHT_WOLF)
    assert engine.allowed_skills("p00") == (ww.KILL,)
    assert sorted(p.player_id for p in engine.readiness().pending) == ["p00", "p01"]
    assert engine.message_receivers("p00") == ("p00", "p01")
    engine.submit("p00", ww.KILL, ["p06"])
    engine.submit("p01", ww.KILL, ["p06"])
    engine.end_phase()
    until(engine, ww.NIGHT_SEER)
    engine.submit("p02", ww.CHECK, ["p00"])
    (check,) = [e for e in engine.end_phase() if e.type == ww.CHECK]
    assert check.data["camp"] == ww.EVIL


def test_X2_wolf_king_shoots_when_voted_out_and_shots_chain() -> None:
    engine = king_table()
    until(engine, ww.VOTE)
    vote_all(engine, "p00")
    engine.end_phase()
    assert engine.status().phase == ww.DAY_LAST_ACTION
    assert engine.allowed_skills("p00") == (ww.SHOOT, ww.SKIP)
    assert engine.player_view("p00").role_info == {ww.INFO_CAN_SHOOT: "yes"}
    engine.submit("p00", ww.SHOOT, ["p05"])
    effects = engine.end_phase()
    assert killed(effects) == ["p05"]
    assert engine.allowed_skills("p05") == (ww.SHOOT, ww.SKIP)  # the hunter answers
    engine.submit("p05", ww.SHOOT, ["p01"])
    engine.end_phase()
    engine.end_phase()  # p01's last action
    assert engine.status() == hr.Status(hr.END, 2, True, (ww.GOOD,))


def test_X2_a_poisoned_wolf_king_does_not_shoot() -> None:
    engine = king_table()
    until(engine, ww.NIGHT_WITCH)
    engine.submit("p03", ww.POISON, ["p00"])
    until(engine, ww.NIGHT_LAST_ACTION)
    assert engine.allowed_skills("p00") == (ww.SKIP,)
    with pytest.raises(hr.SkillNotAllowed, match="no shot after this death"):
        engine.submit("p00", ww.SHOOT, ["p02"])
    effects = engine.end_phase()
    assert killed(effects) == [] and not any(e.type == ww.SHOOT for e in effects)


def test_X2_a_table_may_arm_the_wolf_king_only_when_exiled() -> None:
    exiled_only = wolfking.extension(shoots_after=(ww.VOTE,))
    engine = king_table(exiled_only)
    until(engine, ww.NIGHT_WOLF)
    engine.submit("p00", ww.KILL, ["p00"])
    engine.submit("p01", ww.KILL, ["p00"])
    until(engine, ww.NIGHT_LAST_ACTION)
    assert engine.player_view("p00").role_info == {ww.INFO_CAN_SHOOT: "no"}
    assert ww.SHOOT not in engine.allowed_skills("p00")
    with pytest.raises(hr.SkillNotAllowed, match="no shot after this death"):
        engine.submit("p00", ww.SHOOT, ["p02"])
    assert killed(engine.end_phase()) == []


def test_X2_wolfking_board_swaps_a_wolf_and_both_extensions_combine() -> None:
    cards = wolfking.board(12)
    assert cards.count(wolfking.WOLF_KING) == 1 and cards.count(ww.WEREWOLF) == 3
    rules = ww.rules(extensions=(idiot.EXTENSION, wolfking.EXTENSION))
    assert rules.version == "1+idiot+wolfking"
    with pytest.raises(hr.InvalidConfig):
        ww.rules(extensions=(idiot.EXTENSION, idiot.EXTENSION))


# ---------------------------------------------------------------- public API only


def _imports_and_attributes(path: Path) -> tuple[list[str], dict[str, set[str]]]:
    tree = ast.parse(path.read_text())
    imports: list[str] = []
    aliases: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                imports.append(a.name)
                aliases[a.asname or a.name] = a.name
        elif isinstance(node, ast.ImportFrom):
            mod = "." * node.level + (node.module or "")
            for a in node.names:
                imports.append(f"{mod}:{a.name}")
                aliases[a.asname or a.name] = f"{mod}.{a.name}"
    used: dict[str, set[str]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in aliases:
            used.setdefault(aliases[node.value.id], set()).add(node.attr)
    return imports, used


@pytest.mark.parametrize("path", sorted(PACKAGE.glob("*.py")), ids=lambda p: p.name)
def test_the_package_uses_only_public_kernel_names(path: Path) -> None:
    imports, used = _imports_and_attributes(path)
    for name in imports:
        mod = name.split(":")[0]
        assert (
            not mod.startswith("hiddenrole.")
            or mod in ("hiddenrole.games", "hiddenrole.gamedef")
            or mod.startswith("hiddenrole.games.werewolf")
        ), f"{path.name} imports private module {name}"
        assert mod != "hiddenrole" or name == "hiddenrole", f"{path.name}: use 'import hiddenrole as hr', not {name}"
    assert used.get("hiddenrole", set()) <= set(hr.__all__), sorted(used.get("hiddenrole", set()) - set(hr.__all__))


@pytest.mark.parametrize("name", ["idiot.py", "wolfking.py"])
def test_extensions_use_only_public_werewolf_names(name: str) -> None:
    imports, used = _imports_and_attributes(PACKAGE / name)
    assert not [i for i in imports if i.startswith(".")], "extensions import the package, not its modules"
    assert "hiddenrole.games:werewolf" in imports
    assert used["hiddenrole.games.werewolf"] <= set(ww.__all__)
