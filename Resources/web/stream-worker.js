// The shared worker every tab of a browser reaches its rooms' event streams through (stream-hub.js
// says why). Each tab's port sends `{follow: url}` and `{unfollow: url}`; what the stream brings
// comes back on the same port.

import { followEvents } from './connection.js';
import { StreamHub } from './stream-hub.js';

const hub = new StreamHub(followEvents);

globalThis.addEventListener('connect', (event) => {
  const port = event.ports[0];
  const tab = { post: (message) => port.postMessage(message) };
  port.addEventListener('message', ({ data }) => {
    if (typeof data?.follow === 'string') hub.subscribe(tab, data.follow);
    if (typeof data?.unfollow === 'string') hub.unsubscribe(tab, data.unfollow);
  });
  port.start();
});
