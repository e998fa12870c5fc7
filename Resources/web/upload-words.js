// What the server's answer to a guest's photo means, in words a guest reads on a phone. Pure.

/**
 * The outcome of one upload from its answer: `status` (0 when no answer came: no connection),
 * `body` (the parsed JSON, or null), `retryAfter` (the header, or null). Answers
 * {state: 'done'|'failed', kind, text, retry}: `kind` names the outcome for the page's styling
 * and tests (`shown`, `waiting`, `existing`, or the failure's), `text` is the sentence shown, with
 * the limit and what to do where there is one; `retry` whether sending it again could succeed (a
 * photo too large or not a photo gets the same answer however often it is sent: no Retry).
 */
export function outcome(status, body, retryAfter) {
  if (status === 201) return { state: 'done', kind: 'shown', text: 'On the wall', retry: false };
  if (status === 200 && body?.existing) return { state: 'done', kind: 'existing', text: 'Already on the wall', retry: false };
  if (status === 202) return { state: 'done', kind: 'waiting', text: 'Waiting for approval', retry: false };
  const { kind, text } = failure(status, body, retryAfter);
  return { state: 'failed', kind, text, retry: !FINAL.has(kind) };
}

// Refusals that sending the same photo again cannot change.
const FINAL = new Set(['token', 'closed', 'too-large', 'not-photo', 'damaged', 'full']);

/** "Too large for the wall", with the server's limit when its words give one, and what to do. */
function tooLarge(body) {
  const limit = /(\d+(?:\.\d+)?) ?MB/.exec(body?.error ?? '')?.[1];
  const within = limit ? ` (it takes up to ${limit} MB)` : '';
  return `Too large for the wall${within}: send a smaller copy, such as a screenshot of it`;
}

function failure(status, body, retryAfter) {
  const wait = seconds(retryAfter);
  const later = wait === null ? 'try again in a moment' : `try again in ${wait} s`;
  switch (status) {
    case 0: return { kind: 'offline', text: 'No connection: check the Wi-Fi, then retry' };
    case 401: return { kind: 'token', text: 'This link cannot add photos: scan the code on the wall again' };
    case 403:
      // Both refusals are 403: the room's ("does not take photos") or the token's.
      return /takes? no photos|does not take photos/.test(body?.error ?? '')
        ? { kind: 'closed', text: 'This room does not take photos' }
        : { kind: 'token', text: 'This link cannot add photos: scan the code on the wall again' };
    // Uploads never make rooms: a room nobody made takes no photos either.
    case 404: return { kind: 'closed', text: 'This room does not take photos' };
    case 408: return { kind: 'slow', text: 'The connection is too slow: retry on a better Wi-Fi' };
    case 413: return { kind: 'too-large', text: tooLarge(body) };
    case 415: return { kind: 'not-photo', text: 'Not a photo the wall can show (JPEG, PNG, WebP, GIF, HEIC)' };
    case 422: return { kind: 'damaged', text: 'This photo is damaged and cannot be shown' };
    case 429: return { kind: 'busy', text: `Too many photos at once: ${later}` };
    case 503: return { kind: 'busy', text: `The wall is busy: ${later}` };
    case 507: return { kind: 'full', text: 'The wall is full: it takes no more photos' };
    default: return { kind: 'error', text: `Not sent (the server answered ${status})` };
  }
}

/** Retry-After's delay in whole seconds (RFC 9110: seconds, or a date we do not expect), or null. */
export function seconds(retryAfter) {
  if (retryAfter === null || retryAfter === undefined || !/^\d+$/.test(retryAfter.trim())) return null;
  return Number(retryAfter.trim());
}
