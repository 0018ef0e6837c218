//! `skilldeck --demo`: a throw-away machine to look at, laid out in a temporary directory from
//! the content in `assets/demo/` (embedded in the binary, so it works from any directory) and
//! deleted when the [`Sandbox`] is dropped.
//!
//! The content has a skill of every source (a plugin's, the organization's, the user's, the
//! project's), of every state (intact, modified, unverifiable, unrecorded), a shadowed pair
//! (`code-review`), a skill with lint problems (`meeting-notes`), a skill Claude Code's settings
//! turn off (`release-notes`, by `skillOverrides`), a Claude Code plugin whose
//! marketplace clone is the untouched copy its edited skill is diffed against, snapshots of the
//! user's skills of which two changed since, and two archives in `~/Downloads` to import (one
//! of them hostile). These rules turn the files into that machine:
//!
//! - each folder `history/<n>/` holds earlier contents of skills, by their paths: before
//!   anything else is laid out, step 1's files are written and each skill folder they are in
//!   snapshotted, then step 2's over them, and so on, so those skills have a history of
//!   several snapshots (code-review has three: two from here and the one below);
//! - a `SKILL.md` whose frontmatter holds `content-digest: ""` is sealed as an installer seals
//!   it: the digest of its skill's files is written in (ownership-record-and-digest.md §2.4);
//! - the skills in [`SNAPSHOTTED`] are then snapshotted, through the snapshot store, into the
//!   sandbox's own data directory;
//! - a file ending in `.drift` is then appended to the file of the same name, so that skill no
//!   longer matches its record (nor its snapshot);
//! - a file ending in `.edit` then replaces the file of the same name, so that skill no longer
//!   matches its snapshot;
//! - each folder in `bundles/` is packed into `home/Downloads/<folder>.tar.gz`, as a GitHub
//!   archive of a repository is;
//! - a file in a `scripts/` folder is executable.
//!
//! The project is a repository (`.git` is made here, since git will not keep one inside
//! another), and the files are given ages so that sorting by recent change means something.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use flate2::Compression;
use flate2::write::GzEncoder;
use include_dir::{Dir, include_dir};

use crate::record::digest_of;
use crate::roots::{Machine, Platform};
use crate::skill::SKILL_FILE;
use crate::snapshot::{Reason, SnapshotError, Store};

static ASSETS: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/assets/demo");

/// Appended to its file after the skills are sealed and snapshotted.
const DRIFT_SUFFIX: &str = ".drift";
/// Replaces its file after the skills are snapshotted.
const EDIT_SUFFIX: &str = ".edit";
/// Folders packed into archives in the sandbox's downloads folder, for the import picker.
const BUNDLES: &str = "bundles";
/// Earlier contents of skills, one folder per step of their history, oldest first.
const HISTORY: &str = "history";
/// How long ago the steps of `history/` were snapshotted: the first, then every later one.
const HISTORY_AGES: [u64; 2] = [12 * DAY, 3 * DAY + 4 * HOUR];
const DOWNLOADS: &str = "home/Downloads";
/// The time of every file in the packed bundles: 2026-10-31T00:00:00Z.
const BUNDLE_TIME: u64 = 1_793_404_800;
/// The skills snapshotted once they are laid out, before their edits.
const SNAPSHOTTED: &[&str] = &[
    "home/.claude/skills/code-review",
    "home/.claude/skills/meeting-notes",
    "home/.claude/skills/pdf-forms",
    "home/.claude/skills/release-notes",
    "home/.agents/skills/sql-helper",
    "home/.agents/skills/translate",
];
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
/// The age of the edits made since the snapshots.
const EDIT_AGE: u64 = 3 * HOUR + 25 * 60;

/// Why the sandbox could not be made.
#[derive(Debug, thiserror::Error)]
pub enum DemoError {
    #[error("the demo sandbox could not be made at {}: {}", .path.display(), crate::fs::said(.source))]
    Write { path: PathBuf, source: io::Error },
    #[error("the demo sandbox's snapshots could not be taken: {0}")]
    Snapshot(#[from] SnapshotError),
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
            move |source| DemoError::Write { path, source }
        };
        let dir = tempfile::Builder::new()
            .prefix("skilldeck-demo-")
            .tempdir_in(base)
            .map_err(failed(base))?;
        // The canonical path, so the paths shown are the ones the scan finds (macOS links /tmp).
        let root = crate::fs::canonical(dir.path()).map_err(failed(dir.path()))?;
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

    /// The demo machine: its home, its system root, its project, and so its own data
    /// directory for snapshots; the process environment is left alone.
    pub fn machine(&self) -> Machine {
        machine(&self.root)
    }
}

/// The content is laid out as a Linux machine is (the organization's roots under `etc/`), so
/// the demo reads it as one on every system: macOS and Windows keep those roots elsewhere, and
/// there the demo showed no organization skill (found running its tests under Wine).
fn machine(root: &Path) -> Machine {
    let mut machine = Machine::sandbox(&root.join(HOME), &root.join(SYSTEM), &root.join(PROJECT));
    machine.env = machine.env.with_platform(Platform::Xdg);
    machine
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
    let ends = |asset: &Asset, suffix: &str| asset.path.to_string_lossy().ends_with(suffix);
    let (bundles, all): (Vec<Asset>, Vec<Asset>) =
        all.into_iter().partition(|a| a.path.starts_with(BUNDLES));
    let (history, all): (Vec<Asset>, Vec<Asset>) =
        all.into_iter().partition(|a| a.path.starts_with(HISTORY));
    let store = Store::open(&machine(root).env);
    lay_out_history(root, &store, &history, now)?;
    let (drifts, all): (Vec<Asset>, Vec<Asset>) =
        all.into_iter().partition(|a| ends(a, DRIFT_SUFFIX));
    let (edits, files): (Vec<Asset>, Vec<Asset>) =
        all.into_iter().partition(|a| ends(a, EDIT_SUFFIX));
    for asset in &files {
        let contents = if asset.path.file_name() == Some(SKILL_FILE.as_ref()) {
            sealed(asset, &files)
        } else if asset.path.extension() == Some("json".as_ref()) {
            with_home(asset.contents, &root.join(HOME))
        } else {
            asset.contents.to_vec()
        };
        write(
            root,
            asset.path,
            &contents,
            Mode::Create,
            age_of(asset.path),
            now,
        )?;
    }
    for skill in SNAPSHOTTED {
        // A skill with a history had its latest content accepted; the others were installed.
        let dir = root.join(skill);
        let reason = match store.latest(&dir) {
            Ok(Some(_)) => Reason::Accepted,
            _ => Reason::Installed,
        };
        store.take(&dir, reason)?;
    }
    for drift in &drifts {
        let target = drift.path.with_extension("");
        write(root, &target, drift.contents, Mode::Append, DRIFT_AGE, now)?;
    }
    for edit in &edits {
        let target = edit.path.with_extension("");
        write(root, &target, edit.contents, Mode::Create, EDIT_AGE, now)?;
    }
    pack_bundles(root, &bundles, now)?;
    let git = root.join(PROJECT).join(".git");
    fs::create_dir_all(&git).map_err(|source| DemoError::Write { path: git, source })?;
    Ok(())
}

/// Write each step of `history/` over the skills it holds, oldest first, and snapshot each of
/// those skills after each step.
fn lay_out_history(
    root: &Path,
    store: &Store,
    history: &[Asset],
    now: SystemTime,
) -> Result<(), DemoError> {
    // `history/<n>/<path>`: the step, then the file's path in the sandbox.
    let mut steps: Vec<(u32, PathBuf, &Asset)> = history
        .iter()
        .filter_map(|asset| {
            let mut parts = asset.path.strip_prefix(HISTORY).ok()?.iter();
            let step = parts.next()?.to_str()?.parse().ok()?;
            Some((step, parts.collect(), asset))
        })
        .collect();
    steps.sort_by_key(|(step, _, _)| *step);
    let mut numbers: Vec<u32> = steps.iter().map(|(step, _, _)| *step).collect();
    numbers.dedup();
    for &number in &numbers {
        let mut skills: Vec<PathBuf> = Vec::new();
        for (_, path, asset) in steps.iter().filter(|(step, _, _)| *step == number) {
            write(root, path, asset.contents, Mode::Create, age_of(path), now)?;
            // The folder that holds a step's `SKILL.md` is the skill it is a step of.
            if path.file_name() == Some(SKILL_FILE.as_ref())
                && let Some(skill) = path.parent()
            {
                skills.push(skill.to_path_buf());
            }
        }
        // The first step is what was installed; the later ones were kept by hand, days apart.
        let (reason, age) = if number == numbers[0] {
            (Reason::Installed, HISTORY_AGES[0])
        } else {
            (Reason::Manual, HISTORY_AGES[1])
        };
        let at = now - Duration::from_secs(age);
        for skill in skills {
            store.take_dated(&root.join(skill), reason, at)?;
        }
    }
    Ok(())
}

/// Pack each folder of `bundles/` into `<downloads>/<folder>.tar.gz`, its files under the
/// folder's name as a GitHub archive holds them, the scripts executable.
fn pack_bundles(root: &Path, bundles: &[Asset], now: SystemTime) -> Result<(), DemoError> {
    let mut names: Vec<&std::ffi::OsStr> = bundles
        .iter()
        .filter_map(|a| a.path.strip_prefix(BUNDLES).ok()?.iter().next())
        .collect();
    names.dedup();
    // One time for every member, so the archive is the same bytes every time.
    let mtime = BUNDLE_TIME;
    for name in names {
        let target = Path::new(DOWNLOADS).join(format!("{}.tar.gz", name.to_string_lossy()));
        let failed = |source| DemoError::Write {
            path: root.join(&target),
            source,
        };
        let mut tar = tar::Builder::new(GzEncoder::new(Vec::new(), Compression::default()));
        let prefix = Path::new(BUNDLES).join(name);
        let mut members: Vec<&Asset> = bundles
            .iter()
            .filter(|a| a.path.starts_with(&prefix))
            .collect();
        members.sort_by_key(|a| a.path);
        for asset in members {
            let inside =
                Path::new(name).join(asset.path.strip_prefix(&prefix).unwrap_or(asset.path));
            let mut header = tar::Header::new_ustar();
            header.set_size(asset.contents.len() as u64);
            header.set_mode(if is_script(asset.path) { 0o755 } else { 0o644 });
            header.set_mtime(mtime);
            tar.append_data(&mut header, &inside, asset.contents)
                .map_err(failed)?;
        }
        let archive = tar
            .into_inner()
            .and_then(GzEncoder::finish)
            .map_err(failed)?;
        write(root, &target, &archive, Mode::Create, DAY, now)?;
    }
    Ok(())
}

/// A file in a `scripts/` folder, which is executable.
fn is_script(relative: &Path) -> bool {
    relative.components().any(|c| c.as_os_str() == "scripts")
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

/// How a file is written.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Create,
    Append,
}

/// Write (or append to) `relative` below `root`, dated `age` seconds before `now`.
fn write(
    root: &Path,
    relative: &Path,
    contents: &[u8],
    mode: Mode,
    age: u64,
    now: SystemTime,
) -> Result<(), DemoError> {
    let path = root.join(relative);
    let failed = |source| DemoError::Write {
        path: path.clone(),
        source,
    };
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent).map_err(failed)?;
    }
    let append = mode == Mode::Append;
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
    if is_script(relative) {
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
    use crate::snapshot::changes;

    #[test]
    fn the_demo_machine_shows_every_source_state_a_shadowed_pair_and_lint_problems() {
        let tmp = tempfile::tempdir().unwrap();
        let sandbox = Sandbox::create_in(tmp.path()).unwrap();
        let inventory = scan::scan(&sandbox.machine().env, &sandbox.project(), &|_| {});
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
        let inventory = scan::scan(&sandbox.machine().env, &sandbox.project(), &|_| {});
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
    fn snapshots_a_plugin_with_its_clone_and_archives_to_import() {
        let tmp = tempfile::tempdir().unwrap();
        let sandbox = Sandbox::create_in(tmp.path()).unwrap();
        let env = sandbox.machine().env;
        let inventory = scan::scan(&env, &sandbox.project(), &|_| {});
        let skill = |name: &str, under: &str| {
            inventory
                .skills
                .iter()
                // With `/` between the parts on every system, as `under` is written.
                .find(|s| {
                    s.name == name && s.dir.to_string_lossy().replace('\\', "/").contains(under)
                })
                .unwrap_or_else(|| panic!("no {name} under {under}"))
        };
        // The cached plugin skill was edited; the marketplace clone holds it as installed.
        let api_docs = skill("docs-kit:api-docs", "/cache/");
        assert_eq!(api_docs.state, State::Modified, "{:?}", api_docs.owner);
        let owner = api_docs.owner.as_ref().unwrap();
        assert_eq!(owner.installer.name(), "claude-plugin");
        let pristine = owner.pristine.as_ref().unwrap();
        assert!(pristine.ends_with("marketplaces/acme-market/plugins/docs-kit/skills/api-docs"));
        assert_eq!(skill("docs-kit:diagrams", "/cache/").state, State::Intact);

        // Snapshots in the sandbox's own data directory; two skills changed since.
        assert!(env.data_dir().starts_with(sandbox.root()));
        let store = crate::snapshot::Store::open(&env);
        let subjects: Vec<changes::Subject<'_>> = inventory
            .skills
            .iter()
            .map(|s| changes::Subject {
                dir: &s.dir,
                real_dir: &s.real_dir,
                modified: s.state == State::Modified,
            })
            .collect();
        let found = changes::changes(&store, &subjects).unwrap();
        assert!(found.problems.is_empty(), "{:?}", found.problems);
        let mut changed: Vec<(String, &str)> = found
            .changed
            .iter()
            .map(|c| {
                let since = match c.since {
                    changes::Since::Snapshot(_) => "snapshot",
                    changes::Since::Gone(_) => "gone",
                    changes::Since::Installed => "installed",
                };
                (
                    crate::record::portable_path(c.dir.strip_prefix(sandbox.home()).unwrap()),
                    since,
                )
            })
            .collect();
        changed.sort();
        assert_eq!(
            changed,
            [
                (
                    ".claude/plugins/cache/acme-market/docs-kit/1.2.0/skills/api-docs".to_owned(),
                    "installed"
                ),
                (".claude/skills/code-review".to_owned(), "snapshot"),
                (".claude/skills/release-notes".to_owned(), "snapshot"),
            ]
        );
        let code_review = skill("code-review", "/home/.claude/");
        let latest = store.latest(&code_review.dir).unwrap().unwrap();
        let diff = crate::snapshot::diff::diff(&latest, &code_review.dir).unwrap();
        let paths: Vec<&str> = diff.files.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(paths, ["SKILL.md", "checklist.md"]);

        // Two archives to import: a repository's, and one the reader refuses.
        let downloads = sandbox.home().join("Downloads");
        let bundle = crate::bundle::read(&downloads.join("team-skills-main.tar.gz")).unwrap();
        let names: Vec<&str> = bundle.skills.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["changelog", "code-review", "shell-check"]);
        assert_eq!(bundle.left_out, ["team-skills-main/README.md"]);
        let script = bundle.skills[2]
            .files
            .iter()
            .find(|f| f.path == "scripts/check.sh");
        assert!(script.unwrap().executable);
        let refusal = crate::bundle::read(&downloads.join("handy-prompts.zip")).unwrap_err();
        assert_eq!(refusal.code(), "unsafe_path");
    }

    #[test]
    fn code_review_has_a_history_of_three_different_snapshots() {
        let tmp = tempfile::tempdir().unwrap();
        let sandbox = Sandbox::create_in(tmp.path()).unwrap();
        let store = Store::open(&sandbox.machine().env);
        let dir = sandbox.home().join(".claude/skills/code-review");
        let history = store.history(&dir).unwrap();
        assert_eq!(history.len(), 3);
        let mut digests: Vec<String> = history
            .iter()
            .map(|s| format!("{:?}", s.info.digest))
            .collect();
        digests.dedup();
        assert_eq!(digests.len(), 3, "each step holds other content");
        // The first had no checklist; the history's files are not laid out as files.
        assert!(!history[0].files().join("checklist.md").exists());
        assert!(history[1].files().join("checklist.md").exists());
        assert!(!sandbox.root().join(HISTORY).exists());
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
