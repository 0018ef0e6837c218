//! A diff as the rows of a unified diff, top to bottom: what the command line prints and what
//! the terminal app scrolls through, each styling the rows its own way.

use super::{Blob, Body, FileDiff, Hunk, Line, SkillDiff, Status};
use crate::text::human::{count, size};

/// One row of a unified diff.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Row<'a> {
    /// About the whole diff: frontmatter keys that changed, a truncated snapshot.
    Note(String),
    /// `--- a/path` or `--- /dev/null`.
    OldFile(&'a FileDiff),
    /// `+++ b/path` or `+++ /dev/null`.
    NewFile(&'a FileDiff),
    /// What changed in a file whose lines are not shown, or in its mode.
    Summary(String),
    Hunk(&'a Hunk),
    Line(&'a Line),
    /// `\ No newline at end of file`, after the line it concerns.
    NoNewline,
}

impl Row<'_> {
    /// The row as plain text, without a line ending.
    pub fn text(&self) -> String {
        match self {
            Row::Note(text) | Row::Summary(text) => text.clone(),
            Row::OldFile(file) => match file.status() {
                Status::Added => "--- /dev/null".to_owned(),
                _ => format!("--- a/{}", file.path),
            },
            Row::NewFile(file) => match file.status() {
                Status::Removed => "+++ /dev/null".to_owned(),
                _ => format!("+++ b/{}", file.path),
            },
            Row::Hunk(hunk) => hunk.header(),
            Row::Line(line) => format!("{}{}", line.kind.sign(), line.text),
            Row::NoNewline => "\\ No newline at end of file".to_owned(),
        }
    }
}

/// The rows of `diff`, in order.
pub fn rows(diff: &SkillDiff) -> Vec<Row<'_>> {
    let mut rows = Vec::new();
    if diff.truncated {
        rows.push(Row::Note(
            "a snapshot compared kept only SKILL.md (its skill was over the copy bound); other files are not compared".to_owned(),
        ));
    }
    if !diff.not_compared.is_empty() {
        rows.push(Row::Note(format!(
            "not compared, since no snapshot keeps them: {}",
            diff.not_compared
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }
    if let Some(change) = diff.frontmatter.as_ref().filter(|c| !c.is_empty()) {
        let mut parts = Vec::new();
        for (what, keys) in [
            ("changed", &change.changed),
            ("added", &change.added),
            ("removed", &change.removed),
        ] {
            if !keys.is_empty() {
                parts.push(format!("{what} {}", keys.join(", ")));
            }
        }
        if let Some(why) = &change.unreadable {
            parts.push(format!("not compared: {why}"));
        }
        rows.push(Row::Note(format!(
            "SKILL.md frontmatter: {}",
            parts.join("; ")
        )));
    }
    for file in &diff.files {
        rows.push(Row::OldFile(file));
        rows.push(Row::NewFile(file));
        if let Some((before, after)) = file.mode_change() {
            rows.push(Row::Summary(format!(
                "mode {} -> {}",
                mode(before),
                mode(after)
            )));
        }
        match &file.body {
            Body::Hunks(hunks) => {
                if let Some(summary) = whole_file(file, &count(file.added + file.removed, "line")) {
                    rows.push(Row::Summary(summary));
                }
                for hunk in hunks {
                    rows.push(Row::Hunk(hunk));
                    for line in &hunk.lines {
                        rows.push(Row::Line(line));
                        if line.no_newline {
                            rows.push(Row::NoNewline);
                        }
                    }
                }
            }
            Body::Binary => match (&file.old, &file.new) {
                (Some(old), Some(new)) => rows.push(Row::Summary(format!(
                    "binary file changed: {} -> {}",
                    blob_text(old),
                    blob_text(new)
                ))),
                _ => rows.extend(whole_file(file, "binary").map(Row::Summary)),
            },
            Body::TooLarge(bound) => rows.push(Row::Summary(match (&file.old, &file.new) {
                (Some(old), Some(new)) => format!(
                    "too large to diff ({bound}): {} -> {}",
                    blob_text(old),
                    blob_text(new)
                ),
                (None, Some(new)) => {
                    format!("new file, too large to diff ({bound}): {}", blob_text(new))
                }
                (Some(old), None) => format!(
                    "deleted file, too large to diff ({bound}): {}",
                    blob_text(old)
                ),
                (None, None) => continue,
            })),
            Body::SameContent => {}
        }
    }
    rows
}

/// `new file: 3 bytes, sha256:…, 1 line`: what an added or removed file is, above its lines;
/// `None` for a file both sides hold.
fn whole_file(file: &FileDiff, what: &str) -> Option<String> {
    let (said, blob) = match (file.status(), &file.old, &file.new) {
        (Status::Added, _, Some(new)) => ("new file", new),
        (Status::Removed, Some(old), _) => ("deleted file", old),
        _ => return None,
    };
    Some(format!("{said}: {}, {what}", blob_text(blob)))
}

fn mode(executable: bool) -> &'static str {
    if executable { "0755" } else { "0644" }
}

/// A file's size and the start of its digest: `3 bytes, sha256:…`, `7.6 MiB, sha256:…`.
fn blob_text(blob: &Blob) -> String {
    let shown = if blob.size < 1024 {
        count(usize::try_from(blob.size).unwrap_or(usize::MAX), "byte")
    } else {
        size(blob.size)
    };
    if blob.sha256.is_empty() {
        return format!("{shown}, not hashed (past the digest's budget)");
    }
    format!(
        "{shown}, sha256:{}",
        &blob.sha256[..12.min(blob.sha256.len())]
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::snapshot::diff::{FrontmatterChange, hunks};

    fn blob(size: u64, executable: bool) -> Blob {
        Blob {
            size,
            sha256: "ab".repeat(32),
            executable,
        }
    }

    fn texts(diff: &SkillDiff) -> Vec<String> {
        rows(diff).iter().map(Row::text).collect()
    }

    #[test]
    fn a_modified_text_file_reads_as_a_unified_diff() {
        let diff = SkillDiff {
            files: vec![FileDiff {
                path: "SKILL.md".into(),
                old: Some(blob(4, false)),
                new: Some(blob(4, false)),
                body: Body::Hunks(hunks("a\nb\n", "a\nc")),
                added: 1,
                removed: 1,
            }],
            frontmatter: Some(FrontmatterChange {
                changed: vec!["description".into()],
                ..FrontmatterChange::default()
            }),
            truncated: false,
            not_compared: Vec::new(),
        };
        assert_eq!(
            texts(&diff),
            [
                "SKILL.md frontmatter: changed description",
                "--- a/SKILL.md",
                "+++ b/SKILL.md",
                "@@ -1,2 +1,2 @@",
                " a",
                "-b",
                "+c",
                "\\ No newline at end of file",
            ]
        );
    }

    #[test]
    fn added_files_show_their_lines_and_binary_and_mode_changes_are_summarised() {
        let file = |path: &str, old, new, body| FileDiff {
            path: path.into(),
            old,
            new,
            body,
            added: 0,
            removed: 0,
        };
        let diff = SkillDiff {
            files: vec![
                FileDiff {
                    added: 1,
                    ..file(
                        "new.md",
                        None,
                        Some(blob(3, false)),
                        Body::Hunks(hunks("", "x\n")),
                    )
                },
                file("gone.bin", Some(blob(1, false)), None, Body::Binary),
                file(
                    "x.png",
                    Some(blob(2, false)),
                    Some(blob(1, false)),
                    Body::Binary,
                ),
                file(
                    "run.sh",
                    Some(blob(2, false)),
                    Some(blob(2, true)),
                    Body::SameContent,
                ),
            ],
            frontmatter: None,
            truncated: true,
            not_compared: Vec::new(),
        };
        let sha = "abababababab";
        assert_eq!(
            texts(&diff)[1..],
            [
                "--- /dev/null".to_owned(),
                "+++ b/new.md".to_owned(),
                format!("new file: 3 bytes, sha256:{sha}, 1 line"),
                "@@ -0,0 +1,1 @@".to_owned(),
                "+x".to_owned(),
                "--- a/gone.bin".to_owned(),
                "+++ /dev/null".to_owned(),
                format!("deleted file: 1 byte, sha256:{sha}, binary"),
                "--- a/x.png".to_owned(),
                "+++ b/x.png".to_owned(),
                format!("binary file changed: 2 bytes, sha256:{sha} -> 1 byte, sha256:{sha}"),
                "--- a/run.sh".to_owned(),
                "+++ b/run.sh".to_owned(),
                "mode 0644 -> 0755".to_owned(),
            ]
        );
        assert!(texts(&diff)[0].contains("only SKILL.md"));
    }
}
