"""Stage points ↔ page CSS pixels, as the page maps them (Resources/web/stage.js: contain, centred).

Written out again here on purpose: if the page's mapping drifts from the contract, pointer
positions computed from the contract land in the wrong place and the gesture tests fail.
"""

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class StageMapping:
    """Where the stage sits: canvas pixel = offset + stage point · scale (CSS pixels, like stage.js)."""

    scale: float
    offset_x: float  # the stage's origin inside the canvas
    offset_y: float
    canvas_left: float  # the canvas' origin in the viewport
    canvas_top: float

    @classmethod
    def fit(cls, canvas_rect, stage):
        """Fits a `stage` {w, h} into a canvas with bounding rect {left, top, width, height}."""
        width, height = canvas_rect["width"], canvas_rect["height"]
        if not (width > 0 and height > 0 and stage["w"] > 0 and stage["h"] > 0):
            raise ValueError(f"cannot fit stage {stage} into canvas {canvas_rect}")
        scale = min(width / stage["w"], height / stage["h"])
        return cls(
            scale=scale,
            offset_x=(width - stage["w"] * scale) / 2,
            offset_y=(height - stage["h"] * scale) / 2,
            canvas_left=canvas_rect["left"],
            canvas_top=canvas_rect["top"],
        )

    def to_canvas(self, x, y):
        """A stage point as CSS pixels from the canvas' top-left corner."""
        return self.offset_x + x * self.scale, self.offset_y + y * self.scale

    def to_page(self, x, y):
        """A stage point as viewport CSS pixels (floats), where pointer actions are aimed."""
        cx, cy = self.to_canvas(x, y)
        return self.canvas_left + cx, self.canvas_top + cy

    def to_device(self, x, y, dpr):
        """A stage point as canvas device pixels, where getImageData reads."""
        cx, cy = self.to_canvas(x, y)
        return cx * dpr, cy * dpr

    def points(self, pixels):
        """A length in CSS pixels as stage points."""
        return pixels / self.scale


def is_near(card, x, y, tolerance):
    """Whether `card` (or None) has its centre within `tolerance` points of (x, y) on both axes."""
    return card is not None and abs(card["x"] - x) <= tolerance and abs(card["y"] - y) <= tolerance


def card_point(card, u, v):
    """The stage point at (u, v) in the card's own frame, centre origin, honouring its rotation.

    (±w/2, 0) is the middle of its right or left edge, whatever the card's angle.
    """
    sx = card.get("scaleX", 1) * math.cos(card.get("flip", 0))
    sy = card.get("scaleY", 1)
    cos, sin = math.cos(card["rotation"]), math.sin(card["rotation"])
    lx, ly = u * sx, v * sy
    return card["x"] + lx * cos - ly * sin, card["y"] + lx * sin + ly * cos
