"""A CleanRL-style single-file PPO on anynt's batched vector environment.

    pip install './python' torch         # or './python[examples]': torch 2.15.0 and stable-baselines3
    python python/examples/cleanrl_ppo.py --env-id anynt/LambdaOneFixtureB-v0 --num-envs 16 --total-timesteps 100000

In the manner of CleanRL's ppo.py (Huang et al. 2022, "CleanRL:
High-quality Single-file Implementations of Deep Reinforcement Learning
Algorithms"): everything in one file, read top to bottom — the flags, the
network, the rollout, generalized advantage estimation, the clipped
surrogate objective (Schulman et al. 2017, "Proximal Policy Optimization
Algorithms"). The environments are `anynt.make_vec(env_id, num_envs=N)`:
one `anynt serve-env` steps all N copies in Go, one message a step, with
Gymnasium's next-step autoreset, and Gymnasium's vector
RecordEpisodeStatistics reports the episodes as CleanRL does.

The observation, indices into the exercise's alphabet padded to a fixed
length, is one-hot encoded. Every copy shares the exercise's alphabet
(fixed by make), and reset(seed=s) gives copy i the episodes of stream s+i;
after training, the greedy policy is evaluated on other episode streams
(--eval-seed) beside a random policy on the same episodes, as mean reward a
step (anynt's rewards are in [−1, 1]).

The arguments are read and checked before torch is imported, so `--help`
and a bad argument answer at once without torch; --json prints the result
as one JSON object.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from typing import Any

import gymnasium as gym
import numpy as np

import anynt


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(description="CleanRL-style PPO on anynt's batched vector environment (anynt.make_vec).")
    p.add_argument("--env-id", default="anynt/LambdaOneFixtureB-v0", help="a registered id (default anynt/LambdaOneFixtureB-v0)")
    p.add_argument("--num-envs", type=int, default=16, help="copies stepped together by one serve-env (default 16)")
    p.add_argument("--total-timesteps", type=int, default=100_000, help="interactions of all copies in all (default 100000)")
    p.add_argument("--num-steps", type=int, default=128, help="the rollout of each copy between updates (default 128)")
    p.add_argument("--steps", type=int, default=None, help="an episode's interactions (default: the environment's)")
    p.add_argument("--seed", type=int, default=1, help="seed of torch, numpy and the episodes (default 1)")
    p.add_argument("--learning-rate", type=float, default=2.5e-4, help="Adam's rate, annealed to 0 (default 2.5e-4)")
    p.add_argument("--gamma", type=float, default=0.99, help="discount (default 0.99)")
    p.add_argument("--gae-lambda", type=float, default=0.95, help="GAE's λ (default 0.95)")
    p.add_argument("--num-minibatches", type=int, default=4, help="minibatches of an update (default 4)")
    p.add_argument("--update-epochs", type=int, default=4, help="epochs of an update (default 4)")
    p.add_argument("--clip-coef", type=float, default=0.2, help="the surrogate's clip (default 0.2)")
    p.add_argument("--ent-coef", type=float, default=0.01, help="entropy's weight (default 0.01)")
    p.add_argument("--vf-coef", type=float, default=0.5, help="the value loss's weight (default 0.5)")
    p.add_argument("--max-grad-norm", type=float, default=0.5, help="gradient clipping (default 0.5)")
    p.add_argument("--eval-seed", type=int, default=1000, help="first episode stream of the evaluation (default 1000)")
    p.add_argument("--json", action="store_true", help="print the result as one JSON object")
    return p


def check(p: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Every argument checked before torch is imported."""
    if args.env_id not in gym.registry or not args.env_id.startswith("anynt/"):
        p.error(f"no anynt environment {args.env_id!r}: one of {', '.join(anynt.ENV_IDS)}")
    if not 1 <= args.num_envs <= anynt.vector.MAX_NUM_ENVS:
        p.error(f"--num-envs must be from 1 to {anynt.vector.MAX_NUM_ENVS}")
    for name in ("total_timesteps", "num_steps", "num_minibatches", "update_epochs"):
        if getattr(args, name) < 1:
            p.error(f"--{name.replace('_', '-')} must be at least 1")
    if args.steps is not None and args.steps < 1:
        p.error("--steps must be at least 1")
    if (args.num_envs * args.num_steps) % args.num_minibatches:
        p.error("--num-envs × --num-steps must be a multiple of --num-minibatches")
    if args.total_timesteps < args.num_envs * args.num_steps:
        p.error("--total-timesteps must hold at least one rollout (--num-envs × --num-steps)")
    if not (0 <= args.gamma <= 1 and 0 <= args.gae_lambda <= 1):
        p.error("--gamma and --gae-lambda must be in [0, 1]")
    # `not x > 0` and isfinite: NaN and infinity are bad too.
    for name in ("learning_rate", "clip_coef", "max_grad_norm"):
        if not (getattr(args, name) > 0 and math.isfinite(getattr(args, name))):
            p.error(f"--{name.replace('_', '-')} must be a positive number")
    for name in ("ent_coef", "vf_coef"):
        if not (getattr(args, name) >= 0 and math.isfinite(getattr(args, name))):
            p.error(f"--{name.replace('_', '-')} must be a number at least 0")


def main(argv: list[str] | None = None) -> None:
    p = parser()
    args = p.parse_args(argv)
    check(p, args)
    try:
        import torch  # type: ignore[import-not-found, unused-ignore]
        import torch.nn as nn  # type: ignore[import-not-found, unused-ignore]
        from torch.distributions.categorical import Categorical  # type: ignore[import-not-found, unused-ignore]
    except ModuleNotFoundError as e:
        p.exit(2, f"{p.prog}: error: this example needs torch ({e.name} is missing): "
                  "pip install torch (or './python[examples]', which pins it)\n")

    rng = np.random.default_rng(args.seed)
    torch.manual_seed(args.seed)
    kwargs: dict[str, Any] = {} if args.steps is None else {"steps": args.steps}
    envs = gym.wrappers.vector.RecordEpisodeStatistics(anynt.make_vec(args.env_id, num_envs=args.num_envs, **kwargs))
    inner = envs.unwrapped
    assert isinstance(inner, anynt.AnyntVectorEnv) and isinstance(inner.single_action_space, gym.spaces.Discrete)
    n_obs, n_values, n_actions = inner.obs_length, inner.n_symbols + 1, int(inner.single_action_space.n)

    def layer(inp: int, out: int, std: float = float(np.sqrt(2))) -> nn.Linear:
        lin = nn.Linear(inp, out)
        nn.init.orthogonal_(lin.weight, std)
        nn.init.constant_(lin.bias, 0.0)
        return lin

    class Agent(nn.Module):  # type: ignore[misc, unused-ignore]
        """One-hot observation → two hidden layers of 64 → policy logits and value."""

        def __init__(self) -> None:
            super().__init__()
            self.critic = nn.Sequential(layer(n_obs * n_values, 64), nn.Tanh(), layer(64, 64), nn.Tanh(), layer(64, 1, 1.0))
            self.actor = nn.Sequential(layer(n_obs * n_values, 64), nn.Tanh(), layer(64, 64), nn.Tanh(), layer(64, n_actions, 0.01))

        @staticmethod
        def features(obs: torch.Tensor) -> torch.Tensor:
            return nn.functional.one_hot(obs, n_values).flatten(1).float()

        def value(self, obs: torch.Tensor) -> torch.Tensor:
            v: torch.Tensor = self.critic(self.features(obs))  # nn.Sequential's call is untyped
            return v

        def act(self, obs: torch.Tensor, action: torch.Tensor | None = None) -> tuple[torch.Tensor, ...]:
            x = self.features(obs)
            dist = Categorical(logits=self.actor(x))
            if action is None:
                action = dist.sample()  # type: ignore[no-untyped-call, unused-ignore]
            logprob = dist.log_prob(action)  # type: ignore[no-untyped-call, unused-ignore]
            entropy = dist.entropy()  # type: ignore[no-untyped-call, unused-ignore]
            return action, logprob, entropy, self.critic(x)

    agent = Agent()
    optimizer = torch.optim.Adam(agent.parameters(), lr=args.learning_rate, eps=1e-5)
    n: int = args.num_envs
    t: int = args.num_steps
    batch = n * t
    minibatch = batch // args.num_minibatches
    iterations = args.total_timesteps // batch
    obs_buf = torch.zeros((t, n, n_obs), dtype=torch.long)
    actions = torch.zeros((t, n), dtype=torch.long)
    logprobs = torch.zeros((t, n))
    rewards = torch.zeros((t, n))
    dones = torch.zeros((t, n))
    values = torch.zeros((t, n))

    start = time.perf_counter()
    global_step = 0
    next_obs = torch.as_tensor(envs.reset(seed=args.seed)[0])
    next_done = torch.zeros(n)
    returns_seen: list[float] = []
    for iteration in range(1, iterations + 1):
        for g in optimizer.param_groups:  # linear annealing, as CleanRL
            g["lr"] = (1.0 - (iteration - 1.0) / iterations) * args.learning_rate
        for step in range(t):
            global_step += n
            obs_buf[step], dones[step] = next_obs, next_done
            with torch.no_grad():
                action, logprob, _, value = agent.act(next_obs)
            values[step], actions[step], logprobs[step] = value.flatten(), action, logprob
            obs, reward, terminated, truncated, infos = envs.step(action.numpy())
            # Next-step autoreset: the step after a truncation starts the
            # next episode, its reward 0 and its action ignored. Marking the
            # truncation done keeps the returns of two episodes apart, and
            # the step after it (dones[step] = 1: its observation is the
            # ended episode's last) is left out of the losses below.
            rewards[step] = torch.as_tensor(reward, dtype=torch.float32)
            next_obs = torch.as_tensor(obs)
            next_done = torch.as_tensor(np.logical_or(terminated, truncated), dtype=torch.float32)
            if "episode" in infos:
                ended = infos["_episode"]
                returns_seen += list(infos["episode"]["r"][ended] / np.maximum(infos["episode"]["l"][ended], 1))
        with torch.no_grad():  # generalized advantage estimation
            next_value = agent.value(next_obs).flatten()
            advantages = torch.zeros_like(rewards)
            last = torch.zeros(n)
            for step in reversed(range(t)):
                nonterminal = 1.0 - (next_done if step == t - 1 else dones[step + 1])
                following = next_value if step == t - 1 else values[step + 1]
                delta = rewards[step] + args.gamma * following * nonterminal - values[step]
                last = delta + args.gamma * args.gae_lambda * nonterminal * last
                advantages[step] = last
            returns = advantages + values
        b_obs, b_actions, b_logprobs = obs_buf.reshape(batch, n_obs), actions.reshape(batch), logprobs.reshape(batch)
        b_adv, b_returns = advantages.reshape(batch), returns.reshape(batch)
        b_played = 1.0 - dones.reshape(batch)  # 0 for the autoreset steps, whose action did nothing
        for _ in range(args.update_epochs):
            order = torch.as_tensor(rng.permutation(batch))
            for lo in range(0, batch, minibatch):
                mb = order[lo : lo + minibatch]
                _, newlogprob, entropy, newvalue = agent.act(b_obs[mb], b_actions[mb])
                ratio = (newlogprob - b_logprobs[mb]).exp()
                played = b_played[mb]
                count = played.sum().clamp(min=1.0)

                def mean(x: torch.Tensor) -> torch.Tensor:
                    """The mean over the samples whose action was played."""
                    return (x * played).sum() / count

                adv = b_adv[mb]
                adv_mean = mean(adv)
                adv = (adv - adv_mean) / ((mean((adv - adv_mean) ** 2)).sqrt() + 1e-8)
                pg_loss = mean(torch.max(-adv * ratio, -adv * ratio.clamp(1 - args.clip_coef, 1 + args.clip_coef)))
                v_loss = 0.5 * mean((newvalue.flatten() - b_returns[mb]) ** 2)
                loss = pg_loss - args.ent_coef * mean(entropy) + args.vf_coef * v_loss
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), args.max_grad_norm)
                optimizer.step()
        if not args.json:
            recent = f"{np.mean(returns_seen[-n:]):+.3f}" if returns_seen else "(none ended yet)"
            sps = global_step / (time.perf_counter() - start)
            print(f"step {global_step:>8}  reward/step of recent episodes {recent}  "
                  f"policy loss {pg_loss.item():+.4f}  value loss {v_loss.item():.4f}  {sps:,.0f} steps/s")
    train_seconds = time.perf_counter() - start

    def evaluate(policy: str) -> float:
        """Mean reward a step of one episode a copy, on streams eval_seed+i."""
        o = torch.as_tensor(envs.reset(seed=args.eval_seed)[0])
        total, count = 0.0, 0
        eval_rng = np.random.default_rng(args.eval_seed)
        while True:
            if policy == "greedy":
                with torch.no_grad():
                    a = agent.actor(agent.features(o)).argmax(1).numpy()
            else:
                a = eval_rng.integers(0, n_actions, size=n)
            obs, r, _, truncated, _ = envs.step(a)
            total, count = total + float(r.sum()), count + n
            o = torch.as_tensor(obs)
            if truncated.all():  # every copy's episode has the same steps
                return total / count

    result = {
        "env_id": args.env_id, "num_envs": n, "timesteps": global_step, "seed": args.seed,
        "train_seconds": round(train_seconds, 2), "steps_per_second": round(global_step / train_seconds),
        "episodes": len(returns_seen), "eval_seed": args.eval_seed, "ppo_reward_per_step": evaluate("greedy"),
        "random_reward_per_step": evaluate("random"),
    }
    envs.close()
    if args.json:
        print(json.dumps(result))
    else:
        print(f"trained {global_step} steps in {train_seconds:.1f} s ({result['steps_per_second']:,} steps/s)")
        print(f"on episode streams {args.eval_seed}+i: PPO {result['ppo_reward_per_step']:+.3f} a step, "
              f"random {result['random_reward_per_step']:+.3f}")


if __name__ == "__main__":
    try:
        main()
    except anynt.AnyntError as e:
        sys.exit(f"cleanrl_ppo.py: {e}")
