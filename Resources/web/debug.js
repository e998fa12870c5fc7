// Measuring the page: frame times, what the renderer made, where a card was drawn, and synthetic
// cards to load the renderer with more than the server draws. main.js makes them, and exposes them
// on the `window.stackweb` debug hook, only on a page opened with ?debug=1.

import { cardRect, isVisible } from './reach.js';

/** The `p`-th percentile (0–100) of `values`, nearest rank; NaN for no values. */
export function percentile(values, p) {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

const round2 = (value) => Math.round(value * 100) / 100;

/**
 * Records drawn frames while on: the animation-frame time stamp, how long drawing took and how
 * many cards were drawn. `stats()` summarises them.
 */
export class FrameRecorder {
  #frames = [];
  #on = false;

  get recording() {
    return this.#on;
  }

  start() {
    this.#frames = [];
    this.#on = true;
  }

  stop() {
    this.#on = false;
    return this.stats();
  }

  /**
   * `counters` (optional): the renderer's running counts of sprites and layers made; `inFrame`
   * (optional): how many of them this frame made.
   */
  record(timestamp, drawMs, cards, counters = null, inFrame = null) {
    if (!this.#on) return;
    this.#frames.push({
      timestamp, drawMs, cards, ...(counters ? { counters: { ...counters } } : {}), ...(inFrame ? { inFrame: { ...inFrame } } : {}),
    });
  }

  /** The frames recorded so far ({timestamp, drawMs, cards} each), copied. */
  frames() {
    return this.#frames.map((frame) => ({ ...frame }));
  }

  /**
   * {frames, cards (fewest drawn in a frame), intervalP50/P99 (ms between consecutive drawn
   * frames), drawP50/P99/max (ms spent drawing one frame)}.
   */
  stats() {
    const frames = this.#frames;
    const intervals = frames.slice(1).map((frame, i) => frame.timestamp - frames[i].timestamp);
    const draws = frames.map((frame) => frame.drawMs);
    return {
      frames: frames.length,
      cards: frames.length ? Math.min(...frames.map((frame) => frame.cards)) : 0,
      intervalP50: round2(percentile(intervals, 50)),
      intervalP99: round2(percentile(intervals, 99)),
      drawP50: round2(percentile(draws, 50)),
      drawP99: round2(percentile(draws, 99)),
      drawMax: round2(draws.length ? Math.max(...draws) : NaN),
    };
  }
}

/**
 * Frame times as the page measures them (window.stackweb.recordFrames): each drawn frame's time
 * and cards, with what `probe` (RenderProbe) counted the renderer making, all along and in it.
 */
export class FrameMeter {
  #recorder = new FrameRecorder();
  #probe;
  #flush = false;
  #started = 0;
  #countsBefore = null;

  constructor(probe) {
    this.#probe = probe;
  }

  /** Starts recording; with `flush` each frame's time includes rasterising it. */
  start({ flush = false } = {}) {
    this.#flush = flush;
    this.#recorder.start();
  }

  /** Stops recording; answers the summary (FrameRecorder.stats). */
  stop() {
    return this.#recorder.stop();
  }

  /** Every frame recorded since `start`. */
  frames() {
    return this.#recorder.frames();
  }

  /** A frame starts drawing. */
  frameStarted() {
    this.#started = performance.now();
    this.#countsBefore = this.#recorder.recording ? this.#probe.counters : null;
  }

  /**
   * The frame of the animation-frame `timestamp` drew `cards` cards; `waitForPixels()` waits for
   * the canvases it drew on to be rasterised.
   */
  frameDrawn(timestamp, cards, waitForPixels) {
    if (!this.#recorder.recording) return;
    // Canvas commands are recorded, then rasterised later; reading a pixel waits for the pixels,
    // so that the time measured is the whole cost of the frame.
    const recordMs = performance.now() - this.#started;
    if (this.#flush) waitForPixels();
    // The renderer's running counts, how much of the frame was issuing commands (the rest is
    // rasterising them), and what this frame itself made (the running counts also grow between
    // frames: sprites made as messages and photos arrive, and in idle time).
    const counts = this.#probe.counters;
    const inFrame = Object.fromEntries(Object.entries(counts).map(([key, value]) => [
      key, Math.round((value - this.#countsBefore[key]) * 10) / 10]));
    this.#recorder.record(timestamp, performance.now() - this.#started, cards, { ...counts, recordMs }, inFrame);
  }
}

/**
 * `count` cards to draw under the real ones: each the size of `template`, with its photos taken in
 * turn from `srcs`, tilted by up to ±4° like a pile, at z below `belowZ`. Deterministic.
 */
export function syntheticCards(count, template, srcs, belowZ) {
  let state = 0x2545f491;
  const random = () => {
    // xorshift32: the same pile on every run, so measurements compare.
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
  return Array.from({ length: count }, (_, i) => ({
    id: `synthetic-${i}`,
    photo: `synthetic-${i}`,
    src: srcs.length ? srcs[i % srcs.length] : null,
    position: 1000 + i,
    x: template.x + (random() - 0.5) * 40,
    y: template.y + (random() - 0.5) * 40,
    w: template.w,
    h: template.h,
    rotation: (random() - 0.5) * 2 * (4 * Math.PI / 180),
    scaleX: 1, scaleY: 1, opacity: 1, flip: 0,
    z: belowZ - 1 - i,
    highlight: false,
  }));
}

const round1 = (value) => Math.round(value * 10) / 10;

/**
 * What the renderer made (Renderer's `probe`): sprites and layers drawn, layers copied and drawn
 * onto, and the time they took; and where one card was drawn in each frame (track).
 */
export class RenderProbe {
  #sprites = null;
  #layers = 0;
  #reused = 0;
  #extended = 0;
  #layerMs = 0;
  #tracked = null;
  #trackedRects = [];

  /** The renderer's sprite cache, whose own counts `counters` reports. */
  watchSprites(sprites) {
    this.#sprites = sprites;
  }

  layerBuilt() {
    this.#layers += 1;
  }

  layerReused() {
    this.#reused += 1;
  }

  layerExtended() {
    this.#extended += 1;
  }

  /** `ms` spent making a layer a frame wanted. */
  layerTime(ms) {
    this.#layerMs += ms;
  }

  /** Running counts for tests and the benchmark: sprites drawn, layers drawn, copied, drawn onto. */
  get counters() {
    return {
      sprites: this.#sprites?.built ?? 0, layers: this.#layers, reused: this.#reused, extended: this.#extended,
      spriteMs: round1(this.#sprites?.buildMs ?? 0), layerMs: round1(this.#layerMs),
    };
  }

  /**
   * Records, from now on, where card `id` is drawn in each frame (a test reads where a flown card
   * went, window edges or not). `trackedRects()` answers them.
   */
  track(id) {
    this.#tracked = id;
    this.#trackedRects = [];
  }

  /** [{left, top, right, bottom}] in CSS pixels of the canvas, one per frame the card was drawn in. */
  trackedRects() {
    return this.#trackedRects.map((rect) => ({ ...rect }));
  }

  /** A frame drew `entries` ([{card, transform}]) in `view`. */
  frameDrawn(view, entries) {
    if (this.#tracked === null) return;
    const entry = entries.find(({ card }) => card.id === this.#tracked);
    if (entry && isVisible(entry.transform)) this.#trackedRects.push(cardRect(view, entry.transform));
  }
}

/**
 * {withThem: `scene` with `count` synthetic cards under its cards (syntheticCards), each the size
 * of its front card, with its photos in turn; added: how many}. None for a scene without cards.
 */
export function withSyntheticCards(scene, count) {
  const real = [...scene.cards.values()];
  if (!real.length) return { withThem: scene, added: 0 };
  const front = real.reduce((a, b) => (a.position <= b.position ? a : b));
  const srcs = [...new Set(real.map((card) => card.src).filter(Boolean))];
  const lowestZ = Math.min(...real.map((card) => card.z));
  const extra = syntheticCards(count, front, srcs, lowestZ);
  const cards = new Map([...scene.cards, ...extra.map((card) => [card.id, card])]);
  return { withThem: { ...scene, cards }, added: extra.length };
}
