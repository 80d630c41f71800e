/// The OpenAPI 3.1 description of the API, served at `GET /api/openapi.json`.
enum OpenAPISpec {
    static let bytes: [UInt8] = Array(text.utf8)

    static let text = """
        {"openapi":"3.1.0","info":{"title":"Switchyard","version":"0.1.0"},"paths":{}}
        """
}
