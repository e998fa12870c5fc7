// Fitting the room's stage (in points) into the viewport (in CSS pixels): contain, centred.

/**
 * How the stage maps into a view of `viewW`×`viewH` CSS pixels: view = offset + stage·scale.
 * Degenerate sizes (a hidden window, no snapshot yet) map one to one rather than dividing by zero.
 */
export function fitStage(viewW, viewH, stageW, stageH) {
  if (!(viewW > 0 && viewH > 0 && stageW > 0 && stageH > 0)) return { scale: 1, x: 0, y: 0 };
  const scale = Math.min(viewW / stageW, viewH / stageH);
  return { scale, x: (viewW - stageW * scale) / 2, y: (viewH - stageH * scale) / 2 };
}

/** A point in view CSS pixels as stage points. */
export function toStagePoint(fit, viewX, viewY) {
  return { x: (viewX - fit.x) / fit.scale, y: (viewY - fit.y) / fit.scale };
}

/** A point in stage points as view CSS pixels. */
export function toViewPoint(fit, stageX, stageY) {
  return { x: fit.x + stageX * fit.scale, y: fit.y + stageY * fit.scale };
}
