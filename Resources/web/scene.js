// What the page knows about its room, built only from the server's messages. Pure: every function
// returns a new scene (or the same one when nothing changed) and reads no clock of its own.

import { TRANSFORM_KEYS, curveProgress, interpolateTransform } from './curve.js';

const CARD_DEFAULTS = Object.freeze({
  rotation: 0, scaleX: 1, scaleY: 1, opacity: 1, flip: 0, z: 0, position: 0, highlight: false,
});

/** The scene before the first snapshot: nothing to draw. */
export function emptyScene() {
  return {
    room: null, seq: -1, style: null, stage: null, count: 0, current: 0, playing: false, stacked: false, asleep: false,
    viewers: 0, heldBy: null, cards: new Map(),
  };
}

// prefers-reduced-motion: a move becomes a cut, and only a change of opacity still fades, briefly.
export const REDUCED_FADE_MS = 200;

/**
 * `anim` for a person who asked for reduced motion: the card jumps to where the motion ends, and
 * only its opacity still changes over at most REDUCED_FADE_MS (linearly; no spring overshoot).
 * An animation that changes nothing but position, size, angle or flip lasts no time at all.
 */
export function reduceMotion(anim) {
  const fades = anim.from?.opacity !== undefined && anim.to?.opacity !== undefined
    && anim.from.opacity !== anim.to.opacity;
  return {
    ...anim,
    duration: fades ? Math.min(anim.duration, REDUCED_FADE_MS) : 0,
    curve: { type: 'linear' },
    from: fades ? { ...anim.to, opacity: anim.from.opacity } : { ...anim.to },
  };
}

function normalizeCard(card, { reducedMotion = false } = {}) {
  const normalized = { ...CARD_DEFAULTS, ...card };
  if (reducedMotion && normalized.anim) normalized.anim = reduceMotion(normalized.anim);
  return normalized;
}

function roomFields(message) {
  const fields = {};
  for (const key of ['room', 'seq', 'style', 'stage', 'shape', 'count', 'current', 'playing', 'stacked', 'asleep', 'viewers', 'heldBy']) {
    if (message[key] !== undefined) fields[key] = message[key];
  }
  return fields;
}

/**
 * A snapshot replaces everything, whatever its seq: a restarted server counts from the start.
 * `options.reducedMotion` turns its animations into cuts and short fades (see reduceMotion).
 */
export function applySnapshot(scene, snapshot, options) {
  const cards = new Map((snapshot.cards ?? []).map((card) => [card.id, normalizeCard(card, options)]));
  return { ...emptyScene(), ...roomFields(snapshot), cards };
}

/**
 * A change upserts its cards by id and drops the removed ones. Ignored before any snapshot (it
 * would have nothing to apply to) and when its seq is not newer than what the scene already holds
 * (a replay overlapping what arrived before a reconnect).
 */
export function applyChange(scene, change, options) {
  if (scene.seq < 0) return scene;
  if (typeof change.seq === 'number' && change.seq <= scene.seq) return scene;
  const cards = new Map(scene.cards);
  for (const id of change.removed ?? []) cards.delete(id);
  for (const card of change.cards ?? []) cards.set(card.id, normalizeCard(card, options));
  return { ...scene, ...roomFields(change), cards };
}

/** A presence message: how many viewers watch the room now. */
export function applyPresence(scene, presence) {
  if (scene.seq < 0 || typeof presence.viewers !== 'number') return scene;
  return presence.viewers === scene.viewers ? scene : { ...scene, viewers: presence.viewers };
}

/** Applies one SSE message by its event type; unknown types leave the scene as it is. */
export function applyMessage(scene, type, data, options) {
  if (type === 'snapshot') return applySnapshot(scene, data, options);
  if (type === 'change') return applyChange(scene, data, options);
  if (type === 'presence') return applyPresence(scene, data);
  return scene;
}

/** Whether another viewer's pointer holds the stack (the server then ignores this page's). */
export function heldByOther(scene, viewer) {
  return typeof scene.heldBy === 'string' && scene.heldBy !== viewer;
}

/** The room is known and has no photo (and is not asleep, which shows black): say how to add some. */
export function isEmptyRoom(scene) {
  return scene.seq >= 0 && !scene.asleep && scene.count === 0;
}

function pickTransform(source) {
  const result = {};
  for (const key of TRANSFORM_KEYS) result[key] = source[key];
  return result;
}

/** True while `card` has an animation that has not reached its end at server time `now`. */
export function isAnimating(card, now) {
  return Boolean(card.anim) && now < card.anim.start + card.anim.duration;
}

/** The card's transform at server time `now` (ms): its animation evaluated, or where it rests. */
export function transformAt(card, now) {
  const { anim } = card;
  if (!anim) return pickTransform(card);
  if (now >= anim.start + anim.duration) return pickTransform({ ...card, ...anim.to });
  // Keys an animation leaves out hold the card's own value at both ends.
  const from = { ...pickTransform(card), ...anim.from };
  const to = { ...pickTransform(card), ...anim.to };
  return interpolateTransform(from, to, curveProgress(anim.curve, now - anim.start, anim.duration));
}

/** Finished animations dropped, their cards resting at `to`; the same scene when none finished. */
export function settle(scene, now) {
  let cards = null;
  for (const [id, card] of scene.cards) {
    if (!card.anim || isAnimating(card, now)) continue;
    cards ??= new Map(scene.cards);
    const { anim, ...rest } = card;
    cards.set(id, { ...rest, ...pickTransform({ ...card, ...anim.to }) });
  }
  return cards ? { ...scene, cards } : scene;
}

/** Every card with its transform at `now`, in drawing order (z ascending, back of the stack first). */
export function cardsAt(scene, now) {
  return [...scene.cards.values()]
    .sort((a, b) => a.z - b.z || b.position - a.position)
    .map((card) => ({ card, transform: transformAt(card, now) }));
}

/** True if any card is still moving at `now`. */
export function anyAnimating(scene, now) {
  for (const card of scene.cards.values()) if (isAnimating(card, now)) return true;
  return false;
}

// Server clock. Each message says when the server sent it; `serverTime − receiveTime` is the
// offset between the clocks minus the message's travel time, which is never negative. So the
// largest sample seen is the closest to the true offset. Only the last few count, so that a clock
// that is stepped (NTP, a laptop waking up) is followed within a few messages.

export const OFFSET_SAMPLE_LIMIT = 8;

/** The samples with `sample` (ms) appended, keeping the newest `limit`. */
export function addOffsetSample(samples, sample, limit = OFFSET_SAMPLE_LIMIT) {
  if (!Number.isFinite(sample)) return samples;
  return [...samples, sample].slice(-limit);
}

/** Server time minus local time (ms), 0 until a message has arrived. */
export function estimateOffset(samples) {
  return samples.length ? Math.max(...samples) : 0;
}
