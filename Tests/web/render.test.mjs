// drawFrame with a recording stand-in for the canvas: which cards are drawn where, frame by frame.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { Scratch, StaticLayer, drawFrame } from '../../Resources/web/render.js';

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

function fakeCanvas(name, log) {
  return (width, height) => {
    const ctx = recordingContext(name, log);
    return { width, height, getContext: () => ctx };
  };
}

const view = { width: 1024, height: 768, dpr: 1, fit: { scale: 1, x: 0, y: 0 }, background: '#222' };
const images = { get: () => null };
const transform = (x, extra = {}) => ({
  x, y: 384, w: 200, h: 150, rotation: 0, scaleX: 1, scaleY: 1, opacity: 1, flip: 0, ...extra,
});
const entry = (id, x, extra) => ({ card: { id, src: `/photos/${id}`, highlight: false }, transform: transform(x, extra) });
// Each opaque square card is one fillRect for its border and one for its placeholder.
const cardsDrawnOn = (log, name) => log.filter(([target, method]) => target === name && method === 'fillRect').length / 2;

function setup() {
  const log = [];
  const ctx = recordingContext('main', log);
  const layer = new StaticLayer(fakeCanvas('layer', log));
  const scratch = new Scratch(fakeCanvas('scratch', log));
  const frame = (cards) => {
    log.length = 0;
    return drawFrame(ctx, view, cards, { style: 'pile', images, scratch, layer });
  };
  return { log, frame, layer };
}

describe('drawFrame with a static layer', () => {
  const stack = (topX = 500) => [entry('a', 300), entry('b', 400), entry('c', 450), entry('top', topX)];

  test('the first frame draws everything on the canvas', () => {
    const { log, frame } = setup();
    assert.equal(frame(stack()), 4);
    assert.equal(cardsDrawnOn(log, 'main') - 0.5, 4, 'the background and four cards');
    assert.equal(cardsDrawnOn(log, 'layer'), 0);
  });

  test('unchanged cards under the top one go into the layer once, then are copied', () => {
    const { log, frame } = setup();
    frame(stack());
    assert.equal(frame(stack()), 4);
    assert.equal(cardsDrawnOn(log, 'layer') - 0.5, 3, 'the background and the three lower cards, once');
    assert.equal(cardsDrawnOn(log, 'main'), 1, 'only the top card is drawn on the canvas');
    assert.ok(log.some(([target, method]) => target === 'main' && method === 'drawImage'), 'the layer is copied');

    for (const x of [510, 520, 530]) {
      assert.equal(frame(stack(x)), 4);
      assert.equal(cardsDrawnOn(log, 'layer'), 0, `dragging to ${x}: the layer is kept`);
      assert.equal(cardsDrawnOn(log, 'main'), 1);
    }
  });

  test('a change low in the stack draws from there up', () => {
    const { log, frame } = setup();
    frame(stack());
    frame(stack());
    const changed = stack();
    changed[1] = entry('b', 410);
    frame(changed);
    assert.equal(cardsDrawnOn(log, 'layer') - 0.5, 1, 'the layer now holds only a, under the change');
    assert.equal(cardsDrawnOn(log, 'main'), 3, 'b and the cards above it are drawn on the canvas');
    frame(changed);
    assert.equal(cardsDrawnOn(log, 'layer') - 0.5, 3, 'once b rests, the next frame takes it back into the layer');
    assert.equal(cardsDrawnOn(log, 'main'), 1);
  });

  test('invalidate (a photo arrived) rebuilds the layer', () => {
    const { log, frame, layer } = setup();
    frame(stack());
    frame(stack());
    layer.invalidate();
    frame(stack());
    assert.equal(cardsDrawnOn(log, 'layer') - 0.5, 3);
  });

  test('a new stage fit rebuilds the layer', () => {
    const { log, frame } = setup();
    frame(stack());
    frame(stack());
    view.fit = { scale: 0.5, x: 10, y: 0 };
    try {
      frame(stack());
      assert.equal(cardsDrawnOn(log, 'layer') - 0.5, 3);
    } finally {
      view.fit = { scale: 1, x: 0, y: 0 };
    }
  });

  test('cards that are not visible are not counted', () => {
    const { frame } = setup();
    assert.equal(frame([entry('a', 300, { opacity: 0 }), entry('b', 400, { w: 0 }), entry('c', 450)]), 1);
  });
});
