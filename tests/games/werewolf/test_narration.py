"""Werewolf narration: every event a seat can receive reads as a plain sentence, in the
seat's own perspective, and prompts name tonight's victim and every possible target."""

from __future__ import annotations

import random

import pytest

import hiddenrole as hr
from hiddenrole.games import werewolf as ww
from hiddenrole.games.werewolf import idiot, wolfking
from hiddenrole.games.werewolf import narration as nar
from hiddenrole.games.werewolf import vocab as ww_vocab

from ..narration_support import Narrated, assert_names_plain, assert_plain, check_narrated, ids_in, play, vocabulary
from .helpers import EIGHT, table, until

WORDS = vocabulary(ww_vocab, idiot, wolfking)


def _engine(seed: int) -> hr.Engine:
    """A 12-seat game with both extensions; every other game orders the day or bids for the floor
    (seeds 2, 6, ...), every third tells causes."""
    cards = list(ww.board(12))
    cards[cards.index(ww.VILLAGER)] = idiot.IDIOT
    cards[cards.index(ww.WEREWOLF)] = wolfking.WOLF_KING
    bids = seed % 4 == 2
    switches = ww.Switches(
        ordered_day=seed % 2 == 0 and not bids, bid_for_floor=bids, announce_death_causes=seed % 3 == 0
    )
    return ww.new_game(cards, seed, switches=switches, extensions=(idiot.EXTENSION, wolfking.EXTENSION), start=False)


@pytest.fixture(scope="module")
def narrated() -> Narrated:
    got = Narrated()
    for seed in range(16):
        play(_engine(seed), random.Random(seed), into=got)
    return got


def test_every_event_type_is_phrased() -> None:
    assert {*ww.CORE_EVENTS, idiot.IDIOT_REVEALED} == nar.EVENTS


def test_random_games_reach_every_phrased_event(narrated: Narrated) -> None:
    assert narrated.types >= nar.EVENTS, f"never seen: {sorted(nar.EVENTS - narrated.types)}"


def test_everything_a_seat_receives_reads_as_plain_words(narrated: Narrated) -> None:
    check_narrated(nar, narrated, WORDS)


def test_names_of_every_role_skill_and_phase_are_words() -> None:
    engine = _engine(0)
    config = engine.rules.config
    assert_names_plain(
        nar, config, (engine.player_info(pid).role for pid in engine.player_ids()), WORDS, system_skills=False
    )
    assert (nar.role_name(wolfking.WOLF_KING), nar.camp_name(ww.EVIL)) == ("Wolf King", "the werewolves")


def test_the_checker_catches_raw_data() -> None:
    """The plain-words check itself: the console's old lines all fail it."""
    for raw in ("DAWN dead=p3", "KILL tally=p4:1,p5:1.", "You are MS_ASSASSIN.", "'KILL' takes 1 targets.", "p1,p4."):
        with pytest.raises(AssertionError):
            assert_plain(raw, WORDS)


# ---------------------------------------------------------------- sentences, exactly


def _view(pid: str = "p06") -> hr.PlayerView:
    return table(*EIGHT).player_view(pid)


@pytest.mark.parametrize(
    ("event", "viewer", "text"),
    [
        (hr.Event(ww.DAWN, data={"dead": ""}), "p06", "Dawn. Nobody died in the night."),
        (hr.Event(ww.DAWN, data={"dead": "p03,p06"}), "p06", "Dawn. p03 and p06 (you) died in the night."),
        (
            hr.Event(ww.DAWN, data={"dead": "p03,p06", "causes": "p03:KILL,p06:POISON"}),
            "p06",
            "Dawn. p03 (killed by the werewolves) and p06 (you, poisoned) died in the night.",
        ),
        (
            hr.Event(ww.KILL, data={"tally": "p04:1,p05:1"}, canceled=True, reason="the wolves' vote is tied"),
            "p00",
            "The werewolves' vote is split: no kill tonight (p04 1 vote, p05 1 vote).",
        ),
        (
            hr.Event(ww.KILL, data={"tally": ""}, canceled=True, reason="nobody voted"),
            "p00",
            "The werewolves did not vote: no kill tonight.",
        ),
        (
            hr.Event(ww.KILL, target="p05", data={"tally": "p05:2"}),
            "p00",
            "The werewolves chose p05 as tonight's victim (p05 2 votes).",
        ),
        (
            hr.Event(ww.CHECK, "p02", "p00", {"camp": ww.EVIL, "good": "false"}),
            "p02",
            "Your check: p00 is on the werewolves' side.",
        ),
        (hr.Event(ww.CHECK, "p02", "p06", {"camp": ww.GOOD, "good": "true"}), "p02", "Your check: p06 is good."),
        (hr.Event(ww.PROTECT, "p04", "p06"), "p04", "You protect p06 tonight."),
        (
            hr.Event(ww.PROTECT, "p04", "p04", canceled=True, reason="the guard may not protect himself"),
            "p04",
            "Your protection of p04 is refused: the guard may not protect himself.",
        ),
        (hr.Event(ww.SAVE, "p03", "p06"), "p03", "You use the antidote on p06."),
        (hr.Event(ww.POISON, "p03", "p00"), "p03", "You poison p00."),
        (hr.Event(ww.SKIP, "p06"), "p06", "You pass your last action."),
        (
            hr.Event(
                ww.ELIMINATE,
                target="p01",
                data={"votes": "2", "voters": "p00,p06", "ballots": "p00>p01,p01>p00,p06>p01", "tally": "p00:1,p01:2"},
            ),
            "p06",
            "p01 is voted out with 2 votes. Ballots: p00 for p01, p01 for p00, p06 for p01.",
        ),
        (
            hr.Event(ww.VOTE_TIED, data={"between": "p00,p01", "ballots": "p00>p01,p01>p00"}),
            "p06",
            "The vote is tied between p00 and p01: nobody is eliminated. Ballots: p00 for p01, p01 for p00.",
        ),
        (hr.Event(ww.VOTE_TIED, data={"between": "", "ballots": ""}), "p06", "Nobody voted: nobody is eliminated."),
        (hr.Event(ww.SHOOT, "p05", "p00"), "p06", "p05 fires a last shot at p00, who dies."),
        (
            hr.Event(ww.SHOOT, "p05", "p00", canceled=True, reason="no shot after this death"),
            "p05",
            "Your last shot does not fire: no shot after this death.",
        ),
        (hr.Event(ww.SPEECH_ENDED, "p02", data={"how": ww.DONE}), "p06", "p02 has finished speaking."),
        (
            hr.Event(ww.SPEECH_ENDED, "p02", data={"how": ww.CUT}),
            "p06",
            "p02 ran out of time; the floor passes on.",
        ),
        (
            hr.Event(idiot.IDIOT_REVEALED, target="p07"),
            "p06",
            "p07 turns over the Idiot card instead of leaving: p07 stays in the game but no longer votes.",
        ),
        (hr.Event(hr.GAME_ENDED, data={"winners": ww.GOOD}), "p06", "The game is over. Winners: the village. You won."),
        (
            hr.Event(hr.GAME_ENDED, data={"winners": ww.GOOD}),
            "p00",
            "The game is over. Winners: the village. You lost.",
        ),
    ],
)
def test_sentences(event: hr.Event, viewer: str, text: str) -> None:
    assert nar.describe(event, _view(viewer)) == text


def test_a_spectator_reads_private_actions_in_the_third_person() -> None:
    check = hr.Event(ww.CHECK, "p02", "p00", {"camp": ww.EVIL, "good": "false"})
    assert nar.describe(check, None) == "The seer's check: p00 is on the werewolves' side."
    assert nar.describe(check, _view("p06")) == "The seer's check: p00 is on the werewolves' side."
    refused = hr.Event(ww.PROTECT, "p04", "p04", canceled=True, reason="the guard may not protect himself")
    assert nar.describe(refused, None) == "p04's protection of p04 is refused: the guard may not protect himself."


def test_kernel_primitives_are_not_shown_and_unknown_types_get_words() -> None:
    assert nar.describe(hr.Event(hr.SET_ALIVE, target="p01"), None) is None
    assert nar.describe(hr.Event("LOVERS_LINKED", "p01", "p02"), None) == "Lovers linked: p01 and p02."


# ---------------------------------------------------------------- prompts


def test_the_witch_is_told_tonights_victim() -> None:
    engine = table(*EIGHT)
    until(engine, ww.NIGHT_WOLF)
    for wolf in ("p00", "p01"):
        engine.submit(wolf, ww.KILL, ["p06"])
    engine.end_phase()
    assert nar.prompt(engine.player_view("p03")) == (
        "Night: the witch. Tonight's victim is p06: you may save p06 with the antidote. "
        "Choose 1 player to poison: p00, p01, p02, p04, p05, p06, p07."
    )
    assert "Tonight's victim is p06." in nar.identity(engine.player_view("p03"))


def test_a_night_without_victim_says_so() -> None:
    engine = table(*EIGHT)
    until(engine, ww.NIGHT_WITCH)
    assert nar.prompt(engine.player_view("p03")).startswith(
        "Night: the witch. Nobody was attacked tonight: there is no one to save. Choose 1 player to poison:"
    )


def test_the_wolves_prompt_names_every_living_target() -> None:
    engine = table(*EIGHT)
    until(engine, ww.NIGHT_WOLF)
    assert nar.prompt(engine.player_view("p00")) == (
        "Night: the werewolves. Choose 1 player to kill: p00, p01, p02, p03, p04, p05, p06, p07."
    )
    assert nar.prompt(engine.player_view("p06")) == (
        "Night: the werewolves. Nothing to do for you now: keep your eyes closed."
    )
    assert nar.identity(engine.player_view("p00")).startswith(
        "You are p00, the Werewolf; you play for the werewolves. Your fellow werewolves: p01."
    )


def test_prompts_name_only_targets_the_engine_accepts(narrated: Narrated) -> None:
    """Every seat a prompt names for a one-target skill is a legal target for that skill."""
    checked = 0
    for view in narrated.views:
        skills = [s for s in view.allowed_skills if s not in (ww.SKIP, ww.DONE, ww.ANTIDOTE)]
        if len(skills) != 1:
            continue
        named = ids_in(nar.prompt(view), [p.id for p in view.players])
        only = dict(view.targets).get(skills[0])
        living = {p.id for p in view.players if p.alive and (only is None or p.id in only)}
        assert named <= living, (view.phase, named - living)
        if skills[0] in (ww.KILL, ww.VOTE, ww.PROTECT) or (
            skills[0] == ww.SHOOT and "will not fire" not in nar.prompt(view)
        ):
            assert named == living, (view.phase, skills[0])
        checked += 1
    assert checked > 100
