// Drawing a frame: what to redraw and in what order. The backdrop, then every card in z order,
// runs of still cards copied from cached layers (layers.js), the others drawn one by one (card.js)
// but for what an opaque card above hides (reach.js); only where cards changed (repaint.js), or
// coarse (coarse.js). Between frames, idle time makes what the next frames will want, in slices
// (slices.js). Card sizes, borders and shadows are in stage points, so a phone and a wall screen
// show the same picture, only scaled. Nothing is clipped to the stage: the canvas covers the
// window, and a card is drawn wherever its transform puts it.

import { makeCanvas } from './canvas.js';
import { Drawn, SCREEN, drawUncovered } from './card.js';
import { COARSE_ZOOM, CoarseMotion, coarseView, movingCards, tooLargeToDrawSharp } from './coarse.js';
import { isVariantOf } from './images.js';
import { LayerCache } from './layers.js';
import { Painter } from './painter.js';
import { isVisible, occluderAbove } from './reach.js';
import { RepaintTracker } from './repaint.js';
import { splitRuns } from './runs.js';
import { IdleSlices } from './slices.js';
import {
  affordableSprites, awaitsPhoto, coarseCopy, hasCoarseCopy, spriteKey, spriteOf, spriteSteps, standInSprite,
  wantedSprites,
} from './sprite-choice.js';
import { SpriteCache, spriteSizes } from './sprites.js';

// How long prepareCards may make sprites at once, between two frames.
const PREPARE_MS = 8;

/**
 * Draws frames. Keeps the card sprites and the cached layers of still cards from frame to frame;
 * `make(w, h)` makes an offscreen canvas (a fake in node tests); `probe` (debug.js, RenderProbe),
 * on a page opened with ?debug=1, counts what is made and tracks a card.
 */
export class Renderer {
  #make;
  #sprites;
  #probe;
  #layers;
  #slices = new IdleSlices();
  #coarse = new CoarseMotion();
  #repaint = new RepaintTracker();
  // The last frame's entries by card id, and its cards drawn with a placeholder (runs.js: isStill).
  #previous = new Map();
  #pending = new Set();
  // Whether a card the last frame drew with its photo was a placeholder before (wantsFrame).
  #settling = false;
  #lastView = null;
  #lastStyle = null;
  // How long warmEnds' last sprite took per device pixel.
  #spriteMsPerPixel = 0;
  // Cards the last frame drew with another size's sprite (a motion's last frame, before the one of
  // their resting size was made), and whether idle time has made theirs since: one more frame.
  #standIns = new Set();
  #redrawWanted = false;

  #photoFit;

  /** `photoFit`: 'cover' (`?fit=cover`) crops every photo to its card (look.js). */
  constructor({ make = makeCanvas, sprites = null, probe = null, photoFit = null } = {}) {
    this.#photoFit = photoFit;
    this.#make = make;
    this.#sprites = sprites ?? new SpriteCache({ make });
    this.#probe = probe;
    probe?.watchSprites(this.#sprites);
    this.#layers = new LayerCache(make, probe);
  }

  /**
   * A photo arrived (`url`, a variant of some card's `src`; all photos when not given): the
   * cached layers that show it may hold its placeholder or a blurrier variant. The others stay.
   */
  invalidate(url = null) {
    this.#repaint.repaintAll();
    this.#layers.invalidate(url);
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
   * passes through serves meanwhile (sprite-choice.js: spriteFor). At most PREPARE_MS of it at
   * once: a card that changes size and has a sprite already is left to the time between the
   * motion's frames (warmEnds), drawn meanwhile from the sprite it has (all at once, a switch to the
   * frame style would make twelve wall-sized sprites here in one task of ~190 ms); in a motion drawn
   * coarse, from the first.
   */
  prepareCards(entries, images, style = this.#lastStyle) {
    if (!this.#lastView?.fit) return;
    const view = this.#lastView;
    const painter = this.#painter(view, style, images);
    const started = performance.now();
    // A motion that will be drawn coarse takes whatever sprites the cards have (CoarseMotion).
    const coarse = tooLargeToDrawSharp(view, movingCards(entries));
    for (const { card, transform } of entries) {
      if (!isVisible(transform)) continue;
      const { end, larger } = spriteSizes(card);
      if (!(end.w > 0 && end.h > 0)) continue;
      const late = coarse || performance.now() - started > PREPARE_MS;
      if (coarse && awaitsPhoto(painter, card, end)) continue;
      if (late && larger && standInSprite(painter, card, 'face', end, true, true)) continue;
      if (larger && painter.sprites.find(spriteKey(painter, card, 'face', larger, true))) continue;
      spriteOf(painter, card, 'face', end, true);
    }
  }

  /**
   * Whether the last frame drew a photo that was a placeholder before: one more frame puts it in
   * a cached layer with its still neighbours (else that waits for the next motion's first frame).
   * Also while cards come to rest coarse: one more frame draws them at rest (CoarseMotion).
   */
  get wantsFrame() {
    return this.#settling || this.#coarse.wantsFrame;
  }

  /** The next frame repaints the whole canvas (something else drew on it). */
  repaintAll() {
    this.#repaint.repaintAll();
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

  /**
   * Draws `entries` ([{card, transform}] in z order) on `ctx`. `view` is {width, height, dpr, fit}:
   * the canvas in device pixels, the stage fit in CSS pixels. `style` is the room's style
   * (corners, borders, shadows); `images.get(src, pixels)` answers a decoded photo or null;
   * `backdrop.draw(ctx, view, now)` paints what lies under the cards (`now`: the page's clock, ms,
   * for a backdrop that fades). With `partial`, when the canvas holds the last frame and the
   * backdrop is `static`, only the part where cards moved is repainted (repaint.js): nothing else
   * may have drawn on the canvas since. Returns how many cards are visible.
   */
  draw(ctx, view, entries, { style, images, backdrop, now = 0, partial = false }) {
    const runs = splitRuns(entries, this.#previous, this.#pending);
    const painter = this.#painter(view, style, images, { atRest: runs.every((run) => run.still) });
    this.#lastView = view;
    this.#lastStyle = style;
    const last = { previous: this.#previous, pending: this.#pending };
    const dirty = this.#repaint.sharpFrame(painter, view, style, entries, last, partial && backdrop.static);
    ctx.save();
    if (dirty) {
      // Whole pixels: inside, every pixel is drawn as a whole frame would draw it.
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      ctx.beginPath();
      ctx.rect(dirty.x, dirty.y, dirty.w, dirty.h);
      ctx.clip();
    }
    backdrop.draw(ctx, view, now);
    const drawn = this.#drawCards(ctx, view, painter, style, entries, runs, SCREEN);
    ctx.restore();
    return drawn;
  }

  /** Whether `entries` are drawn coarse (drawCoarse) in this frame (coarse.js: CoarseMotion). */
  coarseFor(view, entries) {
    if (!view?.fit) return false;
    return this.#coarse.decide(view, entries, this.#previous);
  }

  /** Whether cards come to rest drawn coarse wait for idle time to draw them sharp (coarseFor). */
  get sharpening() {
    return this.#coarse.sharpening;
  }

  /**
   * The next frame draws the cards at rest sharp, whatever idle time has made for it yet (what it
   * lacks, it makes or stands in for, as any frame at rest; idle time goes on afterwards).
   */
  sharpenNow() {
    this.#coarse.warmed();
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
    const runs = splitRuns(entries, this.#previous, this.#pending);
    const atRest = runs.every((run) => run.still);
    // Soft anyway: a card takes whatever sprite it has, its own is made before the sharp frame.
    const painter = this.#painter(view, style, images, { atRest, coarse: true });
    this.#lastView = view;
    this.#lastStyle = style;
    this.#repaint.coarseFrame(painter);
    ctx.save();
    backdrop.draw(ctx, coarseView(view, zoom), now);
    const drawn = this.#drawCards(ctx, view, painter, style, entries, runs, { x: 0, y: 0, zoom });
    ctx.restore();
    if (atRest) this.#coarse.drewAtRest();
    return drawn;
  }

  /** The part of the last frame repainted ({x, y, w, h} device pixels), or null when all was (tests). */
  get lastDirty() {
    return this.#repaint.lastDirty;
  }

  // The cards, bottom first, on a canvas at `onScreen` (card.js: originAt): each run of still
  // cards as its layer, the others one by one. A frame in which nothing moves (a motion's last, or
  // a photo come in) draws no layer afresh: its cards are drawn as they were while they moved, and
  // the layer is made in idle time.
  #drawCards(ctx, view, painter, style, entries, runs, onScreen) {
    const screen = { x: 0, y: 0, right: view.width, bottom: view.height };
    const pending = this.#pending;
    this.#pending = painter.pending;
    this.#standIns = painter.standIns;
    this.#redrawWanted = false;
    this.#settling = false;
    this.#layers.startFrame();
    let drawn = 0;
    for (const run of runs) {
      const cards = entries.slice(run.start, run.end);
      const layer = run.still && cards.length > 1 ? this.#layers.forRun(view, painter, style, cards, !painter.atRest) : null;
      if (layer) {
        drawn += layer.visible;
        if (layer.box) {
          const { x, y, w, h } = layer.box;
          ctx.setTransform(onScreen.zoom, 0, 0, onScreen.zoom, 0, 0);
          ctx.globalAlpha = 1;
          ctx.drawImage(layer.canvas, 0, 0, w, h, x, y, w, h);
        }
        continue;
      }
      for (let i = run.start; i < run.end; i += 1) {
        const entry = entries[i];
        if (!isVisible(entry.transform)) continue;
        drawn += 1;
        // A card a drag moves (plain transforms, no animation) may be drawn from a sprite of a
        // size close to its own; it is drawn from its own once it rests, in a cached layer.
        const dragged = !entry.card.anim && !pending.has(entry.card.id);
        const how = run.still ? Drawn.STILL : (dragged ? Drawn.DRAGGED : Drawn.MOVING);
        drawUncovered(ctx, screen, painter, entry, occluderAbove(painter, entries, i), onScreen, how);
      }
    }
    this.#layers.endFrame();
    this.#previous = new Map(entries.map((entry) => [entry.card.id, entry]));
    // A card whose photo has just been drawn joins its still neighbours' layer in the next frame.
    for (const id of pending) if (!this.#pending.has(id)) this.#settling = true;
    this.#probe?.frameDrawn(view, entries);
    return drawn;
  }

  #painter(view, style, images, frame = {}) {
    return new Painter(view, style, { images, sprites: this.#sprites, make: this.#make },
      { ...frame, photoFit: this.#photoFit });
  }

  /**
   * Makes, while `hasTime()` says so, what the next motion will want, so that it does not stall
   * its first frame making it: the layers a frame at rest left and their copies (layers.js), the
   * sprites (sprite-choice.js: wantedSprites, front first, as many as the cache keeps together:
   * affordableSprites), and their coarse copies where the cards would be
   * drawn coarse if they moved together (a style switch). Run when the page is idle; answers
   * whether all are made.
   */
  warm(view, entries, { style, images, hasTime }) {
    if (!view?.fit) return true;
    const painter = this.#painter(view, style, images);
    if (!this.#layers.warm(view, painter, style, this.#slices, hasTime)) return false;
    const wanted = affordableSprites(painter, wantedSprites(entries, style), this.#sprites.budget);
    for (const { card, side, size, withShadow } of wanted) {
      if (this.#sprites.keep(spriteKey(painter, card, side, size, withShadow))) continue;
      // A large sprite (the frame style's, wall-sized) is drawn in bands, a slice each.
      const job = {
        kind: 'sprite', key: `${side}|${withShadow}|${card.src}|${card.highlight}|${size.w}x${size.h}`, view, style,
        generation: this.#layers.generation,
      };
      if (!this.#slices.run(job, () => spriteSteps(painter, card, side, size, withShadow), hasTime)) return false;
    }
    if (tooLargeToDrawSharp(view, entries.filter(({ transform }) => isVisible(transform)))) {
      for (const { card, side, size, withShadow } of wanted) {
        if (side !== 'face' || !withShadow) continue;
        const sprite = painter.sprites.find(spriteKey(painter, card, side, size, withShadow));
        if (!sprite || hasCoarseCopy(sprite, COARSE_ZOOM)) continue;
        if (!hasTime()) return false;
        coarseCopy(this.#make, sprite, COARSE_ZOOM);
      }
    }
    if (this.#standIns.size) {
      this.#standIns = new Set();
      this.#redrawWanted = true;
      this.#repaint.repaintAll();
    }
    // Cards drawn coarse at rest: everything the sharp frame draws them from is made.
    if (this.#coarse.sharpening) {
      this.#coarse.warmed();
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
    if (!view?.fit || this.#coarse.drawsCoarse) return true;
    const painter = this.#painter(view, style, images);
    for (const { card } of entries) {
      const { end, larger } = spriteSizes(card);
      if (!larger || !(end.w > 0 && end.h > 0)) continue;
      if (this.#sprites.has(spriteKey(painter, card, 'face', end, true))) continue;
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
}
