// Which sprite (sprites.js) stands for a card in a frame: its own, made now if it must be, or one
// already made that serves meanwhile (a larger size it passes through, a size close to a dragged
// card's, another style's while a switch moves it, a half-size copy in a coarse frame), so that no
// frame stalls making many sprites at once.

import { cardBoxes } from './paint.js';
import { quantizeScale, spriteGeometry, spriteSizes } from './sprites.js';

// How long a frame at rest may spend making sprites of its own style's look before the other
// cards stand in with another style's sprite (standInSprite).
const FRAME_SPRITE_MS = 8;
// Coarse copies made in one frame at most; the others draw from their sprite meanwhile.
const COARSE_SPRITES_PER_FRAME = 2;

/**
 * What names the sprite of one side of `card` at `size` (points) for `painter`'s look and screen:
 * the fields SpriteCache's `has`, `find` and `near` take (the latter two ignore the look's name).
 * With `image` and `look`, what `get` takes to draw it (spriteRequest). One shape for both: a
 * frame asks for every card it draws.
 */
export function spriteKey(painter, card, side, size, withShadow, image = null, look = null) {
  return {
    side, src: card.src, highlight: card.highlight, w: size.w, h: size.h, lookName: painter.lookName,
    devicePerPoint: painter.pointToDevice, withShadow, image, look,
  };
}

// spriteKey with what drawing the sprite takes: the photo, as decoded so far, its own size when
// known (images.js: wholeSize), and the look.
function spriteRequest(painter, card, side, size, withShadow) {
  const face = side === 'face' && card.src;
  const image = face ? painter.images.get(card.src, photoPixels(painter, size)) : null;
  const whole = face ? painter.images.wholeSize?.(card.src) ?? null : null;
  return { ...spriteKey(painter, card, side, size, withShadow, image, painter.look), whole };
}

/** The card side's own sprite at `size`, made now if it is not yet. */
export function spriteOf(painter, card, side, size, withShadow) {
  return painter.sprites.get(spriteRequest(painter, card, side, size, withShadow));
}

/** spriteOf a piece at a time (SpriteCache.steps). */
export function spriteSteps(painter, card, side, size, withShadow) {
  return painter.sprites.steps(spriteRequest(painter, card, side, size, withShadow));
}

/** The pixels along its longer side a photo is wanted at for a card of `size` (points). */
export function photoPixels(painter, size) {
  const { inner } = cardBoxes(size.w, size.h, painter.look);
  return Math.max(inner.w, inner.h) * painter.pointToDevice;
}

/**
 * The sprite to draw a card side with (sprites.js: spriteSizes): its own, or while it grows or
 * shrinks, one already made at the larger size; while a drag resizes it (`dragged`), the last one
 * made if its size is close; drawn `onScreen` (not into a layer), a stand-in (standInSprite).
 * Null for a card drawn coarse that waits for its photo (awaitsPhoto).
 */
export function spriteFor(painter, card, side, withShadow, dragged, onScreen) {
  const { end, larger } = spriteSizes(card);
  if (larger) {
    const kept = painter.sprites.find(spriteKey(painter, card, side, larger, withShadow));
    if (kept) return kept;
  }
  if (dragged) {
    const near = painter.sprites.near(spriteKey(painter, card, side, end, withShadow));
    // Not a placeholder: the card waits for its photo in a sprite of its own (painter.pending).
    if (near && (side !== 'face' || !card.src || near.imageWidth)) return near;
  }
  const standIn = onScreen ? standInSprite(painter, card, side, end, withShadow, Boolean(card.anim)) : null;
  if (standIn) {
    painter.standIns.add(card.id);
    return standIn;
  }
  if (painter.coarse && side === 'face' && awaitsPhoto(painter, card, end)) return null;
  const started = performance.now();
  const sprite = spriteOf(painter, card, side, end, withShadow);
  painter.spriteMs += performance.now() - started;
  if (side === 'face' && card.src && !sprite.imageWidth) painter.pending.add(card.id);
  return sprite;
}

/**
 * A card come to rest at a size it has no sprite of yet (a style switch's last frame: every card
 * at a new size, ten sprites in one frame) is drawn once from the sprite it moved with, if that is
 * as large (scaled down, it stays sharp) or nothing moves any more; idle time makes its own and
 * asks for the frame that shows it (Renderer.takeRedraw). A card still changing size (`resizing`)
 * takes whatever sprite it has while the time between frames makes its own (warmEnds): a few
 * softer frames rather than a stall; so does any card drawn coarse. Null when its own is made, or
 * should be: a sprite of another style stands in at rest only past the frame's sprite budget.
 */
export function standInSprite(painter, card, side, end, withShadow, resizing = false) {
  const own = spriteKey(painter, card, side, end, withShadow);
  if (painter.sprites.has(own)) return null;
  const latest = painter.sprites.near(own, Infinity);
  if (!latest || (side === 'face' && card.src && !latest.imageWidth)) return null;
  // Another style's sprite (its corners, its border) stands in while the card still moves or is
  // drawn coarse; at rest only once the frame has spent FRAME_SPRITE_MS making sprites: a card in
  // a new style shows that style's look from its first frame, unless that would stall it.
  const otherLook = !latest.key?.startsWith(`${painter.lookName}|`);
  if (otherLook && !resizing && !painter.coarse && painter.spriteMs < FRAME_SPRITE_MS) return null;
  return painter.atRest || painter.coarse || resizing || (latest.w >= end.w && latest.h >= end.h) ? latest : null;
}

/**
 * Whether a card drawn coarse waits for its photo rather than for a blank card's sprite: one the
 * message that brings it has no photo for yet (a style switch brings the cards another style did
 * not draw, under the others at first), and that has no sprite to stand in. A blank sprite, its
 * blurred shadow included, took 4–9 ms before the switch's first frame, only to be made again
 * when the photo landed; the card is drawn from then on (Renderer.prepare). Asking starts loading it.
 */
export function awaitsPhoto(painter, card, size) {
  if (!card.src) return false;
  // A card with a sprite is left alone: asking for its photo at a new size mid-motion would load
  // it, and each landing would make a wall-sized sprite between the frames (20–50 ms each).
  const any = painter.sprites.near(spriteKey(painter, card, 'face', size, true), Infinity);
  return !any && !painter.images.get(card.src, photoPixels(painter, size));
}

/**
 * The sprites idle time makes so that the next motion does not stall its first frame making them:
 * every card's face (those not shown yet too: the deck's next card fades in when the front one
 * flies), and in the deck the front card's back and its face without a shadow (a tap turns it
 * over). [{card, side, size, withShadow}], front card first.
 */
export function wantedSprites(entries, style) {
  const wanted = [];
  for (let i = entries.length - 1; i >= 0; i -= 1) {
    const { card } = entries[i];
    const size = spriteSizes(card).end;
    if (!(size.w > 0 && size.h > 0)) continue;
    wanted.push({ card, side: 'face', size, withShadow: true });
    if (style === 'deck' && i === entries.length - 1) {
      // Its sides without shadow while it turns, its back with one at the end.
      wanted.push({ card, side: 'face', size, withShadow: false }, { card, side: 'back', size, withShadow: false },
        { card, side: 'back', size, withShadow: true });
    }
  }
  return wanted;
}

/**
 * The front part of `wanted` (wantedSprites) whose sprites `painter` can keep together, within
 * `budget` pixels. Idle time makes only those: on a 4K screen four wall-sized sprites of the
 * frame style pass the sprite cache's budget, and making the last evicted the first, so idle time
 * made them again and again and the cards drawn coarse at rest were never drawn sharp.
 */
export function affordableSprites(painter, wanted, budget) {
  let total = 0;
  const kept = [];
  for (const want of wanted) {
    const { width, height } = spriteGeometry(want.size.w, want.size.h, painter.look,
      quantizeScale(painter.pointToDevice), want.withShadow);
    total += width * height;
    if (total > budget) break;
    kept.push(want);
  }
  return kept;
}

// A sprite's copy at a coarse canvas' resolution, made once per sprite (a turned image is drawn
// from a sprite four times its size several times slower: every other pixel read, none cached).
const coarseCopies = new WeakMap();

/** Whether `sprite` has its copy at `zoom` (coarseCopy). */
export function hasCoarseCopy(sprite, zoom) {
  return coarseCopies.get(sprite)?.zoom === zoom;
}

/** `sprite`'s copy at `zoom`, made now (idle time's) if it is not yet, with `make(w, h)`. */
export function coarseCopy(make, sprite, zoom) {
  const kept = coarseCopies.get(sprite);
  if (kept?.zoom === zoom) return kept;
  const width = Math.max(1, Math.ceil(sprite.canvas.width * zoom));
  const height = Math.max(1, Math.ceil(sprite.canvas.height * zoom));
  const canvas = make(width, height);
  const ctx = canvas.getContext('2d');
  ctx.imageSmoothingEnabled = true;
  ctx.drawImage(sprite.canvas, 0, 0, width, height);
  // Rasterised now (made in idle time, its cost stays there), not when first drawn from.
  const image = typeof canvas.transferToImageBitmap === 'function' ? canvas.transferToImageBitmap() : canvas;
  const copy = { ...sprite, canvas: image, scale: (sprite.scale * width) / sprite.canvas.width, zoom };
  coarseCopies.set(sprite, copy);
  return copy;
}

/** What a coarse frame draws for `sprite`: its copy at `zoom`, or itself past the frame's copies. */
export function coarseSprite(painter, sprite, zoom) {
  const kept = coarseCopies.get(sprite);
  if (kept?.zoom === zoom) return kept;
  if (painter.coarseMade >= COARSE_SPRITES_PER_FRAME) return sprite;
  painter.coarseMade += 1;
  return coarseCopy(painter.make, sprite, zoom);
}
