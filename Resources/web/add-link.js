// What the add page's address says: the room, and the token the QR code on the wall gave it. Pure
// but for the storage and history handed in.

import { readParams } from './params.js';

const ADD_TOKEN_KEY = 'stackweb.addToken';
// The control page's key (session.js): its holder may add photos too.
const CONTROL_TOKEN_KEY = 'stackweb.token';

/**
 * {room, token, stripped} from `url`. The token comes in the fragment (`#token=…`: a browser never
 * sends a fragment, so it stays out of request lines, logs and Referer), or in the query as the
 * control page takes its own. `stripped` is the address without it (for history.replaceState), or
 * null when it had none.
 */
export function readAddLink(url) {
  const fragment = new URLSearchParams(url.hash.slice(1));
  const token = fragment.get('token') ?? url.searchParams.get('token');
  let stripped = null;
  if (token !== null) {
    const clean = new URL(url);
    clean.hash = '';
    clean.searchParams.delete('token');
    stripped = clean.href;
  }
  return { room: readParams(url).room, token, stripped };
}

/**
 * The token to add with: the link's (kept for this browser, so a reload without it still adds),
 * else one kept before, else the control token of this browser's control page, else null (a
 * server on loopback needs none). Storage may be refused (a private window): the link's token
 * then lasts as long as the page.
 */
export function chooseToken(linkToken, storage) {
  try {
    if (linkToken !== null) {
      storage.setItem(ADD_TOKEN_KEY, linkToken);
      return linkToken;
    }
    return storage.getItem(ADD_TOKEN_KEY) ?? storage.getItem(CONTROL_TOKEN_KEY);
  } catch {
    return linkToken;
  }
}

const SENDER_KEY = 'stackweb.sender';

/** The name a guest gave before ("Anna"), or ''. */
export function keptSender(storage) {
  try {
    return storage.getItem(SENDER_KEY) ?? '';
  } catch {
    return '';
  }
}

/** Keeps the guest's name for the next visit; an empty one is forgotten. */
export function keepSender(storage, name) {
  try {
    if (name.trim()) storage.setItem(SENDER_KEY, name.trim());
    else storage.removeItem(SENDER_KEY);
  } catch {
    // Not kept: still sent with this visit's photos.
  }
}
