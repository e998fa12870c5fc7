// Painting a card's face (paint.js).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { MIN_COVERED_SHARE, coverCrop, photoPlacement } from '../../Resources/web/paint.js';

test('coverCrop fills the box and keeps the aspect, centred', () => {
  assert.deepEqual(coverCrop(1200, 900, 400, 300), { sx: 0, sy: 0, sw: 1200, sh: 900 });
  assert.deepEqual(coverCrop(1200, 900, 300, 300), { sx: 150, sy: 0, sw: 900, sh: 900 });
  assert.deepEqual(coverCrop(900, 1200, 400, 200), { sx: 0, sy: 375, sw: 900, sh: 450 });
});

test('a card that fits photos shows a landscape photo whole on its paper, letterboxed', () => {
  // The deck's portrait card (inner 378 × 530) and a 3:2 photo: covering would keep 45 % of it.
  const card = { x: -189, y: -265, w: 378, h: 530 };
  const covered = coverCrop(1500, 1000, card.w, card.h);
  assert.ok((covered.sw * covered.sh) / (1500 * 1000) < MIN_COVERED_SHARE);
  const whole = photoPlacement(1500, 1000, card, 'contain');
  assert.deepEqual({ sx: whole.sx, sy: whole.sy, sw: whole.sw, sh: whole.sh }, { sx: 0, sy: 0, sw: 1500, sh: 1000 });
  assert.equal(whole.dw, 378);
  assert.equal(whole.dh, 252);
  assert.equal(whole.dx, -189);
  assert.equal(whole.dy, -265 + (530 - 252) / 2);
  // ?fit=cover (or a look without fit) keeps today's crop.
  assert.deepEqual(photoPlacement(1500, 1000, card, 'cover'), { ...covered, dx: -189, dy: -265, dw: 378, dh: 530 });
});

test('a photo close to the shape of the card still covers it', () => {
  const card = { x: -189, y: -265, w: 378, h: 530 };
  const portrait = photoPlacement(3000, 4000, card, 'contain');
  assert.equal(portrait.dw, 378);
  assert.equal(portrait.dh, 530);
  assert.ok(portrait.sw < 3000 || portrait.sh < 4000, 'cropped a little');
});
