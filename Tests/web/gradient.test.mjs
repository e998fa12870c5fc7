// The gradient backdrop (gradient.js).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { GradientBackdrop } from '../../Resources/web/gradient.js';
import { recordingContext, view } from './support/canvas-fakes.mjs';

describe('GradientBackdrop', () => {
  test('paints its gradient once per size, the page’s and the coarse canvas’ sizes both kept', () => {
    const log = [];
    const made = [];
    const make = (width, height) => {
      made.push(`${width}x${height}`);
      const own = { createRadialGradient: () => ({ addColorStop() {} }), fillRect() {} };
      return { width, height, getContext: () => own };
    };
    const gradient = new GradientBackdrop(make);
    const ctx = recordingContext('main', log);
    const coarseView = { ...view, width: 512, height: 384 };
    for (let frame = 0; frame < 3; frame += 1) {
      gradient.draw(ctx, view);
      gradient.draw(ctx, coarseView);
    }
    assert.deepEqual(made, ['1024x768', '512x384']);
    const copies = log.filter(([target, method]) => target === 'main' && method === 'drawImage');
    assert.deepEqual(copies.map((call) => call[2].width), [1024, 512, 1024, 512, 1024, 512]);
    gradient.draw(ctx, { ...view, width: 800, height: 600 });
    gradient.draw(ctx, view);
    assert.deepEqual(made.slice(2), ['800x600', '1024x768'], 'two sizes kept, the oldest let go');
    // Idle time paints a size ahead of its first frame.
    gradient.prepare({ ...view, width: 400, height: 300 });
    assert.equal(made.at(-1), '400x300');
    gradient.draw(ctx, { ...view, width: 400, height: 300 });
    assert.equal(made.length, 5, 'its first frame copies it');
  });
});
