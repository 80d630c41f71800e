#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Serves files from one folder (e.g. `Public/`) for GET and HEAD, safely.
///
/// - `/` and folders serve their `index.html`.
/// - Each file has a strong `ETag` (size and modification time); a matching `If-None-Match`
///   gets 304 without a body.
/// - No escape from the folder: `..` segments, encoded dots, slashes and backslashes
///   (`%2e`, `%2f`, `%5c`), NUL, hidden files (`.name`) and symlinks that resolve outside the folder
///   are all treated as missing.
public struct StaticFiles: Sendable {
    /// Why a ``StaticFiles`` could not be created.
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// The root folder does not exist or is not a folder.
        case notAFolder(String)

        /// A readable explanation.
        public var description: String {
            switch self {
            case .notAFolder(let path): "static files folder not found: \(path)"
            }
        }
    }

    /// The canonical (symlink-free) path of the served folder.
    public let root: String
    /// gzip representations made so far, by path (each made once per version of its file).
    private let compressed = CompressedFiles()

    /// Serves files from the folder at `root`; throws ``Failure/notAFolder(_:)`` if it is missing.
    public init(root: String) throws {
        guard let resolved = Self.realPath(root), Self.fileKind(resolved) == .folder else {
            throw Failure.notAFolder(root)
        }
        self.root = resolved == "/" ? "" : resolved
    }

    /// The file's response (200, or 304 for a matching `If-None-Match`), or nil when the request
    /// is not a GET/HEAD or names nothing servable (the caller then answers 404).
    public func response(for request: HTTPRequest) -> HTTPResponse? {
        guard request.method == "GET" || request.method == "HEAD" else { return nil }
        guard let path = resolve(request) else { return nil }
        guard let file = Self.fileInfo(path), file.kind == .file else { return nil }
        let identity = "\"\(String(file.size, radix: 16))-\(String(file.modified, radix: 16))\""
        let type = MIMEType.forPath(path)
        let compressible = ContentCoding.isWorthCompressing(type: type, bytes: Int(file.size))
        let gzip = compressible && ContentCoding.acceptsGzip(request)
        let etag = gzip ? ContentCoding.gzipTag(identity) : identity
        var headers = [("ETag", etag), ("Cache-Control", "no-cache")]
        if compressible { headers.append(("Vary", "Accept-Encoding")) }
        if let candidates = request.headers["If-None-Match"], EntityTag.noneMatch(candidates, etag) {
            return HTTPResponse(status: 304, headers: headers)
        }
        guard var bytes = Self.read(path) else { return nil }
        if gzip, let packed = compressed.gzip(of: path, version: identity, bytes) {
            bytes = packed
            headers.append(("Content-Encoding", "gzip"))
        } else if gzip {
            headers[0] = ("ETag", identity)  // compression failed: the identity representation goes out
        }
        headers.insert(("Content-Type", type), at: 0)
        headers.append(("X-Content-Type-Options", "nosniff"))
        return HTTPResponse(status: 200, headers: headers, body: bytes)
    }

    // MARK: - Resolution

    /// The canonical path of the file the request names, or nil if it is not inside `root`.
    func resolve(_ request: HTTPRequest) -> String? {
        let raw = request.rawPath.lowercased()
        for forbidden in ["%2e", "%2f", "%5c", "%00"] where raw.contains(forbidden) { return nil }
        let path = request.path
        guard path.hasPrefix("/"), !path.contains("\\"), !path.contains("\0") else { return nil }
        let segments = path.split(separator: "/", omittingEmptySubsequences: true)
        for segment in segments where segment.hasPrefix(".") { return nil }
        var candidate = root + "/" + segments.joined(separator: "/")
        if path.hasSuffix("/") { candidate += segments.isEmpty ? "index.html" : "/index.html" }
        guard var resolved = Self.realPath(candidate), isInsideRoot(resolved) else { return nil }
        if Self.fileKind(resolved) == .folder {
            guard let index = Self.realPath(resolved + "/index.html"), isInsideRoot(index) else { return nil }
            resolved = index
        }
        return resolved
    }

    private func isInsideRoot(_ path: String) -> Bool {
        path.hasPrefix(root + "/")
    }

    // MARK: - File system

    private enum Kind { case file, folder, other }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private static func fileKind(_ path: String) -> Kind? {
        fileInfo(path)?.kind
    }

    private static func fileInfo(_ path: String) -> (kind: Kind, size: Int, modified: Int)? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        let type = info.st_mode & S_IFMT
        let kind: Kind = type == S_IFREG ? .file : type == S_IFDIR ? .folder : .other
        #if canImport(Glibc)
            let modified = info.st_mtim.tv_sec * 1_000_000_000 + info.st_mtim.tv_nsec
        #else
            let modified = info.st_mtimespec.tv_sec * 1_000_000_000 + info.st_mtimespec.tv_nsec
        #endif
        return (kind, Int(info.st_size), Int(modified))
    }

    private static func read(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<count])
        }
    }

    #if canImport(Glibc)
        private static let systemRead = Glibc.read
    #else
        private static let systemRead = Darwin.read
    #endif

}
