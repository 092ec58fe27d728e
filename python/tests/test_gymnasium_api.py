"""What Gymnasium's users reach for: gym.make_vec with wrappers, a vector's
get_attr, call and render (the native vector answering as SyncVectorEnv
does), spec.max_episode_steps, and seeds refused with ValueError."""

from __future__ import annotations

import math
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode
from gymnasium.wrappers import TimeLimit

import anynt


def test_make_vec_takes_single_environment_wrappers(binary: str) -> None:
    envs = gym.make_vec("anynt/Example6-v0", num_envs=2, wrappers=[gym.wrappers.RecordEpisodeStatistics])
    try:
        assert isinstance(envs, gym.vector.SyncVectorEnv)
        assert all(isinstance(env, gym.wrappers.RecordEpisodeStatistics) for env in envs.envs)
        envs.reset(seed=1)
        envs.step(envs.action_space.sample())
    finally:
        envs.close()
    with pytest.raises(TypeError, match="takes no wrappers="):
        anynt.make_vec("anynt/Example6-v0", num_envs=2, wrappers=[gym.wrappers.RecordEpisodeStatistics])


@pytest.mark.parametrize("autoreset", [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP])
@pytest.mark.parametrize("mode", ["rgb_array", "ansi"])
def test_the_native_vector_renders_and_answers_as_sync_vector_env(
    binary: str, mode: str, autoreset: AutoresetMode
) -> None:
    """The same seeds and actions, across autoresets: the native vector's
    render, call and get_attr equal SyncVectorEnv's of anynt.Env copies."""
    n, steps = 3, 4
    native = anynt.make_vec("anynt/Fig3Torus-v0", num_envs=n, steps=steps, render_mode=mode, autoreset_mode=autoreset)
    sync = gym.make_vec(
        "anynt/Fig3Torus-v0", num_envs=n, vectorization_mode="sync", vector_kwargs={"autoreset_mode": autoreset},
        steps=steps, render_mode=mode,
    )
    try:
        assert native.render_mode == sync.render_mode == mode
        for name in ("name", "action_names", "steps", "cells", "exercise_seed", "obs_length", "pad"):
            assert native.get_attr(name) == sync.get_attr(name), name
            assert native.call(name) == sync.call(name), name
        assert native.get_attr("action_space") == sync.get_attr("action_space")
        assert native.get_attr("observation_space") == sync.get_attr("observation_space")
        native.reset(seed=7)
        sync.reset(seed=7)
        assert native.get_attr("alphabet") == sync.get_attr("alphabet")
        rng = np.random.default_rng(2)
        for k in range(3 * (steps + 1) + 1):
            if k:
                actions = rng.integers(0, len(native.action_names), size=n)
                _, r_native, _, _, _ = native.step(actions)
                _, r_sync, _, _, _ = sync.step(actions)
                np.testing.assert_array_equal(r_native, r_sync)
            for a, b in zip(native.render(), sync.render()):
                if mode == "ansi":
                    assert a == b, k
                else:
                    assert a.shape == b.shape and a.tobytes() == b.tobytes(), k
            assert [np.asarray(f).tobytes() for f in native.call("render")] == [
                np.asarray(f).tobytes() for f in sync.call("render")
            ]
        with pytest.raises(AttributeError, match="no attribute 'nonesuch'"):
            native.get_attr("nonesuch")
    finally:
        native.close()
        sync.close()


def test_the_native_vector_renders_nothing_without_a_render_mode(binary: str) -> None:
    envs = anynt.make_vec("anynt/Example5-v0", num_envs=2)
    try:
        envs.reset(seed=1)
        assert envs.render() is None
        assert envs.call("render") == (None, None)
    finally:
        envs.close()


@pytest.mark.parametrize(
    ("kwargs", "steps"),
    [({}, 1000), ({"steps": 7}, 7), ({"steps": 2000}, 2000)],
)
def test_spec_max_episode_steps_is_the_episodes_length(binary: str, kwargs: dict[str, Any], steps: int) -> None:
    env = gym.make("anynt/Omega1Blocker-v0", **kwargs)
    envs = anynt.make_vec("anynt/Omega1Blocker-v0", num_envs=2, **kwargs)
    try:
        assert env.spec is not None and env.spec.max_episode_steps == steps
        assert envs.spec is not None and envs.spec.max_episode_steps == steps
        # No TimeLimit of gym.make's (a registered length would cut a larger steps= short).
        assert "TimeLimit" not in str(env)
        env.reset(seed=1)
        truncated = [env.step(0)[3] for _ in range(steps)]
        assert truncated == [False] * (steps - 1) + [True]
    finally:
        env.close()
        envs.close()


def test_spec_max_episode_steps_of_lambda_one_and_of_a_time_limit(binary: str) -> None:
    env = gym.make("anynt/LambdaOne-v0", seed=1, exercise=3)
    limited = gym.make("anynt/Omega1Blocker-v0", max_episode_steps=3)
    try:
        assert env.spec is not None and env.spec.max_episode_steps == env.unwrapped.steps  # type: ignore[attr-defined]
        assert limited.spec is not None and limited.spec.max_episode_steps == 3
        assert isinstance(limited.env, TimeLimit) or "TimeLimit" in str(limited)
    finally:
        env.close()
        limited.close()


BIG = 2**64


@pytest.mark.parametrize(
    "make",
    [
        lambda: gym.make("anynt/Omega1Blocker-v0").reset(seed=-1),
        lambda: gym.make("anynt/Omega1Blocker-v0").reset(seed=BIG),
        lambda: gym.make("anynt/Omega1Blocker-v0", reseed_encoding=True).reset(seed=BIG),
        lambda: gym.make("anynt/Omega1Blocker-v0", exercise_seed=-1),
        lambda: gym.make("anynt/Omega1Blocker-v0", exercise_seed=BIG),
        lambda: gym.make("anynt/LambdaOne-v0", seed=-1),
        lambda: gym.make("anynt/LambdaOne-v0", seed=BIG),
        lambda: anynt.make_vec("anynt/Omega1Blocker-v0", num_envs=2).reset(seed=-1),
        lambda: anynt.make_vec("anynt/Omega1Blocker-v0", num_envs=2).reset(seed=[1, BIG]),
        # Copy 1's stream would be 2^64, which wraps round to stream 0.
        lambda: anynt.make_vec("anynt/Omega1Blocker-v0", num_envs=2).reset(seed=BIG - 1),
        lambda: anynt.make_vec("anynt/Omega1Blocker-v0", num_envs=2, exercise_seed=-1),
    ],
)
def test_a_seed_out_of_range_is_a_value_error(binary: str, make: Any) -> None:
    with pytest.raises(ValueError, match=r"seed must be (from 0 to 2\*\*64 - 1|at most 2\*\*64 - 2)"):
        make()


def test_the_largest_seeds_are_taken(binary: str) -> None:
    env = gym.make("anynt/Omega1Blocker-v0")
    envs = anynt.make_vec("anynt/Omega1Blocker-v0", num_envs=2)
    try:
        assert env.reset(seed=BIG - 1)[1]["episode_seed"] == BIG - 1
        assert list(envs.reset(seed=BIG - 2)[1]["episode_seed"]) == [BIG - 2, BIG - 1]
    finally:
        env.close()
        envs.close()


def test_small_rewards_are_traces_halved_not_rounding(binary: str) -> None:
    """Omega1Blocker's rewards of 1e-18 and the like are not noise: each is
    0 or ±½·2^-k exactly, the ½ Good or Evil left k interactions before,
    halved once an interaction ([P] §4.4; docs/environments.md, "Rewards are
    exact")."""
    env = gym.make("anynt/Omega1Blocker-v0")
    small = 0
    try:
        for seed in range(20):
            env.reset(seed=seed)
            env.action_space.seed(seed)
            for _ in range(60):
                r = float(env.step(env.action_space.sample())[1])
                mantissa, _ = math.frexp(abs(r))
                assert r == 0 or mantissa == 0.5, r
                small += 0 < abs(r) < 1e-9
    finally:
        env.close()
    assert small > 0  # the case is exercised
