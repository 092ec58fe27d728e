"""anynt's environments as Gymnasium environments, served by `anynt serve-env`."""

from __future__ import annotations

import copy
import importlib
import importlib.util
import os
import sys
import weakref
from array import array
from typing import Any, Literal, SupportsInt

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.envs.registration import EnvSpec
from gymnasium.error import DependencyNotInstalled, ResetNeeded
from numpy.typing import NDArray

from ._render import Renderer
from ._server import DEFAULT_TIMEOUT, AnyntError, Server

ObsType = Literal["array", "text"]

# The separator that ends each cell of an observation ([P] §4.3).
CELL_END = ":"

# The render modes of the class; an instance lists "human" only where it
# can work (human_rendering_missing).
RENDER_MODES = ["ansi", "rgb_array", "human"]

# Seeds are anynt's: unsigned 64-bit integers (docs/protocol.md).
MAX_SEED = 2**64 - 1


def _with_steps(spec: EnvSpec | None, steps: int) -> EnvSpec | None:
    """spec, with max_episode_steps = steps where it has none. The registry
    cannot hold max_episode_steps: an episode's steps depend on make's
    steps= and, for Λ_one, on the exercise. Nor would it be right to:
    gym.make would add a TimeLimit of that length, which a larger steps=
    would then cut short. The instance knows."""
    if spec is not None and spec.max_episode_steps is None:
        spec = copy.copy(spec)
        spec.max_episode_steps = steps
    return spec


class AnyntEnv(gym.Env[Any, Any]):
    """An environment of anynt: an environment file, or an exercise of the Λ_one test.

    The constructor fixes the environment's identity: the file or the
    exercise, and the exercise's seed, which draws the alphabet (the
    observation's encoding) and the glyphs of its frames. reset(seed=s)
    varies only the episodes (docs/python.md, "Seeds"), unless
    reseed_encoding=True.

    Each AnyntEnv runs its own `anynt serve-env` process (found from
    $ANYNT_BIN, else the package's own, else `anynt` on PATH), ended by
    close(). It pickles (and
    deep-copies): the copy runs its own serve-env, made with the same
    arguments, and resumes at the same step of the same episode.

    Args:
        file: an environment file (a path; relative to the current directory).
        lambda_one: (seed, exercise): exercise 1–7 of the Λ_one test that
            `anynt test --seed seed` gives first.
        steps: interactions of an episode; the episode is truncated after them.
            Default: 1000 for a file, the exercise's own for Λ_one.
        exercise_seed: the exercise's seed: it draws the alphabet, and its
            episodes are those of reset() without a seed. Default: 1 for a
            file (anynt run's), the test's for Λ_one.
        reseed_encoding: False (default): reset(seed=s) plays episode 0 of
            the stream of episodes s in the exercise's own alphabet; True:
            reset(seed=s) makes s the exercise's seed, a new alphabet (the
            package's first behaviour).
        obs_type: "array" (default): the observation as a fixed-size int64
            array of indices into the alphabet, padded with `pad` (= the
            number of symbols) up to `obs_length`; "text": the observation
            as a string of symbols (a gymnasium Text space).
        render_mode: None; "ansi": render() returns the observation's text;
            "rgb_array": render() returns the frame, an H×W×3 uint8 image of
            the state as the test page shows it (the same shape for every
            frame of an environment); "human": the frame in a window (needs
            pygame, `pip install 'anynt[human]'`, and a display).
        binary: the anynt program; default $ANYNT_BIN, else the package's
            own (a platform wheel's), else `anynt` on PATH.
        timeout: seconds to wait for each answer of serve-env (default 60),
            or None to wait for ever; on expiry serve-env is killed and
            anynt.AnyntTimeout raised.
    """

    metadata = {"render_modes": RENDER_MODES, "render_fps": 4}

    def __init__(
        self,
        file: str | os.PathLike[str] | None = None,
        *,
        lambda_one: tuple[int, int] | None = None,
        steps: int | None = None,
        exercise_seed: int | None = None,
        reseed_encoding: bool = False,
        obs_type: ObsType = "array",
        render_mode: str | None = None,
        binary: str | None = None,
        timeout: float | None = DEFAULT_TIMEOUT,
    ) -> None:
        if (file is None) == (lambda_one is None):
            raise ValueError("give exactly one of file and lambda_one")
        if obs_type not in ("array", "text"):
            raise ValueError(f'obs_type must be "array" or "text", not {obs_type!r}')
        if not isinstance(reseed_encoding, bool):
            raise TypeError(f"reseed_encoding must be True or False, not {reseed_encoding!r}")
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be None or one of {RENDER_MODES}, not {render_mode!r}")
        if render_mode == "human":
            missing = human_rendering_missing()
            if missing:
                raise DependencyNotInstalled(
                    f'render_mode="human" needs {" and ".join(missing)}; '
                    'render_mode="rgb_array" needs neither'
                )
        make = make_request(file, lambda_one, steps, exercise_seed)
        self._spec: EnvSpec | None = None
        self.obs_type: ObsType = obs_type
        self.render_mode = render_mode
        self.reseed_encoding = reseed_encoding
        self.metadata = {
            **type(self).metadata,
            "render_modes": [m for m in RENDER_MODES if m != "human" or not human_rendering_missing()],
        }
        self._make = make
        self._binary = binary
        self._timeout = timeout
        self._renderer: Renderer | None = None
        self._window: Any = None  # pygame's clock once this env showed a frame ("human")
        made, first = self._connect()
        self.name: str = made["name"]
        self.action_names: list[str] = list(made["action_names"])
        self.n_symbols: int = made["symbols"]
        self.cells: int = made["cells"]
        self.steps: int = made["steps"]
        self.exercise_seed: int = made["seed"]
        self._made = made
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
        # The episode under way, enough to play it again (pickling): its
        # stream, number and actions; and what its frames show.
        self._stream: int = first["episode_seed"]
        self._episode: int = 0
        self._actions = array("B" if len(self.action_names) <= 256 else "I")
        self._indices: list[int] = list(first["observation"])
        self._step = 0
        self._reward: float | None = None
        self._text = ""

    def _connect(self) -> tuple[dict[str, Any], dict[str, Any]]:
        """Starts serve-env and makes the environment; returns made's answer
        and that of a reset of episode 0 of the exercise's own stream (the
        alphabet's symbols, which the spaces need before any reset)."""
        self._server: Server | _Closed = Server(self._binary, self._timeout)
        self._finalizer = weakref.finalize(self, self._server.close)
        try:
            made = self._server.ask(self._make)
            self._id: int = made["env"]
            first = self._server.ask(
                {"type": "reset", "env": self._id, "episode_seed": made["seed"], "episode": 0}
            )
            if "episode_seed" not in first:  # anynt/1.0 ignores episode_seed
                raise AnyntError(
                    f"{self._server.binary} speaks protocol anynt/1.0: this package needs "
                    "anynt/1.1 (reset's episode_seed); install a newer anynt"
                )
        except BaseException:
            self._server.close()
            raise
        return made, first

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """Starts an episode (docs/python.md, "Seeds").

        reset(seed=s) plays episode 0 of the stream of episodes s (s decides,
        through each episode's seed, every random choice of the environment)
        in the exercise's alphabet: with s = exercise_seed, what `anynt run
        FILE --seed s --trace` plays. reset() plays the next episode of the
        current stream (the first reset() after construction: episode 0 of
        the exercise's own stream). options={"episode": i} plays episode i
        of the current stream (of s with a seed). With reseed_encoding=True,
        reset(seed=s) makes s the exercise's seed: a new alphabet too.
        """
        if seed is not None:
            seed = _seed(seed, "seed")
        super().reset(seed=seed)
        request: dict[str, Any] = {"type": "reset", "env": self._id}
        if seed is not None:
            request["seed" if self.reseed_encoding else "episode_seed"] = seed
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
        self._stream, self._episode = answer["episode_seed"], answer["episode"]
        del self._actions[:]
        self._reward = None
        obs = self._observation(answer)
        info = self._info(answer)
        # numpy's uint64, not Python's int: a seed may pass 2^63, and
        # Gymnasium's vector environments gather infos into arrays typed by
        # the first value (int64 for an int, which would overflow).
        info["seed"] = np.uint64(answer["seed"])
        info["episode_seed"] = np.uint64(answer["episode_seed"])
        # "episode_index", not "episode": RecordEpisodeStatistics writes its
        # statistics under "episode", and a vector environment merging both
        # into one key breaks at the first autoreset.
        info["episode_index"] = answer["episode"]
        info["alphabet"] = list(self.alphabet)
        if self.render_mode == "human":
            self.render()
        return obs, info

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """Plays the action; terminated is always False (the class has no terminal
        state), truncated is True after the episode's last step."""
        if not self._started:
            raise ResetNeeded("step before reset: call reset() first")
        a = _action(action, len(self.action_names))
        answer = self._server.ask({"type": "step", "env": self._id, "action": a})
        self._actions.append(a)
        self._reward = float(answer["reward"])
        result = (
            self._observation(answer),
            self._reward,
            False,
            bool(answer["truncated"]),
            self._info(answer),
        )
        if self.render_mode == "human":
            self.render()
        return result

    @property
    def spec(self) -> EnvSpec | None:
        """The registration this environment was made from (gym.make sets it),
        with max_episode_steps = its steps where the registration has none."""
        return self._spec

    @spec.setter
    def spec(self, spec: EnvSpec | None) -> None:
        self._spec = _with_steps(spec, self.steps)

    def render(self) -> Any:
        """"ansi": the observation's text; "rgb_array": the frame (an H×W×3
        uint8 array, see frame()); "human": shows the frame in a window and
        returns None; no render_mode: None."""
        if self.render_mode == "ansi":
            return self._text
        if self.render_mode == "rgb_array":
            return self.frame()
        if self.render_mode == "human":
            self._show(self.frame())
        return None

    def frame(self) -> NDArray[np.uint8]:
        """The state as the test page shows it to a person (web/), whatever
        the render_mode: the cells in their colours, numbered from 1, π as
        ○, Good, Evil and the other objects as neutral glyphs drawn from the
        exercise's seed (the page does not tell Good from Evil), a thick
        border round each cell an action leads to and, under it, those
        actions' indices; above, the steps done and the last reward (its
        sign as the page draws it, and its value). The same state gives the
        same bytes; every frame of an environment has the same shape."""
        if self._renderer is None:
            self._renderer = Renderer(self.cells, self.steps, self.action_names)
        self._renderer.exercise(self.alphabet, self.exercise_seed)
        return self._renderer.frame(self._indices, self._step, self._reward)

    def _show(self, frame: NDArray[np.uint8]) -> None:
        """Shows frame in pygame's window (one a process: opened again if
        another environment closed it or set another size)."""
        pygame = importlib.import_module("pygame")
        screen = pygame.display.get_surface() if pygame.display.get_init() else None
        if screen is None or screen.get_size() != (frame.shape[1], frame.shape[0]):
            pygame.display.init()
            screen = pygame.display.set_mode((frame.shape[1], frame.shape[0]))
            pygame.display.set_caption(f"anynt: {self.name}")
        if self._window is None:
            self._window = pygame.time.Clock()
        pygame.surfarray.blit_array(screen, frame.transpose(1, 0, 2))
        pygame.event.pump()
        pygame.display.flip()
        self._window.tick(self.metadata["render_fps"])

    def close(self) -> None:
        """Ends the serve-env process (and closes the window of "human"); an
        AnyntEnv cannot be used after it."""
        self._server.close()
        if self._window is not None:
            importlib.import_module("pygame").display.quit()
            self._window = None
        super().close()

    def __getstate__(self) -> dict[str, Any]:
        """What a copy needs: the constructor's arguments, the spaces, the
        episode under way (its stream, number and actions), the random
        generator; not the process, nor the window."""
        state = {k: v for k, v in self.__dict__.items() if k not in ("_server", "_finalizer", "_window", "_renderer")}
        state["_closed"] = self._server.closed
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        """A copy: a closed one stays closed; an open one starts its own
        serve-env, makes the same environment and plays the episode under
        way again, action for action, up to the same step."""
        closed = state.pop("_closed")
        self.__dict__.update(state)
        self._renderer, self._window = None, None
        if closed:
            self._server = _Closed()
            return
        made, _ = self._connect()
        if made != {**self._made, "env": made["env"]}:
            self.close()
            raise AnyntError(f"the copy's environment differs from the original's: {made} against {self._made}")
        if not self._started:
            return
        answer = self._server.ask(
            {"type": "reset", "env": self._id, "seed": self.exercise_seed,
             "episode_seed": self._stream, "episode": self._episode}
        )
        for a in self._actions:
            answer = self._server.ask({"type": "step", "env": self._id, "action": a})
        if answer["observation"] != self._indices or answer["step"] != self._step:
            self.close()
            raise AnyntError(f"the copy's episode differs from the original's (another anynt at {self._server.binary}?)")

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
        self._indices = indices
        self._step = answer["step"]
        self._text = "".join(self.alphabet[i] for i in indices)
        if self.obs_type == "text":
            return self._text
        return self.encode(indices)

    def _info(self, answer: dict[str, Any]) -> dict[str, Any]:
        return {"text": self._text, "step": answer["step"]}


# The class's first name, kept: `anynt.Env` is AnyntEnv.
Env = AnyntEnv


class _Closed:
    """The server of a copy of a closed environment: it refuses every
    request, as a closed Server does."""

    closed = True
    binary = ""

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        raise AnyntError("the environment is closed")

    def close(self) -> None:
        pass


def human_rendering_missing() -> list[str]:
    """What render_mode="human" lacks here: pygame (the extra `anynt[human]`)
    and a display; empty when it can show frames. Looks, imports nothing."""
    missing = []
    try:
        found = importlib.util.find_spec("pygame") is not None
    except (ImportError, ValueError):  # ValueError: sys.modules["pygame"] is None
        found = False
    if not found:
        missing.append("pygame (pip install 'anynt[human]')")
    if sys.platform.startswith(("linux", "freebsd", "openbsd", "netbsd")) and not any(
        os.environ.get(v) for v in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")
    ):
        missing.append("a display (none of DISPLAY, WAYLAND_DISPLAY, SDL_VIDEODRIVER is set)")
    return missing


def make_request(
    file: str | os.PathLike[str] | None,
    lambda_one: tuple[int, int] | None,
    steps: int | None,
    exercise_seed: int | None,
) -> dict[str, Any]:
    """serve-env's make request of an environment: a file (by its absolute
    path) or a Λ_one exercise, and the steps and exercise seed if given."""
    make: dict[str, Any] = {"type": "make"}
    if file is not None:
        make["file"] = os.path.abspath(os.fspath(file))
    else:
        assert lambda_one is not None
        seed, exercise = lambda_one
        make["lambda_one"] = {"seed": _seed(seed, "seed"), "exercise": _int(exercise, "exercise")}
    if steps is not None:
        make["steps"] = _int(steps, "steps")
    if exercise_seed is not None:
        make["seed"] = _seed(exercise_seed, "exercise_seed")
    return make


def _int(value: Any, what: str) -> int:
    """An integer argument: ints and numpy integers, not bools, floats or strings."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{what} must be an integer, not {value!r}")
    return int(value)


def _seed(value: Any, what: str) -> int:
    """A seed: an integer from 0 to 2^64 − 1, anynt's seeds (ValueError
    here, not a refusal of serve-env's)."""
    s = _int(value, what)
    if not 0 <= s <= MAX_SEED:
        raise ValueError(f"{what} must be from 0 to 2**64 - 1 ({MAX_SEED}), not {s}")
    return s


def _action(action: Any, n: SupportsInt) -> int:
    if isinstance(action, np.ndarray) and action.shape == ():
        action = action.item()
    a = _int(action, "action")
    if not 0 <= a < int(n):
        raise ValueError(f"action {a} is not an action of this environment: 0 to {int(n) - 1}")
    return a
