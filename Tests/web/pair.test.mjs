// A pair of portraits in the frame style: the status counts both and the caption names both.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { pairedCard, shownCaption, statusText } from '../../Resources/web/messages.js';

const card = (id, position, opacity, caption) => ({ id, position, opacity, caption: { name: caption } });

function frame(cards, extra = {}) {
  return { seq: 4, style: 'frame', count: 41, current: 30, cards: new Map(cards.map((c) => [c.id, c])), ...extra };
}

describe('a portrait pair', () => {
  const pair = [card('c30', 0, 1, 'trip/anna.jpg'), card('c31', 1, 1, 'trip/ben.jpg'), card('c32', 2, 0, 'x.jpg')];

  test('the status says both numbers and both names', () => {
    assert.equal(statusText(frame(pair)), 'Photos 31–32 of 41: trip/anna & trip/ben');
  });

  test('the caption names both photos', () => {
    assert.equal(shownCaption(frame(pair), ['name']), 'trip/anna & trip/ben');
  });

  test('a lone photo is counted alone', () => {
    const alone = [card('c30', 0, 1, 'a.jpg'), card('c31', 1, 0, 'b.jpg')];
    assert.equal(pairedCard(frame(alone)), null);
    assert.equal(statusText(frame(alone)), 'Photo 31 of 41: a');
  });

  test('a pair fading in already counts as shown', () => {
    const coming = [card('c30', 0, 1, 'a.jpg'), { ...card('c31', 1, 0, 'b.jpg'), anim: { to: { opacity: 1 } } }];
    assert.equal(pairedCard(frame(coming)).id, 'c31');
  });

  test('the last photo pairs with the first', () => {
    assert.equal(statusText(frame(pair, { current: 40 })).split(':')[0], 'Photos 41–1 of 41');
  });

  test('other styles never pair', () => {
    assert.equal(pairedCard(frame(pair, { style: 'pile' })), null);
  });
});
