// Decoded photos, by URL, for the renderer. Each photo is asked for at a width from a short ladder,
// so that a card changing size asks the server for a handful of variants, not one per frame.

import { decodeFrames } from './animation.js';

// The server's own ladder of variants (128 … 4096): a photo is decoded at about the size it is drawn.
const WIDTH_LADDER = Object.freeze([128, 256, 512, 768, 1024, 1536, 2048, 3072, 4096]);
const RETRY_FAILED_AFTER_MS = 10000;
// What a photo request takes, as a browser asks for an <img>: fetch() alone says `*/*`, and the
// server then answers JPEG, larger than WebP and without an animation's frames.
const IMAGE_TYPES = 'image/webp,image/*;q=0.8';
// A photo's preview: this many pixels wide, blurred, drawn while its variant loads (a few KB; the
// server answers its smallest variant, made ahead with the others).
export const PREVIEW_WIDTH = 32;
// How far the preview is blurred, in its own pixels: scaled up 30 or 90 times, no block shows.
const PREVIEW_BLUR_PX = 1;

/** The ladder width to ask for when `pixels` device pixels are needed. */
export function widthBucket(pixels) {
  return WIDTH_LADDER.find((width) => width >= pixels) ?? WIDTH_LADDER[WIDTH_LADDER.length - 1];
}

/**
 * Whether an image asked for at `askedWidth` and decoded `width` pixels wide is the whole photo: a
 * variant is never narrower than asked unless the photo is (docs/wire-protocol.md, "Photos").
 */
export function isWholePhoto(width, askedWidth) {
  return width > 0 && width < askedWidth;
}

/** `src` asking for a variant `width` pixels wide. */
export function variantURL(src, width) {
  return `${src}${src.includes('?') ? '&' : '?'}w=${width}`;
}

/** Whether `url` is a variant of the photo `src` (variantURL adds `?w=` or `&w=`). */
export function isVariantOf(url, src) {
  if (!src || !url.startsWith(src)) return false;
  const rest = url.slice(src.length);
  return rest.startsWith('?w=') || rest.startsWith('&w=');
}

/**
 * The image at `url`, fetched. A server too busy to resize now (429 or 503) says when to come back:
 * the error carries it as `retryAfterMs`.
 */
async function fetchImage(url) {
  const response = await fetch(url, { headers: { Accept: IMAGE_TYPES } });
  if (!response.ok) {
    const error = new Error(`${url}: ${response.status}`);
    if (response.status === 429 || response.status === 503) {
      error.retryAfterMs = (Number.parseFloat(response.headers.get('Retry-After')) || 1) * 1000;
    }
    throw error;
  }
  return response.blob();
}

/**
 * Fetches and fully decodes an image off the main thread, so drawing it never stalls a frame
 * (fetchImage). An animation (animation.js: decodeFrames) is its first frame, with every frame as
 * its `frames`.
 */
export async function loadBitmap(url) {
  const blob = await fetchImage(url);
  const frames = await decodeFrames(blob).catch(() => null);
  if (!frames) return createImageBitmap(blob);
  const first = frames[0].image;
  first.frames = frames;
  return first;
}

/** Gives back an image's pixels now (every frame of an animation), rather than when collected. */
export function closeImage(image) {
  for (const frame of image?.frames ?? []) frame.image.close?.();
  image?.close?.();
}

/**
 * `url` (a photo's smallest variant) loaded and made a PREVIEW_WIDTH-pixel image, blurred: what a
 * card shows while its variant loads. Blurred at that size it costs nothing; scaled up as the card
 * is drawn, it is a soft picture of the photo rather than blank paper.
 */
export async function loadPreview(url) {
  const bitmap = await createImageBitmap(await fetchImage(url));
  const width = Math.min(PREVIEW_WIDTH, bitmap.width);
  const height = Math.max(1, Math.round((bitmap.height * width) / bitmap.width));
  const canvas = new OffscreenCanvas(width, height);
  const ctx = canvas.getContext('2d');
  // Blurred over itself: at the rim, where the blur fades out, the picture shows, not the paper.
  ctx.drawImage(bitmap, 0, 0, width, height);
  ctx.filter = `blur(${PREVIEW_BLUR_PX}px)`;
  ctx.drawImage(canvas, 0, 0);
  bitmap.close();
  return canvas.transferToImageBitmap();
}

/**
 * A bounded cache, least recently used evicted first (a kiosk runs for months). `get` never waits:
 * it answers with what is decoded, starts loading what is missing and calls `onReady` when it lands.
 * A photo nothing is decoded of yet gets its preview (`preview`: loadPreview; null, none) first.
 */
export class ImageCache {
  #entries = new Map();
  #limit;
  #load;
  #onReady;
  #now;
  #later;

  #baseLimit;

  #loadPreview;

  constructor({
    limit = 64, load = loadBitmap, preview = loadPreview, onReady = () => {}, now = () => performance.now(),
    later = (run, ms) => setTimeout(run, ms),
  } = {}) {
    this.#baseLimit = limit;
    this.#limit = limit;
    this.#load = load;
    this.#loadPreview = preview;
    this.#onReady = onReady;
    this.#now = now;
    this.#later = later;
  }

  get size() {
    return this.#entries.size;
  }

  /**
   * Makes room for `drawn` cards on the stage: a grid can show more photos than the usual limit,
   * and a cache smaller than what one frame draws would evict and fetch again on every frame.
   * Three times as many: a resize briefly needs a second variant of each, and each has its preview.
   */
  reserve(drawn) {
    this.#limit = Math.max(this.#baseLimit, 3 * drawn);
  }

  /**
   * A decoded image of `src` for `pixels` device pixels: the right variant when it is ready, else
   * the best variant already decoded (a sharper one arrives shortly), else its preview, else null
   * (the preview is asked for first, then the variant).
   */
  get(src, pixels) {
    const width = widthBucket(pixels);
    const url = variantURL(src, width);
    const wanted = this.#touch(url);
    if (wanted?.image) return wanted.image;
    // Found before loading starts: the eviction that loading may cause then cannot take it.
    const preview = this.#touch(variantURL(src, PREVIEW_WIDTH));
    const fallback = this.#bestDecoded(src, width) ?? preview?.image ?? null;
    if (!fallback && !preview && this.#loadPreview) this.#start(variantURL(src, PREVIEW_WIDTH), this.#loadPreview);
    if (!wanted || this.#shouldRetry(wanted)) this.#start(url);
    return fallback;
  }

  /**
   * The pixel size {w, h} of the photo `src`, when a variant decoded so far is the whole photo
   * (isWholePhoto), else null: a photo is drawn at most twice that (paint.js, largestScale).
   */
  wholeSize(src) {
    for (const width of WIDTH_LADDER) {
      const whole = this.#entries.get(variantURL(src, width))?.whole;
      if (whole) return whole;
    }
    return null;
  }

  #bestDecoded(src, exceptWidth) {
    for (let i = WIDTH_LADDER.length - 1; i >= 0; i -= 1) {
      const entry = WIDTH_LADDER[i] === exceptWidth ? null : this.#touch(variantURL(src, WIDTH_LADDER[i]));
      if (entry?.image) return entry.image;
    }
    return null;
  }

  #touch(url) {
    const entry = this.#entries.get(url);
    if (entry) {
      this.#entries.delete(url);
      this.#entries.set(url, entry);
    }
    return entry;
  }

  #shouldRetry(entry) {
    return entry.failedAt !== undefined && this.#now() - entry.failedAt > RETRY_FAILED_AFTER_MS;
  }

  #start(url, load = this.#load) {
    const entry = { image: null, failedAt: undefined, whole: null };
    this.#entries.set(url, entry);
    this.#evict();
    load(url).then(
      (image) => {
        entry.image = image;
        const asked = Number(new URL(url, 'http://page/').searchParams.get('w'));
        if (load === this.#load && isWholePhoto(image.width, asked)) entry.whole = { w: image.width, h: image.height };
        // An entry evicted while it loaded is not drawn again: free its pixels now.
        if (this.#entries.get(url) !== entry) closeImage(image);
        else this.#onReady(url);
      },
      (error) => {
        if (error.retryAfterMs !== undefined) {
          // Busy, not broken: asked again when the server said, if the photo is still wanted.
          this.#later(() => {
            if (this.#entries.get(url) === entry) this.#start(url, load);
          }, error.retryAfterMs);
          return;
        }
        entry.failedAt = this.#now();
        console.warn('StackWeb: could not load', url, error.message);
      },
    );
  }

  #evict() {
    while (this.#entries.size > this.#limit) {
      const [oldestURL, oldest] = this.#entries.entries().next().value;
      this.#entries.delete(oldestURL);
      closeImage(oldest.image);
    }
  }
}
