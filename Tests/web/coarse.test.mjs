// Coarse frames (coarse.js): which motions are drawn at half resolution, and how.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { CoarseMotion } from '../../Resources/web/coarse.js';
import { lookFor } from '../../Resources/web/look.js';
import { spriteGeometry } from '../../Resources/web/sprites.js';
import {
  backdrop, images, onMain, probedRenderer, recordingContext, setup, transform, view,
} from './support/canvas-fakes.mjs';

describe('coarse frames', () => {
  // Eight 600×500 cards: 2.4 million device pixels, three screens of 1024×768.
  const big = (x, anim = null) => ({
    card: { id: `c${x}`, src: `/photos/${x}`, highlight: false, w: 600, h: 500, anim },
    transform: transform(300 + x * 20, { w: 600, h: 500, rotation: 0.05 * (x - 4) }),
  });
  const cards = (anim) => [0, 1, 2, 3, 4, 5, 6, 7].map((x) => big(x, anim));
  const motion = { start: 0, duration: 400 };

  test('CoarseMotion: coarse from a large motion’s first frame until idle time has readied the sharp one', () => {
    const motionState = new CoarseMotion();
    const previousOf = (entries) => new Map(entries.map((e) => [e.card.id, e]));
    const atRest = cards(null);
    const flags = () => [motionState.drawsCoarse, motionState.wantsFrame, motionState.sharpening];
    assert.equal(motionState.decide(view, cards(motion).slice(0, 1), new Map()), false, 'one card: sharp');
    assert.equal(motionState.decide(view, cards(motion), new Map()), true, 'eight turned cards: coarse');
    assert.deepEqual(flags(), [true, false, false]);
    assert.equal(motionState.decide(view, atRest, previousOf(atRest)), true, 'stopped: still coarse');
    assert.deepEqual(flags(), [true, true, false], 'and one more frame is wanted');
    motionState.drewAtRest();
    assert.deepEqual(flags(), [true, false, true], 'drawn at rest: waiting for idle time');
    assert.equal(motionState.decide(view, atRest, previousOf(atRest)), true);
    motionState.warmed();
    assert.equal(motionState.decide(view, atRest, previousOf(atRest)), false, 'readied: sharp');
    assert.deepEqual(flags(), [false, false, false]);
    // A drag while waiting at rest is drawn sharp at once.
    motionState.decide(view, cards(motion), new Map());
    motionState.decide(view, atRest, previousOf(atRest));
    motionState.drewAtRest();
    const dragged = atRest.map((e, i) => (i === 7 ? { ...e, transform: { ...e.transform, x: e.transform.x + 30 } } : e));
    assert.equal(motionState.decide(view, dragged, previousOf(atRest)), false);
  });

  test('cards waiting at rest for idle time are drawn sharp when the page will not wait longer', () => {
    const { renderer } = setup();
    const ctx = recordingContext('coarse', []);
    const atRest = cards(null);
    assert.equal(renderer.coarseFor(view, cards(motion)), true);
    renderer.drawCoarse(ctx, view, cards(motion), { style: 'pile', images, zoom: 0.5, backdrop });
    for (let frame = 0; frame < 2; frame += 1) {
      assert.equal(renderer.coarseFor(view, atRest), true, 'stopped: coarse');
      renderer.drawCoarse(ctx, view, atRest, { style: 'pile', images, zoom: 0.5, backdrop });
    }
    assert.equal(renderer.sharpening, true, 'waiting for idle time');
    renderer.sharpenNow();
    assert.equal(renderer.coarseFor(view, atRest), false, 'the next frame is sharp, idle time or not');
    assert.equal(renderer.sharpening, false);
  });

  test('a motion moving cards that cover more than 2.5 screens is drawn coarse, at half the pixels', () => {
    const { log, renderer } = setup();
    const ctx = recordingContext('coarse', log);
    // Each card 300,000 px; a screen 786,432 px; a turned card counts three times.
    const turned = (count, rotation) => cards(motion).slice(0, count).map((entry) => ({
      ...entry, transform: { ...entry.transform, rotation },
    }));
    const freshly = (entries) => setup().renderer.coarseFor(view, entries);
    assert.equal(freshly(turned(6, 0)), false, 'six straight cards: 2.3 screens');
    assert.equal(freshly(turned(2, 0.1)), false, 'two turned cards: 2.3 screens');
    assert.equal(freshly(turned(3, 0.1)), true, 'three turned cards: 3.4 screens');
    assert.equal(freshly(turned(8, 0)), true, 'eight straight cards: 3.1 screens');
    assert.equal(freshly([]), false);
    // Looked at in every frame: a motion that starts straight and turns (a spring) turns coarse.
    assert.equal(renderer.coarseFor(view, turned(2, 0)), false);
    assert.equal(renderer.coarseFor(view, turned(3, 0.1)), true);
    assert.equal(renderer.coarseFor(view, turned(3, 0)), true, 'and stays so until the cards rest');
    assert.equal(renderer.coarseFor(view, cards(motion)), true);
    log.length = 0;
    // The backdrop is painted first, at the coarse canvas' size: it covers the page's canvas.
    const painted = { draw: (on, at) => log.push(['backdrop', on === ctx, at.width, at.height]) };
    assert.equal(renderer.drawCoarse(ctx, view, cards(motion), { style: 'pile', images, zoom: 0.5, backdrop: painted }), 8);
    const first = log.findIndex(([target]) => target === 'backdrop');
    assert.deepEqual(log[first], ['backdrop', true, 512, 384]);
    assert.ok(!log.slice(0, first).some(([, method]) => method === 'drawImage'), 'before any card');
    const placed = log.slice(first).filter(([target, method]) => target === 'coarse' && method === 'setTransform')
      .map((call) => call[2]);
    assert.ok(placed.length >= 8 && placed.every((scale) => scale === 0.5), 'every card placed at half the scale');
    assert.equal(log.filter(([target]) => target === 'main').length, 0, 'nothing on the page’s canvas');
  });

  test('coarse, a card is drawn from a copy of its sprite at half the size, two copies made a frame', () => {
    const { log, renderer } = setup();
    const ctx = recordingContext('coarse', log);
    const sources = () => {
      log.length = 0;
      renderer.drawCoarse(ctx, view, cards(motion), { style: 'pile', images, zoom: 0.5, backdrop });
      // Each sprite drawn (a card may be drawn in bands around the one above it: several draws).
      return [...new Set(log.filter(([target, method]) => target === 'coarse' && method === 'drawImage')
        .map((call) => call[2]))].map((source) => source.width);
    };
    renderer.coarseFor(view, cards(motion));
    const full = spriteGeometry(600, 500, lookFor('pile'), 1).width;
    const half = Math.ceil(full / 2);
    const first = sources();
    assert.equal(first.filter((width) => width === half).length, 2, `two copies in the first frame (${first})`);
    assert.equal(first.filter((width) => width === full).length, 6, 'the others from their sprites');
    for (let frame = 2; frame <= 4; frame += 1) sources();
    assert.deepEqual([...new Set(sources())], [half], 'by the fifth frame every card from its copy');
  });

  test('idle time makes the coarse copies of cards that would be drawn coarse if they moved together', () => {
    const { log, frame, renderer } = setup();
    const ctx = recordingContext('coarse', log);
    frame(cards(null));
    log.length = 0;
    assert.equal(renderer.warm(view, cards(null), { style: 'pile', images, hasTime: () => true }), true);
    const made = log.filter((call) => call[1] === 'drawImage' && call.length === 7).length;
    assert.equal(made, 8, 'a copy of each card’s sprite');
    renderer.coarseFor(view, cards(motion));
    log.length = 0;
    renderer.drawCoarse(ctx, view, cards(motion), { style: 'pile', images, zoom: 0.5, backdrop });
    const widths = new Set(log.filter(([target, method]) => target === 'coarse' && method === 'drawImage')
      .map((call) => call[2].width));
    assert.deepEqual([...widths], [Math.ceil(spriteGeometry(600, 500, lookFor('pile'), 1).width / 2)],
      'the motion’s first frame draws every card from its copy');
    // Two small cards would not be drawn coarse: no copies.
    const small = setup();
    small.frame(cards(null).slice(0, 2));
    const before = small.log.length;
    small.renderer.warm(view, cards(null).slice(0, 2), { style: 'pile', images, hasTime: () => true });
    // A coarse copy is the one drawImage(sprite, 0, 0, width, height) (a layer's copy names its
    // source rectangle too, a sprite's shadow only where it goes).
    const copies = (entries) => entries.filter((call) => call[1] === 'drawImage' && call.length === 7).length;
    assert.equal(copies(small.log.slice(before)), 0);
  });

  test('cards come to rest coarse, and are drawn sharp from their layers once idle time has made them', () => {
    const { log, frame, renderer, probe } = setup();
    const ctx = recordingContext('coarse', log);
    const coarse = (entries) => renderer.drawCoarse(ctx, view, entries, { style: 'pile', images, zoom: 0.5, backdrop });
    assert.equal(renderer.coarseFor(view, cards(motion)), true);
    coarse(cards(motion));
    // The motion is over: the first frame at rest is coarse still, and asks for one more.
    assert.equal(renderer.coarseFor(view, cards(null)), true);
    coarse(cards(null));
    assert.equal(renderer.coarseFor(view, cards(null)), true);
    coarse(cards(null));
    assert.equal(renderer.wantsFrame, false, 'drawn at rest');
    assert.equal(renderer.coarseFor(view, cards(null)), true, 'until idle time has made the layers');
    const layers = probe.counters.layers;
    assert.equal(renderer.warm(view, cards(null), { style: 'pile', images, hasTime: () => true }), true);
    assert.equal(probe.counters.layers, layers + 1);
    assert.equal(renderer.takeRedraw(), true, 'the page draws once more');
    assert.equal(renderer.coarseFor(view, cards(null)), false);
    assert.equal(frame(cards(null)), 8);
    assert.equal(onMain(log), 1, 'sharp, in one draw of their layer');
  });

  test('prepareCards makes no sprite for a coarse motion’s cards that have one to stand in', () => {
    const { frame, renderer, probe } = setup();
    frame(cards(null));
    const made = probe.counters.sprites;
    const growing = { start: 0, duration: 400, from: { w: 600, h: 500 }, to: { w: 900, h: 750 } };
    const switched = cards(growing).map((entry) => ({ ...entry, card: { ...entry.card, w: 900, h: 750 } }));
    renderer.prepareCards(switched, images);
    assert.equal(probe.counters.sprites, made, 'the switch’s first frame draws the sprites the cards have');
    renderer.prepareCards(switched.slice(4, 5), images);
    assert.ok(probe.counters.sprites > made, 'one straight card growing (not coarse): its new sprite at once');
  });

  test('a card new to a coarse motion is drawn once its photo has come, not as a blank card first', () => {
    const log = [];
    const ctx = recordingContext('coarse', log);
    const landed = new Set();
    const photos = { get: (src) => (src !== '/photos/7' || landed.has(src) ? { width: 512, height: 384 } : null) };
    const { renderer, probe } = probedRenderer(log);
    const switched = cards(motion);
    renderer.coarseFor(view, switched);
    const made = probe.counters.sprites;
    renderer.prepareCards(switched.slice(7), photos, 'pile');
    assert.equal(probe.counters.sprites, made, 'no blank sprite made as the message brings it');
    const drawnSources = () => {
      log.length = 0;
      renderer.drawCoarse(ctx, view, switched, { style: 'pile', images: photos, zoom: 0.5, backdrop });
      return log.filter(([target, method]) => target === 'coarse' && method === 'drawImage').length;
    };
    const without = drawnSources();
    const sprites = probe.counters.sprites;
    landed.add('/photos/7');
    renderer.prepare('/photos/7?w=512', photos);
    assert.ok(probe.counters.sprites > sprites, 'its sprite made as the photo lands');
    assert.equal(drawnSources(), without + 1, 'drawn from then on');
    // Sharp, a card without its photo is drawn (its placeholder): only coarse frames wait.
    const sharp = setup();
    sharp.renderer.draw(recordingContext('main', sharp.log), view, [big(7, null)], { style: 'pile', images: { get: () => null }, backdrop });
    assert.equal(onMain(sharp.log), 1);
  });

  test('a drag while cards wait coarse at rest is drawn sharp', () => {
    const { renderer } = setup();
    const ctx = recordingContext('coarse', []);
    renderer.coarseFor(view, cards(motion));
    renderer.drawCoarse(ctx, view, cards(motion), { style: 'pile', images, zoom: 0.5, backdrop });
    renderer.coarseFor(view, cards(null));
    renderer.drawCoarse(ctx, view, cards(null), { style: 'pile', images, zoom: 0.5, backdrop });
    const dragged = cards(null);
    dragged[7] = { ...dragged[7], transform: { ...dragged[7].transform, x: dragged[7].transform.x + 30 } };
    assert.equal(renderer.coarseFor(view, dragged), false);
  });
});
