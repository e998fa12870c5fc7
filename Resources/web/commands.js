// Commands to the room (`POST …/commands`), one at a time in the order asked: "deck" then "pile"
// must not arrive swapped. A refusal (an older server that does not know the command, a page
// without the control token) is a short note on the page, not an error.

import { SLIDESHOW_DID_NOT_START, failureMessage } from './messages.js';

// How long after ▶ the room's `playing` must say the slideshow runs.
export const PLAY_CONFIRM_MS = 2000;

/**
 * A sender of commands through `post(command)` (a promise), in order; each send answers whether the
 * server took it. `▶` taken but not followed by a playing room within PLAY_CONFIRM_MS (a server
 * without a slideshow interval takes `play` and does nothing) says why through `showToast`, rather
 * than leave the button looking broken.
 */
export function createCommandSender(post, { showToast, isPlaying, confirmMs = PLAY_CONFIRM_MS }) {
  let queue = Promise.resolve();
  let playAsked = 0;
  return function send(command) {
    queue = queue.then(() => post(command).then(() => true, (error) => {
      console.warn('StackWeb:', error.message);
      showToast(failureMessage(command, error.status, error.serverWords));
      return false;
    }));
    const sent = queue;
    if (command.command === 'play') {
      const ask = ++playAsked;
      sent.then((taken) => {
        if (!taken) return;
        setTimeout(() => {
          if (ask === playAsked && !isPlaying()) showToast(SLIDESHOW_DID_NOT_START);
        }, confirmMs);
      });
    }
    return sent;
  };
}
