import Testing
import TiltEffects
import TiltRender

/// A stateful layer effect reads its own previous frame through ping-pong textures.
@Suite(.serialized) struct StatefulEffectTests {
    @Test func mistyGlassRemembersAndIsWipedByShaking() throws {
        _ = GLTestEnvironment.configured
        let preset = try GLTestEnvironment.library.load("misty-glass")
        #expect(PassPlanner.plan(preset).contains { $0.stateful })
        let renderer = try OffscreenRenderer(preset: preset, width: 48, height: 48)
        var inputs = FrameInputs(timeDelta: 0.1, size: [48, 48])
        let misted = try renderer.render(inputs)
        inputs.frame = 1
        let still = try renderer.render(inputs)
        // At rest the mist only regrows a little: the image barely changes.
        #expect(ImageDifference(misted, still).meanAbsolute < 2)
        // Shaking wipes the mist over a few frames; the state carries from frame to frame.
        inputs.rotationRate = [6, 0, 0]
        var last = still
        for f in 2..<8 {
            inputs.frame = f
            last = try renderer.render(inputs)
        }
        #expect(ImageDifference(misted, last).meanAbsolute > 5)
        // Once shaking stops the glass stays clear (the state, not the input, decides).
        inputs.rotationRate = .zero
        inputs.frame = 8
        let after = try renderer.render(inputs)
        #expect(ImageDifference(last, after).meanAbsolute < 2)
    }
}
