// Who this page is to the server: the control token it was given, and a viewer id of its own.

import { withoutToken } from './params.js';

const TOKEN_KEY = 'stackweb.token';

/**
 * A control token arrives once in the URL. It is kept for this browser and taken out of the
 * address bar, so that it does not end up in history, bookmarks or a shared link. Storage may be
 * refused (a private window, a locked-down kiosk): the token then lasts as long as the page.
 * `token`: the URL's (params.js), or null; answers the token to use, or null.
 */
export function takeToken(url, token) {
  try {
    if (token === null) return localStorage.getItem(TOKEN_KEY);
    localStorage.setItem(TOKEN_KEY, token);
  } catch {
    // Not stored; still used, and still stripped below.
  }
  if (token !== null) history.replaceState(history.state, '', withoutToken(url));
  return token;
}

/** A fresh viewer id for this page: the server tells viewers apart by it. */
export function newViewerID() {
  const bytes = crypto.getRandomValues(new Uint8Array(4));
  return `v-${[...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}
