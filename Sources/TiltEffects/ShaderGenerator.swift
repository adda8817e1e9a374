import Foundation

/// Writes the GLSL ES 3.00 source of each render pass.
///
/// Every pass shares one prelude of built-in uniforms (Shadertoy's `iTime`, `iResolution`, `iMouse`, `iFrame`, plus
/// `iTilt`, `iGravity`, `iAttitude`, `iEuler`, `iRotationRate`, `tilt_pointer`), the `Layer` type with
/// `sampleLayer`/`samplePrevious`, then each preset file the pass uses after a `#line N*100000+1 N` directive, then
/// glue code that chains the effects. File N maps back through `ShaderSourceMap`, by the source-string number or, for
/// compilers that report only line numbers (Mesa prints source 0), by the line number's block.
public enum ShaderGenerator {
    /// The vertex shader shared by every pass: one triangle that covers the viewport.
    public static let vertexSource = """
        #version 300 es
        void main() {
            vec2 p = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2));
            gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0);
        }

        """

    /// The prelude every fragment shader starts with.
    static let prelude = """
        #version 300 es
        precision highp float;
        precision highp int;
        precision highp sampler2D;
        uniform float iTime;
        uniform float iTimeDelta;
        uniform vec3 iResolution;
        uniform vec4 iMouse;
        uniform int iFrame;
        uniform vec2 iTilt;
        uniform vec3 iGravity;
        uniform vec4 iAttitude;
        uniform vec3 iEuler;
        uniform vec3 iRotationRate;
        uniform vec2 tilt_pointer;
        uniform vec2 tilt_targetSize;
        uniform vec2 tilt_targetPadding;
        uniform sampler2D tilt_layerTexture;
        uniform vec2 tilt_layerPadding;
        uniform vec2 tilt_layerTextureSize;
        uniform sampler2D tilt_previousTexture;
        out vec4 tilt_fragColor;
        /// The layer below a layer effect: its size in pixels.
        struct Layer { vec2 size; };
        vec4 tilt_sampleTexture(sampler2D tex, vec2 position) {
            vec2 uv = (position + tilt_layerPadding) / tilt_layerTextureSize;
            return texture(tex, vec2(uv.x, 1.0 - uv.y));
        }
        /// Samples the layer below at `position` (pixels, origin top-left).
        vec4 sampleLayer(Layer layer, vec2 position) { return tilt_sampleTexture(tilt_layerTexture, position); }
        /// Samples this stateful effect's own output from the previous frame.
        vec4 samplePrevious(vec2 position) {
            vec2 uv = (position + tilt_targetPadding) / tilt_targetSize;
            return texture(tilt_previousTexture, vec2(uv.x, 1.0 - uv.y));
        }

        """

    /// Generates the shader of `pass`.
    /// - Parameters:
    ///   - pass: a pass from `PassPlanner.plan`.
    ///   - preset: the preset it belongs to.
    ///   - readFile: reads a shader file's text (injectable for tests).
    /// - Throws: `PresetError.unreadable` when a shader file cannot be read.
    public static func generate(
        pass: RenderPass, preset: Preset,
        readFile: (String) throws -> String = { try String(contentsOfFile: $0, encoding: .utf8) }
    ) throws(PresetError) -> GeneratedShader {
        var files: [String] = ["<generated>"]
        var text = prelude
        var lineCount = prelude.split(separator: "\n", omittingEmptySubsequences: false).count - 1

        func include(_ path: String) throws(PresetError) {
            guard !files.contains(path) else { return }
            let body: String
            do { body = try readFile(path) } catch {
                throw .unreadable(path, reason: (error as NSError).localizedDescription)
            }
            files.append(path)
            let number = files.count - 1
            append("#line \(number * ShaderSourceMap.lineBlock + 1) \(number)\n")
            append(body.hasSuffix("\n") ? body : body + "\n")
        }
        func append(_ s: String) {
            text += s
            lineCount += s.reduce(0) { $1 == "\n" ? $0 + 1 : $0 }
        }

        var effectIndices = pass.chain
        if case .layer(let e) = pass.input { effectIndices.insert(e, at: 0) }
        if case .shadertoy(let file) = pass.input { try include(file) }
        for index in effectIndices { try include(preset.effects[index].file) }

        // Glue: line numbers of source 0 continue from the prelude (the next line is lineCount + 2 after #line).
        let glueStart = lineCount + 2
        append("#line \(glueStart) 0\n")
        var callSites: [Int: String] = [:]
        var glue: [String] = []
        func emit(_ line: String, callTo function: String? = nil) {
            if let function { callSites[glueStart + glue.count] = function }
            glue.append(line)
        }
        switch pass.input {
        case .transparent:
            emit("vec4 tilt_stage0(vec2 p) { return vec4(0.0); }")
        case .copy:
            // A stateful pass keeps its own state in alpha; what is shown is its colour, opaque.
            emit("vec4 tilt_stage0(vec2 p) { return vec4(tilt_sampleTexture(tilt_layerTexture, p).rgb, 1.0); }")
        case .baked:
            emit("vec4 tilt_stage0(vec2 p) { return tilt_sampleTexture(tilt_layerTexture, p); }")
        case .shadertoy:
            emit("vec4 tilt_stage0(vec2 p) {")
            emit("    vec4 c = vec4(0.0, 0.0, 0.0, 1.0);")
            emit("    mainImage(c, vec2(p.x, iResolution.y - p.y));", callTo: "mainImage")
            emit("    return c;")
            emit("}")
        case .layer(let e):
            let effect = preset.effects[e]
            emit("vec4 tilt_stage0(vec2 p) {")
            emit(
                "    return \(effect.function)(p, Layer(iResolution.xy)\(arguments(effect)));", callTo: effect.function)
            emit("}")
        }
        for (n, index) in pass.chain.enumerated() {
            let effect = preset.effects[index]
            let prev = "tilt_stage\(n)"
            let call: String
            switch effect.kind {
            case .color: call = "return \(effect.function)(p, \(prev)(p)\(arguments(effect)));"
            case .distortion: call = "return \(prev)(\(effect.function)(p\(arguments(effect))));"
            case .layer: call = "return \(prev)(p);"  // never chained: layer effects start passes
            }
            emit("vec4 tilt_stage\(n + 1)(vec2 p) {")
            emit("    \(call)", callTo: effect.function)
            emit("}")
        }
        emit("void main() {")
        emit("    vec2 p = vec2(gl_FragCoord.x, tilt_targetSize.y - gl_FragCoord.y) - tilt_targetPadding;")
        emit("    tilt_fragColor = tilt_stage\(pass.chain.count)(p);")
        emit("}")
        append(glue.joined(separator: "\n") + "\n")

        return GeneratedShader(
            vertexSource: vertexSource, fragmentSource: text,
            sourceMap: ShaderSourceMap(files: files, presetFile: preset.file, callSites: callSites))
    }

    private static func arguments(_ effect: Effect) -> String {
        effect.arguments.map { ", " + $0.glslExpression }.joined()
    }
}
