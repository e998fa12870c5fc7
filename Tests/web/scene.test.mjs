import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import {
  REDUCED_FADE_MS, addOffsetSample, anyAnimating, applyChange, applyMessage, applySnapshot, cardsAt, emptyScene,
  estimateOffset, isAnimating, reduceMotion, settle, transformAt,
} from '../../Resources/web/scene.js';

const card = (id, position, z, extra = {}) => ({
  id, photo: `p${id}`, src: `/photos/p${id}`, position, z,
  x: 512, y: 384, w: 400, h: 300, rotation: 0, scaleX: 1, scaleY: 1, opacity: 1, flip: 0, highlight: false,
  ...extra,
});

const snapshot = (extra = {}) => ({
  room: 'main', seq: 10, serverTime: 1_000_000, style: 'pile', stage: { w: 1024, h: 768 },
  count: 12, current: 0, playing: false, viewers: 1,
  cards: [card('a', 0, 3), card('b', 1, 2, { rotation: 0.05 }), card('c', 2, 1)],
  ...extra,
});

describe('messages', () => {
  test('a snapshot replaces everything', () => {
    const before = applySnapshot(emptyScene(), snapshot({ cards: [card('old', 0, 1)], style: 'deck', seq: 99 }));
    const scene = applyMessage(before, 'snapshot', snapshot());
    assert.deepEqual([...scene.cards.keys()], ['a', 'b', 'c']);
    assert.equal(scene.seq, 10, 'even a lower seq: the server may have restarted');
    assert.equal(scene.style, 'pile');
    assert.deepEqual(scene.stage, { w: 1024, h: 768 });
    assert.equal(scene.count, 12);
    assert.equal(before.cards.has('old'), true, 'the previous scene is left untouched');
  });

  test('a snapshot fills fields a card leaves out with their defaults', () => {
    const scene = applySnapshot(emptyScene(), snapshot({
      cards: [{ id: 'bare', photo: 'p1', src: '/photos/p1', position: 0, x: 1, y: 2, w: 3, h: 4 }],
    }));
    const bare = scene.cards.get('bare');
    assert.deepEqual(
      [bare.rotation, bare.scaleX, bare.scaleY, bare.opacity, bare.flip, bare.z, bare.highlight],
      [0, 1, 1, 1, 0, 0, false],
    );
  });

  test('a change upserts cards, removes ids and updates room fields', () => {
    const scene = applySnapshot(emptyScene(), snapshot());
    const next = applyMessage(scene, 'change', {
      seq: 11, serverTime: 1_000_100, style: 'pile', count: 12, current: 1, playing: false,
      cards: [card('b', 0, 3), card('d', 2, 1)], removed: ['a'],
    });
    assert.deepEqual([...next.cards.keys()].sort(), ['b', 'c', 'd']);
    assert.equal(next.cards.get('b').position, 0);
    assert.equal(next.cards.get('b').rotation, 0, 'the whole card is replaced, not merged');
    assert.equal(next.current, 1);
    assert.equal(next.seq, 11);
    assert.equal(scene.cards.has('a'), true, 'the previous scene is left untouched');
  });

  test('a change that is not newer than the scene is ignored', () => {
    const scene = applySnapshot(emptyScene(), snapshot());
    assert.equal(applyChange(scene, { seq: 10, cards: [], removed: ['a'] }), scene);
    assert.equal(applyChange(scene, { seq: 3, cards: [], removed: ['a'] }), scene);
  });

  test('a change before any snapshot is ignored', () => {
    const scene = emptyScene();
    assert.equal(applyChange(scene, { seq: 1, cards: [card('a', 0, 1)], removed: [] }), scene);
  });

  test('an unknown event type is ignored', () => {
    const scene = applySnapshot(emptyScene(), snapshot());
    assert.equal(applyMessage(scene, 'gossip', { seq: 50 }), scene);
  });
});

describe('transforms in time', () => {
  const moving = card('m', 0, 5, {
    x: 100, y: 100, rotation: 0.2,
    anim: {
      start: 2000, duration: 500, curve: { type: 'linear' },
      from: { x: 100, y: 100, w: 400, h: 300, rotation: 0.2, scaleX: 1, scaleY: 1, opacity: 1, flip: 0 },
      to: { x: 300, y: 500, w: 400, h: 300, rotation: 0, scaleX: 1, scaleY: 1, opacity: 0.5, flip: 0 },
    },
  });

  test('before the start the card is at `from`', () => {
    assert.deepEqual(
      [transformAt(moving, 1000).x, transformAt(moving, 1000).rotation],
      [100, 0.2],
    );
  });

  test('mid-animation the card is on the curve', () => {
    const t = transformAt(moving, 2250);
    assert.equal(t.x, 200);
    assert.equal(t.y, 300);
    assert.ok(Math.abs(t.rotation - 0.1) < 1e-15);
    assert.equal(t.opacity, 0.75);
    assert.equal(t.w, 400);
  });

  test('mid-animation with an eased curve', () => {
    const eased = { ...moving, anim: { ...moving.anim, curve: { type: 'easeOut' } } };
    assert.equal(transformAt(eased, 2250).x, 100 + 200 * 0.875);
  });

  test('at and after the end the card is exactly at `to`', () => {
    for (const now of [2500, 2501, 99999]) {
      const t = transformAt(moving, now);
      assert.deepEqual([t.x, t.y, t.rotation, t.opacity], [300, 500, 0, 0.5]);
    }
  });

  test('keys an animation leaves out keep the card’s value', () => {
    const partial = card('p', 0, 1, {
      x: 0, w: 222, anim: { start: 0, duration: 100, curve: { type: 'linear' }, from: { x: 0 }, to: { x: 100 } },
    });
    const t = transformAt(partial, 50);
    assert.deepEqual([t.x, t.w, t.scaleX], [50, 222, 1]);
  });

  test('isAnimating and anyAnimating follow the end time', () => {
    assert.equal(isAnimating(moving, 2499), true);
    assert.equal(isAnimating(moving, 2500), false);
    assert.equal(isAnimating(card('still', 0, 1), 0), false);
    const scene = applySnapshot(emptyScene(), snapshot({ cards: [moving, card('s', 1, 1)] }));
    assert.equal(anyAnimating(scene, 2400), true);
    assert.equal(anyAnimating(scene, 2600), false);
  });

  test('settle drops finished animations and rests the card at `to`', () => {
    const scene = applySnapshot(emptyScene(), snapshot({ cards: [moving, card('s', 1, 1)] }));
    assert.equal(settle(scene, 2400), scene, 'nothing finished: the same scene');
    const settled = settle(scene, 2600);
    const rested = settled.cards.get('m');
    assert.equal(rested.anim, undefined);
    assert.deepEqual([rested.x, rested.y, rested.rotation, rested.opacity], [300, 500, 0, 0.5]);
    assert.equal(settled.cards.get('s'), scene.cards.get('s'));
  });

  test('cardsAt draws in z order, ties back of the stack first', () => {
    const scene = applySnapshot(emptyScene(), snapshot({
      cards: [card('top', 0, 9), card('mid', 1, 4), card('tieFront', 2, 1), card('tieBack', 3, 1)],
    }));
    assert.deepEqual(cardsAt(scene, 0).map(({ card: c }) => c.id), ['tieBack', 'tieFront', 'mid', 'top']);
  });

  test('cardsAt evaluates animations at the given time', () => {
    const scene = applySnapshot(emptyScene(), snapshot({ cards: [moving] }));
    assert.equal(cardsAt(scene, 2250)[0].transform.x, 200);
  });
});

describe('server clock offset', () => {
  test('is 0 before any message', () => {
    assert.equal(estimateOffset([]), 0);
  });

  test('takes the largest recent sample: the message that travelled fastest', () => {
    let samples = [];
    for (const sample of [5000, 5012, 4990, 5003]) samples = addOffsetSample(samples, sample);
    assert.equal(estimateOffset(samples), 5012);
  });

  test('forgets samples older than the limit, so a stepped clock is followed', () => {
    let samples = [];
    samples = addOffsetSample(samples, 9000, 3);
    for (const sample of [100, 120, 110]) samples = addOffsetSample(samples, sample, 3);
    assert.deepEqual(samples, [100, 120, 110]);
    assert.equal(estimateOffset(samples), 120);
  });

  test('ignores a message without a server time', () => {
    assert.deepEqual(addOffsetSample([1], NaN), [1]);
  });
});

describe('reduced motion', () => {
  const flight = {
    start: 5000, duration: 640, curve: { type: 'spring', stiffness: 225, damping: 30, mass: 1, velocity: 0 },
    from: { x: 512, y: 384, w: 400, h: 300, rotation: 0, scaleX: 1, scaleY: 1, opacity: 1, flip: 0 },
    to: { x: -300, y: 384, w: 400, h: 300, rotation: 0.1, scaleX: 1, scaleY: 1, opacity: 1, flip: Math.PI },
  };

  test('a move becomes a cut: already at its end, and over at once', () => {
    const cut = reduceMotion(flight);
    assert.equal(cut.duration, 0);
    const moving = card('m', 0, 1, { anim: cut });
    for (const now of [4000, 5000, 5100]) {
      const t = transformAt(moving, now);
      assert.deepEqual([t.x, t.rotation, t.flip], [-300, 0.1, Math.PI], `at ${now}`);
    }
    assert.equal(isAnimating(moving, 5000), false);
  });

  test('a change of opacity stays, as a short linear fade at the end position', () => {
    const fade = reduceMotion({ ...flight, duration: 900, to: { ...flight.to, opacity: 0.2 } });
    assert.equal(fade.duration, REDUCED_FADE_MS);
    assert.deepEqual(fade.curve, { type: 'linear' });
    const fading = card('f', 0, 1, { anim: fade });
    const halfway = transformAt(fading, 5000 + REDUCED_FADE_MS / 2);
    assert.equal(halfway.x, -300);
    assert.ok(Math.abs(halfway.opacity - 0.6) < 1e-12);
    assert.equal(isAnimating(fading, 5000 + REDUCED_FADE_MS), false);
  });

  test('messages apply it only when asked', () => {
    const message = snapshot({ cards: [card('m', 0, 1, { anim: flight })] });
    assert.equal(applyMessage(emptyScene(), 'snapshot', message).cards.get('m').anim.duration, 640);
    const reduced = applyMessage(emptyScene(), 'snapshot', message, { reducedMotion: true });
    assert.equal(reduced.cards.get('m').anim.duration, 0);
    const changed = applyMessage(reduced, 'change', { seq: 11, cards: [card('n', 1, 2, { anim: flight })] }, { reducedMotion: true });
    assert.equal(changed.cards.get('n').anim.duration, 0);
  });
});

test('presence updates the viewer count only after a snapshot', async () => {
  const { applyMessage, emptyScene, heldByOther } = await import('../../Resources/web/scene.js');
  const before = applyMessage(emptyScene(), 'presence', { viewers: 3 });
  assert.equal(before.viewers, 0);
  let scene = applyMessage(emptyScene(), 'snapshot', { seq: 1, count: 0, current: 0, viewers: 1, heldBy: null, cards: [] });
  scene = applyMessage(scene, 'presence', { viewers: 4 });
  assert.equal(scene.viewers, 4);
  assert.equal(heldByOther(scene, 'v-me'), false);
  scene = applyMessage(scene, 'change', { seq: 2, heldBy: 'v-other', cards: [], removed: [] });
  assert.equal(heldByOther(scene, 'v-me'), true);
  assert.equal(heldByOther(scene, 'v-other'), false);
});

test('an empty room is one the server says has no photo, awake', async () => {
  const { applyMessage, emptyScene, isEmptyRoom } = await import('../../Resources/web/scene.js');
  assert.equal(isEmptyRoom(emptyScene()), false, 'not before the first snapshot');
  const empty = applyMessage(emptyScene(), 'snapshot', { seq: 1, count: 0, current: 0, cards: [] });
  assert.equal(isEmptyRoom(empty), true);
  assert.equal(isEmptyRoom(applyMessage(empty, 'change', { seq: 2, asleep: true, cards: [], removed: [] })), false);
  assert.equal(isEmptyRoom(applyMessage(empty, 'change', { seq: 2, count: 1, cards: [], removed: [] })), false);
});
