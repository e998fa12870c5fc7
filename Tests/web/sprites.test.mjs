// The sprite cache (sprites.js): sizes, keys, bands and the pixel budget.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { lookFor } from '../../Resources/web/look.js';
import { SpriteCache, quantizeScale, shadowReach, spriteGeometry, spriteSizes } from '../../Resources/web/sprites.js';
import { fakeCanvases } from './support/canvas-fakes.mjs';

describe('sprites', () => {
  const look = lookFor('pile');

  test('a sprite has room for its shadow on every side', () => {
    const geometry = spriteGeometry(200, 100, look, 2);
    assert.equal(geometry.pad, shadowReach(look));
    assert.equal(geometry.width, Math.ceil((200 + 2 * geometry.pad) * 2));
    assert.equal(spriteGeometry(200, 100, look, 2, false).pad, 0);
  });

  test('a sprite larger than the limit is made at a lower scale', () => {
    const geometry = spriteGeometry(4000, 3000, look, 2, true, 4096);
    assert.ok(geometry.width <= 4096 && geometry.scale < 2, JSON.stringify(geometry));
  });

  test('a sprite is made at the card’s end size; the larger one is named when the size changes', () => {
    assert.deepEqual(spriteSizes({ w: 10, h: 20 }), { end: { w: 10, h: 20 }, larger: null });
    assert.deepEqual(spriteSizes({ w: 10, h: 20, anim: { to: { w: 30, h: 40 } } }).end, { w: 30, h: 40 });
    assert.deepEqual(spriteSizes({ w: 10, h: 20, anim: { to: { x: 3 } } }), { end: { w: 10, h: 20 }, larger: null });
    assert.deepEqual(spriteSizes({ w: 300, h: 400, anim: { from: { w: 300, h: 400 }, to: { w: 60, h: 60 } } }),
      { end: { w: 60, h: 60 }, larger: { w: 300, h: 400 } });
    assert.deepEqual(spriteSizes({ w: 60, h: 60, anim: { from: { w: 60, h: 60 }, to: { w: 300, h: 400 } } }).larger,
      { w: 300, h: 400 });
  });

  test('find answers a sprite of the card at that size in any look, without drawing', () => {
    const cache = new SpriteCache({ make: fakeCanvases([]) });
    const fields = { side: 'face', src: '/p/a', highlight: false, w: 300, h: 400, devicePerPoint: 1 };
    assert.equal(cache.find(fields), null);
    const made = cache.get({ ...fields, image: null, look, lookName: 'pile' });
    const built = cache.built;
    assert.equal(cache.find(fields), made);
    assert.equal(cache.built, built);
    assert.ok(cache.has({ ...fields, lookName: 'pile' }) && !cache.has({ ...fields, lookName: 'grid' }));
  });

  test('near answers the card side’s last sprite when its size is within the tolerance', () => {
    const cache = new SpriteCache({ make: fakeCanvases([]) });
    const fields = { side: 'face', src: '/p/a', highlight: false, w: 300, h: 400, devicePerPoint: 1 };
    assert.equal(cache.near(fields), null);
    const made = cache.get({ ...fields, image: { width: 512, height: 384 }, look, lookName: 'swipe' });
    assert.equal(cache.near({ ...fields, w: 310, h: 410 }), made);
    assert.equal(cache.near({ ...fields, w: 280 }), made);
    assert.equal(cache.near({ ...fields, w: 330 }), null, '10 % larger: a sprite of its own');
    assert.equal(cache.near({ ...fields, src: '/p/b' }), null);
    assert.equal(cache.near({ ...fields, side: 'back' }), null);
  });

  test('float noise in the scale makes no new sprite', () => {
    assert.equal(quantizeScale(1.0416666667), quantizeScale(1.0416666668));
  });

  test('one sprite per card look; a new photo variant makes it again; one shadow per size', () => {
    const log = [];
    const cache = new SpriteCache({ make: fakeCanvases(log) });
    const ask = (extra) => cache.get({
      side: 'face', src: '/p/a', image: null, highlight: false, w: 200, h: 150, look, lookName: 'pile',
      devicePerPoint: 1, ...extra,
    });
    const first = ask();
    assert.equal(ask(), first);
    assert.equal(cache.built, 2, 'the sprite and its shadow');
    const sharper = { width: 400, height: 300 };
    const withPhoto = ask({ image: sharper });
    assert.notEqual(withPhoto, first);
    assert.equal(ask({ image: { width: 200, height: 150 } }), withPhoto, 'a smaller variant does not replace it');
    assert.equal(ask({ src: '/p/b' }).pad, first.pad);
    assert.equal(cache.built, 4, 'two more sprites, no new shadow');
    ask({ highlight: true });
    ask({ devicePerPoint: 2 });
    assert.equal(cache.built, 7, 'a veil is a new sprite; a new resolution a new sprite and shadow');
  });

  test('a large sprite can be made a band at a time, each clipped and rasterised, then kept as get keeps it', () => {
    const log = [];
    const cache = new SpriteCache({ make: fakeCanvases(log) });
    const fields = {
      side: 'face', src: 'wall', image: { width: 2048, height: 1365 }, highlight: false, w: 1200, h: 800, look,
      lookName: 'frame', devicePerPoint: 1.5,
    };
    const steps = cache.steps(fields);
    let pieces = 1;
    let result = steps.next();
    for (; !result.done; result = steps.next()) pieces += 1;
    const { width, height } = spriteGeometry(1200, 800, look, 1.5);
    assert.ok(pieces >= Math.floor((width * height) / 400e3), `${pieces} pieces of ${width}×${height}`);
    const clips = log.filter(([, method]) => method === 'rect');
    assert.ok(clips.length >= pieces, 'each band under its own clip');
    assert.equal(log.filter(([, method]) => method === 'getImageData').length, pieces, 'each band rasterised at once');
    assert.equal(cache.has({ ...fields }), true);
    assert.equal(cache.get(fields), result.value, 'kept');
    const small = cache.steps({ ...fields, src: 'small', w: 100, h: 80 });
    assert.equal(small.next().done, true, 'a small sprite in one piece');
  });

  test('sprites past the pixel budget are dropped, oldest first', () => {
    const cache = new SpriteCache({ make: fakeCanvases([]), budget: 3 * 210 * 160 });
    for (const src of ['a', 'b', 'c', 'd', 'e']) {
      cache.get({ side: 'face', src, image: null, highlight: false, w: 100, h: 100, look, lookName: 'pile', devicePerPoint: 1 });
    }
    assert.ok(cache.size < 5, `kept ${cache.size}`);
  });
});
