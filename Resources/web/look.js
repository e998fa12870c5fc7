// How a card looks in each style. The server places the cards; how their edges, corners and
// shadows look is the page's, keyed off the room's `style`. Lengths are stage points.

const LOOKS = Object.freeze({
  // PhotoStackView: a 5 pt white border and a soft shadow on square prints (DESIGN.md).
  pile: Object.freeze({ border: 5, radius: 0, shadow: Object.freeze({ blur: 16, offsetY: 4 }) }),
  // Collection-view tiles are small (120 and 60 pt): a thinner border, a tighter shadow.
  angles: Object.freeze({ border: 3, radius: 0, shadow: Object.freeze({ blur: 8, offsetY: 2 }) }),
  grid: Object.freeze({ border: 2, radius: 0, shadow: Object.freeze({ blur: 4, offsetY: 1 }) }),
  // The deck and swipe seeds clip their cards with a 10 pt corner radius. Their cards are portrait
  // whatever the photo: a photo the card would crop hard is fitted whole, on the card's paper.
  deck: Object.freeze({ border: 4, radius: 10, shadow: Object.freeze({ blur: 16, offsetY: 4 }), fit: 'contain' }),
  swipe: Object.freeze({ border: 4, radius: 10, shadow: Object.freeze({ blur: 12, offsetY: 3 }), fit: 'contain' }),
  // A photo frame: the photo alone, edge to edge, lifted off the wall by a wide soft shadow. A photo
  // too small to be enlarged to its card, or with transparent parts, lies on a dark mat, not on a
  // glaring white sheet the height of the wall (paint.js draws it at most twice its own pixels).
  frame: Object.freeze({ border: 0, radius: 0, shadow: Object.freeze({ blur: 24, offsetY: 6 }), paper: '#141414' }),
});

/**
 * How far the eye is from a card's plane, in stage points, when the card turns about its vertical
 * axis: the deck seed's perspective (CATransform3D m34 = −1/1000), used for every style's flip.
 */
export const PERSPECTIVE_DISTANCE = 1000;

const COVERED = new Map(Object.entries(LOOKS).map(([name, look]) => [name, Object.freeze({ ...look, fit: 'cover' })]));

/**
 * The look of `style`; an unknown or missing style looks like the pile. `photoFit` 'cover'
 * (`?fit=cover`) crops every photo to its card, as the deck and swipe did before they fitted it.
 */
export function lookFor(style, photoFit = null) {
  const name = LOOKS[style] ? style : 'pile';
  return photoFit === 'cover' ? COVERED.get(name) : LOOKS[name];
}
