import Switchyard
import SwitchyardServer
import Testing

@testable import SwitchyardServer

/// `/api/admin/migrations`: off without a token, 401 without the right one, a dry run on GET and the migration of
/// every stored session on POST.
@Suite("Admin endpoints")
struct AdminEndpointTests {
    static let token = "release-token-0123456789"
    static let bearer = [("Authorization", "Bearer \(token)")]

    @Test func withoutATokenTheAdminEndpointsAreNotThere() throws {
        try withServer { server in
            let answer = try server.get("/api/admin/migrations", headers: Self.bearer)
            #expect(answer.status == 404)
            #expect(answer.json["code"] == "noSuchEndpoint")
        }
    }

    @Test func aMissingOrWrongTokenIsRefused() throws {
        try withServer({ $0.adminToken = Self.token }) { server in
            for headers in [
                [], [("Authorization", "Bearer release-token-0123456788")], [("Authorization", Self.token)],
            ] {
                let answer = try server.get("/api/admin/migrations", headers: headers)
                #expect(answer.status == 401)
                #expect(answer.json["code"] == "adminTokenRequired")
                #expect(answer.header("WWW-Authenticate")?.hasPrefix("Bearer") == true)
            }
            #expect(try server.post("/api/admin/migrations", nil).status == 401)
        }
    }

    @Test func theDryRunAndTheMigrationOfEveryStoredSession() throws {
        let store = try TemporaryStore()
        let ids = try store.withServer({ $0.apps = [VersionedShop.v1] }) { server, _ in
            try (0..<4).map { index in
                let id = try #require(try server.post("/api/sessions", nil).json["session"]?.stringValue)
                if index < 3 {
                    _ = try server.post("/api/sessions/\(id)/transitions", VersionedShop.push("detail", "\(index)"))
                }
                return id
            }
        }
        try store.withServer({
            $0.apps = [VersionedShop.v1, VersionedShop.v2]
            $0.adminToken = Self.token
        }) { server, _ in
            let dryRun = try server.get("/api/admin/migrations", headers: Self.bearer)
            #expect(dryRun.status == 200)
            #expect(dryRun.header("Cache-Control") == "no-store")
            let group = dryRun.json["groups"]?.array?.first
            #expect(group?["outcome"] == "migrates" && group?["sessions"] == 4 && group?["to"] == 2)
            let landings = (group?["examples"]?.array ?? []).compactMap { $0["detail"]?.stringValue }
            #expect(Set(landings) == ["lands on home/item", "lands on home"])
            #expect(dryRun.json["lost"] == 0)
            let again = try server.get("/api/admin/migrations", headers: Self.bearer)
            #expect(again.json["groups"] == dryRun.json["groups"], "the dry run changed nothing")

            let refused = try server.post("/api/admin/migrations", #"{"dryRun": true}"#, headers: Self.bearer)
            #expect(refused.status == 400, "an unknown member is refused, not ignored")
            let applied = try server.post("/api/admin/migrations", "{}", headers: Self.bearer)
            #expect(applied.status == 200)
            #expect(applied.json["groups"]?.array?.first?["sessions"] == 4)
            let after = try server.get("/api/admin/migrations", headers: Self.bearer)
            #expect(after.json["groups"]?.array?.first?["outcome"] == "current")
            for id in ids { #expect(try server.get("/api/sessions/\(id)").json["app"]?["version"] == 2) }
        }
    }

    @Test func aTokenInTheQueryIsRefusedEvenWhenRight() throws {
        try withServer({ $0.adminToken = Self.token }) { server in
            for name in ["access_token", "admin_token", "token"] {
                let answer = try server.get("/api/admin/migrations?\(name)=\(Self.token)", headers: Self.bearer)
                #expect(answer.status == 400)
                #expect(answer.json["code"] == "tokenInQuery")
                #expect(answer.json["detail"]?.stringValue?.contains(Self.token) == false)
            }
        }
    }

    @Test func tokensAreComparedWholly() {
        let expected = Array("release-token-0123456789".utf8)
        #expect(AdminToken.equal(expected, expected))
        #expect(!AdminToken.equal(Array("release-token-012345678".utf8), expected), "a prefix")
        #expect(!AdminToken.equal(Array("release-token-0123456789x".utf8), expected), "longer")
        #expect(!AdminToken.equal([], expected))
        #expect(!AdminToken.equal(Array("release-token-0123456780".utf8), expected), "the last byte")
    }
}

extension AdminEndpointTests {
    @Test func withoutATokenNoMethodRevealsTheAdminEndpoints() throws {
        try withServer { server throws in
            for method in ["DELETE", "PUT", "HEAD"] {
                #expect(try server.request(method, "/api/admin/migrations").status == 404, "\(method)")
            }
        }
    }

    @Test func aShortTokenStopsTheStart() {
        var configuration = ServerConfiguration(apps: [VersionedShop.v1])
        configuration.adminToken = "short"
        #expect(throws: AdminTokenError.tooShort(minimum: 16)) {
            _ = try NavigationServer(configuration: configuration)
        }
    }
}
