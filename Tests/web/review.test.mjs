// The review queue's pure parts: what the badge says, how often the queue is asked for, how a
// waiting photo is named.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import {
  POLL_CLOSED_MS, POLL_MAX_MS, POLL_OPEN_MS, arrivedAt, badgeState, itemLabel, nextPoll, readQueue,
} from '../../Resources/web/review.js';

describe('readQueue', () => {
  test('keeps well-formed entries in order and says whether the room reviews', () => {
    const queue = readQueue({
      mode: 'review',
      uploads: [{ id: 'pa', name: 'a.jpg', bytes: 3, from: 'Anna' }, { id: 7 }, null, { id: 'pb', name: 'b.jpg', from: 4 }],
    });
    assert.deepEqual(queue, {
      review: true, uploads: [{ id: 'pa', name: 'a.jpg', from: 'Anna' }, { id: 'pb', name: 'b.jpg' }],
    });
  });

  test('an open room, or an answer of another shape, is no review', () => {
    assert.deepEqual(readQueue({ mode: 'open', uploads: [] }), { review: false, uploads: [] });
    assert.deepEqual(readQueue(null), { review: false, uploads: [] });
    assert.deepEqual(readQueue({ uploads: 'x' }), { review: false, uploads: [] });
  });
});

describe('nextPoll', () => {
  test('a modest poll in a review room: slower while the panel is closed', () => {
    assert.equal(nextPoll({ status: 200, review: true, open: false }), POLL_CLOSED_MS);
    assert.equal(nextPoll({ status: 200, review: true, open: true }), POLL_OPEN_MS);
    assert.ok(POLL_OPEN_MS >= 2000 && POLL_CLOSED_MS >= 10000);
  });

  test('never again when the room does not review, or the page may not see the queue', () => {
    assert.equal(nextPoll({ status: 200, review: false, open: true }), null);
    for (const status of [401, 403, 404]) assert.equal(nextPoll({ status, review: true, open: true }), null);
  });

  test('backs off after failures, up to a cap', () => {
    assert.equal(nextPoll({ status: undefined, review: true, open: true, failures: 1 }), POLL_CLOSED_MS);
    assert.equal(nextPoll({ status: 503, review: true, open: false, failures: 2 }), 2 * POLL_CLOSED_MS);
    assert.equal(nextPoll({ status: 500, review: true, open: false, failures: 30 }), POLL_MAX_MS);
  });
});

describe('badgeState', () => {
  test('hidden at none, the count spoken in words', () => {
    assert.deepEqual(badgeState(0), { hidden: true, text: '0', label: "0 guests' photos wait for review" });
    assert.deepEqual(badgeState(1), { hidden: false, text: '1', label: '1 guest photo waits for review' });
    assert.equal(badgeState(3).label, "3 guests' photos wait for review");
    assert.equal(badgeState(120).text, '99+');
  });
});

describe('waiting photos named', () => {
  test('the arrival read from the name (UTC)', () => {
    assert.equal(arrivedAt('20261201-224910-123-anna-img-1a2b3c4d5e6f7a8b.jpg').toISOString(), '2026-12-01T22:49:10.000Z');
    assert.equal(arrivedAt('holiday.jpg'), null);
  });

  test('position, count and time, for the preview and a screen reader', () => {
    const time = (date) => date.toISOString().slice(11, 16);
    assert.equal(itemLabel({ name: '20261201-224910-123-x.jpg' }, 0, 2, time), 'Photo 1 of 2, came at 22:49');
    assert.equal(itemLabel({ name: 'odd.jpg' }, 1, 2, time), 'Photo 2 of 2');
    assert.equal(itemLabel({ name: '20261201-224910-123-x.jpg', from: 'Anna' }, 0, 1, time),
      'Photo 1 of 1 from Anna, came at 22:49');
  });
});
