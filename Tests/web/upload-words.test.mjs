// What a guest reads for each answer to a photo.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { outcome, seconds } from '../../Resources/web/upload-words.js';

const cases = [
  [201, { id: 'p1', seq: 4, existing: false }, null, 'done', 'shown', 'On the wall'],
  [200, { id: 'p1', seq: 4, existing: true }, null, 'done', 'existing', 'Already on the wall'],
  [202, { id: 'p1', waiting: true }, null, 'done', 'waiting', 'Waiting for approval'],
  [0, null, null, 'failed', 'offline', 'No connection: check the Wi-Fi, then retry'],
  [401, { error: 'adding photos needs Authorization: Bearer <token>' }, null, 'failed', 'token',
    'This link cannot add photos: scan the code on the wall again'],
  [403, { error: 'room party does not take photos from guests' }, null, 'failed', 'closed',
    'This room does not take photos'],
  [403, { error: 'wrong token: adding photos needs the add token' }, null, 'failed', 'token',
    'This link cannot add photos: scan the code on the wall again'],
  [404, { error: 'there is no room t-x to add photos to' }, null, 'failed', 'closed', 'This room does not take photos'],
  [408, { error: 'this photo arrived too slowly' }, null, 'failed', 'slow',
    'The connection is too slow: retry on a better Wi-Fi'],
  [413, { error: 'this photo is larger than the 50 MB this server takes' }, null, 'failed', 'too-large',
    'Too large for the wall (it takes up to 50 MB): send a smaller copy, such as a screenshot of it'],
  [413, {}, null, 'failed', 'too-large', 'Too large for the wall: send a smaller copy, such as a screenshot of it'],
  [415, { error: 'not a photo' }, null, 'failed', 'not-photo',
    'Not a photo the wall can show (JPEG, PNG, WebP, GIF, HEIC)'],
  [422, { error: 'truncated' }, null, 'failed', 'damaged', 'This photo is damaged and cannot be shown'],
  [429, { error: 'slow down' }, '12', 'failed', 'busy', 'Too many photos at once: try again in 12 s'],
  [429, { error: 'slow down' }, null, 'failed', 'busy', 'Too many photos at once: try again in a moment'],
  [503, { error: 'lanes full' }, '5', 'failed', 'busy', 'The wall is busy: try again in 5 s'],
  [507, { error: 'quota' }, null, 'failed', 'full', 'The wall is full: it takes no more photos'],
  [400, { error: 'bad' }, null, 'failed', 'error', 'Not sent (the server answered 400)'],
  // A 200 that is not "existing" is no answer a photo gets: not taken for a success.
  [200, { seq: 3 }, null, 'failed', 'error', 'Not sent (the server answered 200)'],
];

// Sending the same photo again cannot change these answers: no Retry for them.
const FINAL = new Set(['token', 'closed', 'too-large', 'not-photo', 'damaged', 'full']);

for (const [status, body, retryAfter, state, kind, text] of cases) {
  test(`${status} ${kind}${retryAfter ? ` after ${retryAfter}` : ''}`, () => {
    const retry = state === 'failed' && !FINAL.has(kind);
    assert.deepEqual(outcome(status, body, retryAfter), { state, kind, text, retry });
  });
}

test('a refusal that can never succeed offers no Retry; no connection, a busy wall or an error do', () => {
  assert.equal(outcome(413, {}, null).retry, false);
  assert.equal(outcome(415, {}, null).retry, false);
  assert.equal(outcome(0, null, null).retry, true);
  assert.equal(outcome(503, {}, '5').retry, true);
});

test('Retry-After: whole seconds only; a date or garbage is no count', () => {
  assert.equal(seconds('7'), 7);
  assert.equal(seconds(' 30 '), 30);
  assert.equal(seconds('Wed, 21 Oct 2015 07:28:00 GMT'), null);
  assert.equal(seconds('-1'), null);
  assert.equal(seconds(null), null);
});
