// Painting one flat card, face or back, in its own coordinates: stage points, origin at the card's
// centre. card.js places the card on the stage (and in perspective when it turns).

const BORDER_COLOR = '#fff';
const HIGHLIGHT = 'rgba(0, 0, 0, 0.15)';
const PLACEHOLDER = '#d9d5cf';
// The back: a deep blue with a fine white lattice and a framed diamond, like a playing card.
const BACK = Object.freeze({
  base: '#26435f', lattice: 'rgba(255, 255, 255, 0.12)', frame: 'rgba(255, 255, 255, 0.5)',
  spacing: 12, frameInset: 7,
});

/**
 * The part of an `imageW`×`imageH` image that covers a `boxW`×`boxH` box without distortion:
 * the largest centred crop with the box's aspect.
 */
export function coverCrop(imageW, imageH, boxW, boxH) {
  const scale = Math.max(boxW / imageW, boxH / imageH);
  const sw = boxW / scale;
  const sh = boxH / scale;
  return { sx: (imageW - sw) / 2, sy: (imageH - sh) / 2, sw, sh };
}

/**
 * Below this share of a photo kept by covering its card, a card whose look fits photos (`fit:
 * 'contain'`) shows the photo whole instead: a 3:2 photo on the deck's portrait card kept 45 %.
 */
export const MIN_COVERED_SHARE = 0.8;

/** A photo is drawn at most this many times its own pixels: past it, smaller, on the card's paper. */
export const MAX_ENLARGEMENT = 2;

/**
 * The most a decoded `image` may be scaled, in box units per image pixel, so that its photo of
 * `whole` {w, h} pixels is not enlarged past MAX_ENLARGEMENT at `devicePerUnit` device pixels per
 * box unit; Infinity when the photo's size is not known (a variant smaller than the photo is
 * drawn at most at the size it was asked for: the limit never binds).
 */
export function largestScale(image, whole, devicePerUnit) {
  if (!whole || !image?.width) return Infinity;
  return (MAX_ENLARGEMENT * whole.w) / (image.width * devicePerUnit);
}

/**
 * Where an `imageW`×`imageH` photo goes in a `box` {x, y, w, h} and which part of it: covering the
 * box (`coverCrop`), or, with `fit` 'contain' when covering would keep under MIN_COVERED_SHARE of
 * the photo, whole and centred (the rest of the box shows the card's paper). A photo that covering
 * would scale past `maxScale` (largestScale: a 64×64 image on a wall-sized card) is drawn whole,
 * centred, at most that large. Answers {sx, sy, sw, sh, dx, dy, dw, dh} for drawImage.
 */
export function photoPlacement(imageW, imageH, box, fit = 'cover', maxScale = Infinity) {
  const crop = coverCrop(imageW, imageH, box.w, box.h);
  const enlarged = box.w / crop.sw > maxScale;
  if (!enlarged && (fit !== 'contain' || (crop.sw * crop.sh) / (imageW * imageH) >= MIN_COVERED_SHARE)) {
    return { ...crop, dx: box.x, dy: box.y, dw: box.w, dh: box.h };
  }
  const scale = Math.min(box.w / imageW, box.h / imageH, maxScale);
  const dw = imageW * scale;
  const dh = imageH * scale;
  return {
    sx: 0, sy: 0, sw: imageW, sh: imageH, dx: box.x + (box.w - dw) / 2, dy: box.y + (box.h - dh) / 2, dw, dh,
  };
}

/** The card's border and the photo area inside it, with their corner radii, for a look. */
export function cardBoxes(w, h, look) {
  const border = Math.min(look.border, w / 4, h / 4);
  const radius = Math.min(look.radius, w / 2, h / 2);
  return {
    outer: { x: -w / 2, y: -h / 2, w, h, radius },
    inner: {
      x: -w / 2 + border, y: -h / 2 + border, w: w - 2 * border, h: h - 2 * border, radius: Math.max(0, radius - border),
    },
  };
}

/** Traces a box with rounded corners (a plain rectangle when `radius` is 0). */
export function boxPath(ctx, { x, y, w, h, radius }) {
  ctx.beginPath();
  if (radius <= 0) {
    ctx.rect(x, y, w, h);
    return;
  }
  ctx.moveTo(x + radius, y);
  ctx.arcTo(x + w, y, x + w, y + h, radius);
  ctx.arcTo(x + w, y + h, x, y + h, radius);
  ctx.arcTo(x, y + h, x, y, radius);
  ctx.arcTo(x, y, x + w, y, radius);
  ctx.closePath();
}

// The border is the whole card filled with its paper (white, or the look's `paper`), the photo
// drawn over it; the shadow, when asked for, is cast by that first fill only. `shadow` is
// {color, blur, offsetY} in device pixels.
function fillOuter(ctx, outer, shadow, paper) {
  if (shadow) {
    ctx.shadowColor = shadow.color;
    ctx.shadowBlur = shadow.blur;
    ctx.shadowOffsetX = 0;
    ctx.shadowOffsetY = shadow.offsetY;
  }
  ctx.fillStyle = paper;
  if (outer.radius > 0) {
    boxPath(ctx, outer);
    ctx.fill();
  } else {
    // fillRect skips building a path: most cards are square, and a pile redraws all of them.
    ctx.fillRect(outer.x, outer.y, outer.w, outer.h);
  }
  if (shadow) ctx.shadowColor = 'transparent';
}

/** Traces the closed polygon `points` as the current path. */
export function polygonPath(ctx, points) {
  ctx.beginPath();
  points.forEach(({ x, y }, i) => (i ? ctx.lineTo(x, y) : ctx.moveTo(x, y)));
  ctx.closePath();
}

/**
 * The face of a `w`×`h` card: white border, the photo placed as the look's `fit` says
 * (`photoPlacement`: covering the card, or whole on its paper; a placeholder until `image` is
 * decoded), the highlight veil. `shadow` (device pixels) or null. `maxScale`: the most the image
 * may be scaled, in points per image pixel (largestScale).
 */
export function paintFace(ctx, w, h, look, image, highlight, shadow, maxScale = Infinity) {
  const { outer, inner } = cardBoxes(w, h, look);
  fillOuter(ctx, outer, shadow, look.paper ?? BORDER_COLOR);
  const clipped = inner.radius > 0;
  if (clipped) {
    ctx.save();
    boxPath(ctx, inner);
    ctx.clip();
  }
  if (image) {
    const at = photoPlacement(image.width, image.height, inner, look.fit, maxScale);
    ctx.drawImage(image, at.sx, at.sy, at.sw, at.sh, at.dx, at.dy, at.dw, at.dh);
  } else {
    ctx.fillStyle = PLACEHOLDER;
    ctx.fillRect(inner.x, inner.y, inner.w, inner.h);
  }
  if (highlight) {
    ctx.fillStyle = HIGHLIGHT;
    ctx.fillRect(inner.x, inner.y, inner.w, inner.h);
  }
  if (clipped) ctx.restore();
}

/** The back of a `w`×`h` card: white border, a blue lattice, a framed diamond in the middle. */
export function paintBack(ctx, w, h, look, shadow) {
  const { outer, inner } = cardBoxes(w, h, look);
  fillOuter(ctx, outer, shadow);
  ctx.save();
  boxPath(ctx, inner);
  ctx.fillStyle = BACK.base;
  ctx.fill();
  ctx.clip();

  // Two families of diagonals, x − y = c and x + y = c, centred so the pattern is symmetric.
  const reach = inner.h / 2;
  const span = Math.ceil((inner.w / 2 + reach) / BACK.spacing) * BACK.spacing;
  ctx.beginPath();
  for (let c = -span; c <= span; c += BACK.spacing) {
    ctx.moveTo(c - reach, -reach);
    ctx.lineTo(c + reach, reach);
    ctx.moveTo(c + reach, -reach);
    ctx.lineTo(c - reach, reach);
  }
  ctx.strokeStyle = BACK.lattice;
  ctx.lineWidth = 1;
  ctx.stroke();

  const inset = Math.min(BACK.frameInset, inner.w / 8, inner.h / 8);
  boxPath(ctx, {
    x: inner.x + inset, y: inner.y + inset, w: inner.w - 2 * inset, h: inner.h - 2 * inset,
    radius: Math.max(0, inner.radius - inset / 2),
  });
  ctx.strokeStyle = BACK.frame;
  ctx.lineWidth = 1.5;
  ctx.stroke();

  const size = Math.min(inner.w, inner.h) / 5;
  polygonPath(ctx, [{ x: 0, y: -size }, { x: size * 0.7, y: 0 }, { x: 0, y: size }, { x: -size * 0.7, y: 0 }]);
  ctx.fillStyle = BACK.base;
  ctx.fill();
  ctx.stroke();
  ctx.restore();
}
