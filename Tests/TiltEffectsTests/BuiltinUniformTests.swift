import Foundation
import Testing

@testable import TiltEffects

/// The one table of built-in uniforms, and everything derived from it.
struct BuiltinUniformTests {
    @Test func everyBuiltinIsDeclaredOnceInThePreludeWithItsType() {
        let lines = ShaderGenerator.prelude.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        for builtin in BuiltinUniform.all {
            let declarations = lines.filter { $0.hasPrefix("uniform ") && $0.hasSuffix(" \(builtin.name);") }
            #expect(declarations == ["uniform \(builtin.type.rawValue) \(builtin.name);"], "\(builtin.name)")
        }
        #expect(Set(BuiltinUniform.all.map(\.name)).count == BuiltinUniform.all.count, "names are unique")
        #expect(Set(BuiltinUniform.all.map(\.source)).count == BuiltinUniform.all.count, "one built-in per input")
    }

    @Test func theDependencyAnalysisReadsEachBuiltinsDependencies() {
        for builtin in BuiltinUniform.all {
            let text = "void f() { float x = float(\(builtin.name).x); }"
            #expect(DependencyAnalysis.uniforms(inGLSL: text) == builtin.dependencies, "\(builtin.name)")
            // Inside a comment it is not read.
            #expect(DependencyAnalysis.uniforms(inGLSL: "// \(builtin.name)\n").isEmpty, "\(builtin.name)")
        }
        #expect(BuiltinUniform.rotationRate.dependencies == .motion)
        #expect(BuiltinUniform.time.dependencies == .time)
        #expect(BuiltinUniform.resolution.dependencies.isStatic, "a resize re-bakes; the size is no frame input")
    }

    @Test func eachSourceReadsTheInputItNames() {
        var f = FrameInputs(
            time: 2.5, timeDelta: 0.25, frame: 7, size: SIMD2(640, 480), tilt: SIMD2(0.1, -0.2),
            pointer: SIMD2(10, 30), pointerDown: true)
        f.rotationRate = SIMD3(1, 2, 3)
        let value = { (source: BuiltinUniform.Source) in source.value(in: f) }
        #expect(value(.time).x == 2.5)
        #expect(value(.timeDelta).x == 0.25)
        #expect(value(.frame).x == 7)
        #expect(value(.resolution) == SIMD4(640, 480, 1, 0))
        #expect(value(.mouse) == SIMD4(10, 450, 10, 450), "y from the bottom; zw positive while the button is down")
        f.pointerDown = false
        #expect(value(.mouse) == SIMD4(10, 450, -10, -450))
        #expect(value(.pointer) == SIMD4(10, 30, 0, 0))
        #expect(value(.tilt) == SIMD4(0.1, -0.2, 0, 0))
        #expect(value(.gravity) == SIMD4(f.gravity.x, f.gravity.y, f.gravity.z, 0))
        #expect(value(.attitude) == f.attitude)
        #expect(value(.euler) == SIMD4(f.euler.x, f.euler.y, f.euler.z, 0))
        #expect(value(.rotationRate) == SIMD4(1, 2, 3, 0))
    }

    @Test func bindingsReadTheirBuiltinWithItsType() {
        for (name, binding) in ArgumentBinding.namedBindings {
            guard let builtin = binding.builtin else {
                #expect(binding == .size, "only `size` reads no built-in of its own (\(name))")
                continue
            }
            #expect(binding.uniformExpression == builtin.name, "\(name)")
            #expect(binding.naturalType?.componentCount == builtin.type.componentCount, "\(name)")
            #expect(binding.dependencies == builtin.dependencies, "\(name)")
        }
        #expect(ArgumentBinding.size.uniformExpression == "iResolution.xy")
    }
}
