"""What the console needs to know about each game: how to build it and reveal it.

Each entry adapts one rules package. A later host layer (game definitions with
options and statistics) will replace these adapters.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import hiddenrole as hr
from hiddenrole.agents import TargetChooser

__all__ = ["GAMES", "GameEntry", "Setup", "role_reveal"]


@dataclass(frozen=True)
class Setup:
    """Everything needed to rebuild the same table: the console saves it with the snapshot."""

    game: str
    players: int
    seed: int
    options: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class GameEntry:
    """One playable game."""

    name: str
    summary: str
    default_players: int
    rules: Callable[[Setup], hr.Rules]
    seat: Callable[[Setup, hr.Engine], None]
    choose_targets: TargetChooser | None = None
    reveal: Callable[[hr.Engine], list[str]] | None = None


def role_reveal(engine: hr.Engine) -> list[str]:
    """Default end-of-game reveal: each player's role and fate."""
    lines = []
    for pid in engine.player_ids():
        info = engine.player_info(pid)
        fate = "alive" if info.alive else "out"
        lines.append(f"{pid}: {info.role} ({fate})")
    return lines


def _redblue_rules(setup: Setup) -> hr.Rules:
    from hiddenrole.games import redblue

    return redblue.rules()


def _redblue_seat(setup: Setup, engine: hr.Engine) -> None:
    import random

    from hiddenrole.games import redblue

    roles = [redblue.RED] * (setup.players // 2) + [redblue.BLUE] * (setup.players - setup.players // 2)
    random.Random(setup.seed).shuffle(roles)
    for i, role in enumerate(roles):
        engine.add_player(f"p{i:02d}", role)


def _missions_rules(setup: Setup) -> hr.Rules:
    from hiddenrole.games import missions

    return missions.rules()


def _missions_seat(setup: Setup, engine: hr.Engine) -> None:
    from hiddenrole.games import missions

    variant = setup.options.get("variant", missions.AVALON)
    roles = [r for r in setup.options.get("roles", "").split(",") if r]
    for pid, role in missions.deal(missions.composition(variant, setup.players, roles), setup.seed):
        engine.add_player(pid, role)


def _missions_targets(view: hr.PlayerView, step: hr.PhaseStep, rng: random.Random) -> tuple[str, ...] | None:
    from hiddenrole.games import missions

    if step.skill != missions.NOMINATE:
        return None
    living = sorted(p.id for p in view.players if p.alive)
    return tuple(rng.sample(living, missions.team_size(view)))


def _missions_reveal(engine: hr.Engine) -> list[str]:
    from hiddenrole.games import missions

    board = missions.scoreboard(engine.view())
    return [
        f"missions: {board.get('results', '')} (rejections in a row: {board.get('rejects', '0')})",
        *role_reveal(engine),
    ]


def _onenight_deck(setup: Setup) -> tuple[str, ...]:
    from hiddenrole.games import onenight

    raw = [c.strip().upper() for c in setup.options.get("deck", "").split(",") if c.strip()]
    if not raw:
        return onenight.default_deck(setup.players)
    return tuple(c if c.startswith("ON_") else f"ON_{c}" for c in raw)


def _onenight_rules(setup: Setup) -> hr.Rules:
    from hiddenrole.games import onenight

    return onenight.rules_for(_onenight_deck(setup), setup.players, setup.seed)


def _onenight_seat(setup: Setup, engine: hr.Engine) -> None:
    from hiddenrole.games import onenight

    for pid, role in onenight.deal(_onenight_deck(setup), setup.players, setup.seed).seats:
        engine.add_player(pid, role)


def _onenight_reveal(engine: hr.Engine) -> list[str]:
    from hiddenrole.games import onenight

    return onenight.reveal_lines(engine)


_TRUE = {"1", "true", "yes", "on"}


def _werewolf_parts(setup: Setup) -> tuple[object, tuple[object, ...], tuple[str, ...]]:
    """Switches, extensions and cards from console options (see the werewolf entry's summary)."""
    import dataclasses

    from hiddenrole.games import werewolf as ww
    from hiddenrole.games.werewolf import idiot, wolfking

    known = {f.name: f for f in dataclasses.fields(ww.Switches)}
    values: dict[str, object] = {}
    for key, raw in sorted(setup.options.items()):
        if key in known:
            values[key] = raw.lower() in _TRUE if known[key].type in (bool, "bool") else raw.upper()
    exts = [e for e in setup.options.get("extensions", "").split(",") if e]
    table = {"idiot": idiot.EXTENSION, "wolfking": wolfking.EXTENSION}
    unknown = [e for e in exts if e not in table]
    if unknown:
        raise hr.InvalidConfig(f"unknown werewolf extension {unknown[0]!r}; choose from idiot, wolfking")
    cards = [c.strip().upper() for c in setup.options.get("cards", "").split(",") if c.strip()]
    if not cards:
        cards = list(ww.board(setup.players))
        if "idiot" in exts:
            cards[cards.index(ww.VILLAGER)] = idiot.IDIOT
        if "wolfking" in exts:
            cards[cards.index(ww.WEREWOLF)] = wolfking.WOLF_KING
    return ww.Switches(**values), tuple(table[e] for e in exts), tuple(cards)  # type: ignore[arg-type]


def _werewolf_rules(setup: Setup) -> hr.Rules:
    from hiddenrole.games import werewolf as ww

    switches, exts, _ = _werewolf_parts(setup)
    return ww.rules(switches, extensions=exts)  # type: ignore[arg-type]


def _werewolf_seat(setup: Setup, engine: hr.Engine) -> None:
    from hiddenrole.games import werewolf as ww

    _, _, cards = _werewolf_parts(setup)
    for pid, role in ww.deal(cards, setup.seed).items():
        engine.add_player(pid, role)


GAMES: dict[str, GameEntry] = {
    "redblue": GameEntry(
        "redblue",
        "red against blue, one public vote per round",
        4,
        _redblue_rules,
        _redblue_seat,
    ),
    "werewolf": GameEntry(
        "werewolf",
        "Werewolf, Chinese table rules (options: any switch, e.g. victory_mode=TOWN_WIPE, "
        "witch_can_save_self=true; extensions=idiot,wolfking; cards=WEREWOLF,SEER,...)",
        9,
        _werewolf_rules,
        _werewolf_seat,
    ),
    "missions": GameEntry(
        "missions",
        "The Resistance / Avalon (options: variant=avalon|resistance, roles=percival,morgana,...)",
        7,
        _missions_rules,
        _missions_seat,
        _missions_targets,
        _missions_reveal,
    ),
    "onenight": GameEntry(
        "onenight",
        "One Night Ultimate Werewolf (option: deck=werewolf,werewolf,seer,... players + 3 cards)",
        6,
        _onenight_rules,
        _onenight_seat,
        None,
        _onenight_reveal,
    ),
}
"""Playable games by name (rules packages register here)."""
