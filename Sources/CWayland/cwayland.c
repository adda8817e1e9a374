// The protocols' code is generated into this target by Plugins/WaylandScanner; SwiftPM needs one source file of the
// target's own. It includes nothing generated, because its compile does not wait for the generator: a build of one
// product from a fresh clone (`swift build --product tiltfx`) compiled it before the headers were there.
typedef int cwayland_own_source;
