// The add page: a guest picks photos on a phone and follows each one to the wall.

import { chooseToken, keepSender, keptSender, readAddLink } from './add-link.js';
import { UploadQueue } from './upload-queue.js';
import { sendPhoto } from './upload-request.js';

const THUMB_PIXELS = 112;

/** localStorage, or a stand-in that keeps nothing where the browser refuses it. */
function storage() {
  try {
    return window.localStorage;
  } catch {
    return { getItem: () => null, setItem() {}, removeItem() {} };
  }
}

function newKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return `add-${[...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}

/** The row of one photo: its thumbnail, name, progress and state, and a Retry button. */
function makeRow(item, retry) {
  const row = document.createElement('li');
  row.className = 'upload';
  const thumb = document.createElement('canvas');
  thumb.className = 'thumb';
  thumb.width = THUMB_PIXELS;
  thumb.height = THUMB_PIXELS;
  thumb.setAttribute('aria-hidden', 'true');
  const info = document.createElement('div');
  info.className = 'info';
  const name = document.createElement('span');
  name.className = 'name';
  name.textContent = item.file.name || 'Photo';
  const progress = document.createElement('progress');
  progress.max = 1;
  progress.value = 0;
  progress.setAttribute('aria-label', `Sending ${name.textContent}`);
  const state = document.createElement('span');
  state.className = 'state';
  info.append(name, progress, state);
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'retry';
  button.textContent = 'Retry';
  button.setAttribute('aria-label', `Retry ${name.textContent}`);
  button.hidden = true;
  button.addEventListener('click', () => retry(item.id));
  row.append(thumb, info, button);
  return { row, thumb, progress, state, button };
}

/** Draws `file` into `canvas`, cropped to its square; a file the browser cannot decode stays blank. */
async function drawThumbnail(file, canvas) {
  let bitmap;
  try {
    bitmap = await createImageBitmap(file, { resizeWidth: THUMB_PIXELS * 2, resizeQuality: 'low' });
  } catch {
    return;
  }
  const side = Math.min(bitmap.width, bitmap.height);
  canvas.getContext('2d').drawImage(
    bitmap, (bitmap.width - side) / 2, (bitmap.height - side) / 2, side, side, 0, 0, THUMB_PIXELS, THUMB_PIXELS);
  bitmap.close();
}

/** One at a time: a phone decoding ten 12 MP photos at once runs out of memory. */
function thumbnailer() {
  let chain = Promise.resolve();
  return (file, canvas) => {
    chain = chain.then(() => drawThumbnail(file, canvas));
  };
}

function summary(counts, total) {
  if (total === 0) return '';
  const parts = [`${counts.done} of ${total} sent`];
  if (counts.failed > 0) parts.push(`${counts.failed} not sent`);
  return parts.join(', ');
}

function start() {
  const store = storage();
  const link = readAddLink(new URL(location.href));
  if (link.stripped) history.replaceState(history.state, '', link.stripped);
  const token = chooseToken(link.token, store);
  const url = `/api/rooms/${link.room}/photos`;
  if (link.room !== 'main') {
    document.getElementById('room-line').textContent = `They join the slideshow on the wall “${link.room}”.`;
  }

  const sender = document.getElementById('sender');
  sender.value = keptSender(store);
  sender.addEventListener('change', () => keepSender(store, sender.value));

  const list = document.getElementById('uploads');
  const announce = document.getElementById('summary');
  const rows = new Map();
  const thumbnail = thumbnailer();
  let finished = 0;

  const retry = (id) => queue.retry(id);
  const queue = new UploadQueue({
    newKey,
    added(item) {
      const parts = makeRow(item, retry);
      rows.set(item.id, parts);
      list.append(parts.row);
      thumbnail(item.file, parts.thumb);
    },
    send: (item, progress) =>
      sendPhoto({ url, file: item.file, token, sender: sender.value.trim(), key: item.key }, progress),
    changed(item) {
      const parts = rows.get(item.id);
      if (!parts) return;
      parts.row.dataset.state = item.state;
      parts.row.dataset.kind = item.kind ?? '';
      parts.progress.value = item.total > 0 ? item.sent / item.total : 0;
      parts.state.textContent = item.text;
      parts.button.hidden = item.state !== 'failed' || !item.retry;
      // The live region speaks when a photo is through, not at every percent.
      const counts = queue.counts();
      if (counts.done + counts.failed !== finished) {
        finished = counts.done + counts.failed;
        announce.textContent = summary(counts, queue.items.length);
      }
    },
  });
  const files = document.getElementById('files');
  files.addEventListener('change', () => {
    const chosen = [...files.files];
    // Cleared, so choosing the same photo again is a change too.
    files.value = '';
    queue.add(chosen);
  });
}

start();
