import Testing
import TiltCore

/// `ConfigFile`'s sections: each entry knows its section; with `keysPerSection` a key may come once per section.
struct ConfigFileSectionTests {
    @Test func entriesKnowTheirSectionAndHeadersAreTrimmed() throws {
        let file = try ConfigFile.parse(
            "a = 1\n[ output eDP-1 ]  # the panel\nb = 2\n[limits]\nc = 3\n", path: "s.conf")
        #expect(file.entries.map(\.section) == [nil, "output eDP-1", "limits"])
        #expect(file.entries.map(\.key) == ["a", "b", "c"])
    }

    @Test func aKeyTwiceInTheFileIsAnErrorUnlessSectionsScopeKeys() throws {
        let text = "preset = foil\n[output A]\npreset = parallax\n[output B]\npreset = holo-card\n"
        let error = #expect(throws: ConfigError.self) { try ConfigFile.parse(text, path: "w.conf") }
        #expect(error?.kind == .repeatedKey)
        #expect(error?.description == "w.conf:3: key 'preset': given twice (first on line 1); keep one")
        let scoped = try ConfigFile.parse(text, path: "w.conf", keysPerSection: true)
        #expect(scoped.entries.map(\.value) == ["foil", "parallax", "holo-card"])
        let twice = #expect(throws: ConfigError.self) {
            try ConfigFile.parse(text + "[output A]\npreset = foil\n", path: "w.conf", keysPerSection: true)
        }
        #expect(twice?.description == "w.conf:7: key 'preset': given twice (first on line 3); keep one")
    }
}
