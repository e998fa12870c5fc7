// Kiosk mode's cursor and wake lock, with fakes for the browser.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

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
