#!/usr/bin/env python3
"""Steps a second from Python: anynt's vector environment against Gymnasium's
FrozenLake-v1 and SyncVectorEnv, alternated in one run.

    ANYNT_BIN=bin/anynt .venv/bin/python python/bench/vec_steps.py [--rounds 5] [--seconds 1]

Each round measures every contender once, in the same order, for about
--seconds each; the table gives each one's median over the rounds, its
lowest and highest, and the load average before and after (`uptime`), with
the machine (scripts/machine). Actions are drawn before the clock starts
(one seeded generator); an episode that ends is reset as a training loop
resets it (a vector environment resets its copies itself).

--profile NAME runs one contender under cProfile instead and prints where
its time goes.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np

import anynt

ENV_ID = "anynt/Omega1Blocker-v0"
REPO = Path(__file__).resolve().parents[2]


def single_loop(make: Callable[[], gym.Env[Any, Any]]) -> Callable[[float, np.random.Generator], tuple[int, float]]:
    """A contender that steps one environment, resetting it at the end of each episode."""

    def run(seconds: float, rng: np.random.Generator) -> tuple[int, float]:
        env = make()
        try:
            env.reset(seed=1)
            n = env.action_space.n  # type: ignore[attr-defined]
            actions = rng.integers(0, n, size=1 << 16).tolist()
            steps, start = 0, time.perf_counter()
            deadline = start + seconds
            while True:
                for a in actions:
                    _, _, terminated, truncated, _ = env.step(a)
                    if terminated or truncated:
                        env.reset()
                steps += len(actions)
                if time.perf_counter() >= deadline:
                    return steps, time.perf_counter() - start
        finally:
            env.close()

    return run


def vector_loop(make: Callable[[], Any]) -> Callable[[float, np.random.Generator], tuple[int, float]]:
    """A contender that steps a vector environment (it resets its copies itself)."""

    def run(seconds: float, rng: np.random.Generator) -> tuple[int, float]:
        envs = make()
        try:
            envs.reset(seed=1)
            n = envs.single_action_space.n
            batch = rng.integers(0, n, size=(1024, envs.num_envs))
            steps, start = 0, time.perf_counter()
            deadline = start + seconds
            while True:
                for a in batch:
                    envs.step(a)
                steps += batch.size
                if time.perf_counter() >= deadline:
                    return steps, time.perf_counter() - start
        finally:
            envs.close()

    return run


def contenders() -> dict[str, Callable[[float, np.random.Generator], tuple[int, float]]]:
    return {
        "FrozenLake-v1, one env": single_loop(lambda: gym.make("FrozenLake-v1")),
        "FrozenLake-v1, SyncVectorEnv N=16": vector_loop(
            lambda: gym.make_vec("FrozenLake-v1", num_envs=16, vectorization_mode="sync")
        ),
        f"{ENV_ID}, one env (gym.make)": single_loop(lambda: gym.make(ENV_ID)),
        f"{ENV_ID}, SyncVectorEnv N=16": vector_loop(
            lambda: gym.make_vec(ENV_ID, num_envs=16, vectorization_mode="sync")
        ),
        f"{ENV_ID}, anynt.make_vec N=16": vector_loop(lambda: anynt.make_vec(ENV_ID, num_envs=16)),
        f"{ENV_ID}, anynt.make_vec N=64": vector_loop(lambda: anynt.make_vec(ENV_ID, num_envs=64)),
        f"{ENV_ID}, anynt.make_vec N=256": vector_loop(lambda: anynt.make_vec(ENV_ID, num_envs=256)),
    }


def uptime() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True, check=False).stdout.strip()


def machine() -> str:
    script = REPO / "scripts" / "machine"
    run = subprocess.run([str(script)], capture_output=True, text=True, check=False)
    return run.stdout.strip() or f"(scripts/machine failed: {run.stderr.strip()})"


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rounds", type=int, default=5, help="rounds of every contender (default 5)")
    p.add_argument("--seconds", type=float, default=1.0, help="time of each measurement (default 1 s)")
    p.add_argument("--seed", type=int, default=1, help="seed of the actions (default 1)")
    p.add_argument("--only", help="measure only the contenders whose name contains this")
    p.add_argument("--profile", metavar="NAME", help="profile the contender whose name contains NAME")
    args = p.parse_args()
    all_ = contenders()
    if args.profile:
        name = next((k for k in all_ if args.profile in k), None)
        if name is None:
            sys.exit(f"no contender contains {args.profile!r}: {', '.join(all_)}")
        prof = cProfile.Profile()
        rng = np.random.default_rng(args.seed)
        prof.enable()
        steps, elapsed = all_[name](args.seconds, rng)
        prof.disable()
        print(f"{name}: {steps / elapsed:,.0f} steps/s under cProfile")
        pstats.Stats(prof).sort_stats("tottime").print_stats(15)
        return
    chosen = {k: v for k, v in all_.items() if not args.only or args.only in k}
    rates: dict[str, list[float]] = {k: [] for k in chosen}
    print(f"machine: {machine()}")
    print(f"python {sys.version.split()[0]}, gymnasium {gym.__version__}, numpy {np.__version__}, "
          f"ANYNT_BIN={os.environ.get('ANYNT_BIN', '(PATH)')}")
    before = uptime()
    rng = np.random.default_rng(args.seed)
    for r in range(args.rounds):
        for name, run in chosen.items():
            steps, elapsed = run(args.seconds, rng)
            rates[name].append(steps / elapsed)
        print(f"round {r + 1}/{args.rounds} done", file=sys.stderr)
    after = uptime()
    print(f"load before: {before}")
    print(f"load after:  {after}")
    print(f"{'contender':<52} {'median steps/s':>15} {'lowest':>11} {'highest':>11}")
    for name, rs in rates.items():
        print(f"{name:<52} {statistics.median(rs):>15,.0f} {min(rs):>11,.0f} {max(rs):>11,.0f}")


if __name__ == "__main__":
    main()
