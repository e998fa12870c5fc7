// One event stream per URL for every tab of a browser (run inside stream-worker.js). A browser
// holds at most six HTTP/1.1 connections to a server: one stream per tab would use them up at the
// sixth tab, and the seventh page's commands would never leave.

// Messages kept to bring a tab that joins a running stream up to date: the last snapshot and the
// changes after it. Past this many, a tab that joins opens the stream afresh (a new snapshot for
// every tab) rather than the hub keeping a room's whole history.
export const REPLAY_LIMIT = 2000;

/**
 * The streams a browser's tabs follow, one per events URL, however many tabs follow it.
 * `follow(url, handlers)` opens one (connection.js's `followEvents`, injected so that tests can
 * drive it) and returns its stop function.
 */
export class StreamHub {
  constructor(follow) {
    this.follow = follow;
    this.streams = new Map();
  }

  /** `tab` follows `url`: `tab.post(message)` gets `{kind: 'message'|'status'|'reload', …}`. */
  subscribe(tab, url) {
    const stream = this.streams.get(url);
    if (!stream) {
      const fresh = { tabs: new Set([tab]), replay: [], presence: null, connected: false, complete: true, stop: null };
      this.streams.set(url, fresh);
      this.open(url, fresh);
      return;
    }
    stream.tabs.add(tab);
    if (!stream.complete) {
      // Its history is too long to replay: every tab starts again from a fresh snapshot.
      stream.stop();
      this.open(url, stream);
      return;
    }
    for (const message of stream.replay) tab.post(message);
    if (stream.presence) tab.post(stream.presence);
    if (stream.connected) tab.post({ kind: 'status', connected: true });
  }

  /** `tab` no longer follows `url`; the last tab to leave closes the stream. */
  unsubscribe(tab, url) {
    const stream = this.streams.get(url);
    if (!stream || !stream.tabs.delete(tab) || stream.tabs.size > 0) return;
    stream.stop();
    this.streams.delete(url);
  }

  /** The number of streams open: one per URL followed. */
  get size() {
    return this.streams.size;
  }

  open(url, stream) {
    stream.replay = [];
    stream.presence = null;
    stream.connected = false;
    stream.complete = true;
    const toTabs = (message) => {
      for (const tab of stream.tabs) tab.post(message);
    };
    stream.stop = this.follow(url, {
      onMessage: (type, data, receivedAt) => {
        const message = { kind: 'message', type, data, receivedAt };
        remember(stream, message);
        toTabs(message);
      },
      onStatus: (connected) => {
        stream.connected = connected;
        toTabs({ kind: 'status', connected });
      },
      onReload: () => {
        toTabs({ kind: 'reload' });
        this.streams.delete(url);
      },
    });
  }
}

function remember(stream, message) {
  if (message.type === 'presence') {
    stream.presence = message;
  } else if (message.type === 'snapshot') {
    stream.replay = [message];
    stream.complete = true;
  } else if (stream.complete) {
    stream.replay.push(message);
    if (stream.replay.length > REPLAY_LIMIT) {
      stream.replay = [];
      stream.complete = false;
    }
  }
}
