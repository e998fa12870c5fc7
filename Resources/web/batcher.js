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

/** The body of `POST /api/rooms/{room}/pointer`. */
export function pointerBody(viewer, events) {
  return { viewer, events };
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
