import Switchyard
import SwitchyardServer
import Testing
import TodoDemo

private struct Note: Screen {
    let title: String
    func render() -> ScreenContent { ScreenContent(title: title) }
}

/// Two tabs declared, one listed: the second would never be shown.
private final class MisdeclaredTabs: TabCoordinatable {
    let tabs = TabNavigation(\MisdeclaredTabs.inbox)
    @TabRoute(item: inboxItem) var inbox = makeInbox
    @TabRoute(item: archiveItem) var archive = makeArchive
    func makeInbox() -> Note { Note(title: "Inbox") }
    func makeArchive() -> Note { Note(title: "Archive") }
    func inboxItem() -> TabItem { TabItem(title: "Inbox", icon: "tray") }
    func archiveItem() -> TabItem { TabItem(title: "Archive", icon: "folder") }
}

/// An app is checked before it is served: one whose declarations cannot work does not start.
@Suite("App checks before serving")
struct AppCheckTests {
    @Test func aServerRefusesToStartAnAppWithAMisdeclaredTab() {
        let app = NavigationApp(name: "mail", root: { MisdeclaredTabs() })
        #expect {
            _ = try NavigationServer(apps: [app], port: 0)
        } throws: { error in
            let text = "\(error)"
            return error is AppCheckFailure && text.contains("app 'mail'") && text.contains("route 'archive'")
        }
    }

    @Test func theDemoIsSound() {
        #expect(TodoDemo.app.check().isEmpty)
    }
}
