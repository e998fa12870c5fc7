// Drawing a frame: the background, then every card in z order, the unchanged bottom of the stack
// copied from a cached layer. Card sizes, borders and shadows are in stage points, so a phone and a
// wall screen show the same picture, only scaled.

import { TRANSFORM_KEYS } from './curve.js';
import { flipStrips, projectPoint, roundedRectOutline, stripCount, visibleSide } from './flip.js';
import { PERSPECTIVE_DISTANCE, lookFor } from './look.js';
import { cardBoxes, paintBack, paintFace, polygonPath } from './paint.js';

export { coverCrop } from './paint.js';

const SHADOW_COLOR = 'rgba(0, 0, 0, 0.35)';
const BACKGROUND_CENTRE = '#4a4541';
const BACKGROUND_EDGE = '#1d1b1a';
// Below this |sin(flip)| a card is drawn flat: the perspective would move no edge by a pixel.
const FLAT_FLIP = 1e-4;
// Neighbouring strips overlap by this many device pixels, so that no background shows through
// the anti-aliased seam between them.
const STRIP_OVERLAP_PX = 0.75;
// A turning card's side is drawn into a scratch canvas first, at most this many pixels a side.
const MAX_SPRITE_PX = 4096;

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
 * Scratch canvases, reused from frame to frame (grown, never shrunk): one to draw a translucent
 * card whole before fading it, one for the side of a turning card. `make(w, h)` makes a canvas.
 */
export class Scratch {
  #make;
  #canvases = new Map();

  constructor(make = (w, h) => new OffscreenCanvas(w, h)) {
    this.#make = make;
  }

  /** The canvas called `name`, at least `w`×`h`, cleared there, with an identity transform. */
  get(name, w, h) {
    let canvas = this.#canvases.get(name);
    if (!canvas || canvas.width < w || canvas.height < h) {
      canvas = this.#make(Math.max(w, canvas?.width ?? 0), Math.max(h, canvas?.height ?? 0));
      this.#canvases.set(name, canvas);
    }
    const ctx = canvas.getContext('2d');
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.globalAlpha = 1;
    ctx.clearRect(0, 0, w, h);
    return { canvas, ctx };
  }
}

// Whether two frames show a card identically: the same photo, veil and transform.
function sameLook(a, b) {
  if (a.card.id !== b.card.id || a.card.src !== b.card.src || a.card.highlight !== b.card.highlight) return false;
  for (const key of TRANSFORM_KEYS) if (a.transform[key] !== b.transform[key]) return false;
  return true;
}

/**
 * The bottom of the stack, drawn once and reused while it does not change. A drag moves the top
 * card and an animation a few; the cards under them stay put, and drawing them again every frame
 * is most of a frame's cost where the canvas is drawn in software (a Raspberry Pi, a headless
 * browser): 100 cards take half a second there, a copy of this layer a few milliseconds.
 */
export class StaticLayer {
  #make;
  #canvas = null;
  #ctx = null;
  #view = null;
  #fit = null;
  #style = null;
  #held = [];
  #drawnInHeld = 0;
  #previous = [];

  constructor(make = (w, h) => new OffscreenCanvas(w, h)) {
    this.#make = make;
  }

  /** Forgets the layer's pixels: a photo arrived, and a card in them may now look different. */
  invalidate() {
    this.#view = null;
  }

  /**
   * How many cards from the bottom look as they did in the last frame. The top card is never
   * counted: it is the one a drag moves, and leaving it out spares a rebuild when a drag starts.
   */
  stableCount(cards) {
    let count = 0;
    while (count < cards.length - 1 && count < this.#previous.length && sameLook(cards[count], this.#previous[count])) {
      count += 1;
    }
    return count;
  }

  /** Whether the layer holds exactly the bottom `count` of `cards`, drawn for `view` and `style`. */
  holds(view, style, cards, count) {
    const fit = this.#fit;
    if (this.#view !== view || this.#style !== style || this.#held.length !== count) return false;
    if (fit.scale !== view.fit.scale || fit.x !== view.fit.x || fit.y !== view.fit.y) return false;
    for (let i = 0; i < count; i += 1) if (!sameLook(cards[i], this.#held[i])) return false;
    return true;
  }

  /** A cleared context for `view`'s size, to draw the layer again. */
  begin(view, style) {
    if (!this.#canvas || this.#canvas.width !== view.width || this.#canvas.height !== view.height) {
      this.#canvas = this.#make(view.width, view.height);
      this.#ctx = this.#canvas.getContext('2d');
    }
    this.#view = view;
    this.#fit = { ...view.fit };
    this.#style = style;
    return this.#ctx;
  }

  /** Records what the layer now holds: the bottom cards, of which `drawn` were visible. */
  commit(cards, drawn) {
    this.#held = cards;
    this.#drawnInHeld = drawn;
  }

  get canvas() {
    return this.#canvas;
  }

  get drawnInHeld() {
    return this.#drawnInHeld;
  }

  /** The frame just drawn, to compare the next one with. */
  remember(cards) {
    this.#previous = cards;
  }
}

function paintBackground(ctx, view) {
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.globalAlpha = 1;
  ctx.fillStyle = view.background;
  ctx.fillRect(0, 0, view.width, view.height);
}

/**
 * Draws `cards` ([{card, transform}] in z order) on `ctx`. `view` is {width, height, dpr, fit,
 * background}: the canvas in device pixels, the stage fit in CSS pixels, the background paint.
 * `style` is the room's style (corners, borders, shadows); `images.get(src, pixels)` answers a
 * decoded photo or null; `scratch` lends scratch canvases; `layer` (a StaticLayer, optional)
 * keeps the unchanged bottom of the stack between frames. Returns how many cards are visible.
 */
export function drawFrame(ctx, view, cards, { style, images, scratch, layer = null }) {
  const painter = {
    look: lookFor(style), images, scratch,
    pointToDevice: view.dpr * view.fit.scale, originX: view.dpr * view.fit.x, originY: view.dpr * view.fit.y,
  };
  let drawn = 0;
  let first = 0;
  const stable = layer ? layer.stableCount(cards) : 0;
  if (stable > 0) {
    if (!layer.holds(view, style, cards, stable)) {
      const layerCtx = layer.begin(view, style);
      paintBackground(layerCtx, view);
      let drawnInLayer = 0;
      for (let i = 0; i < stable; i += 1) {
        if (drawCard(layerCtx, view, painter, cards[i].card, cards[i].transform)) drawnInLayer += 1;
      }
      layer.commit(cards.slice(0, stable), drawnInLayer);
    }
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.globalAlpha = 1;
    // A straight copy: the layer is opaque, so there is nothing to blend.
    ctx.globalCompositeOperation = 'copy';
    ctx.drawImage(layer.canvas, 0, 0, view.width, view.height, 0, 0, view.width, view.height);
    ctx.globalCompositeOperation = 'source-over';
    drawn = layer.drawnInHeld;
    first = stable;
  } else {
    paintBackground(ctx, view);
  }
  for (let i = first; i < cards.length; i += 1) {
    if (drawCard(ctx, view, painter, cards[i].card, cards[i].transform)) drawn += 1;
  }
  layer?.remember(cards);
  return drawn;
}

function drawCard(ctx, view, painter, card, t) {
  const opacity = Math.min(Math.max(t.opacity, 0), 1);
  if (!(opacity > 0) || !(t.w > 0) || !(t.h > 0) || t.scaleX === 0 || t.scaleY === 0) return false;
  if (opacity >= 1) {
    placeCard(ctx, painter, t, 0, 0);
    paintCard(ctx, painter, card, t);
    return true;
  }
  // A translucent card fades as one sheet, shadow included (as a layer's opacity does): drawn
  // opaque into a scratch canvas first, then faded onto the frame. Fading each part on its own
  // would let the white under the photo show through it.
  const box = deviceBounds(view, painter, t);
  if (!box) return false;
  const layer = painter.scratch.get('layer', box.w, box.h);
  placeCard(layer.ctx, painter, t, box.x, box.y);
  paintCard(layer.ctx, painter, card, t);
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.globalAlpha = opacity;
  ctx.drawImage(layer.canvas, 0, 0, box.w, box.h, box.x, box.y, box.w, box.h);
  ctx.globalAlpha = 1;
  return true;
}

/** Sets `ctx` to the card's own coordinates, with the device origin moved by (dx, dy). */
function placeCard(ctx, painter, t, dx, dy) {
  const p = painter.pointToDevice;
  ctx.setTransform(p, 0, 0, p, painter.originX - dx, painter.originY - dy);
  ctx.translate(t.x, t.y);
  ctx.rotate(t.rotation);
  ctx.scale(t.scaleX, t.scaleY);
  ctx.globalAlpha = 1;
}

/** Device pixels covered by the card and its shadow, clipped to the canvas; null when off it. */
function deviceBounds(view, painter, t) {
  const p = painter.pointToDevice;
  const { shadow } = painter.look;
  // Generous: the card's half-diagonal, grown by the most perspective can enlarge it.
  const nearest = PERSPECTIVE_DISTANCE / (PERSPECTIVE_DISTANCE - (Math.abs(t.scaleX) * t.w) / 2);
  const reach = (Math.hypot(t.w * t.scaleX, t.h * t.scaleY) / 2) * Math.max(1, nearest > 0 ? nearest : 10);
  const margin = (reach + 2 * shadow.blur + shadow.offsetY) * p;
  const cx = painter.originX + t.x * p;
  const cy = painter.originY + t.y * p;
  const x = Math.max(0, Math.floor(cx - margin));
  const y = Math.max(0, Math.floor(cy - margin));
  const right = Math.min(view.width, Math.ceil(cx + margin));
  const bottom = Math.min(view.height, Math.ceil(cy + margin));
  return right > x && bottom > y ? { x, y, w: right - x, h: bottom - y } : null;
}

function shadowFor(painter) {
  const { shadow } = painter.look;
  const p = painter.pointToDevice;
  // Shadow geometry ignores the transform, so it is given in device pixels; that also keeps the
  // light coming from above whatever the card's rotation.
  return { color: SHADOW_COLOR, blur: shadow.blur * p, offsetY: shadow.offsetY * p };
}

function photoFor(painter, card, t) {
  if (!card.src) return null;
  const { inner } = cardBoxes(t.w, t.h, painter.look);
  const scale = Math.max(Math.abs(t.scaleX), Math.abs(t.scaleY));
  return painter.images.get(card.src, Math.max(inner.w, inner.h) * scale * painter.pointToDevice);
}

/** Paints the card in its own coordinates (ctx already placed): flat, or turned in perspective. */
function paintCard(ctx, painter, card, t) {
  const { side, angle } = visibleSide(t.flip);
  const image = side === 'face' ? photoFor(painter, card, t) : null;
  const paintSide = (target, shadow) => (side === 'face'
    ? paintFace(target, t.w, t.h, painter.look, image, card.highlight, shadow)
    : paintBack(target, t.w, t.h, painter.look, shadow));
  if (Math.abs(Math.sin(angle)) < FLAT_FLIP) {
    paintSide(ctx, shadowFor(painter));
    return;
  }
  paintTurned(ctx, painter, t, angle, paintSide);
}

/**
 * A card turned about its vertical axis: its outline projected in perspective casts the shadow
 * (and fills the hair between strip and outline with the border's white), then the flat side,
 * drawn once into a scratch canvas, is laid over it in vertical strips, each as tall as its depth
 * makes it.
 */
function paintTurned(ctx, painter, t, angle, paintSide) {
  const outline = roundedRectOutline(t.w, t.h, painter.look.radius)
    .map(({ x, y }) => projectPoint(x, y, angle, PERSPECTIVE_DISTANCE));
  const shadow = shadowFor(painter);
  ctx.shadowColor = shadow.color;
  ctx.shadowBlur = shadow.blur;
  ctx.shadowOffsetX = 0;
  ctx.shadowOffsetY = shadow.offsetY;
  polygonPath(ctx, outline);
  ctx.fillStyle = '#fff';
  ctx.fill();
  ctx.shadowColor = 'transparent';

  const devicePerPoint = painter.pointToDevice * Math.max(Math.abs(t.scaleX), Math.abs(t.scaleY));
  const spriteScale = Math.min(devicePerPoint, MAX_SPRITE_PX / Math.max(t.w, t.h));
  const spriteW = Math.max(1, Math.ceil(t.w * spriteScale));
  const spriteH = Math.max(1, Math.ceil(t.h * spriteScale));
  const sprite = painter.scratch.get('side', spriteW, spriteH);
  sprite.ctx.setTransform(spriteW / t.w, 0, 0, spriteH / t.h, spriteW / 2, spriteH / 2);
  paintSide(sprite.ctx, null);

  const count = stripCount(t.w, t.h, angle, PERSPECTIVE_DISTANCE, devicePerPoint);
  const overlap = STRIP_OVERLAP_PX / (painter.pointToDevice * Math.abs(t.scaleX));
  const strips = flipStrips(t.w, t.h, angle, PERSPECTIVE_DISTANCE, count);
  strips.forEach(({ u0, u1, x0, x1, halfHeight }, i) => {
    const width = x1 - x0 + (i < strips.length - 1 ? overlap : 0);
    ctx.drawImage(sprite.canvas, u0 * spriteW, 0, (u1 - u0) * spriteW, spriteH, x0, -halfHeight, width, 2 * halfHeight);
  });
}
