// A photo frame's wall (?kiosk=1): around the stage, a blurred and darkened copy of the front
// photo instead of dark grey. Each photo's wall is made once, from a small variant drawn into a
// tiny canvas and blurred there (a blur of a few dozen pixels costs nothing), then scaled up with
// smoothing to the screen: never blurred per frame. When the front photo changes the walls
// cross-fade; with prefers-reduced-motion they cut.

import { makeCanvas } from './canvas.js';
import { coverCrop } from './paint.js';

export const CROSSFADE_MS = 1200;
// The tiny canvas the wall is blurred in, in pixels along its longer side, and the blur there.
export const WALL_PX = 64;
const WALL_BLUR_PX = 2.5;
// Room around the tiny canvas so that the blur does not darken the wall's edges.
const WALL_PAD_PX = 6;
const WALL_DARKEN = 'rgba(0, 0, 0, 0.5)';
// The variant asked for: the smallest the server makes is plenty for a blur.
const WALL_SOURCE_PX = 128;
// Two photos' walls (a cross-fade), each at the page's canvas size and the coarse one's.
const WALLS_KEPT = 4;

/** Cross-fade progress (0–1) at `now` of a fade that started at `start`; 1 when there is none. */
export function fadeProgress(start, now, duration = CROSSFADE_MS) {
  if (!(duration > 0) || start === null) return 1;
  return Math.min(1, Math.max(0, (now - start) / duration));
}

/** The tiny canvas' size for a `width`×`height` screen: its aspect, WALL_PX along the longer side. */
export function wallSize(width, height) {
  if (!(width > 0 && height > 0)) return { w: WALL_PX, h: WALL_PX };
  const scale = WALL_PX / Math.max(width, height);
  return { w: Math.max(1, Math.round(width * scale)), h: Math.max(1, Math.round(height * scale)) };
}

/**
 * The wall behind the stage in kiosk mode. `images.get(src, pixels)` answers a decoded photo or
 * null (it loads it, and the page draws again when it lands); `fallback` draws while no photo is
 * ready; `reducedMotion()` says whether to cut instead of cross-fading.
 */
export class PhotoBackdrop {
  #images;
  #make;
  #fallback;
  #reducedMotion;
  #walls = new Map();
  #current = null;
  #previous = null;
  #fadeStart = null;
  #built = 0;

  constructor({ images, fallback, make = makeCanvas, reducedMotion = () => false }) {
    this.#images = images;
    this.#fallback = fallback;
    this.#make = make;
    this.#reducedMotion = reducedMotion;
  }

  /** How many walls were made (a test's counter: one per photo and screen size). */
  get built() {
    return this.#built;
  }

  /** The front photo is now `src` (null: none); a new one cross-fades in from `now` (ms). */
  show(src, now) {
    if (src === this.#current) return;
    this.#previous = this.#current;
    this.#current = src;
    this.#fadeStart = this.#reducedMotion() || this.#previous === null ? null : now;
  }

  /** Whether the wall is still changing at `now`: the page keeps drawing frames meanwhile. */
  busy(now) {
    return this.#fadeStart !== null && fadeProgress(this.#fadeStart, now) < 1;
  }

  /** Paints the whole canvas: the front photo's wall, fading over the previous one. */
  draw(ctx, view, now) {
    const current = this.#wall(this.#current, view);
    const progress = fadeProgress(this.#fadeStart, now);
    if (progress >= 1) this.#fadeStart = null;
    const previous = progress < 1 ? this.#wall(this.#previous, view) : null;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.globalAlpha = 1;
    if (previous) copy(ctx, previous);
    else if (!current || progress < 1) this.#fallback.draw(ctx, view);
    if (current) {
      if (!previous && progress >= 1) {
        copy(ctx, current);
      } else {
        ctx.globalAlpha = progress;
        ctx.drawImage(current, 0, 0);
        ctx.globalAlpha = 1;
      }
    }
    return this.busy(now);
  }

  /** Makes the wall (or the fallback) for `view`'s size ahead of its first frame (idle time's). */
  prepare(view) {
    if (!this.#wall(this.#current, view)) this.#fallback.prepare?.(view);
  }

  // The wall of `src` for `view`'s size, made when its photo is decoded; null until then.
  #wall(src, view) {
    if (src === null) return null;
    const key = `${src}|${view.width}x${view.height}`;
    const kept = this.#walls.get(key);
    if (kept) return kept;
    const image = this.#images.get(src, WALL_SOURCE_PX);
    if (!image) return null;
    const wall = this.#build(image, view);
    this.#walls.set(key, wall);
    for (const old of this.#walls.keys()) {
      if (this.#walls.size <= WALLS_KEPT) break;
      this.#walls.delete(old);
    }
    return wall;
  }

  #build(image, view) {
    const size = wallSize(view.width, view.height);
    const padded = { w: size.w + 2 * WALL_PAD_PX, h: size.h + 2 * WALL_PAD_PX };
    // The photo covers the tiny canvas (pad included), as it would cover the screen.
    const tiny = this.#make(padded.w, padded.h);
    const tinyCtx = tiny.getContext('2d');
    const crop = coverCrop(image.width, image.height, padded.w, padded.h);
    tinyCtx.drawImage(image, crop.sx, crop.sy, crop.sw, crop.sh, 0, 0, padded.w, padded.h);
    const blurred = this.#make(padded.w, padded.h);
    const blurredCtx = blurred.getContext('2d');
    if ('filter' in blurredCtx) {
      blurredCtx.filter = `blur(${WALL_BLUR_PX}px)`;
      blurredCtx.drawImage(tiny, 0, 0);
      blurredCtx.filter = 'none';
    } else {
      // No canvas filters (Safari): down to a few pixels and back up, smoothed, blurs as well.
      const few = this.#make(Math.max(1, Math.round(padded.w / 4)), Math.max(1, Math.round(padded.h / 4)));
      few.getContext('2d').drawImage(tiny, 0, 0, few.width, few.height);
      blurredCtx.imageSmoothingEnabled = true;
      blurredCtx.drawImage(few, 0, 0, padded.w, padded.h);
    }
    blurredCtx.fillStyle = WALL_DARKEN;
    blurredCtx.fillRect(0, 0, padded.w, padded.h);
    // Scaled up once, smoothed, to the screen's size: copied whole in each frame.
    const wall = this.#make(view.width, view.height);
    const wallCtx = wall.getContext('2d');
    wallCtx.imageSmoothingEnabled = true;
    if ('imageSmoothingQuality' in wallCtx) wallCtx.imageSmoothingQuality = 'high';
    wallCtx.drawImage(blurred, WALL_PAD_PX, WALL_PAD_PX, size.w, size.h, 0, 0, view.width, view.height);
    this.#built += 1;
    return typeof wall.transferToImageBitmap === 'function' ? wall.transferToImageBitmap() : wall;
  }
}

function copy(ctx, image) {
  ctx.globalCompositeOperation = 'copy';
  ctx.drawImage(image, 0, 0);
  ctx.globalCompositeOperation = 'source-over';
}
