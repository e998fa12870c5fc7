// The on-screen controls: buttons found by `data-action` (and `data-style` for the style
// buttons), a toast for what the server turned down, and the offer to undo a removal.

/**
 * Sends each `[data-action]` button's action under `root` to `onAction({action, style})`. While
 * `isFaded()` (the controls have faded out) they are inert: a press on them only shows them, and
 * the click it ends in does nothing — not even reach the photo beneath — so that an invisible
 * button never changes the room.
 */
export function attachControls(root, onAction, { isFaded = () => false } = {}) {
  let pressedWhileFaded = false;
  // Runs before the window's listener that shows the controls again (it listens later, bubbling).
  root.addEventListener('pointerdown', () => {
    pressedWhileFaded = isFaded();
  });
  // One listener for the whole bar: buttons added later (or re-rendered) need no binding.
  root.addEventListener('click', (event) => {
    const swallowed = pressedWhileFaded && event.detail !== 0;
    pressedWhileFaded = false;
    if (swallowed) {
      event.preventDefault();
      return;
    }
    const button = event.target.closest?.('[data-action]');
    if (!button || !root.contains(button)) return;
    onAction({ action: button.dataset.action, style: button.dataset.style });
  });
}

/**
 * What the controls say for a room ({playing, style, stacked}), pure: the play button's name, title
 * and pressed state (pressed while the slideshow runs, its icon then ⏸), the flip-or-select button's
 * name, and whether the swipe style's "stacked" toggle shows and is pressed.
 */
export function roomControls({ playing, style, stacked }) {
  const running = Boolean(playing);
  const select = style === 'deck' ? 'Flip the top card' : 'Select the top photo';
  return {
    play: {
      label: running ? 'Pause the slideshow' : 'Play the slideshow',
      title: running ? 'Pause the slideshow (Space)' : 'Play the slideshow (Space)',
      pressed: running,
    },
    select: { label: select, title: `${select} (Enter)` },
    stacked: { hidden: style !== 'swipe', pressed: Boolean(stacked) },
  };
}

function label(button, { label: name, title }) {
  if (button.getAttribute('aria-label') !== name) {
    button.setAttribute('aria-label', name);
    button.title = title;
  }
}

/**
 * Shows the room's state on the controls: the play button is pressed while the slideshow runs,
 * the current style's button is pressed, the flip-or-select button is named for the style, the
 * stacked toggle shows in the swipe style.
 */
export function showRoomState(root, room) {
  const state = roomControls(room);
  for (const button of root.querySelectorAll('[data-action="play-pause"]')) {
    label(button, state.play);
    button.setAttribute('aria-pressed', String(state.play.pressed));
    button.classList.toggle('is-playing', state.play.pressed);
  }
  for (const button of root.querySelectorAll('[data-action="select"]')) label(button, state.select);
  for (const button of root.querySelectorAll('[data-action="style"]')) {
    button.setAttribute('aria-pressed', String(button.dataset.style === room.style));
  }
  for (const button of root.querySelectorAll('[data-action="stacked"]')) {
    button.hidden = state.stacked.hidden;
    button.setAttribute('aria-pressed', String(state.stacked.pressed));
  }
}

/**
 * A short note in `element` that fades after `durationMs`. A newer note replaces the one shown.
 * Returns `show(text)`.
 */
export function createToast(element, { durationMs = 3000 } = {}) {
  let timer = 0;
  return function show(text) {
    element.textContent = text;
    element.hidden = false;
    clearTimeout(timer);
    timer = setTimeout(() => {
      element.hidden = true;
    }, durationMs);
  };
}

/** How long "Photo removed · Undo" stays on the screen that removed the photo. */
export const UNDO_OFFER_MS = 8000;

/**
 * "Photo removed · Undo" in `element` (its `[data-undo]` button) for `durationMs`: the button calls
 * `onUndo()` once and the offer goes. A newer removal offers again, for the full time. Returns
 * `offer()`.
 */
export function createUndoOffer(element, onUndo, {
  durationMs = UNDO_OFFER_MS, setTimer = setTimeout, clearTimer = clearTimeout,
} = {}) {
  let timer = 0;
  const hide = () => {
    clearTimer(timer);
    element.hidden = true;
  };
  element.querySelector('[data-undo]').addEventListener('click', () => {
    if (element.hidden) return;
    hide();
    onUndo();
  });
  return function offer() {
    element.hidden = false;
    clearTimer(timer);
    timer = setTimer(hide, durationMs);
  };
}
