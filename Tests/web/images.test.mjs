// Photos at the widths the page asks for, and the cache of decoded ones (images.js).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import {
  ImageCache, PREVIEW_WIDTH, isVariantOf, isWholePhoto, variantURL, widthBucket,
} from '../../Resources/web/images.js';

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

test('isVariantOf knows a photo’s variants from another photo’s', () => {
  assert.ok(isVariantOf('/photos/a?w=512', '/photos/a'));
  assert.ok(isVariantOf('/photos/a?v=1&w=512', '/photos/a?v=1'));
  assert.ok(!isVariantOf('/photos/a1?w=512', '/photos/a'));
});

describe('ImageCache', () => {
  const tick = () => new Promise((resolve) => setImmediate(resolve));
  const fakeImage = (url) => ({ url, closed: false, close() { this.closed = true; } });

  test('answers null, loads once, then answers the decoded image', async () => {
    const loads = [];
    const ready = [];
    const cache = new ImageCache({
      load: async (url) => { loads.push(url); return fakeImage(url); },
      preview: null,
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
    const cache = new ImageCache({ load: async (url) => fakeImage(url), preview: null });
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
      preview: null,
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
      preview: null,
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
      preview: null,
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
  const cache = new ImageCache({ limit: 2, preview: null, load: async (url) => { loads.push(url); return { url }; } });
  cache.reserve(3);
  for (const name of ['a', 'b', 'c']) cache.get(`/photos/${name}`, 100);
  await tick();
  for (const name of ['a', 'b', 'c']) assert.ok(cache.get(`/photos/${name}`, 100), name);
  assert.equal(loads.length, 3, 'nothing evicted and fetched again');
  cache.reserve(0);
  cache.get('/photos/d', 100);
  assert.equal(cache.size, 2, 'back to the base limit');
});

describe('a photo loading', () => {
  const tick = () => new Promise((resolve) => setImmediate(resolve));

  test('shows its preview first: asked for before the variant, drawn until the variant lands', async () => {
    const loads = [];
    let release;
    const held = new Promise((resolve) => { release = resolve; });
    const cache = new ImageCache({
      load: async (url) => { loads.push(url); await held; return { url, width: 1536, height: 1152 }; },
      preview: async (url) => { loads.push(url); return { url, preview: true, width: PREVIEW_WIDTH, height: 24 }; },
    });
    assert.equal(cache.get('/photos/a', 1400), null, 'nothing decoded yet');
    assert.deepEqual(loads, [`/photos/a?w=${PREVIEW_WIDTH}`, '/photos/a?w=1536'], 'the preview asked for first');
    await tick();
    assert.equal(cache.get('/photos/a', 1400).preview, true, 'the preview stands in while the variant loads');
    release();
    await tick();
    assert.equal(cache.get('/photos/a', 1400).url, '/photos/a?w=1536');
    cache.get('/photos/a', 300);
    assert.equal(loads.filter((url) => url.endsWith(`w=${PREVIEW_WIDTH}`)).length, 1, 'a photo with a variant needs no preview');
  });

  test('learns the photo’s own size from a variant narrower than asked', async () => {
    const sizes = { '/photos/small?w=2048': [64, 48], '/photos/big?w=2048': [2048, 1536] };
    const cache = new ImageCache({
      preview: null,
      load: async (url) => ({ width: sizes[url][0], height: sizes[url][1] }),
    });
    cache.get('/photos/small', 2000);
    cache.get('/photos/big', 2000);
    await tick();
    assert.deepEqual(cache.wholeSize('/photos/small'), { w: 64, h: 48 });
    assert.equal(cache.wholeSize('/photos/big'), null, 'as wide as asked: maybe larger');
    assert.ok(isWholePhoto(1200, 3072) && !isWholePhoto(3072, 3072) && !isWholePhoto(0, 128));
  });
});
