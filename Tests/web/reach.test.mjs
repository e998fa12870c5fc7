// Card extents, clipped unions and occlusion (reach.js).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { lookFor } from '../../Resources/web/look.js';
import { bandsAround, cardRect, clippedUnion, drawnRotation, opaqueRect } from '../../Resources/web/reach.js';
import { transform } from './support/canvas-fakes.mjs';

describe('occlusion', () => {
  const painter = { pointToDevice: 1, originX: 0, originY: 0, look: lookFor('pile') };

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

});

test('clippedUnion clips to the canvas and answers null off it', () => {
  assert.deepEqual(clippedUnion([{ x: -5, y: 10.5, right: 20, bottom: 30 }, { x: 10, y: 0, right: 2000, bottom: 5 }], 100, 50),
    { x: 0, y: 0, w: 100, h: 30 });
  assert.equal(clippedUnion([{ x: 200, y: 0, right: 300, bottom: 10 }], 100, 50), null);
  assert.equal(clippedUnion([], 100, 50), null);
});

test('cardRect spans the turned card’s corners in CSS pixels', () => {
  const fitted = { fit: { scale: 2, x: 10, y: 0 } };
  assert.deepEqual(cardRect(fitted, transform(100, { y: 50, w: 20, h: 10 })), { left: 190, top: 90, right: 230, bottom: 110 });
  const turned = cardRect(fitted, transform(0, { y: 0, w: 20, h: 20, rotation: Math.PI / 4 }));
  assert.ok(Math.abs(turned.right - turned.left - 2 * 20 * Math.SQRT2) < 1e-9);
});

test('a turn that moves no corner by a quarter of a device pixel (a pixel in motion) is drawn straight', () => {
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
