// Guests' photos waiting for review (`--uploads review`), on a page that holds the control token:
// a badge with their count on the control bar, and a panel that lists them with a preview and
// Approve / Reject. The queue is asked for with a modest poll (docs/wire-protocol.md says why):
// every 15 s while the panel is closed, every 4 s while it is open, never while the page is hidden,
// and never again once the server says the room takes no review or the page may not see it.

/** How often the queue is asked for while the panel is closed, and while it is open. */
export const POLL_CLOSED_MS = 15000;
export const POLL_OPEN_MS = 4000;
/** After a failed ask (no answer, 5xx): wait longer, up to this. */
export const POLL_MAX_MS = 120000;

/**
 * The queue's answer ({mode, uploads: [{id, name, bytes}]}) as the page keeps it: whether the room
 * reviews, and the well-formed entries only, oldest first as the server sends them.
 */
export function readQueue(answer) {
  const uploads = Array.isArray(answer?.uploads) ? answer.uploads : [];
  return {
    review: answer?.mode === 'review',
    uploads: uploads.filter((entry) => typeof entry?.id === 'string' && typeof entry?.name === 'string')
      .map(({ id, name, from }) => (typeof from === 'string' && from ? { id, name, from } : { id, name })),
  };
}

/**
 * When to ask for the queue again, in ms, or null for never: after 401, 403 or 404 (this page may
 * not see it, or no room takes photos), or once the room is known not to review. `failures`
 * counts the asks in a row that got no good answer; `status` is the last one's (undefined: none).
 */
export function nextPoll({ status, review, open, failures = 0 }) {
  if (status === 401 || status === 403 || status === 404) return null;
  if (status !== 200) return Math.min(POLL_MAX_MS, POLL_CLOSED_MS * 2 ** Math.max(0, failures - 1));
  if (!review) return null;
  return open ? POLL_OPEN_MS : POLL_CLOSED_MS;
}

/** What the badge shows for `count` waiting photos: hidden at none; its text and spoken name. */
export function badgeState(count) {
  const noun = count === 1 ? 'guest photo waits' : "guests' photos wait";
  return {
    hidden: count === 0,
    text: count > 99 ? '99+' : String(count),
    label: `${count} ${noun} for review`,
  };
}

/**
 * When a waiting photo arrived, read from its name (`20261201-224910-123-…`, UTC): a Date, or
 * null for a name not of that form.
 */
export function arrivedAt(name) {
  const match = /^(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})(\d{2})-/.exec(name);
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1).map(Number);
  return new Date(Date.UTC(year, month - 1, day, hour, minute, second));
}

/** How a waiting photo is named to a screen reader and under its preview. */
export function itemLabel(upload, index, count, formatTime = (date) => date.toLocaleTimeString([], {
  hour: '2-digit', minute: '2-digit',
})) {
  const arrived = arrivedAt(upload.name);
  const who = upload.from ? ` from ${upload.from}` : '';
  const when = arrived ? `, came at ${formatTime(arrived)}` : '';
  return `Photo ${index + 1} of ${count}${who}${when}`;
}

const CHECK = '<svg viewBox="0 0 20 20" aria-hidden="true" focusable="false">'
  + '<rect x="3" y="4" width="14" height="12" rx="1.5"/><path d="M3.5 13.5l4-4 3 3 2-2 4 3.5"/></svg>';

/**
 * Adds the badge to the control bar `controls` and the panel to `document.body`, and keeps them
 * current. `api` is the room's API path, `token` the control token (null: a loopback server that
 * needs none — the first ask tells). `onNote(text)` reports what went wrong. Returns `stop()`.
 */
export function attachReview({ controls, api, token, onNote = () => {}, fetchImpl = globalThis.fetch }) {
  const doc = controls.ownerDocument;
  const headers = token ? { Authorization: `Bearer ${token}` } : {};

  const group = doc.createElement('div');
  group.className = 'group review-group';
  group.hidden = true;
  const badge = doc.createElement('button');
  badge.type = 'button';
  badge.className = 'review-badge';
  badge.setAttribute('aria-haspopup', 'dialog');
  badge.setAttribute('aria-controls', 'review');
  badge.setAttribute('aria-expanded', 'false');
  badge.innerHTML = `${CHECK}<span class="review-count"></span>`;
  group.append(badge);
  controls.append(group);

  const panel = doc.createElement('section');
  panel.id = 'review';
  panel.className = 'review';
  panel.hidden = true;
  panel.setAttribute('role', 'dialog');
  panel.setAttribute('aria-labelledby', 'review-title');
  panel.innerHTML = '<header><h2 id="review-title">Guests\' photos to review</h2>'
    + '<button type="button" class="review-close" aria-label="Close">✕</button></header>'
    + '<p class="review-empty" hidden>Nothing waits for review.</p><ul></ul>';
  doc.body.append(panel);
  const list = panel.querySelector('ul');
  const empty = panel.querySelector('.review-empty');

  let uploads = [];
  let timer = 0;
  let failures = 0;
  let stopped = false;
  // Previews by id, as data: URLs (the page's policy takes no blob: images); dropped with their photo.
  const previews = new Map();

  function showBadge() {
    const state = badgeState(uploads.length);
    group.hidden = state.hidden && panel.hidden;
    badge.querySelector('.review-count').textContent = state.text;
    badge.setAttribute('aria-label', state.label);
    badge.title = state.label;
  }

  function showList() {
    const focusedID = doc.activeElement?.closest?.('li')?.dataset.id;
    const focusedDecision = doc.activeElement?.dataset?.decision;
    list.replaceChildren(...uploads.map((upload, index) => item(upload, index)));
    empty.hidden = uploads.length > 0;
    const again = focusedID && list.querySelector(`li[data-id="${focusedID}"] [data-decision="${focusedDecision}"]`);
    if (again) again.focus();
  }

  function item(upload, index) {
    const entry = doc.createElement('li');
    entry.dataset.id = upload.id;
    const label = itemLabel(upload, index, uploads.length);
    const image = doc.createElement('img');
    image.alt = label;
    image.width = 96;
    image.height = 96;
    if (previews.has(upload.id)) image.src = previews.get(upload.id);
    else loadPreview(upload.id, image);
    const caption = doc.createElement('span');
    caption.textContent = label;
    entry.append(image, caption, decisionButton('approve', 'Approve', label), decisionButton('reject', 'Reject', label));
    return entry;
  }

  function decisionButton(decision, text, label) {
    const button = doc.createElement('button');
    button.type = 'button';
    button.dataset.decision = decision;
    button.textContent = text;
    button.setAttribute('aria-label', `${text}: ${label}`);
    return button;
  }

  async function loadPreview(id, image) {
    previews.set(id, '');
    try {
      const reply = await fetchImpl(`${api}/uploads/${encodeURIComponent(id)}/preview`, { headers, cache: 'no-store' });
      if (!reply.ok) throw new Error(String(reply.status));
      const url = await dataURL(await reply.blob());
      previews.set(id, url);
      const shown = list.querySelector(`li[data-id="${id}"] img`) ?? image;
      shown.src = url;
    } catch {
      previews.delete(id);
    }
  }

  async function ask() {
    clearTimeout(timer);
    if (stopped) return;
    let status;
    try {
      const reply = await fetchImpl(`${api}/uploads`, { headers, cache: 'no-store' });
      status = reply.status;
      // Read whole either way: a refusal's body is small, and the connection is then free.
      const answer = await reply.json().catch(() => null);
      if (reply.ok) {
        const queue = readQueue(answer);
        failures = 0;
        take(queue.uploads);
        schedule(nextPoll({ status, review: queue.review, open: !panel.hidden }));
        return;
      }
    } catch {
      status = undefined;
    }
    failures += 1;
    schedule(nextPoll({ status, review: true, open: !panel.hidden, failures }));
  }

  function schedule(delay) {
    clearTimeout(timer);
    if (delay === null || stopped || doc.visibilityState === 'hidden') return;
    timer = setTimeout(ask, delay);
  }

  function take(next) {
    const changed = next.length !== uploads.length || next.some((upload, index) => upload.id !== uploads[index].id);
    uploads = next;
    for (const id of previews.keys()) if (!next.some((upload) => upload.id === id)) previews.delete(id);
    showBadge();
    if (changed && !panel.hidden) showList();
  }

  // Above the control bar, however many rows it wraps into on this screen.
  function place() {
    if (panel.hidden) return;
    const bar = controls.getBoundingClientRect();
    panel.style.bottom = `${Math.max(0, doc.documentElement.clientHeight - bar.top) + 8}px`;
  }

  function open() {
    panel.hidden = false;
    place();
    badge.setAttribute('aria-expanded', 'true');
    showList();
    showBadge();
    (list.querySelector('[data-decision="approve"]') ?? panel.querySelector('.review-close')).focus();
    ask();
  }

  function close() {
    panel.hidden = true;
    badge.setAttribute('aria-expanded', 'false');
    showBadge();
    if (!group.hidden) badge.focus();
  }

  async function decide(id, decision, button) {
    for (const other of list.querySelectorAll(`li[data-id="${id}"] button`)) other.disabled = true;
    try {
      const reply = await fetchImpl(`${api}/uploads/${encodeURIComponent(id)}/${decision}`, {
        method: 'POST', headers: { ...headers, 'Content-Type': 'application/json' }, body: '{}',
      });
      const answer = await reply.json().catch(() => ({}));
      if (!reply.ok && reply.status !== 404) throw new Error(answer.error ?? `${reply.status}`);
    } catch (error) {
      onNote(`Could not ${decision} the photo: ${error.message}`);
      for (const other of list.querySelectorAll(`li[data-id="${id}"] button`)) other.disabled = false;
      button.focus();
      return;
    }
    // Focus goes to the next photo's Approve (or the close button) when this one leaves the list.
    const index = uploads.findIndex((upload) => upload.id === id);
    take(uploads.filter((upload) => upload.id !== id));
    const next = list.querySelectorAll('[data-decision="approve"]')[Math.min(index, uploads.length - 1)];
    (next ?? panel.querySelector('.review-close')).focus();
    ask();
  }

  badge.addEventListener('click', () => (panel.hidden ? open() : close()));
  panel.querySelector('.review-close').addEventListener('click', close);
  panel.addEventListener('click', (event) => {
    const button = event.target.closest('[data-decision]');
    if (!button || button.disabled) return;
    decide(button.closest('li').dataset.id, button.dataset.decision, button);
  });
  // Keys pressed in the panel are the panel's: an arrow or Space there must not step the room.
  panel.addEventListener('keydown', (event) => {
    event.stopPropagation();
    if (event.key === 'Escape') {
      event.preventDefault();
      close();
    }
  });
  const onVisibility = () => {
    if (doc.visibilityState === 'visible') ask();
    else clearTimeout(timer);
  };
  doc.addEventListener('visibilitychange', onVisibility);
  doc.defaultView.addEventListener('resize', place);
  ask();

  return function stop() {
    stopped = true;
    clearTimeout(timer);
    doc.removeEventListener('visibilitychange', onVisibility);
    doc.defaultView.removeEventListener('resize', place);
  };
}

function dataURL(blob) {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result);
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(blob);
  });
}
