import Foundation
import Testing

@testable import SwitchyardCommandLine

/// Where `serve` finds the web page with no `--public`: `Public` in the working directory, else the page `make install`
/// put beside the program (`PREFIX/bin/switchyard` → `PREFIX/share/switchyard/Public`), else the page of the
/// checkout the program was built with.
@Suite struct PageFolderTests {
    /// A throwaway folder laid out as an installation: `bin/switchyard` (a file), `share/switchyard/Public/`, an
    /// empty working directory `work/` and a checkout `clone/Public/`, each made on demand.
    struct Layout {
        let root: URL
        var program: URL { root.appendingPathComponent("bin/switchyard") }
        var installedPage: String { root.appendingPathComponent("share/switchyard/Public").path }
        var work: String { root.appendingPathComponent("work").path }
        var clonePage: String { root.appendingPathComponent("clone/Public").path }

        init() throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("page-folder-\(UUID().uuidString)")
            try make(root.appendingPathComponent("bin").path)
            try Data("#!/bin/sh\n".utf8).write(to: program)
            try make(work)
        }

        func make(_ folder: String) throws {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }

        func standard() -> String {
            PageFolder.standard(executable: program, builtWith: clonePage, workingDirectory: work)
        }

        func remove() { try? FileManager.default.removeItem(at: root) }
    }

    @Test func anInstalledProgramFindsThePageInstalledBesideIt() throws {
        let layout = try Layout()
        defer { layout.remove() }
        try layout.make(layout.installedPage)
        #expect(PageFolder.installed(beside: layout.program).first == layout.installedPage)
        // The clone is gone: the installed page, with no flag.
        #expect(layout.standard() == layout.installedPage)
        // The installed page matches the program, so it wins over the checkout it was built from.
        try layout.make(layout.clonePage)
        #expect(layout.standard() == layout.installedPage)
    }

    @Test func publicInTheWorkingDirectoryWinsOverEverythingElse() throws {
        let layout = try Layout()
        defer { layout.remove() }
        try layout.make(layout.installedPage)
        try layout.make(layout.clonePage)
        try layout.make(layout.work + "/Public")
        #expect(layout.standard() == "Public")
    }

    @Test func withNothingInstalledTheCheckoutsPageIsServed() throws {
        let layout = try Layout()
        defer { layout.remove() }
        try layout.make(layout.clonePage)
        #expect(layout.standard() == layout.clonePage)
    }

    @Test func withNoPageAnywhereItIsPublicAndTheMessageSaysWhereItLookedAndTheFix() throws {
        let layout = try Layout()
        defer { layout.remove() }
        #expect(layout.standard() == "Public")
        let message = PageFolder.missing(
            "Public", chosen: false, executable: layout.program, builtWith: layout.clonePage)
        #expect(message.contains("Public in the working directory"), "\(message)")
        #expect(message.contains(layout.installedPage), "\(message)")
        #expect(message.contains(layout.clonePage), "\(message)")
        #expect(message.contains("--public DIR"), "\(message)")
        #expect(message.contains("make install"), "\(message)")
        let named = PageFolder.missing("/nowhere/page", chosen: true)
        #expect(named.hasPrefix("the web page folder '/nowhere/page' (--public or SWITCHYARD_PUBLIC) does not exist"))
    }

    /// `PREFIX/bin/switchyard` may be a symbolic link to the program where it was installed (`/opt/switchyard/bin/…`):
    /// the page beside the link's target is found too.
    @Test func aProgramReachedThroughASymbolicLinkFindsThePageBesideItsTarget() throws {
        let layout = try Layout()
        defer { layout.remove() }
        try layout.make(layout.installedPage)
        let linkFolder = layout.root.appendingPathComponent("links/bin")
        try layout.make(linkFolder.path)
        let link = linkFolder.appendingPathComponent("switchyard")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: layout.program)
        let found = PageFolder.standard(executable: link, builtWith: layout.clonePage, workingDirectory: layout.work)
        #expect(URL(fileURLWithPath: found).resolvingSymlinksInPath().path == layout.installedPage)
    }

    /// The program under test runs from `.build/…/debug/`, where nothing is installed: the checkout's page.
    @Test func theRunningProgramInTheBuildFolderServesTheCheckoutsPage() {
        #expect(PageFolder.running != nil)
        #expect(PageFolder.standard(executable: PageFolder.running, workingDirectory: "/") == PageFolder.builtWith)
    }
}
