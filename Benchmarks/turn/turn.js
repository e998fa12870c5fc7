// Two measurements of one photo-sized card (the pile's card at 1920×1080: 893×670 device pixels,
// its shadow around it) on an opaque 1920×1080 canvas:
// - draws: the time one draw takes, rasterising included (a one-pixel read forces it), for each way
//   of drawing the card, round-robin so that the machine's load falls on all of them alike;
// - frames: the requestAnimationFrame deltas of a loop that repaints the backdrop and the card,
//   turning a little more each frame, drawn by the canvas, by the compositor (a CSS-turned layer)
//   or by WebGL (SwiftShader without a GPU), against the same loop moving the card straight.
const CARD = { w: 893, h: 670, pad: 20 };
const TURN = (3 * Math.PI) / 180;
const ROUNDS = 30;
const FRAMES = 180;

function cardSprite() {
  const canvas = new OffscreenCanvas(CARD.w + 2 * CARD.pad, CARD.h + 2 * CARD.pad);
  const ctx = canvas.getContext('2d');
  ctx.shadowColor = 'rgba(0, 0, 0, 0.5)';
  ctx.shadowBlur = 16;
  ctx.fillStyle = '#fff';
  ctx.fillRect(CARD.pad, CARD.pad, CARD.w, CARD.h);
  ctx.shadowColor = 'transparent';
  // A busy picture: flat colour would let a blitter skip nothing, but reads as no photo at all.
  for (let i = 0; i < 600; i += 1) {
    ctx.fillStyle = `hsl(${(i * 37) % 360}, 60%, ${30 + (i % 50)}%)`;
    ctx.fillRect(CARD.pad + 8 + ((i * 53) % (CARD.w - 56)), CARD.pad + 8 + ((i * 97) % (CARD.h - 46)), 48, 38);
  }
  return canvas.transferToImageBitmap();
}

function backdrop() {
  const canvas = new OffscreenCanvas(1920, 1080);
  const ctx = canvas.getContext('2d');
  const gradient = ctx.createRadialGradient(960, 486, 0, 960, 486, 1320);
  gradient.addColorStop(0, '#4a4f57');
  gradient.addColorStop(1, '#15171b');
  ctx.fillStyle = gradient;
  ctx.fillRect(0, 0, 1920, 1080);
  return canvas.transferToImageBitmap();
}

function turned(ctx, angle, x, y) {
  ctx.setTransform(Math.cos(angle), Math.sin(angle), -Math.sin(angle), Math.cos(angle), x, y);
}

// Whole-pixel runs of equal shift along n lines, each line i shifted by round(k·(i + ½ − n/2)).
function runs(n, k) {
  const out = [];
  let start = 0;
  let shift = Math.round(k * (0.5 - n / 2));
  for (let i = 1; i <= n; i += 1) {
    const next = i < n ? Math.round(k * (i + 0.5 - n / 2)) : NaN;
    if (next !== shift) {
      out.push([start, i, shift]);
      start = i;
      shift = next;
    }
  }
  return out;
}

// A turn as three shears (x, y, x), each drawn as straight strips: copies, not resampling.
function shearCanvases(sprite, angle) {
  const a = -Math.tan(angle / 2);
  const b = Math.sin(angle);
  const w = sprite.width;
  const h = sprite.height;
  const w1 = Math.ceil(w + Math.abs(a) * h) + 2;
  const h2 = Math.ceil(h + Math.abs(b) * w1) + 2;
  return { a, b, w1, h2, first: new OffscreenCanvas(w1, h), second: new OffscreenCanvas(w1, h2) };
}

function drawSheared(ctx, sprite, scratch, x, y) {
  const { a, b, w1, h2, first, second } = scratch;
  const w = sprite.width;
  const h = sprite.height;
  const one = first.getContext('2d');
  one.clearRect(0, 0, w1, h);
  const left = Math.round((w1 - w) / 2);
  for (const [y0, y1, k] of runs(h, a)) one.drawImage(sprite, 0, y0, w, y1 - y0, left + k, y0, w, y1 - y0);
  const two = second.getContext('2d');
  two.clearRect(0, 0, w1, h2);
  const top = Math.round((h2 - h) / 2);
  for (const [x0, x1, k] of runs(w1, b)) two.drawImage(first, x0, 0, x1 - x0, h, x0, top + k, x1 - x0, h);
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  const ox = Math.round(x - w1 / 2);
  const oy = Math.round(y - h2 / 2);
  for (const [y0, y1, k] of runs(h2, a)) ctx.drawImage(second, 0, y0, w1, y1 - y0, ox + k, oy + y0, w1, y1 - y0);
}

// A turn by script: nearest-neighbour, one 32-bit pixel at a time, then put and copied straight.
function drawByScript(ctx, pixels, sprite, angle, x, y, state) {
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  const sw = sprite.width;
  const sh = sprite.height;
  const bw = Math.ceil(Math.abs(sw * cos) + Math.abs(sh * sin)) + 2;
  const bh = Math.ceil(Math.abs(sw * sin) + Math.abs(sh * cos)) + 2;
  if (!state.image || state.image.width !== bw || state.image.height !== bh) {
    state.image = new ImageData(bw, bh);
    state.canvas = new OffscreenCanvas(bw, bh);
  }
  const out = new Uint32Array(state.image.data.buffer);
  for (let row = 0; row < bh; row += 1) {
    const dy = row + 0.5 - bh / 2;
    const dx = 0.5 - bw / 2;
    let u = cos * dx + sin * dy + sw / 2;
    let v = -sin * dx + cos * dy + sh / 2;
    const base = row * bw;
    for (let i = base; i < base + bw; i += 1) {
      out[i] = u >= 0 && u < sw && v >= 0 && v < sh ? pixels[(v | 0) * sw + (u | 0)] : 0;
      u += cos;
      v -= sin;
    }
  }
  state.canvas.getContext('2d').putImageData(state.image, 0, 0);
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.drawImage(state.canvas, Math.round(x - bw / 2), Math.round(y - bh / 2));
}

function percentiles(values) {
  const sorted = [...values].sort((p, q) => p - q);
  const at = (p) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
  return { n: sorted.length, p50: at(50), p90: at(90), p99: at(99), max: sorted[sorted.length - 1] };
}

function measureDraws(sprite, pixels) {
  const out = new OffscreenCanvas(1920, 1080).getContext('2d', { alpha: false });
  out.fillStyle = '#234';
  out.fillRect(0, 0, 1920, 1080);
  const scratch = shearCanvases(sprite, TURN);
  const script = {};
  const ways = {
    'straight copy': () => { out.setTransform(1, 0, 0, 1, 0, 0); out.drawImage(sprite, 500, 180); },
    'scaled 0.95, filtered': () => { out.setTransform(0.95, 0, 0, 0.95, 500.3, 180.3); out.drawImage(sprite, 0, 0); },
    'turned 3°, filtered': () => {
      turned(out, TURN, 960.3, 540.3);
      out.drawImage(sprite, -sprite.width / 2, -sprite.height / 2);
    },
    'turned 3°, unfiltered': () => {
      turned(out, TURN, 960.3, 540.3);
      out.imageSmoothingEnabled = false;
      out.drawImage(sprite, -sprite.width / 2, -sprite.height / 2);
      out.imageSmoothingEnabled = true;
    },
    'turned 3°, three shears of straight strips': () => drawSheared(out, sprite, scratch, 960.3, 540.3),
    'turned 3°, by script (typed arrays) and copied': () => drawByScript(out, pixels, sprite, TURN, 960.3, 540.3, script),
  };
  const times = Object.fromEntries(Object.keys(ways).map((name) => [name, []]));
  for (let round = 0; round < ROUNDS + 2; round += 1) {
    for (const [name, draw] of Object.entries(ways)) {
      out.getImageData(0, 0, 1, 1);
      const started = performance.now();
      draw();
      out.getImageData(0, 0, 1, 1);
      // The first two rounds warm caches and compile: not counted.
      if (round >= 2) times[name].push(performance.now() - started);
    }
  }
  return Object.fromEntries(Object.entries(times).map(([name, list]) => [name, percentiles(list)]));
}

function nextFrames(count, step) {
  return new Promise((resolve) => {
    const deltas = [];
    let last = 0;
    const tick = (now) => {
      if (last) deltas.push(now - last);
      last = now;
      step(now);
      if (deltas.length < count) requestAnimationFrame(tick);
      else resolve(deltas);
    };
    requestAnimationFrame(tick);
  });
}

// Where the card is at `now` in every loop: swinging ±6° about its place, sliding ±120 px.
function pose(now) {
  return { angle: (Math.sin(now / 300) * 6 * Math.PI) / 180, x: 960 + Math.sin(now / 500) * 120, y: 540 };
}

async function canvasLoop(stage, sprite, wall, turn) {
  return nextFrames(FRAMES, (now) => {
    const { angle, x, y } = pose(now);
    stage.setTransform(1, 0, 0, 1, 0, 0);
    stage.globalCompositeOperation = 'copy';
    stage.drawImage(wall, 0, 0);
    stage.globalCompositeOperation = 'source-over';
    if (turn) {
      turned(stage, angle, x, y);
      stage.imageSmoothingEnabled = false;
      stage.drawImage(sprite, -sprite.width / 2, -sprite.height / 2);
      stage.imageSmoothingEnabled = true;
    } else {
      stage.drawImage(sprite, Math.round(x - sprite.width / 2), Math.round(y - sprite.height / 2));
    }
  });
}

async function layerLoop(stage, sprite, wall) {
  stage.setTransform(1, 0, 0, 1, 0, 0);
  stage.drawImage(wall, 0, 0);
  const layer = document.createElement('canvas');
  layer.width = sprite.width;
  layer.height = sprite.height;
  layer.style.cssText = 'position:absolute;left:0;top:0;will-change:transform;transform-origin:50% 50%';
  layer.getContext('2d').drawImage(sprite, 0, 0);
  document.body.appendChild(layer);
  const deltas = await nextFrames(FRAMES, (now) => {
    const { angle, x, y } = pose(now);
    layer.style.transform = `translate(${x - sprite.width / 2}px, ${y - sprite.height / 2}px) rotate(${angle}rad)`;
  });
  layer.remove();
  return deltas;
}

const VERTEX = `attribute vec2 p; uniform mat3 m; varying vec2 uv;
void main() { uv = p; vec3 d = m * vec3(p, 1.0); gl_Position = vec4(d.x / 960.0 - 1.0, 1.0 - d.y / 540.0, 0.0, 1.0); }`;
const FRAGMENT = `precision mediump float; varying vec2 uv; uniform sampler2D t;
void main() { gl_FragColor = texture2D(t, uv); }`;

async function webglLoop(sprite, wall) {
  const canvas = document.createElement('canvas');
  canvas.width = 1920;
  canvas.height = 1080;
  canvas.style.cssText = 'position:absolute;left:0;top:0';
  document.body.appendChild(canvas);
  const gl = canvas.getContext('webgl', { alpha: false, antialias: false });
  if (!gl) {
    canvas.remove();
    return null;
  }
  const program = gl.createProgram();
  for (const [type, source] of [[gl.VERTEX_SHADER, VERTEX], [gl.FRAGMENT_SHADER, FRAGMENT]]) {
    const shader = gl.createShader(type);
    gl.shaderSource(shader, source);
    gl.compileShader(shader);
    gl.attachShader(program, shader);
  }
  gl.linkProgram(program);
  gl.useProgram(program);
  gl.bindBuffer(gl.ARRAY_BUFFER, gl.createBuffer());
  gl.bufferData(gl.ARRAY_BUFFER, new Float32Array([0, 0, 1, 0, 0, 1, 1, 1]), gl.STATIC_DRAW);
  const at = gl.getAttribLocation(program, 'p');
  gl.enableVertexAttribArray(at);
  gl.vertexAttribPointer(at, 2, gl.FLOAT, false, 0, 0);
  const matrix = gl.getUniformLocation(program, 'm');
  gl.pixelStorei(gl.UNPACK_PREMULTIPLY_ALPHA_WEBGL, true);
  const texture = (image) => {
    const made = gl.createTexture();
    gl.bindTexture(gl.TEXTURE_2D, made);
    gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA, gl.RGBA, gl.UNSIGNED_BYTE, image);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.LINEAR);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE);
    return made;
  };
  const wallTexture = texture(wall);
  const cardTexture = texture(sprite);
  gl.enable(gl.BLEND);
  gl.blendFunc(gl.ONE, gl.ONE_MINUS_SRC_ALPHA);
  const quad = (made, w, h, angle, x, y) => {
    const c = Math.cos(angle);
    const s = Math.sin(angle);
    gl.uniformMatrix3fv(matrix, false, [c * w, s * w, 0, -s * h, c * h, 0,
      x - (c * w - s * h) / 2, y - (s * w + c * h) / 2, 1]);
    gl.bindTexture(gl.TEXTURE_2D, made);
    gl.drawArrays(gl.TRIANGLE_STRIP, 0, 4);
  };
  const deltas = await nextFrames(FRAMES, (now) => {
    const { angle, x, y } = pose(now);
    quad(wallTexture, 1920, 1080, 0, 960, 540);
    quad(cardTexture, sprite.width, sprite.height, angle, x, y);
  });
  const info = gl.getExtension('WEBGL_debug_renderer_info');
  const renderer = info ? gl.getParameter(info.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER);
  canvas.remove();
  return { deltas, renderer };
}

function frameStats(deltas) {
  // A frame shown twice or more: its delta is two vsyncs or longer (20 ms at 60 Hz, with slack).
  return { ...percentiles(deltas), doubled: deltas.filter((delta) => delta > 20).length };
}

async function measureFrames(sprite, wall) {
  const stage = document.getElementById('stage').getContext('2d', { alpha: false });
  const frames = { 'canvas, card straight': [], 'canvas, card turned': [], 'CSS-turned layer': [], 'WebGL': [] };
  let renderer = null;
  // Alternating, twice each: the machine's load moves under all of them alike.
  for (let pass = 0; pass < 2; pass += 1) {
    frames['canvas, card straight'].push(...await canvasLoop(stage, sprite, wall, false));
    frames['canvas, card turned'].push(...await canvasLoop(stage, sprite, wall, true));
    frames['CSS-turned layer'].push(...await layerLoop(stage, sprite, wall));
    const gl = await webglLoop(sprite, wall);
    if (gl) {
      frames.WebGL.push(...gl.deltas);
      renderer = gl.renderer;
    }
  }
  if (!frames.WebGL.length) delete frames.WebGL;
  return { renderer, loops: Object.fromEntries(Object.entries(frames).map(([name, list]) => [name, frameStats(list)])) };
}

async function main() {
  const sprite = cardSprite();
  const wall = backdrop();
  const pixelsCanvas = new OffscreenCanvas(sprite.width, sprite.height);
  const pixelsContext = pixelsCanvas.getContext('2d');
  pixelsContext.drawImage(sprite, 0, 0);
  const pixels = new Uint32Array(pixelsContext.getImageData(0, 0, sprite.width, sprite.height).data.buffer);
  const draws = measureDraws(sprite, pixels);
  const frames = await measureFrames(sprite, wall);
  window.turnResults = { card: { ...CARD, pixels: sprite.width * sprite.height }, draws, ...frames };
}

main().catch((error) => { window.turnResults = { error: String(error?.stack ?? error) }; });
