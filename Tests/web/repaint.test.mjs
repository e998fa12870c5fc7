// Repainting only what changed (repaint.js), through the renderer's frames.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { lookFor } from '../../Resources/web/look.js';
import { cardReach, clippedUnion } from '../../Resources/web/reach.js';
import { entry, images, probedRenderer, recordingContext, view } from './support/canvas-fakes.mjs';

describe('repainting only what changed', () => {
  // A backdrop that paints the same pixels every frame, as the usual gradient does.
  const still = { draw() {}, static: true };
  function partialSetup() {
    const log = [];
    const ctx = recordingContext('main', log);
    const { renderer } = probedRenderer(log);
    const frame = (cards, { backdrop = still, style = 'pile', partial = true } = {}) => {
      log.length = 0;
      renderer.draw(ctx, view, cards, { style, images, backdrop, partial });
      return renderer.lastDirty;
    };
    return { frame, renderer, log };
  }
  const rest = () => [entry('a', 200), entry('b', 500), entry('c', 800)];

  test('a frame in which one card moved repaints where it was and where it is, clipped to whole pixels', () => {
    const { frame, log } = partialSetup();
    assert.equal(frame(rest()), null, 'the first frame paints everything');
    frame(rest()); // the cards the first frame drew as moving (unfiltered) come to rest
    const moved = [entry('a', 200), entry('b', 520), entry('c', 800)];
    const dirty = frame(moved);
    const painter = { pointToDevice: 1, originX: 0, originY: 0, look: lookFor('pile') };
    const expected = clippedUnion([cardReach(painter, rest()[1].transform), cardReach(painter, moved[1].transform)],
      view.width, view.height);
    assert.deepEqual(dirty, expected);
    assert.ok(Number.isInteger(dirty.x) && Number.isInteger(dirty.w));
    assert.ok(log.some(([target, method]) => target === 'main' && method === 'clip'), 'the frame is clipped to it');
    assert.ok(dirty.x > 200 + 100 && dirty.x + dirty.w < 800 - 100, 'the still cards beside it are not in it');
  });

  test('a frame in which nothing changed repaints nothing', () => {
    const { frame } = partialSetup();
    frame(rest());
    assert.ok(frame(rest()).w > 0, 'cards the first frame drew unfiltered (it saw them come) are drawn at rest');
    assert.equal(frame(rest()).w, 0);
  });

  test('a changed order, a photo come in, another drawing, a fading backdrop or a new style repaint everything', () => {
    const { frame, renderer } = partialSetup();
    frame(rest());
    assert.equal(frame([entry('b', 500), entry('a', 200), entry('c', 800)]), null, 'a card lowered without moving');
    frame(rest());
    renderer.invalidate('/photos/a?w=512');
    assert.equal(frame(rest()), null, 'a sharper photo');
    renderer.repaintAll();
    assert.equal(frame(rest()), null, 'something else drew on the canvas');
    assert.equal(frame(rest(), { backdrop: { draw() {} } }), null, 'a backdrop that may change');
    frame(rest());
    assert.equal(frame(rest(), { style: 'grid' }), null, 'another style');
    assert.equal(frame(rest(), { style: 'grid', partial: false }), null, 'a page that draws on top (captions)');
  });

  test('a card drawn unfiltered while it moved is repainted, filtered, in the frame it comes to rest', () => {
    const { frame } = partialSetup();
    frame(rest());
    frame(rest());
    const turned = (x) => [entry('a', 200), entry('b', x, { rotation: 0.2 }), entry('c', 800)];
    frame(turned(510));
    frame(turned(520));
    const dirty = frame(turned(520));
    assert.ok(dirty.w > 0, 'its last moving frame was unfiltered: repainted now');
    assert.equal(frame(turned(520)).w, 0, 'and then left alone');
  });
});
