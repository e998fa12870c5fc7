// Which sprite stands for a card in a frame, and when sprites are made (sprite-choice.js, through
// the renderer: between frames, in idle time, or in the frame that needs them).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { affordableSprites } from '../../Resources/web/sprite-choice.js';
import {
  backdrop, entry, images, probedRenderer, recordingContext, setup, transform, view,
} from './support/canvas-fakes.mjs';

test('warm makes the sprites a motion will want while there is time, then none again', () => {
  const { frame, renderer, probe } = setup();
  const deck = [entry('back', 390, { opacity: 0 }), entry('front', 650)];
  frame(deck, 'deck');
  const before = probe.counters.sprites;
  let slices = 0;
  const hasTime = () => (slices += 1) <= 1;
  assert.equal(renderer.warm(view, deck, { style: 'deck', images, hasTime }), false, 'one sprite in the slice');
  assert.equal(renderer.warm(view, deck, { style: 'deck', images, hasTime: () => true }), true);
  const warmed = probe.counters.sprites;
  assert.ok(warmed - before >= 4, 'the front card’s back with and without shadow, its face without, the hidden card');
  assert.equal(renderer.warm(view, deck, { style: 'deck', images, hasTime: () => true }), true);
  assert.equal(probe.counters.sprites, warmed, 'nothing more to make');
});

test('a card a drag resizes a little in each frame is drawn from one sprite, its own once it rests', () => {
  const { frame, renderer, probe } = setup();
  const sized = (w) => [entry('front', 390), entry('next', 650, { w }, { w })];
  frame(sized(200));
  const made = probe.counters.sprites;
  for (const w of [202, 205, 208, 211]) frame(sized(w));
  assert.equal(probe.counters.sprites, made, 'no sprite per frame');
  frame(sized(211));
  assert.equal(probe.counters.sprites, made, 'the frame it rests in makes none either');
  assert.equal(renderer.takeRedraw(), false);
  assert.equal(renderer.warm(view, sized(211), { style: 'pile', images, hasTime: () => true }), true);
  assert.ok(probe.counters.sprites > made, 'idle time makes its own size (and its shadow)');
  assert.equal(renderer.takeRedraw(), true, 'and asks for the frame that shows it');
  assert.equal(renderer.takeRedraw(), false, 'once');
});

test('a motion\'s last frame draws a card from the sprite it moved with; idle time makes its own', () => {
  const { frame, renderer, probe } = setup();
  // The card shrinks from 200×150 to 100×75 in its style, keeping its sprite meanwhile.
  frame([entry('a', 300)], 'grid');
  const moving = [entry('a', 300, {}, { anim: { from: { w: 200, h: 150 }, to: { w: 100, h: 75 } } })];
  frame(moving, 'grid');
  const made = probe.counters.sprites;
  const resting = [entry('a', 300, { w: 100, h: 75 }, { w: 100, h: 75 })];
  frame(resting, 'grid');
  assert.equal(probe.counters.sprites, made, 'no sprite made in the last frame');
  renderer.warm(view, resting, { style: 'grid', images, hasTime: () => true });
  assert.ok(probe.counters.sprites > made, 'its own made in idle time');
  assert.equal(renderer.takeRedraw(), true);
  const own = probe.counters.sprites;
  frame(resting, 'grid');
  assert.equal(probe.counters.sprites, own, 'the next frame draws it from its own, made already');
  assert.equal(renderer.takeRedraw(), false);
});

test('a card come to rest in a new style shows that style\'s look in its first frame, not the old style\'s sprite', () => {
  const { log, frame, renderer, probe } = setup();
  frame([entry('a', 300)], 'angles');
  const made = probe.counters.sprites;
  const moving = [entry('a', 300, {}, { anim: { from: { w: 200, h: 150 }, to: { w: 100, h: 75 } } })];
  frame(moving, 'deck');
  assert.equal(probe.counters.sprites, made, 'while it moves, the old style\'s sprite serves');
  const resting = [entry('a', 300, { w: 100, h: 75 }, { w: 100, h: 75 })];
  log.length = 0;
  frame(resting, 'deck');
  assert.ok(probe.counters.sprites > made, 'at rest, its own (rounded corners, the deck\'s border) at once');
  assert.equal(renderer.takeRedraw(), false);
});

test('a photo that arrives has its card’s sprite made at once, not in the next frame', () => {
  const log = [];
  const ctx = recordingContext('main', log);
  const { renderer, probe } = probedRenderer(log);
  let decoded = false;
  const photos = { get: (src) => (src === '/photos/late' && !decoded ? null : { width: 512, height: 384 }) };
  const cards = [entry('a', 130), entry('late', 650, { x: 700 })];
  const frame = () => renderer.draw(ctx, view, cards, { style: 'pile', images: photos, backdrop });
  frame();
  decoded = true;
  const before = probe.counters.sprites;
  renderer.prepare('/photos/other?w=512', photos);
  assert.equal(probe.counters.sprites, before, 'another photo: nothing made');
  renderer.prepare('/photos/late?w=512', photos);
  const prepared = probe.counters.sprites;
  assert.equal(prepared, before + 1, 'its sprite, with the photo');
  frame();
  assert.equal(probe.counters.sprites, prepared, 'the next frame makes none');
});

test('warmEnds makes, while there is time, the sprites cards that grow or shrink will rest at', () => {
  const { frame, renderer, probe } = setup();
  const shrinking = (id, x) => entry(id, x, {}, { anim: { from: { w: 400, h: 300 }, to: { w: 200, h: 150 } } });
  const large = { w: 400, h: 300 };
  // Drawn large first (a pile), then shrinking (toward a grid): the large sprites serve meanwhile.
  frame([entry('a', 200, large, large), entry('b', 600, large, large), entry('still', 900)]);
  const cards = [shrinking('a', 200), shrinking('b', 600), entry('still', 900)];
  frame(cards);
  const before = probe.counters.sprites;
  let slices = 0;
  assert.equal(renderer.warmEnds(view, cards, { style: 'pile', images, hasTime: () => (slices += 1) <= 1 }), false);
  assert.equal(renderer.warmEnds(view, cards, { style: 'pile', images, hasTime: () => true }), true);
  const made = probe.counters.sprites;
  assert.ok(made > before, 'the end sizes made');
  assert.equal(renderer.warmEnds(view, cards, { style: 'pile', images, hasTime: () => true }), true);
  assert.equal(probe.counters.sprites, made, 'nothing more');
  const settled = cards.map(({ card, transform }) => ({ card: { ...card, anim: undefined }, transform }));
  frame(settled);
  frame(settled);
  assert.equal(probe.counters.sprites, made, 'the motion’s end makes none');
});

test('prepareCards makes the sprites of cards a message brought before the frame that draws them', () => {
  const { frame, renderer, probe } = setup();
  frame([entry('a', 200)]);
  const before = probe.counters.sprites;
  const arriving = entry('b', 600, { w: 300, h: 200 }, { w: 300, h: 200 });
  renderer.prepareCards([arriving], images);
  const made = probe.counters.sprites;
  assert.ok(made > before);
  frame([arriving, entry('a', 200)]);
  assert.equal(probe.counters.sprites, made, 'the frame makes none');
});

test('prepareCards leaves a shrinking card to the larger sprite it has, as the frame would', () => {
  const { frame, renderer, probe } = setup();
  const large = { w: 400, h: 300 };
  frame([entry('a', 200, large, large)]);
  const before = probe.counters.sprites;
  const shrinking = entry('a', 200, {}, { anim: { from: { ...large }, to: { w: 200, h: 150 } } });
  renderer.prepareCards([shrinking], images);
  assert.equal(probe.counters.sprites, before, 'its large sprite serves until the motion ends');
  const growing = entry('b', 600, {}, { anim: { from: { w: 100, h: 75 }, to: { w: 200, h: 150 } } });
  renderer.prepareCards([growing], images);
  assert.ok(probe.counters.sprites > before, 'none at the larger size: its own, now');
});

describe('preparing sprites between frames', () => {
  test('prepareCards stops making sprites after a few milliseconds; the rest are drawn from the ones they have', () => {
    const log = [];
    const { renderer, probe } = probedRenderer(log);
    const ctx = recordingContext('main', log);
    const cards = (anim) => ['a', 'b', 'c', 'd'].map((id, i) => entry(id, 150 + 200 * i, {}, anim ? {
      anim: { from: { w: 200, h: 150 }, to: { w: 400, h: 300 } }, w: 400, h: 300,
    } : {}));
    renderer.draw(ctx, view, cards(false), { style: 'pile', images, backdrop });
    const before = probe.counters.sprites;
    const realNow = performance.now.bind(performance);
    let clock = 0;
    performance.now = () => (clock += 5);
    try {
      // A style switch: every card grows to a size it has no sprite of.
      renderer.prepareCards(cards(true), images, 'frame');
    } finally {
      performance.now = realNow;
    }
    const made = probe.counters.sprites - before;
    assert.ok(made >= 1 && made <= 3, `one card's made now (and its shadow), the rest left (${made} sprites)`);
    const duringMotion = probe.counters.sprites;
    renderer.draw(ctx, view, cards(true), { style: 'frame', images, backdrop });
    assert.equal(probe.counters.sprites, duringMotion, 'the motion\'s frame makes none: the others stand in');
    assert.equal(renderer.warmEnds(view, cards(true), { style: 'frame', images, hasTime: () => true }), true);
    assert.ok(probe.counters.sprites > duringMotion, 'the time between frames makes them');
  });
});

describe('idle time on a big screen', () => {
  // The frame style at 3840×2160: the stage (1024×768) fitted at 2.8125 device pixels a point, its
  // shown photo and the three waiting transparent, each wall-sized.
  const fourK = { width: 3840, height: 2160, dpr: 1, fit: { scale: 2.8125, x: 480, y: 0 } };
  const wall = (id, opacity) => entry(id, 512, { y: 384, w: 1024, h: 768, opacity }, { w: 1024, h: 768 });
  const frameStyle = () => [wall('c', 0), wall('b', 0), wall('next', 0), wall('shown', 1)];

  test('makes the sprites the cache can keep, then stops: an idle page does no work', () => {
    const { renderer, probe } = setup();
    // Slices as idle time gives them: a few bands of a wall-sized sprite each.
    const slice = () => {
      let steps = 0;
      return () => (steps += 1) <= 4;
    };
    let done = false;
    for (let call = 0; call < 500 && !done; call += 1) {
      done = renderer.warm(fourK, frameStyle(), { style: 'frame', images, hasTime: slice() });
    }
    assert.ok(done, `idle work never ends: ${probe.counters.sprites} sprites made`);
    const made = probe.counters.sprites;
    for (let call = 0; call < 5; call += 1) {
      assert.equal(renderer.warm(fourK, frameStyle(), { style: 'frame', images, hasTime: () => true }), true);
    }
    assert.equal(probe.counters.sprites, made, 'nothing made again');
  });

  test('the front card first: what does not fit is left to the motion that shows it', () => {
    const painter = { look: { shadow: { blur: 24, offsetY: 6 } }, pointToDevice: 2.8125 };
    const wanted = frameStyle().reverse().map(({ card }) => ({ card, side: 'face', size: { w: 1024, h: 768 }, withShadow: true }));
    const kept = affordableSprites(painter, wanted, 24e6);
    assert.deepEqual(kept.map(({ card }) => card.id), ['shown', 'next', 'b']);
  });
});
