//! The one place text from disk is made safe for a terminal, measured, and written for people.
//!
//! A skill's name, a folder name, a frontmatter value or an archive member's name can hold
//! anything: escape sequences a terminal would act on, bidirectional overrides that make text
//! read as something else, characters that take two columns or none. Both front ends (the
//! command line and the app) print such text only through here, so they agree on what is
//! shown. This is the ground floor: it uses std and the unicode crates and nothing else of
//! skilldeck, so every module may use it.
//!
//! - [`sanitize`]: text made drawable, with what a terminal would act on dropped (the app).
//! - [`escape`]: text with what a terminal would act on written visibly, as `\u{1b}`
//!   (refusals, and the command line).
//! - [`width`]: display columns, cutting and wrapping to them.
//! - [`human`]: paths under the home directory as `~/…`, counts, sizes, ages, tables.
//! - [`suggest`]: the names closest to a misspelt one.

pub mod escape;
pub mod human;
pub mod sanitize;
pub mod suggest;
pub mod width;

/// What becomes of the characters a terminal would act on (controls, escape sequences,
/// bidirectional overrides) in text from disk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unsafe {
    /// Dropped, as [`sanitize::line`] does: for text the app draws.
    Dropped,
    /// Written visibly, as [`escape::line`] does: for text printed as it is, where the reader
    /// must see what a name really holds (the command line, refusals).
    Escaped,
}

impl Unsafe {
    /// `text` with its unsafe characters treated so.
    pub fn apply(self, text: &str) -> String {
        match self {
            Unsafe::Dropped => sanitize::line(text),
            Unsafe::Escaped => escape::line(text),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_treatment_of_unsafe_characters_is_its_own() {
        let text = "a\u{1b}[2Jb\u{202e}c";
        assert_eq!(Unsafe::Dropped.apply(text), "abc");
        assert_eq!(Unsafe::Escaped.apply(text), "a\\u{1b}[2Jb\\u{202e}c");
    }

    #[test]
    fn the_ground_floor_uses_no_other_module() {
        let sources = [
            ("mod.rs", include_str!("mod.rs")),
            ("escape.rs", include_str!("escape.rs")),
            ("human.rs", include_str!("human.rs")),
            ("sanitize.rs", include_str!("sanitize.rs")),
            ("width.rs", include_str!("width.rs")),
        ];
        // Spelt in two, so this test does not find itself.
        let other_module = concat!("crate", "::");
        for (file, source) in sources {
            assert!(
                !source.contains(other_module),
                "text/{file} uses {other_module}"
            );
        }
    }
}
