import CEGL
import FoundationEssentials
import TiltCore
import TiltEffects
import TiltImage

/// A preset's Shadertoy program on the GPU: the buffer passes with their ping-pong textures, the image textures of its
/// channels and a sampler object per filter and wrap; renders the buffers and binds any pass's channels.
///
/// Buffers render in the order A, B, C, D. A channel reading a buffer gets the texture that buffer wrote last: this
/// frame's for a buffer that rendered earlier in the frame, the previous frame's for the pass's own buffer (feedback)
/// or a later one, as on Shadertoy.
final class ShadertoyPasses {
    /// The program drawn.
    let program: ShadertoyProgram
    /// The buffers' colour format: 16-bit float where the GL can render to it, else 8-bit.
    let format: RenderTarget.Format
    private let bufferPrograms: [ShaderProgram]
    private var targets: [ShadertoyBuffer: [RenderTarget]] = [:]
    private var latest: [ShadertoyBuffer: Int] = [:]
    private var size: SIMD2<Int> = .zero
    private let textures: [String: ImageTexture]
    private var samplers: [String: GLuint] = [:]
    /// This frame's `iDate`, read once per frame by ``renderBuffers(_:width:height:)``.
    private var frameDate: SIMD4<GLfloat> = .zero
    /// Buffers some channel samples with mipmaps, which are rebuilt after each frame.
    private let mipmapped: Set<ShadertoyBuffer>
    /// The keyboard's 256 × 3 R8 texture when a channel reads it (0: none), and the state it holds.
    private var keyboardTexture: GLuint = 0
    private var keyboardShown: ShadertoyKeyboard?

    /// The texture unit of `iChannel0` (see ``TextureUnit``).
    static let firstUnit: GLint = TextureUnit.firstChannel

    /// Compiles the buffer passes of `program` and loads its image textures.
    /// - Throws: `RenderError.compile` naming the pass's file or export pass and line, `RenderError.read` naming the
    ///   pass and channel of a picture that cannot be decoded, `PresetError` for a file that cannot be read.
    init(preset: Preset, program: ShadertoyProgram) throws {
        self.program = program
        bufferPrograms = try program.buffers.map {
            try ShaderProgram(
                try ShaderGenerator.generate(pass: RenderPass(input: .shadertoy(file: $0.code.name)), preset: preset))
        }
        var textures: [String: ImageTexture] = [:]
        var mipmapped: Set<ShadertoyBuffer> = []
        for pass in program.buffers + [program.image] {
            for channel in pass.channels {
                switch channel.source {
                case .texture(let path):
                    let key = Self.textureKey(path, vflip: channel.vflip)
                    guard textures[key] == nil else { continue }
                    do { textures[key] = try Self.loadTexture(path, vflip: channel.vflip) } catch {
                        throw RenderError.read(
                            path, reason: "pass '\(pass.name)', iChannel\(channel.index): \(error.reason)")
                    }
                case .buffer(let buffer):
                    if channel.filter == .mipmap { mipmapped.insert(buffer) }
                case .keyboard:
                    if keyboardTexture == 0 { keyboardTexture = Self.makeKeyboardTexture() }
                }
            }
        }
        self.textures = textures
        self.mipmapped = mipmapped
        format = Self.canRenderFloat ? .rgba16f : .rgba8
        if format == .rgba8 && !program.buffers.isEmpty {
            StandardStream.error.write(
                Data(
                    ("note: this GL cannot render to float textures (no EXT_color_buffer_float); Shadertoy buffers are "
                        + "8-bit, so values clamp to 0…1\n").utf8))
        }
    }

    deinit {
        for var sampler in samplers.values { glDeleteSamplers(1, &sampler) }
        if keyboardTexture != 0 { glDeleteTextures(1, &keyboardTexture) }
    }

    /// Renders every buffer pass at `width`×`height` (the output size); the buffers start cleared at a new size.
    /// Called first in every frame: it also reads the clock for the frame's `iDate`, once for all its passes.
    func renderBuffers(_ inputs: FrameInputs, width: Int, height: Int) throws(RenderError) {
        frameDate = Self.date(Date())
        if keyboardTexture != 0 { showKeyboard(inputs.keyboard ?? ShadertoyKeyboard()) }
        guard !program.buffers.isEmpty else { return }
        if size != SIMD2(width, height) {
            targets = [:]
            for pass in program.buffers {
                guard let buffer = pass.buffer else { continue }
                targets[buffer] = [
                    try RenderTarget(width: width, height: height, format: format),
                    try RenderTarget(width: width, height: height, format: format),
                ]
                latest[buffer] = 0
            }
            size = SIMD2(width, height)
        }
        for (pass, shader) in zip(program.buffers, bufferPrograms) {
            guard let buffer = pass.buffer, let pair = targets[buffer], let last = latest[buffer] else { continue }
            let target = pair[1 - last]
            glBindFramebuffer(GLenum(GL_FRAMEBUFFER), target.framebuffer)
            glViewport(0, 0, GLsizei(width), GLsizei(height))
            glUseProgram(shader.id)
            EffectRenderer.setBuiltins(shader, inputs)
            glUniform2f(shader.location("tilt_targetSize"), GLfloat(width), GLfloat(height))
            glUniform2f(shader.location("tilt_targetPadding"), 0, 0)
            bindChannels(of: pass, shader, inputs)
            glDrawArrays(GLenum(GL_TRIANGLES), 0, 3)
            latest[buffer] = 1 - last
            if mipmapped.contains(buffer) {
                glActiveTexture(GLenum(GL_TEXTURE0))
                glBindTexture(GLenum(GL_TEXTURE_2D), target.texture)
                glGenerateMipmap(GLenum(GL_TEXTURE_2D))
            }
        }
    }

    /// Binds the channels of `pass` to `shader` (in use), with `iChannelResolution`, `iChannelTime`, `iDate`,
    /// `iFrameRate` and `iSampleRate`. A channel the pass does not use reads nothing (black).
    func bindChannels(of pass: ShadertoyPass, _ shader: ShaderProgram, _ inputs: FrameInputs) {
        var resolution = [GLfloat](repeating: 0, count: 12)
        for index in 0..<4 {
            let unit = Self.firstUnit + GLint(index)
            glActiveTexture(GLenum(GL_TEXTURE0) + GLenum(unit))
            glUniform1i(shader.location("iChannel\(index)"), unit)
            guard let channel = pass.channels.first(where: { $0.index == index }), let bound = texture(for: channel)
            else {
                glBindTexture(GLenum(GL_TEXTURE_2D), 0)
                glBindSampler(GLuint(unit), 0)
                continue
            }
            glBindTexture(GLenum(GL_TEXTURE_2D), bound.texture)
            glBindSampler(GLuint(unit), sampler(channel))
            resolution[index * 3] = GLfloat(bound.width)
            resolution[index * 3 + 1] = GLfloat(bound.height)
            resolution[index * 3 + 2] = 1
        }
        glActiveTexture(GLenum(GL_TEXTURE0))
        glUniform3fv(shader.location("iChannelResolution"), 4, resolution)
        glUniform1fv(shader.location("iChannelTime"), 4, [GLfloat](repeating: GLfloat(inputs.time), count: 4))
        glUniform4f(shader.location("iDate"), frameDate.x, frameDate.y, frameDate.z, frameDate.w)
        glUniform1f(shader.location("iFrameRate"), GLfloat(inputs.timeDelta > 0 ? 1 / inputs.timeDelta : 60))
        glUniform1f(shader.location("iSampleRate"), 44100)
    }

    /// Shadertoy's `iDate`: year, month (0–11), day of the month, and seconds since local midnight.
    static func date(_ now: Date) -> SIMD4<GLfloat> {
        let calendar = Calendar.current
        let parts = calendar.dateComponents([.year, .month, .day], from: now)
        let seconds = now.timeIntervalSince(calendar.startOfDay(for: now))
        return SIMD4(
            GLfloat(parts.year ?? 0), GLfloat((parts.month ?? 1) - 1), GLfloat(parts.day ?? 1), GLfloat(seconds))
    }

    private func texture(for channel: ShadertoyChannel) -> (texture: GLuint, width: Int, height: Int)? {
        switch channel.source {
        case .texture(let path):
            return textures[Self.textureKey(path, vflip: channel.vflip)].map { ($0.id, $0.width, $0.height) }
        case .buffer(let buffer):
            guard let pair = targets[buffer], let last = latest[buffer] else { return nil }
            return (pair[last].texture, pair[last].width, pair[last].height)
        case .keyboard:
            return keyboardTexture == 0 ? nil : (keyboardTexture, ShadertoyKeyboard.width, ShadertoyKeyboard.height)
        }
    }

    /// A 256 × 3 single-channel texture, all keys up.
    private static func makeKeyboardTexture() -> GLuint {
        var texture: GLuint = 0
        glGenTextures(1, &texture)
        glBindTexture(GLenum(GL_TEXTURE_2D), texture)
        glPixelStorei(GLenum(GL_UNPACK_ALIGNMENT), 1)
        let up = ShadertoyKeyboard().texels
        glTexImage2D(
            GLenum(GL_TEXTURE_2D), 0, GL_R8, GLsizei(ShadertoyKeyboard.width), GLsizei(ShadertoyKeyboard.height), 0,
            GLenum(GL_RED), GLenum(GL_UNSIGNED_BYTE), up)
        glPixelStorei(GLenum(GL_UNPACK_ALIGNMENT), 4)
        glBindTexture(GLenum(GL_TEXTURE_2D), 0)
        return texture
    }

    /// Uploads the keyboard's state when it changed since the last frame (768 bytes).
    private func showKeyboard(_ keyboard: ShadertoyKeyboard) {
        guard keyboard != keyboardShown else { return }
        keyboardShown = keyboard
        glActiveTexture(GLenum(GL_TEXTURE0))
        glBindTexture(GLenum(GL_TEXTURE_2D), keyboardTexture)
        glPixelStorei(GLenum(GL_UNPACK_ALIGNMENT), 1)
        glTexSubImage2D(
            GLenum(GL_TEXTURE_2D), 0, 0, 0, GLsizei(ShadertoyKeyboard.width), GLsizei(ShadertoyKeyboard.height),
            GLenum(GL_RED), GLenum(GL_UNSIGNED_BYTE), keyboard.texels)
        glPixelStorei(GLenum(GL_UNPACK_ALIGNMENT), 4)
        glBindTexture(GLenum(GL_TEXTURE_2D), 0)
    }

    /// The sampler object for a channel's filter and wrap, made on first use.
    private func sampler(_ channel: ShadertoyChannel) -> GLuint {
        let key = "\(channel.filter.rawValue)/\(channel.wrap.rawValue)"
        if let made = samplers[key] { return made }
        var sampler: GLuint = 0
        glGenSamplers(1, &sampler)
        let (minFilter, magFilter) = channel.filter.glFilters
        let wrap = channel.wrap.textureWrap.glWrap
        glSamplerParameteri(sampler, GLenum(GL_TEXTURE_MIN_FILTER), minFilter)
        glSamplerParameteri(sampler, GLenum(GL_TEXTURE_MAG_FILTER), magFilter)
        glSamplerParameteri(sampler, GLenum(GL_TEXTURE_WRAP_S), wrap)
        glSamplerParameteri(sampler, GLenum(GL_TEXTURE_WRAP_T), wrap)
        samplers[key] = sampler
        return sampler
    }

    /// Decodes and uploads a picture as Shadertoy reads it: the bytes as stored (no sRGB decoding, straight alpha),
    /// with mipmaps so that any channel's sampler can filter it.
    private static func loadTexture(_ path: String, vflip: Bool) throws(ImageError) -> ImageTexture {
        let options = ImageTexture.Options(filter: .mipmap, flipVertically: vflip, sRGB: false, premultiply: false)
        return try ImageTexture(image: try ImageDecoder.load(path: path), path: path, options: options)
    }

    private static func textureKey(_ path: String, vflip: Bool) -> String { "\(vflip ? "flipped" : "upright"):\(path)" }

    /// Whether the current GL can render to RGBA16F textures (GLES 3 needs `EXT_color_buffer_float` or
    /// `EXT_color_buffer_half_float`).
    static var canRenderFloat: Bool {
        var count: GLint = 0
        glGetIntegerv(GLenum(GL_NUM_EXTENSIONS), &count)
        for i in 0..<max(0, Int(count)) {
            guard let p = glGetStringi(GLenum(GL_EXTENSIONS), GLuint(i)) else { continue }
            let name = String(cString: UnsafeRawPointer(p).assumingMemoryBound(to: CChar.self))
            if name == "GL_EXT_color_buffer_float" || name == "GL_EXT_color_buffer_half_float" { return true }
        }
        return false
    }
}
