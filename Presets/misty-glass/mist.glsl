// misty-glass: the glass over the picture. The raindrop simulation (preset.json's "simulation", stepped on the CPU
// every frame) gives the texture `glass`, one lookup for everything the glass does at a pixel: red, green the x, y of
// the covering drop's surface normal (0.5 + 0.5 × offset from its centre / its radius), blue its radius times its
// coverage / 32 px (how far its lens reaches), alpha the mist that shows (the mist density where no drop covers the
// glass). The layer's "blur" key gives the mist's Gaussian blur of the picture (sampleLayerBlurred).

/// Blurred and brightened where misted, sharp where wiped or cleared by a drop's trail; inside a drop the picture
/// is seen through a small lens: upside down and shrunk, with a darker rim and a highlight. The picture lies behind
/// the glass: tilting shifts it by up to `depth` pixels per radian against the glass.
/// (Three texture lookups a pixel: on a software renderer (llvmpipe) each costs as much as the rest of the glass.)
vec4 mistyGlass(vec2 position, Layer layer, sampler2D glass, vec2 size, vec2 tilt, vec4 haze, float lens,
                float depth) {
    vec2 uv = position / size;
    vec2 behind = position + vec2(-tilt.y, -tilt.x) * depth;
    vec4 g = texture(glass, uv);
    vec2 n = g.rg * 2.0 - 1.0;
    vec4 sharp = sampleLayer(layer, behind - n * (g.b * 32.0 * (1.0 + lens)));
    vec4 fogged = sampleLayerBlurred(layer, behind) * 0.8 + haze;
    vec3 colour = mix(sharp.rgb, fogged.rgb, g.a);
    // The drop's rim darkens, and a highlight sits toward the light (up and to the left); on empty glass (n = 0)
    // there is no rim and the highlight is below one level of 255. (Powers by squaring: llvmpipe's pow is dear.)
    float nz = sqrt(max(0.0, 1.0 - dot(n, n)));
    float rim = 1.0 - nz;
    float spark = max(0.0, dot(vec3(n, nz), vec3(-0.4511, -0.5514, 0.7018)));
    spark *= spark;
    spark *= spark;
    spark *= spark;
    spark *= spark;
    colour = colour * (1.0 - 0.3 * rim * rim) + vec3(0.55 * spark);
    return vec4(colour, 1.0);
}
