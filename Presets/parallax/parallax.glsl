// parallax: each layer is drawn at an offset of tilt × depth, so near layers move more than far ones, as if the
// screen were a window onto the scene.

float pxHash(float n) {
    n = fract(n * 0.1031);
    n *= n + 33.33;
    n *= n + n;
    return fract(n);
}

/// 0.5 + 0.5 cos(2π x) to within 0.01, as a smoothstep of a triangle wave (a software renderer, llvmpipe, spends a
/// range reduction and a polynomial on each sin).
float pxWave(float x) {
    float t = abs(2.0 * fract(x) - 1.0);
    return t * t * (3.0 - 2.0 * t);
}

float pxNoise(float x) {
    float i = floor(x);
    float f = fract(x);
    return mix(pxHash(i), pxHash(i + 1.0), f * f * (3.0 - 2.0 * f));
}

/// Height of a ridge line at x (0 top, 1 bottom).
float pxRidge(float x, float base, float amp, float freq, float seed) {
    return base - amp * (0.6 * pxNoise(x * freq + seed) + 0.3 * pxNoise(x * freq * 2.3 + seed * 3.0)
        + 0.1 * pxNoise(x * freq * 6.0 + seed));
}

/// Base content: sky with stars and moon, three mountain ranges and a foreground of pines.
vec4 parallaxScene(vec2 position, vec4 color, vec2 size, vec2 tilt, float time, float depths[4]) {
    float m = min(size.x, size.y);
    vec2 uv0 = (position - size * 0.5) / m;
    vec2 shift = vec2(-tilt.y, -tilt.x);
    // sky (farthest)
    vec2 s = uv0 + shift * depths[0];
    vec3 col = mix(vec3(0.02, 0.03, 0.10), vec3(0.10, 0.14, 0.32), smoothstep(-0.6, 0.4, s.y));
    vec2 cell = floor(s * 60.0);
    float h = pxHash(cell.x * 17.0 + cell.y * 131.0);
    vec2 f = fract(s * 60.0) - 0.5;
    col += vec3(0.9, 0.9, 1.0) * step(0.93, h) * smoothstep(0.12, 0.0, length(f)) * (0.2 + 0.8 * pxWave((time * 3.0 + h * 40.0) * 0.1591549 - 0.25));
    // moon
    vec2 mo = s - vec2(0.25, -0.25);
    col = mix(col, vec3(0.95, 0.93, 0.82), smoothstep(0.082, 0.078, length(mo)));
    col += vec3(0.25, 0.25, 0.35) * exp(-length(mo) * 8.0);
    // ranges, far to near
    vec3 tints[3] = vec3[3](vec3(0.16, 0.20, 0.38), vec3(0.09, 0.12, 0.25), vec3(0.04, 0.06, 0.13));
    float bases[3] = float[3](0.10, 0.22, 0.34);
    for (int i = 0; i < 3; i++) {
        vec2 p = uv0 + shift * depths[i + 1];
        float ridge = pxRidge(p.x, bases[i], 0.22 - 0.04 * float(i), 2.5 + float(i), float(i) * 7.0);
        float fog = 0.18 * (1.0 - float(i) / 3.0);
        col = mix(col, tints[i] + fog * vec3(0.3, 0.35, 0.5) * smoothstep(ridge + 0.25, ridge, p.y),
                  smoothstep(ridge, ridge + 0.004, p.y));
    }
    // foreground pines (nearest)
    vec2 p = uv0 + shift * depths[3] * 1.6;
    float tx = p.x * 7.0;
    float ti = floor(tx);
    float tf = fract(tx) - 0.5;
    float th = 0.28 + 0.12 * pxHash(ti * 3.1);
    float top = 0.5 - th;
    float width = (p.y - top) * 0.22;
    float pine = step(top, p.y) * step(abs(tf) / 7.0, width * (0.7 + 0.3 * pxWave((p.y - top) * 9.5492966 - 0.25)));
    col = mix(col, vec3(0.01, 0.02, 0.03), pine * step(0.35, pxHash(ti * 7.7)));
    col = mix(col, vec3(0.01, 0.015, 0.02), smoothstep(0.44, 0.445, p.y));
    return vec4(col, 1.0);
}

/// A slight barrel bulge, as if the scene were seen through a thick window pane.
vec2 windowBulge(vec2 position, vec2 size) {
    vec2 c = (position - size * 0.5) / size;
    return position - c * dot(c, c) * size * 0.06;
}

/// With a picture (`--image`), which has no layers of its own: the picture sits a little behind the window and
/// slides against it with the tilt, magnified by `zoom` so the slide never shows its edge. Without one, nothing.
vec2 pictureDepth(vec2 position, vec2 size, vec2 tilt, float zoom) {
#ifndef TILT_PICTURE
    return position;
#endif
    vec2 c = size * 0.5;
    return c + (position - c) / zoom + vec2(-tilt.y, -tilt.x) * size * (zoom - 1.0) * 0.9;
}
