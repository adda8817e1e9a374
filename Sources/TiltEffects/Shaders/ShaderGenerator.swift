import FoundationEssentials
import TiltCore

/// Writes the GLSL ES 3.00 source of each render pass.
///
/// Every pass shares one prelude of built-in uniforms (the table of ``BuiltinUniform``: Shadertoy's time, resolution,
/// mouse and frame, and tilt's motion and pointer; Shadertoy's channels `iChannel0..3` with `iChannelResolution`,
/// `iChannelTime`, `iDate`, `iFrameRate`, `iSampleRate`; `HW_PERFORMANCE` is 1), the `Layer`
/// type with `sampleLayer`/`samplePrevious`, then each preset file the pass uses after a `#line N*100000+1 N`
/// directive (a Shadertoy pass: the Common code, then its own), then glue code that chains the effects. A Shadertoy
/// buffer pass is generated as a pass whose input is the buffer's code. File N maps back through `ShaderSourceMap`, by the source-string number or, for
/// compilers that report only line numbers (Mesa prints source 0), by the line number's block.
package enum ShaderGenerator {
    /// The vertex shader shared by every pass: one triangle that covers the viewport.
    package static let vertexSource = """
        #version 300 es
        void main() {
            vec2 p = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2));
            gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0);
        }

        """

    /// The prelude every fragment shader starts with: the built-in uniforms of ``BuiltinUniform/all``, then the
    /// renderer's own.
    static let prelude =
        """
        #version 300 es
        precision highp float;
        precision highp int;
        precision highp sampler2D;

        """ + BuiltinUniform.all.map { $0.declaration + "\n" }.joined() + """
            uniform vec2 tilt_targetSize;
            uniform vec2 tilt_targetPadding;
            uniform sampler2D tilt_layerTexture;
            uniform vec2 tilt_layerPadding;
            uniform vec2 tilt_layerTextureSize;
            uniform sampler2D tilt_previousTexture;
            out vec4 tilt_fragColor;
            #define HW_PERFORMANCE 1
            uniform sampler2D iChannel0;
            uniform sampler2D iChannel1;
            uniform sampler2D iChannel2;
            uniform sampler2D iChannel3;
            uniform mat3 tilt_cubeFace;
            uniform vec3 iChannelResolution[4];
            uniform float iChannelTime[4];
            uniform vec4 iDate;
            uniform float iFrameRate;
            uniform float iSampleRate;
            /// The layer below a layer effect: its size in pixels.
            struct Layer { vec2 size; };
            vec4 tilt_sampleTexture(sampler2D tex, vec2 position) {
                vec2 uv = (position + tilt_layerPadding) / tilt_layerTextureSize;
                return texture(tex, vec2(uv.x, 1.0 - uv.y));
            }
            /// Samples the layer below at `position` (pixels, origin top-left).
            vec4 sampleLayer(Layer layer, vec2 position) { return tilt_sampleTexture(tilt_layerTexture, position); }
            uniform sampler2D tilt_picture;
            uniform sampler2D tilt_pictureCanvas;
            uniform vec4 tilt_pictureRect;
            uniform vec2 tilt_canvasSize;
            uniform vec2 tilt_picturePadding;
            vec3 tilt_encodeSRGB(vec3 c) {
                return mix(c * 12.92, 1.055 * pow(c, vec3(1.0 / 2.4)) - 0.055, step(vec3(0.0031308), c));
            }
            /// A texel of a picture texture (linear, premultiplied) in the effects' colour: premultiplied sRGB values.
            vec4 tilt_workingColor(vec4 t) {
                return t.a > 0.0 ? vec4(tilt_encodeSRGB(clamp(t.rgb / t.a, 0.0, 1.0)) * t.a, t.a) : vec4(0.0);
            }
            /// Whether the user gave a picture (`--image`).
            bool hasPicture() { return tilt_pictureRect.z > 0.0; }
            /// Where the fitted picture lies: origin x, y (top-left) and width, height in pixels; zero without one.
            vec4 pictureRect() { return tilt_pictureRect; }
            /// The picture texture fitted to the canvas: drawn once per canvas size into `tilt_pictureCanvas`.
            vec4 tilt_fitPicture(vec2 position) {
                vec2 uv = (position - tilt_pictureRect.xy) / max(tilt_pictureRect.zw, vec2(1e-6));
                if (!hasPicture() || any(lessThan(uv, vec2(0.0))) || any(greaterThan(uv, vec2(1.0)))) return vec4(0.0);
                return tilt_workingColor(texture(tilt_picture, uv));
            }
            /// The picture at `position` (pixels, origin top-left), premultiplied; transparent outside it or without one.
            /// (`tilt_picturePadding`: the transparent margin of a fitted picture that is also the first pass's output.)
            vec4 samplePicture(vec2 position) {
                vec4 r = tilt_pictureRect;
                if (!hasPicture() || any(lessThan(position, r.xy)) || any(greaterThan(position, r.xy + r.zw))) {
                    return vec4(0.0);
                }
                vec2 uv = (position + tilt_picturePadding) / (tilt_canvasSize + 2.0 * tilt_picturePadding);
                return texture(tilt_pictureCanvas, vec2(uv.x, 1.0 - uv.y));
            }
            /// A named texture at `uv` (0…1, origin top-left) in the effects' colour: premultiplied sRGB values.
            vec4 sampleTexture(sampler2D tex, vec2 uv) { return tilt_workingColor(texture(tex, uv)); }
            uniform sampler2D tilt_blurTexture;
            /// The layer below, blurred as the layer effect's `blur` key says (undefined without one).
            vec4 sampleLayerBlurred(Layer layer, vec2 position) {
                vec2 uv = position / iResolution.xy;
                return texture(tilt_blurTexture, vec2(uv.x, 1.0 - uv.y));
            }
            /// Samples this stateful effect's own output from the previous frame.
            vec4 samplePrevious(vec2 position) {
                vec2 uv = (position + tilt_targetPadding) / tilt_targetSize;
                return texture(tilt_previousTexture, vec2(uv.x, 1.0 - uv.y));
            }

            """

    /// The fragment shader that draws the user's picture fitted to the canvas, in the effects' colour, once per
    /// canvas size: every pass then reads that texture (`samplePicture`) instead of decoding and resampling the
    /// picture for each pixel of each frame.
    package static var pictureFitSource: String {
        prelude + """
            void main() {
                tilt_fragColor = tilt_fitPicture(vec2(gl_FragCoord.x, tilt_targetSize.y - gl_FragCoord.y));
            }

            """
    }

    /// Generates the shader of `pass`.
    /// - Parameters:
    ///   - pass: a pass from `PassPlanner.plan`.
    ///   - preset: the preset it belongs to.
    ///   - readFile: reads a shader file's text (injectable for tests).
    /// - Throws: `PresetError.unreadable` when a shader file cannot be read.
    package static func generate(
        pass: RenderPass, preset: Preset, picture: Bool = false,
        readFile: (String) throws -> String = { try String(contentsOfFile: $0, encoding: .utf8) }
    ) throws(PresetError) -> GeneratedShader {
        var files: [String] = ["<generated>"]
        var head = prelude.replacing(
            "precision highp float;\n",
            with: "precision highp float;\n" + switches(preset: preset, picture: picture))
        // A Shadertoy pass's cube-map channels are `samplerCube`s (the prelude declares `sampler2D`s).
        let toyFile: String? =
            switch pass.input {
            case .shadertoy(let file), .shadertoyCube(let file): file
            default: nil
            }
        for channel in toyFile.flatMap({ preset.shadertoyProgram?.pass(named: $0) })?.channels ?? []
        where channel.source.isCube {
            head = head.replacing(
                "uniform sampler2D iChannel\(channel.index);\n", with: "uniform samplerCube iChannel\(channel.index);\n"
            )
        }
        var text = head
        var lineCount = head.split(separator: "\n", omittingEmptySubsequences: false).count - 1

        func include(_ path: String) throws(PresetError) {
            guard !files.contains(path) else { return }
            let body: String
            do { body = try preset.shadertoyProgram?.inlineText(named: path) ?? readFile(path) } catch {
                throw .unreadable(path, reason: errorReason(error))
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

        for texture in preset.textures { append("uniform sampler2D \(texture.uniformName);\n") }
        var effectIndices = pass.chain
        if case .layer(let e) = pass.input { effectIndices.insert(e, at: 0) }
        if let toyFile {
            if let common = preset.shadertoyProgram?.common { try include(common.name) }
            try include(toyFile)
        }
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
        case .picture:
            emit("vec4 tilt_stage0(vec2 p) { return samplePicture(p); }")
        case .copy:
            // A stateful pass keeps its own state in alpha; what is shown is its colour, opaque.
            emit("vec4 tilt_stage0(vec2 p) { return vec4(tilt_sampleTexture(tilt_layerTexture, p).rgb, 1.0); }")
        case .baked:
            emit("vec4 tilt_stage0(vec2 p) { return tilt_sampleTexture(tilt_layerTexture, p); }")
        case .shadertoy:
            // `mainImage` may be a macro (code golf: `#define mainImage(O,u) …` declaring its own variables, perhaps a
            // `return;`), expanded where it is called: so it is called from a void function of its own, whose only
            // names are the `tilt_` ones no shader uses (issue 32).
            emit("void tilt_mainImage(inout vec4 tilt_color, vec2 tilt_fragCoord) {")
            emit("    mainImage(tilt_color, tilt_fragCoord);", callTo: "mainImage")
            emit("}")
            emit("vec4 tilt_stage0(vec2 p) {")
            emit("    vec4 tilt_color = vec4(0.0, 0.0, 0.0, 1.0);")
            emit("    tilt_mainImage(tilt_color, vec2(p.x, iResolution.y - p.y));")
            emit("    return tilt_color;")
            emit("}")
        case .shadertoyCube:
            // One face of Cube A: `tilt_cubeFace` turns the face's (s, t, 1), s and t in −1…1 from its first texel,
            // into the direction a `samplerCube` samples that texel in; the rays start at the origin, as on Shadertoy.
            emit("void tilt_mainCubemap(inout vec4 tilt_color, vec2 tilt_fragCoord, vec3 tilt_origin, vec3 tilt_ray) {")
            emit("    mainCubemap(tilt_color, tilt_fragCoord, tilt_origin, tilt_ray);", callTo: "mainCubemap")
            emit("}")
            emit("void main() {")
            emit("    vec2 tilt_st = gl_FragCoord.xy / iResolution.xy * 2.0 - 1.0;")
            emit("    vec4 tilt_color = vec4(0.0, 0.0, 0.0, 1.0);")
            emit("    vec3 tilt_ray = normalize(tilt_cubeFace * vec3(tilt_st, 1.0));")
            emit("    tilt_mainCubemap(tilt_color, gl_FragCoord.xy, vec3(0.0), tilt_ray);")
            emit("    tilt_fragColor = tilt_color;")
            emit("}")
        case .layer(let e):
            let effect = preset.effects[e]
            emit("vec4 tilt_stage0(vec2 p) {")
            emit(
                "    return \(effect.function)(p, Layer(iResolution.xy)\(arguments(effect)));", callTo: effect.function)
            emit("}")
        }
        if case .shadertoyCube = pass.input {
            append(glue.joined(separator: "\n") + "\n")
            return GeneratedShader(
                vertexSource: vertexSource, fragmentSource: text,
                sourceMap: ShaderSourceMap(files: files, presetFile: preset.file, callSites: callSites))
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

    /// Compile-time switches for preset code: `TILT_PICTURE` when the user gave a picture, `TILT_TEXTURE_name` for each
    /// named texture that has a file. A software renderer (llvmpipe) runs both sides of a branch on a uniform such as
    /// `hasPicture()` for every pixel, so code that only one case needs goes behind `#ifdef` instead.
    static func switches(preset: Preset, picture: Bool) -> String {
        var lines = picture ? ["#define TILT_PICTURE 1"] : []
        lines += preset.textures.filter { $0.file != nil }.map { "#define TILT_TEXTURE_\($0.name) 1" }
        return lines.map { $0 + "\n" }.joined()
    }

    private static func arguments(_ effect: Effect) -> String {
        effect.arguments.map { ", " + $0.glslExpression }.joined()
    }
}
