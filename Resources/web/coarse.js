// Coarse frames: a motion too large to draw sharp in a frame without a GPU (a style switch turns,
// moves and resizes every card) is drawn on a second canvas over the page's, at a fraction of its
// resolution; the browser scales it up as it composites, off the page's thread. It is opaque: the
// compositor need not blend it, nor draw the page's canvas hidden beneath it. CoarseMotion decides
// which frames are drawn so; the renderer draws the backdrop and the cards on the coarse canvas.

import { drawnRotation, isVisible } from './reach.js';
import { sameLook } from './runs.js';
import { spriteSizes } from './sprites.js';

/** How fine the coarse canvas is, per side, against the page's: a quarter of the pixels. */
export const COARSE_ZOOM = 0.5;
// A motion moving cards that cover more than this many screens is drawn coarse (CoarseMotion).
const COARSE_SCREENS = 2.5;
// A turned card costs a software canvas about this many times a straight one of its size.
const TURNED_COST = 3;

/** `view` (device pixels) at a coarse canvas' size: what its backdrop is drawn for. */
export function coarseView(view, zoom = COARSE_ZOOM) {
  return { ...view, width: Math.max(1, Math.ceil(view.width * zoom)), height: Math.max(1, Math.ceil(view.height * zoom)) };
}

export class CoarseCanvas {
  #canvas;
  #ctx;
  #shown = false;

  /** `stage`: the page's canvas, which the coarse one covers exactly. */
  constructor(stage, zoom = COARSE_ZOOM) {
    this.zoom = zoom;
    // Made now, hidden: added to the page in the first coarse frame it cost that frame a layout.
    this.#canvas = document.createElement('canvas');
    this.#canvas.id = 'coarse';
    this.#canvas.hidden = true;
    this.#canvas.setAttribute('aria-hidden', 'true');
    stage.after(this.#canvas);
    this.#ctx = this.#canvas.getContext('2d', { alpha: false });
  }

  /** Whether the last frame was drawn on it (it is shown). */
  get shown() {
    return this.#shown;
  }

  /** Its 2D context, sized for `view` (device pixels × zoom), shown from this frame on. */
  context(view) {
    const { width, height } = coarseView(view, this.zoom);
    if (this.#canvas.width !== width || this.#canvas.height !== height) {
      this.#canvas.width = width;
      this.#canvas.height = height;
    }
    this.#canvas.hidden = false;
    this.#shown = true;
    return this.#ctx;
  }

  /** Hidden from this frame on (the page's canvas shows the cards again). */
  hide() {
    if (!this.#shown) return;
    this.#canvas.hidden = true;
    this.#shown = false;
  }

  /** Waits for what was drawn on it to be rasterised (a frame-time measurement's). */
  flush() {
    if (this.#shown) this.#ctx.getImageData(0, 0, 1, 1);
  }
}

/** The cards of `entries` ([{card, transform}]) that an animation moves and that show. */
export function movingCards(entries) {
  return entries.filter(({ card, transform }) => card.anim && isVisible(transform));
}

/**
 * Whether `cards`, moving together, are too much to draw sharp in a frame: they cover more than
 * COARSE_SCREENS screens of `view`, each at the larger of the sizes it moves between, a turned
 * one counted TURNED_COST times (what drawing them costs, in straight pixels).
 */
export function tooLargeToDrawSharp(view, cards) {
  const p = view.dpr * view.fit.scale;
  const cover = cards.reduce((sum, { card, transform: t }) => {
    const { end, larger } = spriteSizes(card);
    const size = larger ?? end;
    const turned = drawnRotation(t, p, true) !== 0 ? TURNED_COST : 1;
    return sum + size.w * size.h * p * p * Math.abs(t.scaleX * t.scaleY) * turned;
  }, 0);
  return cover > COARSE_SCREENS * view.width * view.height;
}

/** Where the motion under way is, for coarse frames (CoarseMotion). */
const CoarseState = Object.freeze({
  /** Frames are drawn sharp. */
  SHARP: 'sharp',
  /** A motion too large to draw sharp moves its cards: drawn coarse until they all rest. */
  MOVING: 'moving',
  /** The cards stopped: the next frame draws them at rest, still coarse. */
  STOPPED: 'stopped',
  /** Drawn at rest, coarse: idle time draws the layers and sprites the sharp frame needs. */
  AT_REST: 'at rest',
  /** Idle time has made them: the next frame is drawn sharp. */
  READY: 'ready',
});

/**
 * Which frames are drawn coarse: from the frame a motion starts that is tooLargeToDrawSharp (a
 * style switch; a software canvas took 25–60 ms a frame over twelve photo-sized cards at
 * 1920×1080) until no card moves: a motion does not change resolution halfway. Once the cards
 * rest, they stay coarse until idle time has drawn the cached layers the sharp frame draws them
 * from (drawn afresh in that frame, twelve turned cards took 40 ms), unless a drag moves them.
 */
export class CoarseMotion {
  #state = CoarseState.SHARP;

  /** Whether the motion under way is drawn coarse. */
  get drawsCoarse() {
    return this.#state !== CoarseState.SHARP;
  }

  /** Whether the cards stopped and one more frame draws them at rest. */
  get wantsFrame() {
    return this.#state === CoarseState.STOPPED;
  }

  /** Whether cards come to rest drawn coarse wait for idle time to draw them sharp. */
  get sharpening() {
    return this.#state === CoarseState.AT_REST || this.#state === CoarseState.READY;
  }

  /**
   * Whether the frame of `entries` ([{card, transform}] in z order) is drawn coarse; `previous`:
   * the last frame's entries by card id (a card that moved since is dragged).
   */
  decide(view, entries, previous) {
    const moving = movingCards(entries);
    if (moving.length) {
      // Looked at in every frame (a spring turns the deck's cards halfway through their motion),
      // never back to sharp before the cards rest.
      if (this.#state === CoarseState.SHARP && !tooLargeToDrawSharp(view, moving)) return false;
      this.#state = CoarseState.MOVING;
      return true;
    }
    switch (this.#state) {
      case CoarseState.SHARP:
        return false;
      case CoarseState.MOVING:
        this.#state = CoarseState.STOPPED;
        return true;
      case CoarseState.STOPPED:
        return true;
      default: {
        const dragged = entries.some((entry) => !sameLook(entry, previous.get(entry.card.id)));
        if (!dragged && this.#state === CoarseState.AT_REST) return true;
        this.#state = CoarseState.SHARP;
        return false;
      }
    }
  }

  /** A coarse frame drew every card at rest: idle time is to make what the sharp frame draws. */
  drewAtRest() {
    if (this.#state === CoarseState.MOVING || this.#state === CoarseState.STOPPED) this.#state = CoarseState.AT_REST;
  }

  /**
   * Idle time has made everything the sharp frame draws the cards at rest from; or the cards have
   * waited long enough for it (Renderer.sharpenNow): the next frame is drawn sharp either way.
   */
  warmed() {
    if (this.sharpening) this.#state = CoarseState.READY;
  }
}
