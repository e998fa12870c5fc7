// Animated photos (GIF, WebP): their frames decoded once, and the frame style playing them on the
// front photo. Everything else draws a photo's first frame, from its sprite; here only the photo
// area of a card at the front is painted again as each frame comes due, so a page showing no
// animation does no work, and one showing an animation draws only at its frames' pace.

import { placeCard, SCREEN } from './card.js';
import { largestScale, paintFace } from './paint.js';
import { Painter } from './painter.js';
import { isVisible } from './reach.js';
import { photoPixels } from './sprite-choice.js';

// Frames kept of one animation at most, and their decoded pixels at most (all frames together):
// a long or large clip plays its first frames, over and over.
const MAX_FRAMES = 240;
const MAX_FRAME_PIXELS = 48e6;
// Browsers show a GIF frame of no delay (or under 20 ms) for 100 ms; so does the page.
const SHORTEST_FRAME_MS = 20;
const UNTIMED_FRAME_MS = 100;

/** How long a frame whose own duration is `ms` (null: none given) is shown. */
export function frameDuration(ms) {
  return ms !== null && ms >= SHORTEST_FRAME_MS ? ms : UNTIMED_FRAME_MS;
}

/**
 * Which of the frames of `durations` (ms each) shows `elapsed` ms after the animation started,
 * looping, and how long until the next one: {index, nextMs}.
 */
export function frameAt(durations, elapsed) {
  const total = durations.reduce((sum, ms) => sum + ms, 0);
  let into = total > 0 ? ((elapsed % total) + total) % total : 0;
  for (const [index, ms] of durations.entries()) {
    if (into < ms) return { index, nextMs: ms - into };
    into -= ms;
  }
  return { index: 0, nextMs: durations[0] ?? UNTIMED_FRAME_MS };
}

/**
 * The frames of `blob` when it is an animation ([{image, ms}], ImageBitmaps), else null: where the
 * browser has ImageDecoder (WebCodecs); without it, a photo shows its first frame.
 */
export async function decodeFrames(blob) {
  if (typeof ImageDecoder !== 'function' || !/^image\/(gif|webp)$/.test(blob.type)) return null;
  const decoder = new ImageDecoder({ data: await blob.arrayBuffer(), type: blob.type });
  try {
    await decoder.tracks.ready;
    const track = decoder.tracks.selectedTrack;
    if (!track?.animated || track.frameCount < 2) return null;
    const frames = [];
    let pixels = 0;
    for (let index = 0; index < Math.min(track.frameCount, MAX_FRAMES); index += 1) {
      const { image } = await decoder.decode({ frameIndex: index });
      pixels += image.displayWidth * image.displayHeight;
      if (pixels > MAX_FRAME_PIXELS && frames.length) {
        image.close();
        break;
      }
      frames.push({ image: await createImageBitmap(image), ms: frameDuration(image.duration === null ? null : image.duration / 1000) });
      image.close();
    }
    return frames;
  } finally {
    decoder.close();
  }
}

/**
 * Plays the animated photo of the front card in the frame style: `draw` paints its current frame
 * over the card (as its sprite paints the first) and answers in how many ms the next one is due,
 * or null when nothing plays.
 */
export class AnimationPlayer {
  // When each animation (by decoded image) started playing, on the page's clock.
  #started = new WeakMap();

  /**
   * `entries` ([{card, transform}] in z order) as the renderer drew them on `ctx` (sharp, at
   * `view`), in `style`; `images` as for the renderer; `now` the page's clock (ms).
   */
  draw(ctx, view, entries, { style, images, now, photoFit = null }) {
    if (style !== 'frame' || !view?.fit) return null;
    const front = [...entries].reverse().find(({ transform }) => isVisible(transform));
    if (!front || front.transform.opacity < 1 || !front.card.src) return null;
    const painter = new Painter(view, style, { images, sprites: null, make: null }, { photoFit });
    const { card, transform: t } = front;
    const image = images.get(card.src, photoPixels(painter, { w: t.w, h: t.h }));
    if (!image?.frames) return null;
    if (!this.#started.has(image)) this.#started.set(image, now);
    const { index, nextMs } = frameAt(image.frames.map((frame) => frame.ms), now - this.#started.get(image));
    ctx.save();
    placeCard(ctx, painter, t, SCREEN, false);
    const whole = images.wholeSize?.(card.src) ?? null;
    const frame = image.frames[index].image;
    paintFace(ctx, t.w, t.h, painter.look, frame, card.highlight, null, largestScale(frame, whole, painter.pointToDevice));
    ctx.restore();
    return nextMs;
  }
}
