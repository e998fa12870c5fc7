// The page's frames: one requestAnimationFrame loop that draws the scene when something changed
// or moves, and the work around it — sprites made in idle time at rest and between the frames of
// a motion, a coarse motion's sharp frame in time, an animated front photo's next frame. Frames are
// requested only when there is something to do (a message, a decoded photo, a resize, an
// animation, pointer samples to send), so an idle page does no work at all.

import { coarseView } from './coarse.js';
import { whenIdle } from './idle.js';
import { shownCaption } from './messages.js';
import { clockText, drawAsleep, drawOverlays } from './overlay.js';
import { anyAnimating, cardsAt, settle } from './scene.js';
import { fitStage } from './stage.js';

// Idle work (sprites, layer copies) waits until nothing has been drawn for this long.
const REST_BEFORE_IDLE_WORK_MS = 250;
// Cards come to rest drawn coarse are drawn sharp once idle time has made what that needs, and at
// the latest this long after: a browser kept busy (frames asked for by other work, a loaded
// machine) gives idle work one 12-ms slice every 500 ms, and a style switch's sprites and layers
// took tens of them: the page stayed at half resolution for 10 s and more.
const SHARP_AFTER_REST_MS = 400;

/**
 * The loop over `ctx` (the stage's opaque 2D context) and `coarse` (the coarse canvas above it).
 * `getScene`/`setScene` read and write the page's scene (a frame settles finished motions);
 * `beforeFrame` runs first in every frame (the pointer samples of the frame are sent). `meter`
 * (null but with ?debug=1) times frames. `view` is set by `setView` as the canvas is laid out.
 */
export function createFrameLoop({
  ctx, renderer, images, backdrop, coarse, player, meter, params, serverNow, getScene, setScene, beforeFrame,
}) {
  let view = null;
  let dirty = true;
  let frameRequested = false;
  let drawnFrames = 0;
  let animationTimer = null;

  function invalidate() {
    dirty = true;
    requestFrame();
  }

  function requestFrame() {
    if (frameRequested) return;
    frameRequested = true;
    requestAnimationFrame(frame);
  }

  function frame(timestamp) {
    frameRequested = false;
    beforeFrame();
    const now = serverNow();
    const scene = getScene();
    const settled = settle(scene, now);
    if (settled !== scene) {
      setScene(settled);
      dirty = true;
    }
    const animating = anyAnimating(getScene(), now) || Boolean(backdrop.busy?.(performance.now()));
    if (!dirty && !animating) return;
    dirty = false;
    draw(now, timestamp);
    if (animating || renderer.wantsFrame) {
      dirty = dirty || renderer.wantsFrame;
      requestFrame();
      if (animating) warmEndsBetweenFrames();
    } else {
      warmWhenIdle();
    }
  }

  // At rest, the sprites the next motion will want are made in idle time, a few at a time. Not
  // between the frames of a drag (it sends plain transforms, no animation): only once nothing has
  // been drawn for a moment.
  let warmAsked = false;
  let lastDrawAt = 0;
  function warmWhenIdle() {
    if (warmAsked || getScene().asleep) return;
    warmAsked = true;
    whenIdle((hasTime) => {
      const now = serverNow();
      const scene = getScene();
      if (anyAnimating(scene, now)) {
        warmAsked = false;
        return;
      }
      // Cards come to rest drawn coarse are drawn sharp as soon as idle time has made their layers.
      if (!renderer.sharpening && performance.now() - lastDrawAt < REST_BEFORE_IDLE_WORK_MS) {
        // Still asked meanwhile: what the page has scheduled (the debug hook's `scheduled`).
        setTimeout(() => {
          warmAsked = false;
          warmWhenIdle();
        }, REST_BEFORE_IDLE_WORK_MS);
        return;
      }
      warmAsked = false;
      const done = renderer.warm(view, cardsAt(scene, now), { style: scene.style, images, hasTime });
      // The backdrop at the coarse canvas' size, which a motion's first coarse frame would paint
      // (a gradient at 960×540 took 8–10 ms).
      if (done && view) backdrop.prepare?.(coarseView(view, coarse.zoom));
      if (!done) warmWhenIdle();
      else if (renderer.takeRedraw()) invalidate();
    });
  }

  // During a motion, the sprites of the sizes cards will rest at are made in the time left between
  // frames (never forced in: no timeout), so that the motion's last frame does not make them.
  let endsAsked = false;
  function warmEndsBetweenFrames() {
    if (endsAsked || typeof requestIdleCallback !== 'function') return;
    endsAsked = true;
    requestIdleCallback((deadline) => {
      endsAsked = false;
      const now = serverNow();
      const scene = getScene();
      if (!anyAnimating(scene, now)) return;
      const hasTime = (ms = 0) => deadline.timeRemaining() > Math.max(4, ms);
      if (!renderer.warmEnds(view, cardsAt(scene, now), { style: scene.style, images, hasTime })) warmEndsBetweenFrames();
    });
  }

  function draw(now, timestamp) {
    const scene = getScene();
    view.fit = fitStage(view.cssWidth, view.cssHeight, scene.stage?.w, scene.stage?.h);
    meter?.frameStarted();
    let cards = 0;
    if (scene.asleep) {
      // Dark until the schedule ends: no card is drawn, so no photo is fetched.
      drawAsleep(ctx, view);
      coarse.hide();
      renderer.repaintAll();
    } else {
      const entries = cardsAt(scene, now);
      const pageNow = performance.now();
      backdrop.show?.(frontEntry(entries)?.card.src ?? null, pageNow);
      // Only where cards moved, unless something else draws on the canvas (captions, the clock).
      const partial = !(params.caption.length || params.clock);
      if (partial && renderer.coarseFor(view, entries)) {
        // Backdrop and cards, coarse, over the page's canvas (left as it was).
        cards = renderer.drawCoarse(coarse.context(view), view, entries, {
          style: scene.style, images, zoom: coarse.zoom, backdrop, now: pageNow,
        });
        sharpenInTime();
      } else {
        cards = renderer.draw(ctx, view, entries, { style: scene.style, images, backdrop, now: pageNow, partial });
        coarse.hide();
        playAnimation(entries, pageNow);
      }
      if (params.caption.length || params.clock) drawOverlays(ctx, view, overlays(entries));
    }
    meter?.frameDrawn(timestamp, cards, waitForDrawnPixels);
    drawnFrames += 1;
    lastDrawAt = performance.now();
  }

  // Once the cards rest drawn coarse, the sharp frame comes by SHARP_AFTER_REST_MS at the latest.
  let sharpTimer = null;
  function sharpenInTime() {
    if (sharpTimer !== null || !renderer.sharpening) return;
    sharpTimer = setTimeout(() => {
      sharpTimer = null;
      if (!renderer.sharpening) return;
      renderer.sharpenNow();
      invalidate();
    }, SHARP_AFTER_REST_MS);
  }

  // The front photo's current frame over its card, if it is an animation; a frame again when the
  // next one is due.
  function playAnimation(entries, pageNow) {
    const nextMs = player.draw(ctx, view, entries, { style: getScene().style, images, now: pageNow, photoFit: params.fit });
    if (nextMs === null || animationTimer !== null) return;
    animationTimer = setTimeout(() => {
      animationTimer = null;
      invalidate();
    }, nextMs);
  }

  // Only a canvas drawn on: reading the stage in a coarse frame would make the browser hand its
  // pixels to the compositor again (3–5 ms at 1920×1080), which the page never does.
  function waitForDrawnPixels() {
    if (!coarse.shown) ctx.getImageData(0, 0, 1, 1);
    coarse.flush();
  }

  // The front card: at position 0, and not one fading out of the stack.
  function frontEntry(entries) {
    return entries.find(({ card }) => card.position === 0 && card.anim?.to?.opacity !== 0);
  }

  // The caption of the photos shown (both of a pair) and the time, as asked for.
  function overlays(entries) {
    const front = frontEntry(entries);
    const text = front && params.caption.length ? shownCaption(getScene(), params.caption) : '';
    return {
      caption: text ? { text, transform: front.transform } : null,
      clock: params.clock ? clockText(new Date()) : null,
      kiosk: params.kiosk,
    };
  }

  return {
    invalidate,
    requestFrame,
    setView(next) {
      view = next;
    },
    get drawnFrames() {
      return drawnFrames;
    },
    /** What the loop has asked to do later (the debug hook's `scheduled`). */
    scheduled: () => ({
      frame: frameRequested, idleWork: warmAsked, betweenFrames: endsAsked, coarse: coarse.shown,
      animation: animationTimer !== null, sharpening: sharpTimer !== null,
    }),
  };
}
