"""Frames of an anynt environment as a person sees it on the test page.

The page (web/assets: app.js, style.css) shows the cells as coloured
squares numbered from 1, the participant as ○, Good, Evil and the other
objects as neutral glyphs drawn for each exercise (a diamond, a star, …:
no plus or minus, so that the page does not tell which is Good), the cells
one move reaches with a thick border, and the last reward as a sign in a
circle (↑ on green, ■ on grey, ↓ on red). A frame draws the same, with
numpy only: shapes rasterised once per size, a 3×5 bitmap font of our own
for numbers, and two things the page has no need of but a viewer of a
recorded episode does: under each reachable cell the actions (indices of
the action space) that lead there, and the last reward's value.

A frame's size depends only on the number of cells, so every frame of an
environment has the same shape (video recorders need that), and its
bytes only on what it shows (the observation, the step, the last reward
and the exercise's seed, which draws the glyphs).
"""

from __future__ import annotations

import colorsys
import math
import random
import re
from functools import lru_cache

import numpy as np
from numpy.typing import NDArray

# The page's neutral glyphs (study.Glyphs), from which each exercise draws
# Good's, Evil's and its objects'.
GLYPHS: tuple[str, ...] = (
    "diamond", "pentagon", "triangle", "star", "parallelogram",
    "hexagon", "rook", "bowtie", "club", "spade",
)

Colour = tuple[int, int, int]
INK: Colour = (0x1A, 0x1A, 0x1A)
PAPER: Colour = (0xFA, 0xFA, 0xFA)
EDGE: Colour = (0x77, 0x77, 0x77)
WHITE: Colour = (0xFF, 0xFF, 0xFF)
# The reward's sign: up on green, nothing on grey, down on red (style.css).
SIGN_COLOURS: dict[int, Colour] = {1: (0x1E, 0x8E, 0x3E), 0: (0x8A, 0x8A, 0x8A), -1: (0xC5, 0x22, 0x1F)}


def _hsl(h: float, s: float, lightness: float) -> Colour:
    r, g, b = colorsys.hls_to_rgb(h / 360, lightness, s)
    return (round(r * 255), round(g * 255), round(b * 255))


# style.css's twelve cell colours, by (number − 1) mod 12: hue, lightness
# (saturation 55%).
PALETTE: tuple[Colour, ...] = tuple(
    _hsl(h, 0.55, lightness)
    for h, lightness in [
        (203, 0.85), (45, 0.85), (272, 0.85), (180, 0.85), (318, 0.85), (58, 0.85),
        (226, 0.85), (295, 0.85), (249, 0.85), (180, 0.74), (45, 0.74), (272, 0.74),
    ]
)

# A 3×5 font of the characters a frame writes: each row's three bits, left
# bit first.
_FONT_ROWS: dict[str, tuple[int, int, int, int, int]] = {
    "0": (0b111, 0b101, 0b101, 0b101, 0b111),
    "1": (0b010, 0b110, 0b010, 0b010, 0b111),
    "2": (0b111, 0b001, 0b111, 0b100, 0b111),
    "3": (0b111, 0b001, 0b011, 0b001, 0b111),
    "4": (0b101, 0b101, 0b111, 0b001, 0b001),
    "5": (0b111, 0b100, 0b111, 0b001, 0b111),
    "6": (0b111, 0b100, 0b111, 0b101, 0b111),
    "7": (0b111, 0b001, 0b010, 0b010, 0b010),
    "8": (0b111, 0b101, 0b111, 0b101, 0b111),
    "9": (0b111, 0b101, 0b111, 0b001, 0b111),
    "+": (0b000, 0b010, 0b111, 0b010, 0b000),
    "-": (0b000, 0b000, 0b111, 0b000, 0b000),
    ".": (0b000, 0b000, 0b000, 0b000, 0b010),
    "/": (0b001, 0b001, 0b010, 0b100, 0b100),
    " ": (0, 0, 0, 0, 0),
}
FONT: dict[str, NDArray[np.bool_]] = {
    c: np.array([[(row >> (2 - x)) & 1 for x in range(3)] for row in rows], dtype=bool)
    for c, rows in _FONT_ROWS.items()
}


def text_width(text: str, scale: int) -> int:
    """The width in pixels of text in the font at scale (a column between characters)."""
    return max(0, len(text) * 4 * scale - scale)


def glyph_names(exercise_seed: int, n: int) -> list[str]:
    """The page's names for Good, Evil and n − 2 objects in an exercise: a
    permutation of GLYPHS drawn from the exercise's seed, numbered from 2
    when there are more than GLYPHS ("diamond2"), as the study names them.
    Good and Evil look alike to anyone who does not know the seed."""
    order = list(GLYPHS)
    random.Random(f"anynt glyphs {exercise_seed}").shuffle(order)
    return [order[k % len(order)] + (str(k // len(order) + 1) if k >= len(order) else "") for k in range(n)]


def _natural(name: str) -> list[tuple[int, int | str]]:
    """A sort key that puts ω2 before ω10."""
    return [(0, int(p)) if p.isdigit() else (1, p) for p in re.split(r"(\d+)", name) if p]


# Kinds of symbol in an observation.
_CELL_END, _PI, _OBJECT, _MARKER, _NONE = range(5)


def _polygon(points: list[tuple[float, float]], x: NDArray[np.float64], y: NDArray[np.float64]) -> NDArray[np.bool_]:
    """Which points (x, y) lie inside the polygon (even–odd rule)."""
    inside = np.zeros(x.shape, dtype=bool)
    for (x0, y0), (x1, y1) in zip(points, points[1:] + points[:1]):
        if y0 == y1:
            continue
        crosses = (y0 > y) != (y1 > y)
        at = x0 + (y - y0) * (x1 - x0) / (y1 - y0)
        inside ^= crosses & (x < at)
    return inside


def _regular(n: int, r: float, turn: float) -> list[tuple[float, float]]:
    return [(r * math.sin(turn + 2 * math.pi * k / n), -r * math.cos(turn + 2 * math.pi * k / n)) for k in range(n)]


def _rect(x0: float, y0: float, x1: float, y1: float) -> list[tuple[float, float]]:
    return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]


def _shape(name: str, x: NDArray[np.float64], y: NDArray[np.float64]) -> NDArray[np.bool_]:
    """The points of [−1, 1]² (y downwards) inside the glyph of name."""

    def disc(cx: float, cy: float, r: float) -> NDArray[np.bool_]:
        return np.asarray((x - cx) ** 2 + (y - cy) ** 2 <= r * r)

    def poly(points: list[tuple[float, float]]) -> NDArray[np.bool_]:
        return _polygon(points, x, y)

    if name == "you":  # ○, the participant
        d = x * x + y * y
        return np.asarray((d <= 0.95**2) & (d >= 0.7**2))
    if name == "diamond":
        return poly([(0, -1), (0.72, 0), (0, 1), (-0.72, 0)])
    if name == "pentagon":
        return poly(_regular(5, 0.98, 0))
    if name == "triangle":
        return poly([(0, -0.9), (0.95, 0.75), (-0.95, 0.75)])
    if name == "star":
        outer, inner = _regular(5, 1.0, 0), _regular(5, 0.42, math.pi / 5)
        return poly([p for pair in zip(outer, inner) for p in pair])
    if name == "parallelogram":
        return poly([(-0.55, -0.5), (1.0, -0.5), (0.55, 0.5), (-1.0, 0.5)])
    if name == "hexagon":
        return poly(_regular(6, 0.98, 0))
    if name == "rook":
        parts = [
            _rect(-0.8, 0.62, 0.8, 0.95), _rect(-0.45, -0.35, 0.45, 0.65), _rect(-0.72, -0.62, 0.72, -0.32),
            _rect(-0.72, -0.95, -0.42, -0.6), _rect(-0.15, -0.95, 0.15, -0.6), _rect(0.42, -0.95, 0.72, -0.6),
        ]
        out = poly(parts[0])
        for p in parts[1:]:
            out |= poly(p)
        return out
    if name == "bowtie":
        return poly([(-0.95, -0.75), (0, 0), (-0.95, 0.75)]) | poly([(0.95, -0.75), (0, 0), (0.95, 0.75)])
    if name == "club":
        stem = poly([(0, 0.05), (0.32, 0.95), (-0.32, 0.95)])
        return disc(0, -0.48, 0.36) | disc(-0.48, 0.12, 0.36) | disc(0.48, 0.12, 0.36) | disc(0, 0.05, 0.2) | stem
    if name == "spade":
        stem = poly([(0, 0.2), (0.3, 0.95), (-0.3, 0.95)])
        return poly([(0, -0.95), (0.82, 0.12), (-0.82, 0.12)]) | disc(-0.4, 0.22, 0.42) | disc(0.4, 0.22, 0.42) | stem
    if name == "up":
        return poly([(0, -0.8), (0.7, 0.0), (0.25, 0.0), (0.25, 0.8), (-0.25, 0.8), (-0.25, 0.0), (-0.7, 0.0)])
    if name == "down":
        return poly([(0, 0.8), (0.7, 0.0), (0.25, 0.0), (0.25, -0.8), (-0.25, -0.8), (-0.25, 0.0), (-0.7, 0.0)])
    if name == "square":
        return poly(_rect(-0.35, -0.35, 0.35, 0.35))
    if name == "disc":
        return disc(0, 0, 1.0)
    raise ValueError(f"no glyph {name!r}")


@lru_cache(maxsize=256)
def glyph_alpha(name: str, size: int) -> NDArray[np.float32]:
    """The coverage (0 to 1) of each pixel of a size×size square by the
    glyph of name, from 4×4 samples a pixel: smooth edges, the same bytes
    every time."""
    k = 4
    t = (np.arange(size * k, dtype=np.float64) + 0.5) / (size * k) * 2 - 1
    x, y = np.meshgrid(t, t)
    inside = _shape(name, x, y).astype(np.float32)
    alpha: NDArray[np.float32] = inside.reshape(size, k, size, k).mean(axis=(1, 3), dtype=np.float32)
    alpha.setflags(write=False)
    return alpha


class Layout:
    """The fixed geometry of an environment's frames, from its cells and steps.

    Up to 64 cells, as the page: cells of 72 pixels, eight to a row, each
    with its number and its actions. More cells make a square of smaller
    ones about as wide (768 pixels), down to 3 pixels a cell for anynt's
    largest spaces (100,000 cells: about 1000 × 1000); cells under 24 pixels
    have no number and no actions' indices, under 8 no edge.
    """

    def __init__(self, cells: int, steps: int) -> None:
        self.cells = cells
        self.margin = 8
        if cells <= 64:
            self.cols, self.cell = min(cells, 8), 72
        else:
            self.cols = math.ceil(math.sqrt(cells))
            self.cell = max(3, min(72, 768 // self.cols))
        self.rows = math.ceil(cells / self.cols)
        self.gap = max(2, self.cell // 9) if self.cell >= 16 else int(self.cell >= 6)
        self.detail = self.cell >= 24  # the cells' numbers and actions
        self.scale = 2 if self.cell >= 48 else 1  # of their font
        self.border = max(1, self.cell // 24)  # a reachable cell's
        # Objects keep clear of the number above them and the actions below.
        self.band = self.border + 5 * self.scale + 4 if self.detail else self.border
        # The header: "step/steps", then the reward's sign and value.
        self.header = 32
        self.step_width = text_width(f"{steps}/{steps}", 2)
        self.sign_x = self.margin + self.step_width + 12
        self.sign_size = 24
        self.value_x = self.sign_x + self.sign_size + 8
        header_width = self.value_x + text_width("+0.000", 2) + self.margin
        grid_width = 2 * self.margin + self.cols * self.cell + (self.cols - 1) * self.gap
        grid_height = self.rows * self.cell + (self.rows - 1) * self.gap
        # Multiples of 16, the macro-block size video encoders want.
        self.width = _up16(max(grid_width, header_width))
        self.height = _up16(self.margin + self.header + grid_height + self.margin)

    def origin(self, cell: int) -> tuple[int, int]:
        """The top-left pixel (y, x) of cell, from 0."""
        row, col = divmod(cell, self.cols)
        return (
            self.margin + self.header + row * (self.cell + self.gap),
            self.margin + col * (self.cell + self.gap),
        )


def _up16(n: int) -> int:
    return (n + 15) // 16 * 16


class Renderer:
    """Draws the frames of one environment (see the module's doc)."""

    def __init__(self, cells: int, steps: int, action_names: list[str]) -> None:
        self.layout = Layout(cells, steps)
        self.steps = steps
        self.markers = {_marker(a): i for i, a in enumerate(action_names)}
        self.action_names = list(action_names)
        self._background = self._draw_background()
        self._alphabet: list[str] = []
        self._seed: int | None = None
        self._kind = np.zeros(0, dtype=np.int8)  # of each index of the alphabet
        self._what: list[int | str] = []  # a glyph's name, or an action's index

    def exercise(self, alphabet: list[str], exercise_seed: int) -> None:
        """Sets the alphabet the observations are written in and the seed
        that draws the glyphs (both change only with the exercise)."""
        if alphabet == self._alphabet and exercise_seed == self._seed:
            return
        self._alphabet, self._seed = list(alphabet), exercise_seed
        special = {":", "π", "⊕", "⊖", "⊙", *self.markers, *self.action_names}
        others = sorted(
            (s for s in alphabet if s not in special),
            key=lambda s: (re.fullmatch(r"ρ\d+", s) is not None, _natural(s)),  # the reward levels last
        )
        names = glyph_names(exercise_seed, 2 + len(others))
        glyph = {"⊕": names[0], "⊖": names[1], **{s: names[2 + k] for k, s in enumerate(others)}}
        kinds: list[tuple[int, int | str]] = []
        for s in alphabet:
            if s == ":":
                kinds.append((_CELL_END, ""))
            elif s == "π":
                kinds.append((_PI, "you"))
            elif s in self.markers:
                kinds.append((_MARKER, self.markers[s]))
            elif s in glyph:
                kinds.append((_OBJECT, glyph[s]))
            else:  # ⊙ and the actions: never in π's observation
                kinds.append((_NONE, ""))
        self._kind = np.array([k for k, _ in kinds], dtype=np.int8)
        self._what = [w for _, w in kinds]

    def frame(self, observation: list[int], step: int, reward: float | None) -> NDArray[np.uint8]:
        """The frame of an observation (indices into the alphabet), the
        steps done in the episode, and the last step's reward (None before
        the episode's first step: the page shows no sign then)."""
        L = self.layout
        img = self._background.copy()
        # Each symbol's cell: the number of ':' before it. Only the few
        # symbols that are not ':' are looked at one by one.
        indices = np.asarray(observation, dtype=np.intp)
        kinds = self._kind[indices]
        ends = kinds == _CELL_END
        cell_of = np.cumsum(ends) - ends
        objects: dict[int, list[str]] = {}
        actions: dict[int, list[int]] = {}
        for k in np.flatnonzero(~ends & (kinds != _NONE)).tolist():
            what, c = self._what[int(indices[k])], int(cell_of[k])
            if kinds[k] == _MARKER:
                actions.setdefault(c, []).append(int(what))
            else:
                objects.setdefault(c, []).append(str(what))
        for c, acts in actions.items():
            y, x = L.origin(c)
            _frame_rect(img, y, x, L.cell, L.cell, L.border, INK)
            if L.detail:
                label = " ".join(str(a) for a in sorted(acts))
                scale = L.scale if text_width(label, L.scale) <= L.cell - 2 * L.border - 4 else 1
                w = min(text_width(label, scale), L.cell - 2 * L.border - 2)
                _text(img, label, y + L.cell - L.border - 2 - 5 * scale, x + (L.cell - w) // 2, scale, INK, x + L.cell - L.border)
        for c, names in objects.items():
            y, x = L.origin(c)
            self._objects(img, names, y, x, PALETTE[c % len(PALETTE)])
        self._header(img, step, reward)
        return img

    def _objects(self, img: NDArray[np.uint8], names: list[str], y: int, x: int, colour: Colour) -> None:
        """Draws a cell's objects centred in rows, as the page's flex box does,
        over the cell's colour (they stay clear of its border, number and
        actions)."""
        L = self.layout
        width, height = L.cell - 2 * L.border, L.cell - 2 * L.band
        size, per_row = _fit(len(names), width, height, max(1, L.cell * 3 // 10))
        # In a cell too small for them all, those that fit (π first).
        shown = names[: per_row * max(1, height // size)]
        rows = [shown[k : k + per_row] for k in range(0, len(shown), per_row)]
        y0 = y + L.band + (height - len(rows) * size) // 2
        for r, row in enumerate(rows):
            x0 = x + (L.cell - len(row) * size) // 2
            for k, name in enumerate(row):
                base = name.rstrip("0123456789")
                img[y0 + r * size : y0 + (r + 1) * size, x0 + k * size : x0 + (k + 1) * size] = _stamp(base, size, INK, colour)
                if base != name and size >= 12:  # "diamond2": the number under the glyph's right
                    suffix = name[len(base):]
                    _text(img, suffix, y0 + (r + 1) * size - 5, x0 + (k + 1) * size - text_width(suffix, 1), 1, INK, img.shape[1])

    def _header(self, img: NDArray[np.uint8], step: int, reward: float | None) -> None:
        L = self.layout
        y = L.margin + (L.header - 10) // 2 - 4
        _text(img, f"{step}/{self.steps}", y, L.margin, 2, INK, img.shape[1])
        if reward is None:
            return
        sign = (reward > 0) - (reward < 0)
        sy = L.margin + (L.header - L.sign_size) // 2 - 4
        img[sy : sy + L.sign_size, L.sign_x : L.sign_x + L.sign_size] = _sign(sign, L.sign_size)
        _text(img, f"{reward:+.3f}", y, L.value_x, 2, INK, img.shape[1])

    def _draw_background(self) -> NDArray[np.uint8]:
        """The paper, the cells in their colours with their numbers: what every frame shares."""
        L = self.layout
        img = np.empty((L.height, L.width, 3), dtype=np.uint8)
        img[:] = PAPER
        for c in range(L.cells):
            y, x = L.origin(c)
            img[y : y + L.cell, x : x + L.cell] = PALETTE[c % len(PALETTE)]
            if L.cell >= 8:
                _frame_rect(img, y, x, L.cell, L.cell, 1, EDGE)
            if L.detail:
                _text(img, str(c + 1), y + L.border + 2, x + L.border + 2, L.scale, INK, x + L.cell - L.border)
        img.setflags(write=False)
        return img


def _marker(action: str) -> str:
    """An action's observation marker: its first letter upper-cased (docs/environments.md)."""
    return action[:1].upper() + action[1:]


def _fit(n: int, width: int, height: int, largest: int) -> tuple[int, int]:
    """The largest glyph size (up to largest) at which n glyphs fit in rows
    within width × height, and how many go in a row (at worst, one pixel)."""
    for size in range(largest, 0, -1):
        per_row = max(1, width // size)
        if math.ceil(n / per_row) * size <= height:
            return size, per_row
    return 1, max(1, width)


def _frame_rect(img: NDArray[np.uint8], y: int, x: int, h: int, w: int, t: int, colour: Colour) -> None:
    img[y : y + t, x : x + w] = colour
    img[y + h - t : y + h, x : x + w] = colour
    img[y : y + h, x : x + t] = colour
    img[y : y + h, x + w - t : x + w] = colour


@lru_cache(maxsize=512)
def _stamp(name: str, size: int, colour: Colour, background: Colour) -> NDArray[np.uint8]:
    """The glyph of name at size in colour over a background of one colour."""
    patch = np.empty((size, size, 3), dtype=np.uint8)
    patch[:] = background
    _blend(patch, glyph_alpha(name, size), 0, 0, colour)
    patch.setflags(write=False)
    return patch


@lru_cache(maxsize=8)
def _sign(sign: int, size: int) -> NDArray[np.uint8]:
    """A reward's sign as the page draws it: a white arrow up on a green disc,
    a small white square on a grey one, an arrow down on a red one."""
    patch = _stamp("disc", size, SIGN_COLOURS[sign], PAPER).copy()
    inner = size * 2 // 3
    icon = {1: "up", 0: "square", -1: "down"}[sign]
    _blend(patch, glyph_alpha(icon, inner), (size - inner) // 2, (size - inner) // 2, WHITE)
    patch.setflags(write=False)
    return patch


def _blend(img: NDArray[np.uint8], alpha: NDArray[np.float32], y: int, x: int, colour: Colour) -> None:
    """Paints colour over img at (y, x) with alpha's coverage (clipped to img)."""
    h, w = alpha.shape
    y1, x1 = min(y + h, img.shape[0]), min(x + w, img.shape[1])
    if y1 <= y or x1 <= x:
        return
    a = alpha[: y1 - y, : x1 - x, None]
    region = img[y:y1, x:x1]
    mixed = region * (1 - a) + np.asarray(colour, dtype=np.float32) * a
    region[...] = np.rint(mixed).astype(np.uint8)


@lru_cache(maxsize=1024)
def _text_mask(text: str, scale: int) -> NDArray[np.bool_]:
    """The pixels text covers in the font at scale (characters it lacks are blank)."""
    blank = np.zeros((5, 3), dtype=bool)
    gap = np.zeros((5, 1), dtype=bool)
    parts = [p for ch in text for p in (FONT.get(ch, blank), gap)][:-1] or [np.zeros((5, 0), dtype=bool)]
    mask = np.hstack(parts)
    if scale > 1:
        mask = np.repeat(np.repeat(mask, scale, axis=0), scale, axis=1)
    mask.setflags(write=False)
    return mask


def _text(img: NDArray[np.uint8], text: str, y: int, x: int, scale: int, colour: Colour, right: int) -> None:
    """Writes text in the 3×5 font, its top-left at (y, x), clipped at column right."""
    mask = _text_mask(text, scale)
    h = min(mask.shape[0], img.shape[0] - y)
    w = min(mask.shape[1], right - x, img.shape[1] - x)
    if h > 0 and w > 0:
        img[y : y + h, x : x + w][mask[:h, :w]] = colour
