// foil: brushed metal. The brushing runs along x, so the highlight is stretched across it (along y) and slides
// in x with the tilt: an anisotropic (Ward-like) lobe with a wide tangent roughness and a narrow bitangent one.

float flHash(vec2 p) {
    return fract(sin(dot(p, vec2(127.1, 311.7))) * 43758.5453);
}

float flNoise(vec2 p) {
    vec2 i = floor(p);
    vec2 f = fract(p);
    f = f * f * (3.0 - 2.0 * f);
    return mix(mix(flHash(i), flHash(i + vec2(1, 0)), f.x), mix(flHash(i + vec2(0, 1)), flHash(i + vec2(1, 1)), f.x), f.y);
}

/// Fine streaks along x: noise stretched 300:1.
float flStreaks(vec2 uv) {
    return 0.55 * flNoise(vec2(uv.x * 3.0, uv.y * 900.0)) + 0.3 * flNoise(vec2(uv.x * 9.0, uv.y * 2400.0))
        + 0.15 * flNoise(vec2(uv.x * 40.0, uv.y * 160.0));
}

/// Base content: the brushed plate with a bevelled edge and four screws.
vec4 brushedMetal(vec2 position, vec4 color, vec2 size, vec4 tint) {
    vec2 uv = position / size;
    float s = flStreaks(uv);
    vec3 col = tint.rgb * (0.55 + 0.25 * s) * (0.85 + 0.15 * (1.0 - uv.y));
    vec2 edge = min(position, size - position) / min(size.x, size.y);
    float bevel = smoothstep(0.0, 0.025, min(edge.x, edge.y));
    col *= 0.55 + 0.45 * bevel;
    for (int i = 0; i < 4; i++) {
        vec2 corner = vec2(float(i % 2), float(i / 2));
        vec2 sp = mix(vec2(0.06), vec2(0.94), corner) * size;
        float r = length(position - sp) / min(size.x, size.y);
        float screw = smoothstep(0.022, 0.018, r);
        float slot = step(abs(dot(position - sp, normalize(vec2(1.0, 0.6 + 0.2 * float(i))))), min(size.x, size.y) * 0.003);
        col = mix(col, tint.rgb * (0.45 + 0.4 * (1.0 - r * 30.0)) * (1.0 - 0.6 * slot), screw);
    }
    return vec4(col, 1.0);
}

/// The sheen: half-vector offsets over two roughnesses (along and across the brushing), light at the viewer.
vec4 anisotropicSheen(vec2 position, vec4 color, vec2 size, vec2 tilt, vec2 roughness) {
    float m = min(size.x, size.y);
    vec2 hot = size * 0.5 + vec2(-tilt.y, -tilt.x) * m * 1.2;
    vec2 d = (position - hot) / m;
    float lobe = exp(-(d.x * d.x) / (roughness.y * roughness.y * 4.0) - (d.y * d.y) / (roughness.x * roughness.x * 4.0));
    float streak = flStreaks(position / size);
    vec3 sheen = vec3(1.0, 0.98, 0.95) * lobe * (0.35 + 0.9 * streak);
    float ambient = 0.08 * exp(-dot(d, d) * 2.0);
    return vec4(color.rgb + (sheen + ambient) * color.a, color.a);
}
