import Foundation
import Testing
import TiltCore
import TiltSensors
import TiltTestKit

/// Calibration fits on synthetic samples with known errors, the file format, and matching files to a device.
@Suite
struct CalibrationFitTests {
    /// A scale-and-misalignment matrix with every element different from the identity.
    static let trueMatrix = Matrix3(rowMajor: [1.02, 0.015, -0.01, 0.012, 0.97, 0.02, -0.008, 0.018, 1.04])!

    @Test("the gyro bias of a still recording is recovered within 0.5 mrad/s")
    func gyroBias() throws {
        let bias = Vector3(0.012, -0.021, 0.0065)
        let samples = CalibrationFixtures.samples(duration: 10) { _ in (bias, Vector3(0, 0, standardGravity), nil) }
        let (fitted, stats) = try CalibrationFit.gyroBias(samples)
        #expect((fitted - bias).norm < 0.0005, "fitted \(fitted), true \(bias)")
        #expect(stats.count == 1000)
    }

    @Test("a device that moves during the gyro measurement is refused, saying what moved")
    func gyroMovedIsRefused() {
        let turning = CalibrationFixtures.samples(duration: 5) { t in
            (Vector3(0, 0, 0.3 * sin(t * 4)), Vector3(0, 0, standardGravity), nil)
        }
        #expect {
            _ = try CalibrationFit.gyroBias(turning)
        } throws: { error in
            let message = "\(error)"
            return (error as? CalibrationFitError)?.kind == .moved && message.contains("the device moved")
                && message.contains("gyro std")
                && message.contains("put it on a table")
        }
        // A steady slow turn has a small gyro spread but turns gravity: also refused.
        let slowTurn = CalibrationFixtures.samples(duration: 5) { t in
            let angle = 0.2 * t
            return (Vector3(0.2, 0, 0), Vector3(0, -sin(angle), cos(angle)) * standardGravity, nil)
        }
        #expect { _ = try CalibrationFit.gyroBias(slowTurn) } throws: { ($0 as? CalibrationFitError)?.kind == .moved }
    }

    @Test("six noisy positions recover accelerometer offset, scale and misalignment")
    func sixPosition() throws {
        let offset = Vector3(0.15, -0.08, 0.22)
        let inverse = try #require(Self.trueMatrix.inverse)
        var positions: [CalibrationFit.Face: Vector3] = [:]
        for (i, face) in CalibrationFit.Face.allCases.enumerated() {
            let samples = CalibrationFixtures.samples(duration: 2, seed: UInt64(i + 1), noise: .init(accel: 0.05)) {
                _ in
                (.zero, inverse.apply(face.up * standardGravity) + offset, nil)
            }
            #expect(CalibrationFit.Face.classify(CalibrationFit.Stillness(samples).accelMean) == face)
            positions[face] = CalibrationFit.Stillness(samples).accelMean
        }
        let (fittedOffset, matrix) = try CalibrationFit.sixPosition(positions)
        #expect((fittedOffset - offset).norm < 0.01, "offset \(fittedOffset), true \(offset)")
        #expect(matrix.maxDifference(to: Self.trueMatrix) < 0.002, "matrix \(matrix), true \(Self.trueMatrix)")
        var missing = positions
        missing[.xDown] = nil
        #expect(throws: CalibrationFitError(.missingPositions, "missing positions: -x up")) {
            _ = try CalibrationFit.sixPosition(missing)
        }
    }

    @Test("a noisy magnetometer sweep recovers hard iron and a symmetric soft-iron matrix")
    func ellipsoid() throws {
        let hardIron = Vector3(22, -13, 41)
        // Symmetric, determinant 1: the form the fit returns.
        let raw = Matrix3(rowMajor: [1.1, 0.05, -0.03, 0.05, 0.92, 0.04, -0.03, 0.04, 1.0])!
        let softIron = Matrix3(rowMajor: raw.elements.map { $0 / cbrt(raw.determinant) })!
        let sweep = CalibrationFixtures.magneticSweep(
            hardIron: hardIron, inverseSoftIron: try #require(softIron.inverse), noise: .init(mag: 0.4))
        let fit = try CalibrationFit.ellipsoid(sweep.compactMap(\.mag))
        #expect((fit.hardIron - hardIron).norm < 0.3, "hard iron \(fit.hardIron), true \(hardIron)")
        #expect(fit.softIron.maxDifference(to: softIron) < 0.01, "soft iron \(fit.softIron), true \(softIron)")
        #expect(abs(fit.fieldStrength - 45) < 0.5)
        #expect(CalibrationFit.coveredBins(sweep.compactMap(\.mag), centre: fit.hardIron).count == 26)
        // Too little rotation: readings on a small cap cover few directions (`tilt calibrate mag` refuses them).
        let cap = sweep.prefix(60).compactMap(\.mag)
        #expect(CalibrationFit.coveredBins(cap, centre: hardIron).count <= 3)
        // Points on a plane (turned about one axis only) determine no ellipsoid.
        let flat = (0..<200).map { i in
            Vector3(cos(Double(i) * 0.1), sin(Double(i) * 0.1), 0) * 40 + hardIron
        }
        #expect { _ = try CalibrationFit.ellipsoid(flat) } throws: { ($0 as? CalibrationFitError)?.kind == .degenerate }
    }

    @Test("a calibration applies offset, matrix, bias, hard/soft iron and the mount matrix in that order")
    func apply() {
        let calibration = Calibration(
            mount: Matrix3(rowMajor: [0, 1, 0, -1, 0, 0, 0, 0, 1])!, accelOffset: Vector3(1, 0, 0),
            accelMatrix: Matrix3(diagonal: Vector3(2, 1, 1)), gyroBias: Vector3(0.1, 0, 0),
            magHardIron: Vector3(0, 5, 0), magSoftIron: Matrix3(diagonal: Vector3(1, 2, 1)))
        let out = calibration.apply(
            MotionSample(time: 3, gyro: Vector3(0.1, 0.2, 0), accel: Vector3(2, 3, 4), mag: Vector3(0, 6, 0)))
        #expect(out.time == 3)
        #expect(out.gyro == Vector3(0.2, 0, 0))
        #expect(out.accel == Vector3(3, -2, 4))
        #expect(out.mag == Vector3(2, 0, 0))
    }
}

@Suite
struct CalibrationFileTests {
    static let full = """
        # comment
        format = 1
        description = "a test"

        [match]
        sys_vendor = Example Corp
        name = bmi160

        [mount]
        matrix = 0, 1, 0,  -1, 0, 0,  0, 0, 1
        [accel]
        offset = 0.1, -0.2, 0.3
        matrix = 1.01, 0, 0, 0, 0.99, 0, 0, 0, 1
        [gyro]
        ; another comment
        bias = 0.001, 0.002, -0.003
        [magn]
        hard_iron = 10, 20, 30
        soft_iron = 1, 0.1, 0, 0.1, 1, 0, 0, 0, 1
        """

    @Test("every key is read, and writing then reading gives the same calibration")
    func roundTrip() throws {
        let c = try CalibrationFile.parse(Self.full, path: "full.calib")
        #expect(c.match == CalibrationMatch(sysVendor: "Example Corp", name: "bmi160"))
        #expect(c.description == "a test")
        #expect(c.accelOffset == Vector3(0.1, -0.2, 0.3))
        #expect(c.gyroBias == Vector3(0.001, 0.002, -0.003))
        #expect(c.magHardIron == Vector3(10, 20, 30))
        #expect(c.mount.apply(.unitX) == -.unitY)
        #expect(c.magSoftIron[0, 1] == 0.1)
        let again = try CalibrationFile.parse(CalibrationFile.text(for: c, comment: ["made by a test"]), path: "again")
        #expect(again == c)
    }

    @Test(
        "a malformed file is an error naming the file, the line and the key",
        arguments: [
            ("format = 1\n[gyro]\nbias = 0.1, 0.2\n", 3, "gyro.bias", "expected 3 comma-separated numbers"),
            ("format = 1\n[accel]\nmatrix = 1,0,0,0,1,0,0,0,x\n", 3, "accel.matrix", "expected 9"),
            ("format = 1\n[accel]\nmatrix = 1,0,0,0,1,0,0,0,0\n", 3, "accel.matrix", "singular"),
            ("format = 1\n[gyro]\nbias = 0,0,0\nbais = 1,2,3\n", 4, "gyro.bais", "unknown key 'bais'"),
            ("format = 1\n[gyro]\nbias = 0,0,0\nbias = 1,2,3\n", 4, "gyro.bias", "set twice"),
            ("format = 2\n", 1, "format", "format 2 is not supported"),
            ("[gyro]\nbias = 0,0,0\n", 1, "format", "must start with `format = 1`"),
            ("format = 1\n[match]\nname =\n", 3, "match.name", "is empty"),
        ] as [(String, Int, String, String)])
    func malformed(text: String, line: Int, key: String, problem: String) {
        do {
            _ = try CalibrationFile.parse(text, path: "/tmp/bad.calib")
            Issue.record("parsed a malformed file: \(text)")
        } catch {
            #expect(error.path == "/tmp/bad.calib")
            #expect(error.line == line)
            #expect(error.kind == .syntax)
            #expect(error.key == key)
            #expect(error.problem.contains(problem), "\(error)")
            #expect("\(error)".hasPrefix("/tmp/bad.calib:\(line): \(key): "))
        }
    }

    @Test("an unknown section and a file without format are refused too")
    func structure() {
        #expect { _ = try CalibrationFile.parse("format = 1\n[accl]\n", path: "x") } throws: {
            ($0 as? CalibrationFileError)?.kind == .syntax
        }
        #expect { _ = try CalibrationFile.parse("# nothing\n", path: "x") } throws: {
            ($0 as? CalibrationFileError)?.kind == .syntax
        }
        #expect { _ = try CalibrationFile.read(path: "/nonexistent/x.calib") } throws: {
            ($0 as? CalibrationFileError)?.kind == .unreadable
        }
    }

    @Test("the bundled files in Calibration/ all parse")
    func bundled() throws {
        let folder = TestPaths.repositoryRoot.appendingPathComponent("Calibration").path
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".calib") }
        #expect(names.count >= 2)
        for name in names {
            _ = try CalibrationFile.read(path: folder + "/" + name)
        }
        let identity = try CalibrationFile.read(path: folder + "/identity.calib")
        #expect(identity.match.specificity == 0)
        #expect(
            identity.apply(MotionSample(time: 0, gyro: .unitX, accel: .unitZ))
                == MotionSample(time: 0, gyro: .unitX, accel: .unitZ))
    }

    @Test("writing never replaces an existing file without overwrite, and leaves no temporary file")
    func atomicWrite() throws {
        let dir = TestPaths.temporaryDirectory("calw")
        let path = dir.appendingPathComponent("sub/a.calib").path
        try CalibrationFile.write("format = 1\n", to: path, overwrite: false)
        #expect {
            try CalibrationFile.write("format = 1\n# new\n", to: path, overwrite: false)
        } throws: {
            ($0 as? CalibrationFileError)?.kind == .exists
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "format = 1\n")
        try CalibrationFile.write("format = 1\n# new\n", to: path, overwrite: true)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "format = 1\n# new\n")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("sub").path) == ["a.calib"])
    }
}

@Suite
struct CalibrationMatchingTests {
    /// Writes `files` (name → text) into a fresh folder.
    private func folder(_ files: [String: String]) throws -> String {
        let dir = TestPaths.temporaryDirectory("calm")
        for (name, text) in files {
            try text.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        return dir.path
    }

    private func calib(_ match: String, bias: Double) -> String {
        "format = 1\n[match]\n\(match)\n[gyro]\nbias = \(bias), 0, 0\n"
    }

    @Test("the most specific file whose keys all agree wins; earlier folders win ties; a malformed one is named")
    func picksBestMatch() throws {
        let dmi = try folder(["sys_vendor": "Example Corp\n", "product_name": "Tablet 10\n"])
        let identity = CalibrationLoader.identity(dmiRoot: dmi, name: "bmi160", label: "accel-display")
        #expect(
            identity
                == CalibrationIdentity(
                    sysVendor: "Example Corp", productName: "Tablet 10", name: "bmi160", label: "accel-display"))

        let system = try folder([
            "vendor.calib": calib("sys_vendor = Example Corp", bias: 1),
            "broken.calib": "format = 1\n[gyro]\nbias = nope\n",
        ])
        let user = try folder([
            "generic.calib": calib("", bias: 2),
            "vendor-sensor.calib": calib("sys_vendor = Example Corp\nname = bmi160", bias: 3),
            "other-product.calib": calib("sys_vendor = Example Corp\nproduct_name = Tablet 8\nname = bmi160", bias: 4),
        ])
        let bundled = try folder([
            "same-specificity.calib": calib("product_name = Tablet 10\nlabel = accel-display", bias: 5)
        ])

        let result = CalibrationLoader.search(directories: [system, user, bundled], identity: identity)
        // Two keys agree in user and in bundled: user is searched first. The three-key file names another product.
        #expect(result.calibration?.gyroBias.x == 3)
        #expect(result.path == user + "/vendor-sensor.calib")
        #expect(
            result.explanation.hasPrefix(user + "/vendor-sensor.calib: matched sys_vendor=Example Corp, name=bmi160"))
        #expect(result.explanation.contains("broken.calib:3: gyro.bias"), "\(result.explanation)")
        #expect(result.problems.count == 1)

        // Another sensor: only the vendor file (1 key) and the generic one (0 keys) agree.
        let other = CalibrationLoader.identity(dmiRoot: dmi, name: "lsm6dsl", label: nil)
        #expect(
            CalibrationLoader.search(directories: [system, user, bundled], identity: other).calibration?.gyroBias.x == 1
        )

        // Another machine and no generic file: none, saying where it looked.
        let elsewhere = CalibrationIdentity(sysVendor: "Nobody", productName: nil, name: "bmi160", label: nil)
        let none = CalibrationLoader.search(directories: [system, bundled], identity: elsewhere)
        #expect(none.calibration == nil)
        #expect(none.explanation.hasPrefix("none: no file matched (looked in \(system), \(bundled))"))
    }

    @Test("a forced file applies whatever it matches; a malformed forced file runs uncalibrated and says why")
    func forcedAndDisabled() throws {
        let dir = try folder([
            "other.calib": calib("sys_vendor = Someone Else", bias: 7),
            "bad.calib": "format = 1\n[magn]\nsoft_iron = 1,2\n",
        ])
        let identity = CalibrationIdentity(sysVendor: "Example Corp")
        let forced = CalibrationLoader.resolve(.file(dir + "/other.calib"), identity: identity)
        #expect(forced.calibration?.gyroBias.x == 7)
        #expect(forced.explanation == dir + "/other.calib: forced by --calibration")
        let bad = CalibrationLoader.resolve(.file(dir + "/bad.calib"), identity: identity)
        #expect(bad.calibration == nil)
        #expect(bad.explanation.hasPrefix("none: \(dir)/bad.calib:3: magn.soft_iron: expected 9"))
        #expect(bad.explanation.hasSuffix("running uncalibrated"))
        let off = CalibrationLoader.resolve(.disabled(reason: "disabled by --no-calibration"), identity: identity)
        #expect(off.calibration == nil && off.explanation == "none: disabled by --no-calibration")
    }

    @Test("the default search path: the system folder, the user's, and TILT_CALIBRATION_PATH replacing both")
    func defaultDirectories() {
        let dirs = CalibrationLoader.defaultDirectories(environment: ["XDG_CONFIG_HOME": "/cfg", "HOME": "/home/u"])
        #expect(Array(dirs.prefix(2)) == ["/etc/tiltd/calibration.d", "/cfg/tilt/calibration.d"])
        #expect(
            CalibrationLoader.userDirectory(environment: ["HOME": "/home/u"]) == "/home/u/.config/tilt/calibration.d")
        #expect(CalibrationLoader.defaultDirectories(environment: ["TILT_CALIBRATION_PATH": "/a:/b"]) == ["/a", "/b"])
        let fakeExecutable = TestPaths.repositoryRoot.appendingPathComponent(".build/debug/tiltd").path
        #expect(
            CalibrationLoader.bundledDirectory(executablePath: fakeExecutable)
                == TestPaths.repositoryRoot.appendingPathComponent("Calibration").path)
    }

    @Test("after the clone's Calibration/: PREFIX/share/tilt/calibration beside the program, then XDG_DATA_DIRS")
    func installedDirectories() throws {
        let prefix = TestPaths.temporaryDirectory("calp")
        let installed = prefix.appendingPathComponent("share/tilt/calibration").path
        try FileManager.default.createDirectory(atPath: installed, withIntermediateDirectories: true)
        try calib("sys_vendor = Example Corp", bias: 3).write(
            toFile: installed + "/installed.calib", atomically: true, encoding: .utf8)
        let environment = ["HOME": "/home/u", "XDG_DATA_DIRS": "/xdg"]
        let dirs = CalibrationLoader.defaultDirectories(
            environment: environment, executablePath: prefix.appendingPathComponent("bin/tiltd").path)
        #expect(
            dirs == [
                "/etc/tiltd/calibration.d", "/home/u/.config/tilt/calibration.d", installed, "/xdg/tilt/calibration",
            ])
        let found = CalibrationLoader.search(
            directories: dirs, identity: CalibrationIdentity(sysVendor: "Example Corp"))
        #expect(found.path == installed + "/installed.calib")

        let clone = CalibrationLoader.defaultDirectories(
            environment: ["HOME": "/home/u"],
            executablePath: TestPaths.repositoryRoot.appendingPathComponent(".build/release/tiltd").path)
        #expect(clone[2] == TestPaths.repositoryRoot.appendingPathComponent("Calibration").path)
        #expect(Array(clone.suffix(2)) == ["/usr/local/share/tilt/calibration", "/usr/share/tilt/calibration"])
    }
}
