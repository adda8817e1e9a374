extension ShaderGenerator {
    /// Shrinks a layer texture (padded as a pass's output is) to a target `tilt_scale` times smaller than the
    /// canvas: each target pixel is the mean of four bilinear taps spread over its block, in GL's bottom-up texture
    /// coordinates.
    package static let blurDownsampleSource = """
        #version 300 es
        precision highp float;
        uniform sampler2D tilt_source;
        uniform vec2 tilt_sourceSize;
        uniform vec2 tilt_sourcePadding;
        uniform float tilt_scale;
        out vec4 tilt_fragColor;
        void main() {
            vec2 q = gl_FragCoord.xy * tilt_scale + tilt_sourcePadding;
            float h = tilt_scale * 0.25;
            vec4 c = texture(tilt_source, (q + vec2(-h, -h)) / tilt_sourceSize)
                + texture(tilt_source, (q + vec2(h, -h)) / tilt_sourceSize)
                + texture(tilt_source, (q + vec2(-h, h)) / tilt_sourceSize)
                + texture(tilt_source, (q + vec2(h, h)) / tilt_sourceSize);
            tilt_fragColor = c * 0.25;
        }

        """

    /// One pass of a separable Gaussian blur along `tilt_direction` (one texel, x or y): the centre tap, then up to
    /// ``LayerBlur/maxTaps`` bilinear taps each side (`tilt_taps[i]`: offset in texels, weight), from
    /// ``LayerBlur/kernel()``.
    package static let blurPassSource = """
        #version 300 es
        precision highp float;
        uniform sampler2D tilt_source;
        uniform vec2 tilt_direction;
        uniform float tilt_centre;
        uniform vec2 tilt_taps[\(LayerBlur.maxTaps)];
        uniform int tilt_tapCount;
        out vec4 tilt_fragColor;
        void main() {
            vec2 size = vec2(textureSize(tilt_source, 0));
            vec2 uv = gl_FragCoord.xy / size;
            vec2 step = tilt_direction / size;
            vec4 c = texture(tilt_source, uv) * tilt_centre;
            for (int i = 0; i < \(LayerBlur.maxTaps); i++) {
                if (i >= tilt_tapCount) break;
                vec2 o = step * tilt_taps[i].x;
                c += (texture(tilt_source, uv + o) + texture(tilt_source, uv - o)) * tilt_taps[i].y;
            }
            tilt_fragColor = c;
        }

        """
}
