"""anynt.AnyntEnv: Gymnasium's checks, the CLI's trajectories, reset/step/close, bad input."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.error import ResetNeeded
from gymnasium.utils.env_checker import check_env

import anynt

# Where each shipped corpus environment comes from in the repository.
CORPUS_DIRS = {
    "Omega1Blocker": "thesis",
    "Example5": "paper",
    "Example6": "paper",
    "Example7": "paper",
    "Fig3Torus": "paper",
    "Fig3TwoLevelRing": "paper",
    "LambdaOneFixtureB": "lambda-one",
}


def test_shipped_corpus_equals_the_repository(repo: Path) -> None:
    assert set(CORPUS_DIRS) == set(anynt.CORPUS)
    for name, file in anynt.CORPUS.items():
        shipped = Path(anynt.corpus_file(name)).read_bytes()
        original = (repo / "corpus" / CORPUS_DIRS[name] / file).read_bytes()
        assert shipped == original, f"python/src/anynt/envs/{file} differs from corpus/{CORPUS_DIRS[name]}/{file}"


@pytest.mark.parametrize("env_id", anynt.ENV_IDS)
@pytest.mark.parametrize("obs_type", ["array", "text"])
@pytest.mark.parametrize("render_mode", [None, "rgb_array"])
def test_check_env_passes(binary: str, env_id: str, obs_type: str, render_mode: str | None) -> None:
    """Gymnasium's checks, its render check included: it also makes the id in
    each of metadata["render_modes"] and renders."""
    env = gym.make(env_id, obs_type=obs_type, render_mode=render_mode)
    try:
        check_env(env.unwrapped, skip_render_check=False)
    finally:
        env.close()


def test_every_id_is_registered() -> None:
    for env_id in anynt.ENV_IDS:
        assert env_id in gym.registry
    assert "anynt/Omega1Blocker-v0" in anynt.ENV_IDS
    assert "anynt/LambdaOne-v0" in anynt.ENV_IDS


def cli_trace(binary: str, file: str, seed: int, steps: int) -> list[tuple[str, str, str]]:
    """(observation, action, reward) of each interaction of `anynt run --trace`."""
    run = subprocess.run(
        [binary, "run", file, "--seed", str(seed), "--steps", str(steps), "--episodes", "1", "--trace"],
        capture_output=True, text=True, encoding="utf-8", check=True,
    )
    lines = run.stderr.splitlines()
    assert lines[0].startswith("interaction\tobservation\taction\treward"), run.stderr
    rows = []
    for i, line in enumerate(lines[1 : steps + 1], start=1):
        fields = line.split("\t")
        assert fields[0] == str(i), line
        rows.append((fields[1], fields[2], fields[3]))
    assert len(rows) == steps
    return rows


@pytest.mark.parametrize("name", ["Omega1Blocker", "Fig3Torus", "LambdaOneFixtureB", "Example5"])
@pytest.mark.parametrize("seed", [1, 7, 2**64 - 1])
@pytest.mark.parametrize("own_exercise", [True, False])
def test_same_seed_same_trajectory_as_the_cli(binary: str, name: str, seed: int, own_exercise: bool) -> None:
    """anynt run's trace (its random agent's actions) replayed through the env gives
    the trace's observations and rewards, interaction for interaction: reset(seed=S)
    on an env made with exercise_seed=S, and (the text does not depend on the
    alphabet) on an env of the default exercise seed, which plays the same
    episodes in its own alphabet."""
    file = anynt.corpus_file(name)
    steps = 60
    trace = cli_trace(binary, file, seed, steps)
    env = anynt.AnyntEnv(file, steps=steps, obs_type="text", exercise_seed=seed if own_exercise else None)
    try:
        obs, info = env.reset(seed=seed)
        assert info["seed"] == (seed if own_exercise else 1)
        assert info["episode_seed"] == seed and info["episode_index"] == 0
        for i, (seen, action, reward) in enumerate(trace, start=1):
            assert obs == seen, f"interaction {i}"
            obs, r, terminated, truncated, info = env.step(env.action_names.index(action))
            assert "%+.4g" % r == reward, f"interaction {i}"
            assert terminated is False
            assert truncated == (i == steps)
            assert info["step"] == i
    finally:
        env.close()


def test_lambda_one_is_deterministic_by_seed(binary: str) -> None:
    def play(test_seed: int, reset_seed: int | None) -> list[tuple[str, float]]:
        with anynt.lambda_one(test_seed, 4, obs_type="text") as env:
            obs, _ = env.reset(seed=reset_seed)
            out = [(obs, 0.0)]
            for k in range(env.steps):
                obs, r, _, _, _ = env.step(k % env.action_space.n)
                out.append((obs, r))
            return out

    assert play(1, None) == play(1, None)
    assert play(1, 5) == play(1, 5)
    assert play(1, 5) != play(1, 6)  # another stream of episodes
    assert play(1, None) != play(2, None)  # another test's exercise 4


def test_reset_seeds_and_episodes(binary: str) -> None:
    env = anynt.AnyntEnv(anynt.corpus_file("Omega1Blocker"), steps=5)
    try:
        first, info = env.reset()
        assert (info["seed"], info["episode_index"]) == (1, 0)  # the file's default seed, episode 0
        _, info = env.reset()
        assert info["episode_index"] == 1  # the next episode, Gymnasium's convention
        again, info = env.reset(seed=1)
        assert (info["seed"], info["episode_index"]) == (1, 0)
        np.testing.assert_array_equal(first, again)
        _, info = env.reset(options={"episode": 9})
        assert info["episode_index"] == 9
        a, info_a = env.reset(seed=7)
        b, info_b = env.reset(seed=7)
        np.testing.assert_array_equal(a, b)
        assert info_a == info_b
        assert (info_a["seed"], info_a["episode_seed"], info_a["episode_index"]) == (1, 7, 0)  # the exercise stays
        _, info = env.reset()
        assert (info["seed"], info["episode_seed"], info["episode_index"]) == (1, 7, 1)  # the stream's next
    finally:
        env.close()


def test_array_observation_encoding(binary: str) -> None:
    env = anynt.AnyntEnv(anynt.corpus_file("Fig3Torus"), steps=20)
    try:
        assert env.pad == env.n_symbols == len(env.alphabet)
        assert env.obs_length == env.cells + env.n_symbols - 1
        assert isinstance(env.observation_space, gym.spaces.MultiDiscrete)
        obs, info = env.reset(seed=3)
        for k in range(20):
            assert obs.shape == (env.obs_length,) and obs.dtype == np.int64
            assert obs in env.observation_space
            used = obs[obs != env.pad]
            assert (obs[len(used):] == env.pad).all()  # padding only at the end
            assert "".join(env.alphabet[i] for i in used) == info["text"]
            assert list(used).count(env.alphabet.index(":")) == env.cells
            obs, _, _, truncated, info = env.step(k % 5)
        assert truncated
    finally:
        env.close()


def test_step_truncates_and_then_needs_a_reset(binary: str) -> None:
    env = anynt.AnyntEnv(anynt.corpus_file("Example5"), steps=3, render_mode="ansi")
    try:
        with pytest.raises(ResetNeeded):
            env.step(0)
        _, info = env.reset(seed=2)
        assert env.render() == info["text"]
        results = [env.step(1) for _ in range(3)]
        assert [r[3] for r in results] == [False, False, True]
        assert all(r[2] is False for r in results)
        assert all(isinstance(r[1], float) and -1 <= r[1] <= 1 for r in results)
        with pytest.raises(anynt.AnyntError, match="is over"):
            env.step(0)
        env.reset()
        env.step(np.int64(1))  # numpy integers are actions too
    finally:
        env.close()


def test_close_ends_the_server(binary: str) -> None:
    env = anynt.AnyntEnv(anynt.corpus_file("Example5"))
    proc = env._server._proc
    assert proc is not None and proc.poll() is None
    env.close()
    assert proc.returncode == 0
    env.close()  # twice is harmless
    with pytest.raises(anynt.AnyntError, match="closed"):
        env.reset()


@pytest.mark.parametrize(
    "action, error, message",
    [
        (3, ValueError, "action 3 is not an action"),
        (-1, ValueError, "action -1 is not an action"),
        (1.0, TypeError, "action must be an integer"),
        ("1", TypeError, "action must be an integer"),
        (True, TypeError, "action must be an integer"),
    ],
)
def test_bad_actions_are_refused_and_change_nothing(binary: str, action: object, error: type, message: str) -> None:
    env = anynt.AnyntEnv(anynt.corpus_file("Omega1Blocker"), steps=4, obs_type="text")
    twin = anynt.AnyntEnv(anynt.corpus_file("Omega1Blocker"), steps=4, obs_type="text")
    try:
        env.reset(seed=4)
        twin.reset(seed=4)
        with pytest.raises(error, match=message):
            env.step(action)
        assert env.step(2)[:4] == twin.step(2)[:4]
    finally:
        env.close()
        twin.close()


def test_a_file_with_errors_is_quoted_positioned(binary: str, tmp_path: Path) -> None:
    bad = tmp_path / "bad.anynt"
    bad.write_text("actions l r\n\nspace generator paper {\n\tS -> +r\n\t-> SS\n}\n\ngoodevil {\n\t->. l\n\n", encoding="utf-8")
    with pytest.raises(anynt.AnyntError) as caught:
        anynt.AnyntEnv(bad)
    assert caught.value.errors, str(caught.value)
    assert all(e.startswith(str(bad) + ":") for e in caught.value.errors), caught.value.errors


@pytest.mark.parametrize(
    "kwargs, error, message",
    [
        ({"file": "/nonexistent/x.anynt"}, anynt.AnyntError, "x.anynt"),
        ({"lambda_one": (1, 8)}, anynt.AnyntError, "exercise"),
        ({"lambda_one": (1, 1), "steps": 0}, anynt.AnyntError, "steps"),
        ({"file": None}, ValueError, "exactly one of file and lambda_one"),
        ({"lambda_one": (1, 1), "obs_type": "image"}, ValueError, "obs_type"),
        ({"lambda_one": (1, 1), "render_mode": "video"}, ValueError, "render_mode"),
        ({"lambda_one": (1, 1), "reseed_encoding": 1}, TypeError, "reseed_encoding"),
        ({"file": "x.anynt", "exercise_seed": "1"}, TypeError, "exercise_seed must be an integer"),
        ({"lambda_one": (1.5, 1)}, TypeError, "seed must be an integer"),
    ],
)
def test_bad_construction(binary: str, kwargs: dict, error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        anynt.AnyntEnv(**kwargs)


def test_a_missing_binary_is_named(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("ANYNT_BIN", str(tmp_path / "no-anynt"))
    with pytest.raises(FileNotFoundError, match="ANYNT_BIN"):
        anynt.AnyntEnv(anynt.corpus_file("Example5"))
    monkeypatch.delenv("ANYNT_BIN")
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(FileNotFoundError, match="not on PATH"):
        anynt.find_binary()


@pytest.mark.parametrize("answer, then", [("not json", "sleep 60"), ("", "cat >/dev/null")])
def test_a_failed_handshake_leaves_no_process(tmp_path: Path, answer: str, then: str) -> None:
    # A program that is not serve-env (or an anynt too old to have it): its
    # answer to hello is garbage, or a blank line, and it goes on running,
    # deaf to the end of its input (sleep, killed after close's 5 s) or not
    # (cat). The Env must end it, not leave it running or unreaped.
    pidfile = tmp_path / "pid"
    fake = tmp_path / "fake-anynt"
    fake.write_text(f"#!/bin/sh\necho $$ > {pidfile}\nprintf '%s\\n' '{answer}'\nexec {then}\n", encoding="utf-8")
    fake.chmod(0o755)
    with pytest.raises((anynt.AnyntError, ValueError)):
        anynt.AnyntEnv(anynt.corpus_file("Example5"), binary=str(fake))
    pid = int(pidfile.read_text(encoding="utf-8"))
    with pytest.raises(ProcessLookupError):  # gone, and waited for
        os.kill(pid, 0)


def test_the_class_is_anyntenv_and_env_its_alias() -> None:
    """`from anynt import *` beside `from gymnasium import Env` shadows nothing of
    Gymnasium's by the class's own name; anynt.Env still works."""
    assert anynt.AnyntEnv.__name__ == "AnyntEnv"
    assert anynt.Env is anynt.AnyntEnv
    assert "AnyntEnv" in anynt.__all__ and issubclass(anynt.AnyntEnv, gym.Env)
