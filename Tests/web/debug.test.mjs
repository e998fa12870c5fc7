// The page's measuring tools (debug.js): frame times, synthetic cards, and the renderer's probe.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import {
  FrameMeter, FrameRecorder, percentile, syntheticCards, withSyntheticCards,
} from '../../Resources/web/debug.js';
import { entry, setup, view } from './support/canvas-fakes.mjs';

describe('frame times', () => {
  test('percentile is nearest-rank', () => {
    const values = [5, 1, 4, 2, 3, 10, 9, 8, 7, 6];
    assert.equal(percentile(values, 50), 5);
    assert.equal(percentile(values, 99), 10);
    assert.equal(percentile(values, 0), 1);
    assert.ok(Number.isNaN(percentile([], 50)));
  });

  test('the recorder keeps frames only while recording and summarises them', () => {
    const recorder = new FrameRecorder();
    recorder.record(0, 1, 100);
    recorder.start();
    [[1000, 2, 110], [1016.7, 3, 110], [1033.4, 4, 105], [1066.8, 9, 110]].forEach((f) => recorder.record(...f));
    const stats = recorder.stop();
    recorder.record(2000, 50, 1);
    assert.deepEqual(stats, {
      frames: 4, cards: 105, intervalP50: 16.7, intervalP99: 33.4, drawP50: 3, drawP99: 9, drawMax: 9,
    });
    assert.deepEqual(recorder.stats(), stats);
  });

  test('synthetic cards sit under the real ones, deterministic, photos in turn', () => {
    const template = { x: 512, y: 384, w: 300, h: 200 };
    const cards = syntheticCards(100, template, ['/photos/a', '/photos/b'], 3);
    assert.equal(cards.length, 100);
    assert.equal(new Set(cards.map((c) => c.id)).size, 100);
    assert.ok(cards.every((c) => c.z < 3 && c.w === 300 && Math.abs(c.rotation) <= (4 * Math.PI) / 180));
    assert.deepEqual(cards.slice(0, 3).map((c) => c.src), ['/photos/a', '/photos/b', '/photos/a']);
    assert.deepEqual(syntheticCards(100, template, ['/photos/a'], 3).map((c) => c.x), cards.map((c) => c.x));
  });
});

describe('RenderProbe', () => {
  test('a tracked card’s rectangle is kept for each frame it is drawn in, off the canvas too', () => {
    const { frame, probe } = setup();
    probe.track('flown');
    for (const x of [500, 1500, 3000]) frame([entry('flown', x), entry('b', 400)]);
    const rects = probe.trackedRects();
    assert.equal(rects.length, 3);
    assert.ok(rects[2].left > view.width, 'drawn where its transform puts it, past the canvas');
  });

  test('counts the sprites and layers the renderer makes', () => {
    const { frame, renderer, probe } = setup();
    const still = [entry('a', 130), entry('b', 390)];
    frame(still);
    frame(still);
    assert.deepEqual([probe.counters.sprites, probe.counters.layers], [3, 0], 'two sprites and the shadow they share');
    renderer.warm(view, still, { style: 'pile', images: { get: () => ({ width: 512, height: 384 }) }, hasTime: () => true });
    assert.equal(probe.counters.layers, 1);
  });
});

test('withSyntheticCards adds cards under a scene’s, none to an empty one', () => {
  const card = { id: 'a', src: '/photos/a', position: 0, x: 512, y: 384, w: 300, h: 200, z: 5 };
  const scene = { style: 'pile', cards: new Map([['a', card]]) };
  const { withThem, added } = withSyntheticCards(scene, 10);
  assert.equal(added, 10);
  assert.equal(withThem.cards.size, 11);
  assert.ok([...withThem.cards.values()].every((c) => c === card || (c.z < 5 && c.src === '/photos/a')));
  assert.equal(scene.cards.size, 1, 'the scene itself is left as it was');
  assert.deepEqual(withSyntheticCards({ cards: new Map() }, 10).added, 0);
});

test('FrameMeter records a frame with what the renderer made in it, flushing only when asked', () => {
  let sprites = 3;
  const probe = { get counters() { return { sprites, layers: 1 }; } };
  const meter = new FrameMeter(probe);
  let flushed = 0;
  const flush = () => { flushed += 1; };
  meter.frameStarted();
  meter.frameDrawn(0, 5, flush);
  assert.equal(meter.frames().length, 0, 'not recording');
  meter.start({ flush: true });
  meter.frameStarted();
  sprites += 2;
  meter.frameDrawn(16, 5, flush);
  const [frame] = meter.frames();
  assert.deepEqual([frame.timestamp, frame.cards, frame.counters.sprites, frame.inFrame.sprites], [16, 5, 5, 2]);
  assert.equal(flushed, 1);
  meter.start();
  meter.frameStarted();
  meter.frameDrawn(32, 5, flush);
  assert.equal(flushed, 1, 'without flush, the pixels are not waited for');
  assert.equal(meter.stop().frames, 1);
});
