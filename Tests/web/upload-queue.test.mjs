// The add page's queue: a few at a time, states in order, retries with the same key.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { AT_ONCE, UploadQueue } from '../../Resources/web/upload-queue.js';

/** A send whose answers the test gives by hand; records every request with the key it carried. */
function fakeServer() {
  const pending = [];
  const requests = [];
  return {
    requests,
    pending,
    send(item, progress) {
      requests.push({ name: item.file.name, key: item.key });
      return new Promise((resolve) => pending.push({ item, progress, resolve }));
    },
    /** Answers the oldest request in flight for `name`. */
    answer(name, status, body = null, retryAfter = null) {
      const index = pending.findIndex((request) => request.item.file.name === name);
      const [request] = pending.splice(index, 1);
      request.resolve({ status, body, retryAfter });
    },
  };
}

const files = (count) => Array.from({ length: count }, (_, i) => ({ name: `photo-${i + 1}.jpg`, size: 1000 }));
const settle = () => new Promise((resolve) => setImmediate(resolve));

function queueWith(server, extra = {}) {
  let next = 0;
  const seen = [];
  const queue = new UploadQueue({
    send: server.send, newKey: () => `key-${++next}`, changed: (item) => seen.push([item.id, item.state]),
    ...extra,
  });
  return { queue, seen };
}

test('one photo at a time, in the order chosen: the next leaves once the server has placed the one before', async () => {
  assert.equal(AT_ONCE, 1);
  const server = fakeServer();
  const { queue } = queueWith(server);
  queue.add(files(5));
  assert.equal(server.pending.length, 1);
  assert.deepEqual(queue.counts(), { queued: 4, sending: 1, checking: 0, done: 0, failed: 0 });
  for (const name of ['photo-1.jpg', 'photo-2.jpg', 'photo-3.jpg', 'photo-4.jpg', 'photo-5.jpg']) {
    assert.deepEqual(server.pending.map((r) => r.item.file.name), [name]);
    server.answer(name, 201, { id: 'p', seq: 2, existing: false });
    await settle();
  }
  assert.deepEqual(server.requests.map((r) => r.name),
    ['photo-1.jpg', 'photo-2.jpg', 'photo-3.jpg', 'photo-4.jpg', 'photo-5.jpg']);
  assert.deepEqual(queue.counts(), { queued: 0, sending: 0, checking: 0, done: 5, failed: 0 });
  assert.deepEqual(queue.items.map((item) => item.text), Array(5).fill('On the wall'));
});

test('each photo has a key of its own', () => {
  const server = fakeServer();
  const { queue } = queueWith(server, { limit: 10 });
  queue.add(files(4));
  assert.deepEqual(server.requests.map((r) => r.key), ['key-1', 'key-2', 'key-3', 'key-4']);
});

test('progress: sending with the bytes sent, then checking once all are sent, then the outcome', async () => {
  const server = fakeServer();
  const { queue, seen } = queueWith(server);
  const [item] = queue.add(files(1));
  server.pending[0].progress(250, 1000);
  assert.deepEqual([item.state, item.sent, item.total], ['sending', 250, 1000]);
  server.pending[0].progress(1000, 1000);
  assert.deepEqual([item.state, item.text], ['checking', 'Checking']);
  server.answer('photo-1.jpg', 202, { id: 'p1', waiting: true });
  await settle();
  assert.deepEqual([item.state, item.kind, item.text], ['done', 'waiting', 'Waiting for approval']);
  assert.deepEqual(seen.map(([, state]) => state), ['queued', 'sending', 'sending', 'checking', 'done']);
});

test('a retry after a lost answer sends the same key: the server answers it once', async () => {
  const server = fakeServer();
  const { queue } = queueWith(server);
  const [item] = queue.add(files(1));
  server.answer('photo-1.jpg', 0);
  await settle();
  assert.deepEqual([item.state, item.kind], ['failed', 'offline']);
  assert.equal(queue.retry(item.id), true);
  assert.equal(item.state, 'sending');
  server.answer('photo-1.jpg', 200, { id: 'p1', seq: 3, existing: true });
  await settle();
  assert.deepEqual(server.requests, [{ name: 'photo-1.jpg', key: 'key-1' }, { name: 'photo-1.jpg', key: 'key-1' }]);
  assert.deepEqual([item.state, item.text], ['done', 'Already on the wall']);
});

test('a send that throws is no connection; only a failed photo can be retried', async () => {
  const { queue } = queueWith({ send: () => Promise.reject(new Error('gone')) });
  const [item] = queue.add(files(1));
  assert.equal(queue.retry(item.id), false, 'not failed yet');
  await settle();
  assert.deepEqual([item.state, item.kind], ['failed', 'offline']);
  assert.equal(queue.retry(999), false);
});

test('a refusal frees its place for the next photo', async () => {
  const server = fakeServer();
  const { queue } = queueWith(server, { limit: 1 });
  const [first, second] = queue.add(files(2));
  server.answer('photo-1.jpg', 415, { error: 'not a photo' });
  await settle();
  assert.equal(first.state, 'failed');
  assert.equal(second.state, 'sending');
});

test('a photo refused for good (too large, not a photo) cannot be retried: the same bytes get the same answer', async () => {
  const server = fakeServer();
  const { queue } = queueWith(server);
  const [photo] = queue.add(files(1));
  server.answer('photo-1.jpg', 413, { error: 'this photo is larger than the 50 MB this server takes' });
  await settle();
  assert.equal(photo.retry, false);
  assert.equal(queue.retry(photo.id), false);
  assert.equal(server.requests.length, 1);
});
