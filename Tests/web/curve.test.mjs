import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';

import {
  curveProgress, easedProgress, interpolateTransform, springDisplacement,
} from '../../Resources/web/curve.js';

const near = (actual, expected, tolerance, message) =>
  assert.ok(Math.abs(actual - expected) <= tolerance, `${message ?? ''} ${actual} ≠ ${expected} ± ${tolerance}`);

describe('eased curves', () => {
  const cases = [
    ['linear', [[0, 0], [0.25, 0.25], [0.5, 0.5], [1, 1]]],
    ['easeOut', [[0, 0], [0.25, 0.578125], [0.5, 0.875], [1, 1]]],
    ['easeInOut', [[0, 0], [0.25, 0.0625], [0.5, 0.5], [0.75, 0.9375], [1, 1]]],
  ];
  for (const [type, points] of cases) {
    test(`${type} matches hand-checked values`, () => {
      for (const [p, expected] of points) {
        assert.equal(easedProgress(type, p), expected, `${type}(${p})`);
        // ms → s on both sides of the division rounds in the last bit (0.6 / 0.8 < 0.75).
        near(curveProgress({ type }, p * 800, 800), expected, 1e-15, `${type} at ${p * 800} of 800 ms`);
      }
    });
  }

  test('clamp before the start and after the end', () => {
    for (const type of ['linear', 'easeOut', 'easeInOut']) {
      assert.equal(curveProgress({ type }, -50, 400), 0);
      assert.equal(curveProgress({ type }, 400, 400), 1);
      assert.equal(curveProgress({ type }, 9000, 400), 1);
    }
  });

  test('an unknown curve type moves linearly', () => {
    assert.equal(curveProgress({ type: 'bounce' }, 100, 400), 0.25);
  });
});

// m·x'' + c·x' + k·(x − 1) = 0 integrated with classic RK4: an independent check of the closed forms.
function integrateSpring({ stiffness: k, damping: c, mass: m, velocity: v0 }, until, step = 1e-4) {
  const acceleration = (x, v) => (-c * v - k * (x - 1)) / m;
  let x = 0;
  let v = v0;
  const steps = Math.round(until / step);
  for (let i = 0; i < steps; i += 1) {
    const k1x = v;
    const k1v = acceleration(x, v);
    const k2x = v + (step / 2) * k1v;
    const k2v = acceleration(x + (step / 2) * k1x, v + (step / 2) * k1v);
    const k3x = v + (step / 2) * k2v;
    const k3v = acceleration(x + (step / 2) * k2x, v + (step / 2) * k2v);
    const k4x = v + step * k3v;
    const k4v = acceleration(x + step * k3x, v + step * k3v);
    x += (step / 6) * (k1x + 2 * k2x + 2 * k3x + k4x);
    v += (step / 6) * (k1v + 2 * k2v + 2 * k3v + k4v);
  }
  return x;
}

describe('spring', () => {
  const springs = {
    'under-damped (ζ = 0.5)': { type: 'spring', stiffness: 100, damping: 10, mass: 1, velocity: 2 },
    'under-damped, the default look (ζ ≈ 0.997)': { type: 'spring', stiffness: 170, damping: 26, mass: 1, velocity: 0 },
    'critically damped (ζ = 1)': { type: 'spring', stiffness: 100, damping: 20, mass: 1, velocity: 0 },
    'critically damped, heavy, thrown (ζ = 1)': { type: 'spring', stiffness: 50, damping: 20, mass: 2, velocity: 4 },
    'over-damped (ζ = 1.5)': { type: 'spring', stiffness: 100, damping: 30, mass: 1, velocity: -3 },
  };
  const durationMs = 2000;

  for (const [name, curve] of Object.entries(springs)) {
    test(`${name}: 0 at the start, 1 at the end`, () => {
      assert.equal(curveProgress(curve, 0, durationMs), 0);
      near(1 + springDisplacement(curve, 0), 0, 1e-15, 'closed form at t = 0');
      assert.equal(curveProgress(curve, durationMs, durationMs), 1);
      assert.equal(curveProgress(curve, durationMs + 1, durationMs), 1);
    });

    test(`${name}: matches a numeric integration within 1e-4`, () => {
      for (const seconds of [0.01, 0.05, 0.1, 0.2, 0.35, 0.5, 0.8, 1.2]) {
        near(curveProgress(curve, seconds * 1000, durationMs), integrateSpring(curve, seconds), 1e-4, `t = ${seconds} s`);
      }
    });
  }

  test('a zero-mass spring falls back to linear instead of NaN', () => {
    assert.equal(curveProgress({ type: 'spring', stiffness: 100, damping: 10, mass: 0, velocity: 0 }, 250, 1000), 0.25);
  });
});

test('interpolateTransform mixes every key and may overshoot', () => {
  const from = { x: 0, y: 10, w: 100, h: 200, rotation: -1, scaleX: 1, scaleY: 1, opacity: 0, flip: 0 };
  const to = { x: 100, y: 20, w: 300, h: 200, rotation: 1, scaleX: 2, scaleY: 0.5, opacity: 1, flip: Math.PI };
  assert.deepEqual(interpolateTransform(from, to, 0.5), {
    x: 50, y: 15, w: 200, h: 200, rotation: 0, scaleX: 1.5, scaleY: 0.75, opacity: 0.5, flip: Math.PI / 2,
  });
  assert.equal(interpolateTransform(from, to, 1.1).x, 110.00000000000001);
});

const vectorsURL = new URL('./curve-vectors.json', import.meta.url);
const vectorsMissing = !existsSync(vectorsURL)
  && 'Tests/web/curve-vectors.json does not exist yet; the Swift tests write it: '
    + 'STACKWEB_WRITE_VECTORS=1 swift test --filter CurveVectorTests';

test('agrees with the Swift test vectors within 1e-9', { skip: vectorsMissing }, () => {
  const vectors = JSON.parse(readFileSync(vectorsURL, 'utf8'));
  assert.ok(Array.isArray(vectors) && vectors.length > 0, 'the vector file holds at least one curve');
  for (const { curve, duration, samples } of vectors) {
    assert.ok(samples.length > 0, `samples for ${JSON.stringify(curve)}`);
    for (const [elapsed, expected] of samples) {
      near(curveProgress(curve, elapsed, duration), expected, 1e-9, `${JSON.stringify(curve)} over ${duration} ms at ${elapsed} ms`);
    }
  }
});
