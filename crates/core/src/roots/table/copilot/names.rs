//! The names Copilot CLI 1.0.102 lists a skill by, and those it refuses. Its loader is native
//! (`runtime.node`); what `copilot skill list` printed for each case (test
//! `agree::copilot::copilot_skill_names_kept_dashed_or_refused`):
//!
//! - the frontmatter `name`, else the folder's name, must start with an ASCII letter or digit
//!   and hold only ASCII letters, digits, `-`, `_`, `.`, `:` and spaces ("Skill name must start
//!   with an ASCII letter or number and contain only ASCII letters (a-z, A-Z), numbers,
//!   hyphens, underscores, dots, colons, and spaces"; for a folder, "could not derive a valid
//!   skill name from the folder path"); an empty name is refused too ("must not be empty"),
//!   and so is a `name` or `description` that is no string ("must be a string");
//! - a kept name is listed with each run of spaces as one `-` (`My Skill` is `My-Skill`,
//!   `a  b` is `a-b`); case is kept.

use std::borrow::Cow;
use std::path::Path;

use super::{Effect, Hiding};
use crate::roots::agent::Holds;
use crate::skill::{Declared, Lint};

/// A name Copilot loads a skill under, before its spaces become `-`.
fn allowed(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphanumeric())
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | ':' | ' '))
}

/// The name as Copilot lists it: each run of spaces is one `-`.
pub(super) fn dashed(name: &str) -> Cow<'_, str> {
    if !name.contains(' ') {
        return Cow::Borrowed(name);
    }
    let mut out = String::with_capacity(name.len());
    let mut in_run = false;
    for c in name.chars() {
        if c == ' ' {
            if !in_run {
                out.push('-');
            }
            in_run = true;
        } else {
            out.push(c);
            in_run = false;
        }
    }
    Cow::Owned(out)
}

fn refused(folder: &Path, _: Holds<'_>, declared: &Declared) -> bool {
    // "Skill name must be a string": a `name: 123` is no fallback to the folder's name. A
    // `description` that is no string is refused alike.
    let not_a_string = |field| declared.lints.contains(&Lint::NotAString(field));
    if not_a_string("name") || not_a_string("description") {
        return true;
    }
    let folder_name = folder.file_name().map(|n| n.to_string_lossy());
    match (&declared.name, folder_name) {
        (Some(name), _) => !allowed(name),
        (None, Some(folder)) => !allowed(&folder),
        (None, None) => true,
    }
}

/// A skill whose name Copilot refuses is a load error, not a skill.
pub(super) const REFUSED_NAME: Hiding = Hiding {
    why: "Copilot refuses its name: it must be a string that starts with an ASCII letter or digit and holds only ASCII letters, digits, '-', '_', '.', ':' and spaces",
    effect: Effect::Dropped,
    applies: refused,
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ascii_letters_digits_and_five_marks_are_allowed() {
        for name in ["a", "UPPER", "ns:tool", "a_b.c", "My Skill", "9lives", "a-"] {
            assert!(allowed(name), "{name}");
        }
        for name in [
            "",
            "café",
            "rocket🚀",
            "a/b",
            "-lead",
            "..",
            " a",
            "tab\there",
        ] {
            assert!(!allowed(name), "{name}");
        }
    }

    #[test]
    fn each_run_of_spaces_becomes_one_dash() {
        assert_eq!(dashed("My Skill"), "My-Skill");
        assert_eq!(dashed("a  b c"), "a-b-c");
        assert!(matches!(dashed("plain"), Cow::Borrowed("plain")));
    }

    #[test]
    fn the_folder_name_is_judged_when_the_frontmatter_names_none() {
        let holds: Holds<'_> = &|_| false;
        let declared = |text: &str| Declared::read(text, "x");
        assert!(refused(
            Path::new("/r/Földer"),
            holds,
            &declared("---\n---\n")
        ));
        assert!(!refused(
            Path::new("/r/Folder Space"),
            holds,
            &declared("---\n---\n")
        ));
        assert!(!refused(
            Path::new("/r/Földer"),
            holds,
            &declared("---\nname: ok\n---\n")
        ));
        assert!(refused(
            Path::new("/r/ok"),
            holds,
            &declared("---\nname: café\n---\n")
        ));
    }
}
