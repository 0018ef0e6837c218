//! `skilldeck --demo`: a throw-away machine to look at, laid out in a temporary directory from
//! the content in `assets/demo/` (embedded in the binary, so it works from any directory) and
//! deleted when the [`Sandbox`] is dropped.
//!
//! The content has a skill of every source (a plugin's, the organization's, the user's, the
//! project's), of every state (intact, modified, unrecorded), a shadowed pair (`code-review`)
//! and a skill with lint problems (`meeting-notes`). Three rules turn the files into that
//! machine:
//!
//! - a `SKILL.md` whose frontmatter holds `content-digest: ""` is sealed as an installer seals
//!   it: the digest of its skill's files is written in (ownership-record-and-digest.md §2.4);
//! - a file ending in `.drift` is appended to the file of the same name after sealing, so that
//!   skill no longer matches its record;
//! - a file in a `scripts/` folder is executable.
//!
//! The project is a repository (`.git` is made here, since git will not keep one inside
//! another), and the files are given ages so that sorting by recent change means something.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use include_dir::{Dir, include_dir};

use crate::record::digest_of;
use crate::roots::Environment;
use crate::skill::SKILL_FILE;

static ASSETS: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/assets/demo");

/// Appended to its file after the skills are sealed.
const DRIFT_SUFFIX: &str = ".drift";
/// The record line of a skill waiting to be sealed, as the installer renders it.
const UNSEALED: &str = "  content-digest: \"\"\n";
/// Stands for the sandbox's home in installers' files, which record absolute paths.
const HOME_MARK: &str = "@HOME@";

const HOME: &str = "home";
const SYSTEM: &str = "system";
const PROJECT: &str = "home/src/acme-app";

const HOUR: u64 = 3_600;
const DAY: u64 = 24 * HOUR;

/// How long ago the files under each folder were last changed (the first match counts).
const AGES: &[(&str, u64)] = &[
    ("home/.claude/skills/pdf-forms", 12 * DAY),
    ("home/.claude/skills/release-notes", 9 * DAY),
    ("home/.claude/skills/code-review", 40 * DAY),
    ("home/.claude/skills/meeting-notes", 3 * DAY),
    ("home/.claude/plugins", 21 * DAY),
    ("home/.agents/skills/sql-helper", 16 * DAY),
    ("home/.agents/skills/translate", 5 * DAY),
    ("home/src/acme-app", DAY + 3 * HOUR),
    ("system", 60 * DAY),
];
/// The age of the edits that made a skill drift: the most recent change on the machine.
const DRIFT_AGE: u64 = 2 * HOUR + 10 * 60;

/// Why the sandbox could not be made.
#[derive(Debug, thiserror::Error)]
#[error("the demo sandbox could not be made at {}: {source}", .path.display())]
pub struct DemoError {
    path: PathBuf,
    source: io::Error,
}

/// A machine in a temporary directory: `home`, a `system` root standing in for `/`, and a
/// project repository inside the home. Deleted when dropped.
#[derive(Debug)]
pub struct Sandbox {
    _dir: tempfile::TempDir,
    root: PathBuf,
}

impl Sandbox {
    /// Lay the demo machine out under the system's temporary directory.
    ///
    /// # Errors
    /// When the directory or a file cannot be written.
    pub fn create() -> Result<Self, DemoError> {
        Self::create_in(&std::env::temp_dir())
    }

    /// Lay the demo machine out in a new directory inside `base`.
    ///
    /// # Errors
    /// When the directory or a file cannot be written.
    pub fn create_in(base: &Path) -> Result<Self, DemoError> {
        let failed = |path: &Path| {
            let path = path.to_path_buf();
            move |source| DemoError { path, source }
        };
        let dir = tempfile::Builder::new()
            .prefix("skilldeck-demo-")
            .tempdir_in(base)
            .map_err(failed(base))?;
        // The canonical path, so the paths shown are the ones the scan finds (macOS links /tmp).
        let root = dir.path().canonicalize().map_err(failed(dir.path()))?;
        lay_out(&root, SystemTime::now())?;
        Ok(Self { _dir: dir, root })
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    pub fn home(&self) -> PathBuf {
        self.root.join(HOME)
    }

    /// The directory standing in for `/`, holding the organization-managed roots.
    pub fn system(&self) -> PathBuf {
        self.root.join(SYSTEM)
    }

    /// Where the demo is started: a repository inside the home directory.
    pub fn project(&self) -> PathBuf {
        self.root.join(PROJECT)
    }

    /// What the app's header says about it.
    pub fn banner(&self) -> String {
        format!("demo sandbox {}, deleted on exit", self.root.display())
    }

    /// The environment of the demo machine; the process environment is left alone.
    pub fn environment(&self) -> Environment {
        Environment::new(self.home()).with_var("SKILLDECK_SYSTEM_ROOT", self.system())
    }
}

/// One embedded file, by its path below `assets/demo`.
struct Asset {
    path: &'static Path,
    contents: &'static [u8],
}

fn assets(dir: &'static Dir<'static>, out: &mut Vec<Asset>) {
    for file in dir.files() {
        out.push(Asset {
            path: file.path(),
            contents: file.contents(),
        });
    }
    for sub in dir.dirs() {
        assets(sub, out);
    }
}

fn lay_out(root: &Path, now: SystemTime) -> Result<(), DemoError> {
    let mut all = Vec::new();
    assets(&ASSETS, &mut all);
    let (drifts, files): (Vec<Asset>, Vec<Asset>) = all
        .into_iter()
        .partition(|a| a.path.to_string_lossy().ends_with(DRIFT_SUFFIX));
    for asset in &files {
        let contents = if asset.path.file_name() == Some(SKILL_FILE.as_ref()) {
            sealed(asset, &files)
        } else if asset.path.extension() == Some("json".as_ref()) {
            with_home(asset.contents, &root.join(HOME))
        } else {
            asset.contents.to_vec()
        };
        write(root, asset.path, &contents, false, age_of(asset.path), now)?;
    }
    for drift in &drifts {
        let target = drift.path.with_extension("");
        write(root, &target, drift.contents, true, DRIFT_AGE, now)?;
    }
    let git = root.join(PROJECT).join(".git");
    fs::create_dir_all(&git).map_err(|source| DemoError { path: git, source })?;
    Ok(())
}

/// A `SKILL.md` with its record's digest filled in, when it has a record waiting for one.
fn sealed(manifest: &Asset, files: &[Asset]) -> Vec<u8> {
    let Ok(text) = std::str::from_utf8(manifest.contents) else {
        return manifest.contents.to_vec();
    };
    if !text.contains(UNSEALED) {
        return text.as_bytes().to_vec();
    }
    let skill_dir = manifest.path.parent().unwrap_or(Path::new(""));
    let digest = digest_of(files.iter().filter_map(|file| {
        let relative = file.path.strip_prefix(skill_dir).ok()?;
        Some((relative, file.contents))
    }));
    text.replacen(UNSEALED, &format!("  content-digest: \"{digest}\"\n"), 1)
        .into_bytes()
}

/// An installer's JSON file with the sandbox's home written where it records one, escaped as
/// a JSON string's content.
fn with_home(contents: &[u8], home: &Path) -> Vec<u8> {
    let escaped = serde_json::to_string(&home.to_string_lossy()).unwrap_or_default();
    let escaped = escaped.trim_matches('"');
    match std::str::from_utf8(contents) {
        Ok(text) => text.replace(HOME_MARK, escaped).into_bytes(),
        Err(_) => contents.to_vec(),
    }
}

fn age_of(path: &Path) -> u64 {
    AGES.iter()
        .find(|(prefix, _)| path.starts_with(prefix))
        .map_or(30 * DAY, |(_, age)| *age)
}

/// Write (or append to) `relative` below `root`, dated `age` seconds before `now`.
fn write(
    root: &Path,
    relative: &Path,
    contents: &[u8],
    append: bool,
    age: u64,
    now: SystemTime,
) -> Result<(), DemoError> {
    let path = root.join(relative);
    let failed = |source| DemoError {
        path: path.clone(),
        source,
    };
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent).map_err(failed)?;
    }
    let mut file = fs::OpenOptions::new()
        .create(true)
        .write(true)
        .append(append)
        .truncate(!append)
        .open(&path)
        .map_err(failed)?;
    io::Write::write_all(&mut file, contents).map_err(failed)?;
    let when = now.checked_sub(Duration::from_secs(age)).unwrap_or(now);
    file.set_modified(when).map_err(failed)?;
    #[cfg(unix)]
    if relative.components().any(|c| c.as_os_str() == "scripts") {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(&path, fs::Permissions::from_mode(0o755)).map_err(failed)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::State;
    use crate::roots::Source;
    use crate::scan;

    #[test]
    fn the_demo_machine_shows_every_source_state_a_shadowed_pair_and_lint_problems() {
        let tmp = tempfile::tempdir().unwrap();
        let sandbox = Sandbox::create_in(tmp.path()).unwrap();
        let inventory = scan::scan(&sandbox.environment(), &sandbox.project(), &|_| {});
        let skills = &inventory.skills;
        for source in [
            Source::Plugin,
            Source::Organization,
            Source::User,
            Source::Project,
        ] {
            assert!(
                skills.iter().any(|s| s.source == source),
                "no {source} skill"
            );
        }
        let state = |name: &str| {
            skills
                .iter()
                .find(|s| s.name == name)
                .unwrap_or_else(|| panic!("no {name}"))
                .state
        };
        assert_eq!(state("pdf-forms"), State::Intact);
        assert_eq!(state("sql-helper"), State::Intact);
        assert_eq!(state("test-runner"), State::Intact);
        assert_eq!(state("security-policy"), State::Intact);
        assert_eq!(state("release-notes"), State::Modified);
        assert_eq!(state("code-review"), State::Unrecorded);
        // The personal and the project copy of code-review each win for some agents.
        let shadowed: Vec<&Path> = skills
            .iter()
            .filter(|s| s.is_shadowed())
            .map(|s| s.dir.strip_prefix(sandbox.home()).unwrap())
            .collect();
        assert_eq!(
            shadowed,
            [
                Path::new(".claude/skills/code-review"),
                Path::new("src/acme-app/.claude/skills/code-review")
            ]
        );
        let meeting = skills.iter().find(|s| s.name == "meeting-notes").unwrap();
        assert!(!meeting.problems.is_empty());
        assert!(skills.iter().any(|s| s.name == "docs-kit:api-docs"));
        assert!(
            skills
                .iter()
                .all(|s| s.name == "meeting-notes" || s.problems.is_empty()),
            "only meeting-notes should have problems: {skills:#?}"
        );
    }

    #[test]
    fn scripts_are_executable_and_drift_is_the_newest_change() {
        let tmp = tempfile::tempdir().unwrap();
        let sandbox = Sandbox::create_in(tmp.path()).unwrap();
        let inventory = scan::scan(&sandbox.environment(), &sandbox.project(), &|_| {});
        let pdf = inventory
            .skills
            .iter()
            .find(|s| s.name == "pdf-forms")
            .unwrap();
        let script = pdf
            .files
            .iter()
            .find(|f| f.path.ends_with("fill_form.py"))
            .unwrap();
        assert_eq!(script.executable, cfg!(unix));
        assert!(
            !pdf.files
                .iter()
                .any(|f| f.path.ends_with("SKILL.md") && f.executable)
        );
        let newest = inventory.skills.iter().max_by_key(|s| s.modified).unwrap();
        assert_eq!(newest.name, "release-notes");
    }

    #[test]
    fn the_sandbox_is_deleted_when_dropped() {
        let tmp = tempfile::tempdir().unwrap();
        let sandbox = Sandbox::create_in(tmp.path()).unwrap();
        let root = sandbox.root().to_path_buf();
        assert!(
            root.join("home/.claude/skills/pdf-forms/SKILL.md")
                .is_file()
        );
        drop(sandbox);
        assert!(!root.exists());
    }
}
