// Drawing a frame: the backdrop, then every card in z order. Each card is one sprite (sprites.js);
// runs of cards that did not move since the last frame are drawn once into a cached layer and
// copied, so a moving card costs its own sprite and the layers above and below it, whichever place
// it has in the stack (a flicked photo flies at the bottom of the pile, under every other card).
// Card sizes, borders and shadows are in stage points, so a phone and a wall screen show the same
// picture, only scaled. Nothing is clipped to the stage: the canvas covers the window, and a card
// is drawn wherever its transform puts it.

import { makeCanvas } from './canvas.js';
import { COARSE_ZOOM, coarseView } from './coarse.js';
import { TRANSFORM_KEYS } from './curve.js';
import { MOVING_STEP_PX, flipStrips, projectPoint, roundedRectOutline, stripCount, visibleSide } from './flip.js';
import { PERSPECTIVE_DISTANCE, lookFor } from './look.js';
import { cardBoxes, polygonPath } from './paint.js';
import { SpriteCache, drawSprite, shadowReach, spriteSizes } from './sprites.js';

export { coverCrop } from './paint.js';

const BACKGROUND_CENTRE = '#4a4541';
const BACKGROUND_EDGE = '#1d1b1a';
// Below this |sin(flip)| a card is drawn flat: the perspective would move no edge by a pixel.
const FLAT_FLIP = 1e-4;
// Neighbouring strips overlap by this many device pixels, so that no background shows through
// the anti-aliased seam between them.
const STRIP_OVERLAP_PX = 0.75;
// Layer canvases kept for reuse once their run of cards has changed.
const SPARE_LAYERS = 4;
// Copies a layer keeps of its bottom cards: without its top card, without its top two.
const SNAPSHOTS = 2;
// Cards drawn on the page's canvas itself: device pixels, unscaled (see originAt).
const SCREEN = { x: 0, y: 0, zoom: 1 };
// A motion moving cards that cover more than this many screens is drawn coarse (coarseFor).
const COARSE_SCREENS = 2.5;

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
 * The usual backdrop: the radial gradient, painted once per canvas size into a canvas of its own
 * (a full-screen gradient costs a software canvas several milliseconds) and copied each frame.
 * Two sizes are kept: the page's canvas and the coarse one (coarse.js).
 */
export class GradientBackdrop {
  #make;
  #canvases = new Map();

  constructor(make = makeCanvas) {
    this.#make = make;
  }

  /** It paints the same pixels every frame: a frame may repaint only the part that changed. */
  get static() {
    return true;
  }

  /** Paints the whole of `ctx`'s canvas (`view.width`×`view.height` device pixels). */
  draw(ctx, view) {
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.globalAlpha = 1;
    // A straight copy: the backdrop is opaque, so there is nothing to blend.
    ctx.globalCompositeOperation = 'copy';
    ctx.drawImage(this.#canvasFor(view), 0, 0);
    ctx.globalCompositeOperation = 'source-over';
    return false;
  }

  /** Paints the gradient for `view`'s size ahead of its first frame (idle time's). */
  prepare(view) {
    this.#canvasFor(view);
  }

  #canvasFor(view) {
    const key = `${view.width}x${view.height}`;
    const kept = this.#canvases.get(key);
    if (kept) return kept;
    const canvas = this.#make(view.width, view.height);
    const own = canvas.getContext('2d');
    own.fillStyle = makeBackground(own, view.width, view.height);
    own.fillRect(0, 0, view.width, view.height);
    // An ImageBitmap where there is one: painted now (in idle time when prepared), and drawn
    // without the snapshot a canvas' first draw takes (3 ms at 960×540).
    const image = typeof canvas.transferToImageBitmap === 'function' ? canvas.transferToImageBitmap() : canvas;
    if (this.#canvases.size >= GRADIENTS_KEPT) this.#canvases.delete(this.#canvases.keys().next().value);
    this.#canvases.set(key, image);
    return image;
  }
}

// The gradient's sizes kept: the page's canvas and the coarse one.
const GRADIENTS_KEPT = 2;

// Whether two frames show a card identically: the same photo, veil and transform.
export function sameLook(a, b) {
  if (!a || !b) return false;
  if (a.card.id !== b.card.id || a.card.src !== b.card.src || a.card.highlight !== b.card.highlight) return false;
  for (const key of TRANSFORM_KEYS) if (a.transform[key] !== b.transform[key]) return false;
  return true;
}

/**
 * The frame's cards (z order) cut into runs: [{start, end, still}], `end` exclusive. A card is
 * still when it has no animation, looks as it did in `previous` (a Map from card id to the last
 * frame's entry) and is not in `pending` (ids of cards drawn with a placeholder while their photo
 * loads: kept out of cached layers, which the photo would otherwise make stale); consecutive still
 * cards form one run, each other card a run of its own.
 */
export function splitRuns(entries, previous, pending = new Set()) {
  const runs = [];
  entries.forEach((entry, i) => {
    const still = !entry.card.anim && !pending.has(entry.card.id) && sameLook(entry, previous.get(entry.card.id));
    const last = runs[runs.length - 1];
    if (still && last?.still) last.end = i + 1;
    else runs.push({ start: i, end: i + 1, still });
  });
  return runs;
}

/** Whether `url` is a variant of the photo `src` (images.js: variantURL adds `?w=` or `&w=`). */
export function isVariantOf(url, src) {
  if (!src || !url.startsWith(src)) return false;
  const rest = url.slice(src.length);
  return rest.startsWith('?w=') || rest.startsWith('&w=');
}

/** Device pixels a card and its shadow may cover (before clipping): {x, y, right, bottom}. */
export function cardReach(painter, t) {
  const p = painter.pointToDevice;
  const cx = painter.originX + t.x * p;
  const cy = painter.originY + t.y * p;
  const pad = shadowReach(painter.look);
  if (Math.abs(Math.sin(t.flip)) < FLAT_FLIP) {
    // Flat: the box of its sprite (the card and its shadow's room) as turned, scaled and placed.
    // Tight, so that a card above can be seen to hide most of it (occluderAbove, drawUncovered).
    const cos = Math.abs(Math.cos(drawnRotation(t, p)));
    const sin = Math.abs(Math.sin(drawnRotation(t, p)));
    const w = (t.w + 2 * pad) * Math.abs(t.scaleX);
    const h = (t.h + 2 * pad) * Math.abs(t.scaleY);
    const halfW = ((w * cos + h * sin) / 2) * p + 2;
    const halfH = ((w * sin + h * cos) / 2) * p + 2;
    return { x: cx - halfW, y: cy - halfH, right: cx + halfW, bottom: cy + halfH };
  }
  // Turning about its vertical axis: generous, the card's half-diagonal grown by the most
  // perspective can enlarge it.
  const nearest = PERSPECTIVE_DISTANCE / (PERSPECTIVE_DISTANCE - (Math.abs(t.scaleX) * t.w) / 2);
  const reach = (Math.hypot(t.w * t.scaleX, t.h * t.scaleY) / 2) * Math.max(1, nearest > 0 ? nearest : 10);
  const margin = (reach + pad * Math.max(1, Math.abs(t.scaleX), Math.abs(t.scaleY))) * p + 2;
  return { x: cx - margin, y: cy - margin, right: cx + margin, bottom: cy + margin };
}

/** The union of `boxes` clipped to a `width`×`height` canvas, in whole pixels; null when empty. */
export function clippedUnion(boxes, width, height) {
  if (!boxes.length) return null;
  const x = Math.max(0, Math.floor(Math.min(...boxes.map((b) => b.x))));
  const y = Math.max(0, Math.floor(Math.min(...boxes.map((b) => b.y))));
  const right = Math.min(width, Math.ceil(Math.max(...boxes.map((b) => b.right))));
  const bottom = Math.min(height, Math.ceil(Math.max(...boxes.map((b) => b.bottom))));
  return right > x && bottom > y ? { x, y, w: right - x, h: bottom - y } : null;
}

/**
 * The axis-aligned rectangle a card's corners span on the canvas, in CSS pixels (its shadow left
 * out; a turned card taken at its foreshortened width).
 */
export function cardRect(view, t) {
  const { scale, x: ox, y: oy } = view.fit;
  const cos = Math.cos(t.rotation);
  const sin = Math.sin(t.rotation);
  const hw = (t.w / 2) * Math.abs(t.scaleX * Math.cos(t.flip));
  const hh = (t.h / 2) * Math.abs(t.scaleY);
  const xs = [];
  const ys = [];
  for (const [u, v] of [[-hw, -hh], [hw, -hh], [hw, hh], [-hw, hh]]) {
    xs.push(ox + (t.x + u * cos - v * sin) * scale);
    ys.push(oy + (t.y + u * sin + v * cos) * scale);
  }
  return { left: Math.min(...xs), top: Math.min(...ys), right: Math.max(...xs), bottom: Math.max(...ys) };
}

function isVisible(t) {
  return t.opacity > 0 && t.w > 0 && t.h > 0 && t.scaleX !== 0 && t.scaleY !== 0;
}

/**
 * Draws frames. Keeps the card sprites and the cached layers of still cards from frame to frame;
 * `make(w, h)` makes an offscreen canvas (a fake in node tests).
 */
export class Renderer {
  #make;
  #sprites;
  #previous = new Map();
  #pending = new Set();
  #settling = false;
  #layers = new Map();
  #spare = [];
  #generation = 0;
  #layerBuilds = 0;
  #layerReuses = 0;
  #layerExtensions = 0;
  #layerMs = 0;
  #tracked = null;
  #trackedRects = [];
  #lastView = null;
  #lastStyle = null;
  #deferred = [];
  // What idle time is making a piece at a time (#inSlices: a layer, a card at a time, or a large
  // sprite, a band at a time), and how long its last piece took: the next one starts only in a
  // slice with that much time left.
  #building = null;
  #stepMs = 0;
  // How long warmEnds' last sprite took per device pixel.
  #spriteMsPerPixel = 0;
  // Cards the last frame drew with another size's sprite (a motion's last frame, before the one of
  // their resting size was made), and whether idle time has made theirs since: one more frame.
  #standIns = new Set();
  #redrawWanted = false;
  #lastDirty = null;
  // Cards the last frame drew unfiltered (samplesNearest): repainted when they come to rest.
  #rough = new Set();
  // What the canvas shows was drawn by the last frame at this view and style (Renderer.draw's
  // `partial`); false after anything that changes pixels of cards that did not move.
  #lastKey = null;
  #canRepaintPart = false;
  // Whether the motion under way is drawn coarse (coarseFor), and whether its cards came to rest.
  #coarse = false;
  #coarseStill = false;
  #coarseAtRest = false;
  #warmedAtRest = false;

  constructor({ make = makeCanvas, sprites = null } = {}) {
    this.#make = make;
    this.#sprites = sprites ?? new SpriteCache({ make });
  }

  /**
   * A photo arrived (`url`, a variant of some card's `src`; all photos when not given): the
   * cached layers that show it may hold its placeholder or a blurrier variant. The others stay.
   */
  invalidate(url = null) {
    this.#canRepaintPart = false;
    if (url === null) {
      this.#generation += 1;
      return;
    }
    for (const [key, layer] of this.#layers) {
      if (layer.cards.some(({ card }) => isVariantOf(url, card.src))) this.#layers.delete(key);
    }
  }

  /**
   * A photo arrived (`url`): the sprites of the last frame's cards that show it are made now,
   * between frames, rather than in the next one (a card coming among the drawn ones during a
   * flick or a step gets its photo mid-motion). `images` as for `draw`.
   */
  prepare(url, images) {
    this.prepareCards([...this.#previous.values()].filter((entry) => isVariantOf(url, entry.card.src)), images);
  }

  /**
   * Makes now, between frames, the face sprites that the next frame would make for `entries`
   * ([{card, transform}]: cards a message has just brought or changed, to be drawn in `style`, the
   * last frame's by default): at the size each rests at, unless one made at the larger size it
   * passes through serves meanwhile (spriteFor). At most PREPARE_MS of it at once: a card that
   * changes size and has a sprite already is left to the time between the motion's frames
   * (warmEnds), drawn meanwhile from the sprite it has (a switch to the frame style made twelve
   * wall-sized sprites here in one 190 ms task); in a motion drawn coarse, from the first.
   */
  prepareCards(entries, images, style = this.#lastStyle) {
    if (!this.#lastView?.fit) return;
    const view = this.#lastView;
    const painter = this.#painter(view, style, images);
    const started = performance.now();
    // A motion that will be drawn coarse takes whatever sprites the cards have (coarseFor).
    const moving = entries.filter(({ card, transform }) => card.anim && isVisible(transform));
    const coarse = coarseCover(view, moving) > COARSE_SCREENS * view.width * view.height;
    for (const { card, transform } of entries) {
      if (!isVisible(transform)) continue;
      const { end, larger } = spriteSizes(card);
      if (!(end.w > 0 && end.h > 0)) continue;
      const late = coarse || performance.now() - started > PREPARE_MS;
      if (coarse && awaitsPhoto(painter, card, end)) continue;
      if (late && larger && standInSprite(painter, card, 'face', end, true, true)) continue;
      if (larger && painter.sprites.find({
        side: 'face', src: card.src, highlight: card.highlight, w: larger.w, h: larger.h,
        devicePerPoint: painter.pointToDevice, withShadow: true,
      })) continue;
      spriteOf(painter, card, 'face', end, true);
    }
  }

  /**
   * Records, from now on, where card `id` is drawn in each frame (the debug hook's: a test reads
   * where a flown card went, window edges or not). `trackedRects()` answers them.
   */
  track(id) {
    this.#tracked = id;
    this.#trackedRects = [];
  }

  /** [{left, top, right, bottom}] in CSS pixels of the canvas, one per frame the card was drawn in. */
  trackedRects() {
    return this.#trackedRects.map((rect) => ({ ...rect }));
  }

  /**
   * Whether the last frame drew a photo that was a placeholder before: one more frame puts it in
   * a cached layer with its still neighbours (else that waits for the next motion's first frame).
   * Also while cards come to rest coarse: one more frame draws them at rest (coarseFor).
   */
  get wantsFrame() {
    return this.#settling || (this.#coarse && this.#coarseStill && !this.#coarseAtRest);
  }

  /** The next frame repaints the whole canvas (something else drew on it). */
  repaintAll() {
    this.#canRepaintPart = false;
  }

  /**
   * Whether idle time has made the sprites the last frame stood in for: the page draws once more
   * (once; reading it clears it).
   */
  takeRedraw() {
    const wanted = this.#redrawWanted;
    this.#redrawWanted = false;
    return wanted;
  }

  /** Counters for tests and the benchmark: sprites drawn, layers drawn. */
  get counters() {
    return {
      sprites: this.#sprites.built, layers: this.#layerBuilds, reused: this.#layerReuses, extended: this.#layerExtensions,
      spriteMs: Math.round(this.#sprites.buildMs * 10) / 10, layerMs: Math.round(this.#layerMs * 10) / 10,
    };
  }

  /**
   * Draws `entries` ([{card, transform}] in z order) on `ctx`. `view` is {width, height, dpr, fit}:
   * the canvas in device pixels, the stage fit in CSS pixels. `style` is the room's style
   * (corners, borders, shadows); `images.get(src, pixels)` answers a decoded photo or null;
   * `backdrop.draw(ctx, view, now)` paints what lies under the cards (`now`: the page's clock, ms,
   * for a backdrop that fades). With `partial`, when the canvas holds the last frame and the
   * backdrop is `static`, only the part where cards moved is repainted (dirtyBox): nothing else
   * may have drawn on the canvas since. Returns how many cards are visible.
   */
  draw(ctx, view, entries, { style, images, backdrop, now = 0, partial = false }) {
    const painter = this.#painter(view, style, images);
    this.#lastView = view;
    this.#lastStyle = style;
    // The view, the style and the cards' order: a card raised or lowered without moving changes
    // pixels wherever it overlaps another.
    const key = `${view.width}x${view.height}@${view.dpr}|${view.fit.scale},${view.fit.x},${view.fit.y}|${style}|`
      + entries.map((entry) => entry.card.id).join(',');
    const dirty = partial && this.#canRepaintPart && key === this.#lastKey && backdrop.static
      ? this.#dirtyBox(painter, view, entries) : null;
    this.#lastKey = key;
    this.#canRepaintPart = true;
    ctx.save();
    if (dirty) {
      // Whole pixels: inside, every pixel is drawn as a whole frame would draw it.
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      ctx.beginPath();
      ctx.rect(dirty.x, dirty.y, dirty.w, dirty.h);
      ctx.clip();
    }
    this.#lastDirty = dirty;
    this.#rough = new Set();
    painter.rough = this.#rough;
    const drawn = this.#drawCards(ctx, view, painter, entries, style, backdrop, now);
    ctx.restore();
    return drawn;
  }

  /**
   * Whether `entries` are drawn coarse (drawCoarse) in this frame: when a motion starts that moves
   * cards covering more than COARSE_SCREENS screens (each at the larger of the sizes it moves
   * between: a style switch moves every card, turned, growing or shrinking, and a software canvas
   * took 25–60 ms a frame over twelve photo-sized cards at 1920×1080), and until no card moves:
   * a motion does not change resolution halfway. Once the cards rest, they stay coarse until idle
   * time has drawn the cached layers the sharp frame draws them from (`sharpening`; drawn afresh
   * in that frame, twelve turned cards took 40 ms).
   */
  coarseFor(view, entries) {
    if (!view?.fit) return false;
    const moving = entries.filter(({ card, transform }) => card.anim && isVisible(transform));
    if (moving.length) {
      // Looked at in every frame (a spring turns the deck's cards halfway through their motion),
      // never back to sharp before the cards rest.
      if (!this.#coarse) this.#coarse = coarseCover(view, moving) > COARSE_SCREENS * view.width * view.height;
      this.#coarseStill = false;
      this.#coarseAtRest = false;
      return this.#coarse;
    }
    if (!this.#coarse) return false;
    // Coarse until a coarse frame has drawn the cards at rest (it leaves their layers to idle
    // time); then, unless they move again (a drag), until idle time has made everything the sharp
    // frame draws.
    this.#coarseStill = true;
    if (!this.#coarseAtRest) return true;
    const dragged = entries.some((entry) => !sameLook(entry, this.#previous.get(entry.card.id)));
    if (!dragged && !this.#warmedAtRest) return true;
    this.#coarse = false;
    this.#coarseStill = false;
    this.#coarseAtRest = false;
    return false;
  }

  /** Whether cards come to rest drawn coarse wait for idle time to draw them sharp (coarseFor). */
  get sharpening() {
    return this.#coarse && this.#coarseAtRest;
  }

  /**
   * Draws `backdrop` and the cards of `entries` as `draw` would, on `ctx`: an opaque canvas `zoom`
   * times the view's size, which the page shows over its own canvas and the browser scales up as
   * it composites. The page's canvas is left as it was, hidden: the motion's first frame does not
   * repaint it (its backdrop alone took 6–9 ms at 1920×1080). Cards in motion are drawn
   * unfiltered. A quarter of the pixels, at the cost of a softer picture while the motion lasts;
   * the frame the cards come to rest in is drawn sharp, whole, by `draw`.
   */
  drawCoarse(ctx, view, entries, { style, images, zoom, backdrop, now = performance.now() }) {
    const painter = this.#painter(view, style, images);
    this.#lastView = view;
    this.#lastStyle = style;
    // The page's canvas no longer shows the cards where they are.
    this.#lastKey = null;
    this.#canRepaintPart = false;
    this.#lastDirty = null;
    this.#rough = new Set();
    painter.rough = this.#rough;
    // Soft anyway: a card takes whatever sprite it has, its own is made before the sharp frame.
    painter.coarse = true;
    ctx.save();
    backdrop.draw(ctx, coarseView(view, zoom), now);
    const drawn = this.#drawCards(ctx, view, painter, entries, style, null, 0, { x: 0, y: 0, zoom });
    ctx.restore();
    if (painter.atRest && !this.#coarseAtRest) {
      this.#coarseAtRest = true;
      this.#warmedAtRest = false;
    }
    return drawn;
  }

  /** The part of the last frame repainted ({x, y, w, h} device pixels), or null when all was (tests). */
  get lastDirty() {
    return this.#lastDirty ? { ...this.#lastDirty } : null;
  }

  /**
   * The device pixels that differ from the last frame: where each card that moved, changed, came
   * or went was and is now ({x, y, w, h}; w 0 when nothing changed).
   */
  #dirtyBox(painter, view, entries) {
    const boxes = [];
    const seen = new Set();
    for (const entry of entries) {
      const before = this.#previous.get(entry.card.id);
      seen.add(entry.card.id);
      const still = !entry.card.anim && !this.#pending.has(entry.card.id) && sameLook(entry, before);
      if (still && !this.#rough.has(entry.card.id)) continue;
      if (isVisible(entry.transform)) boxes.push(cardReach(painter, entry.transform));
      if (before && isVisible(before.transform)) boxes.push(cardReach(painter, before.transform));
    }
    for (const [id, before] of this.#previous) {
      if (!seen.has(id) && isVisible(before.transform)) boxes.push(cardReach(painter, before.transform));
    }
    return clippedUnion(boxes, view.width, view.height) ?? { x: 0, y: 0, w: 0, h: 0 };
  }

  #drawCards(ctx, view, painter, entries, style, backdrop, now, onScreen = SCREEN) {
    backdrop?.draw(ctx, view, now);
    const screen = { x: 0, y: 0, right: view.width, bottom: view.height };
    const layers = new Map();
    let drawn = 0;
    const pending = this.#pending;
    this.#pending = new Set();
    painter.pending = this.#pending;
    this.#standIns = new Set();
    this.#redrawWanted = false;
    this.#settling = false;
    const runs = splitRuns(entries, this.#previous, pending);
    // A frame in which nothing moves (a motion's last, or a photo come in) draws no layer afresh:
    // its cards are drawn as they were while they moved, and the layer is made in idle time.
    const atRest = runs.every((run) => run.still);
    painter.atRest = atRest;
    this.#deferred = [];
    for (const run of runs) {
      const cards = entries.slice(run.start, run.end);
      const layer = run.still && cards.length > 1 ? this.#layerFor(view, painter, style, cards, !atRest) : null;
      if (!layer && run.still && cards.length > 1) {
        this.#deferred.push({ key: cards.map((entry) => entry.card.id).join('\n'), cards, view, style });
      }
      if (layer) {
        layers.set(layer.key, layer);
        drawn += layer.visible;
        if (layer.box) {
          const { x, y, w, h } = layer.box;
          ctx.setTransform(onScreen.zoom, 0, 0, onScreen.zoom, 0, 0);
          ctx.globalAlpha = 1;
          ctx.drawImage(layer.canvas, 0, 0, w, h, x, y, w, h);
        }
      } else {
        for (let i = run.start; i < run.end; i += 1) {
          const entry = entries[i];
          if (!isVisible(entry.transform)) continue;
          drawn += 1;
          // A card a drag moves (plain transforms, no animation) may be drawn from a sprite of a
          // size close to its own; it is drawn from its own once it rests, in a cached layer.
          const dragged = !run.still && !entry.card.anim && !pending.has(entry.card.id);
          // Drawn on the screen, not into a layer, a card may stand in another size's sprite (spriteFor).
          painter.standIns = this.#standIns;
          drawUncovered(ctx, screen, painter, entry, occluderAbove(painter, entries, i), onScreen, dragged, !run.still);
          painter.standIns = null;
        }
      }
    }
    // Layers no longer used lend their canvases to the next ones.
    for (const [key, layer] of this.#layers) {
      if (layers.get(key) === layer) continue;
      for (const canvas of [layer.consumed ? null : layer.canvas, ...layer.snapshots.map((snapshot) => snapshot.canvas)]) {
        if (canvas && this.#spare.length < SPARE_LAYERS) this.#spare.push(canvas);
      }
    }
    this.#layers = layers;
    this.#previous = new Map(entries.map((entry) => [entry.card.id, entry]));
    // A card whose photo has just been drawn joins its still neighbours' layer in the next frame.
    for (const id of pending) if (!this.#pending.has(id)) this.#settling = true;
    if (this.#tracked !== null) {
      const entry = entries.find(({ card }) => card.id === this.#tracked);
      if (entry && isVisible(entry.transform)) this.#trackedRects.push(cardRect(view, entry.transform));
    }
    return drawn;
  }

  #painter(view, style, images) {
    return {
      look: lookFor(style), lookName: style ?? 'pile', images, sprites: this.#sprites, make: this.#make,
      pointToDevice: view.dpr * view.fit.scale, originX: view.dpr * view.fit.x, originY: view.dpr * view.fit.y,
    };
  }

  /**
   * Makes, while `hasTime()` says so, the sprites the next motion will want, so that it does not
   * stall its first frame making them: every card's (those not shown yet too: the deck's next card
   * fades in when the front one flies), the front card's back and its face without a shadow in
   * the deck (a tap turns it over), and copies of the bottom cards of each cached layer. Run when the
   * page is idle; answers whether all are made.
   */
  warm(view, entries, { style, images, hasTime }) {
    if (!view?.fit) return true;
    const painter = this.#painter(view, style, images);
    // The layers a frame at rest left to idle time.
    while (this.#deferred.length) {
      const run = this.#deferred[0];
      const made = this.#layers.get(run.key);
      const madeSince = made && !made.consumed && this.#valid(made, view, style) && sameRun(made.cards, run.cards);
      if (run.view === view && run.style === style && !madeSince) {
        const fresh = this.#drawnInSlices(view, painter, style, run.cards, run.key, hasTime);
        if (!fresh) return false;
        this.#layers.set(run.key, fresh);
      }
      this.#deferred.shift();
    }
    const wanted = [];
    for (let i = entries.length - 1; i >= 0; i -= 1) {
      const { card } = entries[i];
      const size = spriteSizes(card).end;
      if (!(size.w > 0 && size.h > 0)) continue;
      wanted.push({ card, side: 'face', size, withShadow: true });
      if (style === 'deck' && i === entries.length - 1) {
        // A tap turns it over: its sides without shadow while it turns, its back with one at the end.
        wanted.push({ card, side: 'face', size, withShadow: false }, { card, side: 'back', size, withShadow: false },
          { card, side: 'back', size, withShadow: true });
      }
    }
    // First, a layer made by drawing onto another lacks copies of its bottom cards (without the
    // top one, without the top two): drawn afresh now, so that the next gesture or step does not
    // draw it afresh in its first frame.
    // A layer that grew card by card (photos arriving at load) holds copies of what it was, which
    // are not these.
    for (const [key, layer] of this.#layers) {
      if (layer.consumed || hasBottomCopies(layer) || !this.#valid(layer, view, style)) continue;
      // Frames keep drawing the layer as it is until its successor is whole.
      const fresh = this.#drawnInSlices(view, painter, style, layer.cards, key, hasTime);
      if (!fresh) return false;
      layer.consumed = true;
      if (this.#spare.length < SPARE_LAYERS) this.#spare.push(layer.canvas);
      this.#layers.set(key, fresh);
    }
    // Copies made during a frame are only recorded: rasterised on first use they would cost the
    // next motion's first frame every card they hold, turned (a pile's step drew 8 in one frame).
    for (const layer of this.#layers.values()) {
      if (layer.rasterised || layer.consumed) continue;
      for (const snapshot of layer.snapshots) {
        if (snapshot.rasterised) continue;
        if (!hasTime(this.#stepMs)) return false;
        this.#stepMs = timed(() => rasterise(snapshot.canvas));
        snapshot.rasterised = true;
      }
      layer.rasterised = true;
    }
    for (const { card, side, size, withShadow } of wanted) {
      const fields = {
        side, src: card.src, highlight: card.highlight, w: size.w, h: size.h, lookName: painter.lookName,
        devicePerPoint: painter.pointToDevice, withShadow,
      };
      if (this.#sprites.has(fields)) continue;
      // A large sprite (the frame style's, wall-sized) is drawn in bands, a slice each.
      const job = {
        kind: 'sprite', key: `${side}|${withShadow}|${card.src}|${card.highlight}|${size.w}x${size.h}`, view, style,
        generation: this.#generation,
      };
      if (!this.#inSlices(job, () => spriteSteps(painter, card, side, size, withShadow), hasTime)) return false;
    }
    // Cards that would be drawn coarse if they moved together (a style switch): their sprites'
    // coarse copies, so that the switch's first frames do not make them.
    const resting = entries.filter(({ transform }) => isVisible(transform));
    if (coarseCover(view, resting) > COARSE_SCREENS * view.width * view.height) {
      for (const { card, side, size, withShadow } of wanted) {
        if (side !== 'face' || !withShadow) continue;
        const sprite = painter.sprites.find({
          side, src: card.src, highlight: card.highlight, w: size.w, h: size.h, devicePerPoint: painter.pointToDevice,
        });
        if (!sprite || hasCoarseSprite(sprite, COARSE_ZOOM)) continue;
        if (!hasTime()) return false;
        coarseSprite({ ...painter, coarseMade: 0 }, sprite, COARSE_ZOOM);
      }
    }
    if (this.#standIns.size) {
      this.#standIns = new Set();
      this.#redrawWanted = true;
      this.#canRepaintPart = false;
    }
    // Cards drawn coarse at rest: everything the sharp frame draws them from is made.
    if (this.sharpening) {
      this.#warmedAtRest = true;
      this.#redrawWanted = true;
    }
    return true;
  }

  /**
   * Makes, while `hasTime(ms)` says so, the sprites of the sizes that cards growing or shrinking
   * will rest at (a style switch resizes every card): run between the frames of a motion, so that
   * its last frame does not make them all at once. Answers whether all are made.
   */
  warmEnds(view, entries, { style, images, hasTime }) {
    // A coarse motion draws whatever sprites the cards have; their own are made before the sharp frame.
    if (!view?.fit || this.#coarse) return true;
    const painter = this.#painter(view, style, images);
    for (const { card } of entries) {
      const { end, larger } = spriteSizes(card);
      if (!larger || !(end.w > 0 && end.h > 0)) continue;
      const fields = {
        side: 'face', src: card.src, highlight: card.highlight, w: end.w, h: end.h, lookName: painter.lookName,
        devicePerPoint: painter.pointToDevice, withShadow: true,
      };
      if (this.#sprites.has(fields)) continue;
      // Started only where it fits, as long as the last one took for its size (a wall-sized
      // sprite takes 20 ms or more: started with 4 ms left, it cost the motion a frame).
      const pixels = end.w * end.h * painter.pointToDevice ** 2;
      if (!hasTime(pixels * this.#spriteMsPerPixel)) return false;
      const started = performance.now();
      spriteOf(painter, card, 'face', end, true);
      this.#spriteMsPerPixel = (performance.now() - started) / pixels;
    }
    return true;
  }

  #valid(layer, view, style) {
    return layer.generation === this.#generation && layer.view === view && layer.style === style
      && layer.fit.scale === view.fit.scale && layer.fit.x === view.fit.x && layer.fit.y === view.fit.y;
  }

  /**
   * The layer of a run of still cards. In order of cost: the same layer as in the last frame; a
   * copy kept of a layer's bottom cards (the top one or two started to move: a drag, a flick, the
   * next one straightening); a layer of some of these cards with the others drawn onto it, above
   * or under (a card came to rest next to a run); drawn afresh, unless `mayDraw` is false (null).
   */
  #layerFor(view, painter, style, cards, mayDraw = true) {
    const key = cards.map((entry) => entry.card.id).join('\n');
    const held = this.#layers.get(key);
    if (held && !held.consumed && this.#valid(held, view, style) && sameRun(held.cards, cards)) return held;
    const started = performance.now();
    const layer = this.#fromSnapshot(view, style, cards, key) ?? this.#extended(view, painter, style, cards, key)
      ?? (mayDraw ? this.#drawn(view, painter, style, cards, key, held) : null);
    this.#layerMs += performance.now() - started;
    return layer;
  }

  #fromSnapshot(view, style, cards, key) {
    for (const layer of this.#layers.values()) {
      if (layer.consumed || !this.#valid(layer, view, style)) continue;
      const index = layer.snapshots.findIndex((snapshot) => sameRun(snapshot.cards, cards));
      if (index < 0) continue;
      const [snapshot] = layer.snapshots.splice(index, 1);
      // The shorter copies are copies of this one's bottom cards too.
      const shorter = layer.snapshots.filter((other) => other.cards.length < cards.length);
      layer.snapshots = layer.snapshots.filter((other) => !shorter.includes(other));
      this.#layerReuses += 1;
      return this.#layer(key, snapshot.canvas, layer.box, cards, snapshot.visible, view, style, shorter);
    }
    return null;
  }

  #extended(view, painter, style, cards, key) {
    for (const layer of this.#layers.values()) {
      if (layer.consumed || !layer.box || !this.#valid(layer, view, style) || layer.cards.length < 2) continue;
      const at = indexOfRun(cards, layer.cards);
      if (at < 0) continue;
      const below = cards.slice(0, at);
      const above = cards.slice(at + layer.cards.length);
      const reach = [...below, ...above].filter((entry) => isVisible(entry.transform))
        .map((entry) => cardReach(painter, entry.transform));
      const old = layer.box;
      const box = clippedUnion([...reach, { x: old.x, y: old.y, right: old.x + old.w, bottom: old.y + old.h }],
        view.width, view.height);
      let { canvas } = layer;
      const moved = box.x !== old.x || box.y !== old.y || box.w > canvas.width || box.h > canvas.height;
      if (moved) {
        canvas = this.#canvasFor(box);
        const ctx = canvas.getContext('2d');
        ctx.setTransform(1, 0, 0, 1, 0, 0);
        ctx.globalAlpha = 1;
        ctx.clearRect(0, 0, box.w, box.h);
        ctx.drawImage(layer.canvas, 0, 0, old.w, old.h, old.x - box.x, old.y - box.y, old.w, old.h);
      }
      let snapshots = [];
      if (!moved && !below.length) {
        // Cards came to rest on top (a drag let go, a card springing back): the layer as it was
        // is the copy without them, for when they move again.
        snapshots = [...layer.snapshots, { cards: layer.cards, visible: layer.visible, canvas: layer.canvas }]
          .slice(-SNAPSHOTS);
        for (const dropped of layer.snapshots) {
          if (!snapshots.includes(dropped) && this.#spare.length < SPARE_LAYERS) this.#spare.push(dropped.canvas);
        }
        layer.snapshots = [];
        canvas = this.#copy(layer.canvas, box);
      }
      layer.consumed = true;
      const ctx = canvas.getContext('2d');
      const limit = { x: box.x, y: box.y, right: box.x + box.w, bottom: box.y + box.h };
      let visible = layer.visible;
      // Cards that came to rest under the layer's go under what it holds; those above, over it.
      ctx.globalCompositeOperation = 'destination-over';
      for (let i = at - 1; i >= 0; i -= 1) {
        if (!isVisible(cards[i].transform)) continue;
        visible += 1;
        drawUncovered(ctx, limit, painter, cards[i], occluderAbove(painter, cards, i), originAt(box));
      }
      ctx.globalCompositeOperation = 'source-over';
      for (let i = at + layer.cards.length; i < cards.length; i += 1) {
        if (!isVisible(cards[i].transform)) continue;
        visible += 1;
        drawUncovered(ctx, limit, painter, cards[i], occluderAbove(painter, cards, i), originAt(box));
      }
      this.#layerExtensions += 1;
      return this.#layer(key, canvas, box, cards, visible, view, style, snapshots);
    }
    return null;
  }

  // Drawn afresh, keeping copies of its bottom cards without the top one and the top two (they
  // are the ones a gesture or the next step moves first).
  #drawn(view, painter, style, cards, key, held) {
    const steps = this.#drawing(view, painter, style, cards, key, held);
    for (;;) {
      const { done, value } = steps.next();
      if (done) return value;
    }
  }

  /**
   * A layer drawn in idle time (`hasTime(ms)`: whether the slice has `ms` left): a card or a copy
   * at a time, each rasterised at once so that its whole cost falls in the slice it is drawn in (a
   * pile's layer of ten turned cards, drawn whole, held one slice for 85 ms, and a gesture
   * starting then waited as long). Answers the layer once it is whole, else null: the next slice
   * goes on where this one stopped, unless the view, the style or the photos changed meanwhile.
   */
  #drawnInSlices(view, painter, style, cards, key, hasTime) {
    const job = { kind: 'layer', key, view, style, generation: this.#generation };
    const layer = this.#inSlices(job, () => this.#drawing(view, painter, style, cards, key, null, true), hasTime);
    if (layer) layer.rasterised = true;
    return layer;
  }

  /**
   * Runs `makeSteps()` (a generator) a step at a time while `hasTime(ms)` says the slice has as
   * long as the last step took; the next slice goes on where this one stopped, as long as it asks
   * for the same `job` ({kind, key, view, style, generation}). Answers the generator's result once
   * it is done, else null.
   */
  #inSlices(job, makeSteps, hasTime) {
    const current = this.#building;
    const same = current && ['kind', 'key', 'view', 'style', 'generation'].every((field) => current[field] === job[field]);
    if (!same) this.#building = { ...job, steps: makeSteps() };
    const { steps } = this.#building;
    for (;;) {
      if (!hasTime(this.#stepMs)) return null;
      const started = performance.now();
      const { done, value } = steps.next();
      this.#stepMs = performance.now() - started;
      if (done) {
        this.#building = null;
        return value;
      }
    }
  }

  // The steps of #drawn: one per card and per copy, each rasterised when `stepwise` (then it draws
  // on a canvas of its own: `held` is still drawn by the frames meanwhile).
  * #drawing(view, painter, style, cards, key, held, stepwise = false) {
    const visible = cards.filter((entry) => isVisible(entry.transform));
    const box = clippedUnion(visible.map((entry) => cardReach(painter, entry.transform)), view.width, view.height);
    let canvas = held && !held.consumed ? held.canvas : null;
    if (box && (!canvas || canvas.width < box.w || canvas.height < box.h)) canvas = this.#canvasFor(box);
    if (held) held.consumed = true;
    let count = 0;
    const snapshots = [];
    if (box) {
      const ctx = canvas.getContext('2d');
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      ctx.globalAlpha = 1;
      ctx.clearRect(0, 0, box.w, box.h);
      const limit = { x: box.x, y: box.y, right: box.x + box.w, bottom: box.y + box.h };
      for (const [i, entry] of cards.entries()) {
        if (i >= 2 && i >= cards.length - SNAPSHOTS) {
          const copy = this.#copy(canvas, box);
          snapshots.push({ cards: cards.slice(0, i), visible: count, canvas: copy, rasterised: stepwise });
          if (stepwise) {
            rasterise(copy);
            yield;
          }
        }
        if (!isVisible(entry.transform)) continue;
        count += 1;
        // Only the run's own cards may hide a part of it (the layer outlives whatever moves above),
        // and of those only the ones in each copy it is in: the copies without the top cards show
        // what those hid.
        const copyTop = Math.max(i + 1, cards.length - SNAPSHOTS);
        drawUncovered(ctx, limit, painter, entry, occluderAbove(painter, cards.slice(0, copyTop), i), originAt(box));
        if (stepwise) {
          rasterise(canvas);
          yield;
        }
      }
      this.#layerBuilds += 1;
    }
    return this.#layer(key, canvas, box, cards, count, view, style, snapshots);
  }

  #layer(key, canvas, box, cards, visible, view, style, snapshots) {
    return {
      key, canvas, box, cards, visible, view, style, fit: { ...view.fit }, generation: this.#generation, snapshots,
      consumed: false,
    };
  }

  #canvasFor(box) {
    const index = this.#spare.findIndex((spare) => spare.width >= box.w && spare.height >= box.h);
    return index >= 0 ? this.#spare.splice(index, 1)[0] : this.#make(box.w, box.h);
  }

  #copy(canvas, box) {
    const copy = this.#canvasFor(box);
    const ctx = copy.getContext('2d');
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.globalAlpha = 1;
    ctx.globalCompositeOperation = 'copy';
    ctx.drawImage(canvas, 0, 0, box.w, box.h, 0, 0, box.w, box.h);
    ctx.globalCompositeOperation = 'source-over';
    return copy;
  }
}

// Makes a canvas rasterise the drawing commands it has recorded (reading a pixel waits for them).
function rasterise(canvas) {
  if (canvas && canvas.width > 0 && canvas.height > 0) canvas.getContext('2d').getImageData(0, 0, 1, 1);
}

// How long `work` took, in ms.
function timed(work) {
  const started = performance.now();
  work();
  return performance.now() - started;
}

// Whether `layer` keeps copies of its bottom cards without its top one and without its top two
// (those of them that hold two cards or more), as a layer drawn afresh does.
function hasBottomCopies(layer) {
  const count = layer.cards.length;
  for (let without = 1; without <= SNAPSHOTS; without += 1) {
    const bottom = layer.cards.slice(0, count - without);
    if (bottom.length >= 2 && !layer.snapshots.some((snapshot) => sameRun(snapshot.cards, bottom))) {
      return false;
    }
  }
  return true;
}

// Whether two runs hold the same cards, looking the same, in the same order.
function sameRun(a, b) {
  return a.length === b.length && a.every((entry, i) => sameLook(entry, b[i]));
}

// Where `part` lies, whole and in order, within `cards`; -1 when it does not.
function indexOfRun(cards, part) {
  const first = cards.findIndex((entry) => entry.card.id === part[0].card.id);
  if (first < 0 || first + part.length > cards.length) return -1;
  for (let i = 0; i < part.length; i += 1) if (!sameLook(cards[first + i], part[i])) return -1;
  return first;
}

/**
 * The largest axis-aligned rectangle (device pixels, whole) inside an opaque card, or null: the
 * card's face is opaque edge to edge but for its rounded corners, so whatever lies under this
 * rectangle cannot be seen. A turned or translucent card hides nothing for certain.
 */
export function opaqueRect(painter, t) {
  if (!(t.opacity >= 1) || !isVisible(t) || Math.abs(Math.sin(t.flip)) >= FLAT_FLIP) return null;
  const p = painter.pointToDevice;
  const inset = (painter.look.radius + 1) * p + 1;
  const hw = (t.w / 2) * Math.abs(t.scaleX) * p - inset;
  const hh = (t.h / 2) * Math.abs(t.scaleY) * p - inset;
  if (!(hw > 0 && hh > 0)) return null;
  const cos = Math.abs(Math.cos(t.rotation));
  const sin = Math.abs(Math.sin(t.rotation));
  // The card's own aspect, shrunk until its corners are inside the turned card.
  const k = Math.min(1, hw / (hw * cos + hh * sin), hh / (hw * sin + hh * cos));
  const cx = painter.originX + t.x * p;
  const cy = painter.originY + t.y * p;
  const x = Math.ceil(cx - k * hw);
  const y = Math.ceil(cy - k * hh);
  const right = Math.floor(cx + k * hw);
  const bottom = Math.floor(cy + k * hh);
  return right > x && bottom > y ? { x, y, right, bottom } : null;
}

// The largest opaque rectangle of the cards drawn after `index` (above it) that overlaps it.
function occluderAbove(painter, entries, index) {
  const reach = cardReach(painter, entries[index].transform);
  let best = null;
  let bestArea = 0;
  for (let i = index + 1; i < entries.length; i += 1) {
    const rect = opaqueRect(painter, entries[i].transform);
    if (!rect || rect.right <= reach.x || rect.x >= reach.right || rect.bottom <= reach.y || rect.y >= reach.bottom) continue;
    const area = (rect.right - rect.x) * (rect.bottom - rect.y);
    if (area > bestArea) {
      best = rect;
      bestArea = area;
    }
  }
  return best;
}

// How much of a box a card above must hide before it is drawn in bands around it (four draws
// instead of one pay off only when they skip much).
const MIN_HIDDEN_SHARE = 0.25;

function hiddenShare(box, hole) {
  if (!hole) return 0;
  const w = Math.min(box.right, hole.right) - Math.max(box.x, hole.x);
  const h = Math.min(box.bottom, hole.bottom) - Math.max(box.y, hole.y);
  return w > 0 && h > 0 ? (w * h) / ((box.right - box.x) * (box.bottom - box.y)) : 0;
}

/**
 * The parts of `box` outside `hole` (both {x, y, right, bottom}): up to four bands, above, below,
 * left and right of the hole; [box] when they do not overlap, [] when the hole covers the box.
 */
export function bandsAround(box, hole) {
  if (!hole || hole.right <= box.x || hole.x >= box.right || hole.bottom <= box.y || hole.y >= box.bottom) return [box];
  const bands = [];
  const top = Math.max(box.y, hole.y);
  const bottom = Math.min(box.bottom, hole.bottom);
  if (hole.y > box.y) bands.push({ x: box.x, y: box.y, right: box.right, bottom: top });
  if (hole.bottom < box.bottom) bands.push({ x: box.x, y: bottom, right: box.right, bottom: box.bottom });
  if (hole.x > box.x) bands.push({ x: box.x, y: top, right: hole.x, bottom });
  if (hole.right < box.right) bands.push({ x: hole.right, y: top, right: box.right, bottom });
  return bands.filter((band) => band.right > band.x && band.bottom > band.y);
}

// A turned card costs a software canvas about this many times a straight one of its size.
const TURNED_COST = 3;

// Device pixels that `moving` cards cover, each at the larger of the sizes it moves between,
// a turned one counted TURNED_COST times (what drawing them costs, in straight pixels).
function coarseCover(view, moving) {
  const p = view.dpr * view.fit.scale;
  return moving.reduce((sum, { card, transform: t }) => {
    const { end, larger } = spriteSizes(card);
    const size = larger ?? end;
    const turned = drawnRotation(t, p, true) !== 0 ? TURNED_COST : 1;
    return sum + size.w * size.h * p * p * Math.abs(t.scaleX * t.scaleY) * turned;
  }, 0);
}

/**
 * Where a canvas lies on the page's: device pixel (x, y) is its (0, 0), and it is `zoom` times as
 * fine (a cached layer's canvas covers `box` at full resolution).
 */
function originAt(box) {
  return { x: box.x, y: box.y, zoom: 1 };
}

/**
 * Draws a card but for what an opaque card above it hides: a software canvas pays for every
 * pixel a turned sprite covers, and a deck's cards lie almost whole under the front one. Each
 * visible band is drawn under a whole-pixel rectangular clip, which costs nothing to apply.
 */
function drawUncovered(ctx, limit, painter, entry, occluder, origin, dragged = false, moving = false) {
  const reach = cardReach(painter, entry.transform);
  const box = {
    x: Math.max(limit.x, Math.floor(reach.x)), y: Math.max(limit.y, Math.floor(reach.y)),
    right: Math.min(limit.right, Math.ceil(reach.right)), bottom: Math.min(limit.bottom, Math.ceil(reach.bottom)),
  };
  if (!(box.right > box.x && box.bottom > box.y)) return;
  const bands = hiddenShare(box, occluder) < MIN_HIDDEN_SHARE ? [box] : bandsAround(box, occluder);
  if (bands.length === 1 && bands[0] === box) {
    drawCard(ctx, painter, entry, origin, dragged, moving);
    return;
  }
  for (const band of bands) {
    ctx.save();
    ctx.setTransform(origin.zoom, 0, 0, origin.zoom, 0, 0);
    ctx.beginPath();
    ctx.rect(band.x - origin.x, band.y - origin.y, band.right - band.x, band.bottom - band.y);
    ctx.clip();
    drawCard(ctx, painter, entry, origin, dragged, moving);
    ctx.restore();
  }
}

// A turn that moves no corner of the card by this many device pixels is not drawn: a software
// canvas draws a turned image many times slower than a straight one, and a card straightening
// at the end of a spring spends its last frames within a hair of straight.
const UNSEEN_TURN_PX = 0.25;
// The same for a card in motion, drawn unfiltered: its edges step a whole pixel anyway, and the
// deck's cards swing to rest through a long tail of turns under two pixels (each drawn turned, a
// fly-out's frames took twice as long). The frame it comes to rest in draws it as it is.
const MOVING_TURN_PX = 1;

/**
 * The rotation to draw `t` with at `devicePerPoint`: its own, or 0 when no corner would move by
 * UNSEEN_TURN_PX (MOVING_TURN_PX for a card `moving`).
 */
export function drawnRotation(t, devicePerPoint, moving = false) {
  const reach = (Math.hypot(t.w * t.scaleX, t.h * t.scaleY) / 2) * devicePerPoint;
  return Math.abs(t.rotation) * reach < (moving ? MOVING_TURN_PX : UNSEEN_TURN_PX) ? 0 : t.rotation;
}

/** Sets `ctx` to the card's own coordinates, as seen from `origin` (originAt). */
function placeCard(ctx, painter, t, origin, moving = false) {
  const p = painter.pointToDevice;
  const { x, y, zoom } = origin;
  ctx.setTransform(p * zoom, 0, 0, p * zoom, (painter.originX - x) * zoom, (painter.originY - y) * zoom);
  ctx.translate(t.x, t.y);
  const rotation = drawnRotation(t, p, moving);
  if (rotation !== 0) ctx.rotate(rotation);
  ctx.scale(t.scaleX, t.scaleY);
}

// The sprite to draw a card side with (sprites.js: spriteSizes): its own, or while it grows or
// shrinks, one already made at the larger size; while a drag resizes it, the last one made if
// its size is close.
function spriteFor(painter, card, side, withShadow, dragged = false) {
  const { end, larger } = spriteSizes(card);
  if (larger) {
    const kept = painter.sprites.find({
      side, src: card.src, highlight: card.highlight, w: larger.w, h: larger.h,
      devicePerPoint: painter.pointToDevice, withShadow,
    });
    if (kept) return kept;
  }
  if (dragged) {
    const near = painter.sprites.near({
      side, src: card.src, highlight: card.highlight, w: end.w, h: end.h, devicePerPoint: painter.pointToDevice,
      withShadow,
    });
    // Not a placeholder: the card waits for its photo in a sprite of its own (painter.pending).
    if (near && (side !== 'face' || !card.src || near.imageWidth)) return near;
  }
  const standIn = painter.standIns ? standInSprite(painter, card, side, end, withShadow, Boolean(card.anim)) : null;
  if (standIn) {
    painter.standIns.add(card.id);
    return standIn;
  }
  if (painter.coarse && side === 'face' && awaitsPhoto(painter, card, end)) return null;
  const started = performance.now();
  const sprite = spriteOf(painter, card, side, end, withShadow);
  painter.spriteMs = (painter.spriteMs ?? 0) + performance.now() - started;
  if (side === 'face' && card.src && !sprite.imageWidth) painter.pending?.add(card.id);
  return sprite;
}

// How long a frame at rest may spend making sprites of its own style's look before the other
// cards stand in with another style's sprite (standInSprite).
const FRAME_SPRITE_MS = 8;

/**
 * A card come to rest at a size it has no sprite of yet (a style switch's last frame: every card
 * at a new size, ten sprites in one frame) is drawn once from the sprite it moved with, if that is
 * as large (scaled down, it stays sharp) or nothing moves any more; idle time makes its own and
 * asks for the frame that shows it (Renderer.takeRedraw). A card still changing size (`resizing`)
 * takes whatever sprite it has while the time between frames makes its own (warmEnds): a few
 * softer frames rather than a stall; so does any card drawn coarse. Null when its own is made, or
 * should be: a sprite of another style stands in at rest only past the frame's sprite budget.
 */
function standInSprite(painter, card, side, end, withShadow, resizing = false) {
  const own = {
    side, src: card.src, highlight: card.highlight, w: end.w, h: end.h, lookName: painter.lookName,
    devicePerPoint: painter.pointToDevice, withShadow,
  };
  if (painter.sprites.has(own)) return null;
  const latest = painter.sprites.near(own, Infinity);
  if (!latest || (side === 'face' && card.src && !latest.imageWidth)) return null;
  // Another style's sprite (its corners, its border) stands in while the card still moves or is
  // drawn coarse; at rest only once the frame has spent FRAME_SPRITE_MS making sprites: a card in
  // a new style shows that style's look from its first frame, unless that would stall it.
  const otherLook = !latest.key?.startsWith(`${painter.lookName}|`);
  if (otherLook && !resizing && !painter.coarse && (painter.spriteMs ?? 0) < FRAME_SPRITE_MS) return null;
  return painter.atRest || painter.coarse || resizing || (latest.w >= end.w && latest.h >= end.h) ? latest : null;
}

/**
 * Whether a card drawn coarse waits for its photo rather than for a blank card's sprite: one the
 * message that brings it has no photo for yet (a style switch brings the cards another style did
 * not draw, under the others at first), and that has no sprite to stand in. A blank sprite, its
 * blurred shadow included, took 4–9 ms before the switch's first frame, only to be made again
 * when the photo landed; the card is drawn from then on (Renderer.prepare). Asking starts loading it.
 */
function awaitsPhoto(painter, card, size) {
  if (!card.src) return false;
  // A card with a sprite is left alone: asking for its photo at a new size mid-motion would load
  // it, and each landing would make a wall-sized sprite between the frames (20–50 ms each).
  const any = painter.sprites.near({
    side: 'face', src: card.src, highlight: card.highlight, w: size.w, h: size.h, devicePerPoint: painter.pointToDevice,
    withShadow: true,
  }, Infinity);
  return !any && !painter.images.get(card.src, photoPixels(painter, size));
}

// The pixels along its longer side a photo is wanted at for a card of `size` (points).
function photoPixels(painter, size) {
  const { inner } = cardBoxes(size.w, size.h, painter.look);
  return Math.max(inner.w, inner.h) * painter.pointToDevice;
}

function spriteOf(painter, card, side, size, withShadow) {
  return painter.sprites.get(spriteFields(painter, card, side, size, withShadow));
}

// spriteOf a piece at a time (SpriteCache.steps).
function spriteSteps(painter, card, side, size, withShadow) {
  return painter.sprites.steps(spriteFields(painter, card, side, size, withShadow));
}

function spriteFields(painter, card, side, size, withShadow) {
  const image = side === 'face' && card.src ? painter.images.get(card.src, photoPixels(painter, size)) : null;
  return {
    side, src: card.src, image, highlight: card.highlight, w: size.w, h: size.h, look: painter.look,
    lookName: painter.lookName, devicePerPoint: painter.pointToDevice, withShadow,
  };
}

// A sprite's copy at a coarse canvas' resolution, made once per sprite (a turned image is drawn
// from a sprite four times its size several times slower: every other pixel read, none cached).
const coarseSprites = new WeakMap();
// Copies made in one frame at most; the others draw from their sprite meanwhile.
const COARSE_SPRITES_PER_FRAME = 2;

function hasCoarseSprite(sprite, zoom) {
  return coarseSprites.get(sprite)?.zoom === zoom;
}

function coarseSprite(painter, sprite, zoom) {
  const kept = coarseSprites.get(sprite);
  if (kept && kept.zoom === zoom) return kept;
  painter.coarseMade = painter.coarseMade ?? 0;
  if (painter.coarseMade >= COARSE_SPRITES_PER_FRAME || !painter.make) return sprite;
  painter.coarseMade += 1;
  const width = Math.max(1, Math.ceil(sprite.canvas.width * zoom));
  const height = Math.max(1, Math.ceil(sprite.canvas.height * zoom));
  const canvas = painter.make(width, height);
  const ctx = canvas.getContext('2d');
  ctx.imageSmoothingEnabled = true;
  ctx.drawImage(sprite.canvas, 0, 0, width, height);
  // Rasterised now (made in idle time, its cost stays there), not when first drawn from.
  const image = typeof canvas.transferToImageBitmap === 'function' ? canvas.transferToImageBitmap() : canvas;
  const copy = { ...sprite, canvas: image, scale: (sprite.scale * width) / sprite.canvas.width, zoom };
  coarseSprites.set(sprite, copy);
  return copy;
}

// How long prepareCards may make sprites at once, between two frames.
const PREPARE_MS = 8;

// A moving sprite drawn within this share of its own pixel size is sampled nearest-neighbour.
const NEAREST_SCALE_SLACK = 0.1;

/**
 * Whether a moving card's sprite may be drawn unfiltered. A software canvas filters a turned or
 * sub-pixel-placed image several times slower than it copies one (a 600×850 px card: ~8 ms against
 * ~1 at 1920×1080 without a GPU, most of a frame); drawn at about its own size, the unfiltered
 * sprite differs only by its edges stepping on the pixel grid while it moves. A card that grows or
 * shrinks keeps filtering (unfiltered, a scaled photo shimmers), and a card at rest is drawn
 * filtered into its layer.
 */
export function samplesNearest(sprite, t, devicePerPoint) {
  const scale = (Math.max(Math.abs(t.scaleX), Math.abs(t.scaleY)) * devicePerPoint * t.w) / (sprite.w * sprite.scale);
  return Math.abs(scale - 1) <= NEAREST_SCALE_SLACK;
}

/**
 * Draws one card (its transform `t`) on a canvas at `origin` (originAt); false when unseen.
 * `dragged`: a drag moves it (spriteFor); `moving`: it is drawn in motion, not into a layer
 * (samplesNearest).
 */
function drawCard(ctx, painter, { card, transform: t }, origin, dragged = false, moving = false) {
  if (!isVisible(t)) return false;
  const opacity = Math.min(t.opacity, 1);
  placeCard(ctx, painter, t, origin, moving);
  // Drawn straighter than it is: repainted as it is when it comes to rest.
  if (moving && drawnRotation(t, painter.pointToDevice, true) !== drawnRotation(t, painter.pointToDevice)) {
    painter.rough?.add(card.id);
  }
  // A translucent card fades as one sheet, shadow included, as a layer's opacity does: the
  // sprite is opaque where the card is, so nothing under the photo shows through it.
  ctx.globalAlpha = opacity;
  const { side, angle } = visibleSide(t.flip);
  if (Math.abs(Math.sin(angle)) < FLAT_FLIP) {
    const own = spriteFor(painter, card, side, true, dragged);
    // Coarse, a card new to the motion shows once its photo has come (awaitsPhoto).
    if (!own) return false;
    const sprite = origin.zoom < 1 ? coarseSprite(painter, own, origin.zoom) : own;
    // Drawn coarse (zoom below 1), a card in motion is unfiltered whatever its size.
    const nearest = moving && (origin.zoom < 1 || samplesNearest(sprite, t, painter.pointToDevice));
    if (nearest) {
      ctx.imageSmoothingEnabled = false;
      painter.rough?.add(card.id);
    }
    drawSprite(ctx, sprite, t.w, t.h);
    if (nearest) ctx.imageSmoothingEnabled = true;
  } else {
    // Its strips are stretched by the perspective whatever its sprite: in motion, unfiltered too.
    if (moving) {
      ctx.imageSmoothingEnabled = false;
      painter.rough?.add(card.id);
    }
    paintTurned(ctx, painter, card, t, side, angle, moving);
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
function paintTurned(ctx, painter, card, t, side, angle, moving = false) {
  const sprite = spriteFor(painter, card, side, false);
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
