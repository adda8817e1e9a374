import CEGL
import FoundationEssentials
import TiltEffects
import TiltImage

/// Draws a preset's render passes with the current GL context.
///
/// Compiling happens in `init`, so a preset that fails to compile never replaces one that works: hot reload builds a
/// new renderer and keeps the old one on error.
package final class EffectRenderer {
    /// The preset drawn.
    package let preset: Preset
    /// Its passes.
    package let passes: [RenderPass]
    private let programs: [ShaderProgram]
    /// The Shadertoy buffers and channels, when the preset has a Shadertoy program.
    private let toy: ShadertoyPasses?
    private var vertexArray: GLuint = 0
    /// Per pass: its output textures (two for stateful passes), or empty for the last pass.
    private var targets: [[RenderTarget]] = []
    package var targetSize: SIMD2<Int> = .zero
    private var pingPong = 0
    /// The user's picture, its texture and the program that fits it to the canvas, when one is given.
    /// (A moving picture's frames replace its texture and content size: EffectRenderer+Video.swift.)
    package var picture: (content: PictureContent, texture: ImageTexture, fit: GLuint)?
    /// The picture fitted to the current size, in the effects' colour (drawn when the size or the picture changes).
    var pictureCanvas: RenderTarget?
    /// The transparent margin around the picture in ``pictureCanvas``: the first pass's padding when the canvas is
    /// that pass's output (``fitsIntoFirstPass``), else zero.
    private var picturePadding: SIMD2<Double> = .zero
    /// The preset's named textures, in the order of `preset.textures`, on units from ``TextureUnit/firstNamedTexture``
    private let textures: [ImageTexture]
    /// The preset's simulation and its textures, stepped once per frame, when it has one.
    private let simulation: SimulationTextures?
    /// Per pass whose layer effect has a `blur`: what draws it, and the blurred texture of the current layer below
    /// (redrawn when that layer is).
    private var blurs: [Int: (renderer: LayerBlurRenderer, texture: GLuint?)] = [:]
    /// Whether the static passes' textures hold their current output (see ``invalidateStaticPasses()``).
    private var staticPassesBaked = false
    /// Per pass: how many times it has been drawn since the renderer was made.
    package private(set) var drawCounts: [Int]
    /// How many passes the last frame drew (the static passes count only when they were baked in that frame).
    package private(set) var passesDrawnLastFrame = 0

    /// Whether a frame depends on time or on the previous frame, so it must be redrawn even when the motion, size
    /// and pointer have not changed.
    package let isAnimated: Bool
    /// The inputs the preset's programs read (``BuiltinUniform/Source``): render-on-change compares only these, so a
    /// preset that reads the tilt is not redrawn for a heading that wanders.
    package let motionSources: Set<BuiltinUniform.Source>

    /// Compiles every pass of `preset`, drawn on `picture` when one is given (uploaded here).
    /// - Parameter passes: a plan of `preset` to draw instead of `PassPlanner`'s (e.g. one with nothing baked, to
    ///   compare with it).
    /// - Throws: `PresetError` when a file cannot be read, `RenderError.compile` naming file:line, `ImageError` for a
    ///   picture larger than the GL holds.
    package init(preset: Preset, picture: PictureContent? = nil, passes: [RenderPass]? = nil) throws {
        self.preset = preset
        self.passes = passes ?? PassPlanner.plan(preset, picture: picture != nil)
        self.picture = try picture.map { (p: PictureContent) throws in
            // A moving picture's frames go up as plain bytes, fitted without colour conversion (EffectRenderer+Video).
            let texture = try ImageTexture(image: p.image, path: p.path, options: p.isMoving ? .video : .init())
            let fit = try ShaderProgram.link(
                vertex: ShaderGenerator.vertexSource,
                fragment: p.isMoving ? ShaderGenerator.videoFitSource : ShaderGenerator.pictureFitSource)
            return (p, texture, fit)
        }
        self.textures = try PresetTextureLoader.load(preset.textures)
        self.simulation = preset.simulation.map { SimulationTextures($0, effects: preset.effects) }
        var programs: [ShaderProgram] = []
        for pass in self.passes {
            programs.append(
                try ShaderProgram(try ShaderGenerator.generate(pass: pass, preset: preset, picture: picture != nil)))
        }
        self.programs = programs
        for (i, pass) in self.passes.enumerated() {
            if case .layer(let e) = pass.input, preset.effects[e].blur != nil {
                blurs[i] = (try LayerBlurRenderer(), nil)
            }
        }
        // A plain `mainImage` file is a program with no channels: its unused channels still sample black.
        let plain = preset.shadertoy.map {
            ShadertoyProgram(image: ShadertoyPass(name: "Image", code: .init(name: $0)))
        }
        toy = try (preset.shadertoyProgram ?? plain).map { try ShadertoyPasses(preset: preset, program: $0) }
        // A Shadertoy program with buffers, Cube A or a live channel depends on everything (DependencyAnalysis), so it
        // is animated too.
        self.isAnimated = !DependencyAnalysis.dependencies(of: preset).isDisjoint(with: [.time, .previousFrame])
        // What the compiled programs read: GLSL drops a uniform the code does not use (its location is -1), so this
        // is exact where the source analysis can only say "motion". Buffers of a Shadertoy program redraw anyway.
        let read = BuiltinUniform.all.filter { builtin in programs.contains { $0.location(builtin.name) != -1 } }
        self.motionSources = Set(read.map(\.source))
        self.drawCounts = Array(repeating: 0, count: self.passes.count)
        glGenVertexArrays(1, &vertexArray)
    }

    deinit {
        if let picture { glDeleteProgram(picture.fit) }
        glDeleteVertexArrays(1, &vertexArray)
    }

    /// Shows the newest pixels of a Shadertoy channel that changes by itself (a video frame, the camera, the sound
    /// texture) from the next frame drawn: whoever plays the media hands them in, since TiltGL plays none.
    package func showChannel(_ source: ShadertoyChannel.Source, _ pixels: ChannelPixels) {
        toy?.show(source, pixels)
    }

    /// Makes the next frame draw the static passes again: call it when their content changes (a new picture they
    /// shade). A resize does it by itself; a hot reload makes a new renderer, which bakes on its first frame.
    package func invalidateStaticPasses() {
        staticPassesBaked = false
    }

    /// Renders one frame into `framebuffer` (0 for a window's back buffer) of `width`×`height`.
    package func render(_ inputs: FrameInputs, framebuffer: GLuint, width: Int, height: Int) throws(RenderError) {
        if targetSize != SIMD2(width, height) { try makeTargets(width: width, height: height) }
        glBindVertexArray(vertexArray)
        glDisable(GLenum(GL_BLEND))
        glDisable(GLenum(GL_DEPTH_TEST))
        try toy?.renderBuffers(inputs, width: width, height: height)
        simulation?.update(inputs, width: width, height: height)
        var previous: (target: RenderTarget, padding: SIMD2<Double>)?
        var previousDrawn = false
        passesDrawnLastFrame = 0
        for (i, pass) in passes.enumerated() {
            let program = programs[i]
            let last = i == passes.count - 1
            let target: RenderTarget? = last ? nil : targets[i][pass.stateful ? pingPong : 0]
            if pass.isStatic, staticPassesBaked, let target {
                previous = (target, pass.outputPadding)
                previousDrawn = false
                continue
            }
            if i == 0, fitsIntoFirstPass, let target {
                // The fit drew this pass's output already (a new video frame): nothing to copy.
                previous = (target, pass.outputPadding)
                previousDrawn = true
                drawCounts[i] += 1
                passesDrawnLastFrame += 1
                continue
            }
            if let blur = blurs[i], let previous, case .layer(let e) = pass.input,
                let settings = preset.effects[e].blur,
                previousDrawn || blur.texture == nil
            {
                let texture = try blur.renderer.draw(
                    settings, source: previous.target, padding: previous.padding, width: width, height: height)
                blurs[i]?.texture = texture
            }
            let w = target?.width ?? width
            let h = target?.height ?? height
            glBindFramebuffer(GLenum(GL_FRAMEBUFFER), target?.framebuffer ?? framebuffer)
            glViewport(0, 0, GLsizei(w), GLsizei(h))
            glUseProgram(program.id)
            Self.setBuiltins(program, inputs)
            if case .shadertoy = pass.input, let toy { toy.bindChannels(of: toy.program.image, program, inputs) }
            glUniform2f(program.location("tilt_targetSize"), GLfloat(w), GLfloat(h))
            glUniform2f(
                program.location("tilt_targetPadding"), GLfloat(pass.outputPadding.x), GLfloat(pass.outputPadding.y))
            if let previous {
                glActiveTexture(GLenum(GL_TEXTURE0))
                glBindTexture(GLenum(GL_TEXTURE_2D), previous.target.texture)
                glUniform1i(program.location("tilt_layerTexture"), 0)
                glUniform2f(
                    program.location("tilt_layerPadding"), GLfloat(previous.padding.x), GLfloat(previous.padding.y))
                glUniform2f(
                    program.location("tilt_layerTextureSize"), GLfloat(previous.target.width),
                    GLfloat(previous.target.height))
            }
            bindPicture(program, canvas: SIMD2(Double(width), Double(height)))
            for (unit, (texture, declared)) in zip(textures, preset.textures).enumerated() {
                TextureUnit.activate(TextureUnit.firstNamedTexture + GLint(unit))
                let simulated = declared.simulated ? simulation?.texture(named: declared.name) : nil
                glBindTexture(GLenum(GL_TEXTURE_2D), simulated ?? texture.id)
                glUniform1i(program.location(declared.uniformName), TextureUnit.firstNamedTexture + GLint(unit))
            }
            if let blurred = blurs[i]?.texture {
                TextureUnit.activate(TextureUnit.blur)
                glBindTexture(GLenum(GL_TEXTURE_2D), blurred)
                glUniform1i(program.location("tilt_blurTexture"), TextureUnit.blur)
            }
            if pass.stateful {
                glActiveTexture(GLenum(GL_TEXTURE1))
                glBindTexture(GLenum(GL_TEXTURE_2D), targets[i][1 - pingPong].texture)
                glUniform1i(program.location("tilt_previousTexture"), 1)
            }
            glDrawArrays(GLenum(GL_TRIANGLES), 0, 3)
            drawCounts[i] += 1
            passesDrawnLastFrame += 1
            if let target { previous = (target, pass.outputPadding) }
            previousDrawn = true
        }
        staticPassesBaked = true
        if passes.contains(where: \.stateful) { pingPong = 1 - pingPong }
        glActiveTexture(GLenum(GL_TEXTURE0))
    }

    /// The picture's texture unit with the picture fitted to the canvas, and the picture's rectangle (zero without one).
    private func bindPicture(_ program: ShaderProgram, canvas: SIMD2<Double>) {
        guard let picture, let pictureCanvas else {
            glUniform4f(program.location("tilt_pictureRect"), 0, 0, 0, 0)
            return
        }
        let r = picture.content.rect(canvas: canvas)
        TextureUnit.activate(TextureUnit.picture)
        glBindTexture(GLenum(GL_TEXTURE_2D), pictureCanvas.texture)
        glUniform1i(program.location("tilt_pictureCanvas"), TextureUnit.picture)
        glUniform4f(program.location("tilt_pictureRect"), GLfloat(r.x), GLfloat(r.y), GLfloat(r.z), GLfloat(r.w))
        glUniform2f(program.location("tilt_canvasSize"), GLfloat(canvas.x), GLfloat(canvas.y))
        glUniform2f(program.location("tilt_picturePadding"), GLfloat(picturePadding.x), GLfloat(picturePadding.y))
    }

    /// Whether the picture is fitted straight into the first pass's output: a moving picture (a new fit each video
    /// frame) under a first pass that only copies it into a padded texture for a layer effect (no effect chained,
    /// static). Its fit draws the picture inside that pass's transparent margin, which is what the copy drew, so
    /// the copy (a full-size pass per video frame) is skipped.
    var fitsIntoFirstPass: Bool {
        guard let picture, picture.content.isMoving, passes.count > 1, let first = passes.first else { return false }
        return first.input == .picture && first.chain.isEmpty && first.isStatic && !first.stateful
    }

    /// Draws the picture fitted to a `width`×`height` canvas into ``pictureCanvas``: sRGB-decoded and filtered in
    /// linear light by the GL, encoded into the effects' colour, once per size.
    package func fitPicture(width: Int, height: Int) throws(RenderError) {
        guard let picture else { return }
        let canvas: RenderTarget
        var padding = SIMD2<Double>.zero
        if fitsIntoFirstPass, let first = targets.first?.first {
            canvas = first
            padding = passes[0].outputPadding
        } else if let reusable = pictureCanvas, reusable.width == width, reusable.height == height {
            canvas = reusable
        } else {
            canvas = try RenderTarget(width: width, height: height)
        }
        let r = picture.content.rect(canvas: SIMD2(Double(width), Double(height)))
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), canvas.framebuffer)
        glUseProgram(picture.fit)
        glBindVertexArray(vertexArray)
        TextureUnit.activate(TextureUnit.picture)
        glBindTexture(GLenum(GL_TEXTURE_2D), picture.texture.id)
        glUniform1i(glGetUniformLocation(picture.fit, "tilt_picture"), TextureUnit.picture)
        glUniform4f(
            glGetUniformLocation(picture.fit, "tilt_pictureRect"), GLfloat(r.x), GLfloat(r.y), GLfloat(r.z),
            GLfloat(r.w))
        glUniform2f(
            glGetUniformLocation(picture.fit, "tilt_targetSize"), GLfloat(canvas.width), GLfloat(canvas.height))
        glUniform2f(
            glGetUniformLocation(picture.fit, "tilt_targetPadding"), GLfloat(padding.x), GLfloat(padding.y))
        glViewport(0, 0, GLsizei(canvas.width), GLsizei(canvas.height))
        glDrawArrays(GLenum(GL_TRIANGLES), 0, 3)
        pictureCanvas = canvas
        picturePadding = padding
    }

    /// Sets the built-in uniforms every pass has (``BuiltinUniform/all``) from the frame's inputs.
    static func setBuiltins(_ p: ShaderProgram, _ f: FrameInputs) {
        for builtin in BuiltinUniform.all {
            let value = builtin.source.value(in: f)
            let v = SIMD4<GLfloat>(value)
            let at = p.location(builtin.name)
            switch builtin.type {
            case .float: glUniform1f(at, v.x)
            case .int: glUniform1i(at, GLint(truncatingIfNeeded: Int(value.x)))
            case .vec2: glUniform2f(at, v.x, v.y)
            case .vec3: glUniform3f(at, v.x, v.y, v.z)
            case .vec4: glUniform4f(at, v.x, v.y, v.z, v.w)
            }
        }
    }

    private func makeTargets(width: Int, height: Int) throws(RenderError) {
        try TargetSizeCheck.check(
            width: width, height: height, passes: passes, limits: .current, renderer: GLInfo.renderer)
        targets = []
        for (i, pass) in passes.enumerated() {
            guard i < passes.count - 1 else {
                targets.append([])
                continue
            }
            let w = width + 2 * Int(pass.outputPadding.x)
            let h = height + 2 * Int(pass.outputPadding.y)
            var list = [try RenderTarget(width: w, height: h)]
            if pass.stateful { list.append(try RenderTarget(width: w, height: h)) }
            targets.append(list)
        }
        try fitPicture(width: width, height: height)
        targetSize = SIMD2(width, height)
        staticPassesBaked = false
        for i in blurs.keys { blurs[i]?.texture = nil }
    }
}
