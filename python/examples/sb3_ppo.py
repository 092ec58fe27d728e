"""PPO of stable-baselines3 on an anynt environment, the way SB3's users train.

    pip install './python[examples]'     # stable-baselines3 and torch (about 5 GB with CUDA's libraries)
    python python/examples/sb3_ppo.py --env-id anynt/LambdaOneFixtureB-v0 --timesteps 50000

It makes the training environments with SB3's `make_vec_env` (4 copies,
seeds 1–4), trains `PPO("MlpPolicy", ...)`, and evaluates the policy with
`evaluate_policy` on environments seeded with other seeds (--eval-seed),
beside a policy that acts at random on the same episodes. It prints the
mean reward per step of each (anynt's rewards are in [−1, 1]), and with
--json one JSON object.

The observation is anynt's `MultiDiscrete` array of indices into the
exercise's alphabet; SB3's policies one-hot encode it.

Needs the package's `render_mode="rgb_array"` (which `make_vec_env` passes)
and an encoding fixed by `make`, not by `reset(seed)`, so that the copies
and the evaluation's seeds share one alphabet.

The arguments are read before torch is imported, so `--help` and a bad
argument answer at once, with or without stable-baselines3 installed.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

import gymnasium as gym
import numpy as np

import anynt


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description="Train PPO of stable-baselines3 on an anynt environment and evaluate it on other seeds.")
    p.add_argument("--env-id", default="anynt/LambdaOneFixtureB-v0", help="a registered id (default anynt/LambdaOneFixtureB-v0)")
    p.add_argument("--n-envs", type=int, default=4, help="copies of the environment, as make_vec_env's n_envs (default 4)")
    p.add_argument("--timesteps", type=int, default=50_000, help="PPO's total_timesteps (default 50000)")
    p.add_argument("--n-steps", type=int, default=2048, help="PPO's n_steps, the rollout of each copy (default 2048, SB3's)")
    p.add_argument("--steps", type=int, default=None, help="an episode's interactions (the env's steps; default: the file's)")
    p.add_argument("--seed", type=int, default=1, help="the training seed: make_vec_env's and PPO's (default 1)")
    p.add_argument("--eval-seed", type=int, default=1000, help="the evaluation environment's seed (default 1000)")
    p.add_argument("--eval-episodes", type=int, default=5, help="episodes of the evaluation (default 5)")
    p.add_argument("--save", default=None, help="save the trained model here (PPO.save)")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    return p


def check(p: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Every argument checked before the heavy imports."""
    if args.env_id not in gym.registry:
        p.error(f"no environment {args.env_id!r}: one of {', '.join(anynt.ENV_IDS)}")
    for name in ("n_envs", "timesteps", "n_steps", "eval_episodes"):
        if getattr(args, name) < 1:
            p.error(f"--{name.replace('_', '-')} must be at least 1")
    if args.n_envs * args.n_steps < 2:
        p.error("--n-envs × --n-steps must be at least 2 (PPO's minibatches)")
    if args.steps is not None and args.steps < 1:
        p.error("--steps must be at least 1")


class RandomPolicy:
    """A baseline for evaluate_policy: uniform actions from its own seed."""

    def __init__(self, action_space: gym.spaces.Discrete[Any], seed: int) -> None:
        self.n = int(action_space.n)
        self.rng = np.random.default_rng(seed)

    def predict(self, observation: Any, state: Any = None, episode_start: Any = None,
                deterministic: bool = False) -> tuple[np.ndarray, None]:
        return self.rng.integers(self.n, size=len(observation)), None


def main(argv: list[str] | None = None) -> None:
    p = parser()
    args = p.parse_args(argv)
    check(p, args)
    try:
        from stable_baselines3 import PPO  # type: ignore[import-not-found, unused-ignore]
        from stable_baselines3.common.env_util import make_vec_env  # type: ignore[import-not-found, unused-ignore]
        from stable_baselines3.common.evaluation import evaluate_policy  # type: ignore[import-not-found, unused-ignore]
    except ModuleNotFoundError as e:
        p.exit(2, f"{p.prog}: error: this example needs stable-baselines3 and torch ({e.name} is missing): "
                  "pip install './python[examples]'\n")

    env_kwargs = {} if args.steps is None else {"steps": args.steps}
    env = make_vec_env(args.env_id, n_envs=args.n_envs, seed=args.seed, env_kwargs=env_kwargs)
    batch = min(64, args.n_envs * args.n_steps)  # SB3's default, or the whole rollout if smaller
    model = PPO("MlpPolicy", env, n_steps=args.n_steps, batch_size=batch, seed=args.seed, device="cpu", verbose=0)
    began = time.perf_counter()
    model.learn(total_timesteps=args.timesteps)
    seconds = time.perf_counter() - began
    if args.save:
        model.save(args.save)
    env.close()

    result: dict[str, Any] = {
        "env_id": args.env_id, "seed": args.seed, "n_envs": args.n_envs,
        "timesteps": int(model.num_timesteps), "train_seconds": round(seconds, 2),
        "eval_seed": args.eval_seed, "eval_episodes": args.eval_episodes,
    }
    for name, policy in (("ppo", model), ("random", None)):
        # The same episodes for both: a new evaluation environment of the same seed.
        eval_env = make_vec_env(args.env_id, n_envs=1, seed=args.eval_seed, env_kwargs=env_kwargs)
        space = eval_env.action_space
        assert isinstance(space, gym.spaces.Discrete)  # every anynt id's
        agent = policy if policy is not None else RandomPolicy(space, args.eval_seed)
        returns, lengths = evaluate_policy(agent, eval_env, n_eval_episodes=args.eval_episodes,
                                           deterministic=True, return_episode_rewards=True)
        eval_env.close()
        assert isinstance(returns, list) and isinstance(lengths, list)  # return_episode_rewards=True
        per_step = [float(r) / int(n) for r, n in zip(returns, lengths)]
        result[name] = {"reward_per_step": float(np.mean(per_step)), "sd": float(np.std(per_step)),
                        "episode_lengths": [int(n) for n in lengths]}

    if args.json:
        print(json.dumps(result))
        return
    print(f"PPO on {args.env_id}: {result['timesteps']} steps in {seconds:.1f} s "
          f"({args.n_envs} copies, seeds {args.seed}–{args.seed + args.n_envs - 1})")
    for name in ("ppo", "random"):
        r = result[name]
        print(f"  {name:6} on seed {args.eval_seed}: {r['reward_per_step']:+.3f} reward per step "
              f"(sd {r['sd']:.3f} over {args.eval_episodes} episodes)")


if __name__ == "__main__":
    try:
        main()
    except anynt.AnyntError as e:
        sys.exit(f"sb3_ppo.py: {e}")
