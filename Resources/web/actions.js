// What a person can ask for, by key or by on-screen button. Both name an action; an action becomes
// the JSON command the server takes (docs/wire-protocol.md, "Page → server"). Pure, so the key map
// is tested without a browser.

/** The styles in the order the number keys 1–6 choose them. */
export const STYLES = Object.freeze(['pile', 'angles', 'grid', 'deck', 'swipe', 'frame']);

/**
 * The command body for `action` in a room that shows `room` ({style, playing}), or null for an
 * action that is not known. `style` is the style asked for by the `style` action.
 */
export function commandFor(action, room, style) {
  switch (action) {
    case 'previous': return { command: 'previous' };
    case 'next': return { command: 'next' };
    case 'play-pause': return { command: room.playing ? 'pause' : 'play' };
    case 'fullscreen': return { command: 'fullscreen' };
    // The deck turns its top card over when tapped; the other styles highlight (select) it.
    case 'select': return { command: room.style === 'deck' ? 'flip' : 'highlight' };
    case 'undo': return { command: 'undo' };
    case 'style': return STYLES.includes(style) ? { command: 'style', style } : null;
    // The swipe style's cards behind the front one, faded (stacked) or not; the server fades them.
    case 'stacked': return room.style === 'swipe' ? { command: 'style', style: 'swipe', stacked: !room.stacked } : null;
    default: return null;
  }
}

const PLAIN_KEYS = Object.freeze({
  ArrowLeft: { action: 'previous', repeats: true },
  ArrowRight: { action: 'next', repeats: true },
  ' ': { action: 'play-pause' },
  Enter: { action: 'select' },
  f: { action: 'fullscreen' },
  F: { action: 'fullscreen' },
  u: { action: 'undo' },
  U: { action: 'undo' },
  s: { action: 'stacked' },
  S: { action: 'stacked' },
  // The QR code guests scan to add photos (add-code.js), large over the stack.
  q: { action: 'add-code' },
  Q: { action: 'add-code' },
});

/**
 * The action a keydown stands for ({action, style?}), or null to leave the key to the browser.
 * `onControl` is true when a button (or any form control) has the focus: Space and Enter then
 * press that button, and must not also do what they do on the stage.
 */
export function keyAction({ key, ctrlKey = false, metaKey = false, altKey = false, shiftKey = false, repeat = false },
  { onControl = false } = {}) {
  // Alt+← is Back, Ctrl+digit switches tabs: with a modifier, keys belong to the browser, except
  // the one everybody expects to undo (Cmd+Z on a Mac). Ctrl+Shift+Z would be redo.
  if (altKey) return null;
  if (ctrlKey || metaKey) {
    return (key === 'z' || key === 'Z') && !shiftKey && !repeat ? { action: 'undo' } : null;
  }
  if (onControl && (key === ' ' || key === 'Enter')) return null;
  const digit = STYLES[Number(key) - 1];
  if (/^[1-6]$/.test(key)) return repeat ? null : { action: 'style', style: digit };
  const plain = PLAIN_KEYS[key];
  if (!plain) return null;
  // Shift+arrow is the browser's (text selection); capital letters come with Shift or Caps Lock.
  if (shiftKey && plain.repeats) return null;
  // Holding an arrow steps through the photos; holding Space must not toggle play on and off.
  if (repeat && !plain.repeats) return null;
  return { action: plain.action };
}
