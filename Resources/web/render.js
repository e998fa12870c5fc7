// Drawing a frame: the background, then every card in z order. Card sizes, the border and the
// shadow are in stage points, so a phone and a wall screen show the same picture, only scaled.

const BORDER = 5;
const SHADOW = Object.freeze({ color: 'rgba(0, 0, 0, 0.35)', blur: 16, offsetY: 4 });
const HIGHLIGHT = 'rgba(0, 0, 0, 0.15)';
const PLACEHOLDER = '#d9d5cf';
const CARD_BACK = '#e8e3dc';
const BACKGROUND_CENTRE = '#4a4541';
const BACKGROUND_EDGE = '#1d1b1a';

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

/** A soft radial background for a canvas of `width`×`height` device pixels. */
export function makeBackground(ctx, width, height) {
  const gradient = ctx.createRadialGradient(
    width / 2, height * 0.45, 0, width / 2, height * 0.45, Math.hypot(width, height) * 0.6,
  );
  gradient.addColorStop(0, BACKGROUND_CENTRE);
  gradient.addColorStop(1, BACKGROUND_EDGE);
  return gradient;
}

/**
 * Draws `cards` ([{card, transform}] in z order) on `ctx`. `view` is {width, height, dpr, fit,
 * background}: the canvas in device pixels, the stage fit in CSS pixels, the background paint.
 * `images.get(src, pixels)` answers a decoded photo or null.
 */
export function drawFrame(ctx, view, cards, images) {
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.globalAlpha = 1;
  ctx.fillStyle = view.background;
  ctx.fillRect(0, 0, view.width, view.height);
  const pointToDevice = view.dpr * view.fit.scale;
  for (const { card, transform } of cards) {
    drawCard(ctx, view, pointToDevice, card, transform, images);
  }
}

function drawCard(ctx, view, pointToDevice, card, t, images) {
  // cos(flip) narrows the card as it turns about its vertical axis; past a quarter turn the back
  // shows. (Perspective is left out: at these angles a flat squeeze reads as a turn.)
  const facing = Math.cos(t.flip);
  const opacity = Math.min(Math.max(t.opacity, 0), 1);
  if (opacity === 0 || t.w <= 0 || t.h <= 0 || t.scaleX * facing === 0 || t.scaleY === 0) return;

  ctx.save();
  ctx.setTransform(pointToDevice, 0, 0, pointToDevice, view.dpr * view.fit.x, view.dpr * view.fit.y);
  ctx.translate(t.x, t.y);
  ctx.rotate(t.rotation);
  ctx.scale(t.scaleX * facing, t.scaleY);
  ctx.globalAlpha = opacity;

  // Shadow geometry ignores the transform, so it is given in device pixels; that also keeps the
  // light coming from above whatever the card's rotation.
  ctx.shadowColor = SHADOW.color;
  ctx.shadowBlur = SHADOW.blur * pointToDevice;
  ctx.shadowOffsetY = SHADOW.offsetY * pointToDevice;
  ctx.fillStyle = '#fff';
  ctx.fillRect(-t.w / 2, -t.h / 2, t.w, t.h);
  ctx.shadowColor = 'transparent';

  const border = Math.min(BORDER, t.w / 4, t.h / 4);
  const inner = { x: -t.w / 2 + border, y: -t.h / 2 + border, w: t.w - 2 * border, h: t.h - 2 * border };
  if (facing < 0) {
    ctx.fillStyle = CARD_BACK;
    ctx.fillRect(inner.x, inner.y, inner.w, inner.h);
  } else {
    const image = card.src ? images.get(card.src, Math.max(inner.w, inner.h) * pointToDevice) : null;
    drawPhoto(ctx, inner, image);
    if (card.highlight) {
      ctx.fillStyle = HIGHLIGHT;
      ctx.fillRect(inner.x, inner.y, inner.w, inner.h);
    }
  }
  ctx.restore();
}

function drawPhoto(ctx, box, image) {
  if (!image) {
    ctx.fillStyle = PLACEHOLDER;
    ctx.fillRect(box.x, box.y, box.w, box.h);
    return;
  }
  const crop = coverCrop(image.width, image.height, box.w, box.h);
  ctx.drawImage(image, crop.sx, crop.sy, crop.sw, crop.sh, box.x, box.y, box.w, box.h);
}
