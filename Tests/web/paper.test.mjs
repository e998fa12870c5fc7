// A tiny or transparent photo in the frame style lies on a dark mat, not on a white sheet.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { lookFor } from '../../Resources/web/look.js';
import { paintFace } from '../../Resources/web/paint.js';

/** A context that records the fill colour of every fill, and each drawImage's destination. */
function fillsOf(paint) {
  const fills = [];
  const drawn = [];
  const ctx = {
    fillStyle: null,
    fillRect(x, y, w, h) { fills.push({ colour: this.fillStyle, w, h }); },
    fill() { fills.push({ colour: this.fillStyle }); },
    drawImage(...args) { drawn.push(args.slice(5)); },
    beginPath() {}, rect() {}, moveTo() {}, arcTo() {}, closePath() {}, save() {}, restore() {}, clip() {},
  };
  paint(ctx);
  return { fills, drawn };
}

test('a 64×48 photo on a wall-sized frame card: drawn at most twice its size, on a dark mat', () => {
  const tiny = { width: 64, height: 48 };
  const { fills, drawn } = fillsOf((ctx) => paintFace(ctx, 1365, 1024, lookFor('frame'), tiny, false, null, 2));
  assert.equal(fills[0].w, 1365);
  assert.equal(fills[0].colour, '#141414');
  const [, , dw, dh] = drawn[0];
  assert.deepEqual([dw, dh], [128, 96]);
});

test('the other styles keep their white paper', () => {
  for (const style of ['pile', 'deck', 'swipe', 'angles']) {
    const { fills } = fillsOf((ctx) => paintFace(ctx, 300, 400, lookFor(style), { width: 300, height: 400 }, false, null));
    assert.equal(fills[0].colour, '#fff', style);
  }
});
