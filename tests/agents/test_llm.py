"""The LLM agent: prompt contents, invalid replies, retries and fallback, a real OpenAI client
against a scripted server on loopback, and private reasoning that no other seat receives."""

from __future__ import annotations

import json
import random
import threading
from collections.abc import Iterator, Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from hiddenrole.agents import Action, Observation, RandomAgent, SeatRunner, observe_table
from hiddenrole.agents.llm import LLMAgent, Message, build_prompt, extract_json
from hiddenrole.host import Table
from hiddenrole.host.catalog import get


def _first_decision(game: str = "werewolf", seed: int = 2) -> tuple[Table, Observation]:
    table = Table.open(get(game), 9 if game == "werewolf" else 7, seed=seed, table_id="t")
    god = {p.id: p.role for p in table.inspect().all_players()}
    seat = next(s for s in table.seats if god[s] == "WEREWOLF")
    table.end_phase()  # the guard's phase: nobody acts
    obs = observe_table(table, seat)
    assert obs.legal_for("KILL") is not None
    return table, obs


class Scripted:
    """A model that answers from a list and remembers every prompt."""

    def __init__(self, replies: Sequence[str]) -> None:
        self.replies = list(replies)
        self.prompts: list[list[Message]] = []

    def __call__(self, messages: Sequence[Message]) -> str:
        self.prompts.append(list(messages))
        return self.replies.pop(0) if self.replies else "no more"


def test_the_prompt_holds_rules_role_history_legal_actions_and_schema() -> None:
    _, obs = _first_decision()
    text = build_prompt(obs)[1]["content"]
    assert "RULES" in text and "ANSWER SCHEMA" in text
    from hiddenrole.games.werewolf import narration

    assert narration.role_name(obs.role) in text
    assert all(t in text for t in obs.teammates)
    assert "KILL" in text and '"oneOf"' in text


def test_extract_json_reads_plain_fenced_and_embedded_objects() -> None:
    assert extract_json('{"skill": null}') == {"skill": None}
    assert extract_json('Sure:\n```json\n{"skill": "VOTE", "targets": ["p1"]}\n```') == {
        "skill": "VOTE",
        "targets": ["p1"],
    }
    assert extract_json('I think {"skill": null} is best') == {"skill": None}


def test_invalid_replies_are_fed_back_then_a_valid_one_is_taken() -> None:
    _, obs = _first_decision()
    victim = next(c for c in obs.legal_for("KILL").candidates if c not in obs.teammates and c != obs.seat)  # type: ignore[union-attr]
    model = Scripted(
        [
            "I refuse to answer in JSON",
            json.dumps({"skill": "FLY", "targets": []}),
            json.dumps({"reasoning": "quiet one", "skill": "KILL", "targets": [victim]}),
        ]
    )
    agent = LLMAgent(model, retries=2)
    action = agent.act(obs)
    assert action == Action("KILL", (victim,), "", "quiet one")
    assert len(model.prompts) == 3
    second = model.prompts[1][-1]["content"]
    assert "no JSON object" in second
    assert "'FLY' is not a skill you may use now" in model.prompts[2][-1]["content"]


def test_after_the_retries_the_agent_falls_back_and_says_so() -> None:
    _, obs = _first_decision()
    model = Scripted(["nope", '{"skill": "KILL", "targets": []}', "{broken"])
    action = LLMAgent(model, retries=2, fallback=RandomAgent(random.Random(5))).act(obs)
    assert len(model.prompts) == 3
    assert action.skill is not None and obs.legal_for(action.skill) is not None
    assert action.reasoning.startswith("fallback after 3 invalid replies")
    assert "KILL takes 1 target(s), got 0" in action.reasoning


def test_a_failing_model_call_counts_as_an_invalid_reply() -> None:
    _, obs = _first_decision()

    def broken(messages: Sequence[Message]) -> str:
        raise ConnectionError("down")

    action = LLMAgent(broken, retries=1).act(obs)
    assert "model call failed: ConnectionError: down" in action.reasoning


# ---------------------------------------------------------------- a scripted OpenAI-compatible server


class _Server(ThreadingHTTPServer):
    replies: list[str]
    requests: list[dict[str, Any]]


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self.server.requests.append(body)
        content = self.server.replies.pop(0) if self.server.replies else '{"skill": null}'
        payload = {
            "id": "x",
            "object": "chat.completion",
            "created": 0,
            "model": body["model"],
            "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
        }
        data = json.dumps(payload).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture
def server() -> Iterator[_Server]:
    srv = _Server(("127.0.0.1", 0), _Handler)
    srv.replies = []
    srv.requests = []
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    try:
        yield srv
    finally:
        srv.shutdown()
        srv.server_close()
        thread.join(5)


def test_the_openai_client_plays_against_a_local_server(server: _Server) -> None:
    pytest.importorskip("openai")
    from hiddenrole.agents.llm import openai_model

    _, obs = _first_decision()
    victim = next(c for c in obs.legal_for("KILL").candidates if c not in obs.teammates and c != obs.seat)  # type: ignore[union-attr]
    server.replies = ["```json\n{oops\n```", json.dumps({"reasoning": "r", "skill": "KILL", "targets": [victim]})]
    host, port = server.server_address[:2]
    model = openai_model("scripted", base_url=f"http://{host!s}:{port}/v1", api_key="test", timeout=10)
    action = LLMAgent(model).act(obs)
    assert action.skill == "KILL" and action.targets == (victim,)
    assert len(server.requests) == 2
    assert server.requests[0]["model"] == "scripted"
    assert "That answer is invalid" in server.requests[1]["messages"][-1]["content"]


# ---------------------------------------------------------------- private reasoning


class Watcher:
    """Passes, and keeps the text of everything it was shown."""

    talks = True

    def __init__(self) -> None:
        self.seen: list[str] = []

    def act(self, obs: Observation) -> Action:
        self.seen.append(json.dumps(obs.to_dict()) + obs.text())
        return RandomAgent(random.Random(len(self.seen))).act(obs)


def test_private_reasoning_reaches_the_record_and_no_other_seat() -> None:
    table = Table.open(get("werewolf"), 9, seed=4, table_id="t")
    secret = "SECRET-REASONING-42"

    def model(messages: Sequence[Message]) -> str:
        may_speak = "You may also speak" in messages[1]["content"] or "or speak" in messages[1]["content"]
        return json.dumps({"reasoning": secret, "skill": None} | ({"say": "hello all"} if may_speak else {}))

    llm_seat = table.seats[0]
    watchers = {s: Watcher() for s in table.seats[1:]}
    agents: dict[str, Any] = {llm_seat: LLMAgent(model), **watchers}
    record = SeatRunner(table, agents).run()
    mine = record.private(llm_seat)
    assert mine and all(d.action.reasoning == secret for d in mine)
    assert secret in json.dumps(record.reasoning()[llm_seat])
    for seat, w in watchers.items():
        assert w.seen
        assert not any(secret in s for s in w.seen), f"{seat} saw {llm_seat}'s reasoning"
        assert all(d.seat == seat for d in record.private(seat))
    # what the model chose to say is public table talk, as it should be
    # (some watcher hears it; which ones are still at the table depends on the seeded play)
    assert any("hello all" in s for w in watchers.values() for s in w.seen)
