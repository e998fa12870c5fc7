// Idle work (sprites, cached layers) in slices: made when the browser has nothing else to do, and
// never for long enough to hold up a gesture that starts meanwhile.

/** At most this much idle work at once (ms). */
export const IDLE_SLICE_MS = 12;
// The longest piece worth starting in an idle period (which lasts up to 50 ms when nothing is drawn).
const LONGEST_PIECE_MS = 45;
// An idle period this short is left alone.
const LEAST_IDLE_MS = 4;
// How long the work waits for idle time before it takes a slice anyway.
const IDLE_TIMEOUT_MS = 500;
// Where there is no requestIdleCallback (Safari): a timer and a shorter slice.
const TIMER_DELAY_MS = 100;
const TIMER_SLICE_MS = 8;

/**
 * Runs `work(hasTime)` when the browser is idle. `hasTime(ms)` says whether `ms` more of work fits
 * (the cost of the next piece, as long as the last one took): within the idle period, and within
 * IDLE_SLICE_MS in all, so that a gesture starting meanwhile waits at most about a frame. A piece
 * longer than that runs alone in a slice. A browser that finds no idle time for IDLE_TIMEOUT_MS
 * (something else keeps it busy: seen in a kiosk whose window was resized mid-motion, every later
 * idle callback came from the timeout with no time left) still gives the work a slice then: else
 * it would wait forever, and cards drawn coarse would never be drawn sharp.
 */
export function whenIdle(work, {
  requestIdle = globalThis.requestIdleCallback, setTimer = globalThis.setTimeout, now = () => performance.now(),
} = {}) {
  if (typeof requestIdle === 'function') {
    requestIdle((deadline) => {
      const started = now();
      let first = true;
      work((ms = 0) => {
        const idle = deadline.didTimeout || deadline.timeRemaining() > Math.max(LEAST_IDLE_MS, Math.min(ms, LONGEST_PIECE_MS));
        const fits = idle && (first || now() - started + ms <= IDLE_SLICE_MS);
        first = false;
        return fits;
      });
    }, { timeout: IDLE_TIMEOUT_MS });
  } else {
    setTimer(() => {
      const end = now() + TIMER_SLICE_MS;
      work(() => now() < end);
    }, TIMER_DELAY_MS);
  }
}
