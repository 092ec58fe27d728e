"""The cost of a frame (render_mode="rgb_array"): step + render against step
alone, alternated in one run, medians of 5 rounds of 3000 steps.

    ANYNT_BIN=$PWD/bin/anynt .venv/bin/python python/bench/render.py
"""

from __future__ import annotations

import statistics
import time

import anynt


def run(env: anynt.AnyntEnv, render: bool, n: int = 3000) -> float:
    """Microseconds a step (and its frame, if render) over n steps."""
    env.reset(seed=1)
    start = time.perf_counter()
    for k in range(n):
        if env.step(k % len(env.action_names))[3]:
            env.reset()
        if render:
            env.render()
    return (time.perf_counter() - start) / n * 1e6


def main() -> None:
    cases = [
        ("anynt/Omega1Blocker-v0", anynt.AnyntEnv(anynt.corpus_file("Omega1Blocker"), render_mode="rgb_array")),
        ("anynt/Fig3Torus-v0", anynt.AnyntEnv(anynt.corpus_file("Fig3Torus"), render_mode="rgb_array")),
        ("Λ_one test 1, exercise 6", anynt.lambda_one(1, 6, render_mode="rgb_array")),
    ]
    for name, env in cases:
        with_frames, without = [], []
        for _ in range(5):
            with_frames.append(run(env, True))
            without.append(run(env, False))
        h, w, _ = env.render().shape
        both, step = statistics.median(with_frames), statistics.median(without)
        print(f"{name}: {h}×{w}: step+render {both:.0f} µs, step {step:.0f} µs, a frame ≈ {both - step:.0f} µs")
        env.close()


if __name__ == "__main__":
    main()
