// Idle work in slices: within the idle period and IDLE_SLICE_MS, and a slice anyway when the
// browser finds no idle time before the timeout.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { IDLE_SLICE_MS, whenIdle } from '../../Resources/web/idle.js';

// Runs whenIdle with a deadline of `remaining` ms (or a timed-out one) on a clock that each
// piece of work advances by `pieceMs`; answers how many pieces ran.
function piecesRun({ remaining = 50, didTimeout = false, pieceMs = 3, wanted = 20 }) {
  let clock = 0;
  let ran = 0;
  let asked = null;
  const requestIdle = (callback, options) => {
    asked = options;
    callback({ didTimeout, timeRemaining: () => Math.max(0, remaining - clock) });
  };
  whenIdle((hasTime) => {
    while (ran < wanted && hasTime(pieceMs)) {
      clock += pieceMs;
      ran += 1;
    }
  }, { requestIdle, now: () => clock });
  return { ran, asked };
}

describe('whenIdle', () => {
  test('works in the idle period, at most IDLE_SLICE_MS of it', () => {
    const { ran, asked } = piecesRun({ remaining: 50, pieceMs: 3 });
    assert.equal(ran, Math.floor(IDLE_SLICE_MS / 3));
    assert.ok(asked.timeout > 0, 'asked with a timeout');
  });

  test('a short idle period holds fewer pieces, and none when under 4 ms', () => {
    assert.equal(piecesRun({ remaining: 10, pieceMs: 3 }).ran, 2);
    assert.equal(piecesRun({ remaining: 3, pieceMs: 1 }).ran, 0);
  });

  test('a piece longer than a slice runs alone, when the idle period holds it', () => {
    assert.equal(piecesRun({ remaining: 50, pieceMs: 20 }).ran, 1);
    assert.equal(piecesRun({ remaining: 15, pieceMs: 20 }).ran, 0);
  });

  test('a callback the timeout brought, with no idle time left, still gets a slice', () => {
    // A browser that never idles (seen in a resized kiosk): else the work waits forever.
    assert.equal(piecesRun({ remaining: 0, didTimeout: true, pieceMs: 3 }).ran, Math.floor(IDLE_SLICE_MS / 3));
    assert.equal(piecesRun({ remaining: 0, didTimeout: true, pieceMs: 30 }).ran, 1, 'one long piece');
  });

  test('without requestIdleCallback, a timer and an 8 ms slice', () => {
    let clock = 0;
    let ran = 0;
    let delay = null;
    whenIdle((hasTime) => {
      while (hasTime()) {
        clock += 2;
        ran += 1;
      }
    }, { requestIdle: undefined, setTimer: (callback, ms) => { delay = ms; callback(); }, now: () => clock });
    assert.ok(delay > 0);
    assert.equal(ran, 4);
  });
});
