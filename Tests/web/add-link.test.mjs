// The add page's address: the room, the token from the fragment, kept and stripped.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { chooseToken, keepSender, keptSender, readAddLink } from '../../Resources/web/add-link.js';

function memoryStorage(entries = {}) {
  const map = new Map(Object.entries(entries));
  return {
    map,
    getItem: (key) => (map.has(key) ? map.get(key) : null),
    setItem: (key, value) => map.set(key, String(value)),
    removeItem: (key) => map.delete(key),
  };
}

test('the token comes from the fragment, and the stripped address has neither it nor the fragment', () => {
  const link = readAddLink(new URL('http://192.168.1.20:8080/add?room=party#token=abc123'));
  assert.deepEqual(link, { room: 'party', token: 'abc123', stripped: 'http://192.168.1.20:8080/add?room=party' });
});

test('a token in the query, as the control page takes its own, is taken and stripped too', () => {
  const link = readAddLink(new URL('http://h/add?token=t1&room=main'));
  assert.deepEqual(link, { room: 'main', token: 't1', stripped: 'http://h/add?room=main' });
});

test('no token: nothing to strip; a bad room falls back to main', () => {
  assert.deepEqual(readAddLink(new URL('http://h/add?room=../x')), { room: 'main', token: null, stripped: null });
});

test('the link\'s token is kept; without one, the kept one, else the control page\'s', () => {
  const storage = memoryStorage({ 'stackweb.token': 'control' });
  assert.equal(chooseToken(null, storage), 'control');
  assert.equal(chooseToken('add1', storage), 'add1');
  assert.equal(chooseToken(null, storage), 'add1');
  assert.equal(chooseToken(null, memoryStorage()), null);
});

test('refused storage: the link\'s token still counts for this page', () => {
  const refusing = { getItem() { throw new Error('denied'); }, setItem() { throw new Error('denied'); } };
  assert.equal(chooseToken('add1', refusing), 'add1');
  assert.equal(chooseToken(null, refusing), null);
});

test('the sender\'s name is kept trimmed, and forgotten when emptied', () => {
  const storage = memoryStorage();
  assert.equal(keptSender(storage), '');
  keepSender(storage, '  Anna ');
  assert.equal(keptSender(storage), 'Anna');
  keepSender(storage, '   ');
  assert.equal(keptSender(storage), '');
});
