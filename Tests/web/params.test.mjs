import assert from 'node:assert/strict';
import { test } from 'node:test';

import { lookFor } from '../../Resources/web/look.js';
import { readParams, withoutToken } from '../../Resources/web/params.js';

const at = (query) => new URL(`http://frame.local:8080/${query}`);

test('defaults: room main, no style, not a kiosk, no token', () => {
  assert.deepEqual(readParams(at('')), {
    room: 'main', style: null, kiosk: false, token: null, debug: false, caption: [], clock: false, stacked: false,
    fit: null, qr: false,
  });
});

test('room, style, kiosk, token and debug are read', () => {
  assert.deepEqual(readParams(at('?room=hall-2&style=deck&kiosk=1&token=s3cret&debug=1')),
    {
      room: 'hall-2', style: 'deck', kiosk: true, token: 's3cret', debug: true, caption: [], clock: false, stacked: false,
      fit: null, qr: false,
    });
  assert.equal(readParams(at('?stacked=1')).stacked, true);
  assert.equal(readParams(at('?kiosk=1&qr=1')).qr, true);
  assert.equal(readParams(at('?style=frame')).style, 'frame');
  assert.equal(readParams(at('?kiosk=true')).kiosk, true);
  assert.equal(readParams(at('?kiosk=0')).kiosk, false);
});

test('a room or style outside the grammar falls back', () => {
  assert.equal(readParams(at('?room=Hall')).room, 'main');
  assert.equal(readParams(at('?room=../x')).room, 'main');
  assert.equal(readParams(at(`?room=${'a'.repeat(65)}`)).room, 'main');
  assert.equal(readParams(at('?style=carousel')).style, null);
});

test('withoutToken strips only the token', () => {
  assert.equal(withoutToken(at('?room=a&token=t&kiosk=1')), 'http://frame.local:8080/?room=a&kiosk=1');
  assert.equal(withoutToken(at('?token=t')), 'http://frame.local:8080/');
  assert.equal(withoutToken(at('?room=a')), null);
});

test('each style has a look; rounded corners only in deck and swipe', () => {
  for (const style of ['pile', 'angles', 'grid', 'frame']) assert.equal(lookFor(style).radius, 0, style);
  assert.equal(lookFor('frame').border, 0, 'a photo frame shows the photo alone, edge to edge');
  for (const style of ['deck', 'swipe']) assert.ok(lookFor(style).radius >= 8, style);
  assert.equal(lookFor('pile').border, 5, 'docs/styles.md: the pile’s border is 5 pt');
  assert.equal(lookFor(undefined), lookFor('pile'));
});

test('?fit=cover crops every photo to its card; the deck and swipe otherwise fit one they would crop hard', () => {
  assert.equal(readParams(at('?fit=cover')).fit, 'cover');
  assert.equal(readParams(at('?fit=stretch')).fit, null);
  assert.equal(lookFor('deck').fit, 'contain');
  assert.equal(lookFor('swipe').fit, 'contain');
  assert.equal(lookFor('pile').fit, undefined);
  assert.equal(lookFor('deck', 'cover').fit, 'cover');
  assert.equal(lookFor('deck', 'cover').radius, lookFor('deck').radius);
});
