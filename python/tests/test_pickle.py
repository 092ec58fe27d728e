"""Pickling and copying: a copy runs its own serve-env, made from the same
arguments, and resumes the episode under way; a closed environment pickles
to a closed one."""

from __future__ import annotations

import copy
import pickle
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.error import ResetNeeded

import anynt


def same_step(a: tuple[Any, ...], b: tuple[Any, ...]) -> None:
    np.testing.assert_array_equal(a[0], b[0])
    assert a[1:] == b[1:]


def pid(env: gym.Env[Any, Any]) -> int:
    proc = env.unwrapped._server._proc  # type: ignore[attr-defined]
    assert proc is not None and proc.poll() is None
    return int(proc.pid)


@pytest.mark.parametrize("duplicate", [lambda e: pickle.loads(pickle.dumps(e)), copy.deepcopy])
@pytest.mark.parametrize("kwargs", [{}, {"reseed_encoding": True}, {"exercise_seed": 9, "obs_type": "text"}])
def test_a_copy_resumes_the_episode_in_its_own_process(binary: str, duplicate: Any, kwargs: dict[str, Any]) -> None:
    env = anynt.AnyntEnv(anynt.corpus_file("Fig3Torus"), steps=30, render_mode="rgb_array", **kwargs)
    twin = None
    try:
        env.reset(seed=4)
        env.reset()  # episode 1 of stream 4
        for k in range(12):
            env.step(k % 5)
        twin = duplicate(env)
        assert pid(twin) != pid(env)
        assert twin.render().tobytes() == env.render().tobytes()
        assert (twin.exercise_seed, twin.alphabet) == (env.exercise_seed, env.alphabet)
        assert twin.np_random.integers(1 << 30) == env.np_random.integers(1 << 30)
        for k in range(18):  # to the episode's end, then the stream's next episodes
            same_step(twin.step(k % 3), env.step(k % 3))
        with pytest.raises(anynt.AnyntError, match="is over"):
            twin.step(0)
        for _ in range(2):
            a, b = twin.reset(), env.reset()
            np.testing.assert_array_equal(a[0], b[0])
            assert a[1] == b[1] and a[1]["episode_index"] in (2, 3)
    finally:
        env.close()
        if twin is not None:
            twin.close()


def test_a_copy_before_any_reset_starts_at_episode_0(binary: str) -> None:
    env = gym.make("anynt/LambdaOne-v0", seed=2, exercise=5)  # through make's wrappers
    twin = pickle.loads(pickle.dumps(env))
    try:
        with pytest.raises(ResetNeeded):
            twin.unwrapped.step(0)
        a, b = twin.reset(), env.reset()
        np.testing.assert_array_equal(a[0], b[0])
        assert a[1] == b[1] and a[1]["episode_index"] == 0
        assert twin.spec == env.spec
    finally:
        env.close()
        twin.close()


def test_a_closed_env_pickles_closed(binary: str) -> None:
    env = anynt.AnyntEnv(anynt.corpus_file("Example5"), render_mode="rgb_array")
    env.reset(seed=1)
    env.step(1)
    frame = env.render()
    env.close()
    twin = pickle.loads(pickle.dumps(env))
    assert twin._server.closed
    with pytest.raises(anynt.AnyntError, match="closed"):
        twin.reset()
    # What it knew stays: its spaces and its last frame.
    assert twin.observation_space == env.observation_space
    assert twin.render().tobytes() == frame.tobytes()
    twin.close()


def test_a_copy_ends_its_process_on_close(binary: str) -> None:
    env = anynt.AnyntEnv(anynt.corpus_file("Example6"))
    twin = pickle.loads(pickle.dumps(env))
    proc = twin._server._proc
    env.close()
    assert proc is not None and proc.poll() is None  # the original's close is not the copy's
    twin.close()
    assert proc.returncode == 0
