import Foundation
import Testing

@testable import SwitchyardServer

/// The route table and the OpenAPI document describe the same API: an endpoint added to one and not the other, or a
/// method one answers and the other does not list, fails here.
@Suite("Route table")
struct RouteTableTests {
    @Test func everyRouteAndMethodIsTheOpenAPIDocumentsAndNoOther() throws {
        let document = try JSONSerialization.jsonObject(with: Data(PackageResources.openapi_json))
        let paths = try #require((document as? [String: Any])?["paths"] as? [String: [String: Any]])
        var documented: [String: Set<String>] = [:]
        for (path, operations) in paths {
            documented[path] = Set(operations.keys.filter { $0 != "parameters" }.map { $0.uppercased() })
        }
        var routed: [String: Set<String>] = [:]
        for route in SwitchyardAPI.routes {
            routed[route.template] = Set(route.allowed.filter { $0 != "HEAD" })
        }
        #expect(routed.count == SwitchyardAPI.routes.count, "a template is routed twice")
        for (path, methods) in routed.sorted(by: { $0.key < $1.key }) {
            #expect(
                documented[path] == methods,
                "\(path): routed \(methods.sorted()), documented \(documented[path].map { $0.sorted() } ?? [])")
        }
        for path in Set(documented.keys).subtracting(routed.keys).sorted() {
            Issue.record("\(path) is documented but not routed")
        }
    }
}
