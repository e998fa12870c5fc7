// The `window.stackweb` hook (debug-hook.js): the page's state as copies, and the probes only
// with ?debug=1.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { createDebugHook, pageState } from '../../Resources/web/debug-hook.js';
import { applySnapshot, emptyScene } from '../../Resources/web/scene.js';

const snapshot = {
  seq: 3, style: 'pile', count: 2, current: 0, playing: true, asleep: false, viewers: 2,
  stage: { w: 1024, h: 768 }, shape: { name: '4x3' },
  cards: [
    { id: 'c1', photo: 'p1', src: '/photos/p1', position: 1, z: 1, x: 10, y: 20, w: 300, h: 200, rotation: 0.1 },
    { id: 'c0', photo: 'p0', src: '/photos/p0', position: 0, z: 2, x: 512, y: 384, w: 300, h: 200, rotation: 0 },
  ],
};
const page = {
  room: 'main', viewer: 'v-1', connected: true, coarse: false, kiosk: false, wakeLock: 'none', reducedMotion: false,
};

describe('debug hook', () => {
  test('state is the room, its cards in position order and the page, as copies', () => {
    const scene = applySnapshot(emptyScene(), snapshot, { reducedMotion: false });
    const state = pageState(scene, 0, page);
    assert.deepEqual(state.cards.map((card) => card.id), ['c0', 'c1']);
    assert.equal(state.cards[0].x, 512);
    assert.equal(state.cards[0].animating, false);
    assert.equal(state.room, 'main');
    assert.equal(state.shape, '4x3');
    assert.equal(state.viewers, 2);
    state.stage.w = 1;
    assert.equal(scene.stage.w, 1024);
  });

  test('the probes and seams are there only with ?debug=1, and the hook is frozen', () => {
    const accessors = {
      state: () => ({}), drawnFrames: () => 7, probe: {}, meter: {}, scheduled: () => ({}),
      addSyntheticCards: () => [], showScene: () => {},
    };
    const plain = createDebugHook({ ...accessors, debug: false });
    assert.deepEqual(Object.keys(plain).sort(), ['drawnFrames', 'state']);
    assert.equal(plain.drawnFrames, 7);
    assert.ok(Object.isFrozen(plain));
    const debug = createDebugHook({ ...accessors, debug: true });
    for (const name of ['addSyntheticCards', 'recordFrames', 'renderCounters', 'scheduled', 'showScene', 'trackCard']) {
      assert.equal(typeof debug[name], 'function', name);
    }
  });
});
