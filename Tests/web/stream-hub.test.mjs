// One stream per URL for every tab: a tab that joins is brought up to date, the last to leave
// closes it, and a long history is not replayed.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { REPLAY_LIMIT, StreamHub } from '../../Resources/web/stream-hub.js';
import { followSharedEvents } from '../../Resources/web/shared-events.js';

function fakeFollower() {
  const opened = [];
  const follow = (url, handlers) => {
    const stream = { url, handlers, stopped: false };
    opened.push(stream);
    return () => { stream.stopped = true; };
  };
  return { opened, follow };
}

function tab() {
  const received = [];
  return { received, post: (message) => received.push(message) };
}

describe('StreamHub', () => {
  test('twelve tabs on one URL share one stream; a tab that joins late gets the snapshot and the changes since', () => {
    const { opened, follow } = fakeFollower();
    const hub = new StreamHub(follow);
    const first = tab();
    hub.subscribe(first, '/e');
    opened[0].handlers.onStatus(true);
    opened[0].handlers.onMessage('snapshot', { seq: 1 }, 10);
    opened[0].handlers.onMessage('change', { seq: 2 }, 11);
    opened[0].handlers.onMessage('presence', { viewers: 1 }, 12);
    opened[0].handlers.onMessage('presence', { viewers: 2 }, 13);
    const late = Array.from({ length: 11 }, tab);
    for (const other of late) hub.subscribe(other, '/e');
    assert.equal(opened.length, 1);
    assert.equal(hub.size, 1);
    assert.deepEqual(late[10].received, [
      { kind: 'message', type: 'snapshot', data: { seq: 1 }, receivedAt: 10 },
      { kind: 'message', type: 'change', data: { seq: 2 }, receivedAt: 11 },
      { kind: 'message', type: 'presence', data: { viewers: 2 }, receivedAt: 13 },
      { kind: 'status', connected: true },
    ]);
    opened[0].handlers.onMessage('change', { seq: 3 }, 14);
    assert.deepEqual(first.received.at(-1), late[0].received.at(-1));
  });

  test('the last tab to leave closes the stream; another URL is a stream of its own', () => {
    const { opened, follow } = fakeFollower();
    const hub = new StreamHub(follow);
    const [a, b] = [tab(), tab()];
    hub.subscribe(a, '/e');
    hub.subscribe(b, '/e');
    hub.subscribe(a, '/other');
    hub.unsubscribe(a, '/e');
    assert.equal(opened[0].stopped, false);
    hub.unsubscribe(b, '/e');
    assert.equal(opened[0].stopped, true);
    assert.equal(hub.size, 1);
    assert.equal(opened[1].stopped, false);
  });

  test('a reload reaches every tab', () => {
    const { opened, follow } = fakeFollower();
    const hub = new StreamHub(follow);
    const [a, b] = [tab(), tab()];
    hub.subscribe(a, '/e');
    hub.subscribe(b, '/e');
    opened[0].handlers.onReload();
    assert.deepEqual([a.received, b.received], [[{ kind: 'reload' }], [{ kind: 'reload' }]]);
    assert.equal(hub.size, 0);
  });

  test('past the replay limit, a tab that joins opens the stream afresh for every tab', () => {
    const { opened, follow } = fakeFollower();
    const hub = new StreamHub(follow);
    const first = tab();
    hub.subscribe(first, '/e');
    opened[0].handlers.onMessage('snapshot', { seq: 0 }, 0);
    for (let seq = 1; seq <= REPLAY_LIMIT; seq += 1) opened[0].handlers.onMessage('change', { seq }, seq);
    const late = tab();
    hub.subscribe(late, '/e');
    assert.equal(opened.length, 2);
    assert.equal(opened[0].stopped, true);
    assert.deepEqual(late.received, []);
    opened[1].handlers.onMessage('snapshot', { seq: 9 }, 9);
    assert.deepEqual(late.received.at(-1), first.received.at(-1));
  });
});

class FakePort extends EventTarget {
  constructor() {
    super();
    this.sent = [];
    this.closed = false;
  }

  postMessage(message) {
    this.sent.push(message);
  }

  start() {}

  close() {
    this.closed = true;
  }

  deliver(data) {
    const event = new Event('message');
    event.data = data;
    this.dispatchEvent(event);
  }
}

class FakeSharedWorker extends EventTarget {
  static made = [];

  constructor(url, options) {
    super();
    this.url = String(url);
    this.options = options;
    this.port = new FakePort();
    FakeSharedWorker.made.push(this);
  }
}

describe('followSharedEvents', () => {
  const handlers = (log) => ({
    onMessage: (type, data, at) => log.push(['message', type, data, at]),
    onStatus: (connected) => log.push(['status', connected]),
    onReload: () => log.push(['reload']),
  });

  test('through the shared worker: follows, hands on what comes, unfollows when stopped', () => {
    FakeSharedWorker.made = [];
    const log = [];
    const directs = [];
    const stop = followSharedEvents('/e', handlers(log), {
      SharedWorkerClass: FakeSharedWorker, follow: (url) => { directs.push(url); return () => {}; },
    });
    const [worker] = FakeSharedWorker.made;
    assert.match(worker.url, /stream-worker\.js$/);
    assert.deepEqual(worker.options, { type: 'module', name: 'stackweb-events' });
    assert.deepEqual(worker.port.sent, [{ follow: '/e' }]);
    worker.port.deliver({ kind: 'message', type: 'snapshot', data: { seq: 1 }, receivedAt: 5 });
    worker.port.deliver({ kind: 'status', connected: true });
    worker.port.deliver({ kind: 'reload' });
    stop();
    worker.port.deliver({ kind: 'status', connected: false });
    assert.deepEqual(log, [['message', 'snapshot', { seq: 1 }, 5], ['status', true], ['reload']]);
    assert.deepEqual(worker.port.sent.at(-1), { unfollow: '/e' });
    assert.equal(worker.port.closed, true);
    assert.deepEqual(directs, []);
  });

  test('without shared workers, or when the worker cannot load, the page follows the stream itself', () => {
    const directs = [];
    const follow = (url) => { directs.push(url); return () => directs.push('stopped'); };
    followSharedEvents('/a', handlers([]), { SharedWorkerClass: undefined, follow });
    FakeSharedWorker.made = [];
    const stop = followSharedEvents('/b', handlers([]), { SharedWorkerClass: FakeSharedWorker, follow });
    FakeSharedWorker.made[0].dispatchEvent(new Event('error'));
    stop();
    assert.deepEqual(directs, ['/a', '/b', 'stopped']);
  });
});
