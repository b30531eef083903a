"""One Night Ultimate Werewolf on the hiddenrole kernel (baseline: the publisher's rulebook).

One night, one day, one vote. Every card has two layers: the card *dealt* to a seat is
its kernel role and decides who wakes at night (it never changes, so a robber who
steals a werewolf card does not wake with the werewolves); the card *held* now is the
player's ``card`` game variable and decides who scores (the robber, troublemaker and
drunk move it). Three more cards lie in the centre (game variables ``center.0..2``).

Rules (each has a test named after it, ``test_oNN_...``):

* O1  A deck has exactly players + 3 cards, at least 3 players, only the 11 known
  roles, and no more copies of a card than the box holds.
* O2  Dealing sorts the deck, shuffles it with ``random.Random(seed)``, gives card *i*
  to seat ``p<i>`` and the last three to the centre: same deck and seed, same deal.
* O3  Dealt card = kernel role (fixed, decides who wakes); held card = ``card``
  variable (moves with swaps, decides who scores).
* O4  The night is a fixed line: werewolf, minion, mason, seer, robber, troublemaker,
  drunk, insomniac, then day and vote (ten phases, round 1 throughout). Every role
  is called even when its card lies in the centre; minion, mason and insomniac steps
  are watch-only. Night steps are optional, so readiness never waits on a card that
  may be in the centre: hosts run night phases on their timer, like a moderator.
* O5  Werewolves see each other; the minion sees the werewolves (one way); masons
  see each other.
* O6  A lone werewolf (exactly one dealt to a player) may look at one centre card;
  when two are dealt, neither may (the game setup names the lone wolf as the only
  actor of the werewolf phase, so the kernel refuses anyone else).
* O7  The seer looks at one other player's card or at two different centre cards.
* O8  The robber swaps cards with another player and looks at the card now held.
* O9  The troublemaker swaps two other players' cards and learns nothing.
* O10 The drunk swaps with a centre card without looking; the swap is compulsory
  (no valid choice: centre card 0).
* O11 The insomniac, last, sees their own card as it is then.
* O12 Knowledge is recorded at the moment of looking and goes stale after later swaps.
* O13 Only a player's first submission in a phase counts.
* O14 Everyone votes for one other player (no self-vote).
* O15 If nobody receives more than one vote, nobody dies.
* O16 Otherwise every player tied at the most votes dies.
* O17 A dying player holding the hunter card kills the player they voted for (one
  level: the shot player shoots nobody).
* O18 The village wins if a player holding a werewolf card dies.
* O19 With no werewolf card among the players, the village wins if nobody dies, and
  loses if anybody dies.
* O20 The tanner wins if the player holding the tanner card dies; the wolves then
  cannot win.
* O21 The wolves (werewolf and minion cards) win if a player holds a werewolf card, no
  werewolf-card holder dies and the tanner does not die (a dead minion is fine).
* O22 Several camps may win at once (e.g. ``("TANNER", "VILLAGE")``) and none may win;
  the result is the kernel's tuple of camps.
* O23 The game is decided only after the vote; it never ends early.
* O24 Night results reach only the player who acted; votes, deaths, start and end
  are public; nobody speaks at night.
* O25 The kernel's ``camp`` variable is never written: a player's camp follows the
  card they hold, which swaps change, so showing one would mislead or leak.
* O26 Optional (``minion_clause=True``): with no werewolf card among the players,
  the wolves (the minion) also win if someone other than the minion dies.

What is public:

* Public: the deck (at the table everyone knows which cards are in the game, not
  where; the engine itself never shows it), the seats, the phase line (identical
  whatever lies in the centre), every vote (``ON_VOTED``), every death
  (``ON_LYNCHED``, ``ON_HUNTER_HIT``, ``ON_NO_ONE_DIES``), game start and end with
  the winning camps, and day chat.
* Private to one player: their dealt card (``self.role``), their night companions
  (teammates and role info ``wolves``/``masons``), what they looked at (role info
  ``learn.*``, as of the moment of looking), and their own night events
  (``ON_PEEKED``, ``ON_SEER_LOOK``, ``ON_ROBBED``, ``ON_MEDDLED``, ``ON_DRUNK_SWAP``,
  ``ON_INSOMNIA``; a drunk's event names the slot, never the card).
* Nobody (god view only): held cards, centre cards, submissions, readiness. Hosts
  reveal everything at the end with :func:`final_reveal` (or :func:`reveal_lines`).

Entry points: :func:`new_engine` (deck, players, seed -> started engine),
:func:`deal` + :func:`rules` + :func:`engine_for` for harnesses that seat players
themselves, :func:`default_deck` for a quick table, :func:`final_reveal` at the end.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import NamedTuple

import hiddenrole as hr

from .boundary import audience, role_info, speech, teammates
from .dealing import CENTER_SIZE, MIN_PLAYERS, Deal, deal, default_deck, seat_id, validate_deck
from .decks import check_cards
from .opening import GameSetup, card_setup, deal_table
from .resolvers import (
    center_card,
    dealt,
    held_card,
    resolve_drunk,
    resolve_insomniac,
    resolve_nothing,
    resolve_robber,
    resolve_seer,
    resolve_troublemaker,
    resolve_vote,
    resolve_werewolf,
)
from .victory import check_victory, check_victory_with_minion_clause, decide
from .vocab import *  # noqa: F403
from .vocab import (
    CENTER_POOL,
    CENTER_SLOTS,
    DAY,
    DISPLAY_NAMES,
    DRINK,
    DRUNK,
    INSOMNIAC,
    MASON,
    MEDDLE,
    MINION,
    NIGHT_DRUNK,
    NIGHT_INSOMNIAC,
    NIGHT_MASON,
    NIGHT_MINION,
    NIGHT_ROBBER,
    NIGHT_SEER,
    NIGHT_TROUBLEMAKER,
    NIGHT_WEREWOLF,
    PEEK,
    ROB,
    ROBBER,
    ROLES,
    SEER,
    SEER_CENTER,
    SEER_PLAYER,
    TROUBLEMAKER,
    VAR_CARD,
    VOTE,
    VOTE_PHASE,
    WEREWOLF,
    camp_of,
    center_key,
)
from .vocab import __all__ as _vocab_all

__all__ = [
    *_vocab_all,
    "NAME",
    "VERSION",
    "VERSION_MINION_CLAUSE",
    "CONFIG",
    "MIN_PLAYERS",
    "CENTER_SIZE",
    "Deal",
    "seat_id",
    "validate_deck",
    "deal",
    "default_deck",
    "config",
    "rules",
    "rules_for",
    "engine_for",
    "new_engine",
    "check_victory",
    "check_victory_with_minion_clause",
    "decide",
    "role_info",
    "teammates",
    "audience",
    "speech",
    "dealt",
    "held_card",
    "center_card",
    "Table",
    "current_cards",
    "RevealedPlayer",
    "Reveal",
    "final_reveal",
    "reveal_lines",
]

NAME = "onenight"
VERSION = "1"
VERSION_MINION_CLAUSE = "1+minion-clause"
NIGHT_TIMEOUT = 10.0
DAY_TIMEOUT = 300.0
VOTE_TIMEOUT = 30.0


def _center_step(role: hr.RoleType, skill: hr.SkillType, n: int, group: str = "") -> hr.PhaseStep:
    """A step whose ``n`` distinct targets are centre slots, checked by the kernel."""
    return hr.PhaseStep(
        role, skill, group=group, target_pool=CENTER_POOL, min_targets=n, max_targets=n, distinct_targets=n > 1
    )


def _others_step(
    role: hr.RoleType, skill: hr.SkillType, n: int, group: str = "", *, required: bool = False
) -> hr.PhaseStep:
    """A step whose ``n`` distinct targets are other players, checked by the kernel."""
    return hr.PhaseStep(
        role,
        skill,
        required=required,
        multiple=required,
        group=group,
        min_targets=n,
        max_targets=n,
        distinct_targets=n > 1,
        allow_self_target=False,
    )


def config() -> hr.Config:
    """The phase line. It is the same for every deal: the centre must not show in it."""

    def night(nxt: hr.PhaseType, *steps: hr.PhaseStep) -> hr.PhaseConfig:
        return hr.PhaseConfig(steps=steps, next_phase=nxt, timeout=NIGHT_TIMEOUT)

    phases = {
        NIGHT_WEREWOLF: night(NIGHT_MINION, _center_step(WEREWOLF, PEEK, 1)),
        NIGHT_MINION: night(NIGHT_MASON, hr.PhaseStep(MINION)),
        NIGHT_MASON: night(NIGHT_SEER, hr.PhaseStep(MASON)),
        NIGHT_SEER: night(
            NIGHT_ROBBER, _others_step(SEER, SEER_PLAYER, 1, "look"), _center_step(SEER, SEER_CENTER, 2, "look")
        ),
        NIGHT_ROBBER: night(NIGHT_TROUBLEMAKER, _others_step(ROBBER, ROB, 1)),
        NIGHT_TROUBLEMAKER: night(NIGHT_DRUNK, _others_step(TROUBLEMAKER, MEDDLE, 2)),
        NIGHT_DRUNK: night(NIGHT_INSOMNIAC, _center_step(DRUNK, DRINK, 1)),
        NIGHT_INSOMNIAC: night(DAY, hr.PhaseStep(INSOMNIAC)),
        DAY: hr.PhaseConfig(next_phase=VOTE_PHASE, timeout=DAY_TIMEOUT),
        VOTE_PHASE: hr.PhaseConfig(
            steps=(_others_step("", VOTE, 1, required=True),), next_phase=hr.END, timeout=VOTE_TIMEOUT
        ),
    }
    return hr.Config(start_phase=NIGHT_WEREWOLF, phases=phases, target_pools={CENTER_POOL: CENTER_SLOTS})


CONFIG = config()

RESOLVERS: dict[hr.PhaseType, Callable[[Sequence[hr.SkillUse], hr.GameView], list[hr.Effect]]] = {
    NIGHT_WEREWOLF: resolve_werewolf,
    NIGHT_MINION: resolve_nothing,
    NIGHT_MASON: resolve_nothing,
    NIGHT_SEER: resolve_seer,
    NIGHT_ROBBER: resolve_robber,
    NIGHT_TROUBLEMAKER: resolve_troublemaker,
    NIGHT_DRUNK: resolve_drunk,
    NIGHT_INSOMNIAC: resolve_insomniac,
    DAY: resolve_nothing,
    VOTE_PHASE: resolve_vote,
}


def _check_center(center: Sequence[hr.RoleType]) -> tuple[hr.RoleType, hr.RoleType, hr.RoleType]:
    cards = check_cards(center, "centre")
    if len(cards) != CENTER_SIZE:
        raise hr.InvalidBoard(f"the centre holds exactly {CENTER_SIZE} cards, got {len(cards)}")
    return (cards[0], cards[1], cards[2])


def rules(center: Sequence[hr.RoleType], *, minion_clause: bool = False) -> hr.Rules:
    """The One Night rules for a game whose centre holds ``center`` (three cards).

    Seat players with their dealt cards (:func:`engine_for` does it for a :class:`Deal`).
    The centre is the only deal-specific part; a saved game restores under rules built
    with any centre, because the log already records the centre that was laid.
    Rules are immutable, so equal requests share one value.
    """
    return _rules(_check_center(center), minion_clause)


@functools.lru_cache(maxsize=4096)
def _rules(center: tuple[hr.RoleType, hr.RoleType, hr.RoleType], minion_clause: bool) -> hr.Rules:
    # Only the centre differs between deals: each deal's rules are the variant's with its own setup.
    return _variant(minion_clause).with_game_setup(GameSetup(center))


@functools.cache
def _variant(minion_clause: bool) -> hr.Rules:
    """The rules of a variant with no centre laid (never played: :func:`_rules` lays one)."""
    return hr.Rules(
        CONFIG,
        name=NAME,
        version=VERSION_MINION_CLAUSE if minion_clause else VERSION,
        resolvers=RESOLVERS,
        victory=check_victory_with_minion_clause if minion_clause else check_victory,
        victory_after=frozenset({VOTE_PHASE}),  # O23: decided only after the vote (the checker says None before)
        role_setup={r: card_setup for r in ROLES},
        role_info={r: role_info for r in ROLES},
        audience=audience,
        teammates=teammates,
        speech=speech,
    )


def rules_for(deck: Sequence[hr.RoleType], players: int, seed: int, *, minion_clause: bool = False) -> hr.Rules:
    """Rules for the deal of ``deck`` to ``players`` players with ``seed``."""
    return rules(deal(deck, players, seed).center, minion_clause=minion_clause)


def engine_for(the_deal: Deal, *, minion_clause: bool = False, start: bool = True) -> hr.Engine:
    """An engine with the deal seated, started unless ``start`` is false."""
    # Not the compiled seat_table: a caller's Deal may hold anything, and the engine must be the
    # one to refuse a bad seat (compiled code would raise a plain TypeError first).
    engine = hr.Engine(rules(the_deal.center, minion_clause=minion_clause))
    engine.add_players(the_deal.seats)
    if start:
        engine.start()
    return engine


def new_engine(
    deck: Sequence[hr.RoleType], players: int, seed: int, *, minion_clause: bool = False, start: bool = True
) -> hr.Engine:
    """A ready game: ``deck`` dealt to ``players`` seats (``p0``..) from ``seed``, started."""
    # What deal() deals, without building the Deal (compiled); shuffled() checks the deck, so its
    # centre needs no second check: straight to the rules' cache.
    return deal_table(_rules, deck, players, seed, minion_clause, start)


def _require_onenight(engine: hr.Engine) -> None:
    if not isinstance(engine, hr.Engine):
        raise hr.InvalidArgument("expected an Engine")
    if engine.rules.name != NAME:
        raise hr.RulesMismatch(f"engine runs {engine.rules.name!r}, not {NAME!r}")


class Table(NamedTuple):
    """Where every card is now (god view): ``held`` as ``(player, card)`` pairs and the centre."""

    held: tuple[tuple[str, hr.RoleType], ...]
    center: tuple[hr.RoleType, ...]


def current_cards(engine: hr.Engine) -> Table:
    """Every card's current place; for hosts and moderators, never for players."""
    _require_onenight(engine)
    held = tuple((pid, engine.var(hr.GAME.of(pid), VAR_CARD)) for pid in engine.player_ids())
    return Table(held, tuple(engine.var(hr.GAME, center_key(s)) for s in CENTER_SLOTS))


class RevealedPlayer(NamedTuple):
    """One seat at the final reveal."""

    id: str
    dealt: hr.RoleType
    held: hr.RoleType
    camp: hr.Camp
    alive: bool
    won: bool


class Reveal(NamedTuple):
    """The end of the game with every card face up."""

    winners: tuple[hr.Camp, ...]
    players: tuple[RevealedPlayer, ...]
    center: tuple[hr.RoleType, ...]


def final_reveal(engine: hr.Engine) -> Reveal:
    """Who was dealt and who ended with which card, and who won, from a finished game.

    A player wins when the camp of the card they hold at the end is among the winners.
    Raises :class:`~hiddenrole.InvalidPhase` while the game is still running.
    """
    _require_onenight(engine)
    status = engine.status()
    if not status.over:
        raise hr.InvalidPhase(f"the game is not over (phase {status.phase})")
    table = current_cards(engine)
    players = []
    for pid, card in table.held:
        info = engine.player_info(pid)
        camp = camp_of(card)
        players.append(RevealedPlayer(pid, info.role, card, camp, info.alive, camp in status.winners))
    return Reveal(status.winners, tuple(players), table.center)


def reveal_lines(engine: hr.Engine) -> list[str]:
    """The final reveal as text, one line per seat and one for the centre (for consoles)."""
    reveal = final_reveal(engine)
    lines = []
    for p in reveal.players:
        card = DISPLAY_NAMES[p.held]
        dealt_note = "" if p.dealt == p.held else f" (dealt {DISPLAY_NAMES[p.dealt]})"
        fate = "alive" if p.alive else "dead"
        lines.append(f"{p.id}: {card}{dealt_note}, {p.camp}, {fate}, {'won' if p.won else 'lost'}")
    lines.append("centre: " + ", ".join(DISPLAY_NAMES[c] for c in reveal.center))
    lines.append("winners: " + (", ".join(reveal.winners) or "nobody"))
    return lines
