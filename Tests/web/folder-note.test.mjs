// The empty room's note about the photo folder, from /healthz answers.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { FOLDER_NOTE_REFRESH_MS, folderNoteText, followFolderNote } from '../../Resources/web/folder-note.js';

const health = (ok, state) => ({ checks: { photoFolder: { ok, state, folder: '/media/frame', detail: '' } } });

describe('folderNoteText', () => {
  test('names a missing folder and says it is picked up without a restart', () => {
    const text = folderNoteText(health(false, 'missing'));
    assert.match(text, /\/media\/frame is missing/);
    assert.match(text, /without a restart/);
  });
  test('names a present folder', () => {
    assert.equal(folderNoteText(health(true, 'present')), 'The photo folder is /media/frame.');
  });
  test('says nothing for an answer without the check', () => {
    assert.equal(folderNoteText({}), '');
    assert.equal(folderNoteText(null), '');
  });
});

describe('followFolderNote', () => {
  test('asks while the note shows, and stops when it hides', async () => {
    const element = { textContent: '' };
    const timers = new Map();
    let next = 0;
    let asked = 0;
    const follow = followFolderNote(element, async () => { asked += 1; return health(false, 'missing'); }, {
      setTimer: (fn, ms) => { timers.set(++next, { fn, ms }); return next; },
      clearTimer: (id) => timers.delete(id),
    });
    follow(true);
    follow(true);
    await Promise.resolve();
    assert.equal(asked, 1);
    assert.match(element.textContent, /missing/);
    assert.deepEqual([...timers.values()].map((t) => t.ms), [FOLDER_NOTE_REFRESH_MS]);
    follow(false);
    assert.equal(timers.size, 0);
  });
});
