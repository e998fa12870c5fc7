// The page's shape reporting: the events URL names the window's size, a resize out of the class the
// server laid the room out for asks again, and the pointer is posted in that class's stage.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { leftShape, pointerURL, reportedShape, withShape } from '../../Resources/web/shape.js';

const widescreen = { name: '16x9', minAspect: 1.6865, maxAspect: 2.0367 };
const tallPhone = { name: '9x19.5', minAspect: 0, maxAspect: 0.5095 };
const ultrawide = { name: '21x9', minAspect: 2.0367 };

describe('reportedShape', () => {
  test('names the window in whole CSS pixels', () => {
    assert.equal(reportedShape(1920, 1080), '1920x1080');
    assert.equal(reportedShape(390.4, 843.6), '390x844');
  });

  test('a window without a size reports nothing', () => {
    assert.equal(reportedShape(0, 1080), null);
    assert.equal(reportedShape(1920, Number.NaN), null);
  });
});

describe('withShape', () => {
  test('adds the size to a URL with or without a query', () => {
    assert.equal(withShape('/api/rooms/main/events', '1920x1080'), '/api/rooms/main/events?shape=1920x1080');
    assert.equal(withShape('/api/rooms/main/events?page=abc', '390x844'), '/api/rooms/main/events?page=abc&shape=390x844');
  });

  test('leaves the URL alone without a size', () => {
    assert.equal(withShape('/api/rooms/main/events', null), '/api/rooms/main/events');
  });
});

describe('leftShape', () => {
  test('a resize within the class keeps the stream', () => {
    assert.equal(leftShape(widescreen, 1920, 1080), false);
    assert.equal(leftShape(widescreen, 1280, 720), false);
    assert.equal(leftShape(tallPhone, 390, 844), false);
  });

  test('a resize out of the class opens it again', () => {
    assert.equal(leftShape(widescreen, 1280, 800 * 1.1), true); // 16:11
    assert.equal(leftShape(widescreen, 2560, 1080), true);
    assert.equal(leftShape(tallPhone, 844, 390), true);
  });

  test('the widest class has no upper bound', () => {
    assert.equal(leftShape(ultrawide, 5120, 1080), false);
  });

  test('a page shown the room stage never reconnects', () => {
    assert.equal(leftShape(undefined, 390, 844), false);
  });
});

describe('pointerURL', () => {
  test('names the class the scene was laid out for', () => {
    assert.equal(pointerURL('/api/rooms/main', widescreen), '/api/rooms/main/pointer?shape=16x9');
    assert.equal(pointerURL('/api/rooms/main', tallPhone), '/api/rooms/main/pointer?shape=9x19.5');
  });

  test('without a class the pointer is in the room stage', () => {
    assert.equal(pointerURL('/api/rooms/main', null), '/api/rooms/main/pointer');
  });
});
