"""anynt.AnyntVectorEnv: the vector API, the same trajectories as single
environments, autoreset modes, bad input, close."""

from __future__ import annotations

import gc
import pickle
import time
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.error import ResetNeeded
from gymnasium.vector import AutoresetMode

import anynt


def text(envs: anynt.AnyntVectorEnv, row: np.ndarray) -> str:
    """An observation row spelled in the vector's alphabet."""
    return "".join(envs.alphabet[i] for i in row[: envs.length])


def test_the_vector_api(binary: str) -> None:
    envs = anynt.make_vec("anynt/Fig3Torus-v0", num_envs=3, steps=4)
    try:
        assert isinstance(envs, anynt.AnyntVectorEnv)
        assert envs.spec is not None and envs.spec.id == "anynt/Fig3Torus-v0"
        assert envs.spec.kwargs == {"name": "Fig3Torus", "steps": 4, "num_envs": 3}
        assert envs.num_envs == 3
        assert envs.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
        single = envs.single_observation_space
        assert isinstance(single, gym.spaces.MultiDiscrete) and single.shape == (envs.obs_length,)
        assert envs.observation_space.shape == (3, envs.obs_length)
        assert envs.single_action_space == gym.spaces.Discrete(len(envs.action_names))
        assert isinstance(envs.action_space, gym.spaces.MultiDiscrete) and envs.action_space.shape == (3,)
        obs, infos = envs.reset(seed=5)
        assert obs.dtype == np.int64 and obs in envs.observation_space
        assert list(infos["episode_seed"]) == [5, 6, 7] and infos["_episode_seed"].all()
        assert list(infos["episode_index"]) == [0, 0, 0]
        envs.action_space.seed(1)
        for k in range(9):
            obs, rewards, terminated, truncated, infos = envs.step(envs.action_space.sample())
            assert obs.shape == (3, envs.obs_length) and obs.dtype == np.int64 and obs in envs.observation_space
            assert rewards.shape == (3,) and rewards.dtype == np.float64 and ((-1 <= rewards) & (rewards <= 1)).all()
            assert terminated.dtype == np.bool_ and not terminated.any()
            assert truncated.dtype == np.bool_ and list(truncated) == [k % 5 == 3] * 3
            assert infos == {}
            for row in obs:  # padded as anynt.Env pads, at the end only
                assert (row[envs.length :] == envs.pad).all() and (row[: envs.length] < envs.pad).all()
                assert text(envs, row).count(":") == envs.cells
    finally:
        envs.close()


def test_anynt_make_vec_and_lambda_one(binary: str) -> None:
    envs = anynt.make_vec("anynt/LambdaOne-v0", num_envs=2, seed=1, exercise=3)
    try:
        assert envs.name == "lambda-one:1/3"
        obs, _ = envs.reset()
        assert obs.shape == (2, envs.obs_length)
    finally:
        envs.close()


def test_the_same_trajectories_as_single_environments(binary: str) -> None:
    # Copy i of reset(seed=s) plays the episodes of an anynt.Env reset with
    # seed s+i, and the episodes after them, in the vector's one alphabet.
    n, steps, seed = 4, 5, 1
    file = anynt.corpus_file("Omega1Blocker")
    envs = anynt.AnyntVectorEnv(file, num_envs=n, steps=steps)
    singles = [anynt.Env(file, steps=steps, obs_type="text") for _ in range(n)]
    twin = anynt.Env(file, steps=steps)  # copy 0: same seed, same alphabet
    try:
        rng = np.random.default_rng(3)
        obs, _ = envs.reset(seed=seed)
        got = [text(envs, row) for row in obs]
        want = [env.reset(seed=seed + i)[0] for i, env in enumerate(singles)]
        assert got == want
        np.testing.assert_array_equal(obs[0], twin.reset(seed=seed)[0])
        ended = False
        for _ in range(3 * steps + 2):
            actions = rng.integers(0, 3, size=n)
            obs, rewards, _, truncated, _ = envs.step(actions)
            if ended:  # next_step: this step started the copies' next episodes
                want_rows = [(env.reset()[0], 0.0, False) for env in singles]
                twin_obs = twin.reset()[0]
            else:
                want_rows = [(o, r, tr) for o, r, _, tr, _ in (env.step(int(a)) for env, a in zip(singles, actions))]
                twin_obs = twin.step(int(actions[0]))[0]
            assert [(text(envs, row), float(r), bool(t)) for row, r, t in zip(obs, rewards, truncated)] == want_rows
            np.testing.assert_array_equal(obs[0], twin_obs)
            ended = bool(truncated.all())
    finally:
        envs.close()
        twin.close()
        for env in singles:
            env.close()


def test_same_step_gives_the_final_observation(binary: str) -> None:
    file = anynt.corpus_file("Example6")
    nxt = anynt.AnyntVectorEnv(file, num_envs=3, steps=2)
    same = anynt.AnyntVectorEnv(file, num_envs=3, steps=2, autoreset_mode="same_step")
    try:
        assert same.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
        a, _ = nxt.reset(seed=9)
        b, _ = same.reset(seed=9)
        np.testing.assert_array_equal(a, b)
        actions = np.array([1, 0, 1])
        for _ in range(2):
            a, ra, _, ta, ia = nxt.step(actions)
            b, rb, _, tb, ib = same.step(actions)
        assert ta.all() and tb.all()
        np.testing.assert_array_equal(ra, rb)
        assert ia == {}
        assert ib["_final_obs"].all() and ib["_final_info"].all()
        for k in range(3):
            np.testing.assert_array_equal(ib["final_obs"][k], a[k])  # the last observation
        a, ra, _, ta, _ = nxt.step(actions)  # next_step starts the next episodes now
        np.testing.assert_array_equal(a, b)  # same_step did at once
        assert not ra.any() and not ta.any()
    finally:
        nxt.close()
        same.close()


def test_disabled_autoreset_and_reset_mask(binary: str) -> None:
    envs = anynt.AnyntVectorEnv(anynt.corpus_file("Example5"), num_envs=2, steps=1, autoreset_mode="disabled")
    try:
        envs.reset(seed=1)
        assert envs.step([0, 0])[3].all()
        with pytest.raises(anynt.AnyntError, match="copy 0 is over"):
            envs.step([0, 0])
        _, infos = envs.reset(options={"reset_mask": np.array([True, False])})
        assert list(infos["_episode_index"]) == [True, False] and infos["episode_index"][0] == 1
        with pytest.raises(anynt.AnyntError, match="copy 1 is over"):
            envs.step([0, 0])
        envs.reset(options={"reset_mask": np.array([False, True])})
        assert envs.step([1, 1])[3].all()
    finally:
        envs.close()


def test_seeds_a_copy_and_episodes(binary: str) -> None:
    envs = anynt.AnyntVectorEnv(anynt.corpus_file("Omega1Blocker"), num_envs=3, steps=3)
    try:
        a, infos = envs.reset(seed=[7, 8, 9])
        b, _ = envs.reset(seed=7)
        np.testing.assert_array_equal(a, b)
        assert list(infos["episode_seed"]) == [7, 8, 9]
        _, infos = envs.reset()
        assert list(infos["episode_index"]) == [1, 1, 1]  # the next episodes
        _, infos = envs.reset(options={"episode": 4})
        assert list(infos["episode_index"]) == [4, 4, 4] and list(infos["episode_seed"]) == [7, 8, 9]
        c, _ = envs.reset(seed=[9, 8, 7])
        np.testing.assert_array_equal(c, a[::-1])
    finally:
        envs.close()


@pytest.mark.parametrize(
    "actions, error, message",
    [
        ([0, 3], ValueError, "action 3 of copy 1 is not an action: 0 to 2"),
        ([-1, 0], ValueError, "action -1 of copy 0"),
        ([0], ValueError, r"shape \(2,\)"),
        ([[0, 1]], ValueError, r"shape \(2,\)"),
        ([0.0, 1.0], ValueError, "integer array"),
        ([True, False], ValueError, "integer array"),
    ],
)
def test_bad_actions_are_refused_and_change_nothing(binary: str, actions: Any, error: type, message: str) -> None:
    file = anynt.corpus_file("Omega1Blocker")
    envs = anynt.AnyntVectorEnv(file, num_envs=2, steps=4)
    twin = anynt.AnyntVectorEnv(file, num_envs=2, steps=4)
    try:
        envs.reset(seed=4)
        twin.reset(seed=4)
        with pytest.raises(error, match=message):
            envs.step(actions)
        for x, y in zip(envs.step(np.array([2, 1])), twin.step(np.array([2, 1]))):
            if isinstance(x, dict):
                assert x == y
            else:
                np.testing.assert_array_equal(x, y)
    finally:
        envs.close()
        twin.close()


@pytest.mark.parametrize(
    "kwargs, error, message",
    [
        ({"num_envs": 0}, ValueError, "num_envs is 0; it must be from 1 to 4096"),
        ({"num_envs": 4097}, ValueError, "num_envs is 4097"),
        ({"num_envs": 2.0}, TypeError, "num_envs must be an integer"),
        ({"autoreset_mode": "later"}, ValueError, "autoreset_mode must be one of"),
        ({"render_mode": "human"}, ValueError, "render_mode must be None"),
        ({"obs_type": "text"}, ValueError, 'obs_type must be "array"'),
        ({"steps": 0}, anynt.AnyntError, "steps is 0"),
    ],
)
def test_bad_construction(binary: str, kwargs: dict[str, Any], error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        anynt.AnyntVectorEnv(anynt.corpus_file("Example5"), **kwargs)


def test_bad_resets(binary: str) -> None:
    envs = anynt.AnyntVectorEnv(anynt.corpus_file("Example5"), num_envs=2)
    try:
        with pytest.raises(ResetNeeded):
            envs.step([0, 0])
        with pytest.raises(ValueError, match="3 seeds for 2 copies"):
            envs.reset(seed=[1, 2, 3])
        with pytest.raises(TypeError, match="seed must be an integer"):
            envs.reset(seed=1.5)  # type: ignore[arg-type]
        with pytest.raises(ValueError, match="reset_mask must be a bool array"):
            envs.reset(options={"reset_mask": [1, 0]})
        with pytest.raises(ValueError, match="unknown reset option"):
            envs.reset(options={"episodes": 1})
    finally:
        envs.close()


def test_close_ends_the_server(binary: str) -> None:
    envs = anynt.AnyntVectorEnv(anynt.corpus_file("Example5"), num_envs=2)
    proc = envs._server._proc
    assert proc is not None and proc.poll() is None
    envs.close()
    assert envs.closed and proc.returncode == 0
    envs.close()  # twice is harmless
    with pytest.raises(anynt.AnyntError, match="closed"):
        envs.reset()


def test_pickling_is_refused_plainly(binary: str) -> None:
    envs = anynt.AnyntVectorEnv(anynt.corpus_file("Example5"), num_envs=2)
    try:
        with pytest.raises(TypeError, match="cannot be pickled"):
            pickle.dumps(envs)
    finally:
        envs.close()


def test_a_collected_vector_ends_its_server(binary: str) -> None:
    envs = anynt.AnyntVectorEnv(anynt.corpus_file("Example5"), num_envs=2)
    proc = envs._server._proc
    assert proc is not None
    del envs
    gc.collect()
    assert proc.returncode == 0  # closed and waited for


def test_vector_env_times_out_on_a_silent_program(tmp_path: Path) -> None:
    """The vector environment waits at most `timeout` for serve-env, as the
    single environment does: a program that never answers is killed."""
    silent = tmp_path / "silent"
    silent.write_text("#!/bin/sh\nexec sleep 600\n")
    silent.chmod(0o755)
    start = time.monotonic()
    with pytest.raises(anynt.AnyntTimeout):
        anynt.make_vec("anynt/Omega1Blocker-v0", num_envs=2, binary=str(silent), timeout=0.5)
    assert time.monotonic() - start < 30
