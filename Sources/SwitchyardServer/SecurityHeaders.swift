/// The headers that keep browsers from misusing what the server sends.
enum SecurityHeaders {
    /// On every answer of the API: no answer may be taken for another type than it says (static files say it
    /// themselves).
    static let api = [("X-Content-Type-Options", "nosniff")]

    /// On the page's files: what the page may load and who may frame it. Only its own files, scripts, styles and
    /// API (the page has no inline script or style); no framing (clickjacking); no referrer to other sites.
    static let page = [
        (
            "Content-Security-Policy",
            "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
                + "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
        ),
        ("Referrer-Policy", "same-origin"),
        ("X-Frame-Options", "DENY"),
    ]
}
