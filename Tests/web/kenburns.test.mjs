// The frame style's Ken Burns motion as the page evaluates it: a card of one size whose scale and
// centre the server moves linearly over 10 s; reduced motion cuts to its end.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { cardRect } from '../../Resources/web/reach.js';
import { applySnapshot, emptyScene, transformAt } from '../../Resources/web/scene.js';

const ZOOM = 1.15;
const start = 1_000_000;
// Grown and drifted left over a 1024 × 768 photo, from its fitted size (as the server sends it).
const from = { x: 512, y: 384, w: 1024 * ZOOM, h: 768 * ZOOM, rotation: 0, scaleX: 1 / ZOOM, scaleY: 1 / ZOOM, opacity: 1, flip: 0 };
const to = { ...from, x: 512 - ((ZOOM - 1) / 2) * 1024, scaleX: 1, scaleY: 1 };
const card = {
  id: 'c1', photo: 'p1', src: '/photos/p1', position: 0, z: 5, highlight: false, ...from,
  anim: { start, duration: 10_000, curve: { type: 'linear' }, from, to },
};
const snapshot = { room: 'main', seq: 1, serverTime: start, style: 'frame', stage: { w: 1024, h: 768 }, cards: [card] };
const view = { fit: { scale: 1.25, x: 0, y: 0 } };

test('the photo grows and drifts at a steady speed between its fitted size and the zoom', () => {
  const scene = applySnapshot(emptyScene(), snapshot);
  const shown = scene.cards.get('c1');
  const width = (t) => { const r = cardRect(view, transformAt(shown, t)); return r.right - r.left; };
  assert.ok(Math.abs(width(start) - 1024 * 1.25) < 1e-6, 'fitted at first');
  assert.ok(Math.abs(width(start + 10_000) - 1024 * ZOOM * 1.25) < 1e-6, 'zoomed at the end');
  // Linear: equal steps in equal times, in the middle as at the start.
  const steps = [0, 2500, 5000, 7500, 10_000].map((t) => width(start + t));
  const deltas = steps.slice(1).map((w, i) => w - steps[i]);
  for (const delta of deltas) assert.ok(Math.abs(delta - deltas[0]) < 1e-6, `steady: ${deltas}`);
  const middle = transformAt(shown, start + 5000);
  assert.ok(Math.abs(middle.x - (from.x + to.x) / 2) < 1e-9);
  assert.equal(middle.opacity, 1);
});

test('reduced motion: the photo is where the motion ends from the first frame', () => {
  const scene = applySnapshot(emptyScene(), snapshot, { reducedMotion: true });
  const shown = scene.cards.get('c1');
  for (const t of [start, start + 1, start + 5000]) {
    assert.deepEqual(transformAt(shown, t), transformAt(shown, start + 10_000));
  }
  assert.deepEqual(cardRect(view, transformAt(shown, start)), cardRect(view, to));
});
