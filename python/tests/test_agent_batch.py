"""Direction A in batches (anynt test --agent-batch K): policy_agent takes them."""

from __future__ import annotations

import io
import json
import random
import shlex
import sys
from typing import Any, Sequence

import numpy as np
import pytest

import anynt
from anynt.agent import BatchAgent
from anynt.examples import QLearning, random_policy


def session(*lines: str) -> io.StringIO:
    return io.StringIO("\n".join(lines) + "\n")


def start(slot: int, seed: int, actions: int = 3) -> str:
    return json.dumps({"type": "start", "slot": slot, "exercise": f"x/{slot}", "episode": 0, "actions": actions,
                       "symbols": 9, "length": 2, "steps": 5, "seed": seed})


def observe(slots: list[int], step: int) -> str:
    return json.dumps({"type": "observe", "slots": slots, "steps": [step] * len(slots),
                       "observations": [[s, step] for s in slots], "rewards": [0.5 * s for s in slots]})


def answers(out: io.StringIO) -> list[dict[str, Any]]:
    return [json.loads(line) for line in out.getvalue().splitlines()]


class Counter:
    """Counts its own observations: one per slot, so each slot's count is its own."""

    def __init__(self) -> None:
        self.seen = 0

    def start(self, start: anynt.Start) -> None:
        self.seen = 0

    def act(self, observation: list[int], reward: float) -> int:
        self.seen += 1
        return min(self.seen, 2)


def test_policy_agent_takes_batches_one_agent_per_slot() -> None:
    out = io.StringIO()
    anynt.policy_agent(Counter, name="c", stdout=out, stdin=session(
        '{"type":"hello","protocol":"anynt/1.1","batch":3}',
        start(0, 1), start(1, 2), observe([0, 1], 1), observe([0, 1], 2),
        '{"type":"end","slot":0,"reward":1,"score":0.5}', start(0, 3), observe([1, 0], 3),
        '{"type":"bye"}',
    ))
    assert answers(out) == [
        {"type": "hello", "protocol": "anynt/1.1", "name": "c", "batch": 3},
        {"type": "act", "actions": [1, 1]},
        {"type": "act", "actions": [2, 2]},
        {"type": "act", "actions": [2, 1]},  # slot 1 goes on; slot 0 began again
    ]


def test_a_function_draws_from_each_slots_seed() -> None:
    out = io.StringIO()
    anynt.policy_agent(random_policy, stdout=out, stdin=session(
        '{"type":"hello","protocol":"anynt/1.1","batch":2}', start(0, 11), start(1, 12), observe([0, 1], 1), observe([1, 0], 2),
    ))
    a, b = random.Random(11), random.Random(12)
    first, second = a.randrange(3), b.randrange(3)
    assert answers(out)[1:] == [{"type": "act", "actions": [first, second]},
                                {"type": "act", "actions": [b.randrange(3), a.randrange(3)]}]


def test_an_agent_object_takes_one_item_at_a_time_and_batch_limits() -> None:
    out = io.StringIO()
    anynt.policy_agent(Counter(), stdout=out, stdin=session('{"type":"hello","protocol":"anynt/1.1","batch":8}'))
    assert answers(out)[0]["batch"] == 1  # one object cannot play two episodes at once
    out = io.StringIO()
    anynt.policy_agent(Counter, stdout=out, batch=2, stdin=session('{"type":"hello","protocol":"anynt/1.1","batch":8}'))
    assert answers(out)[0]["batch"] == 2
    out = io.StringIO()
    anynt.policy_agent(Counter, stdout=out, batch=2, stdin=session('{"type":"hello","protocol":"anynt/1"}'))
    assert answers(out)[0] == {"type": "hello", "protocol": "anynt/1", "name": "python"}  # unbatched: as before


class NumpyRandom:
    """A BatchAgent: each slot's actions drawn from its own Start.rng, one call a round."""

    def __init__(self) -> None:
        self.starts: dict[int, anynt.Start] = {}
        self.rounds = 0
        self.ends: list[tuple[int, float]] = []

    def start_slot(self, slot: int, start: anynt.Start) -> None:
        self.starts[slot] = start

    def act_batch(self, slots: list[int], observations: list[list[int]], rewards: list[float]) -> Sequence[int]:
        self.rounds += 1
        return np.array([self.starts[s].rng.randrange(self.starts[s].actions) for s in slots], dtype=np.int64)

    def end_slot(self, slot: int, reward: float, score: float) -> None:
        self.ends.append((slot, score))


def test_a_batch_agent_is_asked_once_a_round() -> None:
    agent = NumpyRandom()
    assert isinstance(agent, BatchAgent)
    out = io.StringIO()
    anynt.policy_agent(agent, stdout=out, stdin=session(
        '{"type":"hello","protocol":"anynt/1.1","batch":4}', start(0, 5), start(1, 6), start(2, 7),
        observe([0, 1, 2], 1), '{"type":"end","slot":1,"reward":0,"score":0.25}', observe([0, 2], 2),
    ))
    got = answers(out)
    assert got[0]["batch"] == 4 and agent.rounds == 2 and agent.ends == [(1, 0.25)]
    assert [len(x["actions"]) for x in got[1:]] == [3, 2]
    out = io.StringIO()  # unbatched: slot 0
    anynt.policy_agent(NumpyRandom(), stdout=out, stdin=session(
        '{"type":"hello","protocol":"anynt/1"}', start(0, 5), '{"type":"observe","step":1,"observation":[1],"reward":0}',
    ))
    assert answers(out)[1] == {"type": "act", "action": random.Random(5).randrange(3)}


class Short(NumpyRandom):
    def act_batch(self, slots: list[int], observations: list[list[int]], rewards: list[float]) -> Sequence[int]:
        return [0] * (len(slots) - 1)


def test_a_batch_agent_giving_too_few_actions_is_an_error() -> None:
    out = io.StringIO()
    with pytest.raises(ValueError, match="act_batch gave 1 actions for 2 slots"):
        anynt.policy_agent(Short(), stdout=out, stdin=session(
            '{"type":"hello","protocol":"anynt/1.1","batch":2}', start(0, 1), start(1, 2), observe([0, 1], 1)))
    assert answers(out)[-1] == {"type": "error", "message": "ValueError: act_batch gave 1 actions for 2 slots"}


def item_scores(lines: list[dict[str, Any]]) -> list[tuple[str, float, float]]:
    return [(x["name"], x["score"], x["values"]["per_cycle"]) for x in lines if x["kind"] == "item"]


def test_batched_policies_score_as_one_at_a_time(binary: str) -> None:
    """QLearning (a class: one per slot), random_policy (a function) and a numpy
    BatchAgent drawing from each slot's seed score in batches of 16 what they
    score one item at a time, bit for bit."""
    one = item_scores(anynt.evaluate(QLearning, tests=3, seed=4).lines)
    assert len(one) == 21
    assert item_scores(anynt.evaluate(QLearning, "--agent-batch", "16", tests=3, seed=4).lines) == one
    randomly = item_scores(anynt.evaluate(random_policy, tests=3, seed=4).lines)
    assert item_scores(anynt.evaluate(random_policy, "--agent-batch", "5", tests=3, seed=4).lines) == randomly
    assert item_scores(anynt.evaluate(NumpyRandom, "--agent-batch", "16", tests=3, seed=4).lines) == randomly


def test_python_m_anynt_agent_takes_batches(binary: str) -> None:
    import subprocess

    cmd = shlex.join([sys.executable, "-m", "anynt.agent", "anynt.examples:random_policy", "py-random"])
    runs = [subprocess.run([binary, "test", "--agent-cmd", cmd, "--json", "--quiet", "--tests", "2", "--seed", "9", *extra],
                           capture_output=True, text=True, encoding="utf-8") for extra in ([], ["--agent-batch", "16"])]
    assert [r.returncode for r in runs] == [0, 0], [r.stderr for r in runs]
    one, batched = ([json.loads(line) for line in r.stdout.splitlines()] for r in runs)
    assert item_scores(one) == item_scores(batched) and len(item_scores(one)) == 14
