// The page's frame loop (frame-loop.js): a frame only when something asks for one, one frame for
// any number of asks, none at rest, and the pointer samples handed over first in every frame.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';

import { createFrameLoop } from '../../Resources/web/frame-loop.js';
import { emptyScene } from '../../Resources/web/scene.js';
import { recordingContext } from './support/canvas-fakes.mjs';

let frames = [];
beforeEach(() => {
  frames = [];
  globalThis.requestAnimationFrame = (callback) => frames.push(callback);
  // Idle work waits for a callback the test never runs: these tests are about frames.
  globalThis.requestIdleCallback = () => {};
});
afterEach(() => {
  delete globalThis.requestAnimationFrame;
  delete globalThis.requestIdleCallback;
});

function loop(log, scene = { ...emptyScene(), asleep: true }) {
  let current = scene;
  const made = createFrameLoop({
    ctx: recordingContext('main', log),
    renderer: { wantsFrame: false, sharpening: false, repaintAll: () => log.push(['repaintAll']) },
    images: {}, backdrop: {}, player: {}, meter: null,
    coarse: { hide: () => {}, shown: false, flush: () => {} },
    params: { caption: [], clock: false, kiosk: false, fit: 'contain' },
    serverNow: () => 1000,
    getScene: () => current,
    setScene: (next) => {
      current = next;
    },
    beforeFrame: () => log.push(['beforeFrame']),
  });
  made.setView({ width: 800, height: 600, cssWidth: 800, cssHeight: 600, dpr: 1, fit: null });
  return made;
}

describe('frame loop', () => {
  test('any number of asks before a frame make one frame, drawn once; at rest it asks for no more', () => {
    const log = [];
    const frameLoop = loop(log);
    frameLoop.invalidate();
    frameLoop.invalidate();
    frameLoop.requestFrame();
    assert.equal(frames.length, 1);
    assert.equal(frameLoop.scheduled().frame, true);
    frames.shift()(16);
    assert.equal(frameLoop.drawnFrames, 1);
    assert.equal(frames.length, 0);
    assert.equal(frameLoop.scheduled().frame, false);
    assert.deepEqual(log[0], ['beforeFrame']);
    // Nothing changed: a frame asked for draws nothing.
    frameLoop.requestFrame();
    frames.shift()(32);
    assert.equal(frameLoop.drawnFrames, 1);
  });
});
