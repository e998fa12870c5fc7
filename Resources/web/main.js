// Wires the page together: the room's events into the scene, the scene onto the canvas once per
// animation frame, pointer and keys back to the server. Everything lives in `start`'s closure.

import { PointerBatcher, createOrderedSender, pointerBody } from './batcher.js';
import { followEvents, postJSON } from './connection.js';
import { ImageCache } from './images.js';
import { attachKeyboard, attachPointerInput } from './input.js';
import { drawFrame, makeBackground } from './render.js';
import {
  addOffsetSample, anyAnimating, applyMessage, cardsAt, emptyScene, estimateOffset, isAnimating, settle,
} from './scene.js';
import { fitStage, toStagePoint } from './stage.js';

const ROOM_PATTERN = /^[a-z0-9][a-z0-9_-]{0,63}$/;
const TOKEN_KEY = 'stackweb.token';
// The stream usually opens within milliseconds; the badge waits this long before the first open
// so that it does not flash on every page load.
const OFFLINE_GRACE_MS = 1500;

function readRoom(url) {
  const room = url.searchParams.get('room');
  return room && ROOM_PATTERN.test(room) ? room : 'main';
}

// A control token arrives once in the URL. It is kept for this browser and taken out of the
// address bar, so that it does not end up in history, bookmarks or a shared link.
function takeToken(url) {
  const fromURL = url.searchParams.get('token');
  if (fromURL === null) return localStorage.getItem(TOKEN_KEY);
  localStorage.setItem(TOKEN_KEY, fromURL);
  url.searchParams.delete('token');
  history.replaceState(history.state, '', url);
  return fromURL;
}

function newViewerID() {
  const bytes = crypto.getRandomValues(new Uint8Array(4));
  return `v-${[...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}

function statusText(scene) {
  if (scene.seq < 0) return 'Connecting…';
  if (scene.count === 0) return 'No photos';
  return `Photo ${scene.current + 1} of ${scene.count}`;
}

function warn(error) {
  console.warn('StackWeb:', error.message);
}

function start() {
  const canvas = document.getElementById('stage');
  const statusLine = document.getElementById('status');
  const offlineBadge = document.getElementById('offline');
  const ctx = canvas.getContext('2d');
  const url = new URL(location.href);
  const room = readRoom(url);
  const token = takeToken(url);
  const viewer = newViewerID();
  const api = `/api/rooms/${room}`;

  let scene = emptyScene();
  let offsetSamples = [];
  let connected = false;
  let graceOver = false;
  let view = null;
  let dirty = true;
  let frameRequested = false;
  let drawnFrames = 0;

  const serverNow = () => Date.now() + estimateOffset(offsetSamples);
  const batcher = new PointerBatcher();
  const images = new ImageCache({ onReady: invalidate });
  const sendPointer = createOrderedSender(
    (events) => postJSON(`${api}/pointer`, pointerBody(viewer, events), token), warn,
  );

  function invalidate() {
    dirty = true;
    requestFrame();
  }

  // Frames are requested only when there is something to do (a message, a decoded photo, a
  // resize, an animation, pointer samples to send), so an idle page does no work at all.
  function requestFrame() {
    if (frameRequested) return;
    frameRequested = true;
    requestAnimationFrame(frame);
  }

  function frame() {
    frameRequested = false;
    const events = batcher.takeFrame();
    if (events) sendPointer(events);
    const now = serverNow();
    const settled = settle(scene, now);
    if (settled !== scene) {
      scene = settled;
      dirty = true;
    }
    const animating = anyAnimating(scene, now);
    if (!dirty && !animating) return;
    dirty = false;
    draw(now);
    if (animating) requestFrame();
  }

  function draw(now) {
    view.fit = fitStage(view.cssWidth, view.cssHeight, scene.stage?.w, scene.stage?.h);
    drawFrame(ctx, view, cardsAt(scene, now), images);
    drawnFrames += 1;
  }

  function layout() {
    const dpr = window.devicePixelRatio || 1;
    const cssWidth = canvas.clientWidth;
    const cssHeight = canvas.clientHeight;
    canvas.width = Math.round(cssWidth * dpr);
    canvas.height = Math.round(cssHeight * dpr);
    view = {
      width: canvas.width, height: canvas.height, dpr, cssWidth, cssHeight, fit: null,
      background: makeBackground(ctx, canvas.width, canvas.height),
    };
    invalidate();
  }

  function showStatus() {
    const text = statusText(scene);
    if (statusLine.textContent !== text) statusLine.textContent = text;
    offlineBadge.hidden = connected || !graceOver;
  }

  function onMessage(type, data, receivedAt) {
    offsetSamples = addOffsetSample(offsetSamples, data.serverTime - receivedAt);
    scene = applyMessage(scene, type, data);
    showStatus();
    invalidate();
  }

  function onStatus(isOpen) {
    connected = isOpen;
    if (!isOpen) graceOver = true;
    showStatus();
  }

  function toStage(clientX, clientY) {
    const rect = canvas.getBoundingClientRect();
    const fit = fitStage(rect.width, rect.height, scene.stage?.w, scene.stage?.h);
    return toStagePoint(fit, clientX - rect.left, clientY - rect.top);
  }

  function onSample(sample) {
    const due = batcher.add(sample);
    if (due) sendPointer(due);
    else requestFrame();
  }

  function sendCommand(command) {
    postJSON(`${api}/commands`, command, token).catch(warn);
  }

  // What the end-to-end tests read: copies, so the hook cannot change the page.
  function debugState() {
    const now = serverNow();
    const cards = cardsAt(scene, now)
      .map(({ card, transform }) => ({
        id: card.id, photo: card.photo, src: card.src, position: card.position, z: card.z,
        highlight: card.highlight, animating: isAnimating(card, now), ...transform,
      }))
      .sort((a, b) => a.position - b.position);
    const { seq, style, count, current, playing } = scene;
    const stage = scene.stage ? { ...scene.stage } : null;
    return { room, viewer, connected, seq, style, stage, count, current, playing, cards };
  }

  window.stackweb = Object.freeze({
    state: debugState,
    get drawnFrames() {
      return drawnFrames;
    },
  });

  layout();
  window.addEventListener('resize', layout);
  attachPointerInput(canvas, { toStage, onSample });
  attachKeyboard(window, sendCommand);
  setTimeout(() => {
    graceOver = true;
    showStatus();
  }, OFFLINE_GRACE_MS);
  followEvents(`${api}/events`, { onMessage, onStatus });
}

start();
