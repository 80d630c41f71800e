import Foundation

/// Where the web page is when neither `--public` nor `SWITCHYARD_PUBLIC` says.
enum PageFolder {
    /// The `Public` folder of the Switchyard checkout this program was built from (found from this source file's
    /// path at compile time), so that `swift run` in an app's own package serves the page with no flag.
    static let builtWith = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Public").path

    /// `Public` in the working directory if there is one, else ``builtWith`` if it still exists, else `Public`
    /// (which the server then reports as missing).
    static var standard: String {
        let files = FileManager.default
        if files.fileExists(atPath: "Public") || !files.fileExists(atPath: builtWith) { return "Public" }
        return builtWith
    }
}
