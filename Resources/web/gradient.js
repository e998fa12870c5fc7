// The usual backdrop under the cards: a soft radial gradient (kiosk mode's photo wall, backdrop.js,
// falls back to it).

import { makeCanvas } from './canvas.js';

const BACKGROUND_CENTRE = '#4a4541';
const BACKGROUND_EDGE = '#1d1b1a';
// The gradient's sizes kept: the page's canvas and the coarse one.
const GRADIENTS_KEPT = 2;

// A soft radial background for a canvas of `width`×`height` device pixels.
function makeBackground(ctx, width, height) {
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
 * Two sizes are kept: the page's canvas and the coarse one (coarse.js).
 */
export class GradientBackdrop {
  #make;
  #canvases = new Map();

  constructor(make = makeCanvas) {
    this.#make = make;
  }

  /** It paints the same pixels every frame: a frame may repaint only the part that changed. */
  get static() {
    return true;
  }

  /** Paints the whole of `ctx`'s canvas (`view.width`×`view.height` device pixels). */
  draw(ctx, view) {
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.globalAlpha = 1;
    // A straight copy: the backdrop is opaque, so there is nothing to blend.
    ctx.globalCompositeOperation = 'copy';
    ctx.drawImage(this.#canvasFor(view), 0, 0);
    ctx.globalCompositeOperation = 'source-over';
    return false;
  }

  /** Paints the gradient for `view`'s size ahead of its first frame (idle time's). */
  prepare(view) {
    this.#canvasFor(view);
  }

  #canvasFor(view) {
    const key = `${view.width}x${view.height}`;
    const kept = this.#canvases.get(key);
    if (kept) return kept;
    const canvas = this.#make(view.width, view.height);
    const own = canvas.getContext('2d');
    own.fillStyle = makeBackground(own, view.width, view.height);
    own.fillRect(0, 0, view.width, view.height);
    // An ImageBitmap where there is one: painted now (in idle time when prepared), and drawn
    // without the snapshot a canvas' first draw takes (3 ms at 960×540).
    const image = typeof canvas.transferToImageBitmap === 'function' ? canvas.transferToImageBitmap() : canvas;
    if (this.#canvases.size >= GRADIENTS_KEPT) this.#canvases.delete(this.#canvases.keys().next().value);
    this.#canvases.set(key, image);
    return image;
  }
}
