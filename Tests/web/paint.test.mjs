// Painting a card's face (paint.js).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import {
  MAX_ENLARGEMENT, MIN_COVERED_SHARE, coverCrop, largestScale, photoPlacement,
} from '../../Resources/web/paint.js';

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

describe('no photo enlarged past twice its pixels', () => {
  const wall = { x: -1440, y: -1080, w: 2880, h: 2160 };

  test('a 64×64 photo on a wall-sized card is drawn 128 pixels wide, whole and centred', () => {
    const image = { width: 64, height: 64 };
    const maxScale = largestScale(image, { w: 64, h: 64 }, 1);
    assert.equal(maxScale, MAX_ENLARGEMENT);
    const at = photoPlacement(64, 64, wall, 'cover', maxScale);
    assert.deepEqual(at, { sx: 0, sy: 0, sw: 64, sh: 64, dx: -64, dy: -64, dw: 128, dh: 128 });
  });

  test('in stage points: 1200 pixels at 2.8125 device pixels a point reach 2400 device pixels', () => {
    const image = { width: 1200, height: 900 };
    const points = { x: -512, y: -384, w: 1024, h: 768 };
    const at = photoPlacement(1200, 900, points, 'cover', largestScale(image, { w: 1200, h: 900 }, 2.8125));
    assert.ok(Math.abs(at.dw * 2.8125 - 2400) < 1e-9 && Math.abs(at.dh * 2.8125 - 1800) < 1e-9, JSON.stringify(at));
  });

  test('a smaller variant of a known photo may be scaled as far as the photo itself', () => {
    // 128 pixels of a 1200-pixel photo: twice the photo is 18.75 times the variant.
    assert.equal(largestScale({ width: 128 }, { w: 1200, h: 900 }, 1), 18.75);
  });

  test('a photo whose size is not known, or within twice its pixels, is placed as before', () => {
    assert.equal(largestScale({ width: 1024 }, null, 1), Infinity);
    const before = photoPlacement(1600, 1200, wall, 'cover');
    assert.deepEqual(photoPlacement(1600, 1200, wall, 'cover', largestScale({ width: 1600 }, { w: 1600, h: 1200 }, 1)), before);
  });
});
