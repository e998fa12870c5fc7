// Cached layers: a run of cards that did not move since the last frame (runs.js) is drawn once into
// a canvas of its own and copied in each frame, so a moving card costs its own sprite and the layers
// above and below it, whichever place it has in the stack (a flicked photo flies at the bottom of
// the pile, under every other card). A layer keeps copies of itself without its top card and two
// (what a drag, a flick or a step moves first); a card come to rest next to a layer is drawn onto it.

import { Drawn, drawUncovered, originAt } from './card.js';
import { isVariantOf } from './images.js';
import { cardReach, clippedUnion, isVisible, occluderAbove } from './reach.js';
import { indexOfRun, runKey, sameRun } from './runs.js';
import { rasterise } from './slices.js';

// Layer canvases kept for reuse once their run of cards has changed.
const SPARE_LAYERS = 4;
// Copies a layer keeps of its bottom cards: without its top card, without its top two.
const SNAPSHOTS = 2;

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

/**
 * The layers of the last frame, by run. `make(w, h)` makes a canvas; `probe` (debug.js,
 * RenderProbe), when given, counts the layers drawn, copied and drawn onto.
 */
export class LayerCache {
  #make;
  #probe;
  #layers = new Map();
  #used = new Map();
  #spare = [];
  #generation = 0;
  // Runs a frame at rest left to idle time, rather than drawing their layers in it.
  #deferred = [];

  constructor(make, probe = null) {
    this.#make = make;
    this.#probe = probe;
  }

  /** Counts changes of every photo at once (invalidate()): work made before one is stale. */
  get generation() {
    return this.#generation;
  }

  /**
   * A photo arrived (`url`, a variant of some card's `src`; all photos when not given): the
   * layers that show it may hold its placeholder or a blurrier variant. The others stay.
   */
  invalidate(url = null) {
    if (url === null) {
      this.#generation += 1;
      return;
    }
    for (const [key, layer] of this.#layers) {
      if (layer.cards.some(({ card }) => isVariantOf(url, card.src))) this.#layers.delete(key);
    }
  }

  /** A frame starts: it will say which layers it draws (forRun). */
  startFrame() {
    this.#used = new Map();
    this.#deferred = [];
  }

  /**
   * The layer of a frame's run of still `cards` (two or more). In order of cost: the same layer as
   * in the last frame; a copy kept of a layer's bottom cards (the top one or two started to move:
   * a drag, a flick, the next one straightening); a layer of some of these cards with the others
   * drawn onto it, above or under (a card came to rest next to a run); drawn afresh, unless
   * `mayDraw` is false: then null, and idle time draws it (warm).
   */
  forRun(view, painter, style, cards, mayDraw) {
    const key = runKey(cards);
    const held = this.#layers.get(key);
    let layer = held && !held.consumed && this.#valid(held, view, style) && sameRun(held.cards, cards) ? held : null;
    if (!layer) {
      const started = performance.now();
      layer = this.#fromSnapshot(view, style, cards, key) ?? this.#extended(view, painter, style, cards, key)
        ?? (mayDraw ? this.#drawn(view, painter, style, cards, key, held) : null);
      this.#probe?.layerTime(performance.now() - started);
    }
    if (layer) this.#used.set(key, layer);
    else this.#deferred.push({ key, cards, view, style });
    return layer;
  }

  /** The frame is drawn: layers it did not draw lend their canvases to the next ones. */
  endFrame() {
    for (const [key, layer] of this.#layers) {
      if (this.#used.get(key) === layer) continue;
      for (const canvas of [layer.consumed ? null : layer.canvas, ...layer.snapshots.map((snapshot) => snapshot.canvas)]) {
        if (canvas) this.#lend(canvas);
      }
    }
    this.#layers = this.#used;
  }

  /**
   * Idle time's work, in `slices` (slices.js) while `hasTime(ms)` says so: the layers a frame at
   * rest left; then a layer made by drawing onto another lacks copies of its bottom cards (a layer
   * that grew card by card, photos arriving at load, holds copies of what it was, which are not
   * these): drawn afresh, so that the next gesture or step does not draw it in its first frame;
   * then the copies made during frames, which are only recorded: rasterised on first use they
   * would cost the next motion's first frame every card they hold, turned (a pile's step drew 8
   * in one frame). Answers whether all is done.
   */
  warm(view, painter, style, slices, hasTime) {
    while (this.#deferred.length) {
      const run = this.#deferred[0];
      const made = this.#layers.get(run.key);
      const madeSince = made && !made.consumed && this.#valid(made, view, style) && sameRun(made.cards, run.cards);
      if (run.view === view && run.style === style && !madeSince) {
        const fresh = this.#drawnInSlices(view, painter, style, run.cards, run.key, slices, hasTime);
        if (!fresh) return false;
        this.#layers.set(run.key, fresh);
      }
      this.#deferred.shift();
    }
    for (const [key, layer] of this.#layers) {
      if (layer.consumed || hasBottomCopies(layer) || !this.#valid(layer, view, style)) continue;
      // Frames keep drawing the layer as it is until its successor is whole.
      const fresh = this.#drawnInSlices(view, painter, style, layer.cards, key, slices, hasTime);
      if (!fresh) return false;
      layer.consumed = true;
      this.#lend(layer.canvas);
      this.#layers.set(key, fresh);
    }
    for (const layer of this.#layers.values()) {
      if (layer.rasterised || layer.consumed) continue;
      for (const snapshot of layer.snapshots) {
        if (snapshot.rasterised) continue;
        if (!slices.once(() => rasterise(snapshot.canvas), hasTime)) return false;
        snapshot.rasterised = true;
      }
      layer.rasterised = true;
    }
    return true;
  }

  #lend(canvas) {
    if (this.#spare.length < SPARE_LAYERS) this.#spare.push(canvas);
  }

  #valid(layer, view, style) {
    return layer.generation === this.#generation && layer.view === view && layer.style === style
      && layer.fit.scale === view.fit.scale && layer.fit.x === view.fit.x && layer.fit.y === view.fit.y;
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
      this.#probe?.layerReused();
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
          if (!snapshots.includes(dropped)) this.#lend(dropped.canvas);
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
        drawUncovered(ctx, limit, painter, cards[i], occluderAbove(painter, cards, i), originAt(box), Drawn.INTO_LAYER);
      }
      ctx.globalCompositeOperation = 'source-over';
      for (let i = at + layer.cards.length; i < cards.length; i += 1) {
        if (!isVisible(cards[i].transform)) continue;
        visible += 1;
        drawUncovered(ctx, limit, painter, cards[i], occluderAbove(painter, cards, i), originAt(box), Drawn.INTO_LAYER);
      }
      this.#probe?.layerExtended();
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

  // #drawn in idle time, a card or a copy at a time; null until it is whole (slices.js).
  #drawnInSlices(view, painter, style, cards, key, slices, hasTime) {
    const job = { kind: 'layer', key, view, style, generation: this.#generation };
    const layer = slices.run(job, () => this.#drawing(view, painter, style, cards, key, null, true), hasTime);
    if (layer) layer.rasterised = true;
    return layer;
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
        drawUncovered(ctx, limit, painter, entry, occluderAbove(painter, cards.slice(0, copyTop), i), originAt(box),
          Drawn.INTO_LAYER);
        if (stepwise) {
          rasterise(canvas);
          yield;
        }
      }
      this.#probe?.layerBuilt();
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
