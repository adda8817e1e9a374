// A Shadertoy-style shader: mainImage(out vec4, in vec2) with iTime, iResolution, iMouse, iFrame, plus tilt's
// iTilt (vec2, radians), iGravity (vec3, m/s², device frame) and iAttitude (quaternion x, y, z, w).

void mainImage(out vec4 fragColor, in vec2 fragCoord) {
    vec2 uv = (fragCoord - 0.5 * iResolution.xy) / iResolution.y;
    vec2 flow = vec2(iTilt.y, -iTilt.x) * 2.0;
    float t = iTime * 0.6;
    float v = sin(uv.x * 6.0 + t + flow.x * 3.0)
        + sin((uv.y + flow.y) * 7.0 - t * 1.3)
        + sin(length(uv - flow * 0.4) * 12.0 - t * 2.0)
        + sin((uv.x + uv.y) * 5.0 + t * 0.7);
    vec3 col = 0.5 + 0.5 * cos(v * 1.4 + vec3(0.0, 2.1, 4.2) + iTilt.x * 3.0);
    // the light follows gravity: the lower edge of the screen glows
    vec2 down = normalize(vec2(iGravity.x, iGravity.y) + vec2(0.0, -1e-3));
    col *= 0.75 + 0.35 * smoothstep(-0.6, 0.6, dot(uv, down));
    fragColor = vec4(col, 1.0);
    // With a picture (`--image`, tilt's samplePicture takes positions from the top-left), the plasma is a wash of
    // colour over it, a third of the way.
    // (TILT_PICTURE: a compile-time switch, as a software renderer runs both sides of a branch for every pixel.)
#ifdef TILT_PICTURE
    vec4 picture = samplePicture(vec2(fragCoord.x, iResolution.y - fragCoord.y));
    fragColor = vec4(mix(picture.rgb, col * picture.a, 0.35), picture.a);
#endif
}
