import TiltEffects
import TiltImage

/// Decodes and uploads a preset's named textures (`"textures"` in preset.json).
enum PresetTextureLoader {
    /// The most named textures a preset may declare: GLES 3 promises 16 texture units to a fragment shader, and the
    /// renderer keeps eight (layer, previous frame, picture, four Shadertoy channels, blurred layer; see ``TextureUnit``).
    static let maxTextures = TextureUnit.namedTextureCount

    /// One texture per declaration, in order; a declaration without a file is one opaque white texel (a simulated
    /// one too: ``SimulationTextures`` binds its own in its place).
    /// - Throws: `ImageError` naming the texture's file and what is wrong with it; `RenderError` for too many.
    static func load(_ declared: [PresetTexture]) throws -> [ImageTexture] {
        guard declared.count <= maxTextures else {
            throw RenderError.argument(
                "the preset declares \(declared.count) textures; at most \(maxTextures) fit the GL's texture units")
        }
        return try declared.map { (texture: PresetTexture) throws -> ImageTexture in
            let options = ImageTexture.Options(filter: texture.filter, wrap: texture.wrap)
            guard let file = texture.file else {
                let white = DecodedImage(width: 1, height: 1, pixels: [255, 255, 255, 255])
                return try ImageTexture(image: white, path: "(texture \(texture.name))", options: options)
            }
            return try ImageTexture(image: try ImageDecoder.load(path: file), path: file, options: options)
        }
    }
}
