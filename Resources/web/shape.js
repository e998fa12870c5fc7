// The screen's shape, as the server lays the room out for it: the page reports its window's size
// on the events URL (`?shape=1920x1080`); the server answers with the stage of that size's shape
// class and the range of aspects the class takes (`snapshot.shape`). The page posts its pointer in
// that stage's points, naming the class, and opens the stream again only when a resize takes its
// window out of the class (a snapshot then replaces the scene, laid out for the new class).

/** The `shape` argument for a window of `width`×`height` CSS pixels; null when it has no size yet. */
export function reportedShape(width, height) {
  const w = Math.round(width);
  const h = Math.round(height);
  return w > 0 && h > 0 ? `${w}x${h}` : null;
}

/** `url` with `?shape=` (or `&shape=`) added; `url` itself when `shape` is null. */
export function withShape(url, shape) {
  if (!shape) return url;
  return `${url}${url.includes('?') ? '&' : '?'}shape=${encodeURIComponent(shape)}`;
}

/**
 * Whether a window of `width`×`height` has left the shape class `shape` (a snapshot's `shape`:
 * `{name, minAspect, maxAspect}`, the upper bound absent for the widest class). A page shown the
 * room's own stage (no `shape`) never has.
 */
export function leftShape(shape, width, height) {
  if (!shape || !(width > 0) || !(height > 0)) return false;
  const aspect = width / height;
  return aspect < shape.minAspect || (typeof shape.maxAspect === 'number' && aspect >= shape.maxAspect);
}

/** Where the page posts its pointer: in the stage points of the class its scene was laid out for. */
export function pointerURL(api, shape) {
  return withShape(`${api}/pointer`, shape?.name ?? null);
}
