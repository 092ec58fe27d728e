"""Identity fixed by make, episodes by reset: the encoding (alphabet) of an
environment does not change with reset's seed, and the vector environments of
Gymnasium and stable-baselines3 give all their copies one encoding."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.wrappers import RecordEpisodeStatistics

import anynt

Trajectory = list[tuple[str, float]]

# Environments that draw nothing in an episode (Example 7: every object
# placed, no cycle clause, no start-up garbage, Good and Evil never meet):
# a policy plays the same episode whatever the seed.
DRAW_NOTHING = {"anynt/Example7-v0"}


def policy(obs: np.ndarray, n_actions: int) -> int:
    """A fixed policy of the observation's indices: what a trained network
    does, so that it acts differently if the encoding changes."""
    return int(obs[: obs.size // 2].sum() + 3 * obs[obs.size // 2 :].sum()) % n_actions


def play(env: gym.Env[Any, Any], seed: int | None, steps: int) -> tuple[list[str], list[np.ndarray], Trajectory]:
    """(alphabet, observations, (text, reward) of each step) of policy's episode."""
    obs, info = env.reset(seed=seed)
    alphabet, seen, texts = info["alphabet"], [obs], [(info["text"], 0.0)]
    for _ in range(steps):
        obs, reward, _, _, info = env.step(policy(obs, int(env.action_space.n)))
        seen.append(obs)
        texts.append((info["text"], float(reward)))
    return alphabet, seen, texts


def make(env_id: str, **kwargs: Any) -> gym.Env[Any, Any]:
    """gym.make, with a Λ_one exercise whose episodes differ by seed (in the
    first, of 3 cells, the test's seed 1 plays the same episode whatever the
    seed)."""
    if env_id == "anynt/LambdaOne-v0":
        kwargs.setdefault("exercise", 4)
    return gym.make(env_id, **kwargs)


def decodes(alphabet: list[str], obs: np.ndarray, text: str, pad: int) -> bool:
    return "".join(alphabet[i] for i in obs if i != pad) == text


@pytest.mark.parametrize("env_id", anynt.ENV_IDS)
def test_reset_seeds_keep_the_encoding(binary: str, env_id: str) -> None:
    """reset(seed=a) and reset(seed=b) on one environment: the same alphabet, so an
    index means the same symbol in both, while the episodes differ."""
    env = make(env_id)
    try:
        u = env.unwrapped
        assert isinstance(u, anynt.AnyntEnv)
        made_alphabet = list(u.alphabet)
        runs = {seed: play(env, seed, 25) for seed in (1, 2, 99, 2**64 - 1)}
        for seed, (alphabet, seen, texts) in runs.items():
            assert alphabet == made_alphabet, f"reset(seed={seed}) changed the alphabet"
            assert all(decodes(made_alphabet, o, t, u.pad) for o, (t, _) in zip(seen, texts))
        episodes = len({tuple(texts) for _, _, texts in runs.values()})
        if env_id in DRAW_NOTHING:
            assert episodes == 1, "a seed changed an episode that draws nothing"
        else:
            assert episodes > 1, "the seeds played one episode"
        assert u.exercise_seed == u._made["seed"]
    finally:
        env.close()


@pytest.mark.parametrize("env_id", ["anynt/Omega1Blocker-v0", "anynt/LambdaOne-v0"])
def test_reseed_encoding_draws_a_new_alphabet_per_seed(binary: str, env_id: str) -> None:
    """The old behaviour, asked for: reset(seed=s) makes s the exercise's seed,
    its alphabet and its episodes: those of an environment made with
    exercise_seed=s."""
    env = make(env_id, reseed_encoding=True)
    try:
        alphabets = {}
        for seed in (5, 6, 7, 8):
            alphabet, seen, texts = play(env, seed, 20)
            alphabets[seed] = tuple(alphabet)
            assert env.unwrapped.exercise_seed == seed  # type: ignore[attr-defined]
            with make(env_id, exercise_seed=seed) as own:
                own_alphabet, own_seen, own_texts = play(own, seed, 20)
            assert (alphabet, texts) == (own_alphabet, own_texts)
            for a, b in zip(seen, own_seen):
                np.testing.assert_array_equal(a, b)
        assert len(set(alphabets.values())) > 1
    finally:
        env.close()


def test_same_seed_same_trajectory(binary: str) -> None:
    """The same seed: the same episode, on one environment or two, whatever came before."""
    one = anynt.AnyntEnv(anynt.corpus_file("Fig3Torus"), steps=40)
    two = anynt.AnyntEnv(anynt.corpus_file("Fig3Torus"), steps=40)
    try:
        first = play(one, 11, 40)
        play(one, 12, 40)
        one.reset()
        again = play(one, 11, 40)
        other = play(two, 11, 40)
        for run in (again, other):
            assert run[0] == first[0] and run[2] == first[2]
            for a, b in zip(run[1], first[1]):
                np.testing.assert_array_equal(a, b)
    finally:
        one.close()
        two.close()


def test_the_stream_of_a_seed(binary: str) -> None:
    """reset(seed=s) then reset() plays episodes 0, 1, … of stream s; options picks one."""
    env = anynt.AnyntEnv(anynt.corpus_file("Example6"), steps=10, obs_type="text")
    try:
        _, info = env.reset(seed=4)
        obs1, info1 = env.reset()
        assert (info1["episode_seed"], info1["episode_index"]) == (4, 1)
        obs1b, info1b = env.reset(seed=4, options={"episode": 1})
        assert (obs1b, info1b) == (obs1, info1)
        _, info2 = env.reset()
        assert (info2["episode_seed"], info2["episode_index"]) == (4, 2)
        _, info = env.reset(options={"episode": 0})
        assert (info["episode_seed"], info["episode_index"]) == (4, 0)  # the current stream's
    finally:
        env.close()


def test_lambda_one_hides_per_exercise_not_per_episode(binary: str) -> None:
    """A Λ_one exercise keeps its alphabet over any seeds of reset: what an
    index means is the exercise's (the test's hiding is per exercise); another
    exercise of the test has another alphabet."""
    with gym.make("anynt/LambdaOne-v0", seed=3, exercise=4) as env:
        alphabets = {tuple(env.reset(seed=s)[1]["alphabet"]) for s in range(6)}
        assert len(alphabets) == 1
    with gym.make("anynt/LambdaOne-v0", seed=4, exercise=4) as other:
        assert tuple(other.reset(seed=0)[1]["alphabet"]) not in alphabets


def sb3_make_vec_env(env_id: str, n_envs: int, seed: int | None, **env_kwargs: Any) -> list[gym.Env[Any, Any]]:
    """What stable-baselines3 2.x's make_vec_env (common/env_util.py) does to
    each copy before training, without installing it: gym.make(id,
    render_mode="rgb_array") (gym.make(id) on a TypeError), the action space
    seeded with seed + rank, a Monitor (a recording wrapper: Gymnasium's
    RecordEpisodeStatistics stands in); then DummyVecEnv checks the copies'
    render_mode is one, and vec_env.seed(seed) makes the first reset
    reset(seed=seed + rank)."""
    envs = []
    for rank in range(n_envs):
        try:
            env = gym.make(env_id, **{"render_mode": "rgb_array", **env_kwargs})
        except TypeError:
            env = gym.make(env_id, **env_kwargs)
        if seed is not None:
            env.action_space.seed(seed + rank)
        envs.append(RecordEpisodeStatistics(env))
    assert len({e.render_mode for e in envs}) == 1
    return envs


def sb3_reset(envs: list[gym.Env[Any, Any]], seed: int) -> list[tuple[np.ndarray, dict[str, Any]]]:
    """DummyVecEnv.reset after VecEnv.seed(seed): each copy reset(seed=seed + rank)."""
    return [env.reset(seed=seed + rank) for rank, env in enumerate(envs)]


@pytest.mark.parametrize("env_id", anynt.ENV_IDS)
def test_sb3_make_vec_env_gives_its_copies_one_encoding(binary: str, env_id: str) -> None:
    kwargs = {"exercise": 4} if env_id == "anynt/LambdaOne-v0" else {}
    envs = sb3_make_vec_env(env_id, 3, seed=1, **kwargs)
    try:
        with gym.make(env_id, **kwargs) as plain:
            alphabet = plain.unwrapped.alphabet  # type: ignore[attr-defined]
        firsts = sb3_reset(envs, 1)
        assert all(info["alphabet"] == alphabet for _, info in firsts)
        assert [info["episode_seed"] for _, info in firsts] == [1, 2, 3]
        # DummyVecEnv's steps, with its autoreset (reset() without seed).
        texts: list[list[str]] = [[] for _ in envs]
        obs = [o for o, _ in firsts]
        for _ in range(60):
            for k, env in enumerate(envs):
                obs[k], _, terminated, truncated, info = env.step(policy(obs[k], int(env.action_space.n)))
                texts[k].append(info["text"])
                assert decodes(alphabet, obs[k], info["text"], env.unwrapped.pad)  # type: ignore[attr-defined]
                if terminated or truncated:
                    obs[k], info = env.reset()
                    assert info["alphabet"] == alphabet
        episodes = len({tuple(t) for t in texts})
        if env_id in DRAW_NOTHING:
            assert episodes == 1, "the copies of an environment that draws nothing played different episodes"
        else:
            assert episodes > 1, "the copies played one episode"
        # PPO(seed=1) seeds the vector environment again before learning.
        assert all(info["alphabet"] == alphabet for _, info in sb3_reset(envs, 1))
        frames = [env.render() for env in envs]
        assert len({f.shape for f in frames}) == 1 and frames[0].dtype == np.uint8
    finally:
        for env in envs:
            env.close()


def test_gymnasium_sync_vector_env_gives_its_copies_one_encoding(binary: str) -> None:
    envs = gym.make_vec("anynt/LambdaOneFixtureB-v0", num_envs=3, vectorization_mode="sync")
    try:
        _, infos = envs.reset(seed=1)
        assert list(infos["episode_seed"]) == [1, 2, 3]
        alphabets = envs.get_attr("alphabet")
        assert alphabets[0] == alphabets[1] == alphabets[2]
        for _ in range(250):  # past the episodes' end: Gymnasium's autoreset
            envs.step(envs.action_space.sample())
        assert envs.get_attr("alphabet") == alphabets
    finally:
        envs.close()


@pytest.mark.parametrize("env_id", anynt.ENV_IDS)
def test_gymnasium_sync_vector_env_takes_seeds_past_2_to_the_63(binary: str, env_id: str) -> None:
    """Gymnasium gathers the copies' infos into arrays typed by the first
    value: seeds, which may pass 2^63 (Λ_one's exercise seeds do), are
    numpy's uint64 so that they fit."""
    top = 2**64 - 2
    envs = gym.make_vec(env_id, num_envs=2, vectorization_mode="sync")
    try:
        _, infos = envs.reset(seed=top)
        assert list(infos["episode_seed"]) == [top, top + 1]
        assert infos["seed"].dtype == np.uint64
        envs.step(envs.action_space.sample())
    finally:
        envs.close()
