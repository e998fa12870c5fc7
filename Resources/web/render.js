// Drawing a frame: the backdrop, then every card in z order. Each card is one sprite (sprites.js);
// runs of cards that did not move since the last frame are drawn once into a cached layer and
// copied, so a moving card costs its own sprite and the layers above and below it, whichever place
// it has in the stack (a flicked photo flies at the bottom of the pile, under every other card).
// Card sizes, borders and shadows are in stage points, so a phone and a wall screen show the same
// picture, only scaled. Nothing is clipped to the stage: the canvas covers the window, and a card
// is drawn wherever its transform puts it.

import { makeCanvas } from './canvas.js';
import { TRANSFORM_KEYS } from './curve.js';
import { flipStrips, projectPoint, roundedRectOutline, stripCount, visibleSide } from './flip.js';
import { PERSPECTIVE_DISTANCE, lookFor } from './look.js';
import { cardBoxes, polygonPath } from './paint.js';
import { SpriteCache, drawSprite, restSize, shadowReach } from './sprites.js';

export { coverCrop } from './paint.js';

const BACKGROUND_CENTRE = '#4a4541';
const BACKGROUND_EDGE = '#1d1b1a';
// Below this |sin(flip)| a card is drawn flat: the perspective would move no edge by a pixel.
const FLAT_FLIP = 1e-4;
// Neighbouring strips overlap by this many device pixels, so that no background shows through
// the anti-aliased seam between them.
const STRIP_OVERLAP_PX = 0.75;
// Layer canvases kept for reuse once their run of cards has changed.
const SPARE_LAYERS = 4;

/** A soft radial background for a canvas of `width`×`height` device pixels. */
export function makeBackground(ctx, width, height) {
  const gradient = ctx.createRadialGradient(
    width / 2, height * 0.45, 0, width / 2, height * 0.45, Math.hypot(width, height) * 0.6,
  );
  gradient.addColorStop(0, BACKGROUND_CENTRE);
  gradient.addColorStop(1, BACKGROUND_EDGE);
  return gradient;
}

/**
 * The usual backdrop: the radial gradient, painted once per canvas size into a canvas of its own
 * (a full-screen gradient costs a software canvas several milliseconds) and copied each frame.
 */
export class GradientBackdrop {
  #make;
  #canvas = null;

  constructor(make = makeCanvas) {
    this.#make = make;
  }

  /** Paints the whole of `ctx`'s canvas (`view.width`×`view.height` device pixels). */
  draw(ctx, view) {
    if (!this.#canvas || this.#canvas.width !== view.width || this.#canvas.height !== view.height) {
      this.#canvas = this.#make(view.width, view.height);
      const own = this.#canvas.getContext('2d');
      own.fillStyle = makeBackground(own, view.width, view.height);
      own.fillRect(0, 0, view.width, view.height);
    }
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.globalAlpha = 1;
    // A straight copy: the backdrop is opaque, so there is nothing to blend.
    ctx.globalCompositeOperation = 'copy';
    ctx.drawImage(this.#canvas, 0, 0);
    ctx.globalCompositeOperation = 'source-over';
    return false;
  }
}

// Whether two frames show a card identically: the same photo, veil and transform.
export function sameLook(a, b) {
  if (!a || !b) return false;
  if (a.card.id !== b.card.id || a.card.src !== b.card.src || a.card.highlight !== b.card.highlight) return false;
  for (const key of TRANSFORM_KEYS) if (a.transform[key] !== b.transform[key]) return false;
  return true;
}

/**
 * The frame's cards (z order) cut into runs: [{start, end, still}], `end` exclusive. A card is
 * still when it has no animation and looks as it did in `previous` (a Map from card id to the
 * last frame's entry); consecutive still cards form one run, each moving card a run of its own.
 */
export function splitRuns(entries, previous) {
  const runs = [];
  entries.forEach((entry, i) => {
    const still = !entry.card.anim && sameLook(entry, previous.get(entry.card.id));
    const last = runs[runs.length - 1];
    if (still && last?.still) last.end = i + 1;
    else runs.push({ start: i, end: i + 1, still });
  });
  return runs;
}

/** Device pixels a card and its shadow may cover (before clipping): {x, y, right, bottom}. */
export function cardReach(painter, t) {
  const p = painter.pointToDevice;
  // Generous: the card's half-diagonal, grown by the most perspective can enlarge it.
  const nearest = PERSPECTIVE_DISTANCE / (PERSPECTIVE_DISTANCE - (Math.abs(t.scaleX) * t.w) / 2);
  const reach = (Math.hypot(t.w * t.scaleX, t.h * t.scaleY) / 2) * Math.max(1, nearest > 0 ? nearest : 10);
  const margin = (reach + shadowReach(painter.look) * Math.max(1, Math.abs(t.scaleX), Math.abs(t.scaleY))) * p + 2;
  const cx = painter.originX + t.x * p;
  const cy = painter.originY + t.y * p;
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

function isVisible(t) {
  return t.opacity > 0 && t.w > 0 && t.h > 0 && t.scaleX !== 0 && t.scaleY !== 0;
}

/**
 * Draws frames. Keeps the card sprites and the cached layers of still cards from frame to frame;
 * `make(w, h)` makes an offscreen canvas (a fake in node tests).
 */
export class Renderer {
  #make;
  #sprites;
  #previous = new Map();
  #layers = new Map();
  #spare = [];
  #generation = 0;
  #layerBuilds = 0;
  #tracked = null;
  #trackedRects = [];

  constructor({ make = makeCanvas, sprites = null } = {}) {
    this.#make = make;
    this.#sprites = sprites ?? new SpriteCache({ make });
  }

  /** A photo arrived: cached layers may show its placeholder or a blurrier variant. */
  invalidate() {
    this.#generation += 1;
  }

  /**
   * Records, from now on, where card `id` is drawn in each frame (the debug hook's: a test reads
   * where a flown card went, window edges or not). `trackedRects()` answers them.
   */
  track(id) {
    this.#tracked = id;
    this.#trackedRects = [];
  }

  /** [{left, top, right, bottom}] in CSS pixels of the canvas, one per frame the card was drawn in. */
  trackedRects() {
    return this.#trackedRects.map((rect) => ({ ...rect }));
  }

  /** Counters for tests and the benchmark: sprites drawn, layers drawn. */
  get counters() {
    return { sprites: this.#sprites.built, layers: this.#layerBuilds };
  }

  /**
   * Draws `entries` ([{card, transform}] in z order) on `ctx`. `view` is {width, height, dpr, fit}:
   * the canvas in device pixels, the stage fit in CSS pixels. `style` is the room's style
   * (corners, borders, shadows); `images.get(src, pixels)` answers a decoded photo or null;
   * `backdrop.draw(ctx, view, now)` paints what lies under the cards (`now`: the page's clock, ms,
   * for a backdrop that fades). Returns how many cards are visible.
   */
  draw(ctx, view, entries, { style, images, backdrop, now = 0 }) {
    const painter = {
      look: lookFor(style), lookName: style ?? 'pile', images, sprites: this.#sprites,
      pointToDevice: view.dpr * view.fit.scale, originX: view.dpr * view.fit.x, originY: view.dpr * view.fit.y,
    };
    backdrop.draw(ctx, view, now);
    const layers = new Map();
    let drawn = 0;
    for (const run of splitRuns(entries, this.#previous)) {
      const cards = entries.slice(run.start, run.end);
      if (run.still && cards.length > 1) {
        const layer = this.#layerFor(view, painter, style, cards);
        layers.set(layer.key, layer);
        drawn += layer.visible;
        if (layer.box) {
          const { x, y, w, h } = layer.box;
          ctx.setTransform(1, 0, 0, 1, 0, 0);
          ctx.globalAlpha = 1;
          ctx.drawImage(layer.canvas, 0, 0, w, h, x, y, w, h);
        }
      } else {
        for (const entry of cards) if (drawCard(ctx, painter, entry, 0, 0)) drawn += 1;
      }
    }
    // Layers no longer used lend their canvases to the next ones.
    for (const [key, layer] of this.#layers) {
      if (!layers.has(key) && this.#spare.length < SPARE_LAYERS) this.#spare.push(layer.canvas);
    }
    this.#layers = layers;
    this.#previous = new Map(entries.map((entry) => [entry.card.id, entry]));
    if (this.#tracked !== null) {
      const entry = entries.find(({ card }) => card.id === this.#tracked);
      if (entry && isVisible(entry.transform)) this.#trackedRects.push(cardRect(view, entry.transform));
    }
    return drawn;
  }

  #layerFor(view, painter, style, cards) {
    const key = cards.map((entry) => entry.card.id).join('\n');
    const held = this.#layers.get(key);
    if (held && held.generation === this.#generation && held.view === view && held.style === style
      && held.fit.scale === view.fit.scale && held.fit.x === view.fit.x && held.fit.y === view.fit.y
      && held.cards.every((entry, i) => sameLook(entry, cards[i]))) {
      return held;
    }
    const visible = cards.filter((entry) => isVisible(entry.transform));
    const box = clippedUnion(visible.map((entry) => cardReach(painter, entry.transform)), view.width, view.height);
    let canvas = held?.canvas ?? null;
    if (box && (!canvas || canvas.width < box.w || canvas.height < box.h)) {
      const index = this.#spare.findIndex((spare) => spare.width >= box.w && spare.height >= box.h);
      canvas = index >= 0 ? this.#spare.splice(index, 1)[0] : this.#make(box.w, box.h);
    }
    let count = 0;
    if (box) {
      const ctx = canvas.getContext('2d');
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      ctx.globalAlpha = 1;
      ctx.clearRect(0, 0, box.w, box.h);
      for (const entry of cards) if (drawCard(ctx, painter, entry, box.x, box.y)) count += 1;
      this.#layerBuilds += 1;
    }
    return {
      key, canvas, box, cards, visible: count, view, style, fit: { ...view.fit }, generation: this.#generation,
    };
  }
}

/** Sets `ctx` to the card's own coordinates, with the device origin moved by (dx, dy). */
function placeCard(ctx, painter, t, dx, dy) {
  const p = painter.pointToDevice;
  ctx.setTransform(p, 0, 0, p, painter.originX - dx, painter.originY - dy);
  ctx.translate(t.x, t.y);
  ctx.rotate(t.rotation);
  ctx.scale(t.scaleX, t.scaleY);
}

function spriteOf(painter, card, side, size, withShadow) {
  const { inner } = cardBoxes(size.w, size.h, painter.look);
  const image = side === 'face' && card.src
    ? painter.images.get(card.src, Math.max(inner.w, inner.h) * painter.pointToDevice)
    : null;
  return painter.sprites.get({
    side, src: card.src, image, highlight: card.highlight, w: size.w, h: size.h, look: painter.look,
    lookName: painter.lookName, devicePerPoint: painter.pointToDevice, withShadow,
  });
}

/** Draws one card (its transform `t`) with the device origin moved by (dx, dy); false when unseen. */
function drawCard(ctx, painter, { card, transform: t }, dx, dy) {
  if (!isVisible(t)) return false;
  const opacity = Math.min(t.opacity, 1);
  const size = restSize(card);
  placeCard(ctx, painter, t, dx, dy);
  // A translucent card fades as one sheet, shadow included, as a layer's opacity does: the
  // sprite is opaque where the card is, so nothing under the photo shows through it.
  ctx.globalAlpha = opacity;
  const { side, angle } = visibleSide(t.flip);
  if (Math.abs(Math.sin(angle)) < FLAT_FLIP) {
    drawSprite(ctx, spriteOf(painter, card, side, size, true), t.w, t.h);
  } else {
    paintTurned(ctx, painter, card, t, side, size, angle);
  }
  ctx.globalAlpha = 1;
  return true;
}

/**
 * A card turned about its vertical axis: the card's shadow stretched under its projected outline,
 * the outline filled white (the hair between strips and outline shows the border's white), then
 * the flat side, from its sprite, laid over it in vertical strips, each as tall as its depth makes it.
 */
function paintTurned(ctx, painter, card, t, side, size, angle) {
  const outline = roundedRectOutline(t.w, t.h, painter.look.radius)
    .map(({ x, y }) => projectPoint(x, y, angle, PERSPECTIVE_DISTANCE));
  const devicePerPoint = painter.pointToDevice * Math.max(Math.abs(t.scaleX), Math.abs(t.scaleY));
  const count = stripCount(t.w, t.h, angle, PERSPECTIVE_DISTANCE, devicePerPoint);
  const strips = flipStrips(t.w, t.h, angle, PERSPECTIVE_DISTANCE, count);
  const left = Math.min(...outline.map((point) => point.x));
  const right = Math.max(...outline.map((point) => point.x));
  const halfHeight = Math.max(...outline.map((point) => Math.abs(point.y)));

  const shadow = painter.sprites.shadow(size.w, size.h, painter.look, painter.lookName, painter.pointToDevice);
  const sx = (right - left) / size.w;
  const sy = (2 * halfHeight) / size.h;
  ctx.drawImage(shadow.canvas, left - shadow.pad * sx, -halfHeight - shadow.pad * sy,
    (shadow.canvas.width / shadow.scale) * sx, (shadow.canvas.height / shadow.scale) * sy);
  polygonPath(ctx, outline);
  ctx.fillStyle = '#fff';
  ctx.fill();

  const sprite = spriteOf(painter, card, side, size, false);
  const spriteW = sprite.w * sprite.scale;
  const spriteH = sprite.h * sprite.scale;
  const overlap = STRIP_OVERLAP_PX / (painter.pointToDevice * Math.abs(t.scaleX));
  strips.forEach(({ u0, u1, x0, x1, halfHeight: half }, i) => {
    const width = x1 - x0 + (i < strips.length - 1 ? overlap : 0);
    ctx.drawImage(sprite.canvas, u0 * spriteW, 0, (u1 - u0) * spriteW, spriteH, x0, -half, width, 2 * half);
  });
}
