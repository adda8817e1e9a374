// tilt-specular: a dark lacquered card lit by a light at the viewer.
// The hotspot sits where the card's normal points at the light: tilting the right edge away (tilt.y > 0) moves it
// left, tilting the top edge toward you (tilt.x > 0) moves it up, as a real mirror-like surface would.

float tsRoundedBox(vec2 p, vec2 halfSize, float r) {
    vec2 q = abs(p) - halfSize + r;
    return length(max(q, 0.0)) + min(max(q.x, q.y), 0.0) - r;
}

/// Base content: a rounded card with a soft vertical gradient on a near-black background.
vec4 glossCard(vec2 position, vec4 color, vec2 size, vec4 base) {
    vec2 c = position - size * 0.5;
    float m = min(size.x, size.y);
    float d = tsRoundedBox(c, size * 0.5 - m * 0.06, m * 0.06);
    float inside = 1.0 - smoothstep(-1.0, 1.0, d);
    vec3 card = base.rgb * (1.15 - 0.35 * position.y / size.y);
    vec3 bg = vec3(0.03, 0.03, 0.04);
    return vec4(mix(bg, card, inside), 1.0);
}

/// Adds the specular hotspot: a Gaussian of width `sigma` (fraction of the short side) at the reflected light.
vec4 specular(vec2 position, vec4 color, vec2 size, vec2 tilt, float sigma, vec4 light) {
    float m = min(size.x, size.y);
    vec2 hot = size * 0.5 + vec2(-tilt.y, -tilt.x) * m * 1.2;
    vec2 d = (position - hot) / (sigma * m);
    float g = exp(-0.5 * dot(d, d));
    float broad = 0.18 * exp(-0.5 * dot(d, d) / 9.0);
    return vec4(color.rgb + light.rgb * (g + broad) * color.a, color.a);
}
