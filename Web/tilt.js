// tilt.js: motion from tiltd for web pages, through `tiltfx serve`'s /motion WebSocket.
//
//   import { connect, installDeviceOrientationShim } from "/tilt.js";
//   const tilt = connect({ rate: 60 });                 // token from this page's ?token=…
//   tilt.on("attitude", (frame) => console.log(frame.tilt));
//   installDeviceOrientationShim(tilt);                 // existing pages get `deviceorientation` events
//
// Messages are those of tiltd's wire protocol (docs/protocol.md): hello, attitude, sensor, power, status, error.
// Units as in docs/coordinates.md: radians, seconds, quaternions [w, x, y, z] rotating device → earth (ENU).

/**
 * Euler angles of the W3C DeviceOrientation convention, in degrees, from an attitude quaternion.
 *
 * The quaternion rotates the device frame (x right, y top, z out of the screen) into the earth frame (x east,
 * y north, z up), as tiltd's `quaternion` does; DeviceOrientation uses the same two frames and writes that rotation
 * as R = Rz(alpha) · Rx(beta) · Ry(gamma) (intrinsic Z-X'-Y'').
 *
 * @param {number[]} q the attitude `[w, x, y, z]` (normalised here).
 * @returns {{alpha: number, beta: number, gamma: number}} alpha in [0, 360), beta in [-180, 180), gamma in
 *   [-90, 90).
 */
export function orientationAngles(q) {
  let [w, x, y, z] = q;
  const n = Math.hypot(w, x, y, z) || 1;
  w /= n; x /= n; y /= n; z /= n;
  // The rows of R that the decomposition needs: R = [[r00 r01 r02] [r10 r11 r12] [r20 r21 r22]].
  const r00 = 1 - 2 * (y * y + z * z), r01 = 2 * (x * y - w * z);
  const r10 = 2 * (x * y + w * z), r11 = 1 - 2 * (x * x + z * z);
  const r20 = 2 * (x * z - w * y), r21 = 2 * (y * z + w * x), r22 = 1 - 2 * (x * x + y * y);
  // Rz(a)Rx(b)Ry(g) has r01 = -cos b sin a, r11 = cos a cos b, r21 = sin b, r20 = -cos b sin g, r22 = cos b cos g.
  // gamma stays within ±90°, so cos g ≥ 0 and the sign of r22 is the sign of cos b.
  let alpha, beta, gamma;
  const sinB = Math.max(-1, Math.min(1, r21));
  if (Math.abs(r22) > 1e-12 || Math.abs(r20) > 1e-12) {
    const flip = r22 < 0 || (r22 === 0 && r20 < 0) ? -1 : 1; // sign of cos b
    gamma = Math.atan2(-r20 * flip, r22 * flip);
    beta = Math.asin(sinB);
    if (flip < 0) beta = (beta >= 0 ? Math.PI : -Math.PI) - beta;
    alpha = Math.atan2(-r01 * flip, r11 * flip);
  } else {
    // cos b = 0: the screen stands upright facing the horizon; alpha and gamma share one turn, gamma is set to 0.
    gamma = 0;
    beta = sinB > 0 ? Math.PI / 2 : -Math.PI / 2;
    alpha = Math.atan2(r10, r00);
  }
  if (gamma >= Math.PI / 2) gamma -= Math.PI; // the exact edge: fold into [-90, 90)
  const deg = 180 / Math.PI;
  let a = alpha * deg;
  a = ((a % 360) + 360) % 360;
  let b = beta * deg;
  if (b >= 180) b -= 360;
  return { alpha: a === 360 ? 0 : a, beta: b + 0, gamma: gamma * deg + 0 };
}

/** The largest lead over a frame's sample that tilt.js predicts, seconds (tiltd's own limit for `predict`). */
export const MAX_PREDICT = 0.1;
const GRAVITY = 9.80665;

function quatMultiply(a, b) {
  return [
    a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3],
    a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
    a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1],
    a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0],
  ];
}

/** `v` (in a picture turned `degrees` counter-clockwise) in the device's axes, and back. */
function deviceAxes(v, degrees) {
  switch (degrees) {
    case 90: return [-v[1], v[0], v[2]];
    case 180: return [-v[0], -v[1], v[2]];
    case 270: return [v[1], -v[0], v[2]];
    default: return v;
  }
}
function pictureAxes(v, degrees) {
  switch (degrees) {
    case 90: return [v[1], -v[0], v[2]];
    case 180: return [-v[0], -v[1], v[2]];
    case 270: return [-v[1], v[0], v[2]];
    default: return v;
  }
}

/**
 * An attitude frame carried `seconds` further ahead by its rotation rate (constant-rate extrapolation), as tiltd's
 * TiltClient does (`AttitudeFrame.extrapolated`): the quaternion turns by the rate (in the device's axes, whatever
 * the frame's `axes`), `gravity` and `euler` follow it, the tilt moves by the turn through the soft clamp of limit
 * `tiltLimit` (tiltd's `limit`, 0.5 rad by default) so it never passes it, and `predicted` grows by `seconds`. At
 * most {@link MAX_PREDICT} ahead of the sample in all; a frame at rest (`flags.rest`), or `seconds` ≤ 0, is returned
 * as it is.
 * @param {object} frame an `attitude` message.
 * @param {number} seconds how far to carry it.
 * @param {number} [tiltLimit]
 * @returns {object} a new frame (the argument is not changed).
 */
export function extrapolate(frame, seconds, tiltLimit = 0.5) {
  const already = frame.predicted || 0;
  const dt = Math.min(seconds, MAX_PREDICT - already);
  if (!(dt > 0) || frame.flags?.rest || !Array.isArray(frame.quaternion) || !Array.isArray(frame.rotationRate)) {
    return frame;
  }
  const degrees = Number(String(frame.axes || "device").replace("screen-", "")) || 0;
  const turn = deviceAxes(frame.rotationRate, degrees).map((r) => r * dt);
  const angle = Math.hypot(...turn);
  const s = angle > 1e-12 ? Math.sin(angle / 2) / angle : 0.5;
  let q = quatMultiply(frame.quaternion, [Math.cos(angle / 2), turn[0] * s, turn[1] * s, turn[2] * s]);
  const n = Math.hypot(...q) || 1;
  q = q.map((c) => c / n);
  const [w, x, y, z] = q;
  // Earth's down in the device frame: -g times the third row of the attitude's matrix.
  const down = [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)].map((c) => -GRAVITY * c);
  const carried = (value, by) => {
    if (!(tiltLimit > 0)) return value;
    const ratio = Math.max(-0.999999, Math.min(0.999999, value / tiltLimit));
    return tiltLimit * Math.tanh(Math.atanh(ratio) + by / tiltLimit);
  };
  const tilt = frame.tilt || [0, 0];
  const moved = frame.rotationRate.map((r) => r * dt);
  return {
    ...frame,
    quaternion: q,
    euler: {
      roll: Math.atan2(2 * (w * x + y * z), 1 - 2 * (x * x + y * y)),
      pitch: Math.asin(Math.max(-1, Math.min(1, 2 * (w * y - z * x)))),
      yaw: Math.atan2(2 * (w * z + x * y), 1 - 2 * (y * y + z * z)),
    },
    gravity: pictureAxes(down, degrees),
    tilt: [carried(tilt[0], moved[0]), carried(tilt[1], moved[1])],
    predicted: already + dt,
  };
}

/** The page's token: `?token=…` in its own address. */
function pageToken() {
  return typeof location === "undefined" ? "" : new URLSearchParams(location.search).get("token") || "";
}

/** The /motion address on the page's own server. */
function defaultURL() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}/motion`;
}

/**
 * A connection to tiltd through `tiltfx serve`. Made by {@link connect}.
 */
export class TiltConnection {
  /**
   * @param {{url?: string, token?: string, rate?: number, raw?: boolean, predict?: "auto"|"off"|number,
   *   WebSocket?: Function}} options `predict` (default "auto"): how {@link TiltConnection#attitudeForAnimationFrame}
   *   predicts; a number asks tiltd for frames predicted that many seconds ahead (0 to 0.1).
   */
  constructor(options = {}) {
    this.url = options.url || defaultURL();
    this.token = options.token ?? pageToken();
    this.rate = options.rate ?? 60;
    this.raw = !!options.raw;
    this.predict = options.predict ?? "auto";
    /** Seconds ahead tiltd is asked to predict (`watch`'s `predict`). */
    this.asked = typeof this.predict === "number" ? Math.max(0, Math.min(MAX_PREDICT, this.predict)) : 0;
    /** The display's refresh period as the animation frames' times show it, seconds. */
    this.refreshPeriod = 1 / 60;
    /** The smoothed time from a frame's sample to its display, seconds, as `auto` measures it. */
    this.sampleToDisplay = null;
    this._lastAnimationTime = null;
    /** The last message of each class (`hello`, `attitude`, `sensor`, `power`, `status`, `clock`, `error`). */
    this.latest = {};
    /**
     * Seconds to add to a frame's `mono` (tiltd's CLOCK_MONOTONIC) to get wall-clock seconds, when the server sent a
     * `clock` message; `null` otherwise.
     */
    this.clockOffset = null;
    this._listeners = new Map();
    this._statusWaiters = [];
    this._closed = false;
    this._backoff = 250;
    this._WebSocket = options.WebSocket || globalThis.WebSocket;
    this._open();
  }

  /**
   * Calls `f(message)` for every message of `kind`: "attitude", "sensor", "power", "hello", "status", "clock",
   * "error", or "open" / "close" for the connection itself ("*" for every message).
   * @returns {() => void} a function that removes the listener.
   */
  on(kind, f) {
    if (!this._listeners.has(kind)) this._listeners.set(kind, new Set());
    this._listeners.get(kind).add(f);
    return () => this._listeners.get(kind).delete(f);
  }

  /** Sends one command object (docs/protocol.md); dropped while disconnected. */
  send(command) {
    if (this._socket && this._socket.readyState === 1) this._socket.send(JSON.stringify(command));
  }

  /** Changes the rate of attitude frames (Hz). */
  watch(rate = this.rate) {
    this.rate = rate;
    this.send({ cmd: "watch", rate, raw: this.raw || undefined, predict: this.asked > 0 ? this.asked : undefined });
  }

  /**
   * When the newest frame's sample was taken, on the page's wall clock (seconds): its `mono` carried over with the
   * server's `clock` message, else when it arrived.
   */
  sampleWallTime(frame = this.latest.attitude) {
    if (!frame) return null;
    if (this.clockOffset !== null && typeof frame.mono === "number") return frame.mono + this.clockOffset;
    return frame.receivedWall ?? null;
  }

  /**
   * The attitude at `wallSeconds` (the page's wall clock, `(performance.timeOrigin + performance.now()) / 1000`):
   * the newest frame, which stands for its sample's time plus its `predicted`, carried the rest of the way by its
   * rate ({@link extrapolate}). With `predict: "off"`, the newest frame as it is. `null` before the first frame.
   */
  attitudeAt(wallSeconds) {
    const frame = this.latest.attitude;
    if (!frame || this.predict === "off") return frame ?? null;
    const sampled = this.sampleWallTime(frame);
    if (sampled === null) return frame;
    return extrapolate(frame, wallSeconds - (sampled + (frame.predicted || 0)));
  }

  /**
   * The attitude for the animation frame whose `requestAnimationFrame` time is `timestamp` (ms): for when it will
   * be on the display, one refresh after the frame's start (the refresh period measured from the animation frames
   * themselves). With `predict: "auto"` it also asks tiltd to predict most of the way (the sample-to-display time
   * measured so far, in 5 ms steps), so the tilt is smoothed after the prediction. `null` before the first frame.
   */
  attitudeForAnimationFrame(timestamp) {
    if (this._lastAnimationTime !== null) {
      const step = (timestamp - this._lastAnimationTime) / 1000;
      if (step > 0.002 && step < 0.1) this.refreshPeriod += (step - this.refreshPeriod) * 0.1;
    }
    this._lastAnimationTime = timestamp;
    const shown = (performance.timeOrigin + timestamp) / 1000 + this.refreshPeriod;
    const frame = this.latest.attitude;
    const sampled = this.sampleWallTime(frame);
    if (this.predict === "auto" && sampled !== null) {
      const age = shown - sampled;
      if (age >= 0 && age < 1) {
        this.sampleToDisplay = this.sampleToDisplay === null ? age : this.sampleToDisplay + (age - this.sampleToDisplay) * 0.1;
        const wanted = Math.min(MAX_PREDICT, Math.round(this.sampleToDisplay / 0.005) * 0.005);
        if (Math.abs(wanted - this.asked) >= 0.005) {
          this.asked = wanted;
          this.watch();
        }
      }
    }
    return this.attitudeAt(shown);
  }

  /** @returns {Promise<object>} the daemon's next `status` answer. */
  status() {
    return new Promise((resolve, reject) => {
      this._statusWaiters.push({ resolve, reject });
      this.send({ cmd: "status" });
    });
  }

  /** Whether the socket is open now. */
  get connected() {
    return !!this._socket && this._socket.readyState === 1;
  }

  /** Closes the connection for good (no reconnecting). */
  close() {
    this._closed = true;
    clearTimeout(this._retry);
    if (this._socket) this._socket.close(1000, "closed by the page");
    for (const w of this._statusWaiters.splice(0)) w.reject(new Error("tilt: connection closed"));
  }

  _emit(kind, value) {
    for (const key of [kind, "*"]) {
      const set = this._listeners.get(key);
      if (!set) continue;
      for (const f of [...set]) {
        try {
          f(value);
        } catch (e) {
          console.error("tilt.js listener failed:", e);
        }
      }
    }
  }

  _open() {
    const sep = this.url.includes("?") ? "&" : "?";
    const url = this.token ? `${this.url}${sep}token=${encodeURIComponent(this.token)}` : this.url;
    const socket = new this._WebSocket(url);
    this._socket = socket;
    socket.onopen = () => {
      this._backoff = 250;
      this.watch();
      this._emit("open", { url: this.url });
    };
    socket.onmessage = (event) => this._receive(event.data);
    socket.onclose = (event) => {
      this._emit("close", { code: event.code, reason: event.reason });
      if (this._closed) return;
      // Back off 0.25 s, 0.5 s … up to 10 s between attempts; a daemon that restarts is picked up again.
      this._retry = setTimeout(() => this._open(), this._backoff);
      this._backoff = Math.min(this._backoff * 2, 10000);
    };
  }

  _receive(text) {
    const receivedWall = (performance.timeOrigin + performance.now()) / 1000;
    let message;
    try {
      message = JSON.parse(text);
    } catch {
      this._emit("error", { class: "error", message: `tilt.js: not JSON: ${String(text).slice(0, 80)}` });
      return;
    }
    const kind = typeof message.class === "string" ? message.class : "unknown";
    if (kind === "clock" && typeof message.mono === "number" && typeof message.wall === "number") {
      this.clockOffset = message.wall - message.mono;
    }
    if (kind === "attitude") message.receivedWall = receivedWall;
    if (kind === "status") this._statusWaiters.shift()?.resolve(message);
    this.latest[kind] = message;
    this._emit(kind, message);
  }
}

/**
 * Opens the /motion WebSocket of the page's own `tiltfx serve` and starts watching.
 * @param {{url?: string, token?: string, rate?: number, raw?: boolean}} [options] `url` defaults to
 *   `ws://HOST/motion` of this page, `token` to this page's `?token=`, `rate` to 60 Hz.
 * @returns {TiltConnection}
 */
export function connect(options = {}) {
  return new TiltConnection(options);
}

/**
 * Makes `tilt`'s attitude frames into standard `deviceorientation` events on `window`, so pages written for phones
 * tilt unchanged: `alpha`, `beta`, `gamma` in degrees (see {@link orientationAngles}); `absolute` is true when the
 * daemon has a magnetometer (a heading fixed to north) and false when the heading is free; with a magnetometer a
 * `deviceorientationabsolute` event follows each one. (A browser without sensors may itself fire one event with
 * null angles when a listener is added; pages that run on phones already ignore it.)
 * @param {TiltConnection} [tilt] a connection; one is opened with {@link connect} when none is given.
 * @param {{target?: EventTarget}} [options] where to dispatch (default `window`).
 * @returns {() => void} a function that stops the events.
 */
export function installDeviceOrientationShim(tilt = connect(), options = {}) {
  const target = options.target || window;
  return tilt.on("attitude", (frame) => {
    if (!Array.isArray(frame.quaternion)) return;
    const angles = orientationAngles(frame.quaternion);
    const sensors = tilt.latest.hello?.sensors || [];
    const absolute = sensors.some((s) => (s.kinds || []).includes("magn"));
    target.dispatchEvent(new DeviceOrientationEvent("deviceorientation", { ...angles, absolute }));
    // Chromium's pages also listen for the absolute variant when they want a compass heading.
    if (absolute) target.dispatchEvent(new DeviceOrientationEvent("deviceorientationabsolute", { ...angles, absolute }));
  });
}
