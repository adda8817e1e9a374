import CEGL
import FoundationEssentials
import TiltCore
import TiltEffects
import TiltImage

/// A preset's Shadertoy program on the GPU: the buffer passes with their ping-pong textures, Cube A with its cube map,
/// the image and cube-map textures of its channels, the textures of its live channels (video, camera, sound: their
/// pixels are handed in by ``show(_:_:)``) and a sampler object per filter and wrap; renders the buffers and Cube A and
/// binds any pass's channels.
///
/// Buffers render in the order A, B, C, D, then Cube A. A channel reading a buffer or Cube A gets the texture it wrote
/// last: this frame's for one that rendered earlier in the frame, the previous frame's for the pass's own output
/// (feedback) or a later one, as on Shadertoy.
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
    /// Cube A's program and the cube maps it draws into (two when it reads its own previous frame), the newest last.
    private let cubeProgram: ShaderProgram?
    private var cubeTargets: [ShadertoyCube] = []
    /// Whether Cube A reads nothing that changes per frame, so it is drawn once; and whether it was.
    private let cubeIsStatic: Bool
    private var cubeDrawn = false
    /// Cube maps made of image files, by faces and flip.
    private var cubeMaps: [String: ShadertoyCube] = [:]
    /// The textures of channels that change by themselves, by source and flip.
    private var live: [LiveKey: LiveChannelTexture] = [:]

    /// A live channel's texture: the same source read flipped and upright needs two.
    private struct LiveKey: Hashable {
        var source: ShadertoyChannel.Source
        var vflip: Bool
    }

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
        cubeIsStatic = DependencyAnalysis.dependencies(ofCubeIn: preset).isStatic
        cubeProgram = try program.cube.map {
            try ShaderProgram(
                try ShaderGenerator.generate(
                    pass: RenderPass(input: .shadertoyCube(file: $0.code.name)), preset: preset))
        }
        var textures: [String: ImageTexture] = [:]
        var mipmapped: Set<ShadertoyBuffer> = []
        for pass in program.passes {
            for channel in pass.channels {
                let key = LiveKey(source: channel.source, vflip: channel.vflip)
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
                case .cubemap(let faces):
                    let key = Self.cubeKey(faces, vflip: channel.vflip)
                    guard cubeMaps[key] == nil else { continue }
                    do { cubeMaps[key] = try ShadertoyCube(faces: faces, vflip: channel.vflip) } catch {
                        throw RenderError.read(
                            error.path, reason: "pass '\(pass.name)', iChannel\(channel.index): \(error.reason)")
                    }
                case .cubeBuffer:
                    break
                case .video, .webcam, .music, .microphone:
                    if live[key] == nil { live[key] = LiveChannelTexture(vflip: channel.vflip) }
                    if channel.source.isSound {
                        live[key]?.show(.silence)
                    }
                }
            }
        }
        self.textures = textures
        self.mipmapped = mipmapped
        format = Self.canRenderFloat ? .rgba16f : .rgba8
        if program.cube != nil {
            let feedback = program.cube?.channels.contains { $0.source == .cubeBuffer } == true
            for _ in 0..<(feedback ? 2 : 1) {
                cubeTargets.append(try ShadertoyCube(renderTarget: ShadertoyCube.passSize, format: format))
            }
        }
        if format == .rgba8 && (!program.buffers.isEmpty || program.cube != nil) {
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
        defer { renderCube(inputs) }
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

    /// Renders Cube A into the six faces of its newest cube map (the older one, with feedback, is what it reads); a
    /// static Cube A only once.
    private func renderCube(_ inputs: FrameInputs) {
        guard let pass = program.cube, let shader = cubeProgram, !cubeTargets.isEmpty else { return }
        if cubeIsStatic && cubeDrawn { return }
        cubeDrawn = true
        if cubeTargets.count == 2 { cubeTargets.swapAt(0, 1) }
        let target = cubeTargets[cubeTargets.count - 1]
        // The pass reads the previous cube (index 0) while it draws: bound before the target is.
        var faceInputs = inputs
        faceInputs.size = SIMD2(Double(target.size), Double(target.size))
        glUseProgram(shader.id)
        EffectRenderer.setBuiltins(shader, faceInputs)
        glUniform2f(shader.location("tilt_targetSize"), GLfloat(target.size), GLfloat(target.size))
        glUniform2f(shader.location("tilt_targetPadding"), 0, 0)
        bindChannels(of: pass, shader, inputs, reading: cubeTargets[0])
        for face in 0..<6 {
            do { try target.bindFace(face) } catch { return }
            glUniformMatrix3fv(
                shader.location("tilt_cubeFace"), 1, GLboolean(GL_FALSE), ShadertoyCube.faceMatrices[face])
            glDrawArrays(GLenum(GL_TRIANGLES), 0, 3)
        }
    }

    /// Shows a live channel's newest pixels (a video frame, the camera, the sound texture); every channel reading
    /// `source` shows them from the next frame drawn. Pixels of a source no channel reads are dropped.
    func show(_ source: ShadertoyChannel.Source, _ pixels: ChannelPixels) {
        for (key, texture) in live where key.source == source { texture.show(pixels) }
    }

    /// Binds the channels of `pass` to `shader` (in use), with `iChannelResolution`, `iChannelTime`, `iDate`,
    /// `iFrameRate` and `iSampleRate`. A channel the pass does not use reads nothing (black).
    /// - Parameter cube: the cube map a Cube A channel reads (default: the one Cube A drew last).
    func bindChannels(
        of pass: ShadertoyPass, _ shader: ShaderProgram, _ inputs: FrameInputs, reading cube: ShadertoyCube? = nil
    ) {
        var resolution = [GLfloat](repeating: 0, count: 12)
        var times = [GLfloat](repeating: GLfloat(inputs.time), count: 4)
        for index in 0..<4 {
            let unit = Self.firstUnit + GLint(index)
            glActiveTexture(GLenum(GL_TEXTURE0) + GLenum(unit))
            glUniform1i(shader.location("iChannel\(index)"), unit)
            glBindTexture(GLenum(GL_TEXTURE_2D), 0)
            glBindTexture(GLenum(GL_TEXTURE_CUBE_MAP), 0)
            guard let channel = pass.channels.first(where: { $0.index == index }),
                let bound = texture(for: channel, cube: cube)
            else {
                glBindSampler(GLuint(unit), 0)
                continue
            }
            glBindTexture(GLenum(channel.source.isCube ? GL_TEXTURE_CUBE_MAP : GL_TEXTURE_2D), bound.texture)
            glBindSampler(GLuint(unit), sampler(channel))
            resolution[index * 3] = GLfloat(bound.width)
            resolution[index * 3 + 1] = GLfloat(bound.height)
            resolution[index * 3 + 2] = 1
            if let time = bound.time { times[index] = GLfloat(time) }
        }
        glActiveTexture(GLenum(GL_TEXTURE0))
        glUniform3fv(shader.location("iChannelResolution"), 4, resolution)
        glUniform1fv(shader.location("iChannelTime"), 4, times)
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

    /// The texture a channel reads, its size, and its own clock (a live channel's media time; `nil`: the frame's).
    private func texture(for channel: ShadertoyChannel, cube: ShadertoyCube?)
        -> (texture: GLuint, width: Int, height: Int, time: Double?)?
    {
        switch channel.source {
        case .texture(let path):
            return textures[Self.textureKey(path, vflip: channel.vflip)].map { ($0.id, $0.width, $0.height, nil) }
        case .buffer(let buffer):
            guard let pair = targets[buffer], let last = latest[buffer] else { return nil }
            return (pair[last].texture, pair[last].width, pair[last].height, nil)
        case .keyboard:
            return keyboardTexture == 0
                ? nil : (keyboardTexture, ShadertoyKeyboard.width, ShadertoyKeyboard.height, nil)
        case .cubemap(let faces):
            return cubeMaps[Self.cubeKey(faces, vflip: channel.vflip)].map { ($0.texture, $0.size, $0.size, nil) }
        case .cubeBuffer:
            return (cube ?? cubeTargets.last).map { ($0.texture, $0.size, $0.size, nil) }
        case .video, .webcam, .music, .microphone:
            return live[LiveKey(source: channel.source, vflip: channel.vflip)].map {
                ($0.texture, $0.width, $0.height, $0.time)
            }
        }
    }

    private static func cubeKey(_ faces: [String], vflip: Bool) -> String {
        "\(vflip ? "flipped" : "upright"):" + faces.joined(separator: "\n")
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
