// Cached layers of still cards (layers.js), as the renderer's frames and idle time use them: which
// layers are drawn, copied, kept or drawn onto, counted by the debug probe.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import {
  backdrop, entry, images, onMain, probedRenderer, recordingContext, setup, view,
} from './support/canvas-fakes.mjs';

describe('LayerCache, through the frames that draw from it', () => {
  // Side by side, so that no card hides another (occlusion has tests of its own below).
  const stack = (topX = 910) => [entry('a', 130), entry('b', 390), entry('c', 650), entry('top', topX)];

  test('still cards go into one layer, made in idle time, then copied', () => {
    const { log, frame, renderer, probe } = setup();
    frame(stack());
    assert.equal(frame(stack()), 4);
    assert.equal(onMain(log), 4, 'at rest the cards are drawn as they were while they moved');
    assert.equal(probe.counters.layers, 0, 'no layer drawn in a frame');
    assert.equal(renderer.warm(view, stack(), { style: 'pile', images, hasTime: () => true }), true);
    assert.equal(probe.counters.layers, 1, 'drawn in idle time');
    assert.equal(frame(stack()), 4);
    assert.equal(onMain(log), 1, 'the whole stack is one layer');
    frame(stack());
    assert.equal(probe.counters.layers, 1, 'kept');
  });

  test('dragging the top card keeps the layer under it and every sprite', () => {
    const { log, frame, probe } = setup();
    frame(stack());
    frame(stack(900));
    const { sprites, layers } = probe.counters;
    for (const x of [890, 880, 870]) {
      assert.equal(frame(stack(x)), 4);
      assert.equal(onMain(log), 2, `dragging to ${x}: the layer and the top card's sprite`);
    }
    assert.deepEqual([probe.counters.sprites, probe.counters.layers], [sprites, layers],
      'no sprite or layer made while dragging');
  });

  test('a card moving at the bottom keeps the layer of the cards above it', () => {
    const { log, frame, probe } = setup();
    const pile = (x) => [entry('flown', x), entry('b', 400), entry('c', 650), entry('top', 900)];
    frame(pile(150));
    frame(pile(140));
    const { layers } = probe.counters;
    for (const x of [130, 100, 50, -50]) {
      assert.equal(frame(pile(x)), 4);
      assert.equal(onMain(log), 2, 'the moving card, then the layer of the three above it');
    }
    assert.equal(probe.counters.layers, layers);
  });

  test('a card moving in the middle is drawn between two layers', () => {
    const { log, frame } = setup();
    const pile = (x) => [entry('a', 100), entry('b', 300), entry('mid', x), entry('c', 700), entry('d', 900)];
    frame(pile(500));
    frame(pile(510));
    frame(pile(520));
    assert.equal(onMain(log), 3);
  });


  test('a photo arriving rebuilds only the layers that show it', () => {
    const { frame, renderer, probe } = setup();
    const cards = [entry('a', 130), entry('b', 390), entry('moving', 650), entry('c', 910), entry('d', 1100)];
    frame(cards);
    frame(cards.map((e) => (e.card.id === 'moving' ? entry('moving', 640) : e)));
    const { layers } = probe.counters;
    renderer.invalidate('/photos/d?w=256');
    frame(cards.map((e) => (e.card.id === 'moving' ? entry('moving', 630) : e)));
    assert.equal(probe.counters.layers, layers + 1, 'the layer with d, not the one with a and b');
  });

  test('a drag or a step moves the top one or two cards: the layer under them is a copy kept, not drawn', () => {
    const { log, frame, renderer, probe } = setup();
    const pile = (topX, nextX = 650) => [entry('a', 130), entry('b', 390), entry('next', nextX), entry('top', topX)];
    const rest = () => renderer.warm(view, pile(910), { style: 'pile', images, hasTime: () => true });
    frame(pile(910));
    frame(pile(910));
    rest();
    const { layers, reused } = probe.counters;
    assert.equal(frame(pile(900)), 4, 'the top card moves');
    assert.deepEqual([probe.counters.layers, probe.counters.reused], [layers, reused + 1]);
    assert.equal(onMain(log), 2);
    frame(pile(910));
    frame(pile(910));
    rest();
    const again = probe.counters;
    frame(pile(900, 640));
    assert.deepEqual([probe.counters.layers, probe.counters.reused], [again.layers, again.reused + 1],
      'the top two move: the copy without them');
  });

  test('a card coming to rest above or under a layer is drawn onto it, not the whole run afresh', () => {
    const { frame, renderer, probe } = setup();
    const pile = (flownX, topX) => [entry('flown', flownX), entry('b', 390), entry('c', 650), entry('top', topX)];
    frame(pile(100, 900));
    frame(pile(110, 890));
    frame(pile(120, 880));
    const { layers, extended } = probe.counters;
    frame(pile(120, 870));
    assert.deepEqual([probe.counters.layers, probe.counters.extended], [layers, extended + 1],
      'the flown card came to rest under b and c');
    frame(pile(120, 870));
    assert.deepEqual([probe.counters.layers, probe.counters.extended], [layers, extended + 2],
      'the top card came to rest over them');
    assert.equal(renderer.warm(view, pile(120, 870), { style: 'pile', images, hasTime: () => true }), true);
    assert.equal(probe.counters.layers, layers + 1, 'in idle time, drawn afresh with copies of its bottom cards');
    frame(pile(120, 870));
    assert.equal(probe.counters.layers, layers + 1, 'and used');
  });

  test('idle time draws a layer a card at a time, each rasterised in its slice; frames keep the old one', () => {
    const { log, frame, renderer, probe } = setup();
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
      if (slices === 2) assert.equal(probe.counters.layers, 0, 'not a layer until it is whole');
    }
    assert.equal(probe.counters.layers, 1);
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
    const { layers } = probe.counters;
    assert.equal(renderer.warm(view, moved(890), { style: 'pile', images, hasTime: oneStep() }), false);
    frame(moved(890));
    assert.equal(onMain(log), 1, 'the grown layer, in one draw');
    assert.equal(probe.counters.layers, layers, 'no layer drawn in the frame');
    while (!renderer.warm(view, moved(890), { style: 'pile', images, hasTime: oneStep() }));
    assert.equal(probe.counters.layers, layers + 1, 'drawn afresh in idle time');
    frame(moved(890));
    assert.equal(onMain(log), 1);
  });

  test('invalidate (a photo arrived) and a new stage fit rebuild the layers', () => {
    const { frame, renderer, probe } = setup();
    const rest = () => {
      frame(stack());
      renderer.warm(view, stack(), { style: 'pile', images, hasTime: () => true });
    };
    frame(stack());
    rest();
    assert.equal(probe.counters.layers, 1);
    renderer.invalidate();
    rest();
    assert.equal(probe.counters.layers, 2);
    view.fit = { scale: 0.5, x: 10, y: 0 };
    try {
      rest();
      assert.equal(probe.counters.layers, 3);
    } finally {
      view.fit = { scale: 1, x: 0, y: 0 };
    }
  });


  test('a layer draws whole the cards its copies without the top cards show, though those hide them', () => {
    const log = [];
    const { renderer } = probedRenderer(log);
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

  test('a card drawn with a placeholder stays out of cached layers until its photo is decoded', () => {
    const log = [];
    const ctx = recordingContext('main', log);
    const { renderer } = probedRenderer(log);
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

  test('a layer that grew by several cards at once is drawn afresh at rest, so that a drag’s first frame finds its copy', () => {
    const { frame, renderer, probe } = setup();
    // A pile: every card within the box of the three at the bottom.
    const at = (moved) => ['a', 'b', 'c', 'd', 'e'].map((id, i) => entry(id, 400 + [0, -60, 60, 10, -10][i]
      + (moved.includes(id) ? 3 : 0)));
    frame(at(['d', 'e']));
    frame(at([]));
    frame(at([]));
    const grown = probe.counters;
    assert.equal(grown.extended, 1, 'd and e came to rest on the layer of a, b and c together');
    assert.equal(renderer.warm(view, at([]), { style: 'pile', images, hasTime: () => true }), true);
    const warmed = probe.counters;
    assert.equal(warmed.layers, grown.layers + 1, 'drawn afresh with copies without e and without d and e');
    frame(at(['e']));
    const dragged = probe.counters;
    assert.equal(dragged.layers, warmed.layers, 'the first frame of the drag draws no layer');
    assert.equal(dragged.reused, warmed.reused + 1);
  });
});
