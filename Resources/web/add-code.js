// The QR code that brings guests to the add page: small in a corner of a kiosk (?qr=1), large over
// the stack on demand (the Q key, the control bar's button). The server answers 404 for a room
// that takes no photos: the corner then stays empty, and the large view says so. The code is asked
// for only when it is to be shown, so a page that never shows it logs no 404.

/** The code's address for `room` (an SVG the server draws with the room's add link). */
export const addCodeURL = (room) => `/api/rooms/${room}/add-code.svg`;

/** What the large view says for a room whose code the server does not give, when it says nothing. */
export const NO_CODE = 'This room takes no photos from guests (the server needs --uploads open).';

/**
 * Why the server gives no code for `room`, in its own words: the room takes no photos, or no
 * phone could reach the address the code would name (a server on 127.0.0.1 only), and how to fix it.
 */
export async function whyNoCode(room, fetchImpl = globalThis.fetch) {
  try {
    const reply = await fetchImpl(addCodeURL(room), { cache: 'no-store' });
    if (reply.ok) return NO_CODE;
    const body = await reply.json();
    return typeof body.error === 'string' && body.error ? body.error : NO_CODE;
  } catch {
    return NO_CODE;
  }
}

function codeFigure(document, room, className, caption) {
  const figure = document.createElement('figure');
  figure.className = className;
  const image = document.createElement('img');
  image.alt = 'QR code to the page that adds your photos to this wall';
  image.src = addCodeURL(room);
  const text = document.createElement('figcaption');
  text.textContent = caption;
  figure.append(image, text);
  return { figure, image, text };
}

/**
 * Sets up the code for `room` in `document`: `corner` shows it in the top right corner (a
 * kiosk's ?qr=1); `button` (the control bar's, or null) says whether the large view is open.
 * Answers {toggle(), shown()}: toggle opens or closes the large view.
 */
export function setUpAddCode(document, room, { corner = false, button = null } = {}) {
  let overlay = null;

  if (corner) {
    const { figure, image } = codeFigure(document, room, 'add-code corner', 'Add your photos');
    figure.hidden = true;
    image.addEventListener('load', () => {
      figure.hidden = false;
    });
    document.body.append(figure);
  }

  function close() {
    overlay.hidden = true;
    button?.setAttribute('aria-pressed', 'false');
  }

  function open() {
    if (!overlay) {
      const { figure, image, text } = codeFigure(document, room, 'add-code large', 'Scan to add your photos');
      image.addEventListener('error', async () => {
        image.remove();
        text.textContent = await whyNoCode(room);
      });
      overlay = document.createElement('div');
      overlay.className = 'add-code-overlay';
      overlay.setAttribute('role', 'dialog');
      overlay.setAttribute('aria-label', 'Add your photos');
      overlay.append(figure);
      overlay.addEventListener('click', close);
      document.addEventListener('keydown', (event) => {
        if (event.key === 'Escape' && !overlay.hidden) close();
      });
      document.body.append(overlay);
    }
    overlay.hidden = false;
    button?.setAttribute('aria-pressed', 'true');
  }

  return {
    toggle: () => (overlay && !overlay.hidden ? close() : open()),
    shown: () => Boolean(overlay && !overlay.hidden),
  };
}
