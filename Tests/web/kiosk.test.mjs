// Kiosk mode's cursor and wake lock, and the frame-time tools, with fakes for the browser.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { FrameRecorder, percentile, syntheticCards } from '../../Resources/web/debug.js';
import { ACTIVITY_EVENTS, CURSOR_IDLE_MS, hideIdleCursor, holdWakeLock } from '../../Resources/web/kiosk.js';

function fakeTimers() {
  let now = 0;
  let next = 1;
  const pending = new Map();
  return {
    setTimer: (fn, ms) => { pending.set(next, { fn, at: now + ms }); return next++; },
    clearTimer: (id) => pending.delete(id),
    advance(ms) {
      now += ms;
      for (const [id, timer] of [...pending]) {
        if (timer.at <= now) {
          pending.delete(id);
          timer.fn();
        }
      }
    },
  };
}

const fakeRoot = () => {
  const classes = new Set();
  return {
    classList: { add: (c) => classes.add(c), remove: (c) => classes.delete(c) },
    hidden: () => classes.has('cursor-hidden'),
  };
};

describe('hideIdleCursor', () => {
  test('the controls fade after 3 s without input and come back on a key, a touch or a wheel', () => {
    const timers = fakeTimers();
    const target = new EventTarget();
    const classes = new Set();
    const root = { classList: { add: (c) => classes.add(c), remove: (c) => classes.delete(c) } };
    hideIdleCursor(target, root, { ...timers, className: 'controls-idle', events: ACTIVITY_EVENTS });
    timers.advance(3000);
    assert.ok(classes.has('controls-idle'));
    for (const type of ['keydown', 'touchstart', 'wheel', 'pointermove']) {
      target.dispatchEvent(new Event(type));
      assert.ok(!classes.has('controls-idle'), `${type} shows the controls`);
      timers.advance(3000);
      assert.ok(classes.has('controls-idle'));
    }
  });

  test('hides after 3 s still, shows at the next move, hides again later', () => {
    const timers = fakeTimers();
    const target = new EventTarget();
    const root = fakeRoot();
    hideIdleCursor(target, root, timers);
    assert.equal(CURSOR_IDLE_MS, 3000);
    timers.advance(2999);
    assert.equal(root.hidden(), false);
    timers.advance(1);
    assert.equal(root.hidden(), true);
    target.dispatchEvent(new Event('pointermove'));
    assert.equal(root.hidden(), false);
    timers.advance(2000);
    target.dispatchEvent(new Event('pointerdown'));
    timers.advance(2000);
    assert.equal(root.hidden(), false, 'each movement restarts the wait');
    timers.advance(1000);
    assert.equal(root.hidden(), true);
  });

  test('stopping shows the cursor and stops listening', () => {
    const timers = fakeTimers();
    const target = new EventTarget();
    const root = fakeRoot();
    const stop = hideIdleCursor(target, root, timers);
    timers.advance(3000);
    stop();
    assert.equal(root.hidden(), false);
    target.dispatchEvent(new Event('pointermove'));
    timers.advance(5000);
    assert.equal(root.hidden(), false);
  });
});

describe('holdWakeLock', () => {
  const tick = () => new Promise((resolve) => setImmediate(resolve));
  const fakeDocument = () => Object.assign(new EventTarget(), { visibilityState: 'visible' });

  test('a browser without the API is told apart, quietly', () => {
    const states = [];
    holdWakeLock(undefined, fakeDocument(), (state) => states.push(state));
    assert.deepEqual(states, ['unsupported']);
  });

  test('a refusal is reported, not thrown', async () => {
    const states = [];
    const wakeLock = { request: async () => { throw Object.assign(new Error('no'), { name: 'NotAllowedError' }); } };
    holdWakeLock(wakeLock, fakeDocument(), (state) => states.push(state));
    await tick();
    assert.deepEqual(states, ['refused: NotAllowedError']);
  });

  test('held while visible, asked for again when the page shows after being hidden', async () => {
    const states = [];
    const sentinels = [];
    const wakeLock = {
      request: async (type) => {
        assert.equal(type, 'screen');
        const sentinel = new EventTarget();
        sentinels.push(sentinel);
        return sentinel;
      },
    };
    const doc = fakeDocument();
    holdWakeLock(wakeLock, doc, (state) => states.push(state));
    await tick();
    assert.deepEqual(states, ['held']);
    doc.visibilityState = 'hidden';
    sentinels[0].dispatchEvent(new Event('release'));
    doc.dispatchEvent(new Event('visibilitychange'));
    await tick();
    assert.equal(sentinels.length, 1, 'not asked for while hidden');
    doc.visibilityState = 'visible';
    doc.dispatchEvent(new Event('visibilitychange'));
    doc.dispatchEvent(new Event('visibilitychange'));
    await tick();
    assert.equal(sentinels.length, 2, 'asked for once more');
    assert.deepEqual(states, ['held', 'released', 'held']);
  });
});

describe('frame times', () => {
  test('percentile is nearest-rank', () => {
    const values = [5, 1, 4, 2, 3, 10, 9, 8, 7, 6];
    assert.equal(percentile(values, 50), 5);
    assert.equal(percentile(values, 99), 10);
    assert.equal(percentile(values, 0), 1);
    assert.ok(Number.isNaN(percentile([], 50)));
  });

  test('the recorder keeps frames only while recording and summarises them', () => {
    const recorder = new FrameRecorder();
    recorder.record(0, 1, 100);
    recorder.start();
    [[1000, 2, 110], [1016.7, 3, 110], [1033.4, 4, 105], [1066.8, 9, 110]].forEach((f) => recorder.record(...f));
    const stats = recorder.stop();
    recorder.record(2000, 50, 1);
    assert.deepEqual(stats, {
      frames: 4, cards: 105, intervalP50: 16.7, intervalP99: 33.4, drawP50: 3, drawP99: 9, drawMax: 9,
    });
    assert.deepEqual(recorder.stats(), stats);
  });

  test('synthetic cards sit under the real ones, deterministic, photos in turn', () => {
    const template = { x: 512, y: 384, w: 300, h: 200 };
    const cards = syntheticCards(100, template, ['/photos/a', '/photos/b'], 3);
    assert.equal(cards.length, 100);
    assert.equal(new Set(cards.map((c) => c.id)).size, 100);
    assert.ok(cards.every((c) => c.z < 3 && c.w === 300 && Math.abs(c.rotation) <= (4 * Math.PI) / 180));
    assert.deepEqual(cards.slice(0, 3).map((c) => c.src), ['/photos/a', '/photos/b', '/photos/a']);
    assert.deepEqual(syntheticCards(100, template, ['/photos/a'], 3).map((c) => c.x), cards.map((c) => c.x));
  });
});
