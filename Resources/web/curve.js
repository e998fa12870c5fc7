// Animation curves, exactly as docs/wire-protocol.md defines them. The server (StackModel's
// Curve.swift) evaluates the same formulas; Tests/web/curve-vectors.json keeps the two in step.

/** The transform keys an animation interpolates, in wire order. */
export const TRANSFORM_KEYS = Object.freeze([
  'x', 'y', 'w', 'h', 'rotation', 'scaleX', 'scaleY', 'opacity', 'flip',
]);

// Below this distance from 1 a damping ratio counts as critical; the general formulas divide by
// √(1 − ζ²) or √(ζ² − 1) and lose all precision near it.
const CRITICAL_TOLERANCE = 1e-6;

const clamp01 = (value) => Math.min(Math.max(value, 0), 1);

/** Progress of the cubic easings for p in [0, 1]; `undefined` for a type that is not one of them. */
export function easedProgress(type, p) {
  switch (type) {
    case 'linear': return p;
    case 'easeOut': return 1 - (1 - p) ** 3;
    case 'easeInOut': return p < 0.5 ? 4 * p ** 3 : 1 - (-2 * p + 2) ** 3 / 2;
    default: return undefined;
  }
}

/**
 * Displacement e(t) = x(t) − 1 of the spring m·x'' + c·x' + k·(x − 1) = 0 with x(0) = 0 and
 * x'(0) = velocity, at `t` seconds.
 */
export function springDisplacement({ stiffness: k, damping: c, mass: m, velocity: v0 = 0 }, t) {
  const w0 = Math.sqrt(k / m);
  const zeta = c / (2 * Math.sqrt(k * m));
  if (Math.abs(zeta - 1) < CRITICAL_TOLERANCE) {
    return Math.exp(-w0 * t) * (-1 + (v0 - w0) * t);
  }
  if (zeta < 1) {
    const wd = w0 * Math.sqrt(1 - zeta * zeta);
    return Math.exp(-zeta * w0 * t) * (-Math.cos(wd * t) + ((v0 - zeta * w0) / wd) * Math.sin(wd * t));
  }
  const root = Math.sqrt(zeta * zeta - 1);
  const r1 = -w0 * (zeta - root);
  const r2 = -w0 * (zeta + root);
  const c2 = (v0 + r1) / (r2 - r1);
  const c1 = -1 - c2;
  return c1 * Math.exp(r1 * t) + c2 * Math.exp(r2 * t);
}

/**
 * Progress of `curve` after `elapsedMs` of an animation lasting `durationMs`: 0 before the start,
 * exactly 1 at and after the end, and may overshoot 1 in between (springs).
 */
export function curveProgress(curve, elapsedMs, durationMs) {
  if (elapsedMs >= durationMs) return 1;
  if (elapsedMs <= 0) return 0;
  const p = clamp01(elapsedMs / 1000 / (durationMs / 1000));
  if (curve?.type === 'spring') {
    const progress = 1 + springDisplacement(curve, elapsedMs / 1000);
    // A malformed spring (zero mass or stiffness) must not make a card vanish: fall back to linear.
    return Number.isFinite(progress) ? progress : p;
  }
  // An unknown curve from a newer server still moves the card to its target.
  return easedProgress(curve?.type, p) ?? p;
}

/** `from + (to − from)·progress` for every transform key. */
export function interpolateTransform(from, to, progress) {
  const result = {};
  for (const key of TRANSFORM_KEYS) {
    result[key] = from[key] + (to[key] - from[key]) * progress;
  }
  return result;
}
