// Talking to the server: the room's event stream and JSON POSTs.

const BACKOFF_FIRST_MS = 1000;
const BACKOFF_MAX_MS = 30000;

/**
 * How long to wait before reopening a stream that closed for good, after `attempt` failures in a
 * row: doubling up to a cap, and only 50–100 % of that, so that a room full of viewers does not
 * come back in one burst when its server restarts. `random` is in [0, 1).
 */
export function reconnectDelay(attempt, random) {
  const ceiling = Math.min(BACKOFF_MAX_MS, BACKOFF_FIRST_MS * 2 ** attempt);
  return ceiling * (0.5 + random / 2);
}

/**
 * What the page needs to know of the server (from /healthz): `pageVersion`, the version of the
 * page it serves now (the events URL carries it, so that after a redeploy the server answers a
 * reconnect with `reload`), null when it cannot be asked; and `controlNeedsToken`, whether a
 * command needs the control token (a LAN server), false when unknown.
 */
export async function fetchServerFacts(fetchImpl = globalThis.fetch) {
  try {
    const reply = await fetchImpl('/healthz', { cache: 'no-store' });
    const body = await reply.json();
    return {
      pageVersion: typeof body.pageVersion === 'string' ? body.pageVersion : null,
      controlNeedsToken: body.controlNeedsToken === true,
    };
  } catch {
    return { pageVersion: null, controlNeedsToken: false };
  }
}

/** The version of the page the server serves now, or null (`fetchServerFacts`). */
export async function fetchPageVersion(fetchImpl = globalThis.fetch) {
  return (await fetchServerFacts(fetchImpl)).pageVersion;
}

/** The events URL, with `?page=` when the page's version is known. */
export function eventsURL(api, pageVersion) {
  return pageVersion ? `${api}/events?page=${encodeURIComponent(pageVersion)}` : `${api}/events`;
}

/**
 * Follows the room's events: the page's one EventSource (replaced, never doubled, on a reconnect).
 * `onMessage(type, data, receivedAt)` gets each snapshot or change, with the local time it
 * arrived; `onStatus(connected)` each time the stream opens or drops; `onReload()` the server's
 * `reload` event (a new version of the page is being served). Returns a function that stops it all.
 * `seams` replaces EventSource, the timer and the random source in tests.
 */
export function followEvents(url, { onMessage, onStatus, onReload = () => {} }, seams = {}) {
  const {
    EventSourceClass = globalThis.EventSource, random = Math.random,
    setTimer = setTimeout, clearTimer = clearTimeout,
  } = seams;
  let source = null;
  let attempt = 0;
  let failures = 0;
  let retryTimer = 0;

  const handle = (event) => {
    const receivedAt = Date.now();
    let data;
    try {
      data = JSON.parse(event.data);
    } catch {
      console.warn('StackWeb: ignoring an event that is not JSON', event.type);
      return;
    }
    onMessage(event.type, data, receivedAt);
  };

  const open = () => {
    source = new EventSourceClass(url);
    source.addEventListener('snapshot', handle);
    source.addEventListener('change', handle);
    source.addEventListener('presence', handle);
    source.addEventListener('reload', () => {
      // Closed first, so that the old page does not reconnect while the new one loads.
      source.close();
      onReload();
    });
    source.addEventListener('open', () => {
      attempt = 0;
      failures = 0;
      onStatus(true);
    });
    source.addEventListener('error', () => {
      onStatus(false);
      failures += 1;
      // The browser retries a dropped stream by itself, with Last-Event-ID so that the server
      // replays what was missed, but once a second for ever. One such retry covers a blip; a
      // server that stays away (or refused the stream) is retried with backoff and jitter
      // instead, so that its viewers do not all come back in the same second.
      if (source.readyState !== EventSourceClass.CLOSED && failures < 2) return;
      source.close();
      clearTimer(retryTimer);
      retryTimer = setTimer(open, reconnectDelay(attempt, random()));
      attempt += 1;
    });
  };

  open();
  return () => {
    clearTimer(retryTimer);
    source?.close();
  };
}

/**
 * A refused or failed POST; `status` is the HTTP status, undefined when no answer came;
 * `serverWords` the server's own `{"error": …}`, when it gave one.
 */
export class RequestError extends Error {
  constructor(message, status, serverWords = null) {
    super(message);
    this.name = 'RequestError';
    this.status = status;
    this.serverWords = serverWords;
  }
}

/** A fresh `Idempotency-Key`: 128 random bits as hex (`crypto.randomUUID` needs a secure context). */
export function idempotencyKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * POSTs `body` as JSON and resolves with the answer's JSON; rejects with a RequestError on a
 * network error or a non-2xx status, with the server's `{"error": …}` text when there is one.
 *
 * Every POST carries an `Idempotency-Key`. When its outcome is unknown — no answer came, or the
 * server said so (504) — it is sent again with the same key, up to `retries` times: the server
 * applies it at most once and answers the retry as it answered the first. A 503 means nothing was
 * applied: that is reported, not retried.
 */
export async function postJSON(url, body, token, { retries = 2, wait = delay } = {}) {
  const headers = { 'Content-Type': 'application/json', 'Idempotency-Key': idempotencyKey() };
  if (token) headers.Authorization = `Bearer ${token}`;
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await postOnce(url, headers, body);
    } catch (error) {
      const unknown = error.status === undefined || error.status === 504;
      if (!unknown || attempt >= retries) throw error;
      await wait(500 * (attempt + 1));
    }
  }
}

async function postOnce(url, headers, body) {
  let response;
  try {
    response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
  } catch (error) {
    throw new RequestError(`${url}: ${error.message}`, undefined);
  }
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) {
    const words = typeof answer.error === 'string' ? answer.error : null;
    throw new RequestError(`${url}: ${response.status} ${words ?? response.statusText}`, response.status, words);
  }
  return answer;
}

function delay(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
