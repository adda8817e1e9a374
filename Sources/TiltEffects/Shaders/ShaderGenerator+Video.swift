extension ShaderGenerator {
    /// The fragment shader that fits a moving picture (a video, a camera) to the canvas on each new frame. Its texels
    /// are opaque sRGB bytes in a plain `GL_RGBA8` texture, which are already the effects' colour (premultiplied
    /// sRGB values, alpha 1), so they are copied and filtered as they are: no sRGB decode and encode per pixel, which
    /// on a software renderer cost more than most effects (as video players do, scaling filters the encoded values).
    /// A target padded by `tilt_targetPadding` gets the picture inside a transparent margin (the first pass's output,
    /// when that pass only copies the picture: `EffectRenderer.fitPicture`).
    package static var videoFitSource: String {
        prelude + """
            void main() {
                vec2 position = vec2(gl_FragCoord.x, tilt_targetSize.y - gl_FragCoord.y) - tilt_targetPadding;
                vec2 uv = (position - tilt_pictureRect.xy) / max(tilt_pictureRect.zw, vec2(1e-6));
                bool outside = any(lessThan(uv, vec2(0.0))) || any(greaterThan(uv, vec2(1.0)));
                tilt_fragColor = outside ? vec4(0.0) : texture(tilt_picture, uv);
            }

            """
    }
}
