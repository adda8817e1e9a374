// editor.js: tiltfx serve's preset editor (index.html). The preset's files in tabs, compiled by the server's real
// GL compiler (/edit, docs/serve.md) as you type, errors at their lines, and a WebGL2 preview driven by /motion.
//
// Keyboard: Ctrl+Enter compiles, Ctrl+S saves, Alt+1…9 switch tabs, Escape leaves the code area (Tab then moves on).
// With ?test=1 the page runs its own checks and publishes the result as the Promise `window.tiltTest` (the Chromium
// tests read it over the DevTools protocol); ?bench=SECONDS measures the motion latency and the compile round trip.

import { connect } from "./tilt.js";
import { Preview, stillFrame } from "./preview.js";

const params = new URLSearchParams(location.search);
const token = params.get("token") || "";
const $ = (id) => document.getElementById(id);

/** The editor's state: the open preset, its files (edited text), the current tab, the last errors. */
const state = {
  preset: null,
  files: {},
  saved: {},
  tab: null,
  errors: [],
  frame: null,
  frames: 0,
  program: null,
  compileSeq: 0,
  lastCompile: null,
};

// ---- /edit ------------------------------------------------------------------------------------------------------

/** The /edit WebSocket, with a queue of requests waiting for their answers (answered in order). */
class EditChannel {
  constructor(url) {
    this.url = url;
    this.waiting = [];
    this.ready = this._open();
  }
  _open() {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(`${this.url}?token=${encodeURIComponent(token)}`);
      this.socket = socket;
      socket.onopen = () => resolve();
      socket.onerror = () => reject(new Error("cannot open /edit (is tiltfx serve running, and the token right?)"));
      socket.onmessage = (event) => {
        let message;
        try {
          message = JSON.parse(event.data);
        } catch {
          return;
        }
        const next = this.waiting.shift();
        if (next) next(message);
      };
      socket.onclose = (event) => {
        setStatus(`editor connection closed (${event.code} ${event.reason || ""}); reload the page`, "bad");
        for (const w of this.waiting.splice(0)) w({ class: "error", message: "connection closed" });
      };
    });
  }
  /** Sends `command` and resolves with its answer. */
  async request(command) {
    await this.ready;
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      this.socket.send(JSON.stringify(command));
    });
  }
}

const wsBase = `${location.protocol === "https:" ? "wss:" : "ws:"}//${location.host}`;
const edit = new EditChannel(`${wsBase}/edit`);

// ---- status line ------------------------------------------------------------------------------------------------

function setStatus(text, kind = "") {
  const el = $("status-text");
  el.textContent = text;
  el.className = kind;
}

// ---- code area with gutter --------------------------------------------------------------------------------------

const code = $("code");
const gutter = $("gutter");
const lineMessage = $("line-message");

function lineHeight() {
  return parseFloat(getComputedStyle(code).lineHeight) || 18;
}

/** Redraws the gutter: one number per line, error lines marked (`.error`, `data-line`, the message as title). */
function renderGutter() {
  const count = code.value.split("\n").length;
  const errorsHere = state.errors.filter((e) => e.file === state.tab && e.line > 0);
  const byLine = new Map(errorsHere.map((e) => [e.line, e]));
  const fragment = document.createDocumentFragment();
  for (let n = 1; n <= count; n++) {
    const div = document.createElement("div");
    div.textContent = String(n);
    div.dataset.line = String(n);
    const error = byLine.get(n);
    if (error) {
      div.className = "error";
      div.title = error.message;
      div.setAttribute("aria-label", `line ${n}: ${error.message}`);
    }
    fragment.appendChild(div);
  }
  gutter.replaceChildren(fragment);
  gutter.scrollTop = code.scrollTop;
  placeLineMessage();
}

/** Shows the first error of this file under its line, inside the code area. */
function placeLineMessage() {
  const error = state.errors.find((e) => e.file === state.tab && e.line > 0);
  if (!error) {
    lineMessage.hidden = true;
    return;
  }
  lineMessage.hidden = false;
  lineMessage.dataset.line = String(error.line);
  lineMessage.textContent = `${state.tab}:${error.line}: ${error.message}`;
  const top = error.line * lineHeight() - code.scrollTop + parseFloat(getComputedStyle(code).paddingTop || 0);
  lineMessage.style.top = `${top}px`;
}

code.addEventListener("scroll", () => {
  gutter.scrollTop = code.scrollTop;
  placeLineMessage();
});
code.addEventListener("input", () => {
  if (state.tab) state.files[state.tab] = code.value;
  renderGutter();
  renderTabs();
  scheduleCompile();
});
code.addEventListener("keydown", (event) => {
  if (event.key === "Escape") code.blur();
});

function moveToLine(file, line) {
  if (file !== state.tab && file in state.files) openTab(file);
  const lines = code.value.split("\n");
  const offset = lines.slice(0, Math.max(0, line - 1)).reduce((sum, l) => sum + l.length + 1, 0);
  code.focus();
  code.setSelectionRange(offset, offset + (lines[line - 1] || "").length);
  code.scrollTop = Math.max(0, (line - 5) * lineHeight());
}

// ---- tabs and preset list ---------------------------------------------------------------------------------------

function renderTabs() {
  const tabs = $("tabs");
  tabs.replaceChildren(
    ...Object.keys(state.files).map((name, i) => {
      const b = document.createElement("button");
      b.type = "button";
      b.setAttribute("role", "tab");
      b.setAttribute("aria-selected", String(name === state.tab));
      const dirty = state.files[name] !== state.saved[name] ? " •" : "";
      const bad = state.errors.some((e) => e.file === name) ? " ⚠" : "";
      b.textContent = name + dirty + bad;
      b.title = i < 9 ? `Alt+${i + 1}` : "";
      b.addEventListener("click", () => openTab(name));
      return b;
    }),
  );
}

function openTab(name) {
  state.tab = name;
  code.value = state.files[name] ?? "";
  code.scrollTop = 0;
  renderTabs();
  renderGutter();
}

async function loadList() {
  const answer = await edit.request({ cmd: "list" });
  if (answer.class !== "presets") throw new Error(answer.message || "no preset list");
  const select = $("presets");
  select.replaceChildren(
    ...answer.presets.map((p) => {
      const o = document.createElement("option");
      o.value = p.name;
      o.textContent = p.name;
      o.title = p.description || "";
      return o;
    }),
  );
  return answer.presets;
}

async function openPreset(name) {
  setStatus(`opening ${name}…`);
  const answer = await edit.request({ cmd: "open", preset: name });
  if (answer.class !== "preset") {
    setStatus(`cannot open ${name}: ${answer.message}`, "bad");
    return false;
  }
  state.preset = name;
  state.files = { ...answer.files };
  state.saved = { ...answer.files };
  $("presets").value = name;
  const names = Object.keys(state.files);
  openTab(names.find((n) => n.endsWith(".glsl")) || names[0]);
  showCompiled(answer.program ? { ok: true, program: answer.program } : { ok: false, errors: answer.errors || [] });
  return true;
}

// ---- compile and save -------------------------------------------------------------------------------------------

let compileTimer = null;
function scheduleCompile() {
  clearTimeout(compileTimer);
  compileTimer = setTimeout(compile, 400);
}

/** Sends the edited files to the server's compiler; the preview takes the program when it compiles. */
async function compile() {
  clearTimeout(compileTimer);
  if (!state.preset) return null;
  const seq = ++state.compileSeq;
  const started = performance.now();
  setStatus("compiling…");
  const answer = await edit.request({ cmd: "compile", preset: state.preset, files: state.files });
  const roundTrip = performance.now() - started;
  if (seq !== state.compileSeq) return answer; // a newer edit is on its way
  state.lastCompile = { roundTrip, answer };
  if (answer.class !== "compiled") {
    setStatus(`compile: ${answer.message}`, "bad");
    return answer;
  }
  showCompiled(answer, roundTrip);
  return answer;
}

function showCompiled(answer, roundTrip) {
  const errorList = $("errors");
  if (answer.ok) {
    state.errors = [];
    const result = preview ? preview.load(answer.program) : { ok: true };
    if (result.ok) state.program = answer.program;
    if (!result.ok) {
      // The server's GL accepted it, the browser's did not: show WebGL's own message.
      const where = result.errors.map((e) => `source ${e.source}, line ${e.line}: ${e.message}`).join("\n");
      $("preview-error").textContent = `WebGL ${result.stage} error in pass ${result.pass}:\n${where || result.log}`;
      $("preview-error").hidden = false;
    } else {
      $("preview-error").hidden = true;
    }
    const ms = roundTrip === undefined ? "" : ` in ${roundTrip.toFixed(0)} ms (server ${answer.ms} ms)`;
    const note = answer.program?.shadertoyBuffers ? "; Shadertoy buffers are not drawn in the preview" : "";
    setStatus(`compiled${ms}${note}`, "good");
    errorList.replaceChildren();
  } else {
    state.errors = answer.errors || [];
    setStatus(`${state.errors.length} error${state.errors.length === 1 ? "" : "s"}; the preview keeps the last good program`, "bad");
    errorList.replaceChildren(
      ...state.errors.map((e) => {
        const li = document.createElement("li");
        const b = document.createElement("button");
        b.type = "button";
        b.textContent = `${e.file}:${e.line}${e.column ? ":" + e.column : ""}: ${e.message}`;
        b.addEventListener("click", () => moveToLine(e.file, e.line));
        li.appendChild(b);
        return li;
      }),
    );
  }
  renderTabs();
  renderGutter();
}

async function save() {
  if (!state.preset) return null;
  setStatus("saving…");
  const answer = await edit.request({ cmd: "save", preset: state.preset, files: state.files });
  if (answer.class === "saved" && answer.ok) {
    state.saved = { ...state.files };
    setStatus(`saved ${answer.files.join(", ")}: every tiltfx run of ${state.preset} reloads`, "good");
  } else {
    // Broken code is never written: show where it is broken, and keep saying that nothing was saved.
    if (/compile/.test(answer.message || "")) await compile();
    setStatus(`not saved: ${answer.message}`, "bad");
  }
  renderTabs();
  return answer;
}

$("compile").addEventListener("click", () => compile());
$("save").addEventListener("click", () => save());
$("presets").addEventListener("change", (event) => openPreset(event.target.value));
document.addEventListener("keydown", (event) => {
  if ((event.ctrlKey || event.metaKey) && event.key === "Enter") {
    event.preventDefault();
    compile();
  } else if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "s") {
    event.preventDefault();
    save();
  } else if (event.altKey && /^[1-9]$/.test(event.key)) {
    const name = Object.keys(state.files)[Number(event.key) - 1];
    if (name) {
      event.preventDefault();
      openTab(name);
      code.focus();
    }
  }
});

// ---- preview and motion -----------------------------------------------------------------------------------------

let preview = null;
try {
  preview = new Preview($("preview"), { token });
} catch (e) {
  $("preview-error").textContent = String(e.message || e);
  $("preview-error").hidden = false;
}

const motion = connect({ token, rate: 60 });
motion.on("attitude", (frame) => {
  state.frame = frame;
  state.frames += 1;
});
motion.on("error", (e) => ($("motion").textContent = `motion: ${e.message}`));
motion.on("open", () => ($("motion").textContent = "motion: connected"));
motion.on("close", () => ($("motion").textContent = "motion: disconnected, retrying"));
setInterval(() => {
  if (motion.connected && state.frame) {
    const t = state.frame.tilt || [0, 0];
    $("motion").textContent = `motion: tilt ${t[0].toFixed(3)}, ${t[1].toFixed(3)} rad · ${state.frames} frames`;
  }
}, 500);

// Test mode draws only its own captures; ?draw=0 (bench-web) measures the motion path without the preview.
let drawing = !params.has("test") && params.get("draw") !== "0";
function animate(timestamp) {
  // The attitude for when this frame is on the display (tilt.js carries the newest frame there).
  const frame = motion.attitudeForAnimationFrame(timestamp) || state.frame;
  if (drawing && preview) preview.draw(frame || stillFrame([0, 0]));
  requestAnimationFrame(animate);
}
requestAnimationFrame(animate);

// ---- start ------------------------------------------------------------------------------------------------------

async function start() {
  try {
    const presets = await loadList();
    const wanted = params.get("preset") || presets[0]?.name;
    if (wanted) await openPreset(wanted);
  } catch (e) {
    setStatus(String(e.message || e), "bad");
    throw e;
  }
}

const started = start();

// ---- test and bench modes ---------------------------------------------------------------------------------------

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function until(condition, ms, what) {
  const end = performance.now() + ms;
  while (!condition()) {
    if (performance.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  if (!sorted.length) return null;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Pixel statistics of a capture, and how much two captures differ. */
function distinctColours(pixels) {
  const seen = new Set();
  for (let i = 0; i < pixels.length; i += 4 * 7) {
    seen.add((pixels[i] << 24) | (pixels[i + 1] << 16) | (pixels[i + 2] << 8) | pixels[i + 3]);
    if (seen.size > 1000) break;
  }
  return seen.size;
}
function differingFraction(a, b) {
  let differ = 0;
  for (let i = 0; i < a.length; i += 4) {
    if (Math.abs(a[i] - b[i]) + Math.abs(a[i + 1] - b[i + 1]) + Math.abs(a[i + 2] - b[i + 2]) > 6) differ++;
  }
  return differ / (a.length / 4);
}

async function runTest() {
  await started;
  const result = { preset: state.preset, files: Object.keys(state.files) };
  await until(() => preview && preview.passes.length && preview.texturesReady, 10000, "the program and its textures");
  result.passes = preview.passes.length;
  // Real frames from tiltd: wait for two whose tilts differ clearly (the replay moves).
  const frames = [];
  const off = motion.on("attitude", (f) => frames.push(f));
  const spread = () => {
    if (frames.length < 2) return 0;
    const a = frames[0].tilt;
    return Math.max(...frames.map((f) => Math.hypot(f.tilt[0] - a[0], f.tilt[1] - a[1])));
  };
  await until(() => spread() > 0.05, 30000, "attitude frames from /motion whose tilts differ by 0.05 rad");
  off();
  const first = frames[0];
  const far = frames.reduce((best, f) =>
    Math.hypot(f.tilt[0] - first.tilt[0], f.tilt[1] - first.tilt[1]) >
    Math.hypot(best.tilt[0] - first.tilt[0], best.tilt[1] - first.tilt[1]) ? f : best);
  result.frames = frames.length;
  result.tiltA = first.tilt;
  result.tiltB = far.tilt;
  // The same time for both captures, so only the motion differs; the first capture again shows it is repeatable.
  preview.draw(first, { time: 1 });
  const a = preview.readPixels();
  preview.draw(far, { time: 1 });
  const b = preview.readPixels();
  preview.draw(first, { time: 1 });
  const again = preview.readPixels();
  result.distinctColours = distinctColours(a);
  result.differing = differingFraction(a, b);
  result.repeatDiffering = differingFraction(a, again);
  result.canvas = [preview.canvas.width, preview.canvas.height];

  // ?reference=X,Y,TIME: the frame tiltfx render --tilt X,Y --time TIME draws, as RGBA bytes (rows bottom-up) in
  // base64, for the test to compare with tiltfx's own PNG.
  const reference = params.get("reference");
  if (reference) {
    const [x, y, time] = reference.split(",").map(Number);
    preview.draw(stillFrame([x, y]), { time });
    const pixels = preview.readPixels();
    let binary = "";
    for (let i = 0; i < pixels.length; i += 0x8000) binary += String.fromCharCode(...pixels.subarray(i, i + 0x8000));
    result.reference = btoa(binary);
  }

  // ?webglBreak=1: a program the browser's own compiler refuses (a call to an undefined function in the last pass)
  // is shown under the preview, and the preview keeps drawing the last good one.
  if (params.has("webglBreak")) {
    const good = state.program;
    const last = good.passes.length - 1;
    const passes = good.passes.map((p, i) =>
      i === last ? { ...p, fragment: p.fragment.replace("void main() {", "void main() {\n    tiltUndefined();") } : p);
    showCompiled({ ok: true, program: { ...good, passes }, ms: 0 });
    result.previewError = $("preview-error").hidden ? null : $("preview-error").textContent;
    preview.draw(first, { time: 1 });
    result.afterWebGLError = differingFraction(a, preview.readPixels());
  }

  // A broken line pushed to the server: its error comes back and is marked at that line.
  const broken = params.get("break");
  if (broken) {
    const [file, lineText] = broken.split(":");
    const line = Number(lineText);
    openTab(file);
    const lines = code.value.split("\n");
    lines.splice(line - 1, 0, "this is not GLSL;");
    code.value = lines.join("\n");
    code.dispatchEvent(new Event("input")); // as typing does: the debounced compile follows
    const before = state.compileSeq;
    await until(() => state.compileSeq > before && state.lastCompile && !state.lastCompile.answer.ok, 15000,
      "the broken shader's compile answer");
    result.brokenErrors = state.lastCompile.answer.errors;
    result.markedLines = [...gutter.querySelectorAll(".error")].map((e) => Number(e.dataset.line));
    result.lineMessage = lineMessage.hidden ? null : lineMessage.textContent;
    result.statusText = $("status-text").textContent;
  }
  return result;
}

async function runBench(seconds) {
  await started;
  const offset = params.has("clock") ? Number(params.get("clock")) : null;
  await until(() => offset !== null || motion.clockOffset !== null, 5000, "a clock offset (?clock= or a clock message)");
  const latencies = [];
  const off = motion.on("attitude", (f) => {
    if (typeof f.mono !== "number") return;
    const o = offset ?? motion.clockOffset;
    latencies.push((f.receivedWall - (f.mono + o)) * 1000);
  });
  await sleep(seconds * 1000);
  off();
  const compiles = [];
  for (let i = 0; i < 10; i++) {
    const t0 = performance.now();
    const answer = await edit.request({ cmd: "compile", preset: state.preset, files: state.files });
    if (answer.class === "compiled" && answer.ok) compiles.push(performance.now() - t0);
  }
  return {
    frames: latencies.length,
    clockFrom: offset !== null ? "url" : "server",
    latencyP50: percentile(latencies, 50),
    latencyP99: percentile(latencies, 99),
    compiles: compiles.length,
    compileP50: percentile(compiles, 50),
  };
}

if (params.has("test")) {
  window.tiltTest = runTest();
  window.tiltTest.catch((e) => setStatus(`test failed: ${e.message}`, "bad"));
} else if (params.has("bench")) {
  window.tiltTest = runBench(Number(params.get("bench")) || 5);
}
