// The renderer with recording stand-ins for canvases: which cards are drawn from sprites, which
// come from cached layers, and how often sprites and layers are made.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { Renderer, clippedUnion, sameLook, splitRuns } from '../../Resources/web/render.js';
import { SpriteCache, quantizeScale, restSize, shadowReach, spriteGeometry } from '../../Resources/web/sprites.js';
import { lookFor } from '../../Resources/web/look.js';

// Records each method call; properties (fillStyle, shadowBlur, …) are simply stored.
function recordingContext(name, log) {
  const target = {};
  return new Proxy(target, {
    get(object, key) {
      if (key in object) return object[key];
      return (...args) => log.push([name, key, ...args]);
    },
    set(object, key, value) {
      object[key] = value;
      return true;
    },
  });
}

function fakeCanvases(log) {
  let made = 0;
  return (width, height) => {
    made += 1;
    const ctx = recordingContext(`canvas${made}`, log);
    return { width, height, getContext: () => ctx };
  };
}

const view = { width: 1024, height: 768, dpr: 1, fit: { scale: 1, x: 0, y: 0 } };
const images = { get: () => null };
const backdrop = { draw() {} };
const transform = (x, extra = {}) => ({
  x, y: 384, w: 200, h: 150, rotation: 0, scaleX: 1, scaleY: 1, opacity: 1, flip: 0, ...extra,
});
const entry = (id, x, extra, card = {}) => ({
  card: { id, src: `/photos/${id}`, highlight: false, w: 200, h: 150, ...card }, transform: transform(x, extra),
});
const onMain = (log) => log.filter(([target, method]) => target === 'main' && method === 'drawImage').length;

function setup() {
  const log = [];
  const ctx = recordingContext('main', log);
  const renderer = new Renderer({ make: fakeCanvases(log) });
  const frame = (cards, style = 'pile') => {
    log.length = 0;
    return renderer.draw(ctx, view, cards, { style, images, backdrop });
  };
  return { log, frame, renderer };
}

describe('splitRuns', () => {
  const previousOf = (entries) => new Map(entries.map((e) => [e.card.id, e]));

  test('with no previous frame every card moves', () => {
    const now = [entry('a', 1), entry('b', 2)];
    assert.deepEqual(splitRuns(now, new Map()), [
      { start: 0, end: 1, still: false }, { start: 1, end: 2, still: false }]);
  });

  test('still cards between moving ones form runs', () => {
    const before = [entry('a', 1), entry('b', 2), entry('c', 3), entry('d', 4)];
    const now = [entry('a', 9), entry('b', 2), entry('c', 3), entry('d', 8)];
    assert.deepEqual(splitRuns(now, previousOf(before)), [
      { start: 0, end: 1, still: false }, { start: 1, end: 3, still: true }, { start: 3, end: 4, still: false }]);
  });

  test('an animated card moves even where it has not moved yet (an animation that waits)', () => {
    const before = [entry('a', 1), entry('b', 2)];
    const now = [entry('a', 1, {}, { anim: { start: 0, duration: 100 } }), entry('b', 2)];
    assert.deepEqual(splitRuns(now, previousOf(before)).map((run) => run.still), [false, true]);
  });

  test('cards are matched by id, not by place', () => {
    const before = [entry('a', 1), entry('b', 2)];
    assert.equal(sameLook(before[0], entry('b', 1)), false);
    assert.deepEqual(splitRuns([entry('b', 2), entry('a', 1)], previousOf(before)), [{ start: 0, end: 2, still: true }]);
  });
});

describe('Renderer', () => {
  const stack = (topX = 500) => [entry('a', 300), entry('b', 400), entry('c', 450), entry('top', topX)];

  test('the first frame draws each card from its sprite', () => {
    const { log, frame, renderer } = setup();
    assert.equal(frame(stack()), 4);
    assert.equal(onMain(log), 4);
    assert.equal(renderer.counters.layers, 0);
  });

  test('still cards go into one layer, drawn once and then copied', () => {
    const { log, frame, renderer } = setup();
    frame(stack());
    assert.equal(frame(stack()), 4);
    assert.equal(onMain(log), 1, 'the whole stack is one layer');
    assert.equal(renderer.counters.layers, 1);
    frame(stack());
    assert.equal(renderer.counters.layers, 1, 'kept');
  });

  test('dragging the top card keeps the layer under it and every sprite', () => {
    const { log, frame, renderer } = setup();
    frame(stack());
    frame(stack(510));
    const { sprites, layers } = renderer.counters;
    for (const x of [520, 530, 540]) {
      assert.equal(frame(stack(x)), 4);
      assert.equal(onMain(log), 2, `dragging to ${x}: the layer and the top card's sprite`);
    }
    assert.deepEqual(renderer.counters, { sprites, layers }, 'no sprite or layer made while dragging');
  });

  test('a card moving at the bottom keeps the layer of the cards above it', () => {
    const { log, frame, renderer } = setup();
    const pile = (x) => [entry('flown', x), entry('b', 400), entry('c', 450), entry('top', 500)];
    frame(pile(300));
    frame(pile(200));
    const { layers } = renderer.counters;
    for (const x of [100, 0, -100, -400]) {
      assert.equal(frame(pile(x)), 4);
      assert.equal(onMain(log), 2, 'the moving card, then the layer of the three above it');
    }
    assert.equal(renderer.counters.layers, layers);
  });

  test('a card moving in the middle is drawn between two layers', () => {
    const { log, frame } = setup();
    const pile = (x) => [entry('a', 1), entry('b', 2), entry('mid', x), entry('c', 3), entry('d', 4)];
    frame(pile(10));
    frame(pile(20));
    frame(pile(30));
    assert.equal(onMain(log), 3);
  });

  test('invalidate (a photo arrived) and a new stage fit rebuild the layers', () => {
    const { frame, renderer } = setup();
    frame(stack());
    frame(stack());
    renderer.invalidate();
    frame(stack());
    assert.equal(renderer.counters.layers, 2);
    view.fit = { scale: 0.5, x: 10, y: 0 };
    try {
      frame(stack());
      assert.equal(renderer.counters.layers, 3);
    } finally {
      view.fit = { scale: 1, x: 0, y: 0 };
    }
  });

  test('cards that are not visible are not counted', () => {
    const { frame } = setup();
    const cards = [entry('a', 300, { opacity: 0 }), entry('b', 400, { w: 0 }), entry('c', 450)];
    assert.equal(frame(cards), 1);
    assert.equal(frame(cards), 1, 'nor in a layer');
  });

  test('cards far off the canvas are drawn wherever they are, not clipped to the stage', () => {
    const { log, frame } = setup();
    frame([entry('a', -150), entry('b', 1100)]);
    assert.equal(onMain(log), 2, 'both overhang the canvas: each is still drawn');
  });

  test('a fading card is drawn with its opacity, in one draw', () => {
    const { log, frame } = setup();
    frame([entry('a', 300, { opacity: 0.4 })]);
    const alphas = log.filter(([target, method]) => target === 'main' && method === 'drawImage');
    assert.equal(alphas.length, 1);
  });
});

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

  test('the size a card rests at: where its animation ends', () => {
    assert.deepEqual(restSize({ w: 10, h: 20 }), { w: 10, h: 20 });
    assert.deepEqual(restSize({ w: 10, h: 20, anim: { to: { w: 30, h: 40 } } }), { w: 30, h: 40 });
    assert.deepEqual(restSize({ w: 10, h: 20, anim: { to: { x: 3 } } }), { w: 10, h: 20 });
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
    assert.notEqual(ask({ image: sharper }), first);
    assert.equal(ask({ src: '/p/b' }).pad, first.pad);
    assert.equal(cache.built, 4, 'two more sprites, no new shadow');
    ask({ highlight: true });
    ask({ devicePerPoint: 2 });
    assert.equal(cache.built, 7, 'a veil is a new sprite; a new resolution a new sprite and shadow');
  });

  test('sprites past the pixel budget are dropped, oldest first', () => {
    const cache = new SpriteCache({ make: fakeCanvases([]), budget: 3 * 210 * 160 });
    for (const src of ['a', 'b', 'c', 'd', 'e']) {
      cache.get({ side: 'face', src, image: null, highlight: false, w: 100, h: 100, look, lookName: 'pile', devicePerPoint: 1 });
    }
    assert.ok(cache.size < 5, `kept ${cache.size}`);
  });
});

test('clippedUnion clips to the canvas and answers null off it', () => {
  assert.deepEqual(clippedUnion([{ x: -5, y: 10.5, right: 20, bottom: 30 }, { x: 10, y: 0, right: 2000, bottom: 5 }], 100, 50),
    { x: 0, y: 0, w: 100, h: 30 });
  assert.equal(clippedUnion([{ x: 200, y: 0, right: 300, bottom: 10 }], 100, 50), null);
  assert.equal(clippedUnion([], 100, 50), null);
});

test('cardRect spans the turned card’s corners in CSS pixels', async () => {
  const { cardRect } = await import('../../Resources/web/render.js');
  const fitted = { fit: { scale: 2, x: 10, y: 0 } };
  assert.deepEqual(cardRect(fitted, transform(100, { y: 50, w: 20, h: 10 })), { left: 190, top: 90, right: 230, bottom: 110 });
  const turned = cardRect(fitted, transform(0, { y: 0, w: 20, h: 20, rotation: Math.PI / 4 }));
  assert.ok(Math.abs(turned.right - turned.left - 2 * 20 * Math.SQRT2) < 1e-9);
});

test('a tracked card’s rectangle is kept for each frame it is drawn in, off the canvas too', () => {
  const { frame, renderer } = setup();
  renderer.track('flown');
  for (const x of [500, 1500, 3000]) frame([entry('flown', x), entry('b', 400)]);
  const rects = renderer.trackedRects();
  assert.equal(rects.length, 3);
  assert.ok(rects[2].left > view.width, 'drawn where its transform puts it, past the canvas');
});
