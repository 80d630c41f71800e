import Foundation

/// Where the web page is when neither `--public` nor `SWITCHYARD_PUBLIC` says: `Public` in the working directory,
/// else the page installed beside the program (``installed``, where `make install` puts it), else the page of the
/// Switchyard checkout the program was built from (``builtWith``).
enum PageFolder {
    /// The `Public` folder of the Switchyard checkout this program was built from (found from this source file's
    /// path at compile time), so that `swift run` in an app's own package serves the page with no flag.
    static let builtWith = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Public").path

    /// Where `make install` puts the page, from the folder of the installed program: `PREFIX/bin/switchyard` finds
    /// it in `PREFIX/share/switchyard/Public`.
    static let installedPath = "../share/switchyard/Public"

    /// Where the page installed beside the program at `executable` is: `<its folder>/../share/switchyard/Public`,
    /// and when `executable` is a symbolic link (a program linked into `bin/` from where it was installed), the same
    /// beside the file it leads to.
    static func installed(beside executable: URL) -> [String] {
        let folders = [executable, executable.resolvingSymlinksInPath()].map {
            $0.deletingLastPathComponent().appendingPathComponent(installedPath).standardizedFileURL.path
        }
        return folders[0] == folders[1] ? [folders[0]] : folders
    }

    /// The folders looked at, in order, when no flag names one: `Public` (relative to the working directory), the
    /// page installed beside `executable` (when known), then `builtWith`.
    static func candidates(executable: URL?, builtWith: String = builtWith) -> [String] {
        ["Public"] + (executable.map(installed(beside:)) ?? []) + [builtWith]
    }

    /// The first of ``candidates(executable:builtWith:)`` that is a folder, `Public` in `workingDirectory` meaning
    /// `workingDirectory/Public`; `Public` when none is (which the server then reports as missing, see
    /// ``missing(_:chosen:executable:)``).
    static func standard(
        executable: URL?, builtWith: String = builtWith,
        workingDirectory: String = FileManager.default.currentDirectoryPath
    ) -> String {
        let base = URL(fileURLWithPath: workingDirectory, isDirectory: true)
        return candidates(executable: executable, builtWith: builtWith).first {
            isFolder(URL(fileURLWithPath: $0, relativeTo: base).path)
        } ?? "Public"
    }

    /// The page for this program: ``standard(executable:builtWith:workingDirectory:)`` for the running executable.
    static var standard: String { standard(executable: running) }

    /// The running program's file (`/proc/self/exe` on Linux), if Foundation can tell.
    static var running: URL? { Bundle.main.executableURL }

    /// Whether `path` is a folder.
    static func isFolder(_ path: String) -> Bool {
        var folder: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &folder) && folder.boolValue
    }

    /// Why the server cannot start without its page, and how to fix it: `folder` named by `--public` or
    /// `SWITCHYARD_PUBLIC` (`chosen`) does not exist, or none of the places looked at holds the page.
    static func missing(
        _ folder: String, chosen: Bool, executable: URL? = running, builtWith: String = builtWith
    ) -> String {
        if chosen {
            return "the web page folder '\(folder)' (--public or SWITCHYARD_PUBLIC) does not exist: "
                + "name the folder that holds the page's index.html"
        }
        let places = candidates(executable: executable, builtWith: builtWith).map {
            $0 == "Public" ? "Public in the working directory" : $0
        }
        return "no web page folder found (looked for \(places.joined(separator: ", "))): "
            + "use --public DIR (or SWITCHYARD_PUBLIC) to name it, or install switchyard with `make install`, "
            + "which installs the page beside the program"
    }
}
