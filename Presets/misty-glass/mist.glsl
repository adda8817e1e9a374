// misty-glass: a stateful layer effect. Each frame reads its own previous output (samplePrevious): alpha holds the
// mist density, which regrows slowly, is wiped by shaking the device (rotation rate) or by the pointer while a
// button is held, and never forms on a few droplets. The first frame starts fully misted.

float mgHash(vec2 p) {
    return fract(sin(dot(p, vec2(41.3, 289.1))) * 15731.743);
}

/// Base content: out-of-focus city lights at night, shifting a little with the tilt.
vec4 cityLights(vec2 position, vec4 color, vec2 size, vec2 tilt) {
    float m = min(size.x, size.y);
    vec2 uv = (position - size * 0.5) / m + vec2(-tilt.y, -tilt.x) * 0.08;
    vec3 col = mix(vec3(0.02, 0.03, 0.08), vec3(0.12, 0.06, 0.14), smoothstep(-0.5, 0.5, uv.y));
    for (int layer = 0; layer < 2; layer++) {
        float scale = 6.0 + 5.0 * float(layer);
        vec2 g = uv * scale;
        vec2 cell = floor(g);
        for (int j = -1; j <= 1; j++) {
            for (int i = -1; i <= 1; i++) {
                vec2 c = cell + vec2(i, j);
                float h = mgHash(c + float(layer) * 13.0);
                vec2 centre = c + 0.5 + 0.35 * vec2(mgHash(c * 1.7), mgHash(c * 2.3)) - 0.17;
                float r = 0.22 + 0.2 * h;
                float disc = smoothstep(r, r - 0.06, length(g - centre)) * step(0.45, h);
                vec3 light = 0.5 + 0.5 * cos(6.28318 * (h * 3.0 + vec3(0.0, 0.15, 0.3)));
                col += light * disc * (0.35 + 0.4 * float(1 - layer)) * smoothstep(0.6, -0.1, uv.y);
            }
        }
    }
    return vec4(col, 1.0);
}

/// The glass: frosted where misted, clear where wiped; alpha carries the mist to the next frame.
vec4 mistyGlass(vec2 position, Layer layer, vec3 rotationRate, vec2 pointer, float regrowPerSecond) {
    vec4 sharp = sampleLayer(layer, position);
    vec3 frosted = vec3(0.0);
    for (int i = 0; i < 4; i++) {
        float a = float(i) * 1.570796 + 0.4;
        frosted += sampleLayer(layer, position + vec2(cos(a), sin(a)) * 7.0).rgb;
    }
    frosted = frosted * 0.25 * 0.8 + vec3(0.09, 0.1, 0.12);
    float mist = iFrame == 0 ? 0.9 : samplePrevious(position).a;
    mist += regrowPerSecond * iTimeDelta;
    mist -= length(rotationRate) * 0.6 * iTimeDelta;
    if (iMouse.z > 0.0) mist -= smoothstep(40.0, 20.0, length(position - pointer)) * 0.5;
    vec2 drop = position / 9.0;
    vec2 dc = floor(drop);
    float h = mgHash(dc);
    float droplet = step(0.8, h) * smoothstep(0.3, 0.18, length(fract(drop) - 0.5 - 0.2 * (h - 0.9)));
    mist = clamp(mist, 0.0, 0.95);
    float shown = mist * (1.0 - droplet * 0.8);
    return vec4(mix(sharp.rgb, frosted, shown), mist);
}
