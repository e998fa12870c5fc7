// The geometry of a card turning about its vertical axis, seen in perspective. Canvas 2D has only
// affine transforms, which cannot make one edge of a card taller than the other; so a turning
// card is drawn as narrow vertical strips, each scaled by its own depth. Pure: card coordinates
// are stage points with the origin at the card's centre, before its rotation on the stage.

// A point may not come closer to the eye than this fraction of the viewing distance: a card wider
// than twice the distance would otherwise pass behind the eye and blow up.
const NEAREST_DEPTH = 0.1;
// Within one strip the card's top and bottom edges are drawn level, while the true edges slope
// (the nearer end of the card is taller): strips are made narrow enough that the step this leaves
// at either edge stays below a quarter of a device pixel.
const MAX_STEP_PX = 0.25;
/** The step allowed to a card turning in motion, drawn unfiltered (card.js). */
export const MOVING_STEP_PX = 1;
// Narrow enough, too, that a straight mapping across a strip follows the perspective's curve.
const MAX_STRIP_PX = 16;
const MAX_STRIPS = 256;

/**
 * Which side of a card turned by `flip` radians faces the viewer, and the angle to draw that side
 * at. The back is the face turned half a turn further: drawn at flip − π its own left edge stays
 * on the left as seen, so the back is not mirrored.
 */
export function visibleSide(flip) {
  return Math.cos(flip) >= 0 ? { side: 'face', angle: flip } : { side: 'back', angle: flip - Math.PI };
}

/** Depth scale of the card-plane column at `x` when turned by `angle`: > 1 nearer the eye. */
function depthScale(x, angle, distance) {
  // A positive angle turns the right edge away from the viewer.
  const depth = distance + x * Math.sin(angle);
  return distance / Math.max(depth, distance * NEAREST_DEPTH);
}

/** Where the card-plane point (x, y) appears when the card is turned by `angle`, seen from `distance`. */
export function projectPoint(x, y, angle, distance) {
  const scale = depthScale(x, angle, distance);
  return { x: x * Math.cos(angle) * scale, y: y * scale };
}

/**
 * The outline of a `w`×`h` card centred on the origin with corners of radius `radius`, clockwise
 * on screen (y down); each corner is an arc of `segments` straight pieces.
 */
export function roundedRectOutline(w, h, radius, segments = 6) {
  const r = Math.max(0, Math.min(radius, w / 2, h / 2));
  const hw = w / 2;
  const hh = h / 2;
  if (r === 0) return [{ x: -hw, y: -hh }, { x: hw, y: -hh }, { x: hw, y: hh }, { x: -hw, y: hh }];
  const corners = [
    [hw - r, -hh + r, -Math.PI / 2], [hw - r, hh - r, 0], [-hw + r, hh - r, Math.PI / 2], [-hw + r, -hh + r, Math.PI],
  ];
  const points = [];
  for (const [cx, cy, start] of corners) {
    for (let i = 0; i <= segments; i += 1) {
      const a = start + (Math.PI / 2) * (i / segments);
      points.push({ x: cx + r * Math.cos(a), y: cy + r * Math.sin(a) });
    }
  }
  return points;
}

/**
 * How many strips draw a `w`×`h` card turned by `angle` without visible steps, at `devicePerPoint`
 * device pixels per card point: steps of at most `maxStepPx` device pixels along its edges (a
 * quarter pixel at rest; in motion, drawn unfiltered, a whole one: a quarter of the strips).
 */
export function stripCount(w, h, angle, distance, devicePerPoint, maxStepPx = MAX_STEP_PX) {
  // The depth scale changes fastest at the near edge: |dk/dx| = distance·|sin| / depth².
  const sin = Math.abs(Math.sin(angle));
  const nearest = Math.max(distance - (w / 2) * sin, distance * NEAREST_DEPTH);
  const taper = ((distance * sin) / nearest ** 2) * w;
  // A strip drawn at its mean height is off by a quarter of its height change at each edge.
  const forEdges = (h * devicePerPoint * taper) / (4 * maxStepPx);
  const forWidth = (w * Math.abs(Math.cos(angle)) * devicePerPoint) / MAX_STRIP_PX;
  return Math.min(MAX_STRIPS, Math.max(1, Math.ceil(Math.max(forEdges, forWidth))));
}

/**
 * The strips that draw a `w`×`h` card turned by `angle` (|angle| ≤ π/2, the visible side):
 * each takes the columns [u0, u1] (fractions of the card's width) of the flat card and draws them
 * between x0 and x1, `halfHeight` (its mean) above and below the centre line, in card coordinates.
 */
export function flipStrips(w, h, angle, distance, count) {
  const strips = [];
  let left = projectPoint(-w / 2, h / 2, angle, distance);
  for (let i = 0; i < count; i += 1) {
    const u0 = i / count;
    const u1 = (i + 1) / count;
    const right = projectPoint(-w / 2 + w * u1, h / 2, angle, distance);
    strips.push({ u0, u1, x0: left.x, x1: right.x, halfHeight: (left.y + right.y) / 2 });
    left = right;
  }
  return strips;
}
