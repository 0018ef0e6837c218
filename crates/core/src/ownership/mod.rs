//! Who installed each skill, from which upstream, and whether its files still match what that
//! installer recorded: agent-skill-installer's record (read by `record`) and the records of the
//! other installers people use (peer-tools.md §4), each read by its own module.
//!
//! Everything here is read-only. The installers' files are read once per scan into a
//! [`Ledger`]; each skill is then matched against it and, where the record carries a hash,
//! verified offline by recomputing that hash the installer's own way. A file that is missing,
//! old or corrupt becomes a [`FileProblem`] on the listing, never a crash and never a silent
//! "unrecorded".

mod claude_plugin;
mod codex_plugin;
mod copilot_plugin;
mod gemini_extension;
mod gh_skill;
mod git;
mod openskills;
mod skillkit;
mod skillport;
pub mod skills_cli;
mod walk;

use std::fmt;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use serde::{Serialize, Serializer};

use crate::fs::{Links, read_bounded};
use crate::limits::RECORD_FILE_BYTES;
use crate::record::{Digest, Record, SkillFile, State};
use crate::roots::{Environment, Root, RootSet};
use crate::skill::Declared;
use crate::skill::SKILL_FILE;

/// How much later than a recorded install a file must have changed to count as changed since:
/// installers record the time after writing the files, some to the second.
const INSTALL_TIME_SLACK: Duration = Duration::from_secs(2);

/// The program that put a skill where it is.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Installer {
    /// A program embedding agent-skill-installer, by the name its record gives
    /// (`skilldeck` for skilldeck's own imports).
    Program(String),
    /// The `skills` CLI (`npx skills`).
    SkillsCli,
    /// GitHub CLI's `gh skill`.
    GhSkill,
    /// Claude Code's plugin manager.
    ClaudePlugin,
    /// Codex's plugin manager (`codex plugin add`).
    CodexPlugin,
    /// GitHub Copilot CLI's plugin manager (`copilot plugin install`).
    CopilotPlugin,
    /// Gemini CLI's extension manager (`gemini extensions install` / `link`).
    GeminiExtension,
    Skillkit,
    Openskills,
    Skillport,
}

impl Installer {
    /// The name in listings and JSON.
    pub fn name(&self) -> &str {
        match self {
            Installer::Program(name) => name,
            Installer::SkillsCli => "skills-cli",
            Installer::GhSkill => "gh-skill",
            Installer::ClaudePlugin => "claude-plugin",
            Installer::CodexPlugin => "codex-plugin",
            Installer::CopilotPlugin => "copilot-plugin",
            Installer::GeminiExtension => "gemini-extension",
            Installer::Skillkit => "skillkit",
            Installer::Openskills => "openskills",
            Installer::Skillport => "skillport",
        }
    }
}

impl fmt::Display for Installer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Serialize for Installer {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

/// Where an installer says a skill came from; each part only when the record gives it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Upstream {
    /// The repository, URL or local folder, as the installer wrote it.
    pub repository: Option<String>,
    /// The branch or tag installed from; for the agents' plugin and extension managers, which
    /// install by version and name no branch, the version installed.
    #[serde(rename = "ref")]
    pub reference: Option<String>,
    /// The skill's path inside the repository.
    pub path: Option<String>,
    /// The commit installed from.
    pub commit: Option<String>,
}

impl Upstream {
    fn is_empty(&self) -> bool {
        *self == Upstream::default()
    }
}

/// How skilldeck checked a skill's files against its record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Method {
    /// agent-skill-installer's content digest.
    ContentDigest,
    /// The skills CLI's folder hash: SHA-256 over the sorted paths and contents.
    SkillsCliFolderHash,
    /// The folder's git tree id.
    GitTree,
    /// The digest the skills CLI records for a well-known source: SHA-256 over paths and
    /// contents, each followed by a zero byte.
    WellKnownDigest,
    /// SkillKit's checksum: SHA-256 of `SKILL.md`, 16 hex digits.
    SkillkitChecksum,
    /// SkillPort's content hash: SHA-256 over the paths and their git blob ids.
    SkillportContentHash,
    /// The marketplace clone's copy of the same skill, at the installed revision.
    MarketplaceClone,
    /// The local source folder the installer hashed.
    SourceFolder,
    /// Modification times after the recorded install, where the hash cannot be recomputed.
    ChangedSinceInstall,
}

/// Who installed a skill, from where, and what skilldeck could tell about its files.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Owner {
    pub installer: Installer,
    pub upstream: Option<Upstream>,
    /// The file the record was read from.
    pub recorded_in: PathBuf,
    /// The hash as the installer recorded it.
    pub hash: Option<String>,
    /// How the files were checked, when they could be.
    pub method: Option<Method>,
    /// Why the record cannot be verified, or what its check leaves out.
    pub note: Option<String>,
    /// An untouched copy the installer keeps elsewhere, for a diff against the skill.
    pub pristine: Option<PathBuf>,
}

impl Owner {
    fn new(installer: Installer, recorded_in: PathBuf) -> Self {
        Self {
            installer,
            upstream: None,
            recorded_in,
            hash: None,
            method: None,
            note: None,
            pristine: None,
        }
    }

    fn with_upstream(mut self, upstream: Upstream) -> Self {
        self.upstream = (!upstream.is_empty()).then_some(upstream);
        self
    }

    fn with_hash(mut self, hash: &str) -> Self {
        self.hash = (!hash.is_empty()).then(|| hash.to_owned());
        self
    }
}

/// An installer's file that could not be used as it is.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FileProblem {
    #[error("{} could not be read: {reason}", .path.display())]
    Unreadable { path: PathBuf, reason: String },
    #[error("{} is {what} of version {found}; {consequence}", .path.display())]
    Version {
        path: PathBuf,
        what: &'static str,
        found: String,
        consequence: &'static str,
    },
    #[error("{} is missing, though {why}", .path.display())]
    Missing { path: PathBuf, why: &'static str },
}

/// The skill as the ledger needs to see it.
#[derive(Debug)]
pub struct Subject<'a> {
    /// The folder as found, and with its links resolved.
    pub dir: &'a Path,
    pub real_dir: &'a Path,
    /// The roots that reach it.
    pub roots: Vec<&'a Root>,
    /// What its `SKILL.md` declares, the frontmatter `metadata` map included.
    pub declared: &'a Declared,
    /// Its regular files, as the scan listed them, and their content digest.
    pub files: &'a [SkillFile],
    pub digest: Option<&'a Digest>,
    /// agent-skill-installer's record, and the state the scan judged from it.
    pub record: Option<&'a Record>,
    pub state: State,
}

impl Subject<'_> {
    fn dir_name(&self) -> &str {
        self.dir
            .file_name()
            .and_then(|name| name.to_str())
            .unwrap_or("")
    }

    /// Whether the file `name` (one name, no `/`) lies directly in the skill's folder. The
    /// walk writes each file's path by joining the names it listed, so such a file's path is
    /// that name's very bytes: compared as bytes, not parsed into parts for every file.
    fn has_file(&self, name: &str) -> bool {
        self.files.iter().any(|f| f.path.as_os_str() == name)
    }

    /// Whether it sits directly in one of its roots of this scope, where installers that
    /// copy skills into agents' folders put them (not inside a plugin kept there).
    fn directly_in(&self, scope: crate::roots::Scope) -> bool {
        self.roots
            .iter()
            .any(|root| root.scope() == scope && self.dir.parent() == Some(root.path.as_path()))
    }
}

/// Who a skill belongs to, its state, and what got in the way.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attribution {
    pub owner: Option<Owner>,
    pub state: State,
    pub problems: Vec<FileProblem>,
}

impl Attribution {
    fn unowned(subject: &Subject<'_>) -> Self {
        Self {
            owner: None,
            state: subject.state,
            problems: Vec::new(),
        }
    }

    fn owned(owner: Owner, state: State) -> Self {
        Self {
            owner: Some(owner),
            state,
            problems: Vec::new(),
        }
    }

    /// A skill holding its installer's record file, which could not be read.
    fn unreadable_record(owner: Owner, problem: FileProblem) -> Self {
        let mut attribution = Verdict::unverifiable(format!(
            "its installer's record, {}, could not be read",
            owner.recorded_in.display()
        ))
        .for_owner(owner);
        attribution.problems.push(problem);
        attribution
    }
}

/// Every installer's files, read once per scan.
#[derive(Debug, Default)]
pub struct Ledger {
    skills_cli: skills_cli::Locks,
    claude: claude_plugin::Plugins,
    codex: codex_plugin::Plugins,
    copilot: copilot_plugin::Plugins,
    gemini: gemini_extension::Extensions,
    skillkit: skillkit::Lock,
    skillport: skillport::Origins,
    problems: Vec<FileProblem>,
}

impl Ledger {
    /// Read the installers' files that `env` and the roots of this run point at.
    pub fn read(env: &Environment, roots: &RootSet) -> Self {
        let mut problems = Vec::new();
        Self {
            skills_cli: skills_cli::Locks::read(env, &roots.project, &mut problems),
            claude: claude_plugin::Plugins::read(roots, &mut problems),
            codex: codex_plugin::Plugins::read(env, &roots.project, &mut problems),
            copilot: copilot_plugin::Plugins::read(env, &roots.project, &mut problems),
            gemini: gemini_extension::Extensions::read(env, &roots.project, &mut problems),
            skillkit: skillkit::Lock::read(env, &mut problems),
            skillport: skillport::Origins::read(env, &mut problems),
            problems,
        }
    }

    /// The files that could not be used as they are.
    pub fn problems(&self) -> &[FileProblem] {
        &self.problems
    }

    /// Who installed `subject`, and whether its files still match that installer's record.
    /// The most specific evidence wins: a record in the skill's own files, then a lock entry
    /// naming its folder, then one naming only its name, then where it lies. A skill none of
    /// them claims carries the problems of the installers' files that could have and could not
    /// be read, so it is never "unrecorded" without a word.
    pub fn attribute(&self, subject: &Subject<'_>) -> Attribution {
        if let Some(record) = subject.record {
            let mut owner = Owner::new(
                Installer::Program(record.installed_by.clone()),
                subject.real_dir.join(SKILL_FILE),
            )
            .with_hash(&record.content_digest);
            owner.method = Some(Method::ContentDigest);
            return Attribution::owned(owner, subject.state);
        }
        gh_skill::attribute(subject, &self.skills_cli)
            .or_else(|| skillkit::attribute(subject, &self.skillkit))
            .or_else(|| openskills::attribute(subject))
            .or_else(|| self.skillport.attribute(subject))
            .or_else(|| self.skills_cli.attribute(subject))
            .or_else(|| self.claude.attribute(subject))
            .or_else(|| self.codex.attribute(subject))
            .or_else(|| self.copilot.attribute(subject))
            .or_else(|| self.gemini.attribute(subject))
            .unwrap_or_else(|| {
                let mut unowned = Attribution::unowned(subject);
                unowned.problems.extend(
                    self.skills_cli
                        .broken_for(subject)
                        .chain(self.skillkit.broken_for(subject))
                        .chain(self.codex.broken_for(subject))
                        .chain(self.copilot.broken_for(subject))
                        .chain(self.gemini.broken_for(subject))
                        .cloned(),
                );
                unowned
            })
    }
}

/// What checking a skill's files against a record found.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Verdict {
    state: State,
    method: Option<Method>,
    note: Option<String>,
    pristine: Option<PathBuf>,
}

impl Verdict {
    fn intact(method: Method) -> Self {
        Self {
            state: State::Intact,
            method: Some(method),
            note: None,
            pristine: None,
        }
    }

    fn modified(method: Method) -> Self {
        Self {
            state: State::Modified,
            ..Self::intact(method)
        }
    }

    /// Intact when `now` is what was recorded, else modified.
    fn compare(method: Method, now: &str, recorded: &str) -> Self {
        if now.eq_ignore_ascii_case(recorded) {
            Self::intact(method)
        } else {
            Self::modified(method)
        }
    }

    fn unverifiable(note: impl Into<String>) -> Self {
        Self {
            state: State::Unverifiable,
            method: None,
            note: Some(note.into()),
            pristine: None,
        }
    }

    fn unreadable(error: impl fmt::Display) -> Self {
        Self {
            state: State::Unreadable,
            method: None,
            note: Some(format!(
                "its files could not be read to check them: {error}"
            )),
            pristine: None,
        }
    }

    /// The verdict when the files could not be hashed: unverifiable when they are more than
    /// the hashing budget (nothing is known of them either way), else unreadable.
    fn failed(error: &std::io::Error) -> Self {
        if error.kind() == std::io::ErrorKind::FileTooLarge {
            Self::unverifiable(error.to_string())
        } else {
            Self::unreadable(error)
        }
    }

    fn noting(mut self, note: impl Into<String>) -> Self {
        self.note = Some(note.into());
        self
    }

    /// The attribution of `owner` with this verdict.
    fn for_owner(self, mut owner: Owner) -> Attribution {
        owner.method = self.method;
        owner.note = self.note;
        owner.pristine = self.pristine;
        Attribution::owned(owner, self.state)
    }
}

/// The verdict after a hash mismatch that the installer's way of copying could explain: an
/// entry changed after the recorded install is an edit; otherwise nothing can be told, for the
/// reason `why`.
fn changed_since(
    dir: &Path,
    entries: &[walk::Entry],
    installed: Option<SystemTime>,
    why: String,
) -> Verdict {
    let Some(installed) = installed else {
        return Verdict::unverifiable(why);
    };
    match walk::newest(dir, entries) {
        Some((when, path)) if when > installed + INSTALL_TIME_SLACK => {
            let at = humantime::format_rfc3339_seconds(installed);
            Verdict::modified(Method::ChangedSinceInstall)
                .noting(format!("{path} changed after the install recorded at {at}"))
        }
        _ => Verdict::unverifiable(format!(
            "{why}; and nothing in it changed after the install recorded at {}",
            humantime::format_rfc3339_seconds(installed)
        )),
    }
}

/// A JSON file of an installer: `None` when it does not exist, a problem when it cannot be
/// read as `T`.
fn read_json<T: for<'de> serde::Deserialize<'de>>(path: &Path) -> Result<Option<T>, FileProblem> {
    let problem = |reason: String| FileProblem::Unreadable {
        path: path.to_path_buf(),
        reason,
    };
    let bytes = match read_bounded(path, Links::Follow, RECORD_FILE_BYTES) {
        Ok(bytes) => bytes,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(error) => return Err(problem(error.to_string())),
    };
    serde_json::from_slice(&bytes)
        .map(Some)
        .map_err(|error| problem(format!("it is not the JSON expected there: {error}")))
}

/// An installer's file: `None` when it does not exist, a problem when it cannot be read.
fn read_file(path: &Path) -> Result<Option<Vec<u8>>, FileProblem> {
    match read_bounded(path, Links::Follow, RECORD_FILE_BYTES) {
        Ok(bytes) => Ok(Some(bytes)),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(error) => Err(FileProblem::Unreadable {
            path: path.to_path_buf(),
            reason: error.to_string(),
        }),
    }
}

/// The folder names of the skill's folder below `base` (as found, or with its links
/// resolved), when it lies inside: attribution by path, whichever root discovered it.
fn parts_below(subject: &Subject<'_>, base: &Path) -> Option<Vec<String>> {
    [subject.dir, subject.real_dir].iter().find_map(|dir| {
        let inside = crate::path_prefix::below(dir, base)?;
        Some(
            inside
                .components()
                .filter_map(|c| match c {
                    std::path::Component::Normal(part) => Some(part.to_string_lossy().into_owned()),
                    _ => None,
                })
                .collect(),
        )
    })
}

/// Whether the skill's folder (as found, or with its links resolved) lies in `base`: what
/// [`parts_below`] finds, asked without making its parts.
fn lies_below(subject: &Subject<'_>, base: &Path) -> bool {
    [subject.dir, subject.real_dir]
        .iter()
        .any(|dir| crate::path_prefix::below(dir, base).is_some())
}

/// Whether a path an installer recorded names `dir` (as written, or once both are resolved).
fn same_dir(written: Option<&str>, dir: &Path) -> bool {
    let Some(written) = written else {
        return false;
    };
    let written = Path::new(written.trim_end_matches('/'));
    written == dir
        || crate::fs::canonical(written)
            .ok()
            .zip(crate::fs::canonical(dir).ok())
            .is_some_and(|(a, b)| a == b)
}

/// `relative` (a `/`-separated path as a marketplace writes it) inside `base`; `None` when it
/// climbs out or is absolute.
fn inside(base: &Path, relative: &str) -> Option<PathBuf> {
    if relative.starts_with('/') {
        return None;
    }
    crate::plugin::inside(base, relative)
}

/// The verdict from comparing the skill with an untouched copy of it at `pristine`.
fn against_copy(subject: &Subject<'_>, pristine: PathBuf, method: Method, what: &str) -> Verdict {
    let theirs = match crate::skill::read_manifest(&pristine) {
        Ok(manifest) => crate::record::Contents::read(&pristine, &manifest).1,
        Err(_) => {
            return Verdict::unverifiable(format!(
                "{what} holds no copy of it at {}",
                pristine.display()
            ));
        }
    };
    let mut verdict = match (subject.digest, theirs) {
        (Some(ours), Ok(theirs)) => Verdict::compare(method, ours.as_str(), theirs.as_str()),
        (None, _) | (_, Err(_)) => Verdict::unverifiable(format!(
            "it or {what}'s copy holds a link or an unreadable file, so the two cannot be compared"
        )),
    };
    verdict.pristine = Some(pristine);
    verdict
}

/// An RFC 3339 time as installers write them (`2026-11-29T16:16:12.722Z`).
fn parse_time(text: &str) -> Option<SystemTime> {
    humantime::parse_rfc3339_weak(text.trim_end_matches('Z')).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn installer_names_are_the_json_names() {
        assert_eq!(Installer::Program("skilldeck".into()).name(), "skilldeck");
        assert_eq!(Installer::SkillsCli.to_string(), "skills-cli");
        assert_eq!(
            serde_json::to_string(&Installer::ClaudePlugin).unwrap(),
            "\"claude-plugin\""
        );
    }

    #[test]
    fn installers_times_parse() {
        let at = parse_time("2026-11-29T16:16:12.722Z").unwrap();
        assert_eq!(
            humantime::format_rfc3339_millis(at).to_string(),
            "2026-11-29T16:16:12.722Z"
        );
        assert!(parse_time("2026-04-16T10:00:00Z").is_some());
        assert!(parse_time("yesterday").is_none());
    }

    #[test]
    fn a_change_after_the_install_is_an_edit_and_none_is_unverifiable() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::write(tmp.path().join("a.md"), "a").unwrap();
        let entries = walk::list(tmp.path()).unwrap();
        let long_ago = SystemTime::now() - Duration::from_secs(3600);
        let verdict = changed_since(tmp.path(), &entries, Some(long_ago), "why".into());
        assert_eq!(verdict.state, State::Modified);
        assert!(verdict.note.unwrap().contains("changed after the install"));
        let later = SystemTime::now() + Duration::from_secs(3600);
        let verdict = changed_since(tmp.path(), &entries, Some(later), "why".into());
        assert_eq!(verdict.state, State::Unverifiable);
        let verdict = changed_since(tmp.path(), &entries, None, "why".into());
        assert_eq!(verdict, Verdict::unverifiable("why"));
    }
}
