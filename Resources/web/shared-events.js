// A tab's way to its room's event stream: through the browser's one shared worker
// (stream-worker.js), so that every tab on a stream shares one connection; straight from the page
// where shared workers are missing or cannot start.

import { followEvents } from './connection.js';

const WORKER_NAME = 'stackweb-events';

/**
 * Follows `url` as connection.js's `followEvents` does, with the same handlers and the same stop
 * function, through the shared worker when there is one. `seams` replaces SharedWorker and the
 * direct follower in tests.
 */
export function followSharedEvents(url, handlers, seams = {}) {
  const { SharedWorkerClass = globalThis.SharedWorker, follow = followEvents } = seams;
  const worker = startWorker(SharedWorkerClass);
  if (!worker) return follow(url, handlers);
  let stopped = false;
  let direct = null;
  const { port } = worker;
  port.addEventListener('message', ({ data }) => {
    if (stopped || direct) return;
    if (data.kind === 'message') handlers.onMessage(data.type, data.data, data.receivedAt);
    else if (data.kind === 'status') handlers.onStatus(data.connected);
    else if (data.kind === 'reload') handlers.onReload?.();
  });
  // A worker that cannot load (no module workers, a policy that forbids it) says so here, once.
  worker.addEventListener('error', () => {
    if (!stopped && !direct) direct = follow(url, handlers);
  });
  port.start();
  port.postMessage({ follow: url });
  return () => {
    stopped = true;
    port.postMessage({ unfollow: url });
    port.close();
    direct?.();
  };
}

function startWorker(SharedWorkerClass) {
  if (typeof SharedWorkerClass !== 'function') return null;
  try {
    return new SharedWorkerClass(new URL('stream-worker.js', import.meta.url), { type: 'module', name: WORKER_NAME });
  } catch {
    return null;
  }
}
