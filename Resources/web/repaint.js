// Which part of the page's canvas a frame repaints: the union of where the cards that changed were
// and are (a software canvas pays for every pixel drawn), or all of it when the last frame is not
// what the canvas shows, or the view, the style or the cards' order changed.

import { cardReach, clippedUnion, isVisible } from './reach.js';
import { isStill } from './runs.js';

// What must be as in the last frame for a frame to repaint only a part: the view, the style and
// the cards' order (a card raised or lowered without moving changes pixels wherever it overlaps
// another).
function frameKey(view, style, entries) {
  return `${view.width}x${view.height}@${view.dpr}|${view.fit.scale},${view.fit.x},${view.fit.y}|${style}|`
    + entries.map((entry) => entry.card.id).join(',');
}

/**
 * The device pixels that differ from the last frame (`previous`: its entries by card id; `pending`
 * and `rough`: its cards drawn with a placeholder, and unfiltered or straighter than they are):
 * where each card that moved, changed, came or went was and is now ({x, y, w, h}; w 0 when
 * nothing changed).
 */
function dirtyBox(painter, view, entries, { previous, pending, rough }) {
  const boxes = [];
  const seen = new Set();
  for (const entry of entries) {
    const before = previous.get(entry.card.id);
    seen.add(entry.card.id);
    if (isStill(entry, previous, pending) && !rough.has(entry.card.id)) continue;
    if (isVisible(entry.transform)) boxes.push(cardReach(painter, entry.transform));
    if (before && isVisible(before.transform)) boxes.push(cardReach(painter, before.transform));
  }
  for (const [id, before] of previous) {
    if (!seen.has(id) && isVisible(before.transform)) boxes.push(cardReach(painter, before.transform));
  }
  return clippedUnion(boxes, view.width, view.height) ?? { x: 0, y: 0, w: 0, h: 0 };
}

/** What the page's canvas shows, from frame to frame. */
export class RepaintTracker {
  // The key (frameKey) of the last frame drawn on the page's canvas, and whether the canvas still
  // shows it (false after anything that changes pixels of cards that did not move).
  #lastKey = null;
  #canRepaintPart = false;
  #lastDirty = null;
  // The last frame's cards drawn unfiltered (card.js: samplesNearest): repainted when they rest.
  #rough = new Set();

  /** The next frame repaints the whole canvas (something else drew on it, a photo arrived). */
  repaintAll() {
    this.#canRepaintPart = false;
  }

  /**
   * The part ({x, y, w, h}, whole device pixels) a frame drawn with `painter` on the page's canvas
   * repaints, or null for all of it: a part only when `partial` (the caller's: nothing else draws
   * on the canvas, its backdrop paints the same pixels in every frame). `last`: {previous,
   * pending}, the last frame's (dirtyBox).
   */
  sharpFrame(painter, view, style, entries, last, partial) {
    const key = frameKey(view, style, entries);
    const dirty = partial && this.#canRepaintPart && key === this.#lastKey
      ? dirtyBox(painter, view, entries, { ...last, rough: this.#rough }) : null;
    this.#lastKey = key;
    this.#canRepaintPart = true;
    this.#lastDirty = dirty;
    this.#rough = painter.rough;
    return dirty;
  }

  /** A frame drawn with `painter` on the coarse canvas: the page's no longer shows the cards where they are. */
  coarseFrame(painter) {
    this.#lastKey = null;
    this.#canRepaintPart = false;
    this.#lastDirty = null;
    this.#rough = painter.rough;
  }

  /** The part of the last frame repainted ({x, y, w, h} device pixels), or null when all was (tests). */
  get lastDirty() {
    return this.#lastDirty ? { ...this.#lastDirty } : null;
  }
}
