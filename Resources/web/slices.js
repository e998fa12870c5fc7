// Long idle work (a cached layer, a wall-sized sprite) cut into pieces that fit the slices idle time
// gives (idle.js: whenIdle), the next slice going on where the last one stopped. Each piece
// rasterises what it drew, so that its whole cost falls in its own slice: a pile's layer of ten
// turned cards, drawn whole, held one slice for 85 ms, and a gesture starting then waited as long.

// The fields that say two asks are for the same work: what is made, for which view, style and photos.
const JOB_FIELDS = ['kind', 'key', 'view', 'style', 'generation'];

/** Makes a canvas rasterise the drawing commands it has recorded (reading a pixel waits for them). */
export function rasterise(canvas) {
  if (canvas && canvas.width > 0 && canvas.height > 0) canvas.getContext('2d').getImageData(0, 0, 1, 1);
}

export class IdleSlices {
  // The work under way, a piece at a time, and how long its last piece took: the next one starts
  // only in a slice with that much time left.
  #building = null;
  #stepMs = 0;

  /**
   * Runs `makeSteps()` (a generator) a step at a time while `hasTime(ms)` says the slice has as
   * long as the last step took; the next call goes on where this one stopped, as long as it asks
   * for the same `job` ({kind, key, view, style, generation}). Answers the generator's result once
   * it is done, else null.
   */
  run(job, makeSteps, hasTime) {
    const current = this.#building;
    const same = current && JOB_FIELDS.every((field) => current[field] === job[field]);
    if (!same) this.#building = { ...job, steps: makeSteps() };
    const { steps } = this.#building;
    for (;;) {
      if (!hasTime(this.#stepMs)) return null;
      const started = performance.now();
      const { done, value } = steps.next();
      this.#stepMs = performance.now() - started;
      if (done) {
        this.#building = null;
        return value;
      }
    }
  }

  /** Runs `work()` as one piece if the slice has as long as the last piece took; whether it ran. */
  once(work, hasTime) {
    if (!hasTime(this.#stepMs)) return false;
    const started = performance.now();
    work();
    this.#stepMs = performance.now() - started;
    return true;
  }
}
