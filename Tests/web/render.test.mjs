// The renderer with recording stand-ins for canvases: which cards are drawn from sprites, which
// come from cached layers, and how often sprites and layers are made.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { GradientBackdrop, Renderer, cardReach, clippedUnion, sameLook, splitRuns } from '../../Resources/web/render.js';
import { SpriteCache, quantizeScale, shadowReach, spriteGeometry, spriteSizes } from '../../Resources/web/sprites.js';
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
// Every photo decoded (a card drawn with a placeholder is kept out of layers: a test of its own).
const images = { get: () => ({ width: 512, height: 384 }) };
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
  // Side by side, so that no card hides another (occlusion has tests of its own below).
  const stack = (topX = 910) => [entry('a', 130), entry('b', 390), entry('c', 650), entry('top', topX)];

  test('the first frame draws each card from its sprite', () => {
    const { log, frame, renderer } = setup();
    assert.equal(frame(stack()), 4);
    assert.equal(onMain(log), 4);
    assert.equal(renderer.counters.layers, 0);
  });

  test('still cards go into one layer, made in idle time, then copied', () => {
    const { log, frame, renderer } = setup();
    frame(stack());
    assert.equal(frame(stack()), 4);
    assert.equal(onMain(log), 4, 'at rest the cards are drawn as they were while they moved');
    assert.equal(renderer.counters.layers, 0, 'no layer drawn in a frame');
    assert.equal(renderer.warm(view, stack(), { style: 'pile', images, hasTime: () => true }), true);
    assert.equal(renderer.counters.layers, 1, 'drawn in idle time');
    assert.equal(frame(stack()), 4);
    assert.equal(onMain(log), 1, 'the whole stack is one layer');
    frame(stack());
    assert.equal(renderer.counters.layers, 1, 'kept');
  });

  test('dragging the top card keeps the layer under it and every sprite', () => {
    const { log, frame, renderer } = setup();
    frame(stack());
    frame(stack(900));
    const { sprites, layers } = renderer.counters;
    for (const x of [890, 880, 870]) {
      assert.equal(frame(stack(x)), 4);
      assert.equal(onMain(log), 2, `dragging to ${x}: the layer and the top card's sprite`);
    }
    assert.deepEqual([renderer.counters.sprites, renderer.counters.layers], [sprites, layers],
      'no sprite or layer made while dragging');
  });

  test('a card moving at the bottom keeps the layer of the cards above it', () => {
    const { log, frame, renderer } = setup();
    const pile = (x) => [entry('flown', x), entry('b', 400), entry('c', 650), entry('top', 900)];
    frame(pile(150));
    frame(pile(140));
    const { layers } = renderer.counters;
    for (const x of [130, 100, 50, -50]) {
      assert.equal(frame(pile(x)), 4);
      assert.equal(onMain(log), 2, 'the moving card, then the layer of the three above it');
    }
    assert.equal(renderer.counters.layers, layers);
  });

  test('a card moving in the middle is drawn between two layers', () => {
    const { log, frame } = setup();
    const pile = (x) => [entry('a', 100), entry('b', 300), entry('mid', x), entry('c', 700), entry('d', 900)];
    frame(pile(500));
    frame(pile(510));
    frame(pile(520));
    assert.equal(onMain(log), 3);
  });

  test('a photo arriving rebuilds only the layers that show it', async () => {
    const { isVariantOf } = await import('../../Resources/web/render.js');
    assert.ok(isVariantOf('/photos/a?w=512', '/photos/a'));
    assert.ok(isVariantOf('/photos/a?v=1&w=512', '/photos/a?v=1'));
    assert.ok(!isVariantOf('/photos/a1?w=512', '/photos/a'));
    const { frame, renderer } = setup();
    const cards = [entry('a', 130), entry('b', 390), entry('moving', 650), entry('c', 910), entry('d', 1100)];
    frame(cards);
    frame(cards.map((e) => (e.card.id === 'moving' ? entry('moving', 640) : e)));
    const { layers } = renderer.counters;
    renderer.invalidate('/photos/d?w=256');
    frame(cards.map((e) => (e.card.id === 'moving' ? entry('moving', 630) : e)));
    assert.equal(renderer.counters.layers, layers + 1, 'the layer with d, not the one with a and b');
  });

  test('a drag or a step moves the top one or two cards: the layer under them is a copy kept, not drawn', () => {
    const { log, frame, renderer } = setup();
    const pile = (topX, nextX = 650) => [entry('a', 130), entry('b', 390), entry('next', nextX), entry('top', topX)];
    const rest = () => renderer.warm(view, pile(910), { style: 'pile', images, hasTime: () => true });
    frame(pile(910));
    frame(pile(910));
    rest();
    const { layers, reused } = renderer.counters;
    assert.equal(frame(pile(900)), 4, 'the top card moves');
    assert.deepEqual([renderer.counters.layers, renderer.counters.reused], [layers, reused + 1]);
    assert.equal(onMain(log), 2);
    frame(pile(910));
    frame(pile(910));
    rest();
    const again = renderer.counters;
    frame(pile(900, 640));
    assert.deepEqual([renderer.counters.layers, renderer.counters.reused], [again.layers, again.reused + 1],
      'the top two move: the copy without them');
  });

  test('a card coming to rest above or under a layer is drawn onto it, not the whole run afresh', () => {
    const { frame, renderer } = setup();
    const pile = (flownX, topX) => [entry('flown', flownX), entry('b', 390), entry('c', 650), entry('top', topX)];
    frame(pile(100, 900));
    frame(pile(110, 890));
    frame(pile(120, 880));
    const { layers, extended } = renderer.counters;
    frame(pile(120, 870));
    assert.deepEqual([renderer.counters.layers, renderer.counters.extended], [layers, extended + 1],
      'the flown card came to rest under b and c');
    frame(pile(120, 870));
    assert.deepEqual([renderer.counters.layers, renderer.counters.extended], [layers, extended + 2],
      'the top card came to rest over them');
    assert.equal(renderer.warm(view, pile(120, 870), { style: 'pile', images, hasTime: () => true }), true);
    assert.equal(renderer.counters.layers, layers + 1, 'in idle time, drawn afresh with copies of its bottom cards');
    frame(pile(120, 870));
    assert.equal(renderer.counters.layers, layers + 1, 'and used');
  });

  test('idle time draws a layer a card at a time, each rasterised in its slice; frames keep the old one', () => {
    const { log, frame, renderer } = setup();
    const pile = (topX) => [entry('a', 130), entry('b', 390), entry('c', 650), entry('top', topX)];
    frame(pile(910));
    frame(pile(910));
    // One step per slice: a card drawn, or a copy made, then the slice is over.
    const oneStep = () => {
      let asked = 0;
      return () => (asked += 1) <= 1;
    };
    let slices = 0;
    log.length = 0;
    while (!renderer.warm(view, pile(910), { style: 'pile', images, hasTime: oneStep() })) {
      slices += 1;
      assert.ok(slices < 50, 'the layer is finished');
      if (slices === 2) assert.equal(renderer.counters.layers, 0, 'not a layer until it is whole');
    }
    assert.equal(renderer.counters.layers, 1);
    assert.ok(slices >= 4 + 2, `a slice per card and per copy (${slices})`);
    // Each card drawn on the layer is rasterised before the next is drawn: its cost falls in its slice.
    const onLayer = log.filter(([target, method]) => target !== 'main' && ['drawImage', 'getImageData'].includes(method));
    const layerCanvas = onLayer.find(([, method]) => method === 'getImageData')[0];
    const sequence = onLayer.filter(([target]) => target === layerCanvas).map(([, method]) => method[0]).join('');
    assert.match(sequence, /^(dg)+$/, `draw, rasterise, draw, rasterise… (${sequence})`);

    // A layer that grew (a flown card came to rest under it) lacks copies of its bottom cards and
    // is drawn again in idle time: meanwhile frames draw it as it is, in one copy.
    const moving = (flownX, topX) => [entry('flown', flownX), entry('b', 390), entry('c', 650), entry('top', topX)];
    const moved = (topX) => moving(120, topX);
    frame(moving(100, 900));
    frame(moving(110, 890));
    frame(moving(120, 880));
    frame(moved(870));
    frame(moved(890));
    frame(moved(890));
    const { layers } = renderer.counters;
    assert.equal(renderer.warm(view, moved(890), { style: 'pile', images, hasTime: oneStep() }), false);
    frame(moved(890));
    assert.equal(onMain(log), 1, 'the grown layer, in one draw');
    assert.equal(renderer.counters.layers, layers, 'no layer drawn in the frame');
    while (!renderer.warm(view, moved(890), { style: 'pile', images, hasTime: oneStep() }));
    assert.equal(renderer.counters.layers, layers + 1, 'drawn afresh in idle time');
    frame(moved(890));
    assert.equal(onMain(log), 1);
  });

  test('invalidate (a photo arrived) and a new stage fit rebuild the layers', () => {
    const { frame, renderer } = setup();
    const rest = () => {
      frame(stack());
      renderer.warm(view, stack(), { style: 'pile', images, hasTime: () => true });
    };
    frame(stack());
    rest();
    assert.equal(renderer.counters.layers, 1);
    renderer.invalidate();
    rest();
    assert.equal(renderer.counters.layers, 2);
    view.fit = { scale: 0.5, x: 10, y: 0 };
    try {
      rest();
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
    frame([entry('a', -60), entry('b', 1100)]);
    assert.equal(onMain(log), 2, 'both overhang the canvas: each is still drawn');
  });

  test('a fading card is drawn with its opacity, in one draw', () => {
    const { log, frame } = setup();
    frame([entry('a', 300, { opacity: 0.4 })]);
    const alphas = log.filter(([target, method]) => target === 'main' && method === 'drawImage');
    assert.equal(alphas.length, 1);
  });
});

describe('occlusion', async () => {
  const { bandsAround, opaqueRect } = await import('../../Resources/web/render.js');
  const painter = { pointToDevice: 1, originX: 0, originY: 0, look: lookFor('pile') };
  const clips = (log) => log.filter(([target, method]) => target === 'main' && method === 'clip').length;

  test('bandsAround cuts a box around a hole', () => {
    const box = { x: 0, y: 0, right: 100, bottom: 100 };
    assert.deepEqual(bandsAround(box, null), [box]);
    assert.deepEqual(bandsAround(box, { x: 200, y: 0, right: 300, bottom: 100 }), [box]);
    assert.deepEqual(bandsAround(box, { x: -1, y: -1, right: 101, bottom: 101 }), []);
    const bands = bandsAround(box, { x: 10, y: 20, right: 90, bottom: 80 });
    assert.equal(bands.length, 4);
    const area = bands.reduce((sum, b) => sum + (b.right - b.x) * (b.bottom - b.y), 0);
    assert.equal(area, 100 * 100 - 80 * 60, 'the bands cover the box but the hole, once');
  });

  test('an opaque card hides a rectangle inside it; a turned one a smaller one; a fading one none', () => {
    const flat = opaqueRect(painter, transform(500, { w: 200, h: 100 }));
    assert.ok(flat.right - flat.x > 190 && flat.right - flat.x <= 200, JSON.stringify(flat));
    const turned = opaqueRect(painter, transform(500, { w: 200, h: 100, rotation: 0.2 }));
    assert.ok(turned.right - turned.x < flat.right - flat.x);
    assert.equal(opaqueRect(painter, transform(500, { opacity: 0.5 })), null);
    assert.equal(opaqueRect(painter, transform(500, { flip: 0.5 })), null);
  });

  test('a moving card hidden under an opaque card is not drawn, yet counted', () => {
    const { log, frame } = setup();
    const cards = (x) => [entry('small', x, { w: 50, h: 50 }), entry('big', 500, { w: 400, h: 300 })];
    frame(cards(500));
    assert.equal(frame(cards(501)), 2);
    assert.equal(onMain(log), 1, 'only the big card');
  });

  test('a moving card partly under an opaque card is drawn in bands around it', () => {
    const { log, frame } = setup();
    const cards = (x) => [entry('under', x), entry('top', 500, { w: 400, h: 300 })];
    frame(cards(360));
    frame(cards(350));
    assert.ok(clips(log) >= 1 && onMain(log) === clips(log) + 1, `${clips(log)} bands, ${onMain(log)} draws`);
    const translucent = (x) => [entry('under', x), entry('top', 500, { w: 400, h: 300, opacity: 0.9 })];
    frame(translucent(340));
    assert.equal(clips(log), 0, 'a translucent card hides nothing');
  });

  test('a layer draws whole the cards its copies without the top cards show, though those hide them', () => {
    const log = [];
    const renderer = new Renderer({ make: fakeCanvases(log) });
    // A deck: three cards nearly under an opaque front card.
    const deck = [entry('c', 500, { w: 360, h: 270 }), entry('b', 500, { w: 380, h: 285 }),
      entry('a', 500, { w: 390, h: 292 }), entry('front', 500, { w: 400, h: 300 })];
    renderer.draw(recordingContext('main', log), view, deck, { style: 'pile', images, backdrop });
    renderer.draw(recordingContext('main', log), view, deck, { style: 'pile', images, backdrop });
    log.length = 0;
    renderer.warm(view, deck, { style: 'pile', images, hasTime: () => true });
    const offscreen = (method) => log.filter(([target, name]) => target !== 'main' && name === method).length;
    // 'c' lies under 'a' and 'b' too, which stay in both copies: only it may be drawn in bands.
    assert.ok(offscreen('drawImage') > 0, 'the layer was drawn');
    const bandsOfC = offscreen('clip');
    assert.ok(bandsOfC <= 4, `at most the bands of the bottom card (${bandsOfC} clips)`);
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

test('warm makes the sprites a motion will want while there is time, then none again', () => {
  const { frame, renderer } = setup();
  const deck = [entry('back', 390, { opacity: 0 }), entry('front', 650)];
  frame(deck, 'deck');
  const before = renderer.counters.sprites;
  let slices = 0;
  const hasTime = () => (slices += 1) <= 1;
  assert.equal(renderer.warm(view, deck, { style: 'deck', images, hasTime }), false, 'one sprite in the slice');
  assert.equal(renderer.warm(view, deck, { style: 'deck', images, hasTime: () => true }), true);
  const warmed = renderer.counters.sprites;
  assert.ok(warmed - before >= 4, 'the front card’s back with and without shadow, its face without, the hidden card');
  assert.equal(renderer.warm(view, deck, { style: 'deck', images, hasTime: () => true }), true);
  assert.equal(renderer.counters.sprites, warmed, 'nothing more to make');
});

test('a card a drag resizes a little in each frame is drawn from one sprite, its own once it rests', () => {
  const { frame, renderer } = setup();
  const sized = (w) => [entry('front', 390), entry('next', 650, { w }, { w })];
  frame(sized(200));
  const made = renderer.counters.sprites;
  for (const w of [202, 205, 208, 211]) frame(sized(w));
  assert.equal(renderer.counters.sprites, made, 'no sprite per frame');
  frame(sized(211));
  assert.equal(renderer.counters.sprites, made, 'the frame it rests in makes none either');
  assert.equal(renderer.takeRedraw(), false);
  assert.equal(renderer.warm(view, sized(211), { style: 'pile', images, hasTime: () => true }), true);
  assert.ok(renderer.counters.sprites > made, 'idle time makes its own size (and its shadow)');
  assert.equal(renderer.takeRedraw(), true, 'and asks for the frame that shows it');
  assert.equal(renderer.takeRedraw(), false, 'once');
});

test('a motion\'s last frame draws a card from the sprite it moved with; idle time makes its own', () => {
  const { frame, renderer } = setup();
  // The card shrinks from 200×150 to 100×75 in its style, keeping its sprite meanwhile.
  frame([entry('a', 300)], 'grid');
  const moving = [entry('a', 300, {}, { anim: { from: { w: 200, h: 150 }, to: { w: 100, h: 75 } } })];
  frame(moving, 'grid');
  const made = renderer.counters.sprites;
  const resting = [entry('a', 300, { w: 100, h: 75 }, { w: 100, h: 75 })];
  frame(resting, 'grid');
  assert.equal(renderer.counters.sprites, made, 'no sprite made in the last frame');
  renderer.warm(view, resting, { style: 'grid', images, hasTime: () => true });
  assert.ok(renderer.counters.sprites > made, 'its own made in idle time');
  assert.equal(renderer.takeRedraw(), true);
  const own = renderer.counters.sprites;
  frame(resting, 'grid');
  assert.equal(renderer.counters.sprites, own, 'the next frame draws it from its own, made already');
  assert.equal(renderer.takeRedraw(), false);
});

test('a card come to rest in a new style shows that style\'s look in its first frame, not the old style\'s sprite', () => {
  const { log, frame, renderer } = setup();
  frame([entry('a', 300)], 'angles');
  const made = renderer.counters.sprites;
  const moving = [entry('a', 300, {}, { anim: { from: { w: 200, h: 150 }, to: { w: 100, h: 75 } } })];
  frame(moving, 'deck');
  assert.equal(renderer.counters.sprites, made, 'while it moves, the old style\'s sprite serves');
  const resting = [entry('a', 300, { w: 100, h: 75 }, { w: 100, h: 75 })];
  log.length = 0;
  frame(resting, 'deck');
  assert.ok(renderer.counters.sprites > made, 'at rest, its own (rounded corners, the deck\'s border) at once');
  assert.equal(renderer.takeRedraw(), false);
});

test('a card drawn with a placeholder stays out of cached layers until its photo is decoded', () => {
  const log = [];
  const ctx = recordingContext('main', log);
  const renderer = new Renderer({ make: fakeCanvases(log) });
  let decoded = false;
  const photos = { get: (src) => (src === '/photos/late' && !decoded ? null : { width: 512, height: 384 }) };
  const cards = [entry('a', 130), entry('b', 390), entry('late', 650), entry('c', 910)];
  const frame = () => {
    log.length = 0;
    return renderer.draw(ctx, view, cards, { style: 'pile', images: photos, backdrop });
  };
  frame();
  frame();
  frame();
  assert.equal(onMain(log), 3, 'the layer of a and b, the late card, c');
  assert.equal(renderer.wantsFrame, false);
  decoded = true;
  frame();
  assert.equal(renderer.wantsFrame, true, 'its photo drawn: one more frame, to put it in a layer');
  frame();
  assert.equal(onMain(log), 1, 'once its photo is drawn, one layer');
  assert.equal(renderer.wantsFrame, false);
});

test('a photo that arrives has its card’s sprite made at once, not in the next frame', () => {
  const log = [];
  const ctx = recordingContext('main', log);
  const renderer = new Renderer({ make: fakeCanvases(log) });
  let decoded = false;
  const photos = { get: (src) => (src === '/photos/late' && !decoded ? null : { width: 512, height: 384 }) };
  const cards = [entry('a', 130), entry('late', 650, { x: 700 })];
  const frame = () => renderer.draw(ctx, view, cards, { style: 'pile', images: photos, backdrop });
  frame();
  decoded = true;
  const before = renderer.counters.sprites;
  renderer.prepare('/photos/other?w=512', photos);
  assert.equal(renderer.counters.sprites, before, 'another photo: nothing made');
  renderer.prepare('/photos/late?w=512', photos);
  const prepared = renderer.counters.sprites;
  assert.equal(prepared, before + 1, 'its sprite, with the photo');
  frame();
  assert.equal(renderer.counters.sprites, prepared, 'the next frame makes none');
});

test('warmEnds makes, while there is time, the sprites cards that grow or shrink will rest at', () => {
  const { frame, renderer } = setup();
  const shrinking = (id, x) => entry(id, x, {}, { anim: { from: { w: 400, h: 300 }, to: { w: 200, h: 150 } } });
  const large = { w: 400, h: 300 };
  // Drawn large first (a pile), then shrinking (toward a grid): the large sprites serve meanwhile.
  frame([entry('a', 200, large, large), entry('b', 600, large, large), entry('still', 900)]);
  const cards = [shrinking('a', 200), shrinking('b', 600), entry('still', 900)];
  frame(cards);
  const before = renderer.counters.sprites;
  let slices = 0;
  assert.equal(renderer.warmEnds(view, cards, { style: 'pile', images, hasTime: () => (slices += 1) <= 1 }), false);
  assert.equal(renderer.warmEnds(view, cards, { style: 'pile', images, hasTime: () => true }), true);
  const made = renderer.counters.sprites;
  assert.ok(made > before, 'the end sizes made');
  assert.equal(renderer.warmEnds(view, cards, { style: 'pile', images, hasTime: () => true }), true);
  assert.equal(renderer.counters.sprites, made, 'nothing more');
  const settled = cards.map(({ card, transform }) => ({ card: { ...card, anim: undefined }, transform }));
  frame(settled);
  frame(settled);
  assert.equal(renderer.counters.sprites, made, 'the motion’s end makes none');
});

test('prepareCards makes the sprites of cards a message brought before the frame that draws them', () => {
  const { frame, renderer } = setup();
  frame([entry('a', 200)]);
  const before = renderer.counters.sprites;
  const arriving = entry('b', 600, { w: 300, h: 200 }, { w: 300, h: 200 });
  renderer.prepareCards([arriving], images);
  const made = renderer.counters.sprites;
  assert.ok(made > before);
  frame([arriving, entry('a', 200)]);
  assert.equal(renderer.counters.sprites, made, 'the frame makes none');
});

test('a turn that moves no corner by a quarter of a device pixel (a pixel in motion) is drawn straight', async () => {
  const { drawnRotation } = await import('../../Resources/web/render.js');
  // A 600 × 800 point card: its corners are 500 points from its centre.
  const card = transform(0, { w: 600, h: 800 });
  assert.equal(drawnRotation({ ...card, rotation: 0.0004 }, 1), 0, '0.2 px at the corners');
  assert.equal(drawnRotation({ ...card, rotation: 0.0004 }, 2), 0.0004, '0.4 px on a denser screen');
  assert.equal(drawnRotation({ ...card, rotation: -0.01 }, 1), -0.01);
  // In motion (drawn unfiltered, edges stepping a pixel anyway), up to a pixel at the corners.
  assert.equal(drawnRotation({ ...card, rotation: 0.0016 }, 1, true), 0, '0.8 px, moving');
  assert.equal(drawnRotation({ ...card, rotation: 0.0016 }, 1), 0.0016, '0.8 px, at rest');
  assert.equal(drawnRotation({ ...card, rotation: 0.0024 }, 1, true), 0.0024, '1.2 px, moving');
});

test('a layer that grew by several cards at once is drawn afresh at rest, so that a drag’s first frame finds its copy', () => {
  const { frame, renderer } = setup();
  // A pile: every card within the box of the three at the bottom.
  const at = (moved) => ['a', 'b', 'c', 'd', 'e'].map((id, i) => entry(id, 400 + [0, -60, 60, 10, -10][i]
    + (moved.includes(id) ? 3 : 0)));
  frame(at(['d', 'e']));
  frame(at([]));
  frame(at([]));
  const grown = renderer.counters;
  assert.equal(grown.extended, 1, 'd and e came to rest on the layer of a, b and c together');
  assert.equal(renderer.warm(view, at([]), { style: 'pile', images, hasTime: () => true }), true);
  const warmed = renderer.counters;
  assert.equal(warmed.layers, grown.layers + 1, 'drawn afresh with copies without e and without d and e');
  frame(at(['e']));
  const dragged = renderer.counters;
  assert.equal(dragged.layers, warmed.layers, 'the first frame of the drag draws no layer');
  assert.equal(dragged.reused, warmed.reused + 1);
});

test('prepareCards leaves a shrinking card to the larger sprite it has, as the frame would', () => {
  const { frame, renderer } = setup();
  const large = { w: 400, h: 300 };
  frame([entry('a', 200, large, large)]);
  const before = renderer.counters.sprites;
  const shrinking = entry('a', 200, {}, { anim: { from: { ...large }, to: { w: 200, h: 150 } } });
  renderer.prepareCards([shrinking], images);
  assert.equal(renderer.counters.sprites, before, 'its large sprite serves until the motion ends');
  const growing = entry('b', 600, {}, { anim: { from: { w: 100, h: 75 }, to: { w: 200, h: 150 } } });
  renderer.prepareCards([growing], images);
  assert.ok(renderer.counters.sprites > before, 'none at the larger size: its own, now');
});

describe('repainting only what changed', () => {
  // A backdrop that paints the same pixels every frame, as the usual gradient does.
  const still = { draw() {}, static: true };
  function partialSetup() {
    const log = [];
    const ctx = recordingContext('main', log);
    const renderer = new Renderer({ make: fakeCanvases(log) });
    const frame = (cards, { backdrop = still, style = 'pile', partial = true } = {}) => {
      log.length = 0;
      renderer.draw(ctx, view, cards, { style, images, backdrop, partial });
      return renderer.lastDirty;
    };
    return { frame, renderer, log };
  }
  const rest = () => [entry('a', 200), entry('b', 500), entry('c', 800)];

  test('a frame in which one card moved repaints where it was and where it is, clipped to whole pixels', () => {
    const { frame, log } = partialSetup();
    assert.equal(frame(rest()), null, 'the first frame paints everything');
    frame(rest()); // the cards the first frame drew as moving (unfiltered) come to rest
    const moved = [entry('a', 200), entry('b', 520), entry('c', 800)];
    const dirty = frame(moved);
    const painter = { pointToDevice: 1, originX: 0, originY: 0, look: lookFor('pile') };
    const expected = clippedUnion([cardReach(painter, rest()[1].transform), cardReach(painter, moved[1].transform)],
      view.width, view.height);
    assert.deepEqual(dirty, expected);
    assert.ok(Number.isInteger(dirty.x) && Number.isInteger(dirty.w));
    assert.ok(log.some(([target, method]) => target === 'main' && method === 'clip'), 'the frame is clipped to it');
    assert.ok(dirty.x > 200 + 100 && dirty.x + dirty.w < 800 - 100, 'the still cards beside it are not in it');
  });

  test('a frame in which nothing changed repaints nothing', () => {
    const { frame } = partialSetup();
    frame(rest());
    assert.ok(frame(rest()).w > 0, 'cards the first frame drew unfiltered (it saw them come) are drawn at rest');
    assert.equal(frame(rest()).w, 0);
  });

  test('a changed order, a photo come in, another drawing, a fading backdrop or a new style repaint everything', () => {
    const { frame, renderer } = partialSetup();
    frame(rest());
    assert.equal(frame([entry('b', 500), entry('a', 200), entry('c', 800)]), null, 'a card lowered without moving');
    frame(rest());
    renderer.invalidate('/photos/a?w=512');
    assert.equal(frame(rest()), null, 'a sharper photo');
    renderer.repaintAll();
    assert.equal(frame(rest()), null, 'something else drew on the canvas');
    assert.equal(frame(rest(), { backdrop: { draw() {} } }), null, 'a backdrop that may change');
    frame(rest());
    assert.equal(frame(rest(), { style: 'grid' }), null, 'another style');
    assert.equal(frame(rest(), { style: 'grid', partial: false }), null, 'a page that draws on top (captions)');
  });

  test('a card drawn unfiltered while it moved is repainted, filtered, in the frame it comes to rest', () => {
    const { frame } = partialSetup();
    frame(rest());
    frame(rest());
    const turned = (x) => [entry('a', 200), entry('b', x, { rotation: 0.2 }), entry('c', 800)];
    frame(turned(510));
    frame(turned(520));
    const dirty = frame(turned(520));
    assert.ok(dirty.w > 0, 'its last moving frame was unfiltered: repainted now');
    assert.equal(frame(turned(520)).w, 0, 'and then left alone');
  });
});

describe('preparing sprites between frames', () => {
  test('prepareCards stops making sprites after a few milliseconds; the rest are drawn from the ones they have', () => {
    const log = [];
    const renderer = new Renderer({ make: fakeCanvases(log) });
    const ctx = recordingContext('main', log);
    const cards = (anim) => ['a', 'b', 'c', 'd'].map((id, i) => entry(id, 150 + 200 * i, {}, anim ? {
      anim: { from: { w: 200, h: 150 }, to: { w: 400, h: 300 } }, w: 400, h: 300,
    } : {}));
    renderer.draw(ctx, view, cards(false), { style: 'pile', images, backdrop });
    const before = renderer.counters.sprites;
    const realNow = performance.now.bind(performance);
    let clock = 0;
    performance.now = () => (clock += 5);
    try {
      // A style switch: every card grows to a size it has no sprite of.
      renderer.prepareCards(cards(true), images, 'frame');
    } finally {
      performance.now = realNow;
    }
    const made = renderer.counters.sprites - before;
    assert.ok(made >= 1 && made <= 3, `one card's made now (and its shadow), the rest left (${made} sprites)`);
    const duringMotion = renderer.counters.sprites;
    renderer.draw(ctx, view, cards(true), { style: 'frame', images, backdrop });
    assert.equal(renderer.counters.sprites, duringMotion, 'the motion\'s frame makes none: the others stand in');
    assert.equal(renderer.warmEnds(view, cards(true), { style: 'frame', images, hasTime: () => true }), true);
    assert.ok(renderer.counters.sprites > duringMotion, 'the time between frames makes them');
  });
});

describe('GradientBackdrop', () => {
  test('paints its gradient once per size, the page’s and the coarse canvas’ sizes both kept', () => {
    const log = [];
    const made = [];
    const make = (width, height) => {
      made.push(`${width}x${height}`);
      const own = { createRadialGradient: () => ({ addColorStop() {} }), fillRect() {} };
      return { width, height, getContext: () => own };
    };
    const gradient = new GradientBackdrop(make);
    const ctx = recordingContext('main', log);
    const coarseView = { ...view, width: 512, height: 384 };
    for (let frame = 0; frame < 3; frame += 1) {
      gradient.draw(ctx, view);
      gradient.draw(ctx, coarseView);
    }
    assert.deepEqual(made, ['1024x768', '512x384']);
    const copies = log.filter(([target, method]) => target === 'main' && method === 'drawImage');
    assert.deepEqual(copies.map((call) => call[2].width), [1024, 512, 1024, 512, 1024, 512]);
    gradient.draw(ctx, { ...view, width: 800, height: 600 });
    gradient.draw(ctx, view);
    assert.deepEqual(made.slice(2), ['800x600', '1024x768'], 'two sizes kept, the oldest let go');
    // Idle time paints a size ahead of its first frame.
    gradient.prepare({ ...view, width: 400, height: 300 });
    assert.equal(made.at(-1), '400x300');
    gradient.draw(ctx, { ...view, width: 400, height: 300 });
    assert.equal(made.length, 5, 'its first frame copies it');
  });
});

describe('coarse frames', () => {
  // Eight 600×500 cards: 2.4 million device pixels, three screens of 1024×768.
  const big = (x, anim = null) => ({
    card: { id: `c${x}`, src: `/photos/${x}`, highlight: false, w: 600, h: 500, anim },
    transform: transform(300 + x * 20, { w: 600, h: 500, rotation: 0.05 * (x - 4) }),
  });
  const cards = (anim) => [0, 1, 2, 3, 4, 5, 6, 7].map((x) => big(x, anim));
  const motion = { start: 0, duration: 400 };

  test('a motion moving cards that cover more than 2.5 screens is drawn coarse, at half the pixels', () => {
    const { log, renderer } = setup();
    const ctx = recordingContext('coarse', log);
    // Each card 300,000 px; a screen 786,432 px; a turned card counts three times.
    const turned = (count, rotation) => cards(motion).slice(0, count).map((entry) => ({
      ...entry, transform: { ...entry.transform, rotation },
    }));
    const freshly = (entries) => setup().renderer.coarseFor(view, entries);
    assert.equal(freshly(turned(6, 0)), false, 'six straight cards: 2.3 screens');
    assert.equal(freshly(turned(2, 0.1)), false, 'two turned cards: 2.3 screens');
    assert.equal(freshly(turned(3, 0.1)), true, 'three turned cards: 3.4 screens');
    assert.equal(freshly(turned(8, 0)), true, 'eight straight cards: 3.1 screens');
    assert.equal(freshly([]), false);
    // Looked at in every frame: a motion that starts straight and turns (a spring) turns coarse.
    assert.equal(renderer.coarseFor(view, turned(2, 0)), false);
    assert.equal(renderer.coarseFor(view, turned(3, 0.1)), true);
    assert.equal(renderer.coarseFor(view, turned(3, 0)), true, 'and stays so until the cards rest');
    assert.equal(renderer.coarseFor(view, cards(motion)), true);
    log.length = 0;
    // The backdrop is painted first, at the coarse canvas' size: it covers the page's canvas.
    const painted = { draw: (on, at) => log.push(['backdrop', on === ctx, at.width, at.height]) };
    assert.equal(renderer.drawCoarse(ctx, view, cards(motion), { style: 'pile', images, zoom: 0.5, backdrop: painted }), 8);
    const first = log.findIndex(([target]) => target === 'backdrop');
    assert.deepEqual(log[first], ['backdrop', true, 512, 384]);
    assert.ok(!log.slice(0, first).some(([, method]) => method === 'drawImage'), 'before any card');
    const placed = log.slice(first).filter(([target, method]) => target === 'coarse' && method === 'setTransform')
      .map((call) => call[2]);
    assert.ok(placed.length >= 8 && placed.every((scale) => scale === 0.5), 'every card placed at half the scale');
    assert.equal(log.filter(([target]) => target === 'main').length, 0, 'nothing on the page’s canvas');
  });

  test('coarse, a card is drawn from a copy of its sprite at half the size, two copies made a frame', () => {
    const { log, renderer } = setup();
    const ctx = recordingContext('coarse', log);
    const sources = () => {
      log.length = 0;
      renderer.drawCoarse(ctx, view, cards(motion), { style: 'pile', images, zoom: 0.5, backdrop });
      // Each sprite drawn (a card may be drawn in bands around the one above it: several draws).
      return [...new Set(log.filter(([target, method]) => target === 'coarse' && method === 'drawImage')
        .map((call) => call[2]))].map((source) => source.width);
    };
    renderer.coarseFor(view, cards(motion));
    const full = spriteGeometry(600, 500, lookFor('pile'), 1).width;
    const half = Math.ceil(full / 2);
    const first = sources();
    assert.equal(first.filter((width) => width === half).length, 2, `two copies in the first frame (${first})`);
    assert.equal(first.filter((width) => width === full).length, 6, 'the others from their sprites');
    for (let frame = 2; frame <= 4; frame += 1) sources();
    assert.deepEqual([...new Set(sources())], [half], 'by the fifth frame every card from its copy');
  });

  test('idle time makes the coarse copies of cards that would be drawn coarse if they moved together', () => {
    const { log, frame, renderer } = setup();
    const ctx = recordingContext('coarse', log);
    frame(cards(null));
    log.length = 0;
    assert.equal(renderer.warm(view, cards(null), { style: 'pile', images, hasTime: () => true }), true);
    const made = log.filter((call) => call[1] === 'drawImage' && call.length === 7).length;
    assert.equal(made, 8, 'a copy of each card’s sprite');
    renderer.coarseFor(view, cards(motion));
    log.length = 0;
    renderer.drawCoarse(ctx, view, cards(motion), { style: 'pile', images, zoom: 0.5, backdrop });
    const widths = new Set(log.filter(([target, method]) => target === 'coarse' && method === 'drawImage')
      .map((call) => call[2].width));
    assert.deepEqual([...widths], [Math.ceil(spriteGeometry(600, 500, lookFor('pile'), 1).width / 2)],
      'the motion’s first frame draws every card from its copy');
    // Two small cards would not be drawn coarse: no copies.
    const small = setup();
    small.frame(cards(null).slice(0, 2));
    const before = small.log.length;
    small.renderer.warm(view, cards(null).slice(0, 2), { style: 'pile', images, hasTime: () => true });
    // A coarse copy is the one drawImage(sprite, 0, 0, width, height) (a layer's copy names its
    // source rectangle too, a sprite's shadow only where it goes).
    const copies = (entries) => entries.filter((call) => call[1] === 'drawImage' && call.length === 7).length;
    assert.equal(copies(small.log.slice(before)), 0);
  });

  test('cards come to rest coarse, and are drawn sharp from their layers once idle time has made them', () => {
    const { log, frame, renderer } = setup();
    const ctx = recordingContext('coarse', log);
    const coarse = (entries) => renderer.drawCoarse(ctx, view, entries, { style: 'pile', images, zoom: 0.5, backdrop });
    assert.equal(renderer.coarseFor(view, cards(motion)), true);
    coarse(cards(motion));
    // The motion is over: the first frame at rest is coarse still, and asks for one more.
    assert.equal(renderer.coarseFor(view, cards(null)), true);
    coarse(cards(null));
    assert.equal(renderer.coarseFor(view, cards(null)), true);
    coarse(cards(null));
    assert.equal(renderer.wantsFrame, false, 'drawn at rest');
    assert.equal(renderer.coarseFor(view, cards(null)), true, 'until idle time has made the layers');
    const layers = renderer.counters.layers;
    assert.equal(renderer.warm(view, cards(null), { style: 'pile', images, hasTime: () => true }), true);
    assert.equal(renderer.counters.layers, layers + 1);
    assert.equal(renderer.takeRedraw(), true, 'the page draws once more');
    assert.equal(renderer.coarseFor(view, cards(null)), false);
    assert.equal(frame(cards(null)), 8);
    assert.equal(onMain(log), 1, 'sharp, in one draw of their layer');
  });

  test('prepareCards makes no sprite for a coarse motion’s cards that have one to stand in', () => {
    const { frame, renderer } = setup();
    frame(cards(null));
    const made = renderer.counters.sprites;
    const growing = { start: 0, duration: 400, from: { w: 600, h: 500 }, to: { w: 900, h: 750 } };
    const switched = cards(growing).map((entry) => ({ ...entry, card: { ...entry.card, w: 900, h: 750 } }));
    renderer.prepareCards(switched, images);
    assert.equal(renderer.counters.sprites, made, 'the switch’s first frame draws the sprites the cards have');
    renderer.prepareCards(switched.slice(4, 5), images);
    assert.ok(renderer.counters.sprites > made, 'one straight card growing (not coarse): its new sprite at once');
  });

  test('a card new to a coarse motion is drawn once its photo has come, not as a blank card first', () => {
    const log = [];
    const ctx = recordingContext('coarse', log);
    const landed = new Set();
    const photos = { get: (src) => (src !== '/photos/7' || landed.has(src) ? { width: 512, height: 384 } : null) };
    const renderer = new Renderer({ make: fakeCanvases(log) });
    const switched = cards(motion);
    renderer.coarseFor(view, switched);
    const made = renderer.counters.sprites;
    renderer.prepareCards(switched.slice(7), photos, 'pile');
    assert.equal(renderer.counters.sprites, made, 'no blank sprite made as the message brings it');
    const drawnSources = () => {
      log.length = 0;
      renderer.drawCoarse(ctx, view, switched, { style: 'pile', images: photos, zoom: 0.5, backdrop });
      return log.filter(([target, method]) => target === 'coarse' && method === 'drawImage').length;
    };
    const without = drawnSources();
    const sprites = renderer.counters.sprites;
    landed.add('/photos/7');
    renderer.prepare('/photos/7?w=512', photos);
    assert.ok(renderer.counters.sprites > sprites, 'its sprite made as the photo lands');
    assert.equal(drawnSources(), without + 1, 'drawn from then on');
    // Sharp, a card without its photo is drawn (its placeholder): only coarse frames wait.
    const sharp = setup();
    sharp.renderer.draw(recordingContext('main', sharp.log), view, [big(7, null)], { style: 'pile', images: { get: () => null }, backdrop });
    assert.equal(onMain(sharp.log), 1);
  });

  test('a drag while cards wait coarse at rest is drawn sharp', () => {
    const { renderer } = setup();
    const ctx = recordingContext('coarse', []);
    renderer.coarseFor(view, cards(motion));
    renderer.drawCoarse(ctx, view, cards(motion), { style: 'pile', images, zoom: 0.5, backdrop });
    renderer.coarseFor(view, cards(null));
    renderer.drawCoarse(ctx, view, cards(null), { style: 'pile', images, zoom: 0.5, backdrop });
    const dragged = cards(null);
    dragged[7] = { ...dragged[7], transform: { ...dragged[7].transform, x: dragged[7].transform.x + 30 } };
    assert.equal(renderer.coarseFor(view, dragged), false);
  });
});
