// Drawing one card: placed by its transform, from the sprite that stands for it (sprite-choice.js),
// flat in one drawImage or, turning about its vertical axis, in perspective strips; and only in the
// bands an opaque card above leaves visible (reach.js). Card sizes are stage points: `painter`
// (painter.js) says where they land in device pixels.

import { MOVING_STEP_PX, flipStrips, projectPoint, roundedRectOutline, stripCount, visibleSide } from './flip.js';
import { PERSPECTIVE_DISTANCE } from './look.js';
import { polygonPath } from './paint.js';
import { FLAT_FLIP, WHOLE, drawnRotation, isVisible, visibleBands } from './reach.js';
import { coarseSprite, spriteFor } from './sprite-choice.js';
import { drawSprite } from './sprites.js';

// Neighbouring strips overlap by this many device pixels, so that no background shows through
// the anti-aliased seam between them.
const STRIP_OVERLAP_PX = 0.75;
// A moving sprite drawn within this share of its own pixel size is sampled nearest-neighbour.
const NEAREST_SCALE_SLACK = 0.1;

/**
 * Where a card is drawn, which decides how: into a cached layer (filtered, from its own sprite);
 * on the screen at rest; on the screen moving (unfiltered where that looks the same, a turn under a
 * pixel drawn straight); on the screen moved by a drag (as moving, and a sprite of a close size serves).
 * On the screen, a sprite of another size or style may stand in (sprite-choice.js: standInSprite).
 */
export const Drawn = Object.freeze({ INTO_LAYER: 'into layer', STILL: 'still', MOVING: 'moving', DRAGGED: 'dragged' });

/** Cards drawn on the page's canvas itself: device pixels, unscaled (see originAt). */
export const SCREEN = Object.freeze({ x: 0, y: 0, zoom: 1 });

/**
 * Where a canvas lies on the page's: device pixel (x, y) is its (0, 0), and it is `zoom` times as
 * fine (a cached layer's canvas covers `box` at full resolution).
 */
export function originAt(box) {
  return { x: box.x, y: box.y, zoom: 1 };
}

/**
 * Whether a moving card's sprite may be drawn unfiltered. A software canvas filters a turned or
 * sub-pixel-placed image several times slower than it copies one (a 600×850 px card: ~8 ms against
 * ~1 at 1920×1080 without a GPU, most of a frame); drawn at about its own size, the unfiltered
 * sprite differs only by its edges stepping on the pixel grid while it moves. A card that grows or
 * shrinks keeps filtering (unfiltered, a scaled photo shimmers), and a card at rest is drawn
 * filtered into its layer.
 */
function samplesNearest(sprite, t, devicePerPoint) {
  const scale = (Math.max(Math.abs(t.scaleX), Math.abs(t.scaleY)) * devicePerPoint * t.w) / (sprite.w * sprite.scale);
  return Math.abs(scale - 1) <= NEAREST_SCALE_SLACK;
}

/**
 * Draws a card (`entry`, {card, transform}) within `limit` (device pixels) but for what `occluder`
 * (an opaque card above it) hides: a software canvas pays for every pixel a turned sprite covers,
 * and a deck's cards lie almost whole under the front one. Each visible band is drawn under a
 * whole-pixel rectangular clip, which costs nothing to apply. `drawn`: Drawn.
 */
export function drawUncovered(ctx, limit, painter, entry, occluder, origin, drawn) {
  const bands = visibleBands(painter, entry.transform, limit, occluder);
  if (!bands) return;
  if (bands === WHOLE) {
    drawCard(ctx, painter, entry, origin, drawn);
    return;
  }
  for (const band of bands) {
    ctx.save();
    ctx.setTransform(origin.zoom, 0, 0, origin.zoom, 0, 0);
    ctx.beginPath();
    ctx.rect(band.x - origin.x, band.y - origin.y, band.right - band.x, band.bottom - band.y);
    ctx.clip();
    drawCard(ctx, painter, entry, origin, drawn);
    ctx.restore();
  }
}

/** Sets `ctx` to the card's own coordinates, as seen from `origin` (originAt). */
export function placeCard(ctx, painter, t, origin, moving) {
  const p = painter.pointToDevice;
  const { x, y, zoom } = origin;
  ctx.setTransform(p * zoom, 0, 0, p * zoom, (painter.originX - x) * zoom, (painter.originY - y) * zoom);
  ctx.translate(t.x, t.y);
  const rotation = drawnRotation(t, p, moving);
  if (rotation !== 0) ctx.rotate(rotation);
  ctx.scale(t.scaleX, t.scaleY);
}

// Draws one card (its transform `t`) on a canvas at `origin` (originAt); false when unseen.
function drawCard(ctx, painter, { card, transform: t }, origin, drawn) {
  if (!isVisible(t)) return false;
  const moving = drawn === Drawn.MOVING || drawn === Drawn.DRAGGED;
  const onScreen = drawn !== Drawn.INTO_LAYER;
  const opacity = Math.min(t.opacity, 1);
  placeCard(ctx, painter, t, origin, moving);
  // Drawn straighter than it is: repainted as it is when it comes to rest.
  if (moving && drawnRotation(t, painter.pointToDevice, true) !== drawnRotation(t, painter.pointToDevice)) {
    painter.rough.add(card.id);
  }
  // A translucent card fades as one sheet, shadow included, as a layer's opacity does: the
  // sprite is opaque where the card is, so nothing under the photo shows through it.
  ctx.globalAlpha = opacity;
  const { side, angle } = visibleSide(t.flip);
  if (Math.abs(Math.sin(angle)) < FLAT_FLIP) {
    const own = spriteFor(painter, card, side, true, drawn === Drawn.DRAGGED, onScreen);
    // Coarse, a card new to the motion shows once its photo has come (awaitsPhoto).
    if (!own) return false;
    const sprite = origin.zoom < 1 ? coarseSprite(painter, own, origin.zoom) : own;
    // Drawn coarse (zoom below 1), a card in motion is unfiltered whatever its size.
    const nearest = moving && (origin.zoom < 1 || samplesNearest(sprite, t, painter.pointToDevice));
    if (nearest) {
      ctx.imageSmoothingEnabled = false;
      painter.rough.add(card.id);
    }
    drawSprite(ctx, sprite, t.w, t.h);
    if (nearest) ctx.imageSmoothingEnabled = true;
  } else {
    // Its strips are stretched by the perspective whatever its sprite: in motion, unfiltered too.
    if (moving) {
      ctx.imageSmoothingEnabled = false;
      painter.rough.add(card.id);
    }
    paintTurned(ctx, painter, card, t, side, angle, moving, onScreen);
    ctx.imageSmoothingEnabled = true;
  }
  ctx.globalAlpha = 1;
  return true;
}

/**
 * A card turned about its vertical axis: the card's shadow stretched under its projected outline,
 * the outline filled white (the hair between strips and outline shows the border's white), then
 * the flat side, from its sprite, laid over it in vertical strips, each as tall as its depth makes it.
 */
function paintTurned(ctx, painter, card, t, side, angle, moving, onScreen) {
  const sprite = spriteFor(painter, card, side, false, false, onScreen);
  const size = { w: sprite.w, h: sprite.h };
  const outline = roundedRectOutline(t.w, t.h, painter.look.radius)
    .map(({ x, y }) => projectPoint(x, y, angle, PERSPECTIVE_DISTANCE));
  const devicePerPoint = painter.pointToDevice * Math.max(Math.abs(t.scaleX), Math.abs(t.scaleY));
  const count = stripCount(t.w, t.h, angle, PERSPECTIVE_DISTANCE, devicePerPoint, moving ? MOVING_STEP_PX : undefined);
  const strips = flipStrips(t.w, t.h, angle, PERSPECTIVE_DISTANCE, count);
  const left = Math.min(...outline.map((point) => point.x));
  const right = Math.max(...outline.map((point) => point.x));
  const halfHeight = Math.max(...outline.map((point) => Math.abs(point.y)));

  const shadow = painter.sprites.shadow(size.w, size.h, painter.look, painter.lookName, painter.pointToDevice);
  const sx = (right - left) / size.w;
  const sy = (2 * halfHeight) / size.h;
  ctx.drawImage(shadow.canvas, left - shadow.pad * sx, -halfHeight - shadow.pad * sy,
    (shadow.canvas.width / shadow.scale) * sx, (shadow.canvas.height / shadow.scale) * sy);
  polygonPath(ctx, outline);
  ctx.fillStyle = '#fff';
  ctx.fill();

  const spriteW = sprite.w * sprite.scale;
  const spriteH = sprite.h * sprite.scale;
  const overlap = STRIP_OVERLAP_PX / (painter.pointToDevice * Math.abs(t.scaleX));
  strips.forEach(({ u0, u1, x0, x1, halfHeight: half }, i) => {
    const width = x1 - x0 + (i < strips.length - 1 ? overlap : 0);
    ctx.drawImage(sprite.canvas, u0 * spriteW, 0, (u1 - u0) * spriteW, spriteH, x0, -half, width, 2 * half);
  });
}
