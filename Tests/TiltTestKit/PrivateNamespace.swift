import Foundation

/// Starts test processes in a private user and mount namespace (`unshare -rm`), where a shell script first mounts
/// fake trees over the real ones: what the fake sysfs and `/dev` trees (``FakeIIOTree``, ``FakeInputTree``) share.
enum PrivateNamespace {
    /// Starts `arguments` (an executable path and its arguments) after `script`, which runs with `$0` set to `root`
    /// and must end in `exec "$@"`; the environment is this process's with `environment` over it.
    /// - Returns: the running process and the pipes of its standard output and error.
    static func start(
        script: String, root: URL, arguments: [String], environment: [String: String]
    ) throws -> (process: Process, stdout: Pipe, stderr: Pipe) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        p.arguments = ["-rm", "sh", "-c", script, root.path] + arguments
        var env = ProcessInfo.processInfo.environment
        env.merge(environment) { $1 }
        p.environment = env
        let out = Pipe()
        let err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        return (p, out, err)
    }
}
