// Painting a card's face (paint.js).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { coverCrop } from '../../Resources/web/paint.js';

test('coverCrop fills the box and keeps the aspect, centred', () => {
  assert.deepEqual(coverCrop(1200, 900, 400, 300), { sx: 0, sy: 0, sw: 1200, sh: 900 });
  assert.deepEqual(coverCrop(1200, 900, 300, 300), { sx: 150, sy: 0, sw: 900, sh: 900 });
  assert.deepEqual(coverCrop(900, 1200, 400, 200), { sx: 0, sy: 375, sw: 900, sh: 450 });
});
