// A photo frame (?kiosk=1): the cursor leaves the picture when the mouse rests, and the screen
// stays on. Browser objects come in as arguments, so node tests can pass fakes.

export const CURSOR_IDLE_MS = 3000;

// What counts as a person doing something, for the controls: a pointer, a key, a touch, a wheel.
export const ACTIVITY_EVENTS = Object.freeze(['pointermove', 'pointerdown', 'keydown', 'touchstart', 'wheel']);

/**
 * Adds `className` to `root` once the pointer has been still over `target` for `idleMs`, and
 * takes it off at the next movement or press (or whichever `events` are given). Returns a function
 * that stops watching.
 */
export function hideIdleCursor(target, root, {
  idleMs = CURSOR_IDLE_MS, className = 'cursor-hidden', setTimer = setTimeout, clearTimer = clearTimeout,
  events = ['pointermove', 'pointerdown'],
} = {}) {
  let timer = 0;
  const restart = () => {
    root.classList.remove(className);
    clearTimer(timer);
    timer = setTimer(() => root.classList.add(className), idleMs);
  };
  for (const type of events) target.addEventListener(type, restart, { passive: true });
  restart();
  return () => {
    clearTimer(timer);
    for (const type of events) target.removeEventListener(type, restart, { passive: true });
    root.classList.remove(className);
  };
}

/**
 * Keeps a Screen Wake Lock while the page is visible. The browser drops the lock whenever the page
 * is hidden, so it is asked for again each time the page shows. `onState` hears 'held',
 * 'released', 'unsupported' or 'refused: <reason>'; a browser without the API, or one that says
 * no (headless, battery saver, no permission), is not an error: the frame then sleeps as the
 * device is set to.
 */
export function holdWakeLock(wakeLock, doc, onState = () => {}) {
  if (typeof wakeLock?.request !== 'function') {
    onState('unsupported');
    return;
  }
  let sentinel = null;
  let asking = false;
  const acquire = async () => {
    if (doc.visibilityState !== 'visible' || sentinel || asking) return;
    asking = true;
    try {
      sentinel = await wakeLock.request('screen');
      sentinel.addEventListener?.('release', () => {
        sentinel = null;
        onState('released');
      });
      onState('held');
    } catch (error) {
      onState(`refused: ${error?.name ?? error}`);
    } finally {
      asking = false;
    }
  };
  doc.addEventListener('visibilitychange', acquire);
  acquire();
}
