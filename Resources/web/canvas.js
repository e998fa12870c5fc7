// Offscreen canvases for sprites and cached layers: an OffscreenCanvas where the browser has one,
// else a detached <canvas> (older Firefox ESR and Safari). Both draw the same with drawImage.

/** A `width`×`height` canvas that is not on the page. */
export function makeCanvas(width, height) {
  if (typeof OffscreenCanvas === 'function') return new OffscreenCanvas(width, height);
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  return canvas;
}
