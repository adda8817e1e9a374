// A soft bloom: bright parts of the card bleed light into their surroundings.

/// Adds a ring-sampled blur of the pixels brighter than `threshold`; on a picture (`--image`), only inside the foil
/// mask, so the picture outside it stays untouched.
vec4 cardBloom(vec2 position, Layer layer, float threshold, float radius, sampler2D foilMask) {
    vec4 base = sampleLayer(layer, position);
    vec3 glow = vec3(0.0);
    for (int i = 0; i < 4; i++) {
        float a = float(i) * 1.570796 + 0.785398;
        vec2 o = vec2(cos(a), sin(a));
        // alternate between one and two radii: a wider glow for the same number of taps
        vec3 s1 = sampleLayer(layer, position + o * radius * (1.0 + float(i % 2))).rgb;
        glow += max(s1 - threshold, 0.0);
    }
    if (hasPicture()) glow *= sampleTexture(foilMask, (position - pictureRect().xy) / pictureRect().zw).r;
    return vec4(base.rgb + glow * 0.22, base.a);
}
