import assert from 'node:assert/strict';
import { test } from 'node:test';

import { fitStage, toStagePoint, toViewPoint } from '../../Resources/web/stage.js';

test('a wide viewport fits the stage by height, centred horizontally', () => {
  assert.deepEqual(fitStage(2048, 768, 1024, 768), { scale: 1, x: 512, y: 0 });
});

test('a tall viewport fits the stage by width, centred vertically', () => {
  assert.deepEqual(fitStage(512, 1000, 1024, 768), { scale: 0.5, x: 0, y: 308 });
});

test('a larger viewport of the same aspect scales up with no offset', () => {
  assert.deepEqual(fitStage(2048, 1536, 1024, 768), { scale: 2, x: 0, y: 0 });
});

test('degenerate sizes map one to one', () => {
  assert.deepEqual(fitStage(0, 800, 1024, 768), { scale: 1, x: 0, y: 0 });
  assert.deepEqual(fitStage(1280, 800, undefined, undefined), { scale: 1, x: 0, y: 0 });
});

test('the stage centre is the viewport centre', () => {
  const fit = fitStage(1280, 800, 1024, 768);
  assert.deepEqual(toViewPoint(fit, 512, 384), { x: 640, y: 400 });
  assert.deepEqual(toStagePoint(fit, 640, 400), { x: 512, y: 384 });
});

test('view → stage → view is the identity', () => {
  for (const [viewW, viewH] of [[1280, 800], [375, 812], [1920, 1080], [333, 777]]) {
    const fit = fitStage(viewW, viewH, 1024, 768);
    for (const [x, y] of [[0, 0], [17.5, 903.25], [viewW, viewH], [-40, 12]]) {
      const stage = toStagePoint(fit, x, y);
      const back = toViewPoint(fit, stage.x, stage.y);
      assert.ok(Math.abs(back.x - x) < 1e-9 && Math.abs(back.y - y) < 1e-9, `${viewW}×${viewH} at ${x},${y}`);
    }
  }
});

test('the stage corners land on the fitted rectangle', () => {
  const fit = fitStage(1280, 800, 1024, 768);
  const scale = 800 / 768;
  const topLeft = toViewPoint(fit, 0, 0);
  const bottomRight = toViewPoint(fit, 1024, 768);
  assert.ok(Math.abs(topLeft.x - (1280 - 1024 * scale) / 2) < 1e-9 && topLeft.y === 0);
  assert.ok(Math.abs(bottomRight.x - (1280 + 1024 * scale) / 2) < 1e-9 && Math.abs(bottomRight.y - 800) < 1e-9);
});
