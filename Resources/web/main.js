// Wires the page together: the room's events into the scene, the scene onto the canvas once per
// animation frame, pointer, keys and buttons back to the server. Everything lives in `start`'s
// closure; the only global is the read-only `window.stackweb` hook (debug-hook.js) at the end.

import { commandFor } from './actions.js';
import { setUpAddCode } from './add-code.js';
import { AnimationPlayer } from './animation.js';
import { PhotoBackdrop } from './backdrop.js';
import { PointerBatcher, PointerSequence, createOrderedSender, pointerBody } from './batcher.js';
import { canvasSize, watchCanvasSize } from './canvas-size.js';
import { CoarseCanvas } from './coarse.js';
import { eventsURL, fetchServerFacts, postJSON } from './connection.js';
import { createCommandSender } from './commands.js';
import { attachControls, createToast, createUndoOffer } from './controls.js';
import { createDebugHook, pageState } from './debug-hook.js';
import { FrameMeter, RenderProbe, withSyntheticCards } from './debug.js';
import { followFolderNote } from './folder-note.js';
import { createFrameLoop } from './frame-loop.js';
import { GradientBackdrop } from './gradient.js';
import { ImageCache } from './images.js';
import { attachKeyboard, attachPointerInput } from './input.js';
import { ACTIVITY_EVENTS, hideIdleCursor, holdWakeLock } from './kiosk.js';
import { failureMessage } from './messages.js';
import { untilNextMinute } from './overlay.js';
import { readParams } from './params.js';
import { attachReview } from './review.js';
import { Renderer } from './render.js';
import {
  addOffsetSample, applyMessage, applySnapshot, cardsAt, emptyScene, estimateOffset, isEmptyRoom,
} from './scene.js';
import { newViewerID, takeToken } from './session.js';
import { leftShape, pointerURL, reportedShape, withShape } from './shape.js';
import { fitStage, toStagePoint } from './stage.js';
import { followSharedEvents } from './shared-events.js';
import { showStatus as showStatusIn } from './status.js';

// The stream usually opens within milliseconds; the badge waits this long before the first open
// so that it does not flash on every page load.
const OFFLINE_GRACE_MS = 1500;
// Commands that act on the front photo: an empty room does not send them.
const NEEDS_A_PHOTO = new Set(['previous', 'next', 'fullscreen', 'flip', 'highlight']);

function start() {
  const canvas = document.getElementById('stage');
  const controls = document.getElementById('controls');
  const statusElements = {
    statusLine: document.getElementById('status'),
    offlineBadge: document.getElementById('offline'),
    presenceLine: document.getElementById('presence'),
    heldNote: document.getElementById('held'),
    emptyNote: document.getElementById('empty'),
    followFolderNote: followFolderNote(document.getElementById('empty-folder'),
      () => fetch('/healthz', { cache: 'no-store' }).then((answer) => answer.json())),
    controls,
  };
  const showToast = createToast(document.getElementById('toast'));
  // Only on the screen whose tap took a photo out (the change names its viewer): undo it for 8 s.
  const offerUndo = createUndoOffer(document.getElementById('undo-offer'), () => sendCommand({ command: 'undo' }));
  // Opaque: every frame paints its backdrop first, and a compositor without a GPU then copies the
  // canvas rather than blending it over the page (and skips the page's background beneath it).
  const ctx = canvas.getContext('2d', { alpha: false });
  const url = new URL(location.href);
  const params = readParams(url);
  const token = takeToken(url, params.token);
  const viewer = newViewerID();
  const api = `/api/rooms/${params.room}`;
  const reducedMotion = matchMedia('(prefers-reduced-motion: reduce)');

  let scene = emptyScene();
  let offsetSamples = [];
  let connected = false;
  let graceOver = false;
  // ?style= asks the room for a style once, when the first snapshot shows which one it has;
  // ?stacked=1 asks for the swipe style with its cards behind faded (and wins over another ?style=).
  let stackedAsked = !params.stacked;
  let styleAsked = params.style === null || params.stacked;
  let wakeLock = params.kiosk ? 'requested' : 'not in kiosk mode';
  let pageVersion = null;
  let stopEvents = null;
  // Opened again for another shape class, until the snapshot laid out for it comes.
  let shapeAsked = false;

  const serverNow = () => Date.now() + estimateOffset(offsetSamples);
  const sendCommand = createCommandSender((command) => postJSON(`${api}/commands`, command, token), {
    showToast, isPlaying: () => scene.playing,
  });
  const batcher = new PointerBatcher();
  const sequence = new PointerSequence();
  // Frame times and what the renderer made, only measured on a page opened with ?debug=1.
  const probe = params.debug ? new RenderProbe() : null;
  const meter = params.debug ? new FrameMeter(probe) : null;
  const renderer = new Renderer({ probe, photoFit: params.fit });
  const coarse = new CoarseCanvas(canvas);
  const images = new ImageCache({
    onReady: (url) => {
      // A cached layer of still cards may show this photo's placeholder or a blurrier variant.
      renderer.invalidate(url);
      renderer.prepare(url, images);
      invalidate();
    },
  });
  // A photo frame's wall is the front photo, blurred and darkened; elsewhere a quiet gradient.
  const backdrop = params.kiosk
    ? new PhotoBackdrop({ images, fallback: new GradientBackdrop(), reducedMotion: () => reducedMotion.matches })
    : new GradientBackdrop();
  const sendPointer = createOrderedSender(
    (events) => postJSON(pointerURL(api, scene.shape), pointerBody(viewer, events, stageScale()), token),
    (error) => {
      console.warn('StackWeb:', error.message);
      // A page opened without the control link on a LAN server can only watch: say so.
      if (error.status === 401 || error.status === 403) showToast(failureMessage({ command: 'pointer' }, error.status));
    },
  );
  const loop = createFrameLoop({
    ctx, renderer, images, backdrop, coarse, meter, params, serverNow,
    // The frame style plays an animated front photo; its next frame is a timer away.
    player: new AnimationPlayer(),
    getScene: () => scene,
    setScene: (next) => {
      scene = next;
    },
    beforeFrame: () => {
      const events = batcher.takeFrame();
      if (events) sendPointer(events);
    },
  });
  const { invalidate, requestFrame } = loop;

  // The clock is drawn again as each minute starts, and only then.
  function tickClock() {
    invalidate();
    setTimeout(tickClock, untilNextMinute(new Date()));
  }

  // The canvas is as many device pixels as it shows (canvas-size.js).
  function layout(deviceWidth, deviceHeight) {
    const size = canvasSize(canvas, deviceWidth, deviceHeight);
    canvas.width = size.width;
    canvas.height = size.height;
    loop.setView({ ...size, fit: null });
    followShape();
    invalidate();
  }

  function showStatus() {
    showStatusIn(statusElements, scene, { offline: !connected && graceOver, viewer });
  }

  function onMessage(type, data, receivedAt) {
    if (typeof data.serverTime === 'number') {
      offsetSamples = addOffsetSample(offsetSamples, data.serverTime - receivedAt);
    }
    const known = scene.cards;
    scene = applyMessage(scene, type, data, { reducedMotion: reducedMotion.matches });
    images.reserve(scene.cards.size);
    // Cards new to the page, and cards sent a new motion (one coming among the drawn ones as a
    // step, a flick or a style switch begins; the swipe's next card going to the front slot), get
    // the sprites the next frame would make now, between frames. Not those a drag moves: they
    // change size in every message, and a frame draws them from a sprite of a size close by.
    if (type === 'change') {
      const now = serverNow();
      const moved = new Set((data.cards ?? []).filter((card) => card.anim).map((card) => card.id));
      renderer.prepareCards(cardsAt(scene, now).filter(({ card }) => moved.has(card.id) || !known.has(card.id)),
        images, scene.style);
    }
    if (type === 'change' && data.removedBy?.includes(viewer)) offerUndo();
    if (type === 'snapshot') shapeAsked = false;
    if (type === 'snapshot' && !styleAsked) {
      styleAsked = true;
      if (scene.style !== params.style) sendCommand({ command: 'style', style: params.style });
    }
    if (type === 'snapshot' && !stackedAsked) {
      stackedAsked = true;
      if (scene.style !== 'swipe' || scene.stacked !== true) {
        sendCommand({ command: 'style', style: 'swipe', stacked: true });
      }
    }
    showStatus();
    invalidate();
  }

  function onStatus(isOpen) {
    connected = isOpen;
    if (!isOpen) graceOver = true;
    showStatus();
  }

  // The stream is laid out for the window's shape class; a resize within the class changes only
  // the fit, one out of it opens the stream again (a fresh snapshot for the new class).
  function follow() {
    stopEvents?.();
    const url = withShape(eventsURL(api, pageVersion), reportedShape(innerWidth, innerHeight));
    stopEvents = followSharedEvents(url, { onMessage, onStatus, onReload: () => location.reload() });
  }

  // A page kept in the back/forward cache lets go of its stream (a browser has six connections to
  // a server, and a cached page's stream would hold one), and takes it up again when shown.
  function followWhileShown() {
    let resume = false;
    addEventListener('pagehide', () => {
      resume = stopEvents !== null;
      stopEvents?.();
      stopEvents = null;
    });
    addEventListener('pageshow', (event) => {
      if (event.persisted && resume) follow();
    });
  }

  function followShape() {
    if (!stopEvents || shapeAsked || !leftShape(scene.shape, innerWidth, innerHeight)) return;
    shapeAsked = true;
    follow();
  }

  // CSS pixels per stage point, as the stage is fitted into the canvas now.
  function stageScale() {
    const rect = canvas.getBoundingClientRect();
    return fitStage(rect.width, rect.height, scene.stage?.w, scene.stage?.h).scale;
  }

  function toStage(clientX, clientY) {
    const rect = canvas.getBoundingClientRect();
    const fit = fitStage(rect.width, rect.height, scene.stage?.w, scene.stage?.h);
    return toStagePoint(fit, clientX - rect.left, clientY - rect.top);
  }

  function onSample(sample) {
    const due = batcher.add(sequence.stamp(sample));
    if (due) sendPointer(due);
    else requestFrame();
  }

  function onAction({ action, style }) {
    if (action === 'add-code') {
      addCode.toggle();
      return;
    }
    const command = commandFor(action, scene, style);
    if (!command) return;
    // An empty room says what to do in the middle of the screen; a step there would only be refused.
    if (isEmptyRoom(scene) && NEEDS_A_PHOTO.has(command.command)) return;
    sendCommand(command);
  }

  function startKiosk() {
    document.documentElement.classList.add('kiosk');
    controls.hidden = true;
    hideIdleCursor(window, document.documentElement);
    holdWakeLock(navigator.wakeLock, document, (state) => {
      wakeLock = state;
    });
  }

  window.stackweb = createDebugHook({
    state: () => pageState(scene, serverNow(), {
      room: params.room, viewer, connected, coarse: coarse.shown, kiosk: params.kiosk, wakeLock,
      reducedMotion: reducedMotion.matches,
    }),
    drawnFrames: () => loop.drawnFrames,
    debug: params.debug,
    probe,
    meter,
    scheduled: loop.scheduled,
    addSyntheticCards: (count) => {
      const { added, withThem } = withSyntheticCards(scene, count);
      scene = withThem;
      images.reserve(scene.cards.size);
      invalidate();
      return added;
    },
    showScene: (snapshot) => {
      scene = applySnapshot(scene, snapshot, { reducedMotion: reducedMotion.matches });
      showStatus();
      invalidate();
    },
  });

  layout();
  watchCanvasSize(canvas, layout);
  attachPointerInput(canvas, { toStage, onSample });
  const addCode = setUpAddCode(document, params.room, {
    corner: params.qr, button: controls.querySelector('[data-action="add-code"]'),
  });
  attachKeyboard(window, onAction);
  attachControls(controls, onAction, { isFaded: () => document.documentElement.classList.contains('controls-idle') });
  if (params.kiosk) startKiosk();
  // The controls and the status line fade after 3 s without input and come back at the next
  // move, key or touch: a photo shown as large as the stage allows is then never under them.
  else hideIdleCursor(window, document.documentElement, { className: 'controls-idle', events: ACTIVITY_EVENTS });
  // A screen that holds the control token is where guests' photos are reviewed (a wall never is).
  if (!params.kiosk && token) attachReview({ controls, api, token, onNote: showToast });
  if (params.clock) setTimeout(tickClock, untilNextMinute(new Date()));
  setTimeout(() => {
    graceOver = true;
    showStatus();
  }, OFFLINE_GRACE_MS);
  showStatus();
  followWhileShown();
  fetchServerFacts().then((facts) => {
    pageVersion = facts.pageVersion;
    // A page without the control token on a server that needs one only watches: its URL's
    // ?style= and ?stacked=1 are the control page's to set (docs/photo-frame.md), not asked here.
    if (facts.controlNeedsToken && !token) {
      if (!styleAsked || !stackedAsked) console.info('StackWeb: ?style= needs the control link here; watching only');
      styleAsked = true;
      stackedAsked = true;
    }
    follow();
  });
}

start();
