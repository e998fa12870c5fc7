// A second canvas over the page's, at a fraction of its resolution, for the frames of a motion too
// large to draw sharp in a frame without a GPU (Renderer.coarseFor: a style switch turns, moves
// and resizes every card). The renderer draws the backdrop and the cards on it; the browser
// scales it up as it composites, off the page's thread. It is opaque: the compositor need not
// blend it, nor draw the page's canvas hidden beneath it.

/** How fine the coarse canvas is, per side, against the page's: a quarter of the pixels. */
export const COARSE_ZOOM = 0.5;

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
