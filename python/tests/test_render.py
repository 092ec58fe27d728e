"""Rendering: rgb_array frames as the test page shows the state, their shape,
determinism and content; "human" without pygame or a display; recorders."""

from __future__ import annotations

import sys
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.error import DependencyNotInstalled
from gymnasium.wrappers import RenderCollection

import anynt
from anynt import _render


def cells_of(text: str) -> list[str]:
    """The text of each cell of an observation (each ends with ':')."""
    return text.split(":")[:-1]


def grid(env: anynt.AnyntEnv, frame: np.ndarray) -> np.ndarray:
    """The frame without its header (the step and the reward)."""
    layout = _render.Layout(env.cells, env.steps)
    return frame[layout.margin + layout.header :]


@pytest.mark.parametrize("env_id", anynt.ENV_IDS)
def test_frames_have_one_shape_and_dtype(binary: str, env_id: str) -> None:
    with gym.make(env_id, render_mode="rgb_array") as env:
        shapes = set()
        for seed in (1, 2):
            env.reset(seed=seed)
            for k in range(30):
                frame = env.render()
                assert isinstance(frame, np.ndarray) and frame.dtype == np.uint8
                assert frame.ndim == 3 and frame.shape[2] == 3
                shapes.add(frame.shape)
                _, _, _, truncated, _ = env.step(k % env.action_space.n)
                if truncated:
                    env.reset()
        assert len(shapes) == 1
        h, w, _ = shapes.pop()
        assert h % 16 == 0 and w % 16 == 0  # video encoders' macro blocks


def test_the_same_state_gives_the_same_bytes(binary: str) -> None:
    a = anynt.AnyntEnv(anynt.corpus_file("Fig3Torus"), render_mode="rgb_array", steps=50)
    b = anynt.AnyntEnv(anynt.corpus_file("Fig3Torus"), render_mode="rgb_array", steps=50)
    try:
        a.reset(seed=5)
        b.reset(seed=5)
        for k in range(50):
            fa, fb = a.render(), b.render()
            assert fa.tobytes() == fb.tobytes() == a.render().tobytes()
            a.step(k % 5)
            b.step(k % 5)
    finally:
        a.close()
        b.close()


def test_frames_follow_the_observation(binary: str) -> None:
    """A step that moves something changes the cells' picture; a step that
    moves nothing leaves it; and a cell is drawn on (something over its colour
    and number) exactly when the observation has objects or markers in it."""
    env = anynt.AnyntEnv(anynt.corpus_file("Omega1Blocker"), render_mode="rgb_array", steps=200, obs_type="text")
    try:
        text, _ = env.reset(seed=3)
        frame = env.render()
        assert env._renderer is not None
        background = env._renderer._background
        layout = env._renderer.layout
        moved = still = 0
        for k in range(200):
            for c, shown in enumerate(cells_of(text)):
                y, x = layout.origin(c)
                region = (slice(y, y + layout.cell), slice(x, x + layout.cell))
                assert (frame[region] != background[region]).any() == (shown != ""), (k, c, text)
            new_text, _, _, _, _ = env.step(k % 3)
            new_frame = env.render()
            if new_text != text:
                moved += 1
                assert (grid(env, new_frame) != grid(env, frame)).any()
            else:
                still += 1
                assert (grid(env, new_frame) == grid(env, frame)).all()
            text, frame = new_text, new_frame
        assert moved and still
    finally:
        env.close()


def test_the_reward_sign_as_the_page_draws_it(binary: str) -> None:
    """No sign after a reset; after a step a disc green for a gain, grey for
    nothing, red for a loss (style.css's colours)."""
    env = anynt.AnyntEnv(anynt.corpus_file("Example5"), render_mode="rgb_array", steps=300)
    try:
        env.reset(seed=1)
        layout = _render.Layout(env.cells, env.steps)
        y = layout.margin + (layout.header - layout.sign_size) // 2 - 4 + layout.sign_size // 2
        x = layout.sign_x + 2  # on the disc, beside the white icon
        assert tuple(env.render()[y, x]) == _render.PAPER
        signs = set()
        for k in range(300):
            _, reward, _, _, _ = env.step(k % 2)
            sign = (reward > 0) - (reward < 0)
            signs.add(sign)
            assert tuple(env.render()[y, x]) == _render.SIGN_COLOURS[sign]
        assert signs == {-1, 0, 1}
    finally:
        env.close()


def test_good_and_evil_look_alike_across_exercises() -> None:
    """As on the page: Good's and Evil's glyphs are drawn per exercise, from
    GLYPHS, distinct within an exercise; each glyph is Good in some exercise
    and Evil in another, so a glyph tells nothing."""
    goods, evils = set(), set()
    for seed in range(200):
        names = _render.glyph_names(seed, 7)
        assert len(set(names)) == 7 and set(names) <= set(_render.GLYPHS)
        goods.add(names[0])
        evils.add(names[1])
    assert goods == evils == set(_render.GLYPHS)
    assert _render.glyph_names(3, 12)[10:] == [n + "2" for n in _render.glyph_names(3, 12)[:2]]


def test_the_glyphs_are_the_exercises_not_the_episodes(binary: str) -> None:
    """One environment over reset's seeds: Good and Evil keep their glyphs;
    with reseed_encoding=True each seed is an exercise of its own glyphs."""

    def good_evil(env: anynt.AnyntEnv) -> tuple[Any, Any]:
        env.render()
        assert env._renderer is not None
        what = env._renderer._what
        return what[env.alphabet.index("⊕")], what[env.alphabet.index("⊖")]

    with anynt.lambda_one(1, 4, render_mode="rgb_array") as env:
        env.reset(seed=1)
        kept = good_evil(env)
        for seed in range(2, 12):
            env.reset(seed=seed)
            assert good_evil(env) == kept
        assert kept == tuple(_render.glyph_names(env.exercise_seed, 2))
    with anynt.lambda_one(1, 4, render_mode="rgb_array", reseed_encoding=True) as env:
        pairs = set()
        for seed in range(2, 12):
            env.reset(seed=seed)
            pairs.add(good_evil(env))
        assert len(pairs) > 1


def test_render_modes_and_fps() -> None:
    assert anynt.AnyntEnv.metadata["render_modes"] == ["ansi", "rgb_array", "human"]
    assert anynt.AnyntEnv.metadata["render_fps"] > 0


@pytest.mark.parametrize(
    "display, named",
    [({}, ["pygame", "a display"]), ({"DISPLAY": ":0"}, ["pygame"]), ({"WAYLAND_DISPLAY": "wayland-0"}, ["pygame"])],
)
def test_human_without_pygame_or_display_is_refused_by_name(
    binary: str, monkeypatch: pytest.MonkeyPatch, display: dict[str, str], named: list[str]
) -> None:
    """render_mode="human" raises DependencyNotInstalled at construction,
    naming what is missing, and starts no serve-env; the environment's
    render_modes then leave "human" out, so check_env's render check (which
    makes each listed mode) passes without pygame."""
    monkeypatch.setitem(sys.modules, "pygame", None)  # as if not installed, whatever this venv has
    for var in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER"):
        monkeypatch.delenv(var, raising=False)
    for var, value in display.items():
        monkeypatch.setenv(var, value)
    with pytest.raises(DependencyNotInstalled) as caught:
        gym.make("anynt/Example5-v0", render_mode="human")
    message = str(caught.value)
    assert "anynt[human]" in message
    for what in ("pygame", "a display"):
        assert (what in message) == (what in named), message
    with gym.make("anynt/Example5-v0") as env:
        assert env.unwrapped.metadata["render_modes"] == ["ansi", "rgb_array"]


def test_render_collection_records_an_episode(binary: str) -> None:
    """Gymnasium's RenderCollection (what RecordVideo records, without moviepy):
    a frame for the reset and one a step, all of one shape."""
    env = RenderCollection(gym.make("anynt/LambdaOne-v0", seed=2, exercise=3, render_mode="rgb_array"))
    try:
        env.reset(seed=0)
        steps = env.unwrapped.steps  # type: ignore[attr-defined]
        for k in range(steps):
            env.step(k % env.action_space.n)
        frames = env.render()
        assert len(frames) == steps + 1
        assert len({f.shape for f in frames}) == 1 and all(f.dtype == np.uint8 for f in frames)
    finally:
        env.close()


@pytest.mark.parametrize("env_id", anynt.ENV_IDS)
def test_make_serves_rgb_array_list(binary: str, env_id: str) -> None:
    """gym.make(id, render_mode="rgb_array_list") collects the episode's
    frames, as Gymnasium does for any environment that renders rgb_array."""
    env = gym.make(env_id, render_mode="rgb_array_list")
    try:
        env.reset(seed=0)
        for _ in range(3):
            env.step(0)
        frames = env.render()
        assert isinstance(frames, list) and len(frames) == 4
        assert all(f.dtype == np.uint8 and f.ndim == 3 for f in frames)
    finally:
        env.close()


def test_ansi_stays_the_text(binary: str) -> None:
    with anynt.AnyntEnv(anynt.corpus_file("Example6"), render_mode="ansi") as env:
        _, info = env.reset(seed=2)
        assert env.render() == info["text"]
        _, _, _, _, info = env.step(1)
        assert env.render() == info["text"]


def ring(path: Any, n: int) -> str:
    """An environment file of n cells in a ring (actions stay, left, right)."""
    rows = "".join(f"\t{i} {(i - 2) % n + 1} {i % n + 1}\n" for i in range(1, n + 1))
    path.write_text(f"actions s l r\n\nspace table {{\n{rows}}}\n\ngoodevil pattern r r l\n", encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("n", [65, 2000])
def test_large_spaces_fit_a_bounded_frame(binary: str, tmp_path: Any, n: int) -> None:
    """Beyond the page's 64 cells, smaller cells in a square of about 768
    pixels: the frame stays under 1024 × 1024 and still shows every cell
    that holds something, and only those."""
    env = anynt.AnyntEnv(ring(tmp_path / "ring.anynt", n), render_mode="rgb_array", steps=20, obs_type="text")
    try:
        text, _ = env.reset(seed=2)
        for k in range(20):
            frame = env.render()
            assert frame.shape[0] <= 1024 and frame.shape[1] <= 1024
            assert env._renderer is not None
            layout, background = env._renderer.layout, env._renderer._background
            for c, shown in enumerate(cells_of(text)):
                y, x = layout.origin(c)
                region = (slice(y, y + layout.cell), slice(x, x + layout.cell))
                assert (frame[region] != background[region]).any() == (shown != ""), (k, c)
            text, _, _, _, _ = env.step(k % 3)
    finally:
        env.close()
