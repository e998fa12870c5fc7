// What the page says in words: the line a screen reader announces on each change, and the short
// note shown when the server turns a command down. Pure.

import { captionText } from './overlay.js';

/**
 * The front card: the one at position 0 that is not fading out of the stack (a removed card keeps
 * its position while it fades, and the card after it is at 0 too), or null while nothing is drawn.
 */
export function frontCard(cards) {
  let leaving = null;
  for (const card of cards.values()) {
    if (card.position !== 0) continue;
    if (card.anim?.to?.opacity !== 0) return card;
    leaving = card;
  }
  return leaving;
}

/**
 * The front photo's number, 1 to `count`, from the room's `current` (its place, 0 ≤ current <
 * count). A server that counts `current` in its photo list rather than its stack (it could pass the
 * count after an insert, or go below 0) is held to the range: never "Photo 13 of 12".
 */
export function photoNumber(current, count) {
  if (!(count > 0)) return 0;
  const index = Number.isInteger(current) ? current : 0;
  return Math.min(Math.max(index, 0), count - 1) + 1;
}

/**
 * The photo shown beside the front one: the frame style's second portrait of a pair (the server
 * shows position 1 only then, and only on a landscape screen), or null.
 */
export function pairedCard(scene) {
  if (scene.style !== 'frame') return null;
  for (const card of scene.cards.values()) {
    if (card.position === 1 && (card.anim?.to?.opacity ?? card.opacity) > 0) return card;
  }
  return null;
}

/** The captions of the photos shown, front first: one, or both of a pair joined by " & ". */
export function shownCaption(scene, parts = undefined, locale = undefined) {
  const front = captionText(frontCard(scene.cards)?.caption, parts, locale);
  const paired = pairedCard(scene);
  const second = paired ? captionText(paired.caption, parts, locale) : '';
  return [front, second].filter(Boolean).join(' & ');
}

/**
 * "Photo 3 of 20" ("Photos 3–4 of 20" while a pair shows), with the captions of the photos shown
 * when they have one: date and name (whatever the page draws, a screen reader hears both), or the
 * caption itself when it is a string.
 */
export function statusText(scene, locale = undefined) {
  if (scene.seq < 0) return 'Connecting…';
  if (scene.asleep) return 'Asleep';
  if (scene.count === 0) return 'No photos';
  const first = photoNumber(scene.current, scene.count);
  const line = pairedCard(scene)
    ? `Photos ${first}–${(first % scene.count) + 1} of ${scene.count}`
    : `Photo ${first} of ${scene.count}`;
  const caption = shownCaption(scene, undefined, locale);
  return caption ? `${line}: ${caption}` : line;
}

const STYLE_NAMES = Object.freeze({
  pile: 'Pile', angles: 'Angles', grid: 'Grid', deck: 'Deck', swipe: 'Swipe', frame: 'Frame',
});

const COMMAND_LABELS = Object.freeze({
  previous: 'Previous photo', next: 'Next photo', play: 'Play', pause: 'Pause', fullscreen: 'Full screen',
  flip: 'Flip', highlight: 'Select', undo: 'Undo', shuffle: 'Shuffle', insert: 'Insert', remove: 'Remove',
  // Not a command: the pointer samples a drag sends.
  pointer: 'Moving photos',
});

/** A person's name for a command body. */
export function commandLabel({ command, style }) {
  if (command === 'style') return `${STYLE_NAMES[style] ?? style} style`;
  return COMMAND_LABELS[command] ?? command;
}

/** Said when ▶ was pressed and the room's slideshow still does not run a moment later. */
export const SLIDESHOW_DID_NOT_START = 'The slideshow did not start: this server runs it only when started with --interval';

/**
 * Why `command` did nothing, in a few words, from the answer's HTTP status (undefined when no
 * answer came at all) and, for a limit, the server's own words (`serverWords`).
 */
export function failureMessage(command, status, serverWords = null) {
  const label = commandLabel(command);
  if (status === undefined) return `${label}: not sent, the server is unreachable`;
  if (status === 401 || status === 403) return `${label}: this page may only watch (it has no control token)`;
  // The server says which limit: "this server holds at most 64 rooms" is no moment's wait.
  if (status === 429) return serverWords ? `${label}: ${serverWords}` : `${label}: too many requests, try again in a moment`;
  // An older server answers 400 to a command it does not know yet.
  if (status === 400 || status === 404 || status === 405 || status === 501) return `${label} is not available here yet`;
  return `${label} failed (${status})`;
}
