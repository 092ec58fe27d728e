"""A native Gymnasium vector environment: N copies of one anynt environment
stepped by one request to one `anynt serve-env` (protocol anynt/1.1,
docs/protocol.md, "Vector environments").

    import anynt
    envs = anynt.make_vec("anynt/Omega1Blocker-v0", num_envs=16)
    obs, infos = envs.reset(seed=1)            # copy i plays episode stream 1+i
    obs, rewards, terminated, truncated, infos = envs.step(envs.action_space.sample())

serve-env steps the copies in Go (over all cores when there are many) and
answers their observations, rewards and truncations in one line, as base64
of little-endian bytes; this module decodes them with numpy. Observations are
arrays only (no text), as a vector environment's are.
"""

from __future__ import annotations

import base64
import copy
import os
import weakref
from collections.abc import Callable, Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.envs.registration import EnvSpec
from gymnasium.vector.utils import batch_space
from numpy.typing import NDArray

from ._render import Renderer
from ._server import DEFAULT_TIMEOUT, AnyntError, Server
from .env import MAX_SEED, _int, _seed, _with_steps, make_request

_MODES = {
    AutoresetMode.NEXT_STEP: "next_step",
    AutoresetMode.SAME_STEP: "same_step",
    AutoresetMode.DISABLED: "disabled",
}

# serve-env's bound on the copies of one vector (docs/protocol.md).
MAX_NUM_ENVS = 4096

# The render modes of the vector: a tuple of each copy's text or frame.
VECTOR_RENDER_MODES = ["ansi", "rgb_array"]

# The attributes every copy has, as an anynt.Env of the copy would, and
# shares with the others (one identity for all copies): what get_attr and
# call answer, one value a copy.
COPY_ATTRIBUTES = (
    "name", "action_names", "n_symbols", "cells", "steps", "exercise_seed",
    "alphabet", "obs_length", "pad", "render_mode", "observation_space", "action_space",
)


class AnyntVectorEnv(VectorEnv[NDArray[np.int64], NDArray[np.int64], NDArray[Any]]):
    """N copies of one environment (one file or Λ_one exercise, one exercise
    seed and so one observation encoding, one number of steps), stepped together
    by one `anynt serve-env` process.

    reset(seed=s) gives copy i the episode stream s+i (Gymnasium's convention
    for vector seeds; a list gives each copy its own); reset() plays each copy's
    next episode. Episodes are truncated after their steps (terminated is always
    False) and autoreset as `autoreset_mode` says: NEXT_STEP (the default, as
    Gymnasium's own vector environments), SAME_STEP (the final observation in
    infos["final_obs"]) or DISABLED (reset ended copies with
    options={"reset_mask": mask}).

    Args:
        file: an environment file.
        lambda_one: (seed, exercise): exercise 1–7 of the Λ_one test that
            `anynt test --seed seed` gives first.
        num_envs: the copies, 1 to 4096.
        steps: interactions of an episode (default: 1000 for a file, the
            exercise's own for Λ_one).
        exercise_seed: the exercise's seed; it draws the alphabet, shared by
            every copy (default: 1 for a file, the test's for Λ_one).
        obs_type: "array" only (the single environment's "text" is not
            batched; envs.alphabet spells an observation).
        autoreset_mode: an AutoresetMode, its value ("NextStep") or the
            protocol's name of it ("next_step", "same_step", "disabled").
        render_mode: None, "ansi" or "rgb_array": render() returns a tuple of
            each copy's text or frame, as SyncVectorEnv's render does ("human"
            is for single environments).
        binary: the anynt program; default $ANYNT_BIN, else the package's
            own (a platform wheel's), else `anynt` on PATH.
        timeout: seconds to wait for each answer of serve-env (default 60),
            or None to wait for ever; on expiry serve-env is killed and
            anynt.AnyntTimeout raised.
    """

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": VECTOR_RENDER_MODES}

    def __init__(
        self,
        file: str | os.PathLike[str] | None = None,
        *,
        lambda_one: tuple[int, int] | None = None,
        num_envs: int = 1,
        steps: int | None = None,
        exercise_seed: int | None = None,
        autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
        obs_type: str = "array",
        render_mode: str | None = None,
        binary: str | None = None,
        timeout: float | None = DEFAULT_TIMEOUT,
    ) -> None:
        if (file is None) == (lambda_one is None):
            raise ValueError("give exactly one of file and lambda_one")
        n = _int(num_envs, "num_envs")
        if not 1 <= n <= MAX_NUM_ENVS:
            raise ValueError(f"num_envs is {n}; it must be from 1 to {MAX_NUM_ENVS}")
        modes: dict[str | AutoresetMode, AutoresetMode] = {m: m for m in AutoresetMode}
        modes.update({m.value: m for m in AutoresetMode})
        modes.update({v: m for m, v in _MODES.items()})
        if not isinstance(autoreset_mode, (str, AutoresetMode)) or autoreset_mode not in modes:
            raise ValueError(
                "autoreset_mode must be one of AutoresetMode.NEXT_STEP, SAME_STEP, DISABLED "
                f"(or next_step, same_step, disabled), not {autoreset_mode!r}"
            )
        mode = modes[autoreset_mode]
        if obs_type != "array":
            raise ValueError(
                f'obs_type must be "array" for anynt\'s vector environment, not {obs_type!r}: '
                "its observations are arrays (envs.alphabet spells them)"
            )
        if render_mode is not None and render_mode not in VECTOR_RENDER_MODES:
            raise ValueError(
                f"render_mode must be None, \"ansi\" or \"rgb_array\" for anynt's vector environment, "
                f'not {render_mode!r} ("human" shows single environments)'
            )
        self.num_envs = n
        self.autoreset_mode = mode
        self.metadata = {**type(self).metadata, "autoreset_mode": mode}
        self.render_mode = render_mode
        self._spec: EnvSpec | None = None
        self._server = Server(binary, timeout)
        # Ends serve-env when the object is collected without close().
        self._finalizer = weakref.finalize(self, self._server.close)
        try:
            make = make_request(file, lambda_one, steps, exercise_seed)
            make.update(num_envs=n, autoreset=_MODES[mode])
            made = self._server.ask(make)
            if made.get("num_envs") != n:  # a serve-env before 1.1 ignores num_envs
                raise AnyntError(
                    f"anynt serve-env ({self._server.binary}, {self._server.tool}) has no vector "
                    "environments: they need protocol anynt/1.1"
                )
        except BaseException:
            self._server.close()
            raise
        self._id: int = made["env"]
        self.name: str = made["name"]
        self.action_names: list[str] = list(made["action_names"])
        self.n_symbols: int = made["symbols"]
        self.cells: int = made["cells"]
        self.steps: int = made["steps"]
        self.exercise_seed: int = made["seed"]
        self.length: int = made["length"]
        # The same fixed-size array as anynt.Env's: every cell ends with ":",
        # every other symbol appears at most once; padded with n_symbols.
        self.obs_length: int = self.cells + self.n_symbols - 1
        self.pad: int = self.n_symbols
        self.alphabet: list[str] = []
        self.single_observation_space = spaces.MultiDiscrete(
            np.full(self.obs_length, self.n_symbols + 1, dtype=np.int64), dtype=np.int64
        )
        self.single_action_space = spaces.Discrete(len(self.action_names))
        self.observation_space = batch_space(self.single_observation_space, n)
        self.action_space = batch_space(self.single_action_space, n)
        self._started = False
        # What render draws of each copy: its observation, its steps done
        # in the episode and its last reward (NaN: none yet), kept only
        # with a render_mode; _restart marks the copies whose next step
        # starts their next episode (NEXT_STEP's autoreset).
        self._obs = np.full((n, self.obs_length), self.pad, dtype=np.int64)
        self._copy_steps = np.zeros(n, dtype=np.int64)
        self._copy_rewards = np.full(n, np.nan)
        self._restart = np.zeros(n, dtype=np.bool_)
        self._renderer: Renderer | None = None

    def reset(
        self,
        *,
        seed: int | Sequence[int] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[NDArray[np.int64], dict[str, Any]]:
        """Starts episodes. seed=s: copy i plays episode 0 of the stream s+i; a
        list of num_envs seeds: copy i plays episode 0 of stream seeds[i]; no
        seed: each copy its next episode (the first reset after construction
        plays episode 0 of stream exercise_seed+i). options={"episode": e}
        plays episode e; options={"reset_mask": mask} resets only the copies
        where mask is True (the others keep their episode and observation).

        infos holds, for the copies reset, "episode_seed" (the stream) and
        "episode_index" (the episode in it), with Gymnasium's "_key" masks.
        """
        request: dict[str, Any] = {"type": "reset", "env": self._id}
        if isinstance(seed, Sequence) and not isinstance(seed, (str, bytes)):
            seeds = [_seed(s, "seed") for s in seed]
            if len(seeds) != self.num_envs:
                raise ValueError(f"{len(seeds)} seeds for {self.num_envs} copies: give one a copy")
            request["episode_seeds"] = seeds
        elif seed is not None:
            s = _seed(seed, "seed")
            if s + self.num_envs - 1 > MAX_SEED:  # copy i's stream s+i would wrap round to 0
                raise ValueError(
                    f"seed must be at most 2**64 - {self.num_envs} ({MAX_SEED - self.num_envs + 1}) "
                    f"for {self.num_envs} copies (copy i plays stream seed+i), not {s}"
                )
            super().reset(seed=s)
            request["episode_seed"] = s
        mask: NDArray[np.bool_] | None = None
        for key, value in (options or {}).items():
            if key == "episode":
                request["episode"] = _int(value, "episode")
            elif key == "reset_mask":
                mask = np.asarray(value)
                if mask.dtype != np.bool_ or mask.shape != (self.num_envs,):
                    raise ValueError(f"reset_mask must be a bool array of shape ({self.num_envs},)")
                request["mask"] = mask.tolist()
            else:
                raise ValueError(f'unknown reset option {key!r}: "episode" or "reset_mask"')
        answer = self._server.ask(request)
        self._started = True
        self.alphabet = list(answer["alphabet"])
        reset = np.ones(self.num_envs, dtype=np.bool_) if mask is None else mask
        infos: dict[str, Any] = {
            "episode_seed": np.where(reset, np.array(answer["episode_seeds"], dtype=np.uint64), 0),
            "_episode_seed": reset.copy(),
            "episode_index": np.where(reset, np.array(answer["episodes"], dtype=np.int64), 0),
            "_episode_index": reset.copy(),
        }
        obs = self._observations(answer["observations"])
        if self.render_mode is not None:
            self._obs[reset] = obs[reset]
            self._copy_steps[reset], self._copy_rewards[reset], self._restart[reset] = 0, np.nan, False
        return obs, infos

    def step(
        self, actions: NDArray[np.int64] | Sequence[int]
    ) -> tuple[NDArray[np.int64], NDArray[np.float64], NDArray[np.bool_], NDArray[np.bool_], dict[str, Any]]:
        """Plays one action a copy (an integer array of shape (num_envs,)).
        Returns observations (num_envs, obs_length) int64, rewards float64,
        terminated (always False), truncated, and infos ({} but at the end of
        an episode in SAME_STEP mode: "final_obs" and "final_info")."""
        if not self._started:
            raise gym.error.ResetNeeded("step before reset: call reset() first")
        a = np.asarray(actions)
        if a.shape != (self.num_envs,) or a.dtype.kind not in "iu":
            raise ValueError(
                f"actions must be an integer array of shape ({self.num_envs},), "
                f"not {a.dtype} of shape {a.shape}"
            )
        n = len(self.action_names)
        if a.min() < 0 or a.max() >= n:
            bad = int(np.flatnonzero((a < 0) | (a >= n))[0])
            raise ValueError(f"action {int(a[bad])} of copy {bad} is not an action: 0 to {n - 1}")
        answer = self._server.ask(
            {
                "type": "step",
                "env": self._id,
                "actions": base64.b64encode(a.astype(np.uint8).tobytes()).decode("ascii"),
            }
        )
        obs = self._observations(answer["observations"])
        rewards = np.frombuffer(base64.b64decode(answer["rewards"]), dtype="<f8").astype(np.float64)
        truncated = np.frombuffer(base64.b64decode(answer["truncated"]), dtype=np.uint8).astype(np.bool_)
        if rewards.shape != (self.num_envs,) or truncated.shape != (self.num_envs,):
            raise AnyntError(f"serve-env answered {rewards.size} rewards for {self.num_envs} copies")
        infos: dict[str, Any] = {}
        final = answer.get("final_observations")
        if final is not None:
            ended = np.flatnonzero(truncated)
            rows = self._rows(final, len(ended))
            for k, i in enumerate(ended):
                infos = self._add_info(infos, {"final_obs": rows[k], "final_info": {}}, int(i))
        if self.render_mode is not None:
            self._track(obs, rewards, truncated)
        return obs, rewards, np.zeros(self.num_envs, dtype=np.bool_), truncated, infos

    def _track(self, obs: NDArray[np.int64], rewards: NDArray[np.float64], truncated: NDArray[np.bool_]) -> None:
        """Keeps what render draws after a step: a copy that started its
        next episode at this step (autoreset) is at its step 0, rewardless."""
        if self.autoreset_mode == AutoresetMode.NEXT_STEP:
            restarted, self._restart = self._restart, truncated.copy()
        elif self.autoreset_mode == AutoresetMode.SAME_STEP:
            restarted = truncated
        else:
            restarted = np.zeros(self.num_envs, dtype=np.bool_)
        self._obs = obs
        self._copy_steps += 1
        self._copy_rewards[:] = rewards
        self._copy_steps[restarted], self._copy_rewards[restarted] = 0, np.nan

    def render(self) -> tuple[Any, ...] | None:
        """Each copy's render, as SyncVectorEnv's: "ansi", a tuple of the
        copies' observation texts; "rgb_array", of their frames (H×W×3
        uint8, as anynt.Env draws them); no render_mode, None."""
        if self.render_mode is None:
            return None
        if not self._started:
            raise gym.error.ResetNeeded("render before reset: call reset() first")
        rows = [row[: self.length].tolist() for row in self._obs]
        if self.render_mode == "ansi":
            return tuple("".join(self.alphabet[i] for i in row) for row in rows)
        if self._renderer is None:
            self._renderer = Renderer(self.cells, self.steps, self.action_names)
        self._renderer.exercise(self.alphabet, self.exercise_seed)
        return tuple(
            self._renderer.frame(row, int(step), None if np.isnan(r) else float(r))
            for row, step, r in zip(rows, self._copy_steps, self._copy_rewards)
        )

    def get_attr(self, name: str) -> tuple[Any, ...]:
        """An attribute of each copy (SyncVectorEnv's get_attr): the copies
        share one identity, so each has the vector's value (a single
        environment's space for observation_space and action_space)."""
        if name not in COPY_ATTRIBUTES:
            raise AttributeError(
                f"the copies of an AnyntVectorEnv have no attribute {name!r}; "
                f"they have {', '.join(COPY_ATTRIBUTES)}"
            )
        value = {"observation_space": self.single_observation_space, "action_space": self.single_action_space}.get(
            name, getattr(self, name)
        )
        return tuple(copy.copy(value) for _ in range(self.num_envs))

    def call(self, name: str, *args: Any, **kwargs: Any) -> tuple[Any, ...]:
        """A method of each copy, or an attribute (SyncVectorEnv's call): the
        copies' methods are render (every copy's, see render) and the
        attributes of get_attr."""
        if name == "render":
            if args or kwargs:
                raise TypeError("render takes no arguments")
            frames = self.render()
            return frames if frames is not None else (None,) * self.num_envs
        return self.get_attr(name)

    @property
    def spec(self) -> EnvSpec | None:
        """The registration this vector was made from (anynt.make_vec sets
        it), with max_episode_steps = its steps (as anynt.Env's spec)."""
        return self._spec

    @spec.setter
    def spec(self, spec: EnvSpec | None) -> None:
        self._spec = _with_steps(spec, self.steps)

    def __getstate__(self) -> Any:
        raise TypeError(
            "an AnyntVectorEnv cannot be pickled: it is the client of a running serve-env "
            "process; make another with anynt.make_vec(...) where it is needed"
        )

    def close_extras(self, **kwargs: Any) -> None:
        """Ends the serve-env process (if the constructor got as far as
        starting one: Gymnasium 1.1 closes in __del__ an object
        whose constructor raised)."""
        server = self.__dict__.get("_server")
        if server is not None:
            server.close()

    def _rows(self, data: str, count: int) -> NDArray[np.int64]:
        """count observations of base64 data, padded to obs_length."""
        raw = np.frombuffer(base64.b64decode(data), dtype=np.uint8)
        if raw.size != count * self.length:
            raise AnyntError(
                f"serve-env answered {raw.size} bytes of observations for {count} of length {self.length}"
            )
        out = np.full((count, self.obs_length), self.pad, dtype=np.int64)
        out[:, : self.length] = raw.reshape(count, self.length)
        return out

    def _observations(self, data: str) -> NDArray[np.int64]:
        return self._rows(data, self.num_envs)


def make_vec(env_id: str, num_envs: int = 1, **kwargs: Any) -> AnyntVectorEnv:
    """anynt's native vector environment of a registered id
    ("anynt/Omega1Blocker-v0", "anynt/LambdaOne-v0" with seed= and
    exercise=), with the id's kwargs and these; its spec is the id's.

    gym.make_vec(env_id, num_envs) gives Gymnasium's SyncVectorEnv instead
    (one anynt.Env a copy), which takes single-environment wrappers:
    Gymnasium picks a registered vector entry point before it looks at
    wrappers= and then refuses them, so anynt's ids register none."""
    for key in ("wrappers", "vectorization_mode", "vector_kwargs"):
        if key in kwargs:
            raise TypeError(
                f"anynt.make_vec takes no {key}=: it steps every copy in one serve-env; "
                f"gym.make_vec(id, num_envs, {key}=…) makes a SyncVectorEnv of single environments, "
                "and gymnasium.wrappers.vector's wrappers wrap this one"
            )
    spec = gym.spec(env_id)
    creator = _VECTOR_ENTRY_POINTS.get(str(spec.entry_point))
    if creator is None:
        raise ValueError(f"{env_id!r} is not an id of anynt's (anynt.ENV_IDS)")
    merged = {**spec.kwargs, **kwargs}
    envs = creator(num_envs=num_envs, **merged)
    made = copy.deepcopy(spec)
    made.kwargs = {**merged, "num_envs": num_envs}
    envs.spec = made
    return envs


def _corpus_vec(name: str, num_envs: int = 1, **kwargs: Any) -> AnyntVectorEnv:
    """The vector of a corpus id (anynt.CORPUS)."""
    from . import corpus_file

    return AnyntVectorEnv(corpus_file(name), num_envs=num_envs, **kwargs)


def lambda_one_vec(seed: int = 1, exercise: int = 1, num_envs: int = 1, **kwargs: Any) -> AnyntVectorEnv:
    """The vector of anynt/LambdaOne-v0: num_envs copies of exercise 1–7 of
    the Λ_one test that `anynt test --seed seed` gives first."""
    return AnyntVectorEnv(lambda_one=(seed, exercise), num_envs=num_envs, **kwargs)


# The vector of each single environment's entry point of anynt's ids.
_VECTOR_ENTRY_POINTS: dict[str, Callable[..., AnyntVectorEnv]] = {"anynt:_corpus_env": _corpus_vec, "anynt:lambda_one": lambda_one_vec}
