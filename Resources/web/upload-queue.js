// Guests' photos on their way to the wall: a few at a time, each with its own Idempotency-Key,
// kept for its retries. Pure: the sending is handed in, so tests drive it without a network.

import { outcome } from './upload-words.js';

/**
 * One photo at a time, in the order the guest chose them: the wall shows guests' photos in the
 * order they arrive, and photos sent together finish in any order. (The phone's upload link is
 * the bottleneck either way; the server takes 4 at once from one address, docs/wire-protocol.md.)
 */
export const AT_ONCE = 1;

/**
 * A queue of uploads. `send(item, progress)` starts one and answers a promise of
 * {status, body, retryAfter} (status 0 when no answer came); it calls `progress(sent, total)` as
 * bytes go and `progress(total, total)` once all are sent. `newKey()` makes an Idempotency-Key.
 * `added(item)` is told of each new item, then `changed(item)` of each change of one: {id, file,
 * key, state, sent, total, kind, text, retry}, `state` one of queued, sending, checking, done,
 * failed; `retry` whether a failed one may be sent again (upload-words.js).
 */
export class UploadQueue {
  #send;
  #newKey;
  #added;
  #changed;
  #limit;
  #waiting = [];
  #running = 0;
  #nextID = 1;
  items = [];

  constructor({ send, newKey, added = () => {}, changed = () => {}, limit = AT_ONCE }) {
    this.#send = send;
    this.#newKey = newKey;
    this.#added = added;
    this.#changed = changed;
    this.#limit = limit;
  }

  /** Queues each of `files` ({name, size, …}); answers their items. */
  add(files) {
    const added = [...files].map((file) => ({
      id: this.#nextID++, file, key: this.#newKey(), state: 'queued', sent: 0, total: file.size, kind: null,
      text: 'Waiting to send',
    }));
    this.items.push(...added);
    for (const item of added) {
      this.#added(item);
      this.#changed(item);
      this.#waiting.push(item);
    }
    this.#pump();
    return added;
  }

  /** Sends a failed item again, with the key it had: a photo whose answer was lost is not added twice. */
  retry(id) {
    const item = this.items.find((candidate) => candidate.id === id);
    if (!item || item.state !== 'failed' || !item.retry) return false;
    this.#update(item, { state: 'queued', sent: 0, kind: null, text: 'Waiting to send' });
    this.#waiting.push(item);
    this.#pump();
    return true;
  }

  /** How many items are in each state: {queued, sending, checking, done, failed}. */
  counts() {
    const counts = { queued: 0, sending: 0, checking: 0, done: 0, failed: 0 };
    for (const item of this.items) counts[item.state] += 1;
    return counts;
  }

  #pump() {
    while (this.#running < this.#limit && this.#waiting.length > 0) this.#start(this.#waiting.shift());
  }

  async #start(item) {
    this.#running += 1;
    this.#update(item, { state: 'sending', text: 'Sending' });
    let answer;
    try {
      answer = await this.#send(item, (sent, total) => {
        if (sent >= total) this.#update(item, { state: 'checking', sent: total, total, text: 'Checking' });
        else this.#update(item, { sent, total });
      });
    } catch {
      answer = { status: 0, body: null, retryAfter: null };
    }
    this.#running -= 1;
    const { state, kind, text, retry } = outcome(answer.status, answer.body, answer.retryAfter);
    this.#update(item, { state, kind, text, retry, sent: state === 'done' ? item.total : item.sent });
    this.#pump();
  }

  #update(item, fields) {
    Object.assign(item, fields);
    this.#changed(item);
  }
}
