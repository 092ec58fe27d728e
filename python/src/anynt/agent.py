"""Direction A of protocol anynt/1: a Python policy examined by `anynt test --agent-cmd`.

policy_agent(policy) speaks the protocol on standard input and output until
anynt says bye; `python -m anynt.agent MODULE:NAME` does it for a policy
found by name, so that

    anynt test --agent-cmd "python -m anynt.agent my_agents:policy"

examines it. A policy is either a callable policy(observation, reward, start)
returning an action, or an object with act(observation, reward) and,
optionally, start(start) and end(reward, score) (a factory of such objects,
a class, is called once per agent process). `start` is a Start: what the
protocol tells the agent at each episode, and `rng`, a random.Random seeded
with the episode's seed, so that a policy that draws only from it is
reproducible.
"""

from __future__ import annotations

import importlib
import inspect
import json
import random
import sys
from dataclasses import dataclass, field
from typing import Any, Callable, Protocol, TextIO, runtime_checkable

from ._server import PROTOCOL


@dataclass
class Start:
    """An episode's start: the protocol's start message (docs/protocol.md)."""

    exercise: str
    episode: int
    actions: int
    symbols: int
    steps: int
    seed: int
    rng: random.Random = field(repr=False)


@runtime_checkable
class Agent(Protocol):
    def act(self, observation: list[int], reward: float) -> int: ...


Policy = Callable[[list[int], float, Start], int]


class _CallableAgent:
    """A policy function as an Agent: it gets the episode's Start with each observation."""

    def __init__(self, policy: Policy) -> None:
        self.policy = policy
        self.episode: Start | None = None

    def start(self, start: Start) -> None:
        self.episode = start

    def act(self, observation: list[int], reward: float) -> int:
        assert self.episode is not None
        return self.policy(observation, reward, self.episode)


def as_agent(policy: Any) -> Any:
    """An Agent of a policy: an Agent as it is, a class instantiated, a function wrapped."""
    if inspect.isclass(policy):
        policy = policy()
    if isinstance(policy, Agent):
        return policy
    if callable(policy):
        return _CallableAgent(policy)
    raise TypeError(f"a policy is a callable or an object with act(observation, reward), not {policy!r}")


def policy_agent(
    policy: Any,
    *,
    name: str = "python",
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
) -> None:
    """Runs the policy as an agent of protocol anynt/1 until anynt says bye.

    An exception of the policy is sent to anynt as an error message (anynt
    reports it as the agent's fault, quoted, with the exercise and step) and
    raised again.
    """
    agent = as_agent(policy)
    read = stdin if stdin is not None else sys.stdin
    write = stdout if stdout is not None else sys.stdout

    def send(message: dict[str, Any]) -> None:
        write.write(json.dumps(message) + "\n")
        write.flush()  # anynt waits for each answer

    rng = random.Random()
    try:
        for line in read:
            message = json.loads(line)
            kind = message["type"]
            if kind == "hello":
                major = str(message.get("protocol", "")).split(".")[0]
                if major != PROTOCOL:
                    send({"type": "error", "message": f"this agent speaks {PROTOCOL} only, not {message.get('protocol')!r}"})
                    return
                send({"type": "hello", "protocol": PROTOCOL, "name": name})
            elif kind == "start":
                rng.seed(message["seed"])
                if hasattr(agent, "start"):
                    agent.start(
                        Start(
                            exercise=message["exercise"],
                            episode=message["episode"],
                            actions=message["actions"],
                            symbols=message["symbols"],
                            steps=message["steps"],
                            seed=message["seed"],
                            rng=rng,
                        )
                    )
            elif kind == "observe":
                action = agent.act(message["observation"], message["reward"])
                send({"type": "act", "action": int(action)})
            elif kind == "end":
                if hasattr(agent, "end"):
                    agent.end(message["reward"], message["score"])
            elif kind == "bye":
                return
    except Exception as e:
        try:
            send({"type": "error", "message": f"{type(e).__name__}: {e}"})
        except OSError:
            pass
        raise


def load(spec: str) -> Any:
    """The object named MODULE:NAME (NAME may be dotted)."""
    module, sep, attr = spec.partition(":")
    if not sep or not module or not attr:
        raise ValueError(f"a policy is named MODULE:NAME, not {spec!r}")
    obj: Any = importlib.import_module(module)
    for part in attr.split("."):
        obj = getattr(obj, part)
    return obj


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    if len(args) not in (1, 2):
        sys.exit("usage: python -m anynt.agent MODULE:NAME [AGENT-NAME]")
    policy_agent(load(args[0]), name=args[1] if len(args) == 2 else args[0])


if __name__ == "__main__":
    main()
