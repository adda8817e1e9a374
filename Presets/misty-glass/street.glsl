// misty-glass's default content: the bundled night street (night-street.jpg, made by scripts/make-night-street),
// covering the canvas and cut where it overhangs. A picture given with --image replaces it.

/// The street picture scaled to cover the canvas, centred.
vec4 nightStreet(vec2 position, vec4 color, sampler2D street, vec2 size) {
    vec2 picture = vec2(textureSize(street, 0));
    float scale = max(size.x / picture.x, size.y / picture.y);
    vec2 uv = ((position - 0.5 * size) / scale + 0.5 * picture) / picture;
    return sampleTexture(street, uv);
}
