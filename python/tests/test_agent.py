"""Direction A from Python: policy_agent, python -m anynt.agent, evaluate, the example agents."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

import anynt
from anynt.agent import load
from anynt.examples import QLearning, random_policy


def anynt_test(binary: str, agent_cmd: str, *args: str) -> list[dict]:
    run = subprocess.run(
        [binary, "test", "--agent-cmd", agent_cmd, "--json", "--quiet", *args],
        capture_output=True, text=True, encoding="utf-8",
    )
    assert run.returncode == 0, run.stderr
    return [json.loads(line) for line in run.stdout.splitlines()]


def scores(lines: list[dict], agent: str) -> list[tuple[str, float, float]]:
    return [
        (x["name"], x["score"], x["values"]["per_cycle"])
        for x in lines
        if x["kind"] == "item" and x["agent"] == agent
    ]


@pytest.mark.parametrize(
    "policy, twin",
    [(random_policy, "random_agent.py"), (QLearning, "qlearning_agent.py")],
)
def test_evaluate_gives_anynt_tests_numbers(binary: str, repo: Path, policy: object, twin: str) -> None:
    """The example agents through evaluate score what their standard-library twins
    (agentproto/testdata, written from docs/protocol.md alone) score in anynt test."""
    ev = anynt.evaluate(policy, tests=3, seed=4)
    got = [(x["name"], x["score"], x["values"]["per_cycle"]) for x in ev.items()]
    assert len(got) == 21
    name = {"random_agent.py": "random.py", "qlearning_agent.py": "qlearning.py"}[twin]
    cmd = shlex.join([sys.executable, str(repo / "agentproto" / "testdata" / twin)])
    assert got == scores(anynt_test(binary, cmd, "--tests", "3", "--seed", "4"), name)
    summary = ev.summary()
    assert summary["n"] == 21 and summary["seed"] == 4


def test_python_m_anynt_agent_is_an_agent_cmd(binary: str) -> None:
    cmd = shlex.join([sys.executable, "-m", "anynt.agent", "anynt.examples:random_policy", "py-random"])
    lines = anynt_test(binary, cmd, "--tests", "2", "--seed", "9")
    ev = anynt.evaluate(random_policy, tests=2, seed=9, name="py-random")
    assert scores(lines, "py-random") == [(x["name"], x["score"], x["values"]["per_cycle"]) for x in ev.items()]
    assert all(x["response_times"]["actions"] == x["interactions"] for x in ev.items())


def test_python_and_go_qlearning_agree_within_their_cis(binary: str) -> None:
    """The fixture of Insa-Cabrera et al. (2011), 20 Λ_one tests of seed 1: the
    Python Q-learning and the built-in one (the same settings, different random
    draws) score alike."""
    ev = anynt.evaluate(QLearning, "--agent", "qlearning", tests=20, seed=1)
    py, go = ev.summary(), ev.summary("qlearning")
    assert py["n"] == go["n"] == 140
    assert py["ci95"][0] <= go["mean"] <= py["ci95"][1], (py["ci95"], go["mean"])
    assert go["ci95"][0] <= py["mean"] <= go["ci95"][1], (go["ci95"], py["mean"])
    assert py["mean"] > 0.1  # it learns: a random agent scores about 0


class Failing:
    def __init__(self) -> None:
        self.calls = 0

    def act(self, observation: list[int], reward: float) -> int:
        self.calls += 1
        if self.calls > 45:  # in the second exercise (20 interactions in the first)
            raise RuntimeError("the policy broke")
        return 0


def test_a_failing_policy_is_the_agents_fault_and_keeps_what_was_measured(binary: str) -> None:
    with pytest.raises(anynt.AnyntError, match="status 5") as caught:
        anynt.evaluate(Failing, tests=1, seed=1)
    assert "RuntimeError: the policy broke" in str(caught.value)
    assert "lambda-one:1/2" in str(caught.value)
    items = [x for x in caught.value.lines if x["kind"] == "item"]  # type: ignore[attr-defined]
    assert [x["name"] for x in items] == ["lambda-one:1/1", "lambda-one:1/2"]
    assert items[1]["fault"]


def test_on_fault_continue_gives_the_policy_a_new_connection(binary: str) -> None:
    # anynt test --on-fault continue starts the relay again after a fault:
    # evaluate must take the new connection (a new policy), not leave the
    # relay unanswered until --agent-timeout ends the test.
    with pytest.raises(anynt.AnyntError, match="status 5") as caught:
        anynt.evaluate(Failing, "--on-fault", "continue", tests=1, seed=1)
    items = [x for x in caught.value.lines if x["kind"] == "item"]  # type: ignore[attr-defined]
    assert len(items) == 7, [x["name"] for x in items]
    assert items[1]["fault"] and "RuntimeError: the policy broke" in items[1]["fault"]
    assert "no answer in time" not in str(caught.value)


def test_an_illegal_action_is_the_agents_fault(binary: str) -> None:
    with pytest.raises(anynt.AnyntError, match="status 5") as caught:
        anynt.evaluate(lambda observation, reward, start: start.actions, tests=1, seed=1)
    assert "illegal action" in str(caught.value)


def test_policy_agent_refuses_another_major_version() -> None:
    import io

    out = io.StringIO()
    anynt.policy_agent(random_policy, stdin=io.StringIO('{"type":"hello","protocol":"anynt/2"}\n'), stdout=out)
    answer = json.loads(out.getvalue())
    assert answer["type"] == "error" and "anynt/1" in answer["message"]


def test_policy_agent_speaks_the_protocol() -> None:
    import io

    session = "\n".join([
        '{"type":"hello","protocol":"anynt/1.3"}',
        '{"type":"start","exercise":"x","episode":0,"actions":3,"symbols":9,"steps":2,"seed":5}',
        '{"type":"observe","step":1,"observation":[1,2],"reward":0}',
        '{"type":"observe","step":2,"observation":[2,1],"reward":1}',
        '{"type":"end","reward":-1,"score":0}',
        '{"type":"bye"}',
        '{"type":"observe","step":3,"observation":[2,1],"reward":1}',  # after bye: not read
    ]) + "\n"
    out = io.StringIO()
    seen: list[tuple[list[int], float]] = []

    def policy(observation: list[int], reward: float, start: anynt.Start) -> int:
        seen.append((observation, reward))
        return start.actions - 1

    anynt.policy_agent(policy, name="me", stdin=io.StringIO(session), stdout=out)
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert answers == [
        {"type": "hello", "protocol": "anynt/1", "name": "me"},
        {"type": "act", "action": 2},
        {"type": "act", "action": 2},
    ]
    assert seen == [([1, 2], 0), ([2, 1], 1)]


@pytest.mark.parametrize("spec", ["anynt.examples", "anynt.examples:", ":x", "anynt.examples:nothing"])
def test_load_names_bad_specs(spec: str) -> None:
    with pytest.raises((ValueError, AttributeError)):
        load(spec)
    assert load("anynt.examples:QLearning") is QLearning


class Recorder:
    """Acts at random from the episode's seed and records what anynt test showed it."""

    def __init__(self) -> None:
        self.episodes: dict[str, list[tuple[list[int], float, int]]] = {}
        self.current: list[tuple[list[int], float, int]] = []
        self.rng_start: anynt.Start | None = None

    def start(self, start: anynt.Start) -> None:
        self.rng_start = start
        self.current = self.episodes.setdefault(start.exercise, [])

    def act(self, observation: list[int], reward: float) -> int:
        assert self.rng_start is not None
        action = self.rng_start.rng.randrange(self.rng_start.actions)
        self.current.append((observation, reward, action))
        return action


def test_lambda_one_through_the_env_is_what_anynt_test_shows(binary: str) -> None:
    """Direction A (anynt test --agent-cmd) and direction B (the Env) show the same
    exercise alike: the same indices, and the same rewards for the same actions."""
    recorder = Recorder()
    anynt.evaluate(recorder, tests=1, seed=3)
    assert sorted(recorder.episodes) == [f"lambda-one:3/{k}" for k in range(1, 8)]
    for k in range(1, 8):
        seen = recorder.episodes[f"lambda-one:3/{k}"]
        with anynt.lambda_one(3, k) as env:
            obs, _ = env.reset()
            assert len(seen) == env.steps
            for i, (observation, reward, action) in enumerate(seen):
                assert list(obs[obs != env.pad]) == observation, f"exercise {k}, step {i + 1}"
                if i > 0:
                    assert r == reward, f"exercise {k}, step {i + 1}"
                obs, r, _, _, _ = env.step(action)
