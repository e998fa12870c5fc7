// The event stream's life: messages, the reload event, reconnecting with backoff; and POST errors.
import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';

import { RequestError, followEvents, postJSON, reconnectDelay } from '../../Resources/web/connection.js';

class FakeEventSource extends EventTarget {
  static CONNECTING = 0;
  static OPEN = 1;
  static CLOSED = 2;
  static made = [];

  constructor(url) {
    super();
    this.url = url;
    this.readyState = FakeEventSource.CONNECTING;
    FakeEventSource.made.push(this);
  }

  close() {
    this.readyState = FakeEventSource.CLOSED;
  }

  open() {
    this.readyState = FakeEventSource.OPEN;
    this.dispatchEvent(new Event('open'));
  }

  send(type, data) {
    const event = new Event(type);
    event.data = data;
    this.dispatchEvent(event);
  }

  fail(readyState) {
    this.readyState = readyState;
    this.dispatchEvent(new Event('error'));
  }
}

function follow() {
  FakeEventSource.made = [];
  const log = { messages: [], status: [], reloads: 0, timers: [] };
  const stop = followEvents('/api/rooms/r/events', {
    onMessage: (type, data) => log.messages.push([type, data]),
    onStatus: (connected) => log.status.push(connected),
    onReload: () => { log.reloads += 1; },
  }, {
    EventSourceClass: FakeEventSource,
    random: () => 0,
    setTimer: (fn, ms) => log.timers.push({ fn, ms }) ,
    clearTimer: () => {},
  });
  return { log, stop, current: () => FakeEventSource.made.at(-1) };
}

describe('followEvents', () => {
  test('one stream; snapshots, changes and presence reach onMessage as JSON', () => {
    const { log, current } = follow();
    assert.equal(FakeEventSource.made.length, 1);
    assert.equal(current().url, '/api/rooms/r/events');
    current().open();
    current().send('snapshot', '{"seq":1}');
    current().send('change', '{"seq":2}');
    current().send('presence', '{"viewers":2}');
    current().send('unknown', '{"x":1}');
    assert.deepEqual(log.messages, [['snapshot', { seq: 1 }], ['change', { seq: 2 }], ['presence', { viewers: 2 }]]);
    assert.deepEqual(log.status, [true]);
  });

  test('a reload event closes the stream and reloads the page', () => {
    const { log, current } = follow();
    current().open();
    current().send('reload', '{}');
    assert.equal(log.reloads, 1);
    assert.equal(current().readyState, FakeEventSource.CLOSED);
    assert.equal(log.timers.length, 0, 'no reconnect is scheduled');
  });

  test('one drop is left to the browser’s own retry (it resumes with Last-Event-ID)', () => {
    const { log, current } = follow();
    current().open();
    current().fail(FakeEventSource.CONNECTING);
    assert.deepEqual(log.status, [true, false]);
    assert.equal(log.timers.length, 0);
    assert.equal(FakeEventSource.made.length, 1);
  });

  test('a server that stays away is retried with growing, jittered delays, one stream at a time', () => {
    const { log, current } = follow();
    current().open();
    current().fail(FakeEventSource.CONNECTING);
    current().fail(FakeEventSource.CONNECTING);
    assert.equal(current().readyState, FakeEventSource.CLOSED, 'the browser’s retry loop is stopped');
    assert.deepEqual(log.timers.map((t) => t.ms), [500]);
    log.timers[0].fn();
    assert.equal(FakeEventSource.made.length, 2);
    current().fail(FakeEventSource.CONNECTING);
    log.timers[1].fn();
    current().fail(FakeEventSource.CLOSED);
    assert.deepEqual(log.timers.map((t) => t.ms), [500, 1000, 2000]);
    assert.equal(FakeEventSource.made.filter((s) => s.readyState !== FakeEventSource.CLOSED).length, 0);
    log.timers[2].fn();
    current().open();
    current().fail(FakeEventSource.CONNECTING);
    current().fail(FakeEventSource.CONNECTING);
    assert.equal(log.timers.at(-1).ms, 500, 'an open stream starts the backoff again');
  });

  test('an HTTP error (the browser gives up) is retried at once with backoff', () => {
    const { log, current } = follow();
    current().fail(FakeEventSource.CLOSED);
    assert.deepEqual(log.timers.map((t) => t.ms), [500]);
  });

  test('stop closes the stream', () => {
    const { stop, current } = follow();
    stop();
    assert.equal(current().readyState, FakeEventSource.CLOSED);
  });

  test('an event that is not JSON is skipped with a warning', (t) => {
    const warnings = t.mock.method(console, 'warn', () => {});
    const { log, current } = follow();
    current().send('change', 'not json');
    assert.equal(log.messages.length, 0);
    assert.equal(warnings.mock.callCount(), 1);
  });
});

describe('postJSON', () => {
  const realFetch = globalThis.fetch;
  afterEach(() => {
    globalThis.fetch = realFetch;
  });

  test('sends JSON with the token, answers the JSON', async () => {
    let request;
    globalThis.fetch = async (url, init) => {
      request = { url, init };
      return new Response('{"seq":4}', { status: 200 });
    };
    assert.deepEqual(await postJSON('/api/rooms/r/commands', { command: 'next' }, 'tok'), { seq: 4 });
    assert.equal(request.init.method, 'POST');
    assert.equal(request.init.body, '{"command":"next"}');
    const { 'Idempotency-Key': key, ...rest } = request.init.headers;
    assert.deepEqual(rest, { 'Content-Type': 'application/json', Authorization: 'Bearer tok' });
    assert.match(key, /^[0-9a-f]{32}$/);
  });

  test('an unknown outcome is sent again with the same key; a 503 is not', async () => {
    const keys = [];
    const answers = [new Response('{"outcome":"unknown"}', { status: 504 }), null, new Response('{"seq":9}')];
    globalThis.fetch = async (url, init) => {
      keys.push(init.headers['Idempotency-Key']);
      const answer = answers.shift();
      if (!answer) throw new TypeError('Failed to fetch');
      return answer;
    };
    const wait = async () => {};
    assert.deepEqual(await postJSON('/c', { command: 'next' }, null, { wait }), { seq: 9 });
    assert.equal(keys.length, 3);
    assert.equal(new Set(keys).size, 1);
    let tries = 0;
    globalThis.fetch = async () => {
      tries += 1;
      return new Response('{"error":"not applied","outcome":"not-applied"}', { status: 503 });
    };
    await assert.rejects(postJSON('/c', {}, null, { wait }), (error) => error.status === 503);
    assert.equal(tries, 1);
    // Two keys are never the same.
    assert.notEqual((await import('../../Resources/web/connection.js')).idempotencyKey(), keys[0]);
  });

  test('a refusal rejects with its status and the server’s words', async () => {
    globalThis.fetch = async () => new Response('{"error":"unknown command \'undo\'"}', { status: 400 });
    await assert.rejects(postJSON('/c', { command: 'undo' }), (error) => error instanceof RequestError
      && error.status === 400 && /unknown command 'undo'/.test(error.message));
  });

  test('no answer at all rejects without a status', async () => {
    globalThis.fetch = async () => { throw new TypeError('Failed to fetch'); };
    await assert.rejects(postJSON('/c', {}, null, { wait: async () => {} }),
      (error) => error instanceof RequestError && error.status === undefined);
  });
});

test('the events URL carries the page version when it is known', async () => {
  const { eventsURL, fetchPageVersion } = await import('../../Resources/web/connection.js');
  assert.equal(eventsURL('/api/rooms/main', 'abc123'), '/api/rooms/main/events?page=abc123');
  assert.equal(eventsURL('/api/rooms/main', null), '/api/rooms/main/events');
  const ok = async () => ({ json: async () => ({ status: 'ok', pageVersion: 'v9' }) });
  assert.equal(await fetchPageVersion(ok), 'v9');
  const down = async () => { throw new Error('offline'); };
  assert.equal(await fetchPageVersion(down), null);
});

test('fetchServerFacts says whether a command needs the control token', async () => {
  const { fetchServerFacts } = await import('../../Resources/web/connection.js');
  const lan = async () => ({ json: async () => ({ pageVersion: 'v9', controlNeedsToken: true }) });
  assert.deepEqual(await fetchServerFacts(lan), { pageVersion: 'v9', controlNeedsToken: true });
  const old = async () => ({ json: async () => ({ pageVersion: 'v9' }) });
  assert.deepEqual(await fetchServerFacts(old), { pageVersion: 'v9', controlNeedsToken: false });
});

test('reconnectDelay doubles from 1 s up to 30 s, with 50–100 % jitter', () => {
  assert.equal(reconnectDelay(0, 0), 500);
  assert.equal(reconnectDelay(0, 0.5), 750);
  assert.equal(reconnectDelay(3, 0.5), 6000);
  assert.equal(reconnectDelay(20, 0), 15000);
  assert.ok(reconnectDelay(20, 0.999999) < 30000);
});
