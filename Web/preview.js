// preview.js: draws a PROGRAM from `tiltfx serve`'s /edit (docs/serve.md) with WebGL2, as tiltfx's EffectRenderer
// draws it: the passes in order, each into its own (padded) texture, the last to the canvas, with the same uniforms.

/** Where a WebGL shader error points: a line of an included preset file, or of tilt's own code. */
export function shaderErrors(log) {
  // ANGLE writes "ERROR: S:L: message"; the generator numbers file N's lines from N * 100000 + 1 (#line).
  const errors = [];
  for (const line of String(log).split("\n")) {
    const m = /^(?:ERROR|WARNING):\s*(\d+):(\d+):\s*(.*)$/.exec(line.trim());
    if (!m) continue;
    const raw = Number(m[2]);
    const source = Number(m[1]) || Math.floor(raw / 100000);
    errors.push({ source, line: source ? raw - source * 100000 : raw, message: m[3] });
  }
  return errors;
}

const TEXTURE_UNITS = { layer: 0, previous: 1, blur: 7 };

/**
 * Sets one built-in uniform from its value (an array of numbers) by its GLSL type.
 * @param {WebGL2RenderingContext} gl
 * @param {WebGLUniformLocation | null} location
 * @param {string} type `float`, `int`, `vec2`, `vec3` or `vec4`
 * @param {number[]} value
 */
function setBuiltin(gl, location, type, value) {
  const v = value || [0, 0, 0, 0];
  switch (type) {
    case "int":
      gl.uniform1i(location, v[0]);
      break;
    case "float":
      gl.uniform1f(location, v[0]);
      break;
    case "vec2":
      gl.uniform2f(location, v[0], v[1]);
      break;
    case "vec3":
      gl.uniform3f(location, v[0], v[1], v[2]);
      break;
    case "vec4":
      gl.uniform4f(location, v[0], v[1], v[2], v[3]);
      break;
  }
}

/**
 * The motion of a still frame at `tilt` (radians), as `tiltfx render --tilt X,Y` makes it: the attitude is the turn by
 * the rotation vector (x, y, 0) from lying flat, gravity follows it, no rotation rate.
 * @returns {{tilt: number[], quaternion: number[], gravity: number[], euler: object, rotationRate: number[]}}
 */
export function stillFrame(tilt) {
  const [tx, ty] = tilt;
  const angle = Math.hypot(tx, ty);
  const s = angle > 0 ? Math.sin(angle / 2) / angle : 0.5;
  const w = Math.cos(angle / 2), x = tx * s, y = ty * s, z = 0;
  const g = 9.80665;
  // Earth's down (0, 0, -g) in the device frame: the transpose of the attitude's matrix, i.e. minus g times its
  // last row.
  const gravity = [-g * 2 * (x * z - w * y), -g * 2 * (y * z + w * x), -g * (1 - 2 * (x * x + y * y))];
  const euler = {
    roll: Math.atan2(2 * (w * x + y * z), 1 - 2 * (x * x + y * y)),
    pitch: Math.asin(Math.max(-1, Math.min(1, 2 * (w * y - z * x)))),
    yaw: Math.atan2(2 * (w * z + x * y), 1 - 2 * (y * y + z * z)),
  };
  return { tilt: [tx, ty], quaternion: [w, x, y, z], gravity, euler, rotationRate: [0, 0, 0] };
}

/** A WebGL2 preview of one PROGRAM. */
export class Preview {
  /**
   * @param {HTMLCanvasElement} canvas
   * @param {{token?: string}} [options] the token for the preset texture URLs.
   */
  constructor(canvas, options = {}) {
    this.canvas = canvas;
    this.token = options.token || "";
    const gl = canvas.getContext("webgl2", { premultipliedAlpha: true, preserveDrawingBuffer: true });
    if (!gl) throw new Error("this browser has no WebGL2");
    this.gl = gl;
    this.vertexArray = gl.createVertexArray();
    this.program = null;
    this.passes = [];
    this.textures = [];
    this.targets = [];
    this.size = [0, 0];
    this.pingPong = 0;
    this.frame = 0;
    this.start = performance.now();
    this.lastTime = 0;
    this.white = this._texture(1, 1, new Uint8Array([255, 255, 255, 255]));
    this.black = this._texture(1, 1, new Uint8Array([0, 0, 0, 0]));
  }

  /**
   * Compiles and links every pass of `program`. On failure nothing changes (the last good program keeps drawing).
   * @returns {{ok: true} | {ok: false, pass: number, stage: string, log: string, errors: object[]}}
   */
  load(program) {
    const gl = this.gl;
    const linked = [];
    for (const [i, pass] of program.passes.entries()) {
      const result = this._link(pass.vertex, pass.fragment);
      if (!result.ok) {
        for (const p of linked) gl.deleteProgram(p.id);
        return { ...result, pass: i, errors: shaderErrors(result.log) };
      }
      linked.push({ ...pass, id: result.id, locations: new Map() });
    }
    for (const p of this.passes) gl.deleteProgram(p.id);
    for (const t of this.textures) if (t.id !== this.white) gl.deleteTexture(t.id);
    this.passes = linked;
    this.program = program;
    this.textures = (program.textures || []).map((t) => this._namedTexture(t));
    this.size = [0, 0]; // new targets on the next frame
    return { ok: true };
  }

  _link(vertex, fragment) {
    const gl = this.gl;
    const shaders = [];
    for (const [type, source, stage] of [
      [gl.VERTEX_SHADER, vertex, "vertex"],
      [gl.FRAGMENT_SHADER, fragment, "fragment"],
    ]) {
      const s = gl.createShader(type);
      gl.shaderSource(s, source);
      gl.compileShader(s);
      if (!gl.getShaderParameter(s, gl.COMPILE_STATUS)) {
        const log = gl.getShaderInfoLog(s) || "compile failed";
        gl.deleteShader(s);
        for (const t of shaders) gl.deleteShader(t);
        return { ok: false, stage, log };
      }
      shaders.push(s);
    }
    const id = gl.createProgram();
    for (const s of shaders) gl.attachShader(id, s);
    gl.linkProgram(id);
    for (const s of shaders) gl.deleteShader(s);
    if (!gl.getProgramParameter(id, gl.LINK_STATUS)) {
      const log = gl.getProgramInfoLog(id) || "link failed";
      gl.deleteProgram(id);
      return { ok: false, stage: "link", log };
    }
    return { ok: true, id };
  }

  _texture(width, height, pixels) {
    const gl = this.gl;
    const id = gl.createTexture();
    gl.bindTexture(gl.TEXTURE_2D, id);
    gl.texImage2D(gl.TEXTURE_2D, 0, gl.RGBA8, width, height, 0, gl.RGBA, gl.UNSIGNED_BYTE, pixels);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.LINEAR);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.LINEAR);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, gl.CLAMP_TO_EDGE);
    gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, gl.CLAMP_TO_EDGE);
    return id;
  }

  /** A preset texture: white until its file has loaded, then sRGB-decoded and premultiplied as tiltfx uploads it. */
  _namedTexture(t) {
    const gl = this.gl;
    const entry = { ...t, id: this.white };
    const wrap = { clamp: gl.CLAMP_TO_EDGE, repeat: gl.REPEAT, mirror: gl.MIRRORED_REPEAT }[t.wrap] || gl.CLAMP_TO_EDGE;
    const setSampling = () => {
      const mipmap = t.filter === "mipmap";
      const min = t.filter === "nearest" ? gl.NEAREST : mipmap ? gl.LINEAR_MIPMAP_LINEAR : gl.LINEAR;
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, min);
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, t.filter === "nearest" ? gl.NEAREST : gl.LINEAR);
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_S, wrap);
      gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_WRAP_T, wrap);
      if (mipmap) gl.generateMipmap(gl.TEXTURE_2D);
    };
    if (!t.url) {
      entry.id = this._texture(1, 1, new Uint8Array(t.texel || [255, 255, 255, 255]));
      gl.bindTexture(gl.TEXTURE_2D, entry.id);
      setSampling();
      return entry;
    }
    const sep = t.url.includes("?") ? "&" : "?";
    const image = new Image();
    image.onload = () => {
      const id = gl.createTexture();
      gl.bindTexture(gl.TEXTURE_2D, id);
      gl.pixelStorei(gl.UNPACK_PREMULTIPLY_ALPHA_WEBGL, true);
      gl.texImage2D(gl.TEXTURE_2D, 0, gl.SRGB8_ALPHA8, gl.RGBA, gl.UNSIGNED_BYTE, image);
      gl.pixelStorei(gl.UNPACK_PREMULTIPLY_ALPHA_WEBGL, false);
      setSampling();
      entry.id = id;
      entry.loaded = true;
    };
    image.onerror = () => (entry.failed = true);
    image.src = `${t.url}${sep}token=${encodeURIComponent(this.token)}`;
    return entry;
  }

  /** Whether every texture file has loaded (or failed). */
  get texturesReady() {
    return this.textures.every((t) => !t.url || t.loaded || t.failed);
  }

  _makeTargets(width, height) {
    const gl = this.gl;
    for (const list of this.targets) for (const t of list) {
      gl.deleteFramebuffer(t.framebuffer);
      gl.deleteTexture(t.texture);
    }
    this.targets = this.passes.map((pass, i) => {
      if (i === this.passes.length - 1) return [];
      const [px, py] = pass.padding || [0, 0];
      const w = width + 2 * px, h = height + 2 * py;
      const count = pass.stateful ? 2 : 1;
      return Array.from({ length: count }, () => {
        const texture = this._texture(w, h, null);
        const framebuffer = gl.createFramebuffer();
        gl.bindFramebuffer(gl.FRAMEBUFFER, framebuffer);
        gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, texture, 0);
        gl.clearColor(0, 0, 0, 0);
        gl.clear(gl.COLOR_BUFFER_BIT);
        return { texture, framebuffer, width: w, height: h };
      });
    });
    this.size = [width, height];
  }

  /**
   * Draws one frame.
   * @param {{tilt?: number[], gravity?: number[], quaternion?: number[], euler?: object, rotationRate?: number[]}}
   *   [frame] the latest attitude frame (tiltd's message); lying flat when none.
   * @param {{time?: number, pointer?: number[]}} [options] `time` (s) overrides the clock (tests); `pointer` (pixels,
   *   origin top-left) defaults to the centre, as in tiltfx without a pointer.
   */
  draw(frame = stillFrame([0, 0]), options = {}) {
    if (!this.passes.length) return;
    const gl = this.gl;
    const width = this.canvas.width, height = this.canvas.height;
    if (this.size[0] !== width || this.size[1] !== height) this._makeTargets(width, height);
    const time = options.time ?? (performance.now() - this.start) / 1000;
    const delta = this.frame === 0 ? 0 : Math.max(0, time - this.lastTime);
    this.lastTime = time;
    const tilt = frame.tilt || [0, 0];
    const gravity = frame.gravity || [0, 0, -9.80665];
    const [qw, qx, qy, qz] = frame.quaternion || [1, 0, 0, 0];
    const euler = frame.euler || {};
    const rate = frame.rotationRate || [0, 0, 0];
    const pointer = options.pointer || [width / 2, height / 2]; // tiltfx's pointer without a mouse: the centre
    // The frame's inputs, by the names the built-in uniforms' `source` gives (tiltfx's FrameInputs).
    const inputs = {
      time: [time],
      timeDelta: [delta],
      frame: [this.frame],
      resolution: [width, height, 1],
      // No button is down in the preview: Shadertoy's iMouse.zw is then the position negated.
      mouse: [pointer[0], height - pointer[1], -pointer[0], -(height - pointer[1])],
      pointer,
      tilt,
      gravity,
      attitude: [qx, qy, qz, qw],
      euler: [euler.roll || 0, euler.pitch || 0, euler.yaw || 0],
      rotationRate: rate,
    };
    const builtins = (this.program && this.program.builtins) || [];
    const now = new Date();
    const midnight = now.getHours() * 3600 + now.getMinutes() * 60 + now.getSeconds() + now.getMilliseconds() / 1000;

    gl.bindVertexArray(this.vertexArray);
    gl.disable(gl.BLEND);
    gl.disable(gl.DEPTH_TEST);
    let previous = null;
    for (const [i, pass] of this.passes.entries()) {
      const last = i === this.passes.length - 1;
      const target = last ? null : this.targets[i][pass.stateful ? this.pingPong : 0];
      const w = target ? target.width : width, h = target ? target.height : height;
      gl.bindFramebuffer(gl.FRAMEBUFFER, target ? target.framebuffer : null);
      gl.viewport(0, 0, w, h);
      gl.useProgram(pass.id);
      const at = (name) => {
        if (!pass.locations.has(name)) pass.locations.set(name, gl.getUniformLocation(pass.id, name));
        return pass.locations.get(name);
      };
      // The built-in uniforms: tiltfx's table (the program's `builtins`), each set from the input it names.
      for (const builtin of builtins) setBuiltin(gl, at(builtin.name), builtin.type, inputs[builtin.source]);
      gl.uniform4f(at("iDate"), now.getFullYear(), now.getMonth(), now.getDate(), midnight);
      gl.uniform1f(at("iFrameRate"), delta > 0 ? 1 / delta : 60);
      gl.uniform1f(at("iSampleRate"), 44100);
      gl.uniform2f(at("tilt_targetSize"), w, h);
      const [px, py] = pass.padding || [0, 0];
      gl.uniform2f(at("tilt_targetPadding"), px, py);
      gl.uniform4f(at("tilt_pictureRect"), 0, 0, 0, 0);
      // Shadertoy channels the preview does not feed sample transparent black, as unused channels do in tiltfx.
      for (let c = 0; c < 4; c++) {
        gl.activeTexture(gl.TEXTURE3 + c);
        gl.bindTexture(gl.TEXTURE_2D, this.black);
        gl.uniform1i(at(`iChannel${c}`), 3 + c);
      }
      gl.activeTexture(gl.TEXTURE2);
      gl.bindTexture(gl.TEXTURE_2D, this.black);
      gl.uniform1i(at("tilt_pictureCanvas"), 2);
      gl.uniform1i(at("tilt_picture"), 2);
      if (previous) {
        gl.activeTexture(gl.TEXTURE0 + TEXTURE_UNITS.layer);
        gl.bindTexture(gl.TEXTURE_2D, previous.target.texture);
        gl.uniform1i(at("tilt_layerTexture"), TEXTURE_UNITS.layer);
        gl.uniform2f(at("tilt_layerPadding"), previous.padding[0], previous.padding[1]);
        gl.uniform2f(at("tilt_layerTextureSize"), previous.target.width, previous.target.height);
        // No blur pass here: `sampleLayerBlurred` reads the layer itself (tiltfx blurs it, see docs/serve.md).
        gl.activeTexture(gl.TEXTURE0 + TEXTURE_UNITS.blur);
        gl.bindTexture(gl.TEXTURE_2D, previous.target.texture);
        gl.uniform1i(at("tilt_blurTexture"), TEXTURE_UNITS.blur);
      } else {
        gl.activeTexture(gl.TEXTURE0 + TEXTURE_UNITS.layer);
        gl.bindTexture(gl.TEXTURE_2D, this.black);
        gl.uniform1i(at("tilt_layerTexture"), TEXTURE_UNITS.layer);
      }
      for (const t of this.textures) {
        gl.activeTexture(gl.TEXTURE0 + t.unit);
        gl.bindTexture(gl.TEXTURE_2D, t.id);
        gl.uniform1i(at(t.uniform), t.unit);
      }
      gl.activeTexture(gl.TEXTURE0 + TEXTURE_UNITS.previous);
      if (pass.stateful) {
        gl.bindTexture(gl.TEXTURE_2D, this.targets[i][1 - this.pingPong].texture);
      } else {
        gl.bindTexture(gl.TEXTURE_2D, this.black);
      }
      gl.uniform1i(at("tilt_previousTexture"), TEXTURE_UNITS.previous);
      gl.drawArrays(gl.TRIANGLES, 0, 3);
      if (target) previous = { target, padding: pass.padding || [0, 0] };
    }
    if (this.passes.some((p) => p.stateful)) this.pingPong = 1 - this.pingPong;
    gl.activeTexture(gl.TEXTURE0);
    this.frame += 1;
  }

  /** The canvas's pixels as RGBA bytes, rows bottom-up (call right after `draw`). */
  readPixels() {
    const gl = this.gl;
    const pixels = new Uint8Array(this.canvas.width * this.canvas.height * 4);
    gl.bindFramebuffer(gl.FRAMEBUFFER, null);
    gl.readPixels(0, 0, this.canvas.width, this.canvas.height, gl.RGBA, gl.UNSIGNED_BYTE, pixels);
    return pixels;
  }
}
