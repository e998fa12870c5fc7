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
 * Follows the room's events. `onMessage(type, data, receivedAt)` gets each snapshot or change, with
 * the local time it arrived; `onStatus(connected)` each time the stream opens or drops.
 * EventSource itself retries a dropped connection; it gives up for good on an HTTP error or a wrong
 * content type, and then this reopens it with backoff. Returns a function that stops it all.
 */
export function followEvents(url, { onMessage, onStatus }) {
  let source = null;
  let attempt = 0;
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
    source = new EventSource(url);
    source.addEventListener('snapshot', handle);
    source.addEventListener('change', handle);
    source.addEventListener('open', () => {
      attempt = 0;
      onStatus(true);
    });
    source.addEventListener('error', () => {
      onStatus(false);
      if (source.readyState !== EventSource.CLOSED) return;
      retryTimer = setTimeout(open, reconnectDelay(attempt, Math.random()));
      attempt += 1;
    });
  };

  open();
  return () => {
    clearTimeout(retryTimer);
    source?.close();
  };
}

/**
 * POSTs `body` as JSON and resolves with the answer's JSON; rejects on a network error or a
 * non-2xx status, with the server's `{"error": …}` text when there is one.
 */
export async function postJSON(url, body, token) {
  const headers = { 'Content-Type': 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(`${url}: ${response.status} ${answer.error ?? response.statusText}`);
  return answer;
}
