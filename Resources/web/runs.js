// Which cards moved since the last frame: a frame draws the cards that did not as runs, each one
// cached layer (layers.js). Pure.

import { TRANSFORM_KEYS } from './curve.js';

/** Whether two frames show a card identically: the same photo, veil and transform. */
export function sameLook(a, b) {
  if (!a || !b) return false;
  if (a.card.id !== b.card.id || a.card.src !== b.card.src || a.card.highlight !== b.card.highlight) return false;
  for (const key of TRANSFORM_KEYS) if (a.transform[key] !== b.transform[key]) return false;
  return true;
}

/**
 * Whether a card is still: it has no animation, looks as it did in `previous` (a Map from card id
 * to the last frame's entry) and is not in `pending` (ids of cards drawn with a placeholder while
 * their photo loads: kept out of cached layers, which the photo would otherwise make stale).
 */
export function isStill(entry, previous, pending) {
  return !entry.card.anim && !pending.has(entry.card.id) && sameLook(entry, previous.get(entry.card.id));
}

/**
 * The frame's cards (z order) cut into runs: [{start, end, still}], `end` exclusive (isStill);
 * consecutive still cards form one run, each other card a run of its own.
 */
export function splitRuns(entries, previous, pending = new Set()) {
  const runs = [];
  entries.forEach((entry, i) => {
    const still = isStill(entry, previous, pending);
    const last = runs[runs.length - 1];
    if (still && last?.still) last.end = i + 1;
    else runs.push({ start: i, end: i + 1, still });
  });
  return runs;
}

/** Whether two runs hold the same cards, looking the same, in the same order. */
export function sameRun(a, b) {
  return a.length === b.length && a.every((entry, i) => sameLook(entry, b[i]));
}

/** Where `part` lies, whole and in order, within `cards`; -1 when it does not. */
export function indexOfRun(cards, part) {
  const first = cards.findIndex((entry) => entry.card.id === part[0].card.id);
  if (first < 0 || first + part.length > cards.length) return -1;
  for (let i = 0; i < part.length; i += 1) if (!sameLook(cards[first + i], part[i])) return -1;
  return first;
}

/** A run's key: its cards' ids, bottom first. */
export function runKey(cards) {
  return cards.map((entry) => entry.card.id).join('\n');
}
