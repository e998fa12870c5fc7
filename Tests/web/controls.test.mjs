// The controls' behaviour with fake elements: faded controls are inert, the undo offer.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { UNDO_OFFER_MS, attachControls, createUndoOffer } from '../../Resources/web/controls.js';

/** An element that keeps its listeners and dispatches events to them. */
class FakeElement {
  hidden = false;
  #listeners = new Map();
  #children = [];

  constructor(dataset = {}) {
    this.dataset = dataset;
  }

  addEventListener(type, listener) {
    this.#listeners.set(type, [...(this.#listeners.get(type) ?? []), listener]);
  }

  dispatch(type, event = {}) {
    const full = { detail: 1, prevented: false, preventDefault() { this.prevented = true; }, ...event };
    for (const listener of this.#listeners.get(type) ?? []) listener(full);
    return full;
  }

  append(child) {
    this.#children.push(child);
    return child;
  }

  contains(element) {
    return element === this || this.#children.includes(element);
  }

  querySelector() {
    return this.#children[0];
  }

  closest() {
    return this.dataset.action ? this : null;
  }
}

describe('attachControls', () => {
  function bar(faded) {
    const root = new FakeElement();
    const next = root.append(new FakeElement({ action: 'next' }));
    const actions = [];
    attachControls(root, (action) => actions.push(action), { isFaded: () => faded.now });
    // A press then its click, as a finger or a mouse makes them on `next`.
    const press = () => {
      root.dispatch('pointerdown', { target: next });
      faded.now = false; // the window's activity listener shows the controls
      return root.dispatch('click', { target: next });
    };
    return { root, next, actions, press };
  }

  test('a press on faded controls only shows them: its click does nothing', () => {
    const faded = { now: true };
    const { actions, press } = bar(faded);
    const click = press();
    assert.deepEqual(actions, []);
    assert.equal(click.prevented, true);
    // Shown now: the next press works.
    press();
    assert.deepEqual(actions, [{ action: 'next', style: undefined }]);
  });

  test('shown controls act at once, and a key on a focused button always acts', () => {
    const faded = { now: false };
    const { root, next, actions, press } = bar(faded);
    press();
    faded.now = true;
    root.dispatch('pointerdown', { target: next });
    root.dispatch('click', { target: next, detail: 0 });
    root.dispatch('click', { target: next, detail: 0 });
    assert.equal(actions.length, 3);
  });
});

describe('createUndoOffer', () => {
  function offerWithClock() {
    const element = new FakeElement();
    element.hidden = true;
    const button = element.append(new FakeElement());
    const timers = [];
    const undos = [];
    const offer = createUndoOffer(element, () => undos.push('undo'), {
      setTimer: (callback, ms) => timers.push({ callback, ms, cleared: false }) - 1,
      clearTimer: (id) => {
        if (timers[id]) timers[id].cleared = true;
      },
    });
    const elapse = () => timers.filter((timer) => !timer.cleared).forEach((timer) => timer.callback());
    return { element, button, timers, undos, offer, elapse };
  }

  test('shows "Photo removed · Undo" for 8 s', () => {
    const { element, timers, offer, elapse } = offerWithClock();
    offer();
    assert.equal(element.hidden, false);
    assert.equal(UNDO_OFFER_MS, 8000);
    assert.equal(timers.at(-1).ms, 8000);
    elapse();
    assert.equal(element.hidden, true);
  });

  test('Undo undoes once and the offer goes; a newer removal offers again for the full time', () => {
    const { element, button, undos, offer, timers } = offerWithClock();
    offer();
    offer();
    assert.equal(timers.filter((timer) => !timer.cleared).length, 1, 'one timer: the newest');
    button.dispatch('click');
    button.dispatch('click');
    assert.deepEqual(undos, ['undo']);
    assert.equal(element.hidden, true);
  });
});
