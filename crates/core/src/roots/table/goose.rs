//! Goose loads in order and the later wins; project `.agents` is highest.

use super::*;

const ME: AgentId = AgentId::GOOSE;

/// Goose's config folder: `~/.config/goose` on Linux and macOS (XDG_CONFIG_HOME moves it),
/// `%APPDATA%\Block\goose\config` on Windows (etcetera's Windows strategy, which reads no XDG
/// variable); goose's configuration guide gives both ("macOS/Linux: ~/.config/goose/config.yaml
/// - Windows: %APPDATA%\Block\goose\config\config.yaml").
const CONFIG: Place = Place::OnWindows {
    windows: &Place::Env {
        var: "APPDATA",
        then: "Block/goose/config",
        or: &Place::Home("AppData/Roaming/Block/goose/config"),
    },
    elsewhere: &Place::Under(&XDG_CONFIG, "goose"),
};

/// Goose: the folders its documentation names, and nothing it does not.
pub(super) static AGENT: AgentRules = AgentRules::assumed(
    "goose",
    "Goose",
    DOCUMENTED,
    &[CONFIG],
    Rows::Written(RULES),
);

/// A folder of skills the documentation names (skill-format-and-roots.md §2.8).
const FOLDER: Rule = folders(
    ME,
    Evidence::Docs("skill-format-and-roots.md §2.8"),
    Finds::DIRECT,
);

/// A folder below the start directory.
const fn project(dir: &'static str, rank: u8) -> Rule {
    FOLDER.at(
        Project,
        Place::Project(dir, Start),
        rank,
        "Goose project skills",
    )
}

/// A folder below the home directory.
const fn global(dir: &'static str, rank: u8) -> Rule {
    FOLDER.at(User, Place::Home(dir), rank, "Goose global skills")
}

const RULES: &[Rule] = &[
    installs(project(".agents/skills", 0)),
    project(".goose/skills", 1),
    project(".claude/skills", 2),
    FOLDER.at(
        User,
        Place::Under(&CONFIG, "skills"),
        3,
        "Goose config skills",
    ),
    installs(global(".agents/skills", 4)),
    global(".claude/skills", 5),
];
