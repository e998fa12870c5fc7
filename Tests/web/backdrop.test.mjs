// The photo frame's wall: made once per photo and screen size, cross-faded, cut with reduced motion.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { CROSSFADE_MS, PhotoBackdrop, WALL_PX, fadeProgress, wallSize } from '../../Resources/web/backdrop.js';

function fakeCanvases(log) {
  return (width, height) => {
    const ctx = new Proxy({}, {
      get: (object, key) => (key in object ? object[key] : (...args) => log.push([key, width, height, ...args])),
      set: (object, key, value) => { object[key] = value; return true; },
    });
    return { width, height, getContext: () => ctx };
  };
}

function fakeScreen() {
  const calls = [];
  const ctx = new Proxy({}, {
    get: (object, key) => (key in object ? object[key] : (...args) => calls.push([key, object.globalAlpha, ...args])),
    set: (object, key, value) => { object[key] = value; calls.push(['set', key, value]); return true; },
  });
  return { ctx, calls };
}

const view = { width: 1920, height: 1080 };

function setup({ reduced = false, ready = () => true } = {}) {
  const log = [];
  const fallback = { drawn: 0, draw() { this.drawn += 1; } };
  const images = { get: (src) => (ready(src) ? { width: 400, height: 300, src } : null) };
  const backdrop = new PhotoBackdrop({ images, fallback, make: fakeCanvases(log), reducedMotion: () => reduced });
  return { backdrop, fallback, log };
}

test('fadeProgress runs from 0 to 1 over the cross-fade', () => {
  assert.equal(fadeProgress(1000, 1000), 0);
  assert.equal(fadeProgress(1000, 1000 + CROSSFADE_MS / 2), 0.5);
  assert.equal(fadeProgress(1000, 99999), 1);
  assert.equal(fadeProgress(null, 5), 1);
});

test('the wall is blurred in a tiny canvas of the screen’s aspect', () => {
  assert.deepEqual(wallSize(1920, 1080), { w: WALL_PX, h: 36 });
  assert.deepEqual(wallSize(1080, 1920), { w: 36, h: WALL_PX });
  assert.deepEqual(wallSize(0, 0), { w: WALL_PX, h: WALL_PX });
});

describe('PhotoBackdrop', () => {
  test('each photo’s wall is made once, then copied', () => {
    const { backdrop } = setup();
    const screen = fakeScreen();
    backdrop.show('/p/a', 0);
    for (let frame = 0; frame < 5; frame += 1) backdrop.draw(screen.ctx, view, frame * 16);
    assert.equal(backdrop.built, 1);
    assert.equal(backdrop.busy(100), false, 'the first photo shows at once');
  });

  test('the next photo cross-fades in, then the page may stop drawing', () => {
    const { backdrop } = setup();
    const screen = fakeScreen();
    backdrop.show('/p/a', 0);
    backdrop.draw(screen.ctx, view, 0);
    backdrop.show('/p/b', 1000);
    assert.equal(backdrop.busy(1000 + CROSSFADE_MS / 2), true);
    screen.calls.length = 0;
    backdrop.draw(screen.ctx, view, 1000 + CROSSFADE_MS / 2);
    const draws = screen.calls.filter(([method]) => method === 'drawImage');
    assert.equal(draws.length, 2, 'the old wall, the new one over it');
    assert.equal(draws[1][1], 0.5, 'half way');
    assert.equal(backdrop.busy(1000 + CROSSFADE_MS), false);
    assert.equal(backdrop.built, 2);
  });

  test('with reduced motion the wall cuts', () => {
    const { backdrop } = setup({ reduced: true });
    const screen = fakeScreen();
    backdrop.show('/p/a', 0);
    backdrop.draw(screen.ctx, view, 0);
    backdrop.show('/p/b', 1000);
    assert.equal(backdrop.busy(1001), false);
  });

  test('until the photo is decoded the fallback shows', () => {
    let loaded = false;
    const { backdrop, fallback } = setup({ ready: () => loaded });
    const screen = fakeScreen();
    backdrop.show('/p/a', 0);
    backdrop.draw(screen.ctx, view, 0);
    assert.equal(fallback.drawn, 1);
    loaded = true;
    backdrop.draw(screen.ctx, view, 16);
    assert.equal(fallback.drawn, 1);
    assert.equal(backdrop.built, 1);
  });

  test('the blur is a canvas filter on the tiny canvas only, never on the screen', () => {
    const { backdrop, log } = setup();
    const screen = fakeScreen();
    backdrop.show('/p/a', 0);
    backdrop.draw(screen.ctx, view, 0);
    assert.ok(!screen.calls.some(([method, key]) => method === 'set' && key === 'filter'), 'no filter on the screen');
    const screenSized = log.filter(([, w, h]) => w === view.width && h === view.height);
    assert.ok(screenSized.every(([method]) => method === 'drawImage'), 'the screen-sized wall is only scaled into');
  });
});
