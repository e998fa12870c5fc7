// The page's read-only `window.stackweb` hook: what the end-to-end tests and benchmarks read of
// the page (`state()`, `drawnFrames`), and, only on a page opened with ?debug=1, the probes and
// test seams of debug.js. main.js hands it the page's state through accessors; nothing here
// changes the page but through the seams main.js gives it.

import { cardsAt, isAnimating } from './scene.js';

/**
 * What `state()` answers: copies of the scene's room and of its cards as drawn at `now` (in
 * position order), with the page's own state beside them, so the hook cannot change the page.
 */
export function pageState(scene, now, page) {
  const cards = cardsAt(scene, now)
    .map(({ card, transform }) => ({
      id: card.id, photo: card.photo, src: card.src, position: card.position, z: card.z,
      highlight: card.highlight, animating: isAnimating(card, now), ...transform,
    }))
    .sort((a, b) => a.position - b.position);
  const { seq, style, count, current, playing, asleep, viewers, heldBy } = scene;
  const stage = scene.stage ? { ...scene.stage } : null;
  const shape = scene.shape?.name ?? null;
  const { room, viewer, connected, coarse, kiosk, wakeLock, reducedMotion } = page;
  return {
    room, viewer, connected, seq, style, stage, shape, count, current, playing, asleep, viewers, heldBy,
    cards,
    coarse,
    kiosk, wakeLock, reducedMotion,
  };
}

/**
 * The frozen hook. `state()` and `drawnFrames()` always; with `debug` (a page opened with
 * ?debug=1), also:
 * - `addSyntheticCards(n)` draws n more cards under the server's (for frame-time measurements);
 * - `showScene(snapshot)` shows a scene as if the server had sent it (for styles and flips the
 *   server cannot show yet);
 * - `recordFrames(options)` starts recording drawn frames (with {flush: true} each frame's time
 *   includes rasterising); `stopRecordingFrames()` answers the summary (FrameRecorder.stats),
 *   `recordedFrames()` every frame recorded since: [{timestamp, drawMs, cards}];
 * - `renderCounters()`: how many card sprites and cached layers the renderer has drawn so far;
 * - `scheduled()`: what the page has asked to do later — a frame, idle work (sprites, layers), work
 *   between the frames of a motion, an animation's next frame, a sharp frame — and whether cards
 *   are drawn coarse. All false: an idle page that does nothing until something happens;
 * - `trackCard(id)` records where that card is drawn in every frame from now on; `trackedRects()`
 *   answers [{left, top, right, bottom}] in CSS pixels of the canvas (which covers the window).
 */
export function createDebugHook({ state, drawnFrames, debug, probe, meter, scheduled, addSyntheticCards, showScene }) {
  const hook = {
    state,
    get drawnFrames() {
      return drawnFrames();
    },
  };
  if (debug) {
    hook.addSyntheticCards = addSyntheticCards;
    hook.recordFrames = (options) => meter.start(options);
    hook.stopRecordingFrames = () => meter.stop();
    hook.recordedFrames = () => meter.frames();
    hook.renderCounters = () => probe.counters;
    hook.scheduled = scheduled;
    hook.trackCard = (id) => probe.track(id);
    hook.trackedRects = () => probe.trackedRects();
    hook.showScene = showScene;
  }
  return Object.freeze(hook);
}
