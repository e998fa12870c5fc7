// The large QR view says, in the server's words, why a room has no code.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { NO_CODE, addCodeURL, whyNoCode } from '../../Resources/web/add-code.js';

const answer = (status, body) => async (url) => {
  assert.equal(url, addCodeURL('party'));
  return { ok: status < 300, status, json: async () => body };
};

test('a loopback-only server says why phones cannot reach it and how to fix it', async () => {
  const words = "Guests' phones cannot reach this server: … --host 0.0.0.0 … --public-url URL";
  assert.equal(await whyNoCode('party', answer(409, { error: words })), words);
});

test('a room without guests, an answer without words, or no answer at all: the fixed sentence', async () => {
  assert.equal(await whyNoCode('party', answer(404, {})), NO_CODE);
  assert.equal(await whyNoCode('party', async () => { throw new TypeError('offline'); }), NO_CODE);
});
