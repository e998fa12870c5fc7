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
 * Shows the room's state on the controls: the play button says what it will do, the current
 * style's button is pressed, and the flip-or-select button is named for the style.
 */
export function showRoomState(root, { playing, style }) {
  for (const button of root.querySelectorAll('[data-action="play-pause"]')) {
    const label = playing ? 'Pause' : 'Play';
    if (button.getAttribute('aria-label') !== label) {
      button.setAttribute('aria-label', label);
      button.title = `${label} (Space)`;
    }
    button.classList.toggle('is-playing', Boolean(playing));
  }
  for (const button of root.querySelectorAll('[data-action="select"]')) {
    const label = style === 'deck' ? 'Flip the top card' : 'Select the top photo';
    if (button.getAttribute('aria-label') !== label) {
      button.setAttribute('aria-label', label);
      button.title = `${label} (Enter)`;
    }
  }
  for (const button of root.querySelectorAll('[data-action="style"]')) {
    button.setAttribute('aria-pressed', String(button.dataset.style === style));
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
