// The on-screen controls: buttons found by `data-action` (and `data-style` for the style
// buttons), and a toast for what the server turned down.

/** Sends each `[data-action]` button's action under `root` to `onAction({action, style})`. */
export function attachControls(root, onAction) {
  // One listener for the whole bar: buttons added later (or re-rendered) need no binding.
  root.addEventListener('click', (event) => {
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
