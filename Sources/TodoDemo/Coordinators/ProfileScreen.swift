import Switchyard

/// The user's name, the admin switch and the logout button, rendered from the tabs' current data.
struct ProfileScreen: Screen {
    let tabs: AuthenticatedCoordinator

    /// The user's name never changes; the admin switch does.
    var contentRevision: Int? { tabs.adminMode ? 1 : 0 }

    func render() -> ScreenContent {
        ScreenContent(
            title: "Profile",
            content: [
                .image(systemName: "person.circle", color: "#8e8e93"),
                .text(tabs.user, style: .title),
                .toggle(
                    id: "adminMode", title: "Admin mode", isOn: tabs.adminMode,
                    action: .event("setAdminMode", fields: ["adminMode"])),
                .text("Settings → Open Admin needs this switch.", style: .caption),
                .button("Log out", role: .destructive, action: .event("logout")),
            ])
    }
}
