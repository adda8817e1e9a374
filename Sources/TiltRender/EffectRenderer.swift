import CEGL
import Foundation
import TiltEffects

/// Draws a preset's render passes with the current GL context.
///
/// Compiling happens in `init`, so a preset that fails to compile never replaces one that works: hot reload builds a
/// new renderer and keeps the old one on error.
public final class EffectRenderer {
    /// The preset drawn.
    public let preset: Preset
    /// Its passes.
    public let passes: [RenderPass]
    private let programs: [ShaderProgram]
    private var vertexArray: GLuint = 0
    /// Per pass: its output textures (two for stateful passes), or empty for the last pass.
    private var targets: [[RenderTarget]] = []
    private var targetSize: SIMD2<Int> = .zero
    private var pingPong = 0
    /// Whether the static passes' textures hold their current output (see ``invalidateStaticPasses()``).
    private var staticPassesBaked = false
    /// Per pass: how many times it has been drawn since the renderer was made.
    public private(set) var drawCounts: [Int]
    /// How many passes the last frame drew (the static passes count only when they were baked in that frame).
    public private(set) var passesDrawnLastFrame = 0

    /// Whether a frame depends on time or on the previous frame, so it must be redrawn even when the motion, size
    /// and pointer have not changed.
    public let isAnimated: Bool

    /// Compiles every pass of `preset`.
    /// - Throws: `PresetError` when a file cannot be read, `RenderError.compile` naming file:line.
    public convenience init(preset: Preset) throws {
        try self.init(preset: preset, passes: PassPlanner.plan(preset))
    }

    /// Compiles `passes`, a plan of `preset` (e.g. one with nothing baked, to compare with `PassPlanner`'s).
    /// - Throws: `PresetError` when a file cannot be read, `RenderError.compile` naming file:line.
    public init(preset: Preset, passes: [RenderPass]) throws {
        self.preset = preset
        self.passes = passes
        var programs: [ShaderProgram] = []
        for pass in passes {
            programs.append(try ShaderProgram(try ShaderGenerator.generate(pass: pass, preset: preset)))
        }
        self.programs = programs
        self.isAnimated = !DependencyAnalysis.dependencies(of: preset).isDisjoint(with: [.time, .previousFrame])
        self.drawCounts = Array(repeating: 0, count: passes.count)
        glGenVertexArrays(1, &vertexArray)
    }

    deinit {
        glDeleteVertexArrays(1, &vertexArray)
    }

    /// Makes the next frame draw the static passes again: call it when their content changes (a new picture they
    /// shade). A resize does it by itself; a hot reload makes a new renderer, which bakes on its first frame.
    public func invalidateStaticPasses() {
        staticPassesBaked = false
    }

    /// Renders one frame into `framebuffer` (0 for a window's back buffer) of `width`×`height`.
    public func render(_ inputs: FrameInputs, framebuffer: GLuint, width: Int, height: Int) throws(RenderError) {
        if targetSize != SIMD2(width, height) { try makeTargets(width: width, height: height) }
        glBindVertexArray(vertexArray)
        glDisable(GLenum(GL_BLEND))
        glDisable(GLenum(GL_DEPTH_TEST))
        var previous: (target: RenderTarget, padding: SIMD2<Double>)?
        passesDrawnLastFrame = 0
        for (i, pass) in passes.enumerated() {
            let program = programs[i]
            let last = i == passes.count - 1
            let target: RenderTarget? = last ? nil : targets[i][pass.stateful ? pingPong : 0]
            if pass.isStatic, staticPassesBaked, let target {
                previous = (target, pass.outputPadding)
                continue
            }
            let w = target?.width ?? width
            let h = target?.height ?? height
            glBindFramebuffer(GLenum(GL_FRAMEBUFFER), target?.framebuffer ?? framebuffer)
            glViewport(0, 0, GLsizei(w), GLsizei(h))
            glUseProgram(program.id)
            setBuiltins(program, inputs)
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
            if pass.stateful {
                glActiveTexture(GLenum(GL_TEXTURE1))
                glBindTexture(GLenum(GL_TEXTURE_2D), targets[i][1 - pingPong].texture)
                glUniform1i(program.location("tilt_previousTexture"), 1)
            }
            glDrawArrays(GLenum(GL_TRIANGLES), 0, 3)
            drawCounts[i] += 1
            passesDrawnLastFrame += 1
            if let target { previous = (target, pass.outputPadding) }
        }
        staticPassesBaked = true
        if passes.contains(where: \.stateful) { pingPong = 1 - pingPong }
        glActiveTexture(GLenum(GL_TEXTURE0))
    }

    private func setBuiltins(_ p: ShaderProgram, _ f: FrameInputs) {
        glUniform1f(p.location("iTime"), GLfloat(f.time))
        glUniform1f(p.location("iTimeDelta"), GLfloat(f.timeDelta))
        glUniform3f(p.location("iResolution"), GLfloat(f.size.x), GLfloat(f.size.y), 1)
        let mouseY = f.size.y - f.pointer.y
        let down: GLfloat = f.pointerDown ? 1 : -1
        glUniform4f(
            p.location("iMouse"), GLfloat(f.pointer.x), GLfloat(mouseY), down * GLfloat(f.pointer.x),
            down * GLfloat(mouseY))
        glUniform1i(p.location("iFrame"), GLint(truncatingIfNeeded: f.frame))
        glUniform2f(p.location("iTilt"), GLfloat(f.tilt.x), GLfloat(f.tilt.y))
        glUniform3f(p.location("iGravity"), GLfloat(f.gravity.x), GLfloat(f.gravity.y), GLfloat(f.gravity.z))
        glUniform4f(
            p.location("iAttitude"), GLfloat(f.attitude.x), GLfloat(f.attitude.y), GLfloat(f.attitude.z),
            GLfloat(f.attitude.w))
        glUniform3f(p.location("iEuler"), GLfloat(f.euler.x), GLfloat(f.euler.y), GLfloat(f.euler.z))
        glUniform3f(
            p.location("iRotationRate"), GLfloat(f.rotationRate.x), GLfloat(f.rotationRate.y),
            GLfloat(f.rotationRate.z))
        glUniform2f(p.location("tilt_pointer"), GLfloat(f.pointer.x), GLfloat(f.pointer.y))
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
        targetSize = SIMD2(width, height)
        staticPassesBaked = false
    }
}
