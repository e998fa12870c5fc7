// The renderer draws a frame: every visible card, wherever its transform puts it, but for what an
// opaque card above hides (layers, sprites, repainting and coarse frames have files of their own).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { Renderer } from '../../Resources/web/render.js';
import { entry, onMain, setup } from './support/canvas-fakes.mjs';

describe('Renderer', () => {
  // Side by side, so that no card hides another.
  const stack = () => [entry('a', 130), entry('b', 390), entry('c', 650), entry('top', 910)];

  test('the first frame draws each card from its sprite', () => {
    const { log, frame, probe } = setup();
    assert.equal(frame(stack()), 4);
    assert.equal(onMain(log), 4);
    assert.equal(probe.counters.layers, 0);
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

describe('occlusion in a frame', () => {
  const clips = (log) => log.filter(([target, method]) => target === 'main' && method === 'clip').length;

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

});

test('a renderer without a probe (a page opened without ?debug=1) keeps no counts', () => {
  const renderer = new Renderer();
  assert.equal('counters' in renderer, false);
  assert.equal('track' in renderer, false);
});
