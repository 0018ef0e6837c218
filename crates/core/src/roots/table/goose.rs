//! Goose loads in order and the later wins; project `.agents` is highest.

use super::documented::Documented;
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
pub(super) const AGENT: Documented = Documented {
    id: "goose",
    name: "Goose",
    detect: &[CONFIG],
    rules: RULES,
};

/// A folder of skills the documentation names (skill-format-and-roots.md §2.8).
const fn folder(scope: Scope, place: Place, rank: u8, label: &'static str) -> Rule {
    row(
        ME,
        scope,
        place,
        Skills,
        rank,
        label,
        Evidence::Docs("skill-format-and-roots.md §2.8"),
    )
}

const PROJECT_LABEL: &str = "Goose project skills";
const CONFIG_LABEL: &str = "Goose config skills";
const GLOBAL_LABEL: &str = "Goose global skills";

pub(super) static RULES: &[Rule] = &[
    installs(folder(
        Project,
        Place::Project(".agents/skills", Start),
        0,
        PROJECT_LABEL,
    )),
    folder(
        Project,
        Place::Project(".goose/skills", Start),
        1,
        PROJECT_LABEL,
    ),
    folder(
        Project,
        Place::Project(".claude/skills", Start),
        2,
        PROJECT_LABEL,
    ),
    folder(User, Place::Under(&CONFIG, "skills"), 3, CONFIG_LABEL),
    installs(folder(User, Place::Home(".agents/skills"), 4, GLOBAL_LABEL)),
    folder(User, Place::Home(".claude/skills"), 5, GLOBAL_LABEL),
];
