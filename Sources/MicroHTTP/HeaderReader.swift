internal import CMicroHTTPD

/// Copies a request's header fields out of libmicrohttpd into the connection context.
enum HeaderReader {
    static func read(_ connection: OpaquePointer, into context: ConnectionContext) {
        let target = Unmanaged.passUnretained(context).toOpaque()
        _ = MHD_get_connection_values_n(
            connection, .HEADER_KIND,
            { cls, _, key, keySize, value, valueSize in
                guard let cls, let key else { return .YES }
                let context = Unmanaged<ConnectionContext>.fromOpaque(cls).takeUnretainedValue()
                let name = key.withMemoryRebound(to: UInt8.self, capacity: keySize) {
                    String(decoding: UnsafeBufferPointer(start: $0, count: keySize), as: UTF8.self)
                }
                let text =
                    value.map { value in
                        value.withMemoryRebound(to: UInt8.self, capacity: valueSize) {
                            String(decoding: UnsafeBufferPointer(start: $0, count: valueSize), as: UTF8.self)
                        }
                    } ?? ""
                context.headers.add(name: name, value: text)
                return .YES
            }, target)
    }
}
