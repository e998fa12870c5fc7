import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { PointerBatcher, createOrderedSender, pointerBody } from '../../Resources/web/batcher.js';

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
