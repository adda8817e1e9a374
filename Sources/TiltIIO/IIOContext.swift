import CLibIIO
import TiltSensors

#if canImport(Glibc)
    import Glibc
#endif

/// An open libiio context (Linux only): the devices behind a URI such as `local:` or `ip:HOST`.
///
/// Not `Sendable`: libiio contexts are not thread-safe, so one task opens, uses and drops a context.
final class IIOContext {
    let pointer: OpaquePointer
    let uri: String

    /// Opens the context at `uri`.
    ///
    /// - Throws: ``IIOError`` naming the URI and the reason.
    init(uri: String) throws(IIOError) {
        guard let p = iio_create_context_from_uri(uri) else {
            throw IIOError.noContext(uri: uri, errno: errno)
        }
        pointer = p
        self.uri = uri
    }

    deinit { iio_context_destroy(pointer) }

    /// Every device in the context, triggers included.
    var devices: [IIODeviceHandle] {
        (0..<iio_context_get_devices_count(pointer)).compactMap { i in
            iio_context_get_device(pointer, i).map(IIODeviceHandle.init)
        }
    }
}

/// One libiio device (Linux only), valid while its ``IIOContext`` lives.
struct IIODeviceHandle {
    let pointer: OpaquePointer

    var id: String { iio_device_get_id(pointer).map { String(cString: $0) } ?? "?" }
    var name: String { iio_device_get_name(pointer).map { String(cString: $0) } ?? id }
    var label: String? { iio_device_get_label(pointer).map { String(cString: $0) }?.trimmingIIOWhitespace() }
    var isTrigger: Bool { iio_device_is_trigger(pointer) }

    /// Input channels.
    var channels: [IIOChannelHandle] {
        (0..<iio_device_get_channels_count(pointer)).compactMap { i in
            guard let c = iio_device_get_channel(pointer, i), !iio_channel_is_output(c) else { return nil }
            return IIOChannelHandle(pointer: c, device: self)
        }
    }

    /// Motion channels of one kind (`accel`, `anglvel`, `magn`), ordered x, y, z; `nil` unless all three exist.
    func axes(_ kind: String) -> [IIOChannelHandle]? {
        let all = channels
        let found = ["x", "y", "z"].compactMap { axis in all.first { $0.id == "\(kind)_\(axis)" } }
        return found.count == 3 ? found : nil
    }

    var timestampChannel: IIOChannelHandle? { channels.first { $0.id == "timestamp" } }

    /// Reads a device attribute, or `nil` with the reason.
    func read(_ attr: String) -> Result<String, IIOErrno> {
        readIIOAttribute(exists: iio_device_find_attr(pointer, attr) != nil) {
            iio_device_attr_read(pointer, attr, $0, $1)
        }
    }

    func attr(_ name: String) -> String? { try? read(name).get() }

    /// Writes a device attribute, returning the errno on failure.
    @discardableResult
    func write(_ attr: String, _ value: String) -> Int32 {
        let n = iio_device_attr_write(pointer, attr, value)
        return n < 0 ? Int32(-n) : 0
    }

    /// The current trigger's name, if the device has one set.
    var currentTrigger: String? {
        var trig: OpaquePointer?
        guard iio_device_get_trigger(pointer, &trig) == 0, let trig else { return nil }
        return IIODeviceHandle(pointer: trig).name
    }
}

/// An errno from libiio.
struct IIOErrno: Error {
    var code: Int32
    init(_ code: Int32) { self.code = code }
    /// Whether another reader holds the device (the kernel allows one reader of an IIO buffer).
    var meansBusy: Bool { code == EBUSY }
    /// Whether it means the device is gone (unplugged, driver unbound, or its sysfs folder removed).
    var meansGone: Bool { code == ENODEV || code == EIO || code == ENOENT || code == ENXIO || code == EBADF }
}

/// One libiio input channel (Linux only).
struct IIOChannelHandle {
    let pointer: OpaquePointer
    let device: IIODeviceHandle

    var id: String { iio_channel_get_id(pointer).map { String(cString: $0) } ?? "?" }
    var kind: String { String(id.prefix { $0 != "_" }) }
    var isScanElement: Bool { iio_channel_is_scan_element(pointer) }

    func read(_ attr: String) -> Result<String, IIOErrno> {
        readIIOAttribute(exists: iio_channel_find_attr(pointer, attr) != nil) {
            iio_channel_attr_read(pointer, attr, $0, $1)
        }
    }

    /// A channel attribute (libiio folds shared `in_accel_scale` into each channel), else the device-wide
    /// `in_KIND_ATTR` or `ATTR`.
    func attr(_ name: String) -> String? {
        if let v = try? read(name).get() { return v }
        return device.attr("in_\(kind)_\(name)") ?? device.attr(name)
    }

    func number(_ name: String) -> Double? { attr(name).flatMap { Double($0) } }

    /// The scan format libiio parsed from `_type`.
    var format: IIOScanFormat {
        let f = iio_channel_get_data_format(pointer)!.pointee
        return IIOScanFormat(
            isBigEndian: f.is_be, isSigned: f.is_signed, bits: Int(f.bits), storageBits: Int(f.length),
            shift: Int(f.shift), repeatCount: max(1, Int(f.repeat)))
    }
}

/// An attribute's text read through libiio (`read` fills a buffer of the given size and returns the byte count or a
/// negative errno), without libiio's trailing whitespace; `ENOENT` when the attribute does not exist.
private func readIIOAttribute(
    exists: Bool, _ read: (UnsafeMutablePointer<CChar>, Int) -> Int
) -> Result<String, IIOErrno> {
    guard exists else { return .failure(IIOErrno(ENOENT)) }
    var buf = [CChar](repeating: 0, count: 1024)
    let n = buf.withUnsafeMutableBufferPointer { read($0.baseAddress!, $0.count) }
    if n < 0 { return .failure(IIOErrno(Int32(-n))) }
    return .success(decodeCString(buf).trimmingIIOWhitespace())
}

/// The text up to the first NUL of a buffer libiio filled.
func decodeCString(_ buf: [CChar]) -> String {
    String(decoding: buf.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
