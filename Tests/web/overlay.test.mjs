// The photo frame's overlays: caption and clock formatting (pure), and what drawing asleep does.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { statusText } from '../../Resources/web/messages.js';
import {
  MIN_CAPTION_CSS_PX, captionParts, captionText, cardCaptionSize, clockText, displayName, drawAsleep, drawOverlays,
  fitText, formatDate, screenTextSize, untilNextMinute,
} from '../../Resources/web/overlay.js';
import { readParams } from '../../Resources/web/params.js';
import { applyMessage, emptyScene } from '../../Resources/web/scene.js';

const at = (query) => new URL(`http://frame.local:8080/${query}`);

describe('URL parameters', () => {
  test('?caption= lists the known parts in the order asked, each once', () => {
    assert.deepEqual(readParams(at('?caption=date')).caption, ['date']);
    assert.deepEqual(readParams(at('?caption=name')).caption, ['name']);
    assert.deepEqual(readParams(at('?caption=date,name')).caption, ['date', 'name']);
    assert.deepEqual(readParams(at('?caption=name,date,name')).caption, ['name', 'date']);
    assert.deepEqual(readParams(at('?caption=colour,date')).caption, ['date']);
    assert.deepEqual(captionParts(''), []);
    assert.deepEqual(captionParts(null), []);
  });

  test('?clock=1 asks for the clock; it is off by default', () => {
    assert.equal(readParams(at('?clock=1')).clock, true);
    assert.equal(readParams(at('')).clock, false);
  });
});

describe('caption text', () => {
  const caption = { date: '2024-07-14', name: 'Holidays/beach.jpg' };

  test('a date is a calendar day, the same in every time zone', () => {
    assert.equal(formatDate('2024-07-14', 'en-GB'), '14 July 2024');
    assert.equal(formatDate('2024-01-01', 'en-US'), 'January 1, 2024');
    assert.equal(formatDate('14/07/2024', 'en-GB'), null);
    assert.equal(formatDate(undefined, 'en-GB'), null);
  });

  test('a name loses its file ending only', () => {
    assert.equal(displayName('Holidays/beach.jpg'), 'Holidays/beach');
    assert.equal(displayName('v1.2 final.jpeg'), 'v1.2 final');
    assert.equal(displayName('.jpg'), '.jpg');
    assert.equal(displayName(undefined), null);
  });

  test('the parts asked for, joined; missing ones left out', () => {
    assert.equal(captionText(caption, ['date'], 'en-GB'), '14 July 2024');
    assert.equal(captionText(caption, ['name'], 'en-GB'), 'Holidays/beach');
    assert.equal(captionText(caption, ['date', 'name'], 'en-GB'), '14 July 2024 · Holidays/beach');
    assert.equal(captionText(caption, ['name', 'date'], 'en-GB'), 'Holidays/beach · 14 July 2024');
    assert.equal(captionText({ name: 'a.jpg' }, ['date', 'name'], 'en-GB'), 'a');
    assert.equal(captionText({ name: 'a.jpg' }, ['date'], 'en-GB'), '');
    assert.equal(captionText(undefined, ['date']), '');
    assert.equal(captionText(' Lake ', ['date']), 'Lake');
  });

  test("a guest's photo still marked with its sender says who sent it, in place of the rest", () => {
    const arrived = { ...caption, from: 'Anna' };
    assert.equal(captionText(arrived, ['date', 'name'], 'en-GB'), 'from Anna');
    assert.equal(captionText(arrived, ['name'], 'en-GB'), 'from Anna');
    // Captions off: nothing, as for any photo.
    assert.equal(captionText(arrived, [], 'en-GB'), '');
    // Once the server drops `from`, the normal caption again.
    assert.equal(captionText(caption, ['date', 'name'], 'en-GB'), '14 July 2024 · Holidays/beach');
    assert.equal(captionText({ name: 'a.jpg', from: '  ' }, ['name'], 'en-GB'), 'a');
  });

  test('the status line a screen reader hears gives the date and the name', () => {
    const cards = new Map([['c0', { id: 'c0', position: 0, caption }]]);
    const scene = { ...emptyScene(), seq: 3, count: 20, current: 2, cards };
    assert.equal(statusText(scene, 'en-GB'), 'Photo 3 of 20: 14 July 2024 · Holidays/beach');
  });
});

describe('clock', () => {
  test('hours and minutes in the reader\'s way', () => {
    const morning = new Date(2024, 6, 14, 7, 5, 42);
    assert.equal(clockText(morning, 'en-GB'), '07:05');
    // The locale's own short form: no leading zero before an AM/PM hour.
    assert.match(clockText(morning, 'en-US'), /^7:05\sAM$/);
    assert.equal(clockText(new Date(2024, 6, 14, 18, 25), 'de-DE'), '18:25');
  });

  test('it is drawn again when the next minute starts', () => {
    assert.equal(untilNextMinute(new Date(Date.UTC(2024, 0, 1, 0, 0, 59, 500))), 500);
    assert.equal(untilNextMinute(new Date(Date.UTC(2024, 0, 1, 0, 1, 0, 0))), 60000);
  });
});

// Records each call; properties are stored.
function recordingContext(log) {
  return new Proxy({}, {
    get(object, key) {
      if (key in object) return object[key];
      return (...args) => log.push([key, ...args]);
    },
    set(object, key, value) {
      object[key] = value;
      return true;
    },
  });
}

const view = { width: 800, height: 600, dpr: 2, fit: { scale: 0.5, x: 10, y: 20 } };

describe('drawing', () => {
  test('the caption sits in the card\'s corner, or the screen\'s in kiosk mode; the clock bottom-right', () => {
    const transform = { x: 512, y: 384, w: 300, h: 200, rotation: 0.1, scaleX: 1, scaleY: 1 };
    const log = [];
    drawOverlays(recordingContext(log), view, { caption: { text: 'beach', transform }, clock: '07:05' });
    const texts = log.filter(([method]) => method === 'fillText');
    assert.equal(texts.length, 2);
    assert.equal(texts[0][1], 'beach');
    assert.ok(texts[0][2] < 0 && texts[0][3] > 0, 'left of and below the card\'s centre, in card coordinates');
    assert.deepEqual(texts[1].slice(1), ['07:05', 800 - 32, 600 - 32]);
    assert.ok(log.some(([method, angle]) => method === 'rotate' && angle === 0.1), 'turned with the card');

    const kiosk = [];
    drawOverlays(recordingContext(kiosk), view, { caption: { text: 'beach', transform }, kiosk: true });
    assert.deepEqual(kiosk.filter(([method]) => method === 'fillText').map((call) => call.slice(1)),
      [['beach', 32, 600 - 32]]);
  });

  test('a caption on a card is at least 12 CSS pixels high at any scale', () => {
    const deckCard = { w: 386, h: 538 };
    // A phone: 390 CSS pixels for a 1024-point stage.
    const phone = 390 / 1024;
    assert.ok(cardCaptionSize(deckCard, phone) * phone >= MIN_CAPTION_CSS_PX);
    assert.equal(cardCaptionSize(deckCard, 2), 386 / 22, 'a large card keeps its own proportion');
  });

  test('kiosk text is at least 2.5 % of the screen height, and 12 CSS pixels', () => {
    assert.ok(screenTextSize({ width: 1920, height: 1080, dpr: 1 }) >= 0.025 * 1080);
    assert.ok(screenTextSize({ width: 3840, height: 2160, dpr: 1 }) >= 0.025 * 2160);
    assert.ok(screenTextSize({ width: 1080, height: 1920, dpr: 1 }) >= 0.025 * 1920);
    assert.ok(screenTextSize({ width: 390, height: 844, dpr: 3 }) >= 12 * 3);
  });

  test('every caption and the clock lie on a scrim drawn just before them', () => {
    const transform = { x: 512, y: 384, w: 300, h: 200, rotation: 0, scaleX: 1, scaleY: 1 };
    for (const kiosk of [false, true]) {
      const log = [];
      drawOverlays(recordingContext(log), view, { caption: { text: 'beach', transform }, clock: '07:05', kiosk });
      const methods = log.map(([method]) => method);
      const texts = methods.flatMap((method, index) => (method === 'fillText' ? [index] : []));
      assert.equal(texts.length, 2);
      for (const index of texts) assert.ok(methods.slice(0, index).lastIndexOf('fill') > (texts[texts.indexOf(index) - 1] ?? -1));
    }
  });

  test('a caption too long for its place is cut with an ellipsis', () => {
    const ctx = { measureText: (text) => ({ width: text.length * 10 }) };
    assert.equal(fitText(ctx, 'Holidays/beach', 200), 'Holidays/beach');
    assert.equal(fitText(ctx, 'Holidays/beach', 80), 'Holiday…');
  });

  test('asleep, the screen is black and nothing else is drawn', () => {
    const log = [];
    const ctx = recordingContext(log);
    drawAsleep(ctx, view);
    assert.deepEqual(log.filter(([method]) => method !== 'setTransform'), [['fillRect', 0, 0, 800, 600]]);
    assert.equal(ctx.fillStyle, '#000');
    assert.ok(!log.some(([method]) => method === 'drawImage'));
  });

  test('the scene follows the server\'s asleep flag', () => {
    const asleep = applyMessage(emptyScene(), 'snapshot', { seq: 1, count: 2, asleep: true, cards: [] });
    assert.equal(asleep.asleep, true);
    assert.equal(statusText(asleep), 'Asleep');
    const awake = applyMessage(asleep, 'change', { seq: 2, asleep: false, cards: [], removed: [] });
    assert.equal(awake.asleep, false);
  });
});
