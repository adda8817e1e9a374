// depth: a picture (the desktop's own, or --image) seen through the screen as if it lay a little behind it. Tilting
// shifts it the other way and leans it in perspective, as a phone's "perspective zoom" wallpaper does; the picture is
// magnified just enough that its edge never shows. Nothing here reads the time: a device at rest draws nothing.

/// The tilt eased into -1…1 per axis: proportional near level (range radians give 0.76), never past 1.
vec2 dpEase(vec2 tilt, float range) {
    return tanh(tilt / range);
}

/// Where to sample for `position`: magnified by `zoom` about the centre, leaned by `keystone` (the edge that tilts
/// away is seen a little smaller), and shifted against the tilt by what the magnification leaves at the corners.
vec2 depthShift(vec2 position, vec2 size, vec2 tilt, float zoom, float range, float keystone) {
    vec2 e = dpEase(tilt, range);
    vec2 q = position / size - 0.5;
    // tilt.y > 0 takes the right edge away, tilt.x > 0 brings the top edge (q.y < 0) nearer.
    float lean = 1.0 + 2.0 * keystone * (e.y * q.x + e.x * q.y);
    // What the magnification leaves for the shift at the worst corner, less a tenth so the filtered edge texel stays out.
    float reach = 0.9 * (0.5 - 0.5 * (1.0 + 2.0 * keystone) / zoom);
    vec2 p = q * lean / zoom - vec2(e.y, e.x) * reach;
    return (p + 0.5) * size;
}

/// A broad, faint highlight where the light at the viewer would glance off the glass; none at level, so the picture
/// at rest is exactly the user's.
vec4 depthSheen(vec2 position, vec4 color, vec2 size, vec2 tilt, float range, float strength, vec4 light) {
    vec2 e = dpEase(tilt, range);
    float m = min(size.x, size.y);
    vec2 hot = size * 0.5 + vec2(-e.y, -e.x) * m * 0.9;
    vec2 d = (position - hot) / (0.6 * m);
    float amount = strength * exp(-0.5 * dot(d, d)) * smoothstep(0.0, 0.35, length(e));
    return vec4(color.rgb + light.rgb * amount * color.a, color.a);
}
