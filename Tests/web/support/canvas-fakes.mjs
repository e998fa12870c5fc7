// Stand-ins for canvases that record what is drawn on them, and cards to draw: what the renderer's
// tests (render, layers, sprite-choice, repaint, coarse, …) share.
import { RenderProbe } from '../../../Resources/web/debug.js';
import { Renderer } from '../../../Resources/web/render.js';

/** A 2D context that records each method call in `log` as [name, method, ...args]; properties are stored. */
export function recordingContext(name, log) {
  const target = {};
  return new Proxy(target, {
    get(object, key) {
      if (key in object) return object[key];
      return (...args) => log.push([name, key, ...args]);
    },
    set(object, key, value) {
      object[key] = value;
      return true;
    },
  });
}

/** A `make(w, h)` whose canvases record on `log`, named canvas1, canvas2, … */
export function fakeCanvases(log) {
  let made = 0;
  return (width, height) => {
    made += 1;
    const ctx = recordingContext(`canvas${made}`, log);
    return { width, height, getContext: () => ctx };
  };
}

export const view = { width: 1024, height: 768, dpr: 1, fit: { scale: 1, x: 0, y: 0 } };
// Every photo decoded (a card drawn with a placeholder is kept out of layers: a test of its own).
export const images = { get: () => ({ width: 512, height: 384 }) };
export const backdrop = { draw() {} };
export const transform = (x, extra = {}) => ({
  x, y: 384, w: 200, h: 150, rotation: 0, scaleX: 1, scaleY: 1, opacity: 1, flip: 0, ...extra,
});
export const entry = (id, x, extra, card = {}) => ({
  card: { id, src: `/photos/${id}`, highlight: false, w: 200, h: 150, ...card }, transform: transform(x, extra),
});
/** How many images were drawn on the page's canvas. */
export const onMain = (log) => log.filter(([target, method]) => target === 'main' && method === 'drawImage').length;

/** A renderer drawing on fake canvases that record on `log`, with a probe counting what it makes. */
export function probedRenderer(log) {
  const probe = new RenderProbe();
  return { renderer: new Renderer({ make: fakeCanvases(log), probe }), probe };
}

/** A probed renderer and `frame(cards, style)`, which draws a frame on the page's canvas ('main'). */
export function setup() {
  const log = [];
  const ctx = recordingContext('main', log);
  const { renderer, probe } = probedRenderer(log);
  const frame = (cards, style = 'pile') => {
    log.length = 0;
    return renderer.draw(ctx, view, cards, { style, images, backdrop });
  };
  return { log, frame, renderer, probe };
}
