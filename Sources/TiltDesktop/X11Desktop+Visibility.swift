import CXRandR
import TiltCore

extension X11Desktop {
    /// A rectangle on the root window, pixels.
    struct Rect: Hashable {
        var x: Int
        var y: Int
        var width: Int
        var height: Int

        /// Whether `self` covers more than half of `other` (a fullscreen window its monitor, a maximized one the
        /// monitor's work area), so a window on one monitor does not count for a monitor it only touches.
        func coversMost(of other: Rect) -> Bool {
            let w = min(x + width, other.x + other.width) - max(x, other.x)
            let h = min(y + height, other.y + other.height) - max(y, other.y)
            guard w > 0, h > 0 else { return false }
            return 2 * w * h > other.width * other.height
        }
    }

    /// Recomputes every output's ``DesktopOutput/Visibility`` from the window manager's properties and the windows'
    /// visibility; appends the outputs whose visibility changed.
    func updateVisibility(changed: UnsafeMutablePointer<[String]>?) {
        let active = windows(root, atoms.activeWindow).first ?? 0
        let clientList = windows(root, atoms.clientList)
        let ours = Set(surfaces.values.map(\.window))
        var clients = clientList.isEmpty ? (active != 0 ? [active] : []) : clientList
        if active != 0, !clients.contains(active) { clients.append(active) }
        clients.removeAll { ours.contains($0) }
        watch(clients)

        var fullscreen: Rect?
        var covering: [Rect] = []
        for client in clients {
            let state = atomList(client, atoms.wmState)
            let isFullscreen = state.contains(atoms.fullscreen)
            let isMaximized = state.contains(atoms.maximizedVert) && state.contains(atoms.maximizedHorz)
            guard isFullscreen || isMaximized, let rect = rootRect(of: client) else { continue }
            covering.append(rect)
            if client == active, isFullscreen { fullscreen = rect }
        }
        for index in outputs.indices {
            let name = outputs[index].name
            guard let surface = surfaces[name] else { continue }
            let g = surface.geometry
            let monitor = Rect(x: g.x, y: g.y, width: g.width, height: g.height)
            let visibility: DesktopOutput.Visibility
            if let told = shell?.control.visibility(of: name), told != .visible {
                visibility = told
            } else if let fullscreen, fullscreen.coversMost(of: monitor) {
                visibility = .fullscreen
            } else if covering.contains(where: { $0.coversMost(of: monitor) }) {
                visibility = .covered
            } else if !surface.mapped || surface.obscured {
                visibility = .notDrawn
            } else {
                visibility = .visible
            }
            if outputs[index].visibility != visibility {
                outputs[index].visibility = visibility
                changed?.pointee.append(name)
            }
        }
    }

    func updateVisibility(changed: inout [String]) {
        withUnsafeMutablePointer(to: &changed) { updateVisibility(changed: $0) }
    }

    /// Selects property changes on client windows not yet watched, so a `_NET_WM_STATE` change is seen.
    private func watch(_ clients: [Window]) {
        let current = Set(clients)
        watched.formIntersection(current)
        for client in current.subtracting(watched) {
            XSelectInput(display, client, PropertyChangeMask | StructureNotifyMask)
            watched.insert(client)
        }
    }

    /// `window`'s rectangle in root coordinates (a reparenting window manager's frame does not matter), or `nil`
    /// when it is gone.
    private func rootRect(of window: Window) -> Rect? {
        var parent: Window = 0
        var x: Int32 = 0
        var y: Int32 = 0
        var width: UInt32 = 0
        var height: UInt32 = 0
        var border: UInt32 = 0
        var depth: UInt32 = 0
        guard XGetGeometry(display, window, &parent, &x, &y, &width, &height, &border, &depth) != 0 else {
            return nil
        }
        var rootX: Int32 = 0
        var rootY: Int32 = 0
        var child: Window = 0
        guard XTranslateCoordinates(display, window, root, 0, 0, &rootX, &rootY, &child) != 0 else { return nil }
        return Rect(x: Int(rootX), y: Int(rootY), width: Int(width), height: Int(height))
    }

    /// A format-32 property of type WINDOW.
    private func windows(_ window: Window, _ property: Atom) -> [Window] {
        longs(window, property, type: XAtom.window).map { Window(bitPattern: $0) }
    }

    /// A format-32 property of type ATOM.
    private func atomList(_ window: Window, _ property: Atom) -> [Atom] {
        longs(window, property, type: XAtom.atom).map { Atom(bitPattern: $0) }
    }

    /// A format-32 property's items (Xlib hands them over as C `long`s), empty when it is missing or another type.
    private func longs(_ window: Window, _ property: Atom, type: Atom) -> [Int] {
        var actualType: Atom = 0
        var format: Int32 = 0
        var count: UInt = 0
        var after: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        let status = XGetWindowProperty(
            display, window, property, 0, 4096, 0, type, &actualType, &format, &count, &after, &data)
        defer { if let data { XFree(data) } }
        guard status == Success, actualType == type, format == 32, let data else { return [] }
        return data.withMemoryRebound(to: Int.self, capacity: Int(count)) {
            Array(UnsafeBufferPointer(start: $0, count: Int(count)))
        }
    }
}
