// The page's canvas kept as many device pixels as it shows, so that nothing is scaled after
// drawing: sized again on every resize, rotation and zoom.

/**
 * The size to give `canvas` now: {width, height} in device pixels, `dpr`, and its CSS size. Where
 * the browser tells the exact device size (`deviceWidth`×`deviceHeight`) it is used (CSS size ×
 * ratio can be off by one), unless it disagrees by more than rounding (an emulated ratio the
 * browser does not render at).
 */
export function canvasSize(canvas, deviceWidth, deviceHeight) {
  const dpr = window.devicePixelRatio || 1;
  const cssWidth = canvas.clientWidth;
  const cssHeight = canvas.clientHeight;
  const exact = (device, css) => (Math.abs(device - css * dpr) <= 1 ? device : Math.round(css * dpr));
  return {
    width: deviceWidth ? exact(deviceWidth, cssWidth) : Math.round(cssWidth * dpr),
    height: deviceHeight ? exact(deviceHeight, cssHeight) : Math.round(cssHeight * dpr),
    dpr, cssWidth, cssHeight,
  };
}

/**
 * Calls `onResize(deviceWidth, deviceHeight)` whenever `canvas` changes size or the screen's
 * pixel ratio changes; the device size is given where the browser tells it, else undefined.
 */
export function watchCanvasSize(canvas, onResize) {
  const observer = new ResizeObserver((entries) => {
    const size = entries[entries.length - 1].devicePixelContentBoxSize?.[0];
    onResize(size?.inlineSize, size?.blockSize);
  });
  try {
    observer.observe(canvas, { box: 'device-pixel-content-box' });
  } catch {
    observer.observe(canvas);
  }
  watchPixelRatio(() => onResize());
}

// A ratio change alone (zoom, a window moved to another screen, an emulated ratio) need not
// resize the observed box, and may land after the observer's last call: a media query on the
// current ratio fires once when it stops matching, and is then re-armed for the new ratio.
function watchPixelRatio(onChange) {
  const query = matchMedia(`(resolution: ${window.devicePixelRatio || 1}dppx)`);
  query.addEventListener('change', () => {
    onChange();
    watchPixelRatio(onChange);
  }, { once: true });
}
