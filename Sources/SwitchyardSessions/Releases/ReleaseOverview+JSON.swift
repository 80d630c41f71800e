import SwitchyardJSON

extension ReleaseOverview.App {
    /// A served app as `GET /api/admin/apps` lists it: `{name, versions, rollout, retired}`.
    package var json: JSONValue {
        let versions: [JSONValue] = versions.map { version in
            var entry: [String: JSONValue] = ["version": .number(Double(version.number))]
            switch version.source {
            case .configured: entry["source"] = "configured"
            case .published(let published):
                entry["source"] = "published"
                entry["format"] = .string(published.format)
                entry["published"] = .number(published.published)
            case nil: break
            }
            return .object(entry)
        }
        let retired: [JSONValue] = retired.map { retired in
            var entry: [String: JSONValue] = [
                "version": .number(Double(retired.version)), "retired": .number(retired.retired),
            ]
            if let fallback = retired.fallback { entry["fallback"] = .number(Double(fallback)) }
            return .object(entry)
        }
        return [
            "name": .string(name), "versions": .array(versions),
            "rollout": .array(
                rollout.map { ["version": .number(Double($0.version)), "weight": .number(Double($0.weight))] }),
            "retired": .array(retired),
        ]
    }
}
