// holo-card: a procedural trading card with a holographic foil layer.
// Layout in card space: uv in [0,1]², u to the right, v down; the card is 63:88 like a real one.

const float hcAspect = 63.0 / 88.0;
/// The art window's corners in card uv.
const vec2 hcArtMin = vec2(0.08, 0.125);
const vec2 hcArtMax = vec2(0.92, 0.56);

/// The card's rectangle in pixels: centre and half size, fitted into the layer with a margin; with a picture
/// (`--image`), the picture is the card.
vec4 hcCardRect(vec2 size) {
    // A compile-time switch, not a branch on hasPicture(): a software renderer runs both sides for every pixel.
#ifdef TILT_PICTURE
    return vec4(pictureRect().xy + pictureRect().zw * 0.5, pictureRect().zw * 0.5);
#else
    float h = min(size.y * 0.92, size.x * 0.92 / hcAspect);
    return vec4(size * 0.5, vec2(h * hcAspect, h) * 0.5);
#endif
}

float hcBox(vec2 p, vec2 halfSize, float r) {
    vec2 q = abs(p) - halfSize + r;
    return length(max(q, 0.0)) + min(max(q.x, q.y), 0.0) - r;
}

/// 0.5 + 0.5 cos(2π x) to within 0.01, as a smoothstep of a triangle wave: the foil and sparkles run per pixel every
/// frame, and a software renderer (llvmpipe) spends a range reduction and a polynomial on each sin or cos.
float hcWave(float x) {
    float t = abs(2.0 * fract(x) - 1.0);
    return t * t * (3.0 - 2.0 * t);
}

vec3 hcWave(vec3 x) {
    vec3 t = abs(2.0 * fract(x) - 1.0);
    return t * t * (3.0 - 2.0 * t);
}

float hcHash(vec2 p) {
    p = fract(p * vec2(123.34, 456.21));
    p += dot(p, p + 45.32);
    return fract(p.x * p.y);
}

float hcNoise(vec2 p) {
    vec2 i = floor(p);
    vec2 f = fract(p);
    f = f * f * (3.0 - 2.0 * f);
    return mix(mix(hcHash(i), hcHash(i + vec2(1, 0)), f.x), mix(hcHash(i + vec2(0, 1)), hcHash(i + vec2(1, 1)), f.x), f.y);
}

/// uv of a position on the card, and the signed distance to the card's edge in uv units of the height.
vec3 hcCardUV(vec2 position, vec2 size) {
    vec4 r = hcCardRect(size);
    vec2 local = position - r.xy;
    float d = hcBox(local, r.zw, r.w * 0.06) / (2.0 * r.w);
    return vec3(local / (2.0 * r.zw) + 0.5, d);
}

/// Rows of rounded blocks that read as printed text.
float hcText(vec2 uv, vec2 origin, vec2 extent, float rows, float seed) {
    vec2 q = (uv - origin) / extent;
    if (q.x < 0.0 || q.x > 1.0 || q.y < 0.0 || q.y > 1.0) return 0.0;
    float row = floor(q.y * rows);
    float fy = fract(q.y * rows);
    float lineEnd = 0.55 + 0.45 * hcHash(vec2(row, seed));
    float x = q.x * 14.0;
    float word = floor(x + 0.5 * hcHash(vec2(row * 7.0, floor(x) + seed)));
    float gap = step(0.82, fract(x + 0.5 * hcHash(vec2(row * 7.0, word + seed))));
    float ink = step(0.3, fy) * step(fy, 0.75) * (1.0 - gap) * step(q.x, lineEnd);
    return ink;
}

/// The art window: a dusk sky, a sun with rays, a star emblem and mountains. It does not read the tilt, so it is
/// baked once; `artDepth` moves it behind the window per frame.
vec3 hcArt(vec2 a) {
    vec2 sky = a;
    vec3 col = mix(vec3(0.98, 0.55, 0.32), vec3(0.20, 0.10, 0.42), smoothstep(0.0, 0.95, sky.y));
    col = mix(col, vec3(0.05, 0.03, 0.20), smoothstep(0.5, 0.0, sky.y) * 0.55);
    vec2 sun = sky - vec2(0.5, 0.52);
    float r = length(sun * vec2(1.0, 0.9));
    float ang = atan(sun.y, sun.x);
    float rays = pow(0.5 + 0.5 * cos(ang * 16.0), 6.0) * smoothstep(0.55, 0.15, r);
    col += vec3(1.0, 0.8, 0.45) * rays * 0.35;
    col = mix(col, vec3(1.0, 0.86, 0.55), smoothstep(0.25, 0.235, r) * 0.5);
    // a five-pointed star emblem, nearer than the sun
    vec2 e = a - vec2(0.5, 0.47);
    e.x *= 1.38;
    float er = length(e);
    float ea = atan(e.x, -e.y);
    float points = pow(0.5 + 0.5 * cos(5.0 * ea), 1.6);
    float edge = mix(0.1, 0.22, points);
    float star = smoothstep(edge + 0.008, edge - 0.004, er);
    float facet = 0.5 + 0.5 * sign(sin(5.0 * ea));
    vec3 starCol = mix(vec3(0.95, 0.45, 0.12), vec3(1.0, 0.85, 0.35), facet * 0.7 + 0.3 * smoothstep(0.2, 0.0, er));
    col = mix(col, vec3(0.35, 0.08, 0.05), smoothstep(edge + 0.03, edge + 0.008, er) * (1.0 - star) * 0.6);
    col = mix(col, starCol, star);
    // mountains, nearest
    vec2 m = a;
    float ridge = 0.78 - 0.12 * abs(sin(m.x * 5.0 + 1.3)) - 0.05 * hcNoise(vec2(m.x * 18.0, 2.0));
    col = mix(col, vec3(0.10, 0.06, 0.22) + 0.08 * m.y, smoothstep(ridge, ridge + 0.01, m.y));
    float ridge2 = 0.86 - 0.06 * abs(sin(m.x * 9.0 + 4.0));
    col = mix(col, vec3(0.05, 0.03, 0.12), smoothstep(ridge2, ridge2 + 0.01, m.y));
    return col;
}

/// Base content: the printed card (frame, name bar, art window, text box, energy symbols) on a dark table. Static
/// (no tilt, no time): drawn once into a texture and reused until the size changes.
vec4 cardArt(vec2 position, vec4 color, vec2 size) {
    vec3 c = hcCardUV(position, size);
    vec2 uv = c.xy;
    vec3 table = vec3(0.045, 0.04, 0.06) * (1.1 - 0.5 * length(position / size - 0.5));
    float inside = smoothstep(0.002, -0.002, c.z);
    // frame: brushed silver-gold
    vec3 col = mix(vec3(0.78, 0.70, 0.48), vec3(0.95, 0.88, 0.62), hcNoise(vec2(uv.x * 3.0, uv.y * 200.0)));
    float panel = step(0.045, uv.x) * step(uv.x, 0.955) * step(0.032, uv.y) * step(uv.y, 0.968);
    vec3 inner = mix(vec3(0.16, 0.12, 0.36), vec3(0.30, 0.14, 0.40), uv.y);
    col = mix(col, inner, panel);
    // name bar
    float bar = step(0.06, uv.x) * step(uv.x, 0.94) * step(0.045, uv.y) * step(uv.y, 0.105);
    col = mix(col, vec3(0.93, 0.90, 0.82), bar);
    col = mix(col, vec3(0.12, 0.10, 0.14), hcText(uv, vec2(0.09, 0.05), vec2(0.42, 0.05), 1.0, 3.0) * bar);
    float hp = smoothstep(0.014, 0.010, length((uv - vec2(0.88, 0.075)) * vec2(1.0, 1.4)));
    col = mix(col, vec3(0.85, 0.2, 0.15), hp * bar);
    // art window with a gold rim
    vec2 artMin = hcArtMin;
    vec2 artMax = hcArtMax;
    float rim = step(artMin.x - 0.012, uv.x) * step(uv.x, artMax.x + 0.012) * step(artMin.y - 0.012, uv.y) * step(uv.y, artMax.y + 0.012);
    col = mix(col, vec3(0.92, 0.78, 0.40), rim);
    float art = step(artMin.x, uv.x) * step(uv.x, artMax.x) * step(artMin.y, uv.y) * step(uv.y, artMax.y);
    if (art > 0.5) col = hcArt((uv - artMin) / (artMax - artMin));
    // text box
    float box = step(0.08, uv.x) * step(uv.x, 0.92) * step(0.6, uv.y) * step(uv.y, 0.9);
    if (box > 0.5) {
        col = mix(vec3(0.90, 0.87, 0.80), vec3(0.25, 0.22, 0.28), hcText(uv, vec2(0.11, 0.62), vec2(0.78, 0.26), 6.0, 11.0));
    }
    // energy symbols
    for (int i = 0; i < 3; i++) {
        float s = smoothstep(0.022, 0.018, length((uv - vec2(0.12 + 0.06 * float(i), 0.935)) * vec2(1.0, 1.4)));
        col = mix(col, vec3(0.95, 0.55 - 0.15 * float(i), 0.2 + 0.3 * float(i)), s);
    }
    return vec4(mix(table, col, inside), 1.0);
}

/// The art lies behind the card's surface: inside the art window, the baked art is looked up magnified a little and
/// moved against the tilt, so it slides behind the window's rim (a cheap parallax on the baked texture). The lookup
/// stays inside the window.
vec2 artDepth(vec2 position, vec2 size, vec2 tilt) {
    vec4 r = hcCardRect(size);
    vec2 uv = (position - r.xy) / (2.0 * r.zw) + 0.5;
    if (any(lessThan(uv, hcArtMin)) || any(greaterThan(uv, hcArtMax))) return position;
    // Magnified by 1/0.9, the window shows 90 % of the art: a margin of 5 % a side to slide within.
    vec2 centre = (hcArtMin + hcArtMax) * 0.5;
    vec2 shift = clamp(vec2(-tilt.y, -tilt.x) * 0.14, -0.05, 0.05) * (hcArtMax - hcArtMin);
    vec2 looked = centre + (uv - centre) * 0.9 + shift;
    return (looked - 0.5) * (2.0 * r.zw) + r.xy;
}

/// Where the foil shows: strong on the frame and the art window, faint on the printed panels.
float hcFoilMask(vec2 uv) {
    float panel = step(0.045, uv.x) * step(uv.x, 0.955) * step(0.032, uv.y) * step(uv.y, 0.968);
    float art = step(0.08, uv.x) * step(uv.x, 0.92) * step(0.125, uv.y) * step(uv.y, 0.56);
    float text = step(0.08, uv.x) * step(uv.x, 0.92) * step(0.6, uv.y) * step(uv.y, 0.9);
    return mix(1.0, 0.35, panel) * (1.0 - 0.25 * text) + 0.65 * art;
}

/// Where the foil shows: on the procedural card its printed layout; on a picture (`--image`) the `foilMask` texture
/// (its red channel, sampled over the card), and outside the mask the picture is untouched.
float hcMask(vec2 uv, sampler2D foilMask) {
    // A compile-time switch, not a branch on hasPicture(): a software renderer runs both sides for every pixel.
#ifdef TILT_PICTURE
    return sampleTexture(foilMask, uv).r;
#else
    return hcFoilMask(uv);
#endif
}

/// Rainbow foil: diagonal spectral bands whose phase slides with the tilt, over a fine diffraction texture, tinted by
/// the optional `foilPattern` texture (tiled; one white texel when the preset gives no file).
vec4 holoFoil(vec2 position, vec4 color, vec2 size, vec2 tilt, float strength, sampler2D foilMask,
              sampler2D foilPattern) {
    vec3 c = hcCardUV(position, size);
    vec2 uv = c.xy;
    float inside = smoothstep(0.002, -0.002, c.z);
    float phase = dot(uv, vec2(0.9, 1.6)) * 1.6 + tilt.y * 2.2 - tilt.x * 1.7
        + 0.12 * hcNoise(uv * 9.0);
    vec3 rainbow = hcWave(phase + vec3(0.0, 0.33, 0.67));
    // Bands: the foil lights up where the grating sends light to the eye; that moves with the tilt too.
    float wave = hcWave(dot(uv, vec2(-0.7, 1.2)) * 2.2 + tilt.x * 3.0 + tilt.y * 2.4 - 0.25);
    float bands = wave * wave;
    // 0.75 + 0.25 sin((u + v) 420)
    float grating = 0.5 + 0.5 * hcWave((uv.x + uv.y) * 66.8451 - 0.25);
    float mask = hcMask(uv, foilMask);
    float amount = strength * mask * (0.25 + 0.75 * bands) * grating * inside;
#ifdef TILT_TEXTURE_foilPattern
    rainbow *= sampleTexture(foilPattern, uv * vec2(hcAspect, 1.0) * 3.0).rgb;
#endif
    if (amount <= 0.0) return color;
    vec3 screen = 1.0 - (1.0 - color.rgb) * (1.0 - rainbow * amount * 0.75);
    return vec4(mix(color.rgb, screen, inside), color.a);
}

/// Glare where the card reflects the light (at the viewer), sparkles that flash on at particular tilts, and the bloom
/// of what they light up; on a picture (`--image`) all of it stays inside the foil mask.
vec4 glareAndSparkle(
    vec2 position, vec4 color, vec2 size, vec2 tilt, float time, vec4 light, float bloomThreshold, float bloomGain,
    sampler2D foilMask
) {
    vec3 c = hcCardUV(position, size);
    vec2 uv = c.xy;
    float inside = smoothstep(0.002, -0.002, c.z);
    vec2 hot = vec2(0.5) + vec2(-tilt.y, -tilt.x) * vec2(1.3, 1.0);
    vec2 d = (uv - hot) * vec2(hcAspect, 1.0);
    float glare = 0.4 * exp(-dot(d, d) / (2.0 * 0.16 * 0.16)) + 0.35 * exp(-dot(d, d) / (2.0 * 0.045 * 0.045));
    // sparkle: one candidate star per cell, lit when the tilt turns its facet toward the eye
    vec2 grid = uv * vec2(26.0, 36.0);
    vec2 cell = floor(grid);
    float h1 = hcHash(cell);
    float h2 = hcHash(cell + 17.0);
    vec2 star = grid - cell - (0.25 + 0.5 * vec2(h1, h2));
    vec2 facet = vec2(h1, h2) * 2.0 - 1.0;
    // cos(9 facet·tilt + 2π h1 + 0.3 sin(2 time + 2π h2)), then its 24th power by squaring: x^8 * x^16
    float wobble = 2.0 * hcWave(time * 0.31831 + h2 - 0.25) - 1.0;
    float f1 = max(0.0, 2.0 * hcWave(dot(facet, tilt) * 1.43239 + h1 + 0.047746 * wobble) - 1.0);
    float f2 = f1 * f1;
    float f4 = f2 * f2;
    float f8 = f4 * f4;
    float facing = f8 * f8 * f8;
    vec2 as = abs(star);
    float shape = exp(-as.x * 18.0 - as.y * 4.5) + exp(-as.y * 18.0 - as.x * 4.5);
    // each star bleeds a soft halo around its cross
    vec2 hs = star * vec2(1.0, 26.0 / 36.0);
    float halo = 0.3 / (1.0 + 60.0 * dot(hs, hs));
    float mask = hcMask(uv, foilMask);
    float sparkle = facing * (shape + halo) * step(0.45, h2) * mask * (0.4 + glare * 2.0);
    vec3 add = light.rgb * (glare * (hasPicture() ? mask : 0.6 + 0.4 * mask) + sparkle * 1.4);
    vec3 lit = color.rgb + add * inside;
    // Bloom, drawn here rather than as a blur pass: what the light pushes past `bloomThreshold` glows brighter.
    lit += max(lit - bloomThreshold, 0.0) * bloomGain * (hasPicture() ? mask : 1.0);
    return vec4(lit, color.a);
}

/// The card turns in 3D with the tilt: each pixel looks up the card point that projects onto it.
vec2 cardTilt(vec2 position, vec2 size, vec2 tilt) {
    float m = min(size.x, size.y);
    vec2 s = (position - size * 0.5) / m;
    vec3 screen = vec3(s.x, -s.y, 0.0);
    vec3 eye = vec3(0.0, 0.0, 2.6);
    float ax = tilt.x * 0.55;
    float ay = tilt.y * 0.55;
    // cos and sin of the turn from their series, within 0.01 up to 2 rad (a tilt of 3.6 rad)
    vec2 a = vec2(ax, ay);
    vec2 a2 = a * a;
    vec2 cs = 1.0 - a2 * (0.5 - a2 * (1.0 / 24.0 - a2 / 720.0));
    vec2 sn = a * (1.0 - a2 * (1.0 / 6.0 - a2 * (1.0 / 120.0 - a2 / 5040.0)));
    // The card turned by R = Ry(ay) Rx(ax): its normal is R's third column; the ray from the eye through the pixel
    // meets it at eye + t dir, and Rᵀ takes that point back to the card's own x and y (written out, not as mat3s).
    vec3 n = vec3(cs.x * sn.y, -sn.x, cs.x * cs.y);
    vec3 dir = screen - eye;
    float t = -dot(n, eye) / dot(n, dir);
    vec3 q = eye + t * dir;
    vec2 p = vec2(cs.y * q.x - sn.y * q.z, cs.x * q.y + sn.x * (sn.y * q.x + cs.y * q.z));
    return vec2(p.x, -p.y) * m + size * 0.5;
}
