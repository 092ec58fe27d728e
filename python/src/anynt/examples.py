"""Example agents: random, and tabular Q-learning with the thesis's settings.

Both draw only from the episode's seed (Start.rng), so each takes the same
actions as its standard-library twin in agentproto/testdata/ (random_agent.py,
qlearning_agent.py), which the tests check:

    anynt test --agent-cmd "python -m anynt.agent anynt.examples:random_policy"
    anynt test --agent-cmd "python -m anynt.agent anynt.examples:QLearning"
"""

from __future__ import annotations

from .agent import Start

# The thesis's settings: learning rate, discount, initial Q (rewards are
# shifted from [-1, 1] to [0, 2], so 2 is optimistic).
ALPHA, GAMMA, Q0 = 0.05, 0.35, 2.0


def random_policy(observation: list[int], reward: float, start: Start) -> int:
    """An action drawn uniformly from the episode's seed."""
    return start.rng.randrange(start.actions)


class QLearning:
    """Tabular Q-learning: the state is the observation, greedy with ties broken
    at random, and a new table for each episode, as the built-in qlearning."""

    def __init__(self) -> None:
        self.actions = 0
        self.q: dict[tuple[int, ...], list[float]] = {}
        self.previous: list[float] | None = None
        self.previous_action = 0
        self.episode: Start | None = None

    def start(self, start: Start) -> None:
        self.episode, self.actions, self.q, self.previous = start, start.actions, {}, None

    def act(self, observation: list[int], reward: float) -> int:
        assert self.episode is not None
        values = self.q.setdefault(tuple(observation), [Q0] * self.actions)
        if self.previous is not None:  # learn from the previous action
            old = self.previous[self.previous_action]
            self.previous[self.previous_action] = old + ALPHA * (reward + 1 + GAMMA * max(values) - old)
        best = max(values)  # after learning: the state may be the previous one
        ties = [a for a, v in enumerate(values) if v == best]
        self.previous, self.previous_action = values, self.episode.rng.choice(ties)
        return self.previous_action
