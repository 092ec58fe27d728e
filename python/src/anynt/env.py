"""anynt's environments as Gymnasium environments, served by `anynt serve-env`."""

from __future__ import annotations

import os
import weakref
from typing import Any, Literal, SupportsInt

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.error import ResetNeeded
from numpy.typing import NDArray

from ._server import DEFAULT_TIMEOUT, AnyntError, Server

ObsType = Literal["array", "text"]

# The separator that ends each cell of an observation ([P] §4.3).
CELL_END = ":"


class Env(gym.Env[Any, Any]):
    """An environment of anynt: an environment file, or an exercise of the Λ_one test.

    Each Env runs its own `anynt serve-env` process (found from $ANYNT_BIN,
    else `anynt` on PATH), ended by close().

    Args:
        file: an environment file (a path; relative to the current directory).
        lambda_one: (seed, exercise): exercise 1–7 of the Λ_one test that
            `anynt test --seed seed` gives first.
        steps: interactions of an episode; the episode is truncated after them.
            Default: 1000 for a file, the exercise's own for Λ_one.
        exercise_seed: the exercise's seed before any reset(seed=…); it draws
            the alphabet. Default: 1 for a file, the test's for Λ_one.
        obs_type: "array" (default): the observation as a fixed-size int64
            array of indices into the alphabet, padded with `pad` (= the
            number of symbols) up to `obs_length`; "text": the observation
            as a string of symbols (a gymnasium Text space).
        render_mode: None or "ansi" (render() returns the observation's text).
        binary: the anynt program; default $ANYNT_BIN, else the package's
            own (a platform wheel's), else `anynt` on PATH.
        timeout: seconds to wait for each answer of serve-env (default 60),
            or None to wait for ever; on expiry serve-env is killed and
            anynt.AnyntTimeout raised.
    """

    # render_fps: as Gymnasium's own text environments (ansi), for recorders.
    metadata = {"render_modes": ["ansi"], "render_fps": 4}

    def __init__(
        self,
        file: str | os.PathLike[str] | None = None,
        *,
        lambda_one: tuple[int, int] | None = None,
        steps: int | None = None,
        exercise_seed: int | None = None,
        obs_type: ObsType = "array",
        render_mode: str | None = None,
        binary: str | None = None,
        timeout: float | None = DEFAULT_TIMEOUT,
    ) -> None:
        if (file is None) == (lambda_one is None):
            raise ValueError("give exactly one of file and lambda_one")
        if obs_type not in ("array", "text"):
            raise ValueError(f'obs_type must be "array" or "text", not {obs_type!r}')
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f'render_mode must be None or "ansi", not {render_mode!r}')
        self.obs_type: ObsType = obs_type
        self.render_mode = render_mode
        self._server = Server(binary, timeout)
        self._finalizer = weakref.finalize(self, self._server.close)
        try:
            make: dict[str, Any] = {"type": "make"}
            if file is not None:
                make["file"] = os.path.abspath(os.fspath(file))
            else:
                assert lambda_one is not None
                seed, exercise = lambda_one
                make["lambda_one"] = {"seed": _int(seed, "seed"), "exercise": _int(exercise, "exercise")}
            if steps is not None:
                make["steps"] = _int(steps, "steps")
            if exercise_seed is not None:
                make["seed"] = _int(exercise_seed, "exercise_seed")
            made = self._server.ask(make)
            self._id: int = made["env"]
            self.name: str = made["name"]
            self.action_names: list[str] = list(made["action_names"])
            self.n_symbols: int = made["symbols"]
            self.cells: int = made["cells"]
            self.steps: int = made["steps"]
            self.exercise_seed: int = made["seed"]
            # The alphabet is a permutation of a fixed set of symbols: one reset
            # of episode 0 learns the set, which the spaces need before any reset.
            first = self._server.ask(
                {"type": "reset", "env": self._id, "seed": self.exercise_seed, "episode": 0}
            )
        except BaseException:
            self.close()
            raise
        self.alphabet: list[str] = list(first["alphabet"])
        others = [s for s in self.alphabet if s != CELL_END]
        # Every cell ends with ":" and every other symbol appears at most once.
        self.obs_length: int = self.cells + len(others)
        self.pad: int = self.n_symbols
        self.action_space = spaces.Discrete(len(self.action_names))
        if obs_type == "array":
            self.observation_space = spaces.MultiDiscrete(
                np.full(self.obs_length, self.n_symbols + 1, dtype=np.int64), dtype=np.int64
            )
        else:
            charset = "".join(sorted({c for s in self.alphabet for c in s}))
            self.observation_space = spaces.Text(
                max_length=self.cells + sum(len(s) for s in others),
                min_length=self.cells,
                charset=charset,
            )
        self._fresh = True  # no reset by the user yet: serve-env's next is episode 1
        self._started = False
        self._text = ""

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """Starts an episode (docs/protocol.md, "Seeds").

        reset(seed=S) plays episode 0 of the exercise of seed S (S decides the
        alphabet and, through the episode's seed, every random choice of the
        environment): what `anynt run FILE --seed S --trace` plays. reset()
        plays the next episode of the current seed (the first reset() after
        construction plays episode 0). options={"episode": i} plays episode i.
        """
        super().reset(seed=seed)
        request: dict[str, Any] = {"type": "reset", "env": self._id}
        if seed is not None:
            request["seed"] = _int(seed, "seed")
        episode = (options or {}).get("episode")
        if episode is not None:
            request["episode"] = _int(episode, "episode")
        elif seed is None and self._fresh:
            request["episode"] = 0
        answer = self._server.ask(request)
        self._fresh = False
        self._started = True
        self.alphabet = list(answer["alphabet"])
        self.exercise_seed = answer["seed"]
        obs = self._observation(answer)
        info = self._info(answer)
        info["seed"] = answer["seed"]
        info["episode"] = answer["episode"]
        info["alphabet"] = list(self.alphabet)
        return obs, info

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """Plays the action; terminated is always False (the class has no terminal
        state), truncated is True after the episode's last step."""
        if not self._started:
            raise ResetNeeded("step before reset: call reset() first")
        a = _action(action, len(self.action_names))
        answer = self._server.ask({"type": "step", "env": self._id, "action": a})
        return (
            self._observation(answer),
            float(answer["reward"]),
            False,
            bool(answer["truncated"]),
            self._info(answer),
        )

    def render(self) -> str | None:
        if self.render_mode == "ansi":
            return self._text
        return None

    def close(self) -> None:
        """Ends the serve-env process; an Env cannot be used after it."""
        self._server.close()
        super().close()

    def encode(self, text_indices: list[int]) -> NDArray[np.int64]:
        """The fixed-size array of a list of indices: padded with `pad` to `obs_length`."""
        if len(text_indices) > self.obs_length:
            raise AnyntError(
                f"an observation of {len(text_indices)} symbols is longer than "
                f"obs_length {self.obs_length}"
            )
        out = np.full(self.obs_length, self.pad, dtype=np.int64)
        out[: len(text_indices)] = text_indices
        return out

    def _observation(self, answer: dict[str, Any]) -> Any:
        indices: list[int] = answer["observation"]
        self._text = "".join(self.alphabet[i] for i in indices)
        if self.obs_type == "text":
            return self._text
        return self.encode(indices)

    def _info(self, answer: dict[str, Any]) -> dict[str, Any]:
        return {"text": self._text, "step": answer["step"]}


def _int(value: Any, what: str) -> int:
    """An integer argument: ints and numpy integers, not bools, floats or strings."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{what} must be an integer, not {value!r}")
    return int(value)


def _action(action: Any, n: SupportsInt) -> int:
    if isinstance(action, np.ndarray) and action.shape == ():
        action = action.item()
    a = _int(action, "action")
    if not 0 <= a < int(n):
        raise ValueError(f"action {a} is not an action of this environment: 0 to {int(n) - 1}")
    return a
