// Card sprites: each card drawn once, at the size it rests at and the screen's resolution, with its
// shadow, white border, rounded corners, photo and veil baked into an offscreen canvas. A frame
// then draws a card with one drawImage, however it is moved, turned or faded; nothing is blurred
// per frame (a software-rendered canvas, a Raspberry Pi or a browser without GPU raster, spends
// most of a frame on shadows and clipped photos otherwise).

import { makeCanvas } from './canvas.js';
import { boxPath, cardBoxes, largestScale, paintBack, paintFace } from './paint.js';

const SHADOW_COLOR = 'rgba(0, 0, 0, 0.35)';
// A sprite is at most this many pixels a side (the canvas' own limits are larger, memory is not).
export const MAX_SPRITE_PX = 4096;
// Sprites kept, in pixels (about 4 bytes each): a dozen full-screen cards, a hundred small ones.
export const SPRITE_PIXEL_BUDGET = 24e6;
// Shadows kept apart, in pixels: one is drawn into each sprite made of its size and look, never
// drawn on its own, so dropping one costs only time. Counted with the sprites, a 4K screen's few
// wall-sized shadows left no room for the sprites a frame draws.
export const SHADOW_PIXEL_BUDGET = 8e6;
// A sprite made a piece at a time (SpriteCache.steps) is drawn in bands of about this many
// pixels: a few milliseconds each without a GPU.
const BAND_PIXELS = 400e3;

/** How far a look's shadow reaches past the card's edge, in stage points (blur spread and drop). */
export function shadowReach(look) {
  // A canvas shadow of blur b is a Gaussian of σ = b/2: 3σ is where it fades out.
  return Math.ceil(1.5 * look.shadow.blur + Math.abs(look.shadow.offsetY));
}

/**
 * The sprite of a `w`×`h` card (stage points) drawn at `devicePerPoint` device pixels per point:
 * `pad` points of room for the shadow on each side, the pixel `scale` actually used (smaller when
 * the sprite would pass MAX_SPRITE_PX) and the canvas size in pixels.
 */
export function spriteGeometry(w, h, look, devicePerPoint, withShadow = true, maxPx = MAX_SPRITE_PX) {
  const pad = withShadow ? shadowReach(look) : 0;
  const longest = Math.max(w, h) + 2 * pad;
  const scale = Math.max(1e-3, Math.min(devicePerPoint, maxPx / longest));
  return {
    pad, scale, width: Math.max(1, Math.ceil((w + 2 * pad) * scale)), height: Math.max(1, Math.ceil((h + 2 * pad) * scale)),
  };
}

/**
 * The sizes a card's sprite may have: `end`, where its animation ends (its own size at rest), and
 * `larger`, the larger of its start and end sizes when its animation changes its size (else null).
 * A card that grows or shrinks keeps one sprite meanwhile, scaled: the larger one if it is made
 * already (scaled down it stays sharp), else the one of its end.
 */
export function spriteSizes(card) {
  const { anim } = card;
  const end = { w: anim?.to?.w ?? card.w, h: anim?.to?.h ?? card.h };
  if (anim?.from?.w === undefined && anim?.from?.h === undefined) return { end, larger: null };
  const start = { w: anim.from.w ?? card.w, h: anim.from.h ?? card.h };
  if (start.w === end.w && start.h === end.h) return { end, larger: null };
  return { end, larger: start.w * start.h > end.w * end.h ? start : end };
}

/** A sprite's device scale, rounded so that float noise in the stage fit does not make new sprites. */
export function quantizeScale(scale) {
  return Math.round(scale * 256) / 256;
}

/**
 * Sprites by card look, least recently used dropped past a pixel budget. `get` answers
 * {canvas, pad, scale, w, h}: drawn with its centre at the card's, `canvas` covers
 * (w + 2·pad)×(h + 2·pad) points (a pixel or so more, rounding up).
 */
export class SpriteCache {
  #make;
  #budget;
  #sprites = new Map();
  #byCard = new Map();
  #latest = new Map();
  #shadows = new Map();
  #pixels = 0;
  #shadowPixels = 0;
  #built = 0;
  #buildMs = 0;

  #shadowBudget;

  constructor({ make = makeCanvas, budget = SPRITE_PIXEL_BUDGET, shadowBudget = SHADOW_PIXEL_BUDGET } = {}) {
    this.#make = make;
    this.#budget = budget;
    this.#shadowBudget = shadowBudget;
  }

  /** The pixels its sprites may hold together (what idle time makes ahead must fit in it). */
  get budget() {
    return this.#budget;
  }

  /** How many sprites were drawn so far (shadows included): a test's and a benchmark's counter. */
  get built() {
    return this.#built;
  }

  get size() {
    return this.#sprites.size;
  }

  /** Milliseconds spent drawing sprites so far (where a slow frame's time went). */
  get buildMs() {
    return this.#buildMs;
  }

  /** Drops every sprite (a new screen resolution makes them all the wrong size). */
  clear() {
    this.#sprites.clear();
    this.#shadows.clear();
    this.#pixels = 0;
    this.#shadowPixels = 0;
  }

  /**
   * The sprite of one side of a card: `side` 'face' or 'back', `image` the decoded photo or null
   * (a placeholder), `whole` the photo's own size in pixels ({w, h}) when known (it is drawn at
   * most twice that: paint.js, largestScale), `w`×`h` points in `look` (named `lookName`) at
   * `devicePerPoint`; with its shadow, or without (the strips of a card turning in perspective
   * cast their own).
   */
  get(fields) {
    const steps = this.steps(fields, Infinity);
    for (;;) {
      const { done, value } = steps.next();
      if (done) return value;
    }
  }

  /**
   * `get` a piece at a time: a generator that draws the sprite in horizontal bands of about
   * `bandPixels` pixels, each rasterised at once, yielding after each, and returns the sprite (kept
   * as `get` keeps it). A wall-sized sprite took 20–25 ms in one piece; idle time makes it in
   * slices of a few milliseconds. A band is the whole drawing under a rectangular clip: every
   * pixel is drawn as in one piece, no seams.
   */
  * steps({
    side, src, image, whole = null, highlight, w, h, look, lookName, devicePerPoint, withShadow = true,
  }, bandPixels = BAND_PIXELS) {
    const scale = quantizeScale(devicePerPoint);
    const cardKey = cardKeyOf({ side, src, highlight, w, h, devicePerPoint, withShadow });
    const key = `${lookName}|${cardKey}`;
    let sprite = this.#sprites.get(key);
    if (sprite && side === 'face' && image && (image.width || 0) > sprite.imageWidth) {
      // A sharper variant of the photo (or the photo itself, after the placeholder) arrived; a
      // smaller one (asked for a card that shrank) would only blur it.
      this.#forget(key, sprite);
      sprite = null;
    }
    if (sprite) {
      this.#sprites.delete(key);
      this.#sprites.set(key, sprite);
      this.#latest.set(sideKey(side, withShadow, scale, src, highlight), sprite);
      return sprite;
    }
    const fields = { side, image, whole, highlight, w, h, look, lookName, scale, withShadow };
    const geometry = spriteGeometry(w, h, look, scale, withShadow);
    const canvas = this.#make(geometry.width, geometry.height);
    const rows = Math.max(1, Math.floor(bandPixels / geometry.width));
    const banded = rows < geometry.height;
    for (let top = 0; top < geometry.height; top += rows) {
      const started = performance.now();
      const bottom = Math.min(geometry.height, top + rows);
      this.#paint(canvas, geometry, fields, banded ? { top, bottom } : null);
      // Rasterised now (reading a pixel waits for it), so that the band's cost falls in its slice.
      if (banded) canvas.getContext('2d').getImageData(0, top, 1, 1);
      this.#buildMs += performance.now() - started;
      if (bottom < geometry.height) yield;
    }
    const started = performance.now();
    sprite = { canvas: frozen(canvas), imageWidth: image?.width || 0, pad: geometry.pad, scale: geometry.scale, w, h };
    this.#buildMs += performance.now() - started;
    this.#built += 1;
    sprite.key = key;
    this.#sprites.set(key, sprite);
    this.#byCard.set(cardKey, sprite);
    this.#latest.set(sideKey(side, withShadow, scale, src, highlight), sprite);
    this.#pixels += sprite.canvas.width * sprite.canvas.height;
    this.#evict(key);
    return sprite;
  }

  /**
   * A sprite of this card side at `w`×`h` already made, in whatever look (the style it was made
   * for), or null; nothing is drawn. During a style switch a card keeps its sprite of the style it
   * leaves rather than waiting for a new one.
   */
  find({ side, src, highlight, w, h, devicePerPoint, withShadow = true }) {
    const sprite = this.#byCard.get(cardKeyOf({ side, src, highlight, w, h, devicePerPoint, withShadow }));
    if (!sprite || this.#sprites.get(sprite.key) !== sprite) return null;
    this.#sprites.delete(sprite.key);
    this.#sprites.set(sprite.key, sprite);
    return sprite;
  }

  /**
   * The sprite of this card side used last, in whatever look, if its size is within `tolerance`
   * (a share) of `w`×`h`, or null; nothing is drawn. A card a drag resizes (the swipe's next card
   * easing toward the front) has a new size in every frame: stretched a little, one sprite serves.
   */
  near({ side, src, highlight, w, h, devicePerPoint, withShadow = true }, tolerance = NEAR_SIZE) {
    const sprite = this.#latest.get(sideKey(side, withShadow, quantizeScale(devicePerPoint), src, highlight));
    if (!sprite || this.#sprites.get(sprite.key) !== sprite) return null;
    const close = (a, b) => Math.abs(a / b - 1) <= tolerance;
    return close(sprite.w, w) && close(sprite.h, h) ? sprite : null;
  }

  /** Whether the sprite `get` would answer for these fields is made already. */
  has(fields) {
    return this.#sprites.has(`${fields.lookName}|${cardKeyOf(fields)}`);
  }

  /**
   * Whether the sprite `get` would answer for these fields is made already; if so it counts as
   * used now, so that sprites made after it for the same frame evict others first.
   */
  keep(fields) {
    const key = `${fields.lookName}|${cardKeyOf(fields)}`;
    const sprite = this.#sprites.get(key);
    if (!sprite) return false;
    this.#sprites.delete(key);
    this.#sprites.set(key, sprite);
    return true;
  }

  // Draws the sprite on `canvas`, or only the rows of `band` ({top, bottom}, canvas pixels).
  #paint(canvas, geometry, { side, image, whole, highlight, w, h, look, lookName, withShadow }, band) {
    const ctx = canvas.getContext('2d');
    ctx.save();
    if (band) {
      ctx.beginPath();
      ctx.rect(0, band.top, geometry.width, band.bottom - band.top);
      ctx.clip();
    }
    if (withShadow) ctx.drawImage(this.#shadow(w, h, look, lookName, geometry).canvas, 0, 0);
    ctx.setTransform(geometry.scale, 0, 0, geometry.scale, (geometry.pad + w / 2) * geometry.scale,
      (geometry.pad + h / 2) * geometry.scale);
    if (side === 'face') paintFace(ctx, w, h, look, image, highlight, null, largestScale(image, whole, geometry.scale));
    else paintBack(ctx, w, h, look, null);
    ctx.restore();
  }

  /**
   * The shadow alone of a `w`×`h` card, shared by every card of that size and look: the card's
   * shape is drawn off the canvas and only its shadow, offset back, lands on it, so the shadow
   * also works under a card that fades or turns.
   */
  shadow(w, h, look, lookName, devicePerPoint) {
    const geometry = spriteGeometry(w, h, look, quantizeScale(devicePerPoint), true);
    return this.#shadow(w, h, look, lookName, geometry);
  }

  #shadow(w, h, look, lookName, geometry) {
    const key = `${lookName}|${w}x${h}@${geometry.scale}`;
    let shadow = this.#shadows.get(key);
    if (shadow) {
      this.#shadows.delete(key);
      this.#shadows.set(key, shadow);
      return shadow;
    }
    const canvas = this.#make(geometry.width, geometry.height);
    const ctx = canvas.getContext('2d');
    const { outer } = cardBoxes(w, h, look);
    // Far enough to the left that no part of the shape, blur included, is on the canvas.
    const away = geometry.width + 10;
    ctx.setTransform(geometry.scale, 0, 0, geometry.scale, (geometry.pad + w / 2) * geometry.scale - away,
      (geometry.pad + h / 2) * geometry.scale);
    ctx.shadowColor = SHADOW_COLOR;
    ctx.shadowBlur = look.shadow.blur * geometry.scale;
    ctx.shadowOffsetX = away;
    ctx.shadowOffsetY = look.shadow.offsetY * geometry.scale;
    ctx.fillStyle = '#fff';
    boxPath(ctx, outer);
    ctx.fill();
    this.#built += 1;
    shadow = { canvas: frozen(canvas), pad: geometry.pad, scale: geometry.scale, w, h };
    this.#shadows.set(key, shadow);
    this.#shadowPixels += geometry.width * geometry.height;
    this.#evictShadows(key);
    return shadow;
  }

  #forget(key, sprite) {
    this.#sprites.delete(key);
    this.#pixels -= sprite.canvas.width * sprite.canvas.height;
    release(sprite.canvas);
  }

  #evict(keep) {
    for (const [key, sprite] of this.#sprites) {
      if (this.#pixels <= this.#budget) break;
      if (key !== keep) this.#forget(key, sprite);
    }
  }

  #evictShadows(keep) {
    for (const [key, shadow] of this.#shadows) {
      if (this.#shadowPixels <= this.#shadowBudget) break;
      if (key === keep) continue;
      this.#shadows.delete(key);
      this.#shadowPixels -= shadow.canvas.width * shadow.canvas.height;
      release(shadow.canvas);
    }
  }
}

// How far `near` may stretch a sprite: the swipe's next card grows by 20 of 386 points (5 %).
const NEAR_SIZE = 0.08;

// What names a card side's sprite at a size and scale, whatever its look.
function cardKeyOf({ side, src, highlight, w, h, devicePerPoint, withShadow = true }) {
  const scale = quantizeScale(devicePerPoint);
  return `${side}|${withShadow ? 's' : 'n'}|${w}x${h}@${scale}|${side === 'face' ? `${src}|${highlight ? 1 : 0}` : ''}`;
}

function sideKey(side, withShadow, scale, src, highlight) {
  return `${side}|${withShadow ? 's' : 'n'}@${scale}|${side === 'face' ? `${src}|${highlight ? 1 : 0}` : ''}`;
}

/**
 * A finished sprite as an ImageBitmap where the browser can hand one over without copying (an
 * OffscreenCanvas): the cheapest image to draw. Elsewhere the canvas itself.
 */
function frozen(canvas) {
  return typeof canvas.transferToImageBitmap === 'function' ? canvas.transferToImageBitmap() : canvas;
}

/** Gives a sprite's pixels back now rather than whenever the collector runs. */
function release(image) {
  if (typeof image.close === 'function') {
    image.close();
  } else {
    image.width = 0;
    image.height = 0;
  }
}

/**
 * Draws `sprite` on `ctx`, whose transform is already the card's own coordinates (stage points,
 * centre origin, rotated and scaled with the card): the card appears `w`×`h` points there.
 * A sprite made for another size (the card is growing or shrinking) is stretched to fit.
 */
export function drawSprite(ctx, sprite, w, h) {
  const sx = w / sprite.w;
  const sy = h / sprite.h;
  const width = sprite.canvas.width / sprite.scale;
  const height = sprite.canvas.height / sprite.scale;
  ctx.drawImage(sprite.canvas, (-w / 2) - sprite.pad * sx, (-h / 2) - sprite.pad * sy, width * sx, height * sy);
}
