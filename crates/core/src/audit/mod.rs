//! What a skill would do before it runs: its `SKILL.md`, its other text files and its scripts
//! read for what they would make an agent (or the machine) do, each finding a sentence with
//! the file, line, rule, class and severity. A request in (the skill folders), a typed report
//! out; nothing is written, and no text from disk is printed here (the front ends print the
//! report through `text`).
//!
//! The engine is plain matchers on the `regex` crate, already in the tree (through `globset`
//! and this crate's own use), not `yara-x`. yara-x 1.15 runs the conditions of its rules as
//! WebAssembly through Wasmtime on native builds (`src/wasm/runtime/mod.rs` of yara-x
//! 1.15.0), which would bring Wasmtime and Cranelift into a binary that has no use for them:
//! hundreds of crates, minutes of build on the two cores this is built on, and megabytes of
//! binary. It would not buy precision either: YARA matches byte strings in a whole file,
//! while what decides a finding here is where the text is (a code fence or prose, a warning
//! against it, an HTML comment, a string decoded from base64), which would have to be written
//! around it anyway. The regex crate's set matching (`RegexSet`) tells in one pass over a file
//! which rules can match at all, so the common file, that matches none, costs one scan.
//!
//! - [`rules`]: the rules, as data: id, class, severity, matcher, message.
//! - [`context`]: where a line is (prose, code, a comment hidden from the rendered page) and
//!   whether it warns against what it shows.
//! - [`judge`]: the rules applied to one file's text, and to what is encoded in it.
//! - [`hidden`]: the characters a reader cannot see, judged by their neighbours.
//! - [`files`]: a skill's files, walked and read within [`crate::limits::AUDIT`].

mod context;
mod decode;
mod files;
mod hidden;
mod judge;
pub mod rules;

use std::path::{Path, PathBuf};

use rayon::prelude::*;
use serde::Serialize;

pub use rules::{Class, Severity};

/// One thing a skill's text would do.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Finding {
    /// The skill's name, as the request gave it.
    pub skill: String,
    /// The file, relative to the skill's folder, with `/` between its parts.
    pub file: String,
    /// 1-based; 0 for a finding about the whole file (a compiled program).
    pub line: usize,
    pub rule: &'static str,
    pub class: Class,
    pub severity: Severity,
    /// What the text would do, as a sentence.
    pub message: String,
}

/// A skill to audit: its name as the report should give it, and its folder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    pub skill: String,
    pub dir: PathBuf,
}

/// A file held in memory, as a bundle holds it before it is installed.
#[derive(Clone, Copy, Debug)]
pub struct InMemory<'a> {
    /// Below the skill's folder, `/`-separated.
    pub path: &'a str,
    pub bytes: &'a [u8],
    pub executable: bool,
}

/// Why a skill could not be audited at all: nothing of it was judged.
#[derive(Debug, thiserror::Error)]
#[error("{skill} could not be audited: {dir} cannot be read: {source}")]
pub struct Unreadable {
    pub skill: String,
    pub dir: String,
    #[source]
    pub source: std::io::Error,
}

/// What was read only in part, so a clean answer is not taken for a whole one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Partly {
    /// A text file judged on its first [`crate::limits::AuditBounds::file_bytes`].
    FileCut { skill: String, file: String },
    /// The skill holds more files than [`crate::limits::AuditBounds::files`], or folders
    /// deeper than its `depth`; the rest were not read.
    FilesLeft { skill: String },
    /// One file that could not be read (a permission, a file swapped for a device).
    FileUnread {
        skill: String,
        file: String,
        reason: String,
    },
}

impl std::fmt::Display for Partly {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let bytes = crate::limits::AUDIT.file_bytes;
        match self {
            Partly::FileCut { skill, file } => write!(
                f,
                "{skill}: {file} was judged on its first {} only",
                crate::text::human::size(bytes)
            ),
            Partly::FilesLeft { skill } => write!(
                f,
                "{skill}: only its first {} files, {} folders deep, were read",
                crate::limits::AUDIT.files,
                crate::limits::AUDIT.depth
            ),
            Partly::FileUnread {
                skill,
                file,
                reason,
            } => write!(f, "{skill}: {file} could not be read: {reason}"),
        }
    }
}

/// What an audit found, sorted by skill, file and line.
#[derive(Debug, Default)]
pub struct Report {
    pub findings: Vec<Finding>,
    pub partly: Vec<Partly>,
    pub unreadable: Vec<Unreadable>,
}

impl Report {
    /// The most severe finding's severity, if any.
    pub fn highest(&self) -> Option<Severity> {
        self.findings.iter().map(|f| f.severity).max()
    }
}

/// What one skill's audit found, and what of it was read only in part.
#[derive(Debug, Default)]
pub struct Audited {
    pub findings: Vec<Finding>,
    pub partly: Vec<Partly>,
}

/// Audit every skill `requests` names, in parallel.
pub fn audit(requests: &[Request]) -> Report {
    let each: Vec<Result<Audited, Unreadable>> = requests
        .par_iter()
        .map(|request| audit_skill(&request.skill, &request.dir))
        .collect();
    let mut report = Report::default();
    for result in each {
        match result {
            Ok(audited) => {
                report.findings.extend(audited.findings);
                report.partly.extend(audited.partly);
            }
            Err(unreadable) => report.unreadable.push(unreadable),
        }
    }
    report.findings.sort_by(|a, b| {
        (&a.skill, &a.file, a.line, b.severity, a.rule)
            .cmp(&(&b.skill, &b.file, b.line, a.severity, b.rule))
    });
    report
}

/// The findings of one skill folder, and what of it was read only in part.
///
/// # Errors
/// [`Unreadable`] when the folder itself cannot be opened or listed.
pub fn audit_skill(skill: &str, dir: &Path) -> Result<Audited, Unreadable> {
    let walked = files::walk(dir).map_err(|source| Unreadable {
        skill: skill.to_owned(),
        dir: dir.display().to_string(),
        source,
    })?;
    let mut findings = Vec::new();
    let mut partly = Vec::new();
    if walked.files_left {
        partly.push(Partly::FilesLeft {
            skill: skill.to_owned(),
        });
    }
    for file in walked.files {
        match file.content {
            Ok(content) => judged(
                skill,
                &file.relative,
                &content,
                file.executable,
                &mut findings,
                &mut partly,
            ),
            Err(error) => partly.push(Partly::FileUnread {
                skill: skill.to_owned(),
                file: file.relative.clone(),
                reason: error.to_string(),
            }),
        }
    }
    Ok(Audited { findings, partly })
}

/// The findings of one skill held in memory: a bundle's, judged before anything is written.
pub fn audit_in_memory<'a>(skill: &str, files: impl IntoIterator<Item = InMemory<'a>>) -> Audited {
    let mut findings = Vec::new();
    let mut partly = Vec::new();
    for (index, file) in files.into_iter().enumerate() {
        if index >= crate::limits::AUDIT.files {
            partly.push(Partly::FilesLeft {
                skill: skill.to_owned(),
            });
            break;
        }
        let content = files::content_of(file.bytes);
        judged(
            skill,
            file.path,
            &content,
            file.executable,
            &mut findings,
            &mut partly,
        );
    }
    Audited { findings, partly }
}

/// One file judged, its findings named for `skill`.
fn judged(
    skill: &str,
    relative: &str,
    content: &files::Content,
    executable: bool,
    findings: &mut Vec<Finding>,
    partly: &mut Vec<Partly>,
) {
    if content.cut {
        partly.push(Partly::FileCut {
            skill: skill.to_owned(),
            file: relative.to_owned(),
        });
    }
    findings.extend(
        judge::file(relative, content, executable)
            .into_iter()
            .map(|hit| Finding {
                skill: skill.to_owned(),
                file: relative.to_owned(),
                line: hit.line,
                rule: hit.rule,
                class: hit.class,
                severity: hit.severity,
                message: hit.message,
            }),
    );
}

/// How much an audit found in one skill: what a listing carries beside each skill.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Summary {
    pub findings: usize,
    /// The most severe finding's severity; `None` when nothing was found.
    pub highest: Option<Severity>,
}

/// The [`Summary`] of each of `requests`, in its order, audited in parallel. A skill whose
/// folder cannot be read sums to nothing found; the scan already names it unreadable.
pub fn summaries(requests: &[Request]) -> Vec<Summary> {
    requests
        .par_iter()
        .map(|request| match audit_skill(&request.skill, &request.dir) {
            Ok(audited) => Summary {
                findings: audited.findings.len(),
                highest: audited.findings.iter().map(|f| f.severity).max(),
            },
            Err(_) => Summary::default(),
        })
        .collect()
}
