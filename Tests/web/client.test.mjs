// The small pure pieces of the other modules: reconnect backoff, pointer samples, photo crop and
// the image cache.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { reconnectDelay } from '../../Resources/web/connection.js';
import { ImageCache, variantURL, widthBucket } from '../../Resources/web/images.js';
import { toSamples } from '../../Resources/web/input.js';
import { coverCrop } from '../../Resources/web/render.js';

test('reconnectDelay doubles from 1 s up to 30 s, with 50–100 % jitter', () => {
  assert.equal(reconnectDelay(0, 0), 500);
  assert.equal(reconnectDelay(0, 0.5), 750);
  assert.equal(reconnectDelay(3, 0.5), 6000);
  assert.equal(reconnectDelay(20, 0), 15000);
  assert.ok(reconnectDelay(20, 0.999999) < 30000);
});

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

test('coverCrop fills the box and keeps the aspect, centred', () => {
  assert.deepEqual(coverCrop(1200, 900, 400, 300), { sx: 0, sy: 0, sw: 1200, sh: 900 });
  assert.deepEqual(coverCrop(1200, 900, 300, 300), { sx: 150, sy: 0, sw: 900, sh: 900 });
  assert.deepEqual(coverCrop(900, 1200, 400, 200), { sx: 0, sy: 375, sw: 900, sh: 450 });
});

test('widthBucket climbs a short ladder', () => {
  assert.equal(widthBucket(10), 128);
  assert.equal(widthBucket(129), 256);
  assert.equal(widthBucket(256), 256);
  assert.equal(widthBucket(257), 512);
  assert.equal(widthBucket(1100), 1536);
  assert.equal(widthBucket(99999), 4096);
  assert.equal(variantURL('/photos/p3', 512), '/photos/p3?w=512');
  assert.equal(variantURL('/photos/p3?v=2', 512), '/photos/p3?v=2&w=512');
});

describe('ImageCache', () => {
  const tick = () => new Promise((resolve) => setImmediate(resolve));
  const fakeImage = (url) => ({ url, closed: false, close() { this.closed = true; } });

  test('answers null, loads once, then answers the decoded image', async () => {
    const loads = [];
    const ready = [];
    const cache = new ImageCache({
      load: async (url) => { loads.push(url); return fakeImage(url); },
      onReady: (url) => ready.push(url),
    });
    assert.equal(cache.get('/photos/a', 300), null);
    assert.equal(cache.get('/photos/a', 300), null, 'still loading: no second request');
    await tick();
    assert.deepEqual(loads, ['/photos/a?w=512']);
    assert.deepEqual(ready, ['/photos/a?w=512']);
    assert.equal(cache.get('/photos/a', 300).url, '/photos/a?w=512');
  });

  test('while a sharper variant loads, the decoded one stands in', async () => {
    const cache = new ImageCache({ load: async (url) => fakeImage(url) });
    cache.get('/photos/a', 300);
    await tick();
    assert.equal(cache.get('/photos/a', 1400).url, '/photos/a?w=512');
    await tick();
    assert.equal(cache.get('/photos/a', 1400).url, '/photos/a?w=1536');
  });

  test('evicts the least recently used and frees its pixels', async () => {
    const images = [];
    const cache = new ImageCache({
      limit: 2,
      load: async (url) => { const image = fakeImage(url); images.push(image); return image; },
    });
    cache.get('/photos/a', 100);
    cache.get('/photos/b', 100);
    await tick();
    cache.get('/photos/a', 100);
    cache.get('/photos/c', 100);
    await tick();
    assert.equal(cache.size, 2);
    assert.deepEqual(images.filter((image) => image.closed).map((image) => image.url), ['/photos/b?w=128']);
    assert.equal(cache.get('/photos/a', 100).url, '/photos/a?w=128');
  });

  test('a failed load is retried only after a pause', async () => {
    let now = 0;
    let attempts = 0;
    const cache = new ImageCache({
      now: () => now,
      load: async () => { attempts += 1; throw new Error('404'); },
    });
    const warn = console.warn;
    console.warn = () => {};
    try {
      cache.get('/photos/x', 100);
      await tick();
      cache.get('/photos/x', 100);
      assert.equal(attempts, 1);
      now = 20000;
      cache.get('/photos/x', 100);
      await tick();
      assert.equal(attempts, 2);
    } finally {
      console.warn = warn;
    }
  });

  test('a busy answer is asked again when the server said, and drawn when it lands', async () => {
    const timers = [];
    const ready = [];
    let busy = true;
    const cache = new ImageCache({
      load: async (url) => {
        if (busy) throw Object.assign(new Error('429'), { retryAfterMs: 1000 });
        return fakeImage(url);
      },
      onReady: (url) => ready.push(url),
      later: (run, ms) => timers.push({ run, ms }),
    });
    assert.equal(cache.get('/photos/x', 100), null);
    await tick();
    assert.deepEqual(timers.map((timer) => timer.ms), [1000]);
    busy = false;
    timers[0].run();
    await tick();
    assert.deepEqual(ready, ['/photos/x?w=128']);
    assert.equal(cache.get('/photos/x', 100).url, '/photos/x?w=128');
  });
});

test('ImageCache.reserve keeps room for every drawn card', async () => {
  const tick = () => new Promise((resolve) => setImmediate(resolve));
  const loads = [];
  const cache = new ImageCache({ limit: 2, load: async (url) => { loads.push(url); return { url }; } });
  cache.reserve(3);
  for (const name of ['a', 'b', 'c']) cache.get(`/photos/${name}`, 100);
  await tick();
  for (const name of ['a', 'b', 'c']) assert.ok(cache.get(`/photos/${name}`, 100), name);
  assert.equal(loads.length, 3, 'nothing evicted and fetched again');
  cache.reserve(0);
  cache.get('/photos/d', 100);
  assert.equal(cache.size, 2, 'back to the base limit');
});
