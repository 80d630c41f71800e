import MicroHTTP

/// 403 for a change (any method but GET, HEAD and OPTIONS) sent by a page of another site, unless its origin is the
/// allowed CORS origin. Browsers say where a request comes from in `Sec-Fetch-Site`, which holds behind proxies too;
/// without it (older browsers) the `Origin`'s host must be the request's `Host` (or `X-Forwarded-Host`). Clients
/// that are not browsers send neither header and are not affected.
struct CrossSiteRefusal: Sendable {
    /// The origin allowed to send changes from a browser; nil for none.
    let allowedOrigin: String?

    /// Throws 403 `crossSiteRequest` for a change from a page of another site.
    func check(_ request: HTTPRequest) throws {
        switch request.method {
        case "GET", "HEAD", "OPTIONS": return
        default: break
        }
        let origin = request.headers["origin"]
        if let origin, origin == allowedOrigin { return }
        let crossSite: Bool
        if let site = request.headers["sec-fetch-site"] {
            crossSite = site.lowercased() == "cross-site"
        } else if let origin {
            // `scheme://host[:port]`; "null" (a sandboxed or file page) has no host and never matches.
            let host = origin.split(separator: "/", omittingEmptySubsequences: true).dropFirst().first?.lowercased()
            let own = [request.headers["host"], request.headers["x-forwarded-host"]].compactMap { $0?.lowercased() }
            crossSite = host.map { !own.contains($0) } ?? true
        } else {
            crossSite = false
        }
        guard crossSite else { return }
        throw Problem(
            status: 403, code: "crossSiteRequest", title: "Forbidden",
            detail: "changes are refused from pages of other sites"
                + (allowedOrigin.map { " (only \($0) is allowed)" } ?? ""))
    }
}
