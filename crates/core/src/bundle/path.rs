//! Which member paths a bundle may hold. skilldeck defines paths itself and refuses rather than
//! "sanitises" (archive-import-safety.md §0.3, §2.3 items 1, 2, 21, 25–31): a name is kept
//! exactly as written or the whole bundle is refused, so that what a review shows is what is
//! installed, on every operating system alike.

use super::limits::Limits;
use super::refusal::{PathProblem, Refusal};
use crate::skill::names::fold;
use crate::text::escape::{self, is_invisible};

/// A member path that passed every rule: its parts, and whether it was written as a folder
/// (a trailing `/`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemberPath {
    pub parts: Vec<String>,
    pub folder: bool,
}

/// Check the raw name of a member. `Ok(None)` is the bundle's own top folder (`./`), which a
/// GNU tar of `.` lists first.
///
/// # Errors
/// [`Refusal::UnsafePath`] naming the first rule the path breaks.
pub fn member_path(raw: &[u8], limits: &Limits) -> Result<Option<MemberPath>, Refusal> {
    let refuse = |why| Refusal::UnsafePath {
        path: escape::bytes(raw),
        why,
    };
    let Ok(text) = std::str::from_utf8(raw) else {
        return Err(refuse(PathProblem::NotUtf8));
    };
    if text.is_empty() {
        return Err(refuse(PathProblem::Empty));
    }
    if text.starts_with('/') || has_drive_letter(text) {
        return Err(refuse(PathProblem::Absolute));
    }
    if text.chars().any(char::is_control) {
        return Err(refuse(PathProblem::ControlCharacter));
    }
    if text.contains('\\') {
        return Err(refuse(PathProblem::Backslash));
    }
    if text.len() > limits.path_bytes {
        return Err(refuse(PathProblem::PathTooLong(limits.path_bytes)));
    }
    // One leading `./` is how `tar -C dir .` writes every name; anywhere else `.` is refused.
    let relative = text.strip_prefix("./").unwrap_or(text);
    let (relative, folder) = match relative.strip_suffix('/') {
        Some(stripped) => (stripped, true),
        None => (relative, false),
    };
    if relative.is_empty() {
        return Ok(None);
    }
    let mut parts = Vec::new();
    for part in relative.split('/') {
        if let Some(problem) = part_problem(part, limits) {
            return Err(refuse(problem));
        }
        parts.push(part.to_owned());
    }
    if parts.len() > limits.depth {
        return Err(refuse(PathProblem::TooDeep(limits.depth)));
    }
    Ok(Some(MemberPath { parts, folder }))
}

/// What is wrong with one part of a path, if anything. Also the rule for a skill's name, which
/// becomes a folder name.
pub fn part_problem(part: &str, limits: &Limits) -> Option<PathProblem> {
    match part {
        "" => return Some(PathProblem::EmptySegment),
        ".." => return Some(PathProblem::Traversal),
        "." => return Some(PathProblem::DotSegment),
        _ => {}
    }
    if part.contains('/') {
        return Some(PathProblem::Separator);
    }
    if part.len() > limits.name_bytes {
        return Some(PathProblem::NameTooLong(limits.name_bytes));
    }
    if part.chars().any(char::is_control) {
        return Some(PathProblem::ControlCharacter);
    }
    if let Some(c) = part.chars().find(|c| is_invisible(*c)) {
        return Some(PathProblem::Invisible(c));
    }
    if let Some(c) = part.chars().find(|c| WINDOWS_FORBIDDEN.contains(c)) {
        return Some(PathProblem::WindowsCharacter(c));
    }
    if part.ends_with(['.', ' ']) {
        return Some(PathProblem::TrailingDotOrSpace);
    }
    if is_reserved(part) {
        return Some(PathProblem::ReservedName);
    }
    if is_short_name(part) {
        return Some(PathProblem::ShortName);
    }
    None
}

/// A name in the shape of a Windows 8.3 short name (`GIT~1`, `PROGRA~1.TXT`): on NTFS and FAT
/// it may be the second name of another file (`GIT~1` of `.git`, Git's CVE-2014-9390), so
/// what it holds would land in that file. Refused everywhere, so a bundle installs the same on
/// every system.
fn is_short_name(part: &str) -> bool {
    let stem = part.split('.').next().unwrap_or(part);
    stem.len() <= 8
        && stem.split_once('~').is_some_and(|(base, number)| {
            !base.is_empty() && !number.is_empty() && number.bytes().all(|b| b.is_ascii_digit())
        })
}

/// The characters Windows refuses in a name (besides the separators and control characters
/// refused above); `:` is also what the macOS Finder shows for `/`.
const WINDOWS_FORBIDDEN: [char; 7] = ['<', '>', ':', '"', '|', '?', '*'];

/// The device names Windows reserves, whatever the extension (`nul.md` opens the device).
const RESERVED: [&str; 6] = ["CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$"];

fn is_reserved(part: &str) -> bool {
    let stem = part.split('.').next().unwrap_or(part).trim_end();
    if RESERVED.iter().any(|r| stem.eq_ignore_ascii_case(r)) {
        return true;
    }
    let upper = stem.to_ascii_uppercase();
    ["COM", "LPT"].iter().any(|device| {
        upper.strip_prefix(device).is_some_and(|n| {
            n.len() == 1 && n.chars().all(|c| c.is_ascii_digit()) || ["¹", "²", "³"].contains(&n)
        })
    })
}

fn has_drive_letter(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.len() >= 2 && bytes[0].is_ascii_alphabetic() && bytes[1] == b':'
}

/// The name a case-insensitive, normalisation-insensitive file system (macOS, Windows) stores a
/// part under: two parts with one key are one file there. The 8.3 short names that could be a
/// second name of another file are refused outright ([`PathProblem::ShortName`]).
pub fn collision_key(part: &str) -> String {
    fold(part)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bundle::limits;

    fn problem(raw: &[u8]) -> Option<PathProblem> {
        match member_path(raw, &limits()) {
            Ok(_) => None,
            Err(Refusal::UnsafePath { why, .. }) => Some(why),
            Err(other) => panic!("{other}"),
        }
    }

    #[test]
    fn ordinary_names_pass_as_they_are() {
        let path = member_path(b"./demo/scripts/run.sh", &limits())
            .unwrap()
            .unwrap();
        assert_eq!(path.parts, ["demo", "scripts", "run.sh"]);
        assert!(!path.folder);
        let folder = member_path(b"demo/", &limits()).unwrap().unwrap();
        assert!(folder.folder);
        assert_eq!(member_path(b"./", &limits()).unwrap(), None);
        for fine in [
            "demo/Document Template.docx",
            "demo/café.md",
            "demo/.gitignore",
            "demo/COM10.md",
            "demo/console.md",
            "demo/日本語.md",
        ] {
            assert_eq!(problem(fine.as_bytes()), None, "{fine}");
        }
    }

    #[test]
    fn every_unsafe_path_is_refused_for_its_reason() {
        let cases: [(&[u8], PathProblem); 25] = [
            (b"/etc/cron.d/x", PathProblem::Absolute),
            (b"C:/x", PathProblem::Absolute),
            (b"demo/../../.bashrc", PathProblem::Traversal),
            (b"..", PathProblem::Traversal),
            (b"demo\\..\\..\\evil.md", PathProblem::Backslash),
            (b"demo/a\x1b[2Jb.md", PathProblem::ControlCharacter),
            (b"demo/a\0b", PathProblem::ControlCharacter),
            (b"demo/\xff\xfe.md", PathProblem::NotUtf8),
            (b"demo//x", PathProblem::EmptySegment),
            (b"demo/./x", PathProblem::DotSegment),
            (b"", PathProblem::Empty),
            (
                "demo/a\u{202e}dm.exe".as_bytes(),
                PathProblem::Invisible('\u{202e}'),
            ),
            (
                "demo/\u{200c}.git".as_bytes(),
                PathProblem::Invisible('\u{200c}'),
            ),
            (b"demo/a:b", PathProblem::WindowsCharacter(':')),
            (b"demo/what?", PathProblem::WindowsCharacter('?')),
            (b"demo/notes.", PathProblem::TrailingDotOrSpace),
            (b"demo/notes ", PathProblem::TrailingDotOrSpace),
            (b"demo/NUL.md", PathProblem::ReservedName),
            (b"demo/com1", PathProblem::ReservedName),
            (b"demo/lpt9.txt", PathProblem::ReservedName),
            (b"demo/CONIN$", PathProblem::ReservedName),
            (b"demo/aux", PathProblem::ReservedName),
            (b"demo/GIT~1/config", PathProblem::ShortName),
            (b"demo/prog~12.txt", PathProblem::ShortName),
            (b"demo/SKILL~1.MD", PathProblem::ShortName),
        ];
        for (raw, expected) in cases {
            assert_eq!(problem(raw), Some(expected), "{}", escape::bytes(raw));
        }
    }

    #[test]
    fn names_with_a_tilde_that_are_not_short_names_are_kept() {
        for raw in [
            "demo/notes~",
            "demo/~1",
            "demo/draft~v2.md",
            "demo/longer-name~1.md",
            "demo/a.b~1",
        ] {
            assert_eq!(problem(raw.as_bytes()), None, "{raw}");
        }
    }

    #[test]
    fn lengths_and_depth_are_bounded() {
        let limits = limits();
        let long_name = format!("demo/{}", "a".repeat(limits.name_bytes + 1));
        assert_eq!(
            problem(long_name.as_bytes()),
            Some(PathProblem::NameTooLong(limits.name_bytes))
        );
        let long_path = format!("demo/{}", vec!["a".repeat(200); 6].join("/"));
        assert_eq!(
            problem(long_path.as_bytes()),
            Some(PathProblem::PathTooLong(limits.path_bytes))
        );
        let deep = vec!["d"; limits.depth + 1].join("/");
        assert_eq!(
            problem(deep.as_bytes()),
            Some(PathProblem::TooDeep(limits.depth))
        );
        let deepest = vec!["d"; limits.depth].join("/");
        assert_eq!(problem(deepest.as_bytes()), None);
    }

    #[test]
    fn collision_keys_fold_case_and_normalisation() {
        assert_eq!(collision_key("SKILL.md"), collision_key("skill.md"));
        assert_eq!(collision_key("caf\u{e9}"), collision_key("cafe\u{301}"));
        assert_eq!(collision_key("CAFE\u{301}"), collision_key("caf\u{e9}"));
        assert_ne!(collision_key("a.md"), collision_key("b.md"));
        assert_eq!(collision_key("\u{17f}KILL.md"), collision_key("SKILL.md"));
        assert_eq!(collision_key("\u{212a}.md"), collision_key("k.md"));
    }
}
