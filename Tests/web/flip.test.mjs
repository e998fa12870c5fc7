// The perspective of a turning card: the numbers the renderer lays its strips by.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import {
  flipStrips, projectPoint, roundedRectOutline, stripCount, visibleSide,
} from '../../Resources/web/flip.js';

const D = 1000;
const near = (a, b, tolerance = 1e-9) => assert.ok(Math.abs(a - b) <= tolerance, `${a} ≠ ${b}`);

describe('visibleSide', () => {
  test('the face until a quarter turn, then the back turned half a turn back', () => {
    assert.deepEqual(visibleSide(0), { side: 'face', angle: 0 });
    assert.deepEqual(visibleSide(1.5), { side: 'face', angle: 1.5 });
    assert.equal(visibleSide(1.6).side, 'back');
    near(visibleSide(1.6).angle, 1.6 - Math.PI);
    assert.equal(visibleSide(Math.PI).side, 'back');
    near(visibleSide(Math.PI).angle, 0);
    assert.equal(visibleSide(-2).side, 'back');
    assert.equal(visibleSide(2 * Math.PI).side, 'face', 'a whole turn shows the face again');
  });
});

describe('projectPoint', () => {
  test('flat: every point stays where it is', () => {
    for (const [x, y] of [[0, 0], [150, -100], [-150, 100]]) assert.deepEqual(projectPoint(x, y, 0, D), { x, y });
  });

  test('the centre column does not move or scale', () => {
    assert.deepEqual(projectPoint(0, 80, 0.9, D), { x: 0, y: 80 });
  });

  test('turned: the receding edge is shorter and the near edge taller than the card', () => {
    const angle = Math.PI / 3;
    const right = projectPoint(150, 100, angle, D);
    const left = projectPoint(-150, 100, angle, D);
    assert.ok(right.y < 100 && left.y > 100, `${left.y} | ${right.y}`);
    near(right.y, 100 * D / (D + 150 * Math.sin(angle)));
    near(right.x, 150 * Math.cos(angle) * D / (D + 150 * Math.sin(angle)));
    assert.ok(-left.x > right.x, 'the near half looks wider');
  });

  test('a quarter turn is edge-on', () => {
    near(projectPoint(150, 100, Math.PI / 2, D).x, 0, 1e-9);
  });

  test('a card wider than the distance does not pass behind the eye', () => {
    const p = projectPoint(-5000, 10, Math.PI / 2.2, D);
    assert.ok(Number.isFinite(p.x) && Number.isFinite(p.y) && p.y > 0);
  });
});

describe('roundedRectOutline', () => {
  test('square corners are the four corners, clockwise', () => {
    assert.deepEqual(roundedRectOutline(200, 100, 0), [
      { x: -100, y: -50 }, { x: 100, y: -50 }, { x: 100, y: 50 }, { x: -100, y: 50 },
    ]);
  });

  test('rounded corners are arcs that stay inside the card and touch its edges', () => {
    const points = roundedRectOutline(200, 100, 10, 4);
    assert.equal(points.length, 4 * 5);
    for (const { x, y } of points) assert.ok(Math.abs(x) <= 100 + 1e-9 && Math.abs(y) <= 50 + 1e-9);
    near(points[0].y, -50);
    near(points[0].x, 90);
    near(points[4].x, 100);
    const corner = Math.hypot(100, 50);
    assert.ok(Math.max(...points.map(({ x, y }) => Math.hypot(x, y))) < corner - 2, 'the corner is cut');
  });

  test('the radius is capped at half the short side', () => {
    const points = roundedRectOutline(40, 20, 99, 2);
    for (const { y } of points) assert.ok(Math.abs(y) <= 10 + 1e-9);
  });
});

describe('strips', () => {
  test('they tile the card from left to right without gaps, the near end tallest', () => {
    const angle = 0.8;
    const strips = flipStrips(300, 200, angle, D, 12);
    assert.equal(strips.length, 12);
    near(strips[0].u0, 0);
    near(strips[11].u1, 1);
    strips.slice(1).forEach((strip, i) => {
      assert.equal(strip.u0, strips[i].u1);
      assert.equal(strip.x0, strips[i].x1);
      assert.ok(strip.x1 > strip.x0);
      assert.ok(strip.halfHeight < strips[i].halfHeight, 'a positive angle turns the right edge away');
    });
    near(strips[0].x0, projectPoint(-150, 0, angle, D).x);
    near(strips[11].x1, projectPoint(150, 0, angle, D).x);
  });

  test('flat, one strip is the card itself', () => {
    assert.deepEqual(flipStrips(300, 200, 0, D, 1), [{ u0: 0, u1: 1, x0: -150, x1: 150, halfHeight: 100 }]);
  });

  test('more strips for a bigger card and a deeper turn, within bounds', () => {
    const small = stripCount(300, 200, 0.6, D, 1);
    assert.ok(stripCount(300, 200, 0.6, D, 2) > small, 'more device pixels');
    assert.ok(stripCount(300, 200, 1.0, D, 1) > small, 'a deeper turn');
    assert.ok(stripCount(1000, 800, 1.2, D, 3) <= 256);
    assert.ok(stripCount(300, 200, 1e-6, D, 1) >= 1);
    const still = stripCount(300, 420, 1.0, D, 1.4);
    const moving = stripCount(300, 420, 1.0, D, 1.4, 1);
    assert.ok(moving <= Math.ceil(still / 4) + 1 && moving < still, 'a whole-pixel step in motion: a quarter of the strips');
  });

  test('the steps left at the top edge stay under a quarter pixel', () => {
    for (const angle of [0.3, 0.8, 1.2, -1.0]) {
      const [w, h, scale] = [634, 476, 1.5];
      const count = stripCount(w, h, angle, D, scale);
      if (count === 256) continue;
      for (const strip of flipStrips(w, h, angle, D, count)) {
        const left = projectPoint(-w / 2 + w * strip.u0, h / 2, angle, D).y;
        const right = projectPoint(-w / 2 + w * strip.u1, h / 2, angle, D).y;
        const step = Math.max(Math.abs(left - strip.halfHeight), Math.abs(right - strip.halfHeight)) * scale;
        assert.ok(step <= 0.25 + 1e-6, `angle ${angle}: a step of ${step} px`);
      }
    }
  });
});
