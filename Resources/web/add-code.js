// The QR code that brings guests to the add page: small in a corner of a kiosk (?qr=1), large over
// the stack on demand (the Q key, the control bar's button). Shown only for a room that takes
// photos: the server answers 404 for the others, and nothing is drawn.

/** The code's address for `room` (an SVG the server draws with the room's add link). */
export const addCodeURL = (room) => `/api/rooms/${room}/add-code.svg`;

function codeFigure(document, room, className, caption) {
  const figure = document.createElement('figure');
  figure.className = className;
  const image = document.createElement('img');
  image.alt = 'QR code to the page that adds your photos to this wall';
  image.src = addCodeURL(room);
  const text = document.createElement('figcaption');
  text.textContent = caption;
  figure.append(image, text);
  return { figure, image };
}

/**
 * Sets up the code for `room` in `document`: `corner` shows it in the top right corner (a
 * kiosk's ?qr=1). `button` (the control bar's, or null) is shown once the room is known to take
 * photos. Answers {toggle(), shown()}: toggle opens or closes the large code.
 */
export function setUpAddCode(document, room, { corner = false, button = null } = {}) {
  let overlay = null;
  let available = false;
  const reveal = () => {
    available = true;
    if (button) button.hidden = false;
  };

  if (corner) {
    const { figure, image } = codeFigure(document, room, 'add-code corner', 'Add your photos');
    figure.hidden = true;
    image.addEventListener('load', () => {
      figure.hidden = false;
      reveal();
    });
    document.body.append(figure);
  } else if (button) {
    // A HEAD tells whether the room takes photos without drawing the code yet.
    fetch(addCodeURL(room), { method: 'HEAD' }).then((answer) => answer.ok && reveal(), () => {});
  }

  function close() {
    overlay.hidden = true;
    button?.setAttribute('aria-pressed', 'false');
  }

  function toggle() {
    if (!available) return;
    if (!overlay) {
      const { figure } = codeFigure(document, room, 'add-code large', 'Scan to add your photos');
      overlay = document.createElement('div');
      overlay.className = 'add-code-overlay';
      overlay.setAttribute('role', 'dialog');
      overlay.setAttribute('aria-label', 'Add your photos');
      overlay.hidden = true;
      overlay.append(figure);
      overlay.addEventListener('click', close);
      document.addEventListener('keydown', (event) => {
        if (event.key === 'Escape' && !overlay.hidden) close();
      });
      document.body.append(overlay);
    }
    if (overlay.hidden) {
      overlay.hidden = false;
      button?.setAttribute('aria-pressed', 'true');
    } else {
      close();
    }
  }

  return { toggle, shown: () => Boolean(overlay && !overlay.hidden) };
}
