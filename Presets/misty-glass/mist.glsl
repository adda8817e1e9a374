// misty-glass: the glass over the picture. The raindrop simulation (preset.json's "simulation", stepped on the CPU
// every frame) gives two textures: `mist`, the mist density (red, 0 clear … 1 misted, a quarter of the canvas's
// resolution), and `drops`, the drop map (red, green: the x, y of the covering drop's surface normal, 0.5 + 0.5 ×
// offset from its centre / its radius; blue: its radius / 32 px; alpha: its coverage). The layer's "blur" key gives the mist's
// Gaussian blur of the picture (sampleLayerBlurred).

/// Blurred and brightened where misted, sharp where wiped or cleared by a drop's trail; inside a drop the picture
/// is seen through a small lens: upside down and shrunk, with a darker rim and a highlight. The picture lies behind
/// the glass: tilting shifts it by up to `depth` pixels per radian against the glass.
vec4 mistyGlass(vec2 position, Layer layer, sampler2D mist, sampler2D drops, vec2 size, vec2 tilt, vec4 haze,
                float lens, float depth) {
    vec2 uv = position / size;
    vec2 behind = position + vec2(-tilt.y, -tilt.x) * depth;
    float density = texture(mist, uv).r;
    vec4 drop = texture(drops, uv);
    vec2 n = drop.rg * 2.0 - 1.0;
    float cover = drop.a;
    vec4 sharp = sampleLayer(layer, behind - n * (drop.b * 32.0 * (1.0 + lens) * cover));
    vec4 fogged = sampleLayerBlurred(layer, behind) * 0.8 + haze;
    vec3 colour = mix(sharp.rgb, fogged.rgb, density * (1.0 - cover));
    // The drop's rim darkens, and a highlight sits toward the light (up and to the left).
    // (Powers by squaring: llvmpipe's pow costs as much as the rest of the glass.)
    float nz = sqrt(max(0.0, 1.0 - dot(n, n)));
    float rim = 1.0 - nz;
    float spark = max(0.0, dot(vec3(n, nz), vec3(-0.4511, -0.5514, 0.7018)));
    spark *= spark;
    spark *= spark;
    spark *= spark;
    spark *= spark;
    colour = colour * (1.0 - 0.3 * cover * rim * rim) + vec3(0.55 * spark * cover);
    return vec4(colour, 1.0);
}
