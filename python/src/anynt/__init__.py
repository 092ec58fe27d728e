"""anynt: the ANYNT environments as Gymnasium environments.

Importing the package registers the ids of `ENV_IDS` with Gymnasium:

    import gymnasium as gym
    import anynt
    env = gym.make("anynt/Omega1Blocker-v0")
    env = gym.make("anynt/LambdaOne-v0", seed=1, exercise=3)
    envs = anynt.make_vec("anynt/Omega1Blocker-v0", num_envs=16)  # one serve-env steps all 16
    envs = gym.make_vec("anynt/Omega1Blocker-v0", 4, wrappers=[...])  # SyncVectorEnv of 4

The environments are served by the anynt program (`anynt serve-env`), found
from the environment variable ANYNT_BIN, else as `anynt` on PATH.
"""

from __future__ import annotations

import importlib
from importlib import resources
from typing import TYPE_CHECKING, Any

from gymnasium.envs.registration import register, registry

from ._server import DEFAULT_TIMEOUT, PROTOCOL, AnyntError, AnyntTimeout, find_binary
from .env import AnyntEnv, Env
from .evaluate import Evaluation, evaluate
from .vector import AnyntVectorEnv, make_vec

if TYPE_CHECKING:
    from .agent import Start, policy_agent

__all__ = [
    "PROTOCOL", "AnyntError", "AnyntTimeout", "DEFAULT_TIMEOUT", "AnyntEnv", "Env", "ENV_IDS", "CORPUS",
    "corpus_file", "lambda_one", "find_binary", "Start", "policy_agent", "Evaluation", "evaluate",
    "AnyntVectorEnv", "make_vec",
]

# Names of anynt.agent, imported on first use (PEP 562): importing the package
# must not import anynt.agent, or `python -m anynt.agent` would run a module
# already imported, which runpy warns about on every run.
_LAZY = {"Start": "agent", "policy_agent": "agent"}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))

# The corpus environments shipped as package data (copies of the repository's
# corpus/, checked equal by the tests), by registered name.
CORPUS: dict[str, str] = {
    "Omega1Blocker": "omega1-blocker.anynt",  # corpus/thesis/
    "Example5": "example5.anynt",  # corpus/paper/
    "Example6": "example6.anynt",  # corpus/paper/
    "Example7": "example7-tictactoe.anynt",  # corpus/paper/
    "Fig3Torus": "fig3-torus.anynt",  # corpus/paper/
    "Fig3TwoLevelRing": "fig3-two-level-ring.anynt",  # corpus/paper/
    "LambdaOneFixtureB": "fixture-b.anynt",  # corpus/lambda-one/
}


def corpus_file(name: str) -> str:
    """The path of a shipped corpus environment, by its registered name (CORPUS)."""
    if name not in CORPUS:
        raise KeyError(f"no corpus environment {name!r}: one of {', '.join(sorted(CORPUS))}")
    return str(resources.files(__package__).joinpath("envs", CORPUS[name]))


def _corpus_env(name: str, **kwargs: Any) -> Env:
    return Env(corpus_file(name), **kwargs)


def lambda_one(seed: int = 1, exercise: int = 1, **kwargs: Any) -> Env:
    """Exercise 1–7 of the Λ_one test that `anynt test --seed seed` gives first."""
    return Env(lambda_one=(seed, exercise), **kwargs)


# gym.make reads the render modes from the entry point: with the class's,
# it serves "rgb_array_list" by wrapping "rgb_array" in RenderCollection.
setattr(_corpus_env, "metadata", AnyntEnv.metadata)
setattr(lambda_one, "metadata", AnyntEnv.metadata)

ENV_IDS: list[str] = [f"anynt/{name}-v0" for name in CORPUS] + ["anynt/LambdaOne-v0"]


def _register() -> None:
    # No vector_entry_point: gym.make_vec would then choose it by default
    # and refuse wrappers= (Gymnasium decides before it looks at them);
    # without one it makes a SyncVectorEnv, which takes them. anynt.make_vec
    # gives the native vector.
    for name in CORPUS:
        env_id = f"anynt/{name}-v0"
        if env_id not in registry:
            register(
                id=env_id,
                entry_point="anynt:_corpus_env",
                kwargs={"name": name},
            )
    if "anynt/LambdaOne-v0" not in registry:
        register(
            id="anynt/LambdaOne-v0",
            entry_point="anynt:lambda_one",
        )


_register()
