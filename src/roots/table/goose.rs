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

pub(super) static RULES: &[Rule] = &[
    installs(row(
        ME,
        Project,
        Place::Project(".agents/skills", Start),
        Skills,
        0,
        "Goose project skills",
        Evidence::Docs("skill-format-and-roots.md §2.8"),
    )),
    row(
        ME,
        Project,
        Place::Project(".goose/skills", Start),
        Skills,
        1,
        "Goose project skills",
        Evidence::Docs("skill-format-and-roots.md §2.8"),
    ),
    row(
        ME,
        Project,
        Place::Project(".claude/skills", Start),
        Skills,
        2,
        "Goose project skills",
        Evidence::Docs("skill-format-and-roots.md §2.8"),
    ),
    row(
        ME,
        User,
        Place::Under(&CONFIG, "skills"),
        Skills,
        3,
        "Goose config skills",
        Evidence::Docs("skill-format-and-roots.md §2.8"),
    ),
    installs(row(
        ME,
        User,
        Place::Home(".agents/skills"),
        Skills,
        4,
        "Goose global skills",
        Evidence::Docs("skill-format-and-roots.md §2.8"),
    )),
    row(
        ME,
        User,
        Place::Home(".claude/skills"),
        Skills,
        5,
        "Goose global skills",
        Evidence::Docs("skill-format-and-roots.md §2.8"),
    ),
];
