// Where a card lands on the canvas, in device pixels: how far it and its shadow may reach, the
// rectangle an opaque card surely hides, and the bands around it that stay to be drawn. Pure: a
// frame uses these to repaint only what changed and to skip what a card above covers.

import { PERSPECTIVE_DISTANCE } from './look.js';
import { shadowReach } from './sprites.js';

/** Below this |sin(flip)| a card is drawn flat: the perspective would move no edge by a pixel. */
export const FLAT_FLIP = 1e-4;

// A turn that moves no corner of the card by this many device pixels is not drawn: a software
// canvas draws a turned image many times slower than a straight one, and a card straightening
// at the end of a spring spends its last frames within a hair of straight.
const UNSEEN_TURN_PX = 0.25;
// The same for a card in motion, drawn unfiltered: its edges step a whole pixel anyway, and the
// deck's cards swing to rest through a long tail of turns under two pixels (each drawn turned, a
// fly-out's frames took twice as long). The frame it comes to rest in draws it as it is.
const MOVING_TURN_PX = 1;

// How much of a box a card above must hide before it is drawn in bands around it (four draws
// instead of one pay off only when they skip much).
const MIN_HIDDEN_SHARE = 0.25;

/** Whether a transform shows anything at all. */
export function isVisible(t) {
  return t.opacity > 0 && t.w > 0 && t.h > 0 && t.scaleX !== 0 && t.scaleY !== 0;
}

/**
 * The rotation to draw `t` with at `devicePerPoint`: its own, or 0 when no corner would move by
 * UNSEEN_TURN_PX (MOVING_TURN_PX for a card `moving`).
 */
export function drawnRotation(t, devicePerPoint, moving = false) {
  const reach = (Math.hypot(t.w * t.scaleX, t.h * t.scaleY) / 2) * devicePerPoint;
  return Math.abs(t.rotation) * reach < (moving ? MOVING_TURN_PX : UNSEEN_TURN_PX) ? 0 : t.rotation;
}

/**
 * Device pixels a card and its shadow may cover (before clipping): {x, y, right, bottom}.
 * `painter` (painter.js) gives the look and where stage points land.
 */
export function cardReach(painter, t) {
  const p = painter.pointToDevice;
  const cx = painter.originX + t.x * p;
  const cy = painter.originY + t.y * p;
  const pad = shadowReach(painter.look);
  if (Math.abs(Math.sin(t.flip)) < FLAT_FLIP) {
    // Flat: the box of its sprite (the card and its shadow's room) as turned, scaled and placed.
    // Tight, so that a card above can be seen to hide most of it (occluderAbove, visibleBands).
    const cos = Math.abs(Math.cos(drawnRotation(t, p)));
    const sin = Math.abs(Math.sin(drawnRotation(t, p)));
    const w = (t.w + 2 * pad) * Math.abs(t.scaleX);
    const h = (t.h + 2 * pad) * Math.abs(t.scaleY);
    const halfW = ((w * cos + h * sin) / 2) * p + 2;
    const halfH = ((w * sin + h * cos) / 2) * p + 2;
    return { x: cx - halfW, y: cy - halfH, right: cx + halfW, bottom: cy + halfH };
  }
  // Turning about its vertical axis: generous, the card's half-diagonal grown by the most
  // perspective can enlarge it.
  const nearest = PERSPECTIVE_DISTANCE / (PERSPECTIVE_DISTANCE - (Math.abs(t.scaleX) * t.w) / 2);
  const reach = (Math.hypot(t.w * t.scaleX, t.h * t.scaleY) / 2) * Math.max(1, nearest > 0 ? nearest : 10);
  const margin = (reach + pad * Math.max(1, Math.abs(t.scaleX), Math.abs(t.scaleY))) * p + 2;
  return { x: cx - margin, y: cy - margin, right: cx + margin, bottom: cy + margin };
}

/** The union of `boxes` clipped to a `width`×`height` canvas, in whole pixels; null when empty. */
export function clippedUnion(boxes, width, height) {
  if (!boxes.length) return null;
  const x = Math.max(0, Math.floor(Math.min(...boxes.map((b) => b.x))));
  const y = Math.max(0, Math.floor(Math.min(...boxes.map((b) => b.y))));
  const right = Math.min(width, Math.ceil(Math.max(...boxes.map((b) => b.right))));
  const bottom = Math.min(height, Math.ceil(Math.max(...boxes.map((b) => b.bottom))));
  return right > x && bottom > y ? { x, y, w: right - x, h: bottom - y } : null;
}

/**
 * The axis-aligned rectangle a card's corners span on the canvas, in CSS pixels (its shadow left
 * out; a turned card taken at its foreshortened width).
 */
export function cardRect(view, t) {
  const { scale, x: ox, y: oy } = view.fit;
  const cos = Math.cos(t.rotation);
  const sin = Math.sin(t.rotation);
  const hw = (t.w / 2) * Math.abs(t.scaleX * Math.cos(t.flip));
  const hh = (t.h / 2) * Math.abs(t.scaleY);
  const xs = [];
  const ys = [];
  for (const [u, v] of [[-hw, -hh], [hw, -hh], [hw, hh], [-hw, hh]]) {
    xs.push(ox + (t.x + u * cos - v * sin) * scale);
    ys.push(oy + (t.y + u * sin + v * cos) * scale);
  }
  return { left: Math.min(...xs), top: Math.min(...ys), right: Math.max(...xs), bottom: Math.max(...ys) };
}

/**
 * The largest axis-aligned rectangle (device pixels, whole) inside an opaque card, or null: the
 * card's face is opaque edge to edge but for its rounded corners, so whatever lies under this
 * rectangle cannot be seen. A turned or translucent card hides nothing for certain.
 */
export function opaqueRect(painter, t) {
  if (!(t.opacity >= 1) || !isVisible(t) || Math.abs(Math.sin(t.flip)) >= FLAT_FLIP) return null;
  const p = painter.pointToDevice;
  const inset = (painter.look.radius + 1) * p + 1;
  const hw = (t.w / 2) * Math.abs(t.scaleX) * p - inset;
  const hh = (t.h / 2) * Math.abs(t.scaleY) * p - inset;
  if (!(hw > 0 && hh > 0)) return null;
  const cos = Math.abs(Math.cos(t.rotation));
  const sin = Math.abs(Math.sin(t.rotation));
  // The card's own aspect, shrunk until its corners are inside the turned card.
  const k = Math.min(1, hw / (hw * cos + hh * sin), hh / (hw * sin + hh * cos));
  const cx = painter.originX + t.x * p;
  const cy = painter.originY + t.y * p;
  const x = Math.ceil(cx - k * hw);
  const y = Math.ceil(cy - k * hh);
  const right = Math.floor(cx + k * hw);
  const bottom = Math.floor(cy + k * hh);
  return right > x && bottom > y ? { x, y, right, bottom } : null;
}

/** The largest opaque rectangle of the cards drawn after `index` (above it) that overlaps it. */
export function occluderAbove(painter, entries, index) {
  const reach = cardReach(painter, entries[index].transform);
  let best = null;
  let bestArea = 0;
  for (let i = index + 1; i < entries.length; i += 1) {
    const rect = opaqueRect(painter, entries[i].transform);
    if (!rect || rect.right <= reach.x || rect.x >= reach.right || rect.bottom <= reach.y || rect.y >= reach.bottom) continue;
    const area = (rect.right - rect.x) * (rect.bottom - rect.y);
    if (area > bestArea) {
      best = rect;
      bestArea = area;
    }
  }
  return best;
}

function hiddenShare(box, hole) {
  if (!hole) return 0;
  const w = Math.min(box.right, hole.right) - Math.max(box.x, hole.x);
  const h = Math.min(box.bottom, hole.bottom) - Math.max(box.y, hole.y);
  return w > 0 && h > 0 ? (w * h) / ((box.right - box.x) * (box.bottom - box.y)) : 0;
}

/**
 * The parts of `box` outside `hole` (both {x, y, right, bottom}): up to four bands, above, below,
 * left and right of the hole; [box] when they do not overlap, [] when the hole covers the box.
 */
export function bandsAround(box, hole) {
  if (!hole || hole.right <= box.x || hole.x >= box.right || hole.bottom <= box.y || hole.y >= box.bottom) return [box];
  const bands = [];
  const top = Math.max(box.y, hole.y);
  const bottom = Math.min(box.bottom, hole.bottom);
  if (hole.y > box.y) bands.push({ x: box.x, y: box.y, right: box.right, bottom: top });
  if (hole.bottom < box.bottom) bands.push({ x: box.x, y: bottom, right: box.right, bottom: box.bottom });
  if (hole.x > box.x) bands.push({ x: box.x, y: top, right: hole.x, bottom });
  if (hole.right < box.right) bands.push({ x: hole.right, y: top, right: box.right, bottom });
  return bands.filter((band) => band.right > band.x && band.bottom > band.y);
}

/** visibleBands' answer for a card drawn whole, under no clip of its own. */
export const WHOLE = 'whole';

/**
 * Where a card is to be drawn within `limit` ({x, y, right, bottom}, device pixels) with
 * `occluder` (occluderAbove) over it: null when nowhere; WHOLE when it is drawn whole; else the
 * bands around what the occluder hides (bandsAround), each drawn under a clip of its own.
 */
export function visibleBands(painter, t, limit, occluder) {
  const reach = cardReach(painter, t);
  const box = {
    x: Math.max(limit.x, Math.floor(reach.x)), y: Math.max(limit.y, Math.floor(reach.y)),
    right: Math.min(limit.right, Math.ceil(reach.right)), bottom: Math.min(limit.bottom, Math.ceil(reach.bottom)),
  };
  if (!(box.right > box.x && box.bottom > box.y)) return null;
  const bands = hiddenShare(box, occluder) < MIN_HIDDEN_SHARE ? [box] : bandsAround(box, occluder);
  return bands.length === 1 && bands[0] === box ? WHOLE : bands;
}
