// Keys and buttons to commands, and what the page says about them.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { STYLES, commandFor, keyAction } from '../../Resources/web/actions.js';
import { commandLabel, failureMessage, frontCard, photoNumber, statusText } from '../../Resources/web/messages.js';

describe('commandFor', () => {
  const pile = { style: 'pile', playing: false };

  test('each action is the wire command of docs/wire-protocol.md', () => {
    assert.deepEqual(commandFor('previous', pile), { command: 'previous' });
    assert.deepEqual(commandFor('next', pile), { command: 'next' });
    assert.deepEqual(commandFor('fullscreen', pile), { command: 'fullscreen' });
    assert.deepEqual(commandFor('undo', pile), { command: 'undo' });
    assert.deepEqual(commandFor('style', pile, 'deck'), { command: 'style', style: 'deck' });
  });

  test('play-pause says what the room is not doing', () => {
    assert.deepEqual(commandFor('play-pause', { ...pile, playing: false }), { command: 'play' });
    assert.deepEqual(commandFor('play-pause', { ...pile, playing: true }), { command: 'pause' });
  });

  test('select flips in the deck and highlights elsewhere', () => {
    assert.deepEqual(commandFor('select', { style: 'deck' }), { command: 'flip' });
    for (const style of ['pile', 'angles', 'grid', 'swipe', null]) {
      assert.deepEqual(commandFor('select', { style }), { command: 'highlight' }, String(style));
    }
  });

  test('an unknown action or style is no command', () => {
    assert.equal(commandFor('explode', pile), null);
    assert.equal(commandFor('style', pile, 'carousel'), null);
    assert.equal(commandFor('style', pile, undefined), null);
  });
});

describe('keyAction', () => {
  const key = (k, extra = {}) => keyAction({ key: k, ...extra });

  test('the issue’s key map', () => {
    assert.deepEqual(key('ArrowLeft'), { action: 'previous' });
    assert.deepEqual(key('ArrowRight'), { action: 'next' });
    assert.deepEqual(key(' '), { action: 'play-pause' });
    assert.deepEqual(key('Enter'), { action: 'select' });
    assert.deepEqual(key('f'), { action: 'fullscreen' });
    assert.deepEqual(key('F', { shiftKey: true }), { action: 'fullscreen' });
    assert.deepEqual(key('u'), { action: 'undo' });
    assert.deepEqual(key('U'), { action: 'undo' });
    assert.deepEqual(key('z', { ctrlKey: true }), { action: 'undo' });
    assert.deepEqual(key('z', { metaKey: true }), { action: 'undo' }, 'Cmd+Z on a Mac');
    STYLES.forEach((style, i) => assert.deepEqual(key(String(i + 1)), { action: 'style', style }));
  });

  test('keys with other modifiers stay the browser’s', () => {
    assert.equal(key('ArrowLeft', { altKey: true }), null, 'Alt+← is Back');
    assert.equal(key('1', { ctrlKey: true }), null, 'Ctrl+1 is the first tab');
    assert.equal(key('z', { ctrlKey: true, shiftKey: true }), null, 'Ctrl+Shift+Z is redo');
    assert.equal(key('z', { ctrlKey: true, altKey: true }), null);
    assert.equal(key('f', { ctrlKey: true }), null, 'Ctrl+F is find');
    assert.equal(key('ArrowRight', { shiftKey: true }), null);
  });

  test('S toggles the swipe style’s stacked mode, and only there', () => {
    assert.deepEqual(key('s'), { action: 'stacked' });
    assert.deepEqual(commandFor('stacked', { style: 'swipe', stacked: false }),
      { command: 'style', style: 'swipe', stacked: true });
    assert.deepEqual(commandFor('stacked', { style: 'swipe', stacked: true }),
      { command: 'style', style: 'swipe', stacked: false });
    assert.deepEqual(commandFor('stacked', { style: 'swipe' }), { command: 'style', style: 'swipe', stacked: true },
      'a room that does not say is taken as not stacked');
    assert.equal(commandFor('stacked', { style: 'pile', stacked: false }), null);
  });

  test('unbound keys are ignored', () => {
    for (const k of ['a', '7', '0', 'Escape', 'Tab', 'z', 'ArrowUp']) assert.equal(key(k), null, k);
  });

  test('held keys repeat only the arrows', () => {
    assert.deepEqual(key('ArrowRight', { repeat: true }), { action: 'next' });
    for (const k of [' ', 'Enter', 'f', 'u', '3']) assert.equal(key(k, { repeat: true }), null, k);
    assert.equal(key('z', { ctrlKey: true, repeat: true }), null);
  });

  test('on a focused button Space and Enter press the button, not the stage', () => {
    assert.equal(keyAction({ key: ' ' }, { onControl: true }), null);
    assert.equal(keyAction({ key: 'Enter' }, { onControl: true }), null);
    assert.deepEqual(keyAction({ key: 'ArrowRight' }, { onControl: true }), { action: 'next' });
  });
});

describe('messages', () => {
  const scene = (extra = {}) => ({
    seq: 3, count: 20, current: 2, cards: new Map([['a', { id: 'a', position: 0 }], ['b', { id: 'b', position: 1 }]]),
    ...extra,
  });

  test('statusText is "Photo n of m"', () => {
    assert.equal(statusText(scene()), 'Photo 3 of 20');
    assert.equal(statusText({ ...scene(), seq: -1 }), 'Connecting…');
    assert.equal(statusText({ ...scene(), count: 0 }), 'No photos');
  });

  test('the photo number is never past the count, nor below 1 (after an insert or a remove)', () => {
    assert.equal(statusText({ ...scene(), current: 12, count: 12 }), 'Photo 12 of 12');
    assert.equal(statusText({ ...scene(), current: 11, count: 12 }), 'Photo 12 of 12');
    assert.equal(statusText({ ...scene(), current: -1, count: 12 }), 'Photo 1 of 12');
    assert.equal(photoNumber(0, 1), 1);
    assert.equal(photoNumber(undefined, 3), 1);
    assert.equal(photoNumber(5, 0), 0);
  });

  test('statusText adds the front photo’s caption when it has one', () => {
    const cards = new Map([
      ['b', { id: 'b', position: 1, caption: 'not this one' }],
      ['a', { id: 'a', position: 0, caption: ' Lake at dusk ' }],
    ]);
    assert.equal(statusText(scene({ cards })), 'Photo 3 of 20: Lake at dusk');
    assert.equal(frontCard(cards).id, 'a');
    const blank = new Map([['a', { id: 'a', position: 0, caption: '  ' }]]);
    assert.equal(statusText(scene({ cards: blank })), 'Photo 3 of 20');
  });

  test('a removed card fading out at position 0 is not the front photo', () => {
    const cards = new Map([
      ['gone', { id: 'gone', position: 0, caption: 'Removed', anim: { to: { opacity: 0 } } }],
      ['next', { id: 'next', position: 0, caption: 'Next one' }],
    ]);
    assert.equal(frontCard(cards).id, 'next');
    assert.equal(statusText(scene({ cards })), 'Photo 3 of 20: Next one');
  });

  test('a limit is said in the server\'s words: the room limit is not a moment\'s wait', () => {
    assert.equal(failureMessage({ command: 'next' }, 429, 'this server holds at most 64 rooms'),
      'Next photo: this server holds at most 64 rooms');
    assert.equal(failureMessage({ command: 'next' }, 429), 'Next photo: too many requests, try again in a moment');
  });

  test('failureMessage names the command and why', () => {
    assert.equal(commandLabel({ command: 'style', style: 'deck' }), 'Deck style');
    assert.equal(failureMessage({ command: 'undo' }, 400), 'Undo is not available here yet');
    assert.equal(failureMessage({ command: 'style', style: 'grid' }, 400), 'Grid style is not available here yet');
    assert.match(failureMessage({ command: 'play' }, 401), /^Play: this page may only watch/);
    assert.match(failureMessage({ command: 'next' }, undefined), /unreachable/);
    assert.match(failureMessage({ command: 'next' }, 429), /too many requests/);
    assert.equal(failureMessage({ command: 'next' }, 500), 'Next photo failed (500)');
  });
});

describe('roomControls', async () => {
  const { roomControls } = await import('../../Resources/web/controls.js');

  test('the play button is pressed while the slideshow runs, and says what it will do', () => {
    assert.deepEqual(roomControls({ playing: false, style: 'pile' }).play,
      { label: 'Play the slideshow', title: 'Play the slideshow (Space)', pressed: false });
    assert.deepEqual(roomControls({ playing: true, style: 'pile' }).play,
      { label: 'Pause the slideshow', title: 'Pause the slideshow (Space)', pressed: true });
  });

  test('the stacked toggle shows only in the swipe style, pressed from the room', () => {
    assert.deepEqual(roomControls({ style: 'pile', stacked: true }).stacked, { hidden: true, pressed: true });
    assert.deepEqual(roomControls({ style: 'swipe', stacked: true }).stacked, { hidden: false, pressed: true });
    assert.deepEqual(roomControls({ style: 'swipe' }).stacked, { hidden: false, pressed: false });
  });

  test('select is named for the style', () => {
    assert.equal(roomControls({ style: 'deck' }).select.label, 'Flip the top card');
    assert.equal(roomControls({ style: 'frame' }).select.label, 'Select the top photo');
  });
});

test('Q shows or hides the QR code guests add photos with; it sends no command', () => {
  assert.deepEqual(keyAction({ key: 'q' }), { action: 'add-code' });
  assert.deepEqual(keyAction({ key: 'Q', shiftKey: true }), { action: 'add-code' });
  assert.equal(keyAction({ key: 'q', repeat: true }), null);
  assert.equal(commandFor('add-code', { style: 'pile', playing: false }), null);
});
