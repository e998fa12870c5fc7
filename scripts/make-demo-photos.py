#!/usr/bin/env python3
"""Generate StackWeb's bundled demo photos: painted, photo-like scenes, free of any licence.

Deterministic (each scene has its own fixed seed), so re-running gives the same pictures and the
same bytes for a given Pillow version. Needs only Python 3 and Pillow (`pip install pillow`); StackWeb
itself never runs this, it ships the JPEGs in Resources/demo-photos.

    python3 scripts/make-demo-photos.py [OUTPUT_DIR]
"""

import math
import random
import sys
from pathlib import Path

from PIL import Image, ImageChops, ImageDraw, ImageFilter

LANDSCAPE = (1200, 900)
PORTRAIT = (900, 1200)
# Scenes are painted at twice the size and shrunk: cheap anti-aliasing for polygon edges.
SUPERSAMPLE = 2
QUALITY = 85
SEED = 20240611


# ---------------------------------------------------------------- painting helpers


def mix(a, b, t):
    return tuple(round(a[i] + (b[i] - a[i]) * t) for i in range(3))


def gradient_color(stops, t):
    """Colour at t in [0, 1] along stops [(position, rgb), …] sorted by position."""
    if t <= stops[0][0]:
        return stops[0][1]
    for (p0, c0), (p1, c1) in zip(stops, stops[1:]):
        if t <= p1:
            return mix(c0, c1, (t - p0) / (p1 - p0) if p1 > p0 else 0)
    return stops[-1][1]


def vertical_gradient(size, stops):
    w, h = size
    column = Image.new("RGB", (1, h))
    column.putdata([gradient_color(stops, y / max(h - 1, 1)) for y in range(h)])
    return column.resize(size, Image.Resampling.BILINEAR)


def fill(img, mask, color_or_image):
    """Paint through an L mask with a flat colour or an image of the same size."""
    if isinstance(color_or_image, tuple):
        color_or_image = Image.new("RGB", img.size, color_or_image)
    img.paste(color_or_image, (0, 0), mask)


def glow(img, center, radius, color, strength=1.0):
    """A soft radial light (sun halo, lamp, bokeh) added with screen blending."""
    cx, cy = center
    r = max(int(radius), 1)
    # radial_gradient is 0 at the centre and about 180 at the middle of each edge: scale so the
    # light fades to exactly nothing at `radius` and the square it is pasted with never shows.
    falloff = Image.radial_gradient("L").resize((2 * r, 2 * r))
    falloff = falloff.point(lambda v: int(255 * max(0.0, 1 - v / 180) ** 2.2 * strength))
    layer = Image.new("RGB", img.size, (0, 0, 0))
    layer.paste(Image.new("RGB", (2 * r, 2 * r), color), (int(cx - r), int(cy - r)), falloff)
    return ImageChops.screen(img, layer)


def ridge(rng, width, base, amplitude, roughness=0.55, steps=9):
    """A skyline by midpoint displacement: y for each of 2**steps + 1 points across the width."""
    n = 2**steps
    ys = [0.0] * (n + 1)
    ys[0] = rng.uniform(-1, 1) * amplitude
    ys[n] = rng.uniform(-1, 1) * amplitude
    span, scale = n, amplitude
    while span > 1:
        half = span // 2
        for i in range(half, n, span):
            ys[i] = (ys[i - half] + ys[i + half]) / 2 + rng.uniform(-1, 1) * scale
        span, scale = half, scale * roughness
    return [(width * i / n, base + y) for i, y in enumerate(ys)]


def land_mask(size, outline):
    """Mask of everything under a ridge outline."""
    w, h = size
    mask = Image.new("L", size, 0)
    ImageDraw.Draw(mask).polygon([(0, h)] + outline + [(w, h)], fill=255)
    return mask


def haze(img, horizon_y, color, depth, strength):
    """Atmospheric perspective: fade towards `color` in a band above and below the horizon."""
    w, h = img.size
    band = Image.new("L", (1, h))
    band.putdata([int(255 * strength * max(0.0, 1 - abs(y - horizon_y) / depth)) for y in range(h)])
    return Image.composite(Image.new("RGB", img.size, color), img, band.resize(img.size))


def clouds(img, rng, count, y_range, color=(255, 255, 255), alpha=150, spread=1.0):
    w, h = img.size
    layer = Image.new("L", img.size, 0)
    draw = ImageDraw.Draw(layer)
    for _ in range(count):
        cx, cy = rng.uniform(-0.1, 1.1) * w, rng.uniform(*y_range) * h
        length = rng.uniform(0.12, 0.3) * w * spread
        for _ in range(14):
            ox, oy = rng.gauss(0, length / 3), rng.gauss(0, length / 14)
            rx, ry = rng.uniform(0.25, 0.6) * length / 2, rng.uniform(0.05, 0.12) * length
            draw.ellipse((cx + ox - rx, cy + oy - ry, cx + ox + rx, cy + oy + ry), fill=alpha)
    layer = layer.filter(ImageFilter.GaussianBlur(w / 90))
    fill(img, layer, color)


def pine(draw, x, ground, height, color):
    trunk = height * 0.08
    draw.rectangle((x - trunk / 3, ground - trunk * 2, x + trunk / 3, ground), fill=color)
    tiers = 5
    for i in range(tiers):
        top = ground - height + i * height / (tiers + 1)
        half = height * (0.1 + 0.05 * i)
        draw.polygon([(x, top), (x - half, top + height * 0.3), (x + half, top + height * 0.3)], fill=color)


def leafy_tree(draw, rng, x, ground, height, color):
    draw.rectangle((x - height * 0.03, ground - height * 0.5, x + height * 0.03, ground), fill=color)
    for _ in range(12):
        cx = x + rng.gauss(0, height * 0.15)
        cy = ground - height * 0.7 + rng.gauss(0, height * 0.1)
        r = rng.uniform(0.1, 0.2) * height
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=color)


def stars(img, rng, count, max_y):
    draw = ImageDraw.Draw(img)
    w = img.size[0]
    for _ in range(count):
        x, y = rng.uniform(0, w), rng.uniform(0, max_y) ** 1.3 / max_y**0.3
        r = rng.choice((1, 1, 1, 2, 2, 3))
        v = rng.randint(150, 255)
        draw.ellipse((x - r, y - r, x + r, y + r), fill=(v, v, min(255, v + 20)))


def reflection(img, horizon_y, blur=6, squash=1.0, darken=0.75):
    """Mirror what is above the horizon into the water below it, softened and darkened."""
    w, h = img.size
    depth = h - int(horizon_y)
    above = img.crop((0, max(0, int(horizon_y - depth / squash)), w, int(horizon_y)))
    mirrored = above.transpose(Image.Transpose.FLIP_TOP_BOTTOM).resize((w, depth))
    mirrored = mirrored.filter(ImageFilter.BoxBlur(blur)).point(lambda v: int(v * darken))
    img.paste(mirrored, (0, int(horizon_y)))


def ripples(img, rng, top, count, color, alpha=60, length=(0.05, 0.25)):
    """Thin horizontal glints that make flat colour read as water."""
    w, h = img.size
    layer = Image.new("L", img.size, 0)
    draw = ImageDraw.Draw(layer)
    for _ in range(count):
        y = rng.uniform(top, h)
        depth = (y - top) / max(h - top, 1)
        half = rng.uniform(*length) * w * (0.3 + depth) / 2
        x = rng.uniform(0, w)
        thick = 1 + depth * 4 * SUPERSAMPLE
        draw.rectangle((x - half, y, x + half, y + thick), fill=rng.randint(alpha // 2, alpha))
    fill(img, layer.filter(ImageFilter.GaussianBlur(1.5)), color)


def sun_path(img, rng, x, top, spread, color, count=220):
    """Broken column of light on water under a low sun."""
    w, h = img.size
    layer = Image.new("L", img.size, 0)
    draw = ImageDraw.Draw(layer)
    for _ in range(count):
        y = rng.uniform(top, h)
        depth = (y - top) / max(h - top, 1)
        cx = x + rng.gauss(0, spread * (0.3 + depth))
        half = rng.uniform(0.01, 0.05) * w * (0.3 + depth)
        draw.rectangle((cx - half, y, cx + half, y + 2 + depth * 5 * SUPERSAMPLE), fill=rng.randint(120, 230))
    fill(img, layer.filter(ImageFilter.GaussianBlur(3)), color)


# ---------------------------------------------------------------- finishing


def finish(img, size, grain=3.0, vignette=0.35):
    """Shrink to the final size, then add what a camera adds: vignetting and sensor grain."""
    img = img.resize(size, Image.Resampling.LANCZOS)
    w, h = size
    fall = Image.radial_gradient("L").resize((int(w * 1.5), int(h * 1.5)))
    fall = fall.crop((int(w * 0.25), int(h * 0.25), int(w * 1.25), int(h * 1.25)))
    fall = fall.point(lambda v: int(255 - vignette * 255 * (v / 255) ** 2))
    img = ImageChops.multiply(img, Image.merge("RGB", (fall, fall, fall)))
    # effect_noise draws from C's rand(), which starts from the same seed in every process; the
    # scenes are painted in a fixed order, so the grain is as deterministic as everything else.
    noise = Image.effect_noise(size, grain).convert("RGB")
    return ImageChops.add(img, noise, 1.0, -128)


# ---------------------------------------------------------------- scenes
# Each scene paints on a canvas SUPERSAMPLE times the final size; coordinates are fractions of it.


def sunset(rng, size):
    w, h = size
    horizon = h * 0.62
    img = vertical_gradient(size, [(0, (38, 40, 92)), (0.3, (150, 70, 110)), (0.5, (244, 128, 76)),
                                   (0.62, (255, 196, 120)), (0.63, (120, 70, 90)), (1, (30, 24, 52))])
    clouds(img, rng, 7, (0.12, 0.42), color=(255, 150, 120), alpha=120)
    sun_x = w * 0.58
    img = glow(img, (sun_x, horizon), h * 0.45, (255, 150, 60), 0.9)
    img = glow(img, (sun_x, horizon), h * 0.07, (255, 240, 200), 1.0)
    mask = Image.new("L", size, 0)
    ImageDraw.Draw(mask).ellipse((sun_x - h * 0.06, horizon - h * 0.06, sun_x + h * 0.06, horizon + h * 0.06),
                                 fill=255)
    mask.paste(0, (0, int(horizon), w, h))
    fill(img, mask.filter(ImageFilter.GaussianBlur(2)), (255, 236, 190))
    # A headland on the left, tapering into the sea, with a few pines.
    headland = ridge(rng, w, horizon - h * 0.03, h * 0.04, steps=8)
    headland = [(x, horizon + (y - horizon) * max(0.0, 1 - max(0.0, x - w * 0.25) / (w * 0.15)))
                for x, y in headland]
    land = land_mask(size, headland)
    land.paste(0, (0, int(horizon), w, h))
    fill(img, land, (26, 18, 36))
    draw = ImageDraw.Draw(img)
    for i in range(6):
        pine(draw, w * (0.03 + 0.04 * i), horizon - h * 0.03 + h * 0.004 * i, h * rng.uniform(0.1, 0.17),
             (22, 15, 30))
    reflection(img, horizon, blur=5, darken=0.6)
    sun_path(img, rng, sun_x, horizon, w * 0.05, (255, 200, 130))
    ripples(img, rng, horizon, 500, (255, 160, 120), alpha=40)
    return img


def mountains(rng, size):
    w, h = size
    img = vertical_gradient(size, [(0, (70, 130, 200)), (0.45, (170, 205, 235)), (1, (220, 230, 240))])
    clouds(img, rng, 6, (0.08, 0.3))
    ranges = [(0.42, 0.16, (150, 170, 200)), (0.52, 0.14, (105, 128, 165)), (0.64, 0.11, (70, 92, 125)),
              (0.78, 0.08, (46, 64, 70)), (0.9, 0.05, (30, 44, 40))]
    for i, (base, amp, color) in enumerate(ranges):
        outline = ridge(rng, w, h * base, h * amp, roughness=0.52)
        mask = land_mask(size, outline)
        fill(img, mask, vertical_gradient(size, [(0, mix(color, (255, 255, 255), 0.2)), (1, color)]))
        if i == 0:
            # Snow on the far range: the land above a ragged snow line just under the peaks.
            peak = min(y for _, y in outline)
            snow_line = ridge(rng, w, peak + h * 0.09, h * 0.025, roughness=0.7)
            snow = ImageChops.subtract(mask, land_mask(size, snow_line))
            fill(img, snow.filter(ImageFilter.GaussianBlur(2)), (236, 242, 250))
        img = haze(img, h * base, (200, 215, 235), h * 0.1, 0.25)
    draw = ImageDraw.Draw(img)
    for _ in range(40):
        x = rng.uniform(0, w)
        pine(draw, x, h * rng.uniform(0.93, 1.02), h * rng.uniform(0.08, 0.16), (22, 34, 28))
    return img


def hills(rng, size):
    w, h = size
    img = vertical_gradient(size, [(0, (96, 160, 220)), (0.55, (200, 225, 240))])
    clouds(img, rng, 9, (0.05, 0.4), alpha=190, spread=1.3)
    greens = [(0.5, (150, 185, 120)), (0.6, (120, 170, 90)), (0.72, (92, 150, 70)), (0.85, (70, 128, 55))]
    for base, color in greens:
        outline = ridge(rng, w, h * base, h * 0.05, roughness=0.4)
        fill(img, land_mask(size, outline), vertical_gradient(size, [(0, mix(color, (255, 240, 180), 0.15)),
                                                                      (1, mix(color, (0, 0, 0), 0.25))]))
        draw = ImageDraw.Draw(img)
        for _ in range(int(8 * base)):
            x = rng.uniform(0, w)
            ground = min((y for px, y in outline if abs(px - x) < w / 200), default=h * base) + h * 0.01
            leafy_tree(draw, rng, x, ground, h * base * rng.uniform(0.06, 0.1), mix(color, (20, 40, 20), 0.6))
    img = glow(img, (w * 0.8, h * 0.1), h * 0.4, (255, 245, 200), 0.6)
    return img


def misty_pines(rng, size):
    w, h = size
    img = vertical_gradient(size, [(0, (200, 214, 210)), (0.6, (226, 230, 222)), (1, (150, 170, 160))])
    img = glow(img, (w * 0.3, h * 0.2), w * 0.7, (255, 240, 210), 0.7)
    for layer in range(6):
        depth = layer / 5
        color = mix((175, 195, 190), (18, 40, 34), depth)
        ground = h * (0.55 + 0.09 * layer)
        fill(img, land_mask(size, ridge(rng, w, ground, h * 0.02)), color)
        draw = ImageDraw.Draw(img)
        for _ in range(int(10 + 8 * layer)):
            pine(draw, rng.uniform(-0.05, 1.05) * w, ground + h * 0.02, h * (0.12 + 0.12 * depth)
                 * rng.uniform(0.7, 1.2), color)
        img = haze(img, ground, (220, 226, 218), h * 0.2, 0.18 * (1 - depth))
    return img


def city_night(rng, size):
    w, h = size
    img = vertical_gradient(size, [(0, (8, 12, 38)), (0.55, (40, 40, 90)), (0.75, (120, 70, 100)),
                                   (1, (20, 16, 30))])
    stars(img, rng, 220, h * 0.5)
    img = glow(img, (w * 0.78, h * 0.18), h * 0.2, (120, 130, 170), 0.6)
    moon = Image.new("L", size, 0)
    r = h * 0.045
    ImageDraw.Draw(moon).ellipse((w * 0.78 - r, h * 0.18 - r, w * 0.78 + r, h * 0.18 + r), fill=255)
    fill(img, moon.filter(ImageFilter.GaussianBlur(2)), (245, 240, 220))
    lights = Image.new("L", size, 0)
    light_draw = ImageDraw.Draw(lights)
    for row, (base, color) in enumerate([(0.62, (40, 36, 70)), (0.7, (24, 22, 44)), (0.8, (12, 12, 24))]):
        draw = ImageDraw.Draw(img)
        x = -rng.uniform(0, w * 0.05)
        while x < w:
            bw = rng.uniform(0.04, 0.09) * w
            top = h * base - rng.uniform(0.05, 0.3 + 0.1 * row) * h
            draw.rectangle((x, top, x + bw, h), fill=color)
            if rng.random() < 0.25:
                draw.rectangle((x + bw * 0.45, top - h * 0.05, x + bw * 0.55, top), fill=color)
            cell = w * (0.008 + 0.003 * row)
            for wy in range(int(top + cell), int(h), int(cell * 2)):
                for wx in range(int(x + cell * 0.7), int(x + bw - cell), int(cell * 1.8)):
                    if rng.random() < 0.3 + 0.1 * row:
                        light_draw.rectangle((wx, wy, wx + cell * 0.8, wy + cell), fill=rng.randint(120, 255))
            x += bw + rng.uniform(0, 0.01) * w
        fill(img, lights, (255, 210, 130))
        lights = Image.new("L", size, 0)
        light_draw = ImageDraw.Draw(lights)
    bloom = img.filter(ImageFilter.GaussianBlur(w / 150))
    return ImageChops.screen(img, bloom.point(lambda v: v // 3))


def bokeh(rng, size):
    w, h = size
    img = vertical_gradient(size, [(0, (30, 18, 30)), (0.5, (60, 30, 40)), (1, (16, 12, 24))])
    palette = [(255, 180, 90), (255, 120, 80), (255, 220, 150), (120, 170, 255), (255, 100, 140)]
    for depth in range(3):
        layer = Image.new("RGB", size, (0, 0, 0))
        for _ in range(40 - depth * 10):
            r = w * rng.uniform(0.02, 0.05) * (1 + depth)
            x, y = rng.uniform(0, w), h * (0.5 + rng.gauss(0, 0.22))
            disc = Image.new("L", size, 0)
            d = ImageDraw.Draw(disc)
            d.ellipse((x - r, y - r, x + r, y + r), fill=rng.randint(50, 130))
            d.ellipse((x - r * 0.8, y - r * 0.8, x + r * 0.8, y + r * 0.8), fill=rng.randint(30, 90))
            fill(layer, disc, rng.choice(palette))
            layer = ImageChops.lighter(layer, Image.new("RGB", size, (0, 0, 0)))
        img = ImageChops.screen(img, layer.filter(ImageFilter.GaussianBlur(2 + depth * 3)))
    return img


def lake(rng, size):
    w, h = size
    horizon = h * 0.56
    img = vertical_gradient(size, [(0, (110, 150, 200)), (0.5, (240, 200, 170)), (1, (240, 200, 170))])
    img = glow(img, (w * 0.35, horizon - h * 0.05), h * 0.4, (255, 220, 170), 0.7)
    clouds(img, rng, 5, (0.1, 0.3), color=(255, 225, 210), alpha=140)
    for base, amp, color in [(0.34, 0.14, (120, 118, 150)), (0.44, 0.08, (80, 86, 112)),
                             (0.53, 0.03, (34, 48, 46))]:
        outline = ridge(rng, w, h * base, h * amp, roughness=0.5)
        outline = [(x, min(y, horizon)) for x, y in outline]
        fill(img, land_mask(size, outline), color)
    draw = ImageDraw.Draw(img)
    for _ in range(70):
        pine(draw, rng.uniform(0, w), horizon + 2, h * rng.uniform(0.03, 0.07), (26, 38, 36))
    reflection(img, horizon, blur=4)
    ripples(img, rng, horizon, 700, (255, 235, 215), alpha=50, length=(0.03, 0.15))
    return img


def dunes(rng, size):
    w, h = size
    img = vertical_gradient(size, [(0, (60, 120, 190)), (0.5, (230, 200, 160)), (1, (230, 200, 160))])
    img = glow(img, (w * 0.2, h * 0.2), h * 0.3, (255, 250, 230), 0.9)
    for i, base in enumerate((0.5, 0.6, 0.72, 0.86)):
        outline = ridge(rng, w, h * base, h * 0.08, roughness=0.35)
        lit = mix((240, 180, 110), (200, 110, 60), i / 3)
        fill(img, land_mask(size, outline), vertical_gradient(size, [(0, lit), (1, mix(lit, (90, 40, 30), 0.5))]))
        # The shadowed lee side: a second, lower outline offset sideways.
        shade = [(x + w * 0.04, y + h * 0.03) for x, y in outline]
        shade.insert(0, (0, shade[0][1]))
        mask = ImageChops.multiply(land_mask(size, outline), ImageChops.invert(land_mask(size, shade)))
        fill(img, mask.filter(ImageFilter.GaussianBlur(4)), mix(lit, (120, 60, 50), 0.35))
    return img


def palm_beach(rng, size):
    w, h = size
    horizon = h * 0.52
    img = vertical_gradient(size, [(0, (40, 120, 200)), (0.52, (180, 220, 240)), (0.521, (30, 130, 170)),
                                   (0.7, (60, 190, 200)), (0.72, (240, 230, 200)), (1, (225, 200, 160))])
    clouds(img, rng, 8, (0.08, 0.42), alpha=200, spread=0.9)
    ripples(img, rng, horizon, 300, (230, 250, 255), alpha=70)
    foam = Image.new("L", size, 0)
    d = ImageDraw.Draw(foam)
    for i in range(3):
        edge = ridge(rng, w, h * (0.705 + 0.012 * i), h * 0.006, steps=7)
        d.line(edge, fill=200 - 50 * i, width=int(h * 0.006))
    fill(img, foam.filter(ImageFilter.GaussianBlur(3)), (255, 255, 250))
    # A palm: curved trunk, fronds as thick arcs.
    draw = ImageDraw.Draw(img)
    base_x, base_y, top_x, top_y = w * 0.2, h * 1.02, w * 0.34, h * 0.3
    trunk = [(base_x + (top_x - base_x) * t ** 1.6, base_y + (top_y - base_y) * t) for t in [i / 40 for i in range(41)]]
    for i, (x, y) in enumerate(trunk):
        r = w * (0.03 - 0.015 * i / 40)
        draw.ellipse((x - r, y - r, x + r, y + r), fill=(60, 44, 30))
    for k in range(9):
        angle = -math.pi * 0.95 + k * math.pi * 1.1 / 8 + rng.uniform(-0.1, 0.1)
        length = w * rng.uniform(0.25, 0.33)
        for s in range(30):
            t = s / 30
            x = top_x + math.cos(angle) * length * t
            y = top_y + math.sin(angle) * length * t + (length * 0.4) * t * t
            r = w * 0.025 * math.sin(math.pi * (0.15 + 0.85 * t))
            draw.ellipse((x - r, y - r * 0.5, x + r, y + r * 0.5), fill=(28, 70, 40))
    shadow = Image.new("L", size, 0)
    ImageDraw.Draw(shadow).ellipse((w * 0.05, h * 0.93, w * 0.6, h * 1.02), fill=90)
    fill(img, shadow.filter(ImageFilter.GaussianBlur(20)), (120, 90, 60))
    return img


def aurora(rng, size):
    w, h = size
    img = vertical_gradient(size, [(0, (4, 8, 24)), (0.6, (10, 30, 50)), (1, (6, 10, 18))])
    stars(img, rng, 300, h * 0.8)
    for band in range(3):
        layer = Image.new("L", size, 0)
        d = ImageDraw.Draw(layer)
        phase, amp, base = rng.uniform(0, 6.3), h * rng.uniform(0.05, 0.12), h * (0.25 + 0.1 * band)
        for i in range(0, w, 3):
            y = base + amp * math.sin(i / w * 5 + phase) + amp * 0.4 * math.sin(i / w * 13 + phase * 2)
            height = h * (0.12 + 0.1 * (0.5 + 0.5 * math.sin(i / w * 9 + phase)))
            d.line((i, y - height, i, y), fill=int(90 + 60 * (0.5 + 0.5 * math.sin(i / w * 31))), width=3)
        layer = layer.filter(ImageFilter.GaussianBlur(w / 120))
        fill(img, layer, [(80, 255, 160), (60, 220, 190), (160, 100, 230)][band])
    for base, color in [(0.72, (12, 20, 28)), (0.82, (6, 10, 14))]:
        fill(img, land_mask(size, ridge(rng, w, h * base, h * 0.06)), color)
    reflection(img, h * 0.9, blur=6, darken=0.5)
    draw = ImageDraw.Draw(img)
    for _ in range(30):
        pine(draw, rng.uniform(0, w), h * rng.uniform(0.82, 0.9), h * rng.uniform(0.05, 0.1), (4, 8, 10))
    return img


def lavender(rng, size):
    w, h = size
    horizon = h * 0.45
    img = vertical_gradient(size, [(0, (120, 160, 210)), (0.45, (250, 215, 190)), (0.451, (120, 100, 160)),
                                   (1, (90, 60, 130))])
    img = glow(img, (w * 0.5, horizon), h * 0.5, (255, 200, 150), 0.8)
    fill(img, land_mask(size, ridge(rng, w, horizon - h * 0.01, h * 0.02)), (100, 110, 120))
    draw = ImageDraw.Draw(img)
    for _ in range(10):
        leafy_tree(draw, rng, rng.uniform(0, w), horizon, h * rng.uniform(0.06, 0.1), (60, 70, 70))
    rows = 22
    for i in range(rows + 1):
        x_far = w * (0.5 + (i - rows / 2) / rows * 0.6)
        x_near = w * (0.5 + (i - rows / 2) / rows * 6)
        draw.polygon([(x_far - 2, horizon), (x_far + 2, horizon), (x_near + w * 0.06, h), (x_near - w * 0.06, h)],
                     fill=(150, 110, 200))
        draw.line((x_far, horizon, x_near + w * 0.14, h), fill=(70, 90, 50),
                  width=int(w * 0.002) + 1)
    flowers = Image.new("L", size, 0)
    d = ImageDraw.Draw(flowers)
    for _ in range(1800):
        y = horizon + (h - horizon) * rng.random() ** 0.7
        r = 1 + (y - horizon) / (h - horizon) * 6 * SUPERSAMPLE
        x = rng.uniform(0, w)
        d.ellipse((x - r, y - r * 2, x + r, y + r * 2), fill=rng.randint(60, 200))
    fill(img, flowers.filter(ImageFilter.GaussianBlur(2)), (200, 160, 240))
    return img


def foggy_bridge(rng, size):
    w, h = size
    horizon = h * 0.7
    img = vertical_gradient(size, [(0, (160, 150, 150)), (0.7, (225, 205, 190)), (1, (120, 130, 140))])
    img = glow(img, (w * 0.7, h * 0.35), h * 0.3, (255, 230, 200), 0.8)
    draw = ImageDraw.Draw(img)
    tower_color = (150, 60, 50)
    for tx in (w * 0.3, w * 0.78):
        draw.rectangle((tx - w * 0.025, h * 0.18, tx + w * 0.025, horizon), fill=tower_color)
        for ty in (0.25, 0.4, 0.55):
            draw.rectangle((tx - w * 0.035, h * ty, tx + w * 0.035, h * ty + h * 0.015), fill=tower_color)
    # The main cable sags as a parabola between the two tower tops.
    cable = [(x, h * 0.2 + h * 0.3 * (1 - ((x - w * 0.54) / (w * 0.24)) ** 2))
             for x in range(int(w * 0.3), int(w * 0.78) + 1, 4)]
    draw.line(cable, fill=tower_color, width=6)
    draw.line([(0, h * 0.45), (w * 0.3, h * 0.2)], fill=tower_color, width=6)
    draw.line([(w * 0.78, h * 0.2), (w, h * 0.4)], fill=tower_color, width=6)
    for x, y in cable[::6]:
        draw.line((x, y, x, h * 0.6), fill=tower_color, width=2)
    draw.rectangle((0, h * 0.6, w, h * 0.625), fill=(120, 50, 45))
    img = haze(img, h * 0.55, (230, 215, 205), h * 0.6, 0.45)
    fill(img, land_mask(size, ridge(rng, w, h * 0.68, h * 0.04)), (70, 80, 80))
    reflection(img, horizon, blur=8, darken=0.7)
    ripples(img, rng, horizon, 400, (240, 230, 220), alpha=50)
    clouds(img, rng, 6, (0.55, 0.75), color=(235, 225, 220), alpha=170, spread=1.6)
    return img


SCENES = [
    ("01-sunset", LANDSCAPE, sunset),
    ("02-mountains", LANDSCAPE, mountains),
    ("03-hills", LANDSCAPE, hills),
    ("04-misty-pines", PORTRAIT, misty_pines),
    ("05-city-night", LANDSCAPE, city_night),
    ("06-bokeh", LANDSCAPE, bokeh),
    ("07-lake", LANDSCAPE, lake),
    ("08-dunes", LANDSCAPE, dunes),
    ("09-palm-beach", PORTRAIT, palm_beach),
    ("10-aurora", LANDSCAPE, aurora),
    ("11-lavender", LANDSCAPE, lavender),
    ("12-foggy-bridge", PORTRAIT, foggy_bridge),
]


def main():
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent / "Resources/demo-photos"
    out.mkdir(parents=True, exist_ok=True)
    for index, (name, size, paint) in enumerate(SCENES):
        rng = random.Random(SEED + index)
        big = (size[0] * SUPERSAMPLE, size[1] * SUPERSAMPLE)
        img = finish(paint(rng, big), size)
        path = out / f"{name}.jpg"
        img.save(path, "JPEG", quality=QUALITY, optimize=True, progressive=True)
        print(f"{path.name}: {size[0]}x{size[1]}, {path.stat().st_size // 1024} KB")


if __name__ == "__main__":
    main()
