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

Batches (`anynt test --agent-batch K`, docs/protocol.md, Batches) are taken
transparently: each slot of the batch gets its own agent (a class is called
once per slot, a function wrapped once per slot) and its own Start, and the
policy is asked for each slot's action in turn, so it scores as it does one
item at a time. An object that is not a class cannot be copied per slot:
it accepts a batch of one slot. A BatchAgent, an object with
act_batch(slots, observations, rewards), is asked for a whole round's
actions at once (numpy-friendly: one call a round); unbatched, it is asked
with one slot, 0.
"""

from __future__ import annotations

import importlib
import inspect
import json
import random
import sys
from dataclasses import dataclass, field
from typing import Any, Callable, Protocol, Sequence, TextIO, runtime_checkable

from ._server import PROTOCOL

#: The version an agent answers when it takes batches.
BATCH_PROTOCOL = "anynt/1.1"


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


@runtime_checkable
class BatchAgent(Protocol):
    """A policy that acts for every slot of a round at once.

    act_batch gets the round's slots (from 0), their observations and the
    rewards of their last actions, in the observe's order, and returns one
    action for each, in the same order. It may also have
    start_slot(slot, start) and end_slot(slot, reward, score), called at each
    slot's episode's start and end.
    """

    def act_batch(self, slots: list[int], observations: list[list[int]], rewards: list[float]) -> Sequence[int]: ...


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
    """An Agent (or BatchAgent) of a policy: as it is, a class instantiated, a function wrapped."""
    if inspect.isclass(policy):
        policy = policy()
    if isinstance(policy, (Agent, BatchAgent)):
        return policy
    if callable(policy):
        return _CallableAgent(policy)
    raise TypeError(
        f"a policy is a callable or an object with act(observation, reward) or act_batch(slots, observations, rewards), not {policy!r}"
    )


def _start(message: dict[str, Any], rng: random.Random) -> Start:
    """The Start of a start message, with rng seeded by its seed."""
    rng.seed(message["seed"])
    return Start(
        exercise=message["exercise"],
        episode=message["episode"],
        actions=message["actions"],
        symbols=message["symbols"],
        steps=message["steps"],
        seed=message["seed"],
        rng=rng,
    )


class _Slots:
    """The agents of a batch's slots: one agent per slot, made by the policy,
    or one BatchAgent for them all."""

    def __init__(self, policy: Any) -> None:
        self.policy = policy
        first = as_agent(policy)  # a policy that is none raises TypeError here
        self.whole: Any = first if isinstance(first, BatchAgent) else None
        self.agents: dict[int, Any] = {0: first}
        self.rngs: dict[int, random.Random] = {}

    def start(self, message: dict[str, Any]) -> None:
        slot = message.get("slot", 0)
        if slot not in self.rngs:
            self.rngs[slot] = random.Random()
        start = _start(message, self.rngs[slot])
        if self.whole is not None:
            if hasattr(self.whole, "start_slot"):
                self.whole.start_slot(slot, start)
            return
        if slot not in self.agents:
            self.agents[slot] = as_agent(self.policy)
        if hasattr(self.agents[slot], "start"):
            self.agents[slot].start(start)

    def act(self, slots: list[int], observations: list[list[int]], rewards: list[float]) -> list[int]:
        if self.whole is not None:
            actions = [int(a) for a in self.whole.act_batch(slots, observations, rewards)]
            if len(actions) != len(slots):
                raise ValueError(f"act_batch gave {len(actions)} actions for {len(slots)} slots")
            return actions
        agents = self.agents
        return [int(agents[s].act(o, r)) for s, o, r in zip(slots, observations, rewards)]

    def end(self, message: dict[str, Any]) -> None:
        slot = message.get("slot", 0)
        if self.whole is not None:
            if hasattr(self.whole, "end_slot"):
                self.whole.end_slot(slot, message["reward"], message["score"])
        elif hasattr(self.agents.get(slot), "end"):
            self.agents[slot].end(message["reward"], message["score"])


def _batch_size(policy: Any, offered: int, limit: int | None) -> int:
    """The batch accepted of `offered`: all of it, or 1 for an object that
    cannot be copied per slot, at most `limit`."""
    if limit is not None and limit < 1:
        raise ValueError(f"a batch is at least 1 item, not {limit}")
    shareable = inspect.isclass(policy) or isinstance(policy, BatchAgent) or not isinstance(policy, Agent)
    size = offered if shareable else 1
    return size if limit is None else min(size, limit)


def policy_agent(
    policy: Any,
    *,
    name: str = "python",
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    batch: int | None = None,
) -> None:
    """Runs the policy as an agent of protocol anynt/1 until anynt says bye.

    Offered batches, it accepts as many items at once as anynt offers (at
    most `batch`, if given; 1 for an agent object that is not a class and
    not a BatchAgent, which cannot be copied per slot). An exception of the
    policy is sent to anynt as an error message (anynt reports it as the
    agent's fault, quoted, with the exercise and step) and raised again.
    """
    slots = _Slots(policy)  # a policy that is none raises TypeError here, before hello
    read = stdin if stdin is not None else sys.stdin
    write = stdout if stdout is not None else sys.stdout

    def send(message: dict[str, Any]) -> None:
        write.write(json.dumps(message) + "\n")
        write.flush()  # anynt waits for each answer

    try:
        for line in read:
            message = json.loads(line)
            kind = message["type"]
            if kind == "observe":
                if "slots" in message:
                    actions = slots.act(message["slots"], message["observations"], message["rewards"])
                    write.write('{"type": "act", "actions": [' + ", ".join(map(str, actions)) + "]}\n")
                    write.flush()
                else:
                    action = slots.act([0], [message["observation"]], [message["reward"]])[0]
                    send({"type": "act", "action": action})
            elif kind == "start":
                slots.start(message)
            elif kind == "end":
                slots.end(message)
            elif kind == "hello":
                major = str(message.get("protocol", "")).split(".")[0]
                if major != PROTOCOL:
                    send({"type": "error", "message": f"this agent speaks {PROTOCOL} only, not {message.get('protocol')!r}"})
                    return
                if "batch" in message:
                    size = _batch_size(policy, int(message["batch"]), batch)
                    send({"type": "hello", "protocol": BATCH_PROTOCOL, "name": name, "batch": size})
                else:
                    send({"type": "hello", "protocol": PROTOCOL, "name": name})
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
