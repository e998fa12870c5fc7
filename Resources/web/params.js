// The page's URL parameters (DESIGN.md: room, style, kiosk, token), read in one place. Pure.

import { STYLES } from './actions.js';
import { captionParts } from './overlay.js';

const ROOM_PATTERN = /^[a-z0-9][a-z0-9_-]{0,63}$/;
const YES = new Set(['1', 'true', 'yes']);

/**
 * {room, style, kiosk, token, debug, caption, clock, stacked, fit, qr} from `url` (a URL). `caption` lists the parts
 * of the front photo's caption to draw (`?caption=date,name`; [] draws none), `clock` whether to
 * draw the time. A room or style that is not valid falls
 * back to the default room and no style; `token` is null when the URL has none.
 */
export function readParams(url) {
  const query = url.searchParams;
  const room = query.get('room');
  const style = query.get('style');
  return {
    room: room && ROOM_PATTERN.test(room) ? room : 'main',
    style: STYLES.includes(style) ? style : null,
    kiosk: YES.has(query.get('kiosk')),
    token: query.get('token'),
    // Test seams (synthetic cards, a scene from a test) exist only on a page opened with ?debug=1.
    debug: YES.has(query.get('debug')),
    caption: captionParts(query.get('caption')),
    clock: YES.has(query.get('clock')),
    // The swipe style with its cards behind faded (stacked), asked of the room once at start.
    stacked: YES.has(query.get('stacked')),
    // ?fit=cover: every photo crops to its card (the deck and swipe otherwise fit one they would crop hard).
    fit: query.get('fit') === 'cover' ? 'cover' : null,
    // ?qr=1: the QR code guests add photos with, in a corner (a kiosk on a room that takes photos).
    qr: YES.has(query.get('qr')),
  };
}

/** `url` without its token, as a string for history.replaceState; null when it has none. */
export function withoutToken(url) {
  if (!url.searchParams.has('token')) return null;
  const stripped = new URL(url);
  stripped.searchParams.delete('token');
  return stripped.href;
}
