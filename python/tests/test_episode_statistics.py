"""Gymnasium's RecordEpisodeStatistics and CleanRL's way of reading it: the
reset info leaves the key "episode" to the wrapper, so a vector environment's
infos hold the statistics there, and nothing else, at every step."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import gymnasium as gym
import numpy as np
import pytest

import anynt

ENV_ID = "anynt/Omega1Blocker-v0"
STEPS = 5  # an episode's interactions; NEXT_STEP's autoreset adds a step


def make_env(env_id: str, idx: int) -> Callable[[], gym.Env[Any, Any]]:
    """CleanRL's make_env (ppo.py, for Gymnasium 1.x), without the video."""

    def thunk() -> gym.Env[Any, Any]:
        env = gym.make(env_id, steps=STEPS)
        env = gym.wrappers.RecordEpisodeStatistics(env)
        return env

    return thunk


def cleanrl_sync(n: int) -> gym.vector.VectorEnv[Any, Any, Any]:
    return gym.vector.SyncVectorEnv([make_env(ENV_ID, i) for i in range(n)])


def make_vec_wrappers(n: int) -> gym.vector.VectorEnv[Any, Any, Any]:
    return gym.make_vec(ENV_ID, num_envs=n, steps=STEPS, wrappers=[gym.wrappers.RecordEpisodeStatistics])


def native(n: int) -> gym.vector.VectorEnv[Any, Any, Any]:
    return gym.wrappers.vector.RecordEpisodeStatistics(anynt.make_vec(ENV_ID, num_envs=n, steps=STEPS))


def test_the_reset_info_names_the_episode_episode_index(binary: str) -> None:
    env = gym.make(ENV_ID)
    try:
        _, info = env.reset(seed=3)
        assert "episode" not in info  # RecordEpisodeStatistics's key
        assert info["episode_index"] == 0
        _, info = env.reset()
        assert "episode" not in info and info["episode_index"] == 1
    finally:
        env.close()


@pytest.mark.parametrize("make", [cleanrl_sync, make_vec_wrappers, native], ids=["SyncVectorEnv", "make_vec", "native"])
def test_cleanrl_logging_reads_every_episode(binary: str, make: Callable[[int], Any]) -> None:
    """CleanRL's loop (ppo.py for Gymnasium 1.x): `if "episode" in infos`,
    then infos["episode"]["r"][infos["_episode"]], over three episodes of
    each copy and their autoresets; each return is the sum of the copy's
    rewards over its episode."""
    n = 3
    envs = make(n)
    try:
        envs.reset(seed=1)
        envs.action_space.seed(1)
        running = np.zeros(n)
        want: list[tuple[int, float, int]] = []
        got: list[tuple[int, float, int]] = []
        restarting = np.zeros(n, dtype=np.bool_)
        for global_step in range(3 * (STEPS + 1)):
            _, reward, terminations, truncations, infos = envs.step(envs.action_space.sample())
            running[restarting] = 0  # an autoreset step: no reward, a new episode
            running += reward
            ended = np.logical_or(terminations, truncations)
            want += [(int(i), float(running[i]), STEPS) for i in np.flatnonzero(ended)]
            restarting = ended
            if "episode" in infos:
                for i in np.flatnonzero(infos["_episode"]):
                    got.append((int(i), float(infos["episode"]["r"][i]), int(infos["episode"]["l"][i])))
                assert infos["episode"]["r"][infos["_episode"]].shape == (int(infos["_episode"].sum()),)
        assert len(want) == 3 * n
        assert [(i, pytest.approx(r), length) for i, r, length in want] == got
    finally:
        envs.close()
