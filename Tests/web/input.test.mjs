// Pointer events as the samples the page sends (input.js).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { toSamples } from '../../Resources/web/input.js';

describe('toSamples', () => {
  const toStage = (x, y) => ({ x: x / 2, y: y / 2 });

  test('a move becomes its coalesced samples, each with its own time, in stage points', () => {
    const event = {
      pointerId: 3, clientX: 30, clientY: 40, timeStamp: 1003,
      getCoalescedEvents: () => [
        { clientX: 10, clientY: 20, timeStamp: 1001.123456 },
        { clientX: 30, clientY: 40, timeStamp: 1003 },
      ],
    };
    assert.deepEqual(toSamples('move', event, toStage), [
      { type: 'move', pointer: 3, x: 5, y: 10, t: 1001.12 },
      { type: 'move', pointer: 3, x: 15, y: 20, t: 1003 },
    ]);
  });

  test('without coalesced events (or an empty list) the event itself is the sample', () => {
    const base = { pointerId: 1, clientX: 101, clientY: 33.333, timeStamp: 50 };
    const expected = [{ type: 'move', pointer: 1, x: 50.5, y: 16.67, t: 50 }];
    assert.deepEqual(toSamples('move', base, toStage), expected);
    assert.deepEqual(toSamples('move', { ...base, getCoalescedEvents: () => [] }, toStage), expected);
  });

  test('down, up and cancel are single samples', () => {
    const event = { pointerId: 2, clientX: 2, clientY: 4, timeStamp: 9, getCoalescedEvents: () => [{}, {}] };
    assert.deepEqual(toSamples('down', event, toStage), [{ type: 'down', pointer: 2, x: 1, y: 2, t: 9 }]);
  });
});
