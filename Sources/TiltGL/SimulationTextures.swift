import CEGL
import TiltEffects

/// A preset's simulation (``PresetSimulation``) and the textures its state is uploaded to each frame.
///
/// The simulation is made for the canvas's size (a new size starts it again) and stepped once per frame number with
/// that frame's inputs (``RaindropSimulation/Input/init(frame:)``): drawing the same frame twice does not step it
/// twice.
final class SimulationTextures {
    /// The simulation's settings.
    let simulation: PresetSimulation
    /// The raindrop state, once a size is known.
    private(set) var raindrops: RaindropSimulation?
    /// The GL textures, by the names of ``PresetSimulation/textureNames``.
    private var textures: [String: GLuint] = [:]
    /// The textures some effect reads: only these are made and uploaded each frame.
    private let read: Set<String>
    private var lastFrame: Int?
    /// The size each texture's storage was made at.
    private var allocated: [String: (Int, Int)] = [:]

    /// Textures for `simulation` (made here, empty until the first ``update(_:width:height:)``), those that `effects`
    /// sample.
    init(_ simulation: PresetSimulation, effects: [Effect]) {
        self.simulation = simulation
        read = Set(effects.flatMap(\.textureNames)).intersection(simulation.textureNames)
        for name in simulation.textureNames where read.contains(name) {
            var id: GLuint = 0
            glGenTextures(1, &id)
            glBindTexture(GLenum(GL_TEXTURE_2D), id)
            glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), GL_LINEAR)
            glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), GL_LINEAR)
            glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_S), GL_CLAMP_TO_EDGE)
            glTexParameteri(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_T), GL_CLAMP_TO_EDGE)
            textures[name] = id
        }
    }

    deinit {
        for var id in textures.values { glDeleteTextures(1, &id) }
    }

    /// The texture standing for the simulated texture `name`, if it is one.
    func texture(named name: String) -> GLuint? { textures[name] }

    /// Steps the simulation for frame `inputs.frame` (once per frame number) on a `width`×`height` canvas and
    /// uploads its textures.
    func update(_ inputs: FrameInputs, width: Int, height: Int) {
        switch simulation.kind {
        case .raindrops(let configuration):
            let size = SIMD2(Double(width), Double(height))
            if raindrops?.size != size {
                raindrops = RaindropSimulation(configuration: configuration, size: size)
                lastFrame = nil
            }
            guard var state = raindrops, lastFrame != inputs.frame else { return }
            if lastFrame != nil { state.step(RaindropSimulation.Input(frame: inputs)) }
            lastFrame = inputs.frame
            raindrops = state
            let names = PresetSimulation.raindropTextureNames
            if read.contains(names.mist) {
                upload(
                    names.mist, width: state.mistWidth, height: state.mistHeight, bytes: state.mistBytes(), red: true)
            }
            guard read.contains(names.drops) || read.contains(names.glass) else { return }
            let map = state.dropMapSize
            let drops = state.dropMap()
            if read.contains(names.drops) {
                upload(names.drops, width: map.width, height: map.height, bytes: drops, red: false)
            }
            if read.contains(names.glass) {
                upload(
                    names.glass, width: map.width, height: map.height, bytes: state.glassMap(drops: drops), red: false)
            }
        }
    }

    /// Uploads `bytes` into the texture `name`: storage is made once per size, then only its texels are replaced.
    private func upload(_ name: String, width: Int, height: Int, bytes: [UInt8], red: Bool) {
        guard let id = textures[name] else { return }
        glBindTexture(GLenum(GL_TEXTURE_2D), id)
        glPixelStorei(GLenum(GL_UNPACK_ALIGNMENT), 1)
        let format = GLenum(red ? GL_RED : GL_RGBA)
        bytes.withUnsafeBytes {
            if allocated[name]?.0 == width && allocated[name]?.1 == height {
                glTexSubImage2D(
                    GLenum(GL_TEXTURE_2D), 0, 0, 0, GLsizei(width), GLsizei(height), format, GLenum(GL_UNSIGNED_BYTE),
                    $0.baseAddress)
            } else {
                glTexImage2D(
                    GLenum(GL_TEXTURE_2D), 0, red ? GL_R8 : GL_RGBA8, GLsizei(width), GLsizei(height), 0, format,
                    GLenum(GL_UNSIGNED_BYTE), $0.baseAddress)
                allocated[name] = (width, height)
            }
        }
    }
}
