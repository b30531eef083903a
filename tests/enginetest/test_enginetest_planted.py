"""The harness catches planted bugs, each under the right invariant id.

Every test here breaks a correct ruleset (red/blue or the fuzz game) or wraps the
engine in a subclass that breaks one promise, runs the harness on a few games and
asserts it raises :class:`InvariantError` naming the invariant the bug violates.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections.abc import Callable, Iterable, Sequence

import pytest

import hiddenrole as hr
from hiddenrole import enginetest as et
from hiddenrole.compiled import Plan
from hiddenrole.enginetest import fuzzgame
from hiddenrole.enginetest import leaks as h
from hiddenrole.games import redblue

RED, BLUE = redblue.RED, redblue.BLUE


def rb_spec(
    rules: hr.Rules | None = None,
    *,
    engine_type: type[hr.Engine] = hr.Engine,
    games: int = 20,
    leaks: et.LeakCheck | None = None,
    **changes: object,
) -> et.Spec:
    """A red/blue run over 2-3 reds and 2-4 blues; H off unless ``leaks`` is given."""
    the_rules = rules or redblue.rules()

    def setup(rng: random.Random) -> et.Game:
        seats = et.deal(rng, {RED: rng.randint(2, 3), BLUE: rng.randint(2, 4)})
        return et.Game(the_rules, seats, engine_type)

    spec = et.Spec(name="planted", setup=setup, games=games, max_steps=40, leaks=leaks)
    return dataclasses.replace(spec, **changes)  # type: ignore[arg-type]


def fz_spec(engine_type: type[hr.Engine], games: int = 30) -> et.Spec:
    """The fuzz game under an engine wrapper; H off."""

    def setup(rng: random.Random) -> et.Game:
        return dataclasses.replace(fuzzgame.setup(rng), engine_type=engine_type)

    return dataclasses.replace(fuzzgame.fuzz_spec(games=games), setup=setup, leaks=None, must_see=())


def raises(spec: et.Spec, invariant: et.Invariant) -> et.InvariantError:
    with pytest.raises(et.InvariantError) as info:
        et.run(spec)
    assert info.value.invariant is invariant, str(info.value)
    return info.value


# ---------------------------------------------------------------------- A: snapshot round trip

_calls = itertools.count()


def vote_by_global_counter(uses: Sequence[hr.SkillUse], view: hr.GameView) -> list[hr.Effect]:
    """Bug: eliminates whoever a module-level counter points at, not whom the votes name."""
    alive = view.alive_players()
    victim = alive[next(_calls) % len(alive)].id
    return [hr.Effect(redblue.OUT, target=victim), hr.set_alive(victim, False)]


def test_A_catches_a_resolver_that_depends_on_global_state() -> None:
    rules = dataclasses.replace(redblue.rules(), resolvers={"VOTE": vote_by_global_counter})
    err = raises(rb_spec(rules), et.Invariant.SNAPSHOT)
    assert "end_phase produced other effects" in err.detail


class ForgetsActors(hr.Engine):
    """Bug: its snapshots drop the named actors (the mutation Go's byte check missed)."""

    def snapshot(self) -> hr.Snapshot:
        return dataclasses.replace(super().snapshot(), actors={})


def test_A_catches_a_snapshot_that_loses_named_actors() -> None:
    err = raises(fz_spec(ForgetsActors), et.Invariant.SNAPSHOT)
    assert "restore(verify=False)" in err.detail


class ForgetsPending(hr.Engine):
    """Bug: its snapshots drop unresolved submissions."""

    def snapshot(self) -> hr.Snapshot:
        return dataclasses.replace(super().snapshot(), pending=())


def test_A_catches_a_snapshot_that_loses_pending_submissions() -> None:
    raises(rb_spec(engine_type=ForgetsPending), et.Invariant.SNAPSHOT)


# ---------------------------------------------------------------------- B: log replay


class LogWithoutHostActions(hr.Engine):
    """Bug: the saved log leaves out what the host applied by hand (SET_ACTORS)."""

    def log(self) -> hr.GameLog:
        log = super().log()
        return dataclasses.replace(log, effects=tuple(e for e in log.effects if e.type != hr.SET_ACTORS))


def test_B_catches_a_log_that_drops_effects() -> None:
    err = raises(fz_spec(LogWithoutHostActions), et.Invariant.REPLAY)
    assert "replay" in err.detail


# ---------------------------------------------------------------------- C: who may act


class HidesSkip(hr.Engine):
    """Bug: allowed_skills forgets SKIP although player_view and phase_info offer it."""

    def allowed_skills(self, player_id: str) -> tuple[str, ...]:
        return tuple(s for s in super().allowed_skills(player_id) if s != hr.SKIP)


def test_C_catches_allowed_skills_disagreeing_with_player_view() -> None:
    err = raises(fz_spec(HidesSkip), et.Invariant.WHO_ACTS)
    assert "player_view says" in err.detail


class ReadinessForgetsSubmissions(hr.Engine):
    """Bug: readiness reports that nobody has acted."""

    def readiness(self) -> hr.Readiness:
        return super().readiness()._replace(acted=())


def test_C_catches_readiness_disagreeing_with_submissions() -> None:
    err = raises(rb_spec(engine_type=ReadinessForgetsSubmissions), et.Invariant.WHO_ACTS)
    assert "readiness.acted" in err.detail


class PhaseInfoForgetsActors(hr.Engine):
    """Bug: phase_info names nobody, although allowed_skills lets players act."""

    def phase_info(self) -> hr.PhaseInfo:
        info = super().phase_info()
        roles = {role: r._replace(player_ids=()) for role, r in info.roles.items()}
        return info._replace(roles=roles)


def test_C_catches_phase_info_disagreeing_with_allowed_skills() -> None:
    err = raises(rb_spec(engine_type=PhaseInfoForgetsActors), et.Invariant.WHO_ACTS)
    assert "phase_info implies" in err.detail


# ---------------------------------------------------------------------- D: stable queries


class FlickeringView(hr.Engine):
    """Bug: every other player_view call reports the player list reversed."""

    def __init__(self, rules: hr.Rules) -> None:
        super().__init__(rules)
        self.flips = 0

    def player_view(self, player_id: str) -> hr.PlayerView:
        view = super().player_view(player_id)
        self.flips += 1
        if self.flips % 7 == 0:
            return view._replace(players=tuple(reversed(view.players)))
        return view


def test_D_catches_answers_that_change_between_identical_queries() -> None:
    raises(rb_spec(engine_type=FlickeringView), et.Invariant.STABLE)


# ---------------------------------------------------------------------- E: status coherence


class NeverOver(hr.Engine):
    """Bug: status() claims the game runs even in END."""

    def status(self) -> hr.Status:
        return super().status()._replace(over=False)


def test_E_catches_a_status_that_is_not_over_in_END() -> None:
    err = raises(rb_spec(engine_type=NeverOver), et.Invariant.STATUS)
    assert "over=False but phase=END" in err.detail


class RoundGoesBack(hr.Engine):
    """Bug: status() reports round 1 again from round 3 on."""

    def status(self) -> hr.Status:
        st = super().status()
        return st._replace(round=1) if st.round >= 3 else st


def test_E_catches_a_round_that_decreases() -> None:
    err = raises(rb_spec(engine_type=RoundGoesBack, act=None, max_steps=6), et.Invariant.STATUS)
    assert "round went down" in err.detail


@pytest.mark.parametrize(
    ("declared", "hidden"),
    [
        # Only FALLOUT: a TALLY that kills a camp's last player (no trip owed: a BLUE) decides unseen.
        (frozenset({fuzzgame.FALLOUT}), fuzzgame.TALLY),
        # Only TALLY: a TALLY death that owes a trip holds the check until the trip is served, and
        # the FALLOUT that serves it is left out (so is its own CURSE's kill).
        (frozenset({fuzzgame.TALLY}), fuzzgame.FALLOUT),
    ],
)
def test_E_catches_a_victory_after_that_leaves_out_a_deciding_phase(declared: frozenset[str], hidden: str) -> None:
    rules = dataclasses.replace(fuzzgame.rules(), victory_after=declared)

    def setup(rng: random.Random) -> et.Game:
        return dataclasses.replace(fuzzgame.setup(rng), rules=rules)

    spec = dataclasses.replace(fuzzgame.fuzz_spec(games=60), setup=setup, leaks=None, must_see=())
    err = raises(spec, et.Invariant.STATUS)
    assert f"Rules.victory_after leaves out {hidden!r}" in err.detail, err.detail
    assert "let a decided game run on" in err.detail


def test_E_passes_a_victory_after_that_names_every_deciding_phase() -> None:
    # The fuzz game's own declaration (TALLY and FALLOUT, not ACT): the check runs and stays green.
    assert fuzzgame.rules().victory_after == frozenset({fuzzgame.TALLY, fuzzgame.FALLOUT})
    report = et.run(dataclasses.replace(fuzzgame.fuzz_spec(games=30), leaks=None, must_see=()))
    assert report.finished == 30


# ---------------------------------------------------------------------- the round boundary with detours
# The fuzz game's resolvers check the kernel's promise (issue 11) and raise BoundaryBroken,
# which the harness reports as a CRASH. These plants reach into the kernel's transition
# code, since that is where the promise lives.


class RoundNotHeld(hr.Engine):
    """Bug (the kernel before issue 11): round actions run at once even while a detour is owed."""

    def _transition(self, to: str, plan: Plan | None = None) -> None:
        s = self._state
        if s.detours:
            actions = self._plan(s.phase, to)[0]  # the exits, then the entries
            self._run_actions(actions)
        super()._transition(to, plan)


class CountedTwice(hr.Engine):
    """Bug: when the held boundary lands, it runs on top of the transition's own actions."""

    def _transition(self, to: str, plan: Plan | None = None) -> None:
        s = self._state
        if s.held and not s.detours:
            held, s.held = s.held, ()
            self._run_actions(held)
        super()._transition(to, plan)


class OneTripOnly(hr.Engine):
    """Bug: serving a detour drops the rest of the queue (several trips queued at once)."""

    def _leave_phase(self, keep_actors: bool = False) -> None:
        s = self._state
        served = bool(s.detours) and s.detours[0].phase == s.phase
        super()._leave_phase(keep_actors)
        if served:
            s.detours.clear()


@pytest.mark.parametrize(
    ("engine_type", "says"),
    [
        (RoundNotHeld, "the round boundary was not held"),
        (CountedTwice, "a cycle was not counted once"),
        (OneTripOnly, "the next TALLY came before the FALLOUT trips"),
    ],
)
def test_the_fuzz_game_catches_a_broken_round_boundary(engine_type: type[hr.Engine], says: str) -> None:
    err = raises(fz_spec(engine_type), et.Invariant.CRASH)
    assert "BoundaryBroken" in err.detail and says in err.detail, err.detail


# ---------------------------------------------------------------------- F: finished stays finished


def victory_flips_on_round_parity(view: hr.GameView) -> Iterable[str] | None:
    """Bug: reads the round counter, which the END transition advances, so its answer flips after the end."""
    got = redblue.last_side_standing(view)
    if got is None:
        return None
    winners = tuple(got)
    if not winners:
        return winners
    winner = winners[0]
    if view.round % 2 == 0:
        return (BLUE if winner == RED else RED,)
    return (winner,)


def test_F_catches_a_victory_that_flips_after_the_end() -> None:
    rules = dataclasses.replace(redblue.rules(), victory=victory_flips_on_round_parity)
    err = raises(rb_spec(rules), et.Invariant.FINISHED)
    assert "the rules now say" in err.detail


class Rematch(hr.Engine):
    """Bug: end_phase after the end quietly revives everyone instead of refusing."""

    def end_phase(self) -> tuple[hr.Effect, ...]:
        if self.status().over:
            # The public apply() refuses a finished game, so the plant writes the board
            # directly, as a buggy engine would.
            for pid in self.player_ids():
                self._state.apply(hr.set_alive(pid, True))
            return ()
        return super().end_phase()


def test_F_catches_an_engine_that_keeps_playing_after_the_end() -> None:
    err = raises(rb_spec(engine_type=Rematch), et.Invariant.FINISHED)
    assert "end_phase after the end was accepted" in err.detail


# ---------------------------------------------------------------------- G: primitives never published


class PublishesDeaths(hr.Engine):
    """Bug: forwards SET_ALIVE to event handlers ("so the UI can grey out the dead")."""

    def __init__(self, rules: hr.Rules) -> None:
        super().__init__(rules)
        self.handlers: list[Callable[[hr.Event], object]] = []

    def on_event(self, handler: Callable[[hr.Event], object]) -> None:
        self.handlers.append(handler)
        super().on_event(handler)

    def end_phase(self) -> tuple[hr.Effect, ...]:
        out = super().end_phase()
        for e in out:
            if e.type == hr.SET_ALIVE:
                for h in self.handlers:
                    h(e.to_event())
        return out


def test_G_catches_an_engine_that_publishes_a_primitive() -> None:
    err = raises(rb_spec(engine_type=PublishesDeaths), et.Invariant.PRIMITIVES)
    assert "SET_ALIVE" in err.detail


def test_G_is_checked_for_games_that_finish() -> None:
    # Every red/blue game here finishes; the Go harness skipped G on that path.
    spec = rb_spec(engine_type=PublishesDeaths, games=5)
    report = et.run(rb_spec(games=5))
    assert report.finished == 5
    raises(spec, et.Invariant.PRIMITIVES)


# ---------------------------------------------------------------------- H: indistinguishability

TEAM = "TEAM"


def vote_and_tell_teams(uses: Sequence[hr.SkillUse], view: hr.GameView) -> list[hr.Effect]:
    """After the first vote each player is told their own camp (a private event).

    (Game-setup rule events are never published, so the telling happens at a phase end.)
    """
    out = redblue.resolve_vote(uses, view)
    if view.round == 1:
        out += [hr.Effect(TEAM, target=p.id).with_data("camp", p.role) for p in view.all_players()]
    return out


def private_team_audience(event: hr.Event, view: hr.GameView) -> tuple[str, ...]:
    if event.type == TEAM:
        return (event.target,)
    return view.player_ids()


def everyone_audience(event: hr.Event, view: hr.GameView) -> tuple[str, ...]:
    """Bug: routes the private TEAM events to everybody."""
    return view.player_ids()


def with_teams(audience: Callable[[hr.Event, hr.GameView], Iterable[str] | None]) -> hr.Rules:
    return dataclasses.replace(redblue.rules(), resolvers={"VOTE": vote_and_tell_teams}, audience=audience)


LEAKS = et.LeakCheck(viewers_per_game=2, roles=(RED, BLUE))


def test_H_passes_private_events_routed_to_their_owner() -> None:
    report = et.run(rb_spec(with_teams(private_team_audience), leaks=LEAKS))
    assert report.leak_pairs > 0


def test_H_catches_a_private_event_shown_to_everyone() -> None:
    err = raises(rb_spec(with_teams(everyone_audience), leaks=LEAKS), et.Invariant.LEAK)
    assert "'type': 'TEAM'" in err.detail
    assert "deal A:" in err.detail and "deal B:" in err.detail
    assert err.step == 1


def test_H_treats_an_unknown_audience_as_everyone() -> None:
    def unknown_for_team(event: hr.Event, view: hr.GameView) -> tuple[str, ...] | None:
        return None if event.type == TEAM else view.player_ids()

    raises(rb_spec(with_teams(unknown_for_team), leaks=LEAKS), et.Invariant.LEAK)


def reds_whisper(sender: str, view: hr.GameView) -> tuple[str, ...]:
    """Bug: REDs talk among themselves at all times, so the others notice who falls silent."""
    me = view.player(sender)
    if me is not None and me.role == RED:
        return view.alive_player_ids_by_role(RED)
    return tuple(p.id for p in view.alive_players())


def test_H_catches_a_speech_rule_that_reveals_roles() -> None:
    rules = dataclasses.replace(redblue.rules(), speech=reds_whisper)
    leaks = dataclasses.replace(LEAKS, chat=et.default_chat)
    err = raises(rb_spec(rules, leaks=leaks), et.Invariant.LEAK)
    assert "message" in err.detail or "speak" in err.detail


def test_H_without_chat_does_not_look_at_speech() -> None:
    rules = dataclasses.replace(redblue.rules(), speech=reds_whisper)
    et.run(rb_spec(rules, leaks=LEAKS))


def reds_left(player_id: str, view: hr.GameView) -> dict[str, str]:
    """Bug: every player's role info counts the living REDs."""
    return {"reds_left": str(len(view.alive_player_ids_by_role(RED)))}


def test_H_catches_role_info_that_follows_hidden_roles() -> None:
    rules = dataclasses.replace(redblue.rules(), role_info={RED: reds_left, BLUE: reds_left})
    err = raises(rb_spec(rules, leaks=LEAKS), et.Invariant.LEAK)
    assert "reds_left" in err.detail


def test_H_honours_public_role_info_keys() -> None:
    rules = dataclasses.replace(redblue.rules(), role_info={RED: reds_left, BLUE: reds_left})
    public = et.Public("announce_reds_left", role_info_keys=frozenset({"reds_left"}))
    et.run(rb_spec(rules, leaks=dataclasses.replace(LEAKS, public=(public,))))


def vote_and_reveal(uses: Sequence[hr.SkillUse], view: hr.GameView) -> list[hr.Effect]:
    out = redblue.resolve_vote(uses, view)
    return [e.with_data("role", p.role) if e.type == redblue.OUT and (p := view.player(e.target)) else e for e in out]


REVEAL = dataclasses.replace(redblue.rules(), resolvers={"VOTE": vote_and_reveal})


def test_H_catches_an_undeclared_role_reveal() -> None:
    err = raises(rb_spec(REVEAL, leaks=LEAKS), et.Invariant.LEAK)
    assert "'role':" in err.detail


def test_H_honours_a_declared_public_data_key() -> None:
    public = et.Public("reveal_role_on_elimination", data_keys=frozenset({"role"}))
    et.run(rb_spec(REVEAL, leaks=dataclasses.replace(LEAKS, public=(public,))))


def test_H_honours_a_declared_public_event_type() -> None:
    public = et.Public("announced_outs", event_types=frozenset({redblue.OUT}))
    et.run(rb_spec(REVEAL, leaks=dataclasses.replace(LEAKS, public=(public,))))


def test_H_catches_a_phase_that_exists_only_for_one_role() -> None:
    # The fuzz game's FALLOUT phase only follows a RED death, like a hunter's shot.
    spec = dataclasses.replace(
        fuzzgame.fuzz_spec(games=60, leak_games=60),
        leaks=et.LeakCheck(viewers_per_game=2, roles=(fuzzgame.BLUE,)),
        must_see=(),
    )
    err = raises(spec, et.Invariant.LEAK)
    assert "FALLOUT" in err.detail


def everyone_knows_the_reds(player_id: str, view: hr.GameView) -> dict[str, str]:
    return {"reds": ",".join(view.alive_player_ids_by_role(RED))}


def test_H_only_pairs_deals_the_side_cannot_tell_apart_at_the_start() -> None:
    # Every seat's role info lists the reds, so every twin deal looks different from
    # the first view on: none may be used, and no leak may be reported.
    knows = dataclasses.replace(
        redblue.rules(), role_info={RED: everyone_knows_the_reds, BLUE: everyone_knows_the_reds}
    )
    report = et.run(rb_spec(knows, leaks=et.LeakCheck(viewers_per_game=1), games=10))
    assert report.leak_pairs == 0
    assert sum(report.leak_skipped.values()) == 10


def test_H_custom_redact_can_drop_observations() -> None:
    public = et.Public("forget_outs", redact=lambda o: None if o.kind == "event" else o)
    et.run(rb_spec(REVEAL, leaks=dataclasses.replace(LEAKS, public=(public,))))


def test_H_custom_twin_is_used_and_filtered() -> None:
    calls: list[frozenset[str]] = []

    def twin(game: et.Game, side: frozenset[str], rng: random.Random) -> Iterable[et.Game]:
        calls.append(side)
        yield game  # identical deal: must be skipped
        yield from et.permute_others(game, side, rng)

    report = et.run(rb_spec(leaks=dataclasses.replace(LEAKS, twin=twin), games=5))
    assert calls and report.leak_pairs > 0


# ---------------------------------------------------------------------- run-wide checks and crashes


def test_WANT_END_catches_a_game_that_never_ends() -> None:
    err = raises(rb_spec(act=None, want_end=True, max_steps=10), et.Invariant.WANT_END)
    assert err.seed == 0 and err.step == 10


def test_MUST_SEE_catches_a_label_never_seen() -> None:
    err = raises(rb_spec(must_see=(redblue.OUT, "NEVER")), et.Invariant.MUST_SEE)
    assert "NEVER" in err.detail and err.seed is None


def test_COVERAGE_catches_a_required_viewer_role_never_checked() -> None:
    err = raises(rb_spec(leaks=et.LeakCheck(roles=("GREEN",)), games=3), et.Invariant.COVERAGE)
    assert "GREEN" in err.detail


def crash_in_round_3(uses: Sequence[hr.SkillUse], view: hr.GameView) -> list[hr.Effect]:
    """Bug: fails on the third round when a blue is still standing at seat p1."""
    p1 = view.player("p1")
    if view.round == 3 and p1 is not None and p1.alive and p1.role == BLUE:
        raise RuntimeError("boom")
    return redblue.resolve_vote(uses, view)


def test_CRASH_reports_seed_and_step_and_reproduces_from_the_seed() -> None:
    spec = rb_spec(dataclasses.replace(redblue.rules(), resolvers={"VOTE": crash_in_round_3}), games=50)
    err = raises(spec, et.Invariant.CRASH)
    assert err.seed is not None and err.seed > 0 and err.step == 2
    assert f"seed {err.seed}, step 2" in str(err) and "RuntimeError: boom" in str(err)
    with pytest.raises(et.InvariantError) as again:
        et.run_one(spec, err.seed)
    assert (again.value.invariant, again.value.seed, again.value.step) == (err.invariant, err.seed, err.step)
    for seed in range(err.seed):
        et.run_one(spec, seed)


def test_CRASH_when_setup_does_not_return_a_game() -> None:
    spec = rb_spec(setup=lambda rng: "not a game")
    err = raises(spec, et.Invariant.CRASH)
    assert "setup returned str" in err.detail


def test_CRASH_when_act_submits_something_illegal() -> None:
    def act(turn: et.Turn) -> None:
        turn.engine.submit("p0", "FLY")

    err = raises(rb_spec(act=act), et.Invariant.CRASH)
    assert "SkillNotAllowed" in err.detail and err.step == 0


def test_H_second_deal_plays_as_it_would_alone() -> None:
    """The two deals of a pair share the side's choices only where the view is the same:
    deal B played after deal A observes exactly what it observes played alone (the fuzz
    game's one-role phase makes the deals' views part ways)."""
    spec = dataclasses.replace(
        fuzzgame.fuzz_spec(games=30, leak_games=30),
        leaks=et.LeakCheck(viewers_per_game=2, roles=(fuzzgame.BLUE,)),
        must_see=(),
    )
    leaks = spec.leaks
    assert leaks is not None
    compared = differed = 0
    for seed in spec.seeds:
        game = spec.setup(random.Random(seed))
        probe = h._start(game)
        rng = random.Random(f"leaks/{seed}")
        for viewer in h._viewers(leaks, game, rng):
            side = frozenset((viewer, *probe.teammates(viewer)))
            twin = h._find_twin(spec, leaks, game, probe, side, rng, seed, viewer)
            if twin is None:
                continue
            choices: h._Choices = {}
            deals = [h._Deal(spec, leaks, g, side, seed, viewer, choices) for g in (game, twin)]
            for d in deals:
                while not d.done:
                    d.advance()
            paired = deals[1].obs.items()
            assert paired == h.observe(spec, leaks, twin, side, seed, viewer)
            compared += 1
            differed += paired != deals[0].obs.items()
    assert compared and differed
