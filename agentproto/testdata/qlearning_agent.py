#!/usr/bin/env python3
"""Tabular Q-learning for anynt's agent protocol anynt/1, written from
docs/protocol.md alone, with the thesis's settings: learning rate 0.05,
discount 0.35, Q initialised to 2, rewards shifted from [-1, 1] to [0, 2],
the state is the observation, greedy with ties broken at random, and a new
table for each episode.
"""
import json
import random
import sys

ALPHA, GAMMA, Q0 = 0.05, 0.35, 2.0


class QLearning:
    def __init__(self) -> None:
        self.rng = random.Random()
        self.actions = 0
        self.q: dict[tuple[int, ...], list[float]] = {}
        self.previous: list[float] | None = None
        self.previous_action = 0

    def start(self, actions: int, seed: int) -> None:
        self.actions, self.q, self.previous = actions, {}, None
        self.rng.seed(seed)

    def act(self, observation: list[int], reward: float) -> int:
        values = self.q.setdefault(tuple(observation), [Q0] * self.actions)
        if self.previous is not None:  # learn from the previous action
            old = self.previous[self.previous_action]
            self.previous[self.previous_action] = old + ALPHA * (reward + 1 + GAMMA * max(values) - old)
        best = max(values)  # after learning: the state may be the previous one
        ties = [a for a, v in enumerate(values) if v == best]
        self.previous, self.previous_action = values, self.rng.choice(ties)
        return self.previous_action


def main() -> None:
    agent = QLearning()
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "hello":
            reply = {"type": "hello", "protocol": "anynt/1", "name": "qlearning.py"}
        elif kind == "start":
            agent.start(message["actions"], message["seed"])
            continue
        elif kind == "observe":
            reply = {"type": "act", "action": agent.act(message["observation"], message["reward"])}
        elif kind == "bye":
            return
        else:  # "end": the episode is cut at its length, not a terminal state
            continue
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
