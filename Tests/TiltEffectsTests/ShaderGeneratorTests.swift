import Testing

@testable import TiltEffects

/// GLSL generation: `#line` directives, call glue, and mapping compiler logs back to preset files.
@Suite struct ShaderGeneratorTests {
    let files = [
        "/presets/demo/a.glsl": "vec4 shade(vec2 p, vec4 c, vec2 t) { return c; }\n",
        "/presets/demo/b.glsl": "// warp\nvec2 warp(vec2 p, float k) { return p * k; }\n",
    ]

    var preset: Preset {
        Preset(
            name: "demo", description: "", directory: "/presets/demo", file: "/presets/demo/preset.json",
            effects: [
                Effect(
                    function: "shade", kind: .color, file: "/presets/demo/a.glsl",
                    arguments: [EffectArgument(name: "t", type: .vec2, binding: .tilt)]),
                Effect(
                    function: "warp", kind: .distortion, file: "/presets/demo/b.glsl",
                    arguments: [EffectArgument(name: "k", type: .float, binding: .constant([2]))]),
            ])
    }

    func generate() throws -> GeneratedShader {
        let plan = PassPlanner.plan(preset)
        return try ShaderGenerator.generate(pass: plan[0], preset: preset) { path in
            guard let text = files[path] else { throw PresetError.unreadable(path, reason: "missing") }
            return text
        }
    }

    @Test func eachFileFollowsALineDirectiveWithItsSourceNumber() throws {
        let shader = try generate()
        #expect(shader.fragmentSource.hasPrefix("#version 300 es\n"))
        #expect(shader.fragmentSource.contains("#line 100001 1\nvec4 shade("))
        #expect(shader.fragmentSource.contains("#line 200001 2\n// warp\n"))
        #expect(shader.sourceMap.files == ["<generated>", "/presets/demo/a.glsl", "/presets/demo/b.glsl"])
    }

    @Test func glueChainsColourThenDistortionWithBoundArguments() throws {
        let source = try generate().fragmentSource
        #expect(source.contains("return shade(p, tilt_stage0(p), iTilt);"))
        #expect(source.contains("return tilt_stage1(warp(p, 2.0));"))
        #expect(source.contains("tilt_fragColor = tilt_stage2(p);"))
    }

    @Test func glueLineNumbersMatchTheLineDirective() throws {
        let shader = try generate()
        let lines = shader.fragmentSource.split(separator: "\n", omittingEmptySubsequences: false)
        guard let directive = lines.firstIndex(where: { $0.hasPrefix("#line") && $0.hasSuffix(" 0") }) else {
            Issue.record("no #line for the glue")
            return
        }
        let declared = Int(lines[directive].split(separator: " ")[1])!
        // GLSL ES 3.00: the line after `#line N` is line N.
        for (line, function) in shader.sourceMap.callSites {
            let text = lines[directive + 1 + (line - declared)]
            #expect(text.contains("\(function)("), "glue line \(line) should call \(function): \(text)")
        }
    }

    @Test func mesaCompileLogNamesThePresetFileAndLine() {
        let map = ShaderSourceMap(files: ["<generated>", "/presets/demo/a.glsl", "/presets/demo/b.glsl"])
        // Mesa reports source 0 and the block-encoded line; others report the source number.
        let log = "0:100002(17): error: `k2' undeclared\n2:1(5): warning: unused\n"
        let d = map.diagnostics(fromLog: log)
        #expect(d.count == 2)
        #expect(d[0].file == "/presets/demo/a.glsl" && d[0].line == 2 && d[0].column == 17)
        #expect(d[1].file == "/presets/demo/b.glsl" && d[1].line == 1)
        #expect(map.rewrite(log: log).hasPrefix("/presets/demo/a.glsl:2:17: error: `k2' undeclared"))
        let other = map.diagnostics(fromLog: "ERROR: 2:7: 'foo' : undeclared identifier")
        #expect(other.first?.description == "/presets/demo/b.glsl:7: 'foo' : undeclared identifier")
    }

    @Test func constantsBecomeLiterals() {
        #expect(
            EffectArgument(name: "c", type: .color, binding: .constant([1, 0.5, 0, 0.5])).glslExpression
                == "vec4(0.5, 0.25, 0.0, 0.5)")
        #expect(
            EffectArgument(name: "a", type: .floatArray(count: 2), binding: .constant([1, 2])).glslExpression
                == "float[2](1.0, 2.0)")
        #expect(EffectArgument(name: "t", type: .float, binding: .time).glslExpression == "iTime")
        #expect(EffectArgument(name: "s", type: .vec2, binding: .size).glslExpression == "iResolution.xy")
    }
}
