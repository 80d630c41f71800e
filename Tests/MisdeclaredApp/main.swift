// A program whose app cannot work as declared (a tab left out of its TabNavigation, a button naming a route with a
// typo), behind the one-call command line: Tests/example/check.py proves that `serve` refuses to start it and that
// `check` fails, naming both in one run.
import Switchyard
import SwitchyardCommandLine

struct Note: Screen {
    let title: String
    func render() -> ScreenContent { ScreenContent(title: title) }
}

final class MailTabs: TabCoordinatable {
    let tabs = TabNavigation(\MailTabs.inbox)  // `archive` is missing: it would never be shown
    @TabRoute(item: inboxItem) var inbox = makeInbox
    @TabRoute(item: archiveItem) var archive = makeArchive
    func makeInbox() -> ScreenContent {
        ScreenContent(title: "Inbox", content: [.button("Archived", action: .route("archiv"))])  // a typo
    }
    func makeArchive() -> Note { Note(title: "Archive") }
    func inboxItem() -> TabItem { TabItem(title: "Inbox", icon: "tray") }
    func archiveItem() -> TabItem { TabItem(title: "Archive", icon: "archivebox") }
}

SwitchyardCommandLine.main(apps: [NavigationApp(name: "mail", root: { MailTabs() })], name: "misdeclared")
