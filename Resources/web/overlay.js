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
 * The words for a card's caption ({date, name, from}, all optional), with the `parts` asked for,
 * joined by " · "; '' when there is nothing to say (or no part is asked for). A guest's photo that
 * the server still marks with its sender (`from`, until it has been the front card) says "from
 * Anna" instead. A caption that is already a string is used as it is.
 */
export function captionText(caption, parts = CAPTION_PARTS, locale = undefined) {
  if (typeof caption === 'string') return caption.trim();
  if (!caption || typeof caption !== 'object') return '';
  if (parts.length && typeof caption.from === 'string' && caption.from.trim()) return `from ${caption.from.trim()}`;
  const words = parts.map((part) => (part === 'date' ? formatDate(caption.date, locale) : displayName(caption.name)));
  return words.filter(Boolean).join(' · ');
}

/**
 * The time of day at `date`, hours and minutes, in the reader's locale's own short form ("07:05" in
 * en-GB, "7:05 AM" in en-US, "07:05" in de).
 */
export function clockText(date, locale = undefined) {
  return new Intl.DateTimeFormat(locale, { timeStyle: 'short' }).format(date);
}

/** Milliseconds from `date` until the next minute starts: when the clock must be drawn again. */
export function untilNextMinute(date) {
  return 60000 - (date.getTime() % 60000);
}

const TEXT = 'rgba(255, 255, 255, 0.95)';
const SHADOW = 'rgba(0, 0, 0, 0.6)';
// Behind every caption and the clock: a dark rounded band, so that white text reads over a light
// photo too (a shadow alone did not, on snow or sky).
const SCRIM = 'rgba(0, 0, 0, 0.55)';

/** The smallest caption, in CSS pixels, whatever the card's scale (a phone's cards are small). */
export const MIN_CAPTION_CSS_PX = 12;

/**
 * The size of the screen's own text (kiosk caption; the clock is 1.6 times it), in device pixels:
 * 1/36 of the screen's height (2.8 %, readable from 3 m on a 55" TV), no wider than 1/20 of its
 * width, never under 12 CSS pixels.
 */
export function screenTextSize(view) {
  return Math.max(MIN_CAPTION_CSS_PX * view.dpr, Math.min(view.height / 36, view.width / 20));
}

/**
 * The size of a caption on a card, in stage points: 1/22 of the card's short side, never under
 * 12 CSS pixels on the screen (`scale`: CSS pixels per stage point).
 */
export function cardCaptionSize(transform, scale) {
  return Math.max(MIN_CAPTION_CSS_PX / scale, Math.min(transform.w, transform.h) / 22);
}

/** `text` cut with "…" to at most `maxWidth` as `ctx` measures it (whole when nothing measures). */
export function fitText(ctx, text, maxWidth) {
  const width = (t) => ctx.measureText?.(t)?.width ?? 0;
  if (width(text) <= maxWidth) return text;
  let kept = text;
  while (kept.length > 1 && width(`${kept}…`) > maxWidth) kept = kept.slice(0, -1);
  return `${kept.trimEnd()}…`;
}

function setText(ctx, sizePx) {
  ctx.font = `${Math.round(sizePx)}px system-ui, sans-serif`;
  ctx.shadowColor = SHADOW;
  ctx.shadowBlur = sizePx / 8;
  ctx.shadowOffsetX = 0;
  ctx.shadowOffsetY = 0;
}

/**
 * `text` on its scrim, its baseline at `y`, starting at `x` (or ending there, `align` 'right').
 */
function textOnScrim(ctx, text, x, y, sizePx, align) {
  const width = ctx.measureText?.(text)?.width ?? 0;
  const pad = sizePx * 0.45;
  const left = align === 'right' ? x - width - pad : x - pad;
  ctx.save();
  ctx.shadowColor = 'transparent';
  ctx.fillStyle = SCRIM;
  ctx.beginPath();
  const top = y - sizePx * 1.05;
  const height = sizePx * 1.4;
  if (ctx.roundRect) ctx.roundRect(left, top, width + 2 * pad, height, height / 2);
  else ctx.rect(left, top, width + 2 * pad, height);
  ctx.fill();
  ctx.restore();
  ctx.fillStyle = TEXT;
  ctx.textAlign = align;
  ctx.fillText(text, x, y);
}

/**
 * Draws the overlays on `ctx` (device pixels; `view` as drawFrame's). `caption` is {text, transform}
 * for the front card, or null; in kiosk mode, or with no card to put it on, it goes to the
 * screen's bottom-left corner, else in the card's own bottom-left corner, turned with it; either
 * way on a scrim, at least 12 CSS pixels high. `clock` is the clock's text or null, drawn at the
 * screen's bottom-right.
 */
export function drawOverlays(ctx, view, { caption = null, clock = null, kiosk = false }) {
  const screenSize = screenTextSize(view);
  const margin = Math.max(16 * view.dpr, screenSize);
  ctx.save();
  ctx.globalAlpha = 1;
  ctx.textBaseline = 'alphabetic';
  if (caption?.text) {
    const t = caption.transform;
    if (kiosk || !t) {
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      setText(ctx, screenSize);
      const room = view.width * (clock ? 0.6 : 1) - 2 * margin;
      textOnScrim(ctx, fitText(ctx, caption.text, room), margin, view.height - margin, screenSize, 'left');
    } else {
      // In stage points, about the card's centre; the text stays inside the photo's border.
      const p = view.dpr * view.fit.scale;
      ctx.setTransform(p, 0, 0, p, view.dpr * view.fit.x, view.dpr * view.fit.y);
      ctx.translate(t.x, t.y);
      ctx.rotate(t.rotation);
      ctx.scale(t.scaleX, t.scaleY);
      const size = cardCaptionSize(t, view.fit.scale);
      setText(ctx, size);
      const inset = size * 0.9;
      const text = fitText(ctx, caption.text, t.w - 2 * inset);
      textOnScrim(ctx, text, -t.w / 2 + inset, t.h / 2 - inset, size, 'left');
    }
  }
  if (clock) {
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    const size = screenSize * 1.6;
    setText(ctx, size);
    textOnScrim(ctx, clock, view.width - margin, view.height - margin, size, 'right');
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
