import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { PointerBatcher, PointerSequence, createOrderedSender, pointerBody } from '../../Resources/web/batcher.js';

const sample = (type, t, pointer = 1) => ({ type, pointer, x: t, y: t, t });

describe('PointerBatcher', () => {
  test('down goes at once', () => {
    const batcher = new PointerBatcher();
    assert.deepEqual(batcher.add(sample('down', 1)), [sample('down', 1)]);
    assert.equal(batcher.hasPending, false);
    assert.equal(batcher.takeFrame(), null);
  });

  test('moves wait for the frame and leave together, in order', () => {
    const batcher = new PointerBatcher();
    assert.equal(batcher.add(sample('move', 1)), null);
    assert.equal(batcher.add(sample('move', 2)), null);
    assert.equal(batcher.add(sample('move', 3)), null);
    assert.equal(batcher.hasPending, true);
    assert.deepEqual(batcher.takeFrame(), [sample('move', 1), sample('move', 2), sample('move', 3)]);
    assert.equal(batcher.takeFrame(), null, 'a frame with nothing new sends nothing');
  });

  for (const type of ['up', 'cancel', 'down']) {
    test(`${type} flushes the pending moves before itself`, () => {
      const batcher = new PointerBatcher();
      batcher.add(sample('move', 1));
      batcher.add(sample('move', 2, 7));
      assert.deepEqual(batcher.add(sample(type, 3)), [sample('move', 1), sample('move', 2, 7), sample(type, 3)]);
      assert.equal(batcher.takeFrame(), null);
    });
  }

  test('a whole gesture comes out in its original order', () => {
    const batcher = new PointerBatcher();
    const sent = [];
    const typed = ['down', 'move', 'move', 'FRAME', 'move', 'up', 'move', 'FRAME', 'FRAME'];
    typed.forEach((type, t) => {
      const due = type === 'FRAME' ? batcher.takeFrame() : batcher.add(sample(type, t));
      if (due) sent.push(due);
    });
    assert.deepEqual(sent.map((batch) => batch.map((s) => s.t)), [[0], [1, 2], [4, 5], [6]]);
  });

  test('pointerBody is the wire shape', () => {
    assert.deepEqual(pointerBody('v-1a2b', [sample('down', 1)]), { viewer: 'v-1a2b', events: [sample('down', 1)] });
  });

  test('pointerBody carries the page\'s pixels per stage point, when known', () => {
    assert.deepEqual(pointerBody('v', [sample('down', 1)], 390 / 1024),
      { viewer: 'v', scale: 0.381, events: [sample('down', 1)] });
    assert.deepEqual(pointerBody('v', [], 0), { viewer: 'v', events: [] });
    assert.deepEqual(pointerBody('v', [], Number.NaN), { viewer: 'v', events: [] });
  });
});

describe('createOrderedSender', () => {
  const deferred = () => {
    let resolve;
    let reject;
    const promise = new Promise((res, rej) => {
      resolve = res;
      reject = rej;
    });
    return { promise, resolve, reject };
  };
  const tick = () => new Promise((resolve) => setImmediate(resolve));

  test('one request at a time; batches sent meanwhile leave together, in order', async () => {
    const calls = [];
    const send = createOrderedSender((events) => {
      const pending = deferred();
      calls.push({ events, ...pending });
      return pending.promise;
    });
    send([1]);
    send([2, 3]);
    send([4]);
    assert.deepEqual(calls.map((c) => c.events), [[1]]);
    calls[0].resolve();
    await tick();
    assert.deepEqual(calls.map((c) => c.events), [[1], [2, 3, 4]]);
    calls[1].resolve();
    await tick();
    send([5]);
    assert.deepEqual(calls.map((c) => c.events), [[1], [2, 3, 4], [5]]);
  });

  test('a failed request is reported and the queue goes on', async () => {
    const calls = [];
    const errors = [];
    const send = createOrderedSender((events) => {
      const pending = deferred();
      calls.push({ events, ...pending });
      return pending.promise;
    }, (error) => errors.push(error.message));
    send([1]);
    send([2]);
    calls[0].reject(new Error('offline'));
    await tick();
    assert.deepEqual(errors, ['offline']);
    assert.deepEqual(calls.map((c) => c.events), [[1], [2]]);
  });
});

describe('PointerSequence', () => {
  test('numbers each pointer’s samples 1, 2, 3, … on their own', () => {
    const sequence = new PointerSequence();
    const stamped = [1, 1, 2, 1, 2, 7].map((pointer) => sequence.stamp(sample('move', 0, pointer)));
    assert.deepEqual(stamped.map(({ pointer, seq }) => [pointer, seq]), [[1, 1], [1, 2], [2, 1], [1, 3], [2, 2], [7, 1]]);
    assert.deepEqual(stamped[0], { ...sample('move', 0, 1), seq: 1 }, 'the sample is otherwise unchanged');
  });

  test('keeps counting across gestures', () => {
    const sequence = new PointerSequence();
    const seqs = ['down', 'move', 'up', 'down', 'up'].map((type) => sequence.stamp(sample(type, 0)).seq);
    assert.deepEqual(seqs, [1, 2, 3, 4, 5]);
  });

  test('forgets the least recently used pointer past its limit', () => {
    const sequence = new PointerSequence(2);
    sequence.stamp(sample('down', 0, 1));
    sequence.stamp(sample('down', 0, 2));
    sequence.stamp(sample('move', 0, 1));
    sequence.stamp(sample('down', 0, 3));
    assert.equal(sequence.stamp(sample('move', 0, 1)).seq, 3, 'pointer 1 was used recently: kept');
    assert.equal(sequence.stamp(sample('down', 0, 2)).seq, 1, 'pointer 2 was forgotten: starts again');
  });
});
