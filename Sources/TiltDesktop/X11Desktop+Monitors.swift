import CXRandR
import FoundationEssentials
import TiltCore

extension X11Desktop {
    /// A RandR monitor as the wallpaper covers it: its name, its rectangle on the screen in pixels, and its CRTC's
    /// rotation and refresh rate.
    struct Monitor: Hashable {
        var name: String
        var x: Int
        var y: Int
        var width: Int
        var height: Int
        var rotation: ScreenRotation = .normal
        var refreshRate: Double?
    }

    /// The server's monitors in its order; its CRTCs that show something where it lists none; the whole screen
    /// where there are none of those either.
    func readMonitors() -> [Monitor] {
        let resources = XRRGetScreenResourcesCurrent(display, root)
        defer { if let resources { XRRFreeScreenResources(resources) } }
        var count: Int32 = 0
        var monitors: [Monitor] = []
        if hasMonitors, let list = XRRGetMonitors(display, root, 1, &count) {
            defer { XRRFreeMonitors(list) }
            for info in UnsafeBufferPointer(start: list, count: Int(count)) {
                var monitor = Monitor(
                    name: atomName(info.name) ?? "", x: Int(info.x), y: Int(info.y), width: Int(info.width),
                    height: Int(info.height))
                if info.noutput > 0, let outputs = info.outputs, let resources {
                    crtcDetails(output: outputs[0], resources, into: &monitor)
                }
                if monitor.name.isEmpty { monitor.name = "monitor-\(monitors.count)" }
                if monitor.width > 0, monitor.height > 0 { monitors.append(monitor) }
            }
        }
        if monitors.isEmpty, let resources {
            for output in UnsafeBufferPointer(start: resources.pointee.outputs, count: Int(resources.pointee.noutput)) {
                var monitor = Monitor(name: "", x: 0, y: 0, width: 0, height: 0)
                crtcDetails(output: output, resources, into: &monitor)
                if monitor.width > 0, monitor.height > 0 { monitors.append(monitor) }
            }
        }
        if monitors.isEmpty {
            monitors.append(
                Monitor(
                    name: "screen-\(screen)", x: 0, y: 0, width: Int(XDisplayWidth(display, screen)),
                    height: Int(XDisplayHeight(display, screen))))
        }
        return monitors
    }

    /// Fills in what `output`'s CRTC says: rotation, refresh rate, and (where the monitor has none yet) the
    /// output's name and the CRTC's rectangle.
    private func crtcDetails(
        output: RROutput, _ resources: UnsafeMutablePointer<XRRScreenResources>, into monitor: inout Monitor
    ) {
        guard let outputInfo = XRRGetOutputInfo(display, resources, output) else { return }
        defer { XRRFreeOutputInfo(outputInfo) }
        let crtc = outputInfo.pointee.crtc
        guard crtc != 0, let crtcInfo = XRRGetCrtcInfo(display, resources, crtc) else { return }
        defer { XRRFreeCrtcInfo(crtcInfo) }
        if monitor.name.isEmpty, let name = outputInfo.pointee.name {
            monitor.name = String(cString: name)
        }
        if monitor.width == 0 {
            monitor.x = Int(crtcInfo.pointee.x)
            monitor.y = Int(crtcInfo.pointee.y)
            monitor.width = Int(crtcInfo.pointee.width)
            monitor.height = Int(crtcInfo.pointee.height)
        }
        monitor.rotation = ScreenRotation(randr: Int(crtcInfo.pointee.rotation)) ?? .normal
        let modeID = crtcInfo.pointee.mode
        for mode in UnsafeBufferPointer(start: resources.pointee.modes, count: Int(resources.pointee.nmode))
        where mode.id == modeID {
            let dots = Double(mode.hTotal) * Double(mode.vTotal)
            if dots > 0, mode.dotClock > 0 {
                var rate = Double(mode.dotClock) / dots
                if mode.modeFlags & UInt(RR_DoubleScan) != 0 { rate /= 2 }
                if mode.modeFlags & UInt(RR_Interlace) != 0 { rate *= 2 }
                monitor.refreshRate = rate
            }
        }
    }

    func atomName(_ atom: Atom) -> String? {
        guard atom != 0, let name = XGetAtomName(display, atom) else { return nil }
        defer { XFree(name) }
        return String(cString: name)
    }
}

/// The atoms the wallpaper reads and writes, interned once.
struct Atoms {
    let activeWindow: Atom
    let clientList: Atom
    let windowType: Atom
    let typeDesktop: Atom
    let wmState: Atom
    let stateBelow: Atom
    let stateSticky: Atom
    let skipTaskbar: Atom
    let skipPager: Atom
    let fullscreen: Atom
    let maximizedVert: Atom
    let maximizedHorz: Atom
    let wmDesktop: Atom
    let netWMName: Atom
    let wmPID: Atom
    let utf8String: Atom

    init(_ display: OpaquePointer) {
        func intern(_ name: String) -> Atom { XInternAtom(display, name, 0) }
        activeWindow = intern("_NET_ACTIVE_WINDOW")
        clientList = intern("_NET_CLIENT_LIST")
        windowType = intern("_NET_WM_WINDOW_TYPE")
        typeDesktop = intern("_NET_WM_WINDOW_TYPE_DESKTOP")
        wmState = intern("_NET_WM_STATE")
        stateBelow = intern("_NET_WM_STATE_BELOW")
        stateSticky = intern("_NET_WM_STATE_STICKY")
        skipTaskbar = intern("_NET_WM_STATE_SKIP_TASKBAR")
        skipPager = intern("_NET_WM_STATE_SKIP_PAGER")
        fullscreen = intern("_NET_WM_STATE_FULLSCREEN")
        maximizedVert = intern("_NET_WM_STATE_MAXIMIZED_VERT")
        maximizedHorz = intern("_NET_WM_STATE_MAXIMIZED_HORZ")
        wmDesktop = intern("_NET_WM_DESKTOP")
        netWMName = intern("_NET_WM_NAME")
        wmPID = intern("_NET_WM_PID")
        utf8String = intern("UTF8_STRING")
    }
}

/// The predefined atoms of `X11/Xatom.h`, whose macros (`((Atom) 4)`) Swift does not import.
enum XAtom {
    static let atom: Atom = 4
    static let cardinal: Atom = 6
    static let string: Atom = 31
    static let window: Atom = 33
    static let wmClass: Atom = 67
    static let wmHints: Atom = 35
    static let wmName: Atom = 39
    static let wmNormalHints: Atom = 40
    static let wmSizeHints: Atom = 41
}
