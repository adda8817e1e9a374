// A soft bloom: bright parts of the card bleed light into their surroundings.

/// Adds a ring-sampled blur of the pixels brighter than `threshold`.
vec4 cardBloom(vec2 position, Layer layer, float threshold, float radius) {
    vec4 base = sampleLayer(layer, position);
    vec3 glow = vec3(0.0);
    for (int i = 0; i < 8; i++) {
        float a = float(i) * 0.785398;
        vec2 o = vec2(cos(a), sin(a));
        vec3 s1 = sampleLayer(layer, position + o * radius).rgb;
        vec3 s2 = sampleLayer(layer, position + o * radius * 2.0).rgb;
        glow += max(s1 - threshold, 0.0) * 0.6 + max(s2 - threshold, 0.0) * 0.4;
    }
    return vec4(base.rgb + glow * 0.12, base.a);
}
