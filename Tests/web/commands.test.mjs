// Commands to the room (commands.js): sent one at a time in order, a refusal is a toast, and ▶
// that does not start the slideshow says why.
import assert from 'node:assert/strict';
import { describe, mock, test } from 'node:test';

import { createCommandSender } from '../../Resources/web/commands.js';
import { SLIDESHOW_DID_NOT_START } from '../../Resources/web/messages.js';

/** A post whose answers the test gives by hand, in any order. */
function manualPost() {
  const pending = [];
  const started = [];
  const post = (command) => {
    started.push(command.command);
    return new Promise((resolve, reject) => pending.push({ resolve, reject }));
  };
  return { post, pending, started };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('commands', () => {
  test('each command is posted only once the one before it is answered', async () => {
    const { post, pending, started } = manualPost();
    const send = createCommandSender(post, { showToast: () => {}, isPlaying: () => false });
    const first = send({ command: 'style', style: 'deck' });
    const second = send({ command: 'style', style: 'pile' });
    await settle();
    assert.deepEqual(started, ['style']);
    pending[0].resolve();
    assert.equal(await first, true);
    await settle();
    assert.equal(started.length, 2);
    pending[1].resolve();
    assert.equal(await second, true);
  });

  test('a refusal is a toast and answers false, and the next command still goes', async () => {
    const toasts = [];
    const { post, pending, started } = manualPost();
    mock.method(console, 'warn', () => {});
    const send = createCommandSender(post, { showToast: (text) => toasts.push(text), isPlaying: () => false });
    const refused = send({ command: 'next' });
    const after = send({ command: 'previous' });
    await settle();
    pending[0].reject(Object.assign(new Error('forbidden'), { status: 403 }));
    assert.equal(await refused, false);
    assert.equal(toasts.length, 1);
    await settle();
    assert.deepEqual(started, ['next', 'previous']);
    pending[1].resolve();
    assert.equal(await after, true);
    console.warn.mock.restore();
  });

  test('▶ taken but never playing says why; playing in time says nothing', async () => {
    for (const playing of [false, true]) {
      const toasts = [];
      const send = createCommandSender(() => Promise.resolve(), {
        showToast: (text) => toasts.push(text), isPlaying: () => playing, confirmMs: 5,
      });
      await send({ command: 'play' });
      await new Promise((resolve) => setTimeout(resolve, 20));
      assert.deepEqual(toasts, playing ? [] : [SLIDESHOW_DID_NOT_START]);
    }
  });

  test('only the last ▶ is confirmed', async () => {
    const toasts = [];
    let playing = false;
    const send = createCommandSender(() => Promise.resolve(), {
      showToast: (text) => toasts.push(text), isPlaying: () => playing, confirmMs: 10,
    });
    await send({ command: 'play' });
    await send({ command: 'play' });
    await new Promise((resolve) => setTimeout(resolve, 30));
    assert.equal(toasts.length, 1);
  });
});
