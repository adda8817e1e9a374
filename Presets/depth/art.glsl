// depth's own picture, shown when there is none of the user's (no --image, no desktop picture): a quiet dusk over
// two ranges of hills. It reads nothing per frame, so it is drawn once and kept (baked).

float dpaHash(float n) { return fract(sin(n) * 43758.5453); }

float dpaNoise(float x) {
    float i = floor(x);
    float f = fract(x);
    return mix(dpaHash(i), dpaHash(i + 1.0), f * f * (3.0 - 2.0 * f));
}

vec4 depthArt(vec2 position, vec4 color, vec2 size) {
    vec2 uv = position / size;
    vec3 top = vec3(0.10, 0.12, 0.26);
    vec3 horizon = vec3(0.85, 0.52, 0.42);
    vec3 sky = mix(top, horizon, smoothstep(0.05, 0.72, uv.y));
    float sun = exp(-18.0 * length((uv - vec2(0.62, 0.62)) * vec2(size.x / size.y, 1.0)));
    sky += vec3(1.0, 0.78, 0.55) * sun * 0.55;
    float x = uv.x * size.x / size.y;
    float far = 0.66 - 0.10 * dpaNoise(x * 3.0 + 2.0) - 0.04 * dpaNoise(x * 9.0);
    float near = 0.80 - 0.12 * dpaNoise(x * 2.0 + 11.0) - 0.03 * dpaNoise(x * 7.0 + 5.0);
    vec3 col = mix(sky, vec3(0.30, 0.22, 0.32), smoothstep(far, far + 0.003, uv.y));
    col = mix(col, vec3(0.12, 0.09, 0.15), smoothstep(near, near + 0.003, uv.y));
    vec2 v = uv - 0.5;
    col *= 1.0 - 0.35 * dot(v, v);
    return vec4(col, 1.0);
}
