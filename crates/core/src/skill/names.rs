//! What file names mean on the file systems skills are installed to, decided once for the
//! bundle reader, the snapshot walk and export: which two names one case-insensitive file
//! system stores as one file, and which folders are version-control data, not the skill.

use unicase::UniCase;
use unicode_normalization::UnicodeNormalization;

/// The version-control folders that hold history, not the skill: a bundle sets them aside, a
/// snapshot leaves them out. Compared by [`fold`], since on macOS and Windows `.GIT` is the
/// same folder as `.git` (and git itself refuses `.GIT` there, `core.protectHFS`/`NTFS`).
pub const VERSION_CONTROL: [&str; 5] = [".git", ".hg", ".svn", ".bzr", ".jj"];

/// Whether one part of a path is a version-control folder (or a worktree's `.git` file), in
/// any letter case.
pub fn is_version_control(part: &str) -> bool {
    let folded = fold(part);
    VERSION_CONTROL.iter().any(|vcs| folded == *vcs)
}

/// The name a case-insensitive, normalisation-insensitive file system (APFS, HFS+, NTFS, FAT)
/// stores `part` under: two parts with one key are one file there.
///
/// Unicode default case folding (full, so `ß` is `ss`) of the canonical decomposition, as
/// Unicode's canonical caseless match defines it, so `ſKILL.md` is `SKILL.md`, `ς` is `σ`, `µ`
/// is `μ` and the Kelvin sign is `k`. Dotless `ı` is folded to `i` besides: default folding
/// keeps it apart, but NTFS and FAT compare names upper-cased, and its upper case is `I`.
pub fn fold(part: &str) -> String {
    if part.is_ascii() {
        return part.to_ascii_lowercase();
    }
    let decomposed: String = part.nfd().collect();
    let folded = UniCase::unicode(decomposed.as_str()).to_folded_case();
    folded
        .nfd()
        .map(|c| if c == '\u{131}' { 'i' } else { c })
        .nfc()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_that_differ_only_in_case_fold_alike() {
        let twins = [
            ("SKILL.md", "skill.md"),
            ("\u{17f}KILL.md", "SKILL.md"),
            ("\u{3c2}.md", "\u{3c3}.md"),
            ("\u{3a3}.md", "\u{3c2}.md"),
            ("\u{b5}.md", "\u{3bc}.md"),
            ("\u{212a}ey.md", "key.md"),
            ("\u{131}ndex.md", "index.md"),
            ("\u{131}NDEX.md", "Index.md"),
            ("stra\u{df}e.md", "STRASSE.md"),
            ("\u{1e9e}.md", "ss.md"),
            ("caf\u{e9}.md", "cafe\u{301}.md"),
            ("CAF\u{c9}.md", "cafe\u{301}.md"),
            ("\u{212b}ngstr\u{f6}m", "\u{e5}ngstr\u{f6}m"),
            ("\u{1c5}.md", "\u{1c6}.md"),
        ];
        for (a, b) in twins {
            assert_eq!(fold(a), fold(b), "{a:?} and {b:?}");
        }
    }

    #[test]
    fn names_that_differ_in_more_than_case_stay_apart() {
        for (a, b) in [
            ("a.md", "b.md"),
            ("\u{3c3}.md", "s.md"),
            ("\u{e9}.md", "e.md"),
            ("ss.md", "s.md"),
        ] {
            assert_ne!(fold(a), fold(b), "{a:?} and {b:?}");
        }
    }

    #[test]
    fn version_control_folders_are_known_in_every_case() {
        for name in [
            ".git", ".GIT", ".Git", ".hg", ".HG", ".Hg", ".svn", ".SVN", ".jj", ".JJ", ".bzr",
            ".BZR",
        ] {
            assert!(is_version_control(name), "{name}");
        }
        for name in [
            "git",
            ".github",
            ".gitignore",
            ".hgignore",
            ".git-hooks",
            "svn",
            ".jjx",
        ] {
            assert!(!is_version_control(name), "{name}");
        }
    }
}
