// Animated photos: which frame shows when, and the frame style playing the front photo (animation.js).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { AnimationPlayer, frameAt, frameDuration } from '../../Resources/web/animation.js';
import { entry, recordingContext, view } from './support/canvas-fakes.mjs';

test('frameAt walks the frames by their durations, looping', () => {
  const durations = [200, 100, 300];
  assert.deepEqual(frameAt(durations, 0), { index: 0, nextMs: 200 });
  assert.deepEqual(frameAt(durations, 250), { index: 1, nextMs: 50 });
  assert.deepEqual(frameAt(durations, 300), { index: 2, nextMs: 300 });
  assert.deepEqual(frameAt(durations, 650), { index: 0, nextMs: 150 }, 'the second time round');
});

test('a frame of no delay is shown 100 ms, as browsers show a GIF', () => {
  assert.equal(frameDuration(null), 100);
  assert.equal(frameDuration(0), 100);
  assert.equal(frameDuration(10), 100);
  assert.equal(frameDuration(40), 40);
});

describe('AnimationPlayer', () => {
  const frames = ['red', 'green', 'blue'].map((name) => ({ image: { name, width: 320, height: 240 }, ms: 200 }));
  const animated = { width: 320, height: 240, frames };
  const images = (image) => ({ get: () => image, wholeSize: () => ({ w: 320, h: 240 }) });
  const drawn = (log) => log.filter(([, method]) => method === 'drawImage').map(([, , image]) => image.name);
  const front = () => [entry('hidden', 512, { opacity: 0 }), entry('front', 512)];

  test('paints the frame due on the front card and says when the next one is', () => {
    const log = [];
    const ctx = recordingContext('main', log);
    const player = new AnimationPlayer();
    assert.equal(player.draw(ctx, view, front(), { style: 'frame', images: images(animated), now: 1000 }), 200);
    assert.equal(player.draw(ctx, view, front(), { style: 'frame', images: images(animated), now: 1250 }), 150);
    assert.deepEqual(drawn(log), ['red', 'green']);
  });

  test('plays nothing elsewhere: another style, a still photo, a card fading', () => {
    const log = [];
    const ctx = recordingContext('main', log);
    const player = new AnimationPlayer();
    assert.equal(player.draw(ctx, view, front(), { style: 'pile', images: images(animated), now: 0 }), null);
    assert.equal(player.draw(ctx, view, front(), { style: 'frame', images: images({ width: 320 }), now: 0 }), null);
    const fading = [entry('front', 512, { opacity: 0.5 })];
    assert.equal(player.draw(ctx, view, fading, { style: 'frame', images: images(animated), now: 0 }), null);
    assert.deepEqual(drawn(log), []);
  });
});
