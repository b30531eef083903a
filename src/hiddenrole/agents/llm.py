"""A language-model agent: the observation as a prompt, the reply parsed as a JSON action.

The prompt holds the game's rules summary, the seat's observation in words (its role,
what it saw and heard, the legal actions now) and the JSON Schema of a valid answer.
The reply must contain one JSON object (a fenced block is fine). An invalid reply is
answered with the reason and the model tries again, at most ``retries`` times; after
that the agent falls back to its ``fallback`` agent (by default a seeded random legal
action, or a pass when nothing is legal), and says so in its private reasoning.

The model call is any function ``messages -> text`` (:data:`ModelCall`), so tests and
local models plug in directly; :func:`openai_model` builds one for any
OpenAI-compatible server (hosted APIs, vLLM, llama.cpp, Ollama) with the ``openai``
package (the ``llm`` extra). The model's ``reasoning`` stays private: the runner files
it under this seat in the game record and no other seat ever receives it.
"""

from __future__ import annotations

import importlib
import json
import os
import random
import re
from collections.abc import Callable, Sequence
from typing import Any, Final

from .base import Agent
from .errors import InvalidAction, UnknownAgent
from .observation import Action, Observation
from .random_agent import RandomAgent
from .text import rules_summary

__all__ = [
    "LLMAgent",
    "ModelCall",
    "Message",
    "MAX_LLM_RETRIES",
    "build_prompt",
    "extract_json",
    "openai_model",
    "model_from_env",
]

Message = dict[str, str]
ModelCall = Callable[[Sequence[Message]], str]
"""``messages -> reply``: chat messages (``role``, ``content``) in, the model's text out."""

MAX_LLM_RETRIES: Final = 2
"""Extra attempts after an invalid reply before the documented fallback."""

SYSTEM_PROMPT: Final = (
    "You play one seat of a hidden-role game. You only know what is shown to you. "
    "Answer with exactly one JSON object matching the given schema: "
    '{"reasoning": "...", "skill": "SKILL" or null, "targets": [...], "say": "..."}. '
    "`reasoning` is private to you; `say` (optional) is heard by the other players."
)

_FENCE = re.compile(r"```(?:json)?\s*(\{.*?\})\s*```", re.DOTALL)


def build_prompt(obs: Observation) -> list[Message]:
    """The chat messages for ``obs``: system instructions, then rules, observation and schema."""
    user = "\n\n".join(
        [
            "RULES\n" + rules_summary(obs.game),
            "YOUR SITUATION\n" + obs.text(),
            "ANSWER SCHEMA (JSON Schema)\n" + json.dumps(obs.action_schema(), sort_keys=True),
            'Reply with one JSON object only. To do nothing, answer {"skill": null}.',
        ]
    )
    return [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": user}]


def extract_json(reply: str) -> Any:
    """The JSON object in a reply: the whole text, a fenced block, or the outermost braces."""
    text = reply.strip()
    candidates = [text]
    candidates += _FENCE.findall(text)
    start, end = text.find("{"), text.rfind("}")
    if 0 <= start < end:
        candidates.append(text[start : end + 1])
    for c in candidates:
        try:
            return json.loads(c)
        except ValueError:
            continue
    raise InvalidAction("the reply holds no JSON object")


class LLMAgent:
    """One seat played by a model; see the module docstring for the retry and fallback rules."""

    talks = True

    def __init__(
        self,
        model: ModelCall,
        *,
        retries: int = MAX_LLM_RETRIES,
        fallback: Agent | None = None,
        rng: random.Random | None = None,
    ) -> None:
        if retries < 0:
            raise ValueError("retries must be >= 0")
        self.model = model
        self.retries = retries
        self.fallback: Agent = fallback if fallback is not None else RandomAgent(rng or random.Random(0))
        self.transcript: list[Message] = []
        """The last decision's messages and replies (private to this seat)."""

    def act(self, obs: Observation) -> Action:
        messages = build_prompt(obs)
        if obs.error:
            messages.append({"role": "user", "content": f"Your last answer was refused by the table: {obs.error}"})
        problems: list[str] = []
        for _ in range(self.retries + 1):
            try:
                reply = self.model(list(messages))
            except Exception as exc:  # a model or network failure counts as one invalid reply
                problems.append(f"model call failed: {type(exc).__name__}: {exc}")
                continue
            messages.append({"role": "assistant", "content": reply})
            try:
                action = obs.parse(extract_json(reply))
            except InvalidAction as exc:
                problems.append(exc.message)
                messages.append(
                    {"role": "user", "content": f"That answer is invalid: {exc.message}. Reply again with JSON only."}
                )
                continue
            self.transcript = messages
            return action
        self.transcript = messages
        chosen = self.fallback.act(obs)
        note = f"fallback after {len(problems)} invalid replies: " + " | ".join(problems)
        return Action(chosen.skill, chosen.targets, "", note)


def openai_model(
    model: str,
    *,
    base_url: str | None = None,
    api_key: str | None = None,
    temperature: float | None = None,
    timeout: float = 60.0,
    max_tokens: int | None = None,
) -> ModelCall:
    """A :data:`ModelCall` for an OpenAI-compatible chat endpoint (needs the ``llm`` extra: ``openai``)."""
    try:
        openai: Any = importlib.import_module("openai")  # typed loosely: the extra may be absent
    except ImportError:  # pragma: no cover - depends on the install
        raise ImportError("the LLM client needs the 'llm' extra: pip install 'hiddenrole[llm]'") from None
    client = openai.OpenAI(
        base_url=base_url, api_key=api_key or os.environ.get("OPENAI_API_KEY") or "none", timeout=timeout
    )
    extra: dict[str, Any] = {}
    if temperature is not None:
        extra["temperature"] = temperature
    if max_tokens is not None:
        extra["max_tokens"] = max_tokens

    def call(messages: Sequence[Message]) -> str:
        reply = client.chat.completions.create(model=model, messages=list(messages), **extra)
        return str(reply.choices[0].message.content or "")

    return call


def model_from_env() -> ModelCall:
    """:func:`openai_model` from ``HIDDENROLE_LLM_MODEL``, ``HIDDENROLE_LLM_BASE_URL`` and ``OPENAI_API_KEY``."""
    name = os.environ.get("HIDDENROLE_LLM_MODEL", "")
    if not name:
        raise UnknownAgent(
            "set HIDDENROLE_LLM_MODEL (and HIDDENROLE_LLM_BASE_URL for a local server) to use 'llm' seats"
        )
    return openai_model(name, base_url=os.environ.get("HIDDENROLE_LLM_BASE_URL") or None)
