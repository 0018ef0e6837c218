//! Styles by meaning, and the markers that carry the same meaning without colour, so the app
//! reads the same with `NO_COLOR` set (then only bold, dim and reverse are used).
//!
//! Backgrounds are left to the terminal so light and dark themes both work.

use ratatui::style::{Color, Modifier, Style};

use crate::operations::lock_state::LockState;
use crate::record::State;
use crate::roots::Source;

use super::model::Presence;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Theme {
    pub intact: Style,
    pub modified: Style,
    /// Changed since its latest snapshot: not the same as `modified`.
    pub changed: Style,
    pub unrecorded: Style,
    pub unreadable: Style,
    pub unverifiable: Style,
    pub plugin: Style,
    pub organization: Style,
    pub user: Style,
    pub project: Style,
    pub unknown: Style,
    /// The selected row of the pane that has the keyboard.
    pub selected: Style,
    /// The selected row of a pane that does not.
    pub selected_idle: Style,
    pub border: Style,
    pub border_focused: Style,
    pub title: Style,
    pub label: Style,
    pub dim: Style,
    pub key: Style,
    pub warning: Style,
    pub heading: Style,
    pub frontmatter: Style,
    pub gauge: Style,
    /// A diff's added and removed lines, and the changed words inside them.
    pub added: Style,
    pub removed: Style,
    pub added_word: Style,
    pub removed_word: Style,
}

impl Default for Theme {
    fn default() -> Self {
        Self::colored()
    }
}

impl Theme {
    /// The colour theme, or the plain one when `no_color` (the `NO_COLOR` convention).
    pub fn new(no_color: bool) -> Self {
        if no_color {
            Self::plain()
        } else {
            Self::colored()
        }
    }

    pub fn colored() -> Self {
        let fg = |color| Style::new().fg(color);
        Self {
            intact: fg(Color::Green),
            modified: fg(Color::Red).add_modifier(Modifier::BOLD),
            changed: fg(Color::LightYellow).add_modifier(Modifier::BOLD),
            unrecorded: fg(Color::Gray),
            unreadable: fg(Color::Magenta).add_modifier(Modifier::BOLD),
            unverifiable: fg(Color::Yellow),
            plugin: fg(Color::Magenta),
            organization: fg(Color::Cyan),
            user: fg(Color::Blue),
            project: fg(Color::Yellow),
            unknown: fg(Color::DarkGray),
            selected: Style::new()
                .bg(Color::DarkGray)
                .add_modifier(Modifier::BOLD),
            selected_idle: Style::new().add_modifier(Modifier::UNDERLINED),
            border: fg(Color::DarkGray),
            border_focused: fg(Color::Cyan),
            title: Style::new().add_modifier(Modifier::BOLD),
            label: fg(Color::Cyan),
            dim: fg(Color::DarkGray),
            key: fg(Color::Cyan).add_modifier(Modifier::BOLD),
            warning: fg(Color::Yellow),
            heading: fg(Color::Cyan).add_modifier(Modifier::BOLD),
            frontmatter: fg(Color::DarkGray),
            gauge: fg(Color::Cyan),
            added: fg(Color::Green),
            removed: fg(Color::Red),
            // Reversed, so the word stands on the line's own colour in light and dark themes.
            added_word: fg(Color::Green).add_modifier(Modifier::REVERSED | Modifier::BOLD),
            removed_word: fg(Color::Red).add_modifier(Modifier::REVERSED | Modifier::BOLD),
        }
    }

    pub fn plain() -> Self {
        let none = Style::new();
        let bold = Style::new().add_modifier(Modifier::BOLD);
        let dim = Style::new().add_modifier(Modifier::DIM);
        Self {
            intact: none,
            modified: bold,
            changed: bold,
            unrecorded: none,
            unreadable: bold,
            unverifiable: none,
            plugin: none,
            organization: none,
            user: none,
            project: none,
            unknown: dim,
            selected: Style::new().add_modifier(Modifier::REVERSED),
            selected_idle: Style::new().add_modifier(Modifier::UNDERLINED),
            border: none,
            border_focused: bold,
            title: bold,
            label: bold,
            dim,
            key: bold,
            warning: bold,
            heading: bold,
            frontmatter: dim,
            gauge: none,
            added: none,
            removed: none,
            added_word: Style::new().add_modifier(Modifier::REVERSED),
            removed_word: Style::new().add_modifier(Modifier::REVERSED),
        }
    }

    pub fn state(&self, state: State) -> Style {
        match state {
            State::Intact => self.intact,
            State::Modified => self.modified,
            State::Unrecorded => self.unrecorded,
            State::Unreadable => self.unreadable,
            State::Unverifiable => self.unverifiable,
        }
    }

    /// A project skill's lock state: as the state whose meaning is nearest (its files match,
    /// or differ), a skill the lock does not name as a warning.
    pub fn lock(&self, lock: LockState) -> Style {
        match lock {
            LockState::Locked => self.intact,
            LockState::Differing => self.modified,
            LockState::Unlocked => self.warning,
        }
    }

    pub fn source(&self, source: Source) -> Style {
        match source {
            Source::Plugin => self.plugin,
            Source::Organization => self.organization,
            Source::User => self.user,
            Source::Project => self.project,
            Source::Builtin | Source::Unknown => self.unknown,
        }
    }
}

/// The state's marker in the list: a shape, so it reads without colour.
pub fn state_marker(state: State) -> &'static str {
    match state {
        State::Intact => "●",
        State::Modified => "▲",
        State::Unrecorded => "○",
        State::Unreadable => "?",
        State::Unverifiable => "◇",
    }
}

/// A project skill's lock state in the list, beside its state: a shape, so it reads without
/// colour, and none a state uses.
pub fn lock_marker(lock: LockState) -> &'static str {
    match lock {
        LockState::Locked => "≡",
        LockState::Differing => "≠",
        LockState::Unlocked => "∉",
    }
}

/// The source's badge in the list, a fixed width.
pub fn source_badge(source: Source) -> &'static str {
    match source {
        Source::Plugin => "plugin ",
        Source::Organization => "org    ",
        Source::User => "user   ",
        Source::Project => "project",
        Source::Builtin => "builtin",
        Source::Unknown => "unknown",
    }
}

/// A root's marker in the roots view.
pub fn presence_marker(presence: &Presence) -> &'static str {
    match presence {
        Presence::Exists => "●",
        Presence::BuiltIn => "◆",
        Presence::Missing => "·",
        Presence::NotADirectory => "✗",
        Presence::Unreadable(_) => "?",
    }
}

/// The marker of a skill whose files differ from its latest snapshot ("changed since
/// snapshot"): another meaning, and so another shape, than the state `modified` (`▲`), which
/// says its files differ from its installer's record.
pub const CHANGED_MARKER: &str = "±";
/// The marker of a skill whose folder is gone, though a snapshot of it is kept.
pub const GONE_MARKER: &str = "✗";
/// The marker of a skill that some agent runs another copy of.
pub const SHADOWED_MARKER: &str = "◐";
/// Before the name of a marked skill, in the list.
pub const MARKED_MARKER: &str = "*";
/// Upstream moved past the skill (the last check said so); in the mark's column, when the
/// skill is not marked.
pub const UPSTREAM_MARKER: &str = "↑";
/// After a skill's cost: some agent shortens or drops its description, past its budget.
pub const CUT_MARKER: &str = "↓";
/// The marker of a skill with problems.
pub const PROBLEM_MARKER: &str = "!";
/// The marker of a skill `skilldeck audit` finds something of medium or high severity in; in
/// the problems' column, before a problem (what the skill would do weighs more than how it
/// strays from the specification, and the detail lists both).
pub const AUDIT_MARKER: &str = "◆";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_plain_theme_has_no_colour() {
        let plain = Theme::plain();
        let styles = [
            plain.intact,
            plain.modified,
            plain.changed,
            plain.unrecorded,
            plain.unreadable,
            plain.unverifiable,
            plain.plugin,
            plain.organization,
            plain.user,
            plain.project,
            plain.unknown,
            plain.selected,
            plain.selected_idle,
            plain.border,
            plain.border_focused,
            plain.title,
            plain.label,
            plain.dim,
            plain.key,
            plain.warning,
            plain.heading,
            plain.frontmatter,
            plain.gauge,
            plain.added,
            plain.removed,
            plain.added_word,
            plain.removed_word,
        ];
        for style in styles {
            assert_eq!(style.fg, None, "{style:?}");
            assert_eq!(style.bg, None, "{style:?}");
        }
        assert_eq!(Theme::new(true), plain);
        assert_eq!(Theme::new(false), Theme::colored());
    }

    #[test]
    fn every_state_has_its_own_marker() {
        let mut markers: Vec<&str> = State::ALL.into_iter().map(state_marker).collect();
        markers.sort_unstable();
        markers.dedup();
        assert_eq!(markers.len(), State::ALL.len());
    }
}
