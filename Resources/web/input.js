// Pointer and keyboard input. Every pointer event becomes wire samples in one place
// (`toSamples`); the server recognises the gestures. Keys become actions (actions.js).

import { keyAction } from './actions.js';

// Two decimals of a point or a millisecond are below anything a gesture can tell apart and keep
// the bodies short.
const round2 = (value) => Math.round(value * 100) / 100;

/**
 * The wire samples for one DOM pointer event: its coalesced events where the browser has them
 * (every sample the hardware gave since the last event, each with its own timestamp), else itself.
 * `toStage(clientX, clientY)` converts to stage points.
 */
export function toSamples(type, event, toStage) {
  const coalesced = type === 'move' ? event.getCoalescedEvents?.() : null;
  const sources = coalesced?.length ? coalesced : [event];
  return sources.map((source) => {
    const point = toStage(source.clientX, source.clientY);
    return { type, pointer: event.pointerId, x: round2(point.x), y: round2(point.y), t: round2(source.timeStamp) };
  });
}

/**
 * Reports the pointers pressed on `canvas` as samples to `onSample`. A pressed pointer is captured,
 * so its moves and its release arrive even when it leaves the canvas; hover moves are not sent.
 */
export function attachPointerInput(canvas, { toStage, onSample }) {
  const pressed = new Set();
  const emit = (type, event) => {
    for (const sample of toSamples(type, event, toStage)) onSample(sample);
  };

  canvas.addEventListener('pointerdown', (event) => {
    if (event.pointerType === 'mouse' && event.button !== 0) return;
    canvas.setPointerCapture(event.pointerId);
    pressed.add(event.pointerId);
    emit('down', event);
  });
  canvas.addEventListener('pointermove', (event) => {
    if (pressed.has(event.pointerId)) emit('move', event);
  });
  canvas.addEventListener('pointerup', (event) => {
    if (pressed.delete(event.pointerId)) emit('up', event);
  });
  canvas.addEventListener('pointercancel', (event) => {
    if (pressed.delete(event.pointerId)) emit('cancel', event);
  });
  // Capture can also end without an up (the canvas leaves the DOM, a system gesture): the server
  // must still hear that the gesture is over.
  canvas.addEventListener('lostpointercapture', (event) => {
    if (pressed.delete(event.pointerId)) emit('cancel', event);
  });
  // A long press on a touch screen would otherwise open the context menu mid-gesture.
  canvas.addEventListener('contextmenu', (event) => event.preventDefault());
}

// Where Space and Enter already mean "press this": the focused control, not the stage.
const CONTROL_SELECTOR = 'button, input, select, textarea, a[href], [contenteditable]';

/** Sends the action bound to each key (actions.js: keyAction) to `onAction({action, style})`. */
export function attachKeyboard(target, onAction) {
  target.addEventListener('keydown', (event) => {
    const onControl = Boolean(event.target?.closest?.(CONTROL_SELECTOR));
    const action = keyAction(event, { onControl });
    if (!action) return;
    event.preventDefault();
    onAction(action);
  });
}
