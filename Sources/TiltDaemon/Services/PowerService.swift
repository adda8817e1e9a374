import FoundationEssentials
import Logging
import ServiceLifecycle
import TiltCore
import TiltPower
import TiltSensors

/// Follows the system's power state and hands every change to the hub, which tells the clients (`power` events,
/// and the state in `hello`).
///
/// The probe blocks a thread of its own in `poll(2)`: it wakes for D-Bus signals from power-profiles-daemon and every
/// ``PowerMonitor/Configuration/pollInterval`` seconds to re-read sysfs, and does nothing in between.
final class PowerService: Service {
    let hub: Hub
    let monitor: PowerMonitor
    let logger: Logger

    init(hub: Hub, configuration: PowerMonitor.Configuration, logger: Logger) {
        self.hub = hub
        self.logger = logger
        monitor = PowerMonitor(configuration: configuration) { [logger] note in logger.info("power: \(note)") }
    }

    func run() async throws {
        let monitor = self.monitor
        let hub = self.hub
        let logger = self.logger
        await withTaskCancellationHandler {
            await withGracefulShutdownHandler {
                await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                    startThread(name: "tiltd-power") {
                        monitor.run { state in
                            logger.info(
                                "power: \(state.onBattery ? "battery" : "mains")",
                                metadata: [
                                    "capacity": "\(state.capacity.map(String.init) ?? "none")",
                                    "profile": "\(state.profile ?? "none")", "lowPower": "\(state.lowPower)",
                                ])
                            hub.setPower(state)
                        }
                        done.resume()
                    }
                }
            } onGracefulShutdown: {
                monitor.stop()
            }
        } onCancel: {
            monitor.stop()
        }
    }
}
