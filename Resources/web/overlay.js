// What a photo frame may show over the photos, when its URL asks: the front photo's caption
// (?caption=date,name) and a clock (?clock=1). Formatting is pure; drawing takes a context.

export const CAPTION_PARTS = Object.freeze(['date', 'name']);

/** The caption parts `?caption=` asks for, in the order given, each once; [] for none. */
export function captionParts(value) {
  if (!value) return [];
  const asked = value.split(',').map((part) => part.trim());
  return CAPTION_PARTS.filter((part) => asked.includes(part)).sort((a, b) => asked.indexOf(a) - asked.indexOf(b));
}

/** "2024-07-14" as the reader's long date ("14 July 2024" in en-GB); null when not a date. */
export function formatDate(date, locale) {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date ?? '');
  if (!match) return null;
  const day = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  // The date is a calendar day, not an instant: read in UTC, it is the same day in every zone.
  return new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(day);
}

/** "Holidays/beach.jpg" as "Holidays/beach": a file's ending says nothing to someone looking at it. */
export function displayName(name) {
  if (typeof name !== 'string') return null;
  return name.replace(/\.[A-Za-z0-9]{1,5}$/, '') || name;
}

/**
 * The words for a card's caption ({date, name}, both optional), with the `parts` asked for, joined
 * by " · "; '' when there is nothing to say. A caption that is already a string is used as it is.
 */
export function captionText(caption, parts = CAPTION_PARTS, locale = undefined) {
  if (typeof caption === 'string') return caption.trim();
  if (!caption || typeof caption !== 'object') return '';
  const words = parts.map((part) => (part === 'date' ? formatDate(caption.date, locale) : displayName(caption.name)));
  return words.filter(Boolean).join(' · ');
}

/** The time of day at `date`, hours and minutes, as the reader writes it ("07:05" in en-GB). */
export function clockText(date, locale = undefined) {
  return new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit' }).format(date);
}

/** Milliseconds from `date` until the next minute starts: when the clock must be drawn again. */
export function untilNextMinute(date) {
  return 60000 - (date.getTime() % 60000);
}

const TEXT = 'rgba(255, 255, 255, 0.92)';
const SHADOW = 'rgba(0, 0, 0, 0.8)';

function setText(ctx, sizePx) {
  ctx.font = `${Math.round(sizePx)}px system-ui, sans-serif`;
  ctx.fillStyle = TEXT;
  ctx.shadowColor = SHADOW;
  ctx.shadowBlur = sizePx / 4;
  ctx.shadowOffsetX = 0;
  ctx.shadowOffsetY = 0;
}

/**
 * Draws the overlays on `ctx` (device pixels; `view` as drawFrame's). `caption` is {text, transform}
 * for the front card, or null; in kiosk mode, or with no card to put it on, it goes to the
 * screen's bottom-left corner, else small in the card's own bottom-left corner, turned with it.
 * `clock` is the clock's text or null, drawn at the screen's bottom-right.
 */
export function drawOverlays(ctx, view, { caption = null, clock = null, kiosk = false }) {
  const margin = 16 * view.dpr;
  const screenSize = Math.max(14, Math.min(view.width, view.height) / 40);
  ctx.save();
  ctx.globalAlpha = 1;
  ctx.textBaseline = 'alphabetic';
  if (caption?.text) {
    const t = caption.transform;
    if (kiosk || !t) {
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      setText(ctx, screenSize);
      ctx.textAlign = 'left';
      ctx.fillText(caption.text, margin, view.height - margin);
    } else {
      // In stage points, about the card's centre; the text stays inside the photo's border.
      const p = view.dpr * view.fit.scale;
      ctx.setTransform(p, 0, 0, p, view.dpr * view.fit.x, view.dpr * view.fit.y);
      ctx.translate(t.x, t.y);
      ctx.rotate(t.rotation);
      ctx.scale(t.scaleX, t.scaleY);
      const size = Math.max(8, Math.min(t.w, t.h) / 22);
      setText(ctx, size);
      ctx.textAlign = 'left';
      const inset = size * 0.9;
      ctx.fillText(caption.text, -t.w / 2 + inset, t.h / 2 - inset, t.w - 2 * inset);
    }
  }
  if (clock) {
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    setText(ctx, screenSize * 1.6);
    ctx.textAlign = 'right';
    ctx.fillText(clock, view.width - margin, view.height - margin);
  }
  ctx.restore();
}

/** The sleeping screen: black, and nothing else (no photo is drawn, so none is fetched). */
export function drawAsleep(ctx, view) {
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.globalAlpha = 1;
  ctx.fillStyle = '#000';
  ctx.fillRect(0, 0, view.width, view.height);
}
