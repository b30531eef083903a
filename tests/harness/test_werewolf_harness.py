"""Invariants A-H over random werewolf games (issue 3: at least 2000 games in CI).

Three families of tables, each on boards of 6 to 12 players:

* ``werewolf``: the default switches, the six core roles;
* ``werewolf-house``: every switch drawn at random per game, each one (``TOWN_WIPE``,
  announced death causes and the ordered day included) away from its default two
  times in three;
* ``werewolf-ext``: the idiot and/or the wolf king on top, under default or random
  switches;
* ``werewolf-bids``: a small chunk with the day bid for (``bid_for_floor``, R27), the
  other switches at random. The house family leaves the discussion-mode fields
  (:data:`OWN_FAMILY`) alone, so its games are what they were before that switch.

A bid for the floor is private and declared nowhere: who takes the floor is public,
and it must follow from the bids and the seats alone.

What the table makes public on purpose is declared from the ruleset itself:
:func:`werewolf.disclosing_events` (the seer's check, the end of the game), each
extension's ``reveals`` (the idiot's flipped card) and, for the disclosure switch
``announce_death_causes``, the ``causes`` the dawn announcement then carries.
Everything else a seat receives must be the same in two deals it cannot tell apart.

Play is random with a few nudges (:func:`nudge`) towards rare mechanisms, so that
every chunk reaches the labels it must see on its own.
"""

from __future__ import annotations

import dataclasses
import functools
import random
from collections.abc import Callable, Iterator, Sequence

import pytest

import hiddenrole as hr
from hiddenrole import enginetest as et
from hiddenrole.games import werewolf as ww
from hiddenrole.games.werewolf import idiot, wolfking
from hiddenrole.games.werewolf.resolution import (
    BOTH_POTIONS,
    GUN_JAMMED,
    SELF_SAVE,
    WOLVES_TIED,
)

from .support import (
    Chunk,
    chunks,
    ended_labels,
    planted_leak_found,
    policy,
    refusal_labels,
    run_chunk,
    with_planted_leak,
)

CORE_ROLES = tuple(spec.role for spec in ww.CORE_ROLES)
EXTENSIONS = (idiot.EXTENSION, wolfking.EXTENSION)
ALL_ROLES = (*CORE_ROLES, idiot.IDIOT, wolfking.WOLF_KING)

DAWN_CAUSES_KEY = "causes"
"""The DAWN data key that ``announce_death_causes`` adds (the ruleset exports no constant for it)."""

ABSTAIN = 0.1
"""Chance that a seat lets a phase pass: unused potions, silent guards, missing ballots."""
AGAIN = 0.5
"""Chance that a seat submits a second time (both potions in one night; only first votes count)."""
AIMED_ANTIDOTE = 0.8
"""Chance that the witch aims her antidote at the victim her role info shows (else: anyone)."""
HUNT_GUARDED = 0.4
"""Chance that a wolf votes for tonight's guarded player (the night matrix) instead of anyone."""
HUNT_SPECIALS = 0.3
"""Chance that a wolf votes for the witch or an armed player instead of anyone."""
POISON_ARMED = 0.3
"""Chance that the witch poisons an armed player (to jam a gun) instead of anyone."""
HOUSE_FLIP = 2 / 3
"""Chance that a house table flips a switch from its default."""
MAX_STEPS = 200
"""Phases per game; random games end well before (about 40 on average, the longest seen 115)."""
H_MAX_STEPS = 60
"""Phases per game of the leak check (H), about eight rounds. There every seat outside the viewer's
side abstains, so most of these games stall (nobody dies) and would run to ``MAX_STEPS``, repeating
the same rounds; 60 is half as much again as an average random game."""


# ---------------------------------------------------------------- tables


@functools.cache
def _rules(switches: ww.Switches, extensions: tuple[ww.Extension, ...]) -> hr.Rules:
    """One Rules value per table: the engine compiles each value once, so reuse it across games."""
    return ww.rules(switches, extensions=extensions)


OWN_FAMILY = ("bid_for_floor", "floor_turns")
"""Switches the house family keeps at their defaults: ``werewolf-bids`` plays them."""
FLOOR_TURNS = (1, 4)
"""Speaking turns per day at the ``werewolf-bids`` tables (few, so the vote comes soon)."""


def _random_switches(rng: random.Random) -> ww.Switches:
    """Every switch at random: each one away from its default with probability ``HOUSE_FLIP``.

    Read from the dataclass, so a switch added to the ruleset is flipped here too, unless
    it is one of :data:`OWN_FAMILY` (which draw nothing, keeping the house games as they were).
    """
    default = ww.Switches()
    values: dict[str, object] = {}
    for f in dataclasses.fields(ww.Switches):
        if f.name in OWN_FAMILY:
            continue
        flip = rng.random() < HOUSE_FLIP
        if f.name == "victory_mode":
            values[f.name] = ww.TOWN_WIPE if flip else ww.SIDE_WIPE
        else:
            values[f.name] = getattr(default, f.name) != flip
    return ww.Switches(**values)  # type: ignore[arg-type]


def _cards(players: int, extensions: Sequence[ww.Extension]) -> list[str]:
    """The preset board; the idiot replaces a villager, the wolf king a werewolf."""
    cards = list(ww.board(players))
    if idiot.EXTENSION in extensions:
        cards[cards.index(ww.VILLAGER)] = idiot.IDIOT
    if wolfking.EXTENSION in extensions:
        cards[cards.index(ww.WEREWOLF)] = wolfking.WOLF_KING
    return cards


def _game(rng: random.Random, switches: ww.Switches, extensions: tuple[ww.Extension, ...]) -> et.Game:
    players = rng.randint(ww.MIN_PLAYERS, ww.MAX_PLAYERS)
    return et.Game(_rules(switches, extensions), et.deal(rng, _cards(players, extensions)))


def setup_default(rng: random.Random) -> et.Game:
    return _game(rng, ww.Switches(), ())


def setup_house(rng: random.Random) -> et.Game:
    return _game(rng, _random_switches(rng), ())


def setup_bids(rng: random.Random) -> et.Game:
    """R27: the day bid for, under otherwise random house rules (the ordered day is the other mode)."""
    switches = dataclasses.replace(
        _random_switches(rng), ordered_day=False, bid_for_floor=True, floor_turns=rng.randint(*FLOOR_TURNS)
    )
    return _game(rng, switches, ())


def setup_extensions(rng: random.Random) -> et.Game:
    extensions = rng.choice(((idiot.EXTENSION,), (wolfking.EXTENSION,), EXTENSIONS))
    switches = _random_switches(rng) if rng.random() < 0.5 else ww.Switches()
    return _game(rng, switches, extensions)


# ---------------------------------------------------------------- public on purpose


SEER_LEARNS = frozenset({"camp", "good"})
"""The data keys of the seer's CHECK event (resolution.resolve_seer)."""


def declarations(extensions: Sequence[ww.Extension], *, disclosure_switches: bool) -> tuple[et.Public, ...]:
    """What the ruleset says it reveals by design, each under the name of what reveals it."""
    assert ww.CHECK in ww.disclosing_events()
    out = [
        # The end of the game reveals everything to everyone.
        et.Public("werewolf.disclosing_events() but CHECK", event_types=ww.disclosing_events() - {ww.CHECK}),
        # R8: the seer's check discloses the target's camp and nothing more. Declaring only these data
        # keys (not the whole CHECK event) lets H catch a check that says more, e.g. the role.
        et.Public("R8: the seer learns a camp", data_keys=SEER_LEARNS),
    ]
    for ext in extensions:
        if ext.reveals:
            out.append(et.Public(f"{ext.name} extension: Extension.reveals", event_types=frozenset(ext.reveals)))
    if disclosure_switches:
        assert ww.DISCLOSURE_SWITCHES == ("announce_death_causes",), "declare the new disclosure switch here"
        out.append(et.Public("announce_death_causes", data_keys=frozenset({DAWN_CAUSES_KEY})))
    return tuple(out)


# ---------------------------------------------------------------- play and labels


def _armed(engine: hr.Engine, pid: str) -> bool:
    return bool(engine.player_info(pid).vars.get(ww.VAR_GUN))


def _specials(engine: hr.Engine) -> tuple[list[str], list[str]]:
    """Living players whose death reaches a rare rule: tonight's guarded, and the witch or gun holders."""
    guarded, others = [], []
    for pid in engine.alive_player_ids():
        if engine.var(hr.ROUND.of(pid), ww.VAR_PROTECTED):
            guarded.append(pid)
        elif engine.player_info(pid).role == ww.WITCH or _armed(engine, pid):
            others.append(pid)
    return guarded, others


def nudge(turn: et.Turn, pid: str, skill: hr.SkillType, targets: tuple[str, ...]) -> tuple[str, ...]:
    """Steer some random choices towards rare mechanisms, so every chunk reaches them.

    The wolves often go for a special player (a guarded victim, a witch saving
    herself, a hunter's shot); the witch mostly heals the victim her role info shows
    (a random antidote almost always misses) and sometimes poisons an armed player (a
    jammed gun). Every target stays a living player, so it stays legal.
    """
    engine, rng = turn.engine, turn.rng
    if skill == ww.KILL:
        guarded, others = _specials(engine)
        roll = rng.random()
        if guarded and roll < HUNT_GUARDED:
            return (rng.choice(guarded),)
        if others and roll < HUNT_GUARDED + HUNT_SPECIALS:
            return (rng.choice(others),)
    if skill == ww.ANTIDOTE and rng.random() < AIMED_ANTIDOTE:
        victim = engine.player_view(pid).role_info.get(ww.INFO_KILL_TARGET, "")
        if victim:
            return (victim,)
    if skill == ww.POISON and rng.random() < POISON_ARMED:
        armed = [p for p in engine.alive_player_ids() if p != pid and _armed(engine, p)]
        if armed:
            return (rng.choice(armed),)
    if skill == ww.PROTECT and targets:
        guard = engine.player_info(pid)
        last = (guard.vars.get(ww.VAR_GUARD_LAST_TARGET), guard.vars.get(ww.VAR_GUARD_LAST_ROUND))
        if last == (targets[0], str(engine.status().round - 1)):
            turn.label("guard:repeat-attempt")
    return targets


def _dawn_labels(engine: hr.Engine, dawn: hr.Effect) -> Iterator[str]:
    """Which cell of the night matrix (guarded x saved) the wolves' victim fell in, and the outcome.

    Round variables last until the next night, so they still hold tonight's marks.
    """
    dead = [d for d in dawn.data.get("dead", "").split(",") if d]
    yield f"dawn:{len(dead)}-dead"
    victim = engine.var(hr.ROUND, ww.VAR_KILL_TARGET)
    if not victim or engine.status().over:
        return
    guarded = engine.var(hr.ROUND.of(victim), ww.VAR_PROTECTED) == hr.VAR_PRESENT
    saved = engine.var(hr.ROUND.of(victim), ww.VAR_SAVED) == hr.VAR_PRESENT
    cell = "guarded+saved" if guarded and saved else "guarded" if guarded else "saved" if saved else "open"
    yield f"dawn:{cell}:{'died' if victim in dead else 'lived'}"


def labeler(engine: hr.Engine, effects: tuple[hr.Effect, ...]) -> Iterator[str]:
    """Mechanism labels: shots by role, potions, protections, the night matrix, refusals."""
    yield from refusal_labels(effects)
    yield from ended_labels(effects)
    done = [e for e in effects if not e.canceled]
    for e in done:
        if e.type == ww.SHOOT:
            yield f"shot-by:{engine.player_info(e.source).role}"
        elif e.type == ww.SAVE:
            yield "save:self" if e.source == e.target else "save"
        elif e.type in (ww.POISON, ww.PROTECT):
            yield e.type.lower()
            if e.type == ww.PROTECT and e.source == e.target:
                yield "protect:self"
        elif e.type == ww.DAWN:
            yield from _dawn_labels(engine, e)
        elif e.type == ww.FLOOR_CLOSED:
            yield f"floor:closed:{e.data.get('why', '')}"
    witches = {e.source for e in done if e.type == ww.SAVE} & {e.source for e in done if e.type == ww.POISON}
    if witches:
        yield "potions:both-in-one-night"
    if not engine.status().over:
        yield from _withheld_labels(engine)


def _withheld_labels(engine: hr.Engine) -> Iterator[str]:
    """``withheld:<skill>:<reason>`` for every skill the rules refuse a seat now, and the guard's limits.

    These moves are no longer offered (so never cancelled): reaching the board that
    withholds them is what a chunk must see.
    """
    for r in engine.phase_info().roles.values():
        for refused in r.refused.values():
            for skill, reason in refused.items():
                yield f"withheld:{skill}:{reason}"
        for pid, limits in r.targets.items():
            if ww.PROTECT not in limits:
                continue
            allowed = limits[ww.PROTECT]
            last = engine.player_info(pid).vars.get(ww.VAR_GUARD_LAST_TARGET, "")
            if pid not in allowed:
                yield "withheld:PROTECT:self"
            if last and last != pid and engine.player_info(last).alive and last not in allowed:
                yield "withheld:PROTECT:repeat"


# ---------------------------------------------------------------- the runs

COMMON = (
    "won:GOOD",
    "won:EVIL",
    "shot-by:HUNTER",
    "save",
    "poison",
    "protect",
    "protect:self",
    ww.VOTE_TIED,
    ww.ELIMINATE,
    f"refused:{ww.KILL}:{WOLVES_TIED}",
    f"withheld:{ww.SHOOT}:{GUN_JAMMED}",
    "dawn:0-dead",
    "dawn:2-dead",
    "dawn:guarded:lived",
    "dawn:open:died",
    f"phase:{ww.NIGHT_LAST_ACTION}",
    f"phase:{ww.DAY_LAST_ACTION}",
)
"""Labels every chunk of every family must see."""

DEFAULT_ONLY = (
    f"withheld:{ww.ANTIDOTE}:{SELF_SAVE}",
    f"second-withheld:{BOTH_POTIONS}",
    "withheld:PROTECT:repeat",
    "dawn:guarded+saved:died",
)
HOUSE_ONLY = (
    ww.SPEECH_ENDED,
    "save:self",
    "potions:both-in-one-night",
    "withheld:PROTECT:self",
    "guard:repeat-attempt",
    "dawn:guarded:died",
    "dawn:guarded+saved:lived",
    "dawn:guarded+saved:died",
)
EXTENSION_ONLY = (idiot.IDIOT_REVEALED, f"shot-by:{wolfking.WOLF_KING}")
BIDS_SEE = (
    "won:GOOD",
    "won:EVIL",
    ww.FLOOR,
    ww.SPEECH_ENDED,
    f"floor:closed:{ww.TURNS_USED}",
    f"phase:{ww.DAY_FLOOR}",
    ww.ELIMINATE,
    ww.DAWN,
)
"""The small bids chunk proves the bid-for-the-floor day only (COMMON needs bigger chunks)."""


@dataclasses.dataclass(frozen=True, slots=True)
class Family:
    """One kind of table: how to deal it, whose view H must check, what is public, what must happen."""

    setup: Callable[[random.Random], et.Game]
    viewers: tuple[str, ...]
    public: tuple[et.Public, ...]
    must_see: tuple[str, ...]


FAMILIES = {
    "werewolf": Family(setup_default, CORE_ROLES, declarations((), disclosure_switches=False), COMMON + DEFAULT_ONLY),
    "werewolf-house": Family(setup_house, CORE_ROLES, declarations((), disclosure_switches=True), COMMON + HOUSE_ONLY),
    "werewolf-ext": Family(
        setup_extensions, ALL_ROLES, declarations(EXTENSIONS, disclosure_switches=True), COMMON + EXTENSION_ONLY
    ),
    "werewolf-bids": Family(setup_bids, CORE_ROLES, declarations((), disclosure_switches=True), BIDS_SEE),
}

BIDS_GAMES = 40
"""One small chunk: the bid-for-the-floor day is a discussion mode, the rest is the house family's."""
H_SHARE = 1
"""H runs on one game in ``H_SHARE`` of each chunk (1: every game, as the werewolf issue asks;
H costs about twice A-G, so 2 would halve the run's time)."""
CHUNKS = [
    *chunks("werewolf", 0, 1000, 100, 100 // H_SHARE),
    # The house rules spread the rarest labels over more tables (each switch is off a
    # third of the time), so its chunks are bigger to keep every chunk's must_see safe.
    *chunks("werewolf-house", 100_000, 600, 200, 200 // H_SHARE),
    *chunks("werewolf-ext", 200_000, 400, 100, 100 // H_SHARE),
    *chunks("werewolf-bids", 300_000, BIDS_GAMES, BIDS_GAMES, BIDS_GAMES),
]


def spec_for(chunk: Chunk) -> et.Spec:
    family = FAMILIES[chunk.family]
    return et.Spec(
        name=chunk.name,
        setup=family.setup,
        act=policy(ABSTAIN, nudge, again=AGAIN),
        games=chunk.games,
        start=chunk.start,
        max_steps=MAX_STEPS,
        want_end=True,
        must_see=family.must_see,
        labeler=labeler,
        leaks=et.LeakCheck(
            roles=family.viewers,
            games=chunk.leak_games,
            public=family.public,
            chat=et.default_chat,
            max_steps=H_MAX_STEPS,
        ),
    )


def test_chunks_cover_at_least_2000_games_with_h_on_1000() -> None:
    assert sum(c.games for c in CHUNKS) >= 2000
    assert sum(c.leak_games for c in CHUNKS) >= 1000
    assert len({c.start for c in CHUNKS}) == len(CHUNKS)


@pytest.mark.parametrize("chunk", CHUNKS, ids=lambda c: c.name)
def test_werewolf_keeps_invariants_a_to_h(chunk: Chunk) -> None:
    report = run_chunk(spec_for(chunk))
    assert set(report.leak_viewers) == set(FAMILIES[chunk.family].viewers), report.summary()


def dawn_names_roles(effect: hr.Effect, view: hr.GameView) -> list[hr.Effect] | None:
    """Planted leak: the dawn announcement also tells the roles of the dead."""
    if effect.type != ww.DAWN or effect.canceled:
        return None
    dead = [pid for pid in effect.data.get("dead", "").split(",") if pid]
    roles = []
    for pid in dead:
        p = view.player(pid)
        roles.append(p.role if p is not None else "")
    return [effect.with_data("roles", ",".join(roles))]


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_h_sees_a_leak_the_declarations_do_not_cover(family: str) -> None:
    chunk = next(c for c in CHUNKS if c.family == family)
    err = planted_leak_found(with_planted_leak(spec_for(chunk), dawn_names_roles, games=10))
    assert "roles" in str(err)


def check_names_the_role(effect: hr.Effect, view: hr.GameView) -> list[hr.Effect] | None:
    """Planted leak: the seer's check tells the target's role, not only the camp (breaks R8)."""
    if effect.type != ww.CHECK or effect.canceled:
        return None
    target = view.player(effect.target)
    return [effect.with_data("role", target.role if target is not None else "")]


def test_h_sees_a_seer_check_that_tells_more_than_the_camp() -> None:
    chunk = next(c for c in CHUNKS if c.family == "werewolf")
    err = planted_leak_found(with_planted_leak(spec_for(chunk), check_names_the_role, games=20))
    assert "role" in str(err)


def wolves_never_pass(rules: hr.Rules) -> hr.Rules:
    """Planted leak: a werewolf who does not bid counts as bidding 1, not 0 (R27 says 0)."""
    inner = rules.resolvers[ww.DAY]
    assert callable(inner)

    def resolve(uses: Sequence[hr.SkillUse], view: hr.GameView) -> list[hr.Effect]:
        bidders = {u.player_id for u in uses if u.skill == ww.BID}
        wolves = [p.id for p in view.alive_players() if p.vars.get(ww.VAR_CAMP) == ww.EVIL and p.id not in bidders]
        return list(inner((*uses, *(hr.SkillUse(w, ww.BID, ("1",)) for w in wolves)), view) or ())

    return dataclasses.replace(rules, resolvers={**rules.resolvers, ww.DAY: resolve})


def test_h_sees_a_floor_that_depends_on_roles() -> None:
    chunk = next(c for c in CHUNKS if c.family == "werewolf-bids")
    spec = spec_for(chunk)
    setup = spec.setup

    def leaky(rng: random.Random) -> et.Game:
        game = setup(rng)
        return et.Game(wolves_never_pass(game.rules), game.seats, game.engine_type)

    assert spec.leaks is not None
    leaks = dataclasses.replace(spec.leaks, games=10)
    err = planted_leak_found(dataclasses.replace(spec, setup=leaky, games=10, must_see=(), leaks=leaks))
    assert ww.FLOOR in str(err)
