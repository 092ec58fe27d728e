"""The platform wheel works alone: run by `make test-wheel`, not by pytest.

`make test-wheel` builds the wheel, installs it alone into a virtual
environment made anew, and runs this script with that environment's python,
with PATH holding only the environment's bin/ and ANYNT_BIN unset. The
script checks that nothing but the wheel can provide anynt (no go, no
ANYNT_BIN, `anynt` on PATH is the wheel's console script), that the program
the package uses is the one the wheel carries, executable and static, then
makes every registered id, runs Gymnasium's check_env on each (both
observation types) and steps it, and runs the console script `anynt
--version`, which must name the release given by --version.

It is a script rather than a pytest file because it needs that environment:
pytest is not installed there (the wheel alone is), and a test of the
ordinary .venv would find the ANYNT_BIN of `make test`.
"""

from __future__ import annotations

import argparse
import os
import shutil
import struct
import subprocess
import sys
from pathlib import Path
from typing import NoReturn


def fail(message: str) -> NoReturn:
    sys.exit(f"wheel_check: FAIL: {message}")


def is_static_elf(path: str) -> bool:
    """Whether an ELF executable has no program interpreter (PT_INTERP), that
    is, needs no dynamic loader and no C library of the machine."""
    with open(path, "rb") as f:
        head = f.read(64)
        if head[:4] != b"\x7fELF":
            fail(f"{path} is not an ELF file")
        if head[4] != 2:
            fail(f"{path} is not a 64-bit ELF file")
        endian = "<" if head[5] == 1 else ">"
        phoff, = struct.unpack(endian + "Q", head[32:40])
        phentsize, phnum = struct.unpack(endian + "HH", head[54:58])
        for i in range(phnum):
            f.seek(phoff + i * phentsize)
            p_type, = struct.unpack(endian + "I", f.read(4))
            if p_type == 3:  # PT_INTERP
                return False
    return True


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--version", required=True, help="the release anynt --version must name")
    args = parser.parse_args()
    if not args.version.strip():
        fail("--version is empty: the Makefile could not read internal/version's Release")

    # Nothing but the wheel provides anynt here.
    if shutil.which("go") is not None:
        fail(f"go is on PATH ({shutil.which('go')}): the check needs a PATH without it")
    if "ANYNT_BIN" in os.environ:
        fail("ANYNT_BIN is set: the check needs it unset")
    venv_bin = Path(sys.executable).parent
    script = shutil.which("anynt")
    if script is None or Path(script).parent != venv_bin:
        fail(f"`anynt` on PATH is {script}, not the console script of the environment {venv_bin}")

    import gymnasium as gym
    import numpy as np
    from gymnasium.utils.env_checker import check_env

    import anynt
    from anynt import _server

    binary = anynt.find_binary()
    bundled = _server.bundled_binary()
    if bundled is None or binary != bundled:
        fail(f"the package uses {binary}, not a program carried by the wheel ({bundled})")
    if not Path(bundled).is_relative_to(Path(anynt.__file__).parent):
        fail(f"the carried program {bundled} is outside the installed package")
    if not os.access(bundled, os.X_OK):
        fail(f"the carried program {bundled} lost its executable bit on install")
    if sys.platform.startswith("linux") and not is_static_elf(bundled):
        fail(f"the carried program {bundled} is dynamically linked (it has a PT_INTERP)")
    print(f"wheel_check: the package runs {bundled}")

    for env_id in anynt.ENV_IDS:
        for obs_type in ("array", "text"):
            env = gym.make(env_id, obs_type=obs_type)
            try:
                check_env(env.unwrapped, skip_render_check=False)
                env.reset(seed=3)
                for _ in range(10):
                    env.step(env.action_space.sample())
            finally:
                env.close()
        # What stable-baselines3's make_vec_env(env_id, n_envs=3, seed=1)
        # does by default: gym.make with render_mode="rgb_array", then each
        # copy reset with seed + rank; the copies share one encoding.
        copies = [gym.make(env_id, render_mode="rgb_array") for _ in range(3)]
        try:
            alphabets = {tuple(env.reset(seed=1 + rank)[1]["alphabet"]) for rank, env in enumerate(copies)}
            if len(alphabets) != 1:
                fail(f"{env_id}: make_vec_env's copies see {len(alphabets)} encodings, not one")
            frame = copies[0].render()
            if not (isinstance(frame, np.ndarray) and frame.dtype == np.uint8 and frame.ndim == 3):
                fail(f"{env_id}: render_mode rgb_array gave {type(frame)}, not an H×W×3 uint8 array")
        finally:
            for env in copies:
                env.close()
        # The native vector environment (one serve-env for all copies), and
        # Gymnasium's SyncVectorEnv with a wrapper on each copy.
        for vec in (anynt.make_vec(env_id, num_envs=4),
                    gym.make_vec(env_id, num_envs=2, wrappers=[gym.wrappers.RecordEpisodeStatistics])):
            try:
                vec.reset(seed=1)
                for _ in range(10):
                    vec.step(vec.action_space.sample())
            finally:
                vec.close()
        print(f"wheel_check: {env_id}: check_env passed, stepped; make_vec_env's defaults; make_vec")

    run = subprocess.run(["anynt", "--version"], capture_output=True, text=True)
    if run.returncode != 0 or not run.stdout.startswith(f"anynt version {args.version}"):
        fail(f"`anynt --version` printed {run.stdout!r} {run.stderr!r} (status {run.returncode}), "
             f"not anynt version {args.version}")
    print(f"wheel_check: the console script: {run.stdout.strip()}")
    print("wheel_check: ok")


if __name__ == "__main__":
    main()
