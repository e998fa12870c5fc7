// What drawing cards needs to know for one frame (or one piece of work between frames): the look,
// where stage points land in device pixels, the caches, and what the frame learns as it draws.
// Made afresh for each, so nothing a frame learns leaks into the next one by accident.

import { lookFor } from './look.js';

export class Painter {
  /**
   * `view` {dpr, fit} as for Renderer.draw, `style` the room's; `images`, `sprites` and `make`
   * the renderer's. `atRest`: no card moves in this frame (a stand-in sprite may serve,
   * sprite-choice.js); `coarse`: the frame is drawn coarse (coarse.js); `photoFit` 'cover' crops
   * every photo to its card (look.js).
   */
  constructor(view, style, { images, sprites, make }, { atRest = false, coarse = false, photoFit = null } = {}) {
    this.look = lookFor(style, photoFit);
    this.lookName = style ?? 'pile';
    this.images = images;
    this.sprites = sprites;
    this.make = make;
    this.pointToDevice = view.dpr * view.fit.scale;
    this.originX = view.dpr * view.fit.x;
    this.originY = view.dpr * view.fit.y;
    this.atRest = atRest;
    this.coarse = coarse;
    /** Ids of cards drawn unfiltered or straighter than they are: repainted when they rest. */
    this.rough = new Set();
    /** Ids of cards drawn with a placeholder while their photo loads. */
    this.pending = new Set();
    /** Ids of cards drawn from another size's or style's sprite (sprite-choice.js: standIn). */
    this.standIns = new Set();
    /** Milliseconds spent making sprites so far. */
    this.spriteMs = 0;
    /** Coarse copies of sprites made so far. */
    this.coarseMade = 0;
  }
}
