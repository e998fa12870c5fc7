// Pointer samples to POST bodies. Moves wait for the next animation frame so a fast pointer costs
// one request per frame; down, up and cancel change what a gesture is, so they leave at once,
// behind the moves that came before them.

const IMMEDIATE = new Set(['down', 'up', 'cancel']);

/** Collects samples between frames; `add` and `takeFrame` hand out what is due, in order. */
export class PointerBatcher {
  #pending = [];

  /** Queues a sample; returns every pending sample if this one must go now, else null. */
  add(sample) {
    this.#pending.push(sample);
    return IMMEDIATE.has(sample.type) ? this.#takeAll() : null;
  }

  /** The samples gathered since the last flush, or null when there are none. */
  takeFrame() {
    return this.#pending.length ? this.#takeAll() : null;
  }

  get hasPending() {
    return this.#pending.length > 0;
  }

  #takeAll() {
    const events = this.#pending;
    this.#pending = [];
    return events;
  }
}

/**
 * Numbers each pointer's samples 1, 2, 3, … (`seq`), so the server can tell a lost or reordered
 * batch. Touch pointers get a new id for every touch, so only the `limit` most recently used
 * pointers are remembered (one forgotten and seen again starts from 1 again).
 */
export class PointerSequence {
  #last = new Map();
  #limit;

  constructor(limit = 64) {
    this.#limit = limit;
  }

  /** `sample` with its pointer's next sequence number. */
  stamp(sample) {
    const seq = (this.#last.get(sample.pointer) ?? 0) + 1;
    // Re-inserted so that the Map's order is least recently used first.
    this.#last.delete(sample.pointer);
    this.#last.set(sample.pointer, seq);
    if (this.#last.size > this.#limit) this.#last.delete(this.#last.keys().next().value);
    return { ...sample, seq };
  }
}

/**
 * The body of `POST /api/rooms/{room}/pointer`. `scale` is the page's CSS pixels per stage point:
 * the server holds a flick's thresholds in pixels too, so that a phone (0.38) springs back where a
 * laptop does. Left out when unknown.
 */
export function pointerBody(viewer, events, scale = null) {
  return scale > 0 && Number.isFinite(scale) ? { viewer, scale: Math.round(scale * 1000) / 1000, events } : { viewer, events };
}

/**
 * Sends event batches one request at a time. Two requests in flight could reach the server in
 * either order (the browser may use two connections), and a move applied before its down would
 * break the gesture; so while one is in flight, later batches wait and leave together, in order.
 * `post(events)` returns a promise; its failure is reported to `onError` and does not stop the queue.
 */
export function createOrderedSender(post, onError = () => {}) {
  let queued = [];
  let inFlight = false;

  async function drain() {
    inFlight = true;
    while (queued.length) {
      const events = queued;
      queued = [];
      try {
        await post(events);
      } catch (error) {
        onError(error);
      }
    }
    inFlight = false;
  }

  return function send(events) {
    queued.push(...events);
    if (!inFlight) drain();
  };
}
