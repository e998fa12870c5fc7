// Which cards moved since the last frame, cut into runs (runs.js).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { sameLook, splitRuns } from '../../Resources/web/runs.js';
import { entry } from './support/canvas-fakes.mjs';

describe('splitRuns', () => {
  const previousOf = (entries) => new Map(entries.map((e) => [e.card.id, e]));

  test('with no previous frame every card moves', () => {
    const now = [entry('a', 1), entry('b', 2)];
    assert.deepEqual(splitRuns(now, new Map()), [
      { start: 0, end: 1, still: false }, { start: 1, end: 2, still: false }]);
  });

  test('still cards between moving ones form runs', () => {
    const before = [entry('a', 1), entry('b', 2), entry('c', 3), entry('d', 4)];
    const now = [entry('a', 9), entry('b', 2), entry('c', 3), entry('d', 8)];
    assert.deepEqual(splitRuns(now, previousOf(before)), [
      { start: 0, end: 1, still: false }, { start: 1, end: 3, still: true }, { start: 3, end: 4, still: false }]);
  });

  test('an animated card moves even where it has not moved yet (an animation that waits)', () => {
    const before = [entry('a', 1), entry('b', 2)];
    const now = [entry('a', 1, {}, { anim: { start: 0, duration: 100 } }), entry('b', 2)];
    assert.deepEqual(splitRuns(now, previousOf(before)).map((run) => run.still), [false, true]);
  });

  test('cards are matched by id, not by place', () => {
    const before = [entry('a', 1), entry('b', 2)];
    assert.equal(sameLook(before[0], entry('b', 1)), false);
    assert.deepEqual(splitRuns([entry('b', 2), entry('a', 1)], previousOf(before)), [{ start: 0, end: 2, still: true }]);
  });
});
