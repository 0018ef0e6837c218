//! The `skills` CLI's records (peer-tools.md §4.1): the global lock
//! (`~/.agents/.skill-lock.json`, or under `$XDG_STATE_HOME/skills/`; gh skill writes the home
//! one too) and the project lock `skills-lock.json` beside a project's `.agents/skills`, and
//! the hashes they carry.
//!
//! The project lock's `computedHash` and a 64-digit global `skillFolderHash` are the CLI's
//! folder hash: SHA-256 over each regular file's path and bytes, no separator, paths sorted by
//! JavaScript's `localeCompare` (the CLDR root collation), `.git` and `node_modules` skipped.
//! A 40-digit global hash is the folder's git tree id. The CLI hashes the folder it copies
//! *from*, and copies it without `metadata.json`, `__pycache__/` and `__pypackages__/`, with
//! links replaced by what they point at: an untouched copy of such a source never matches its
//! hash, which is said, not called drift.

use std::collections::BTreeMap;
use std::io;
use std::path::{Component, Path, PathBuf};
use std::time::SystemTime;

use feruca::{Collator, Locale, Tailoring};
use serde::Deserialize;
use sha2::{Digest as _, Sha256};

use super::walk::{self, Entry, Kind};
use super::{
    Attribution, FileProblem, Installer, Method, Owner, Subject, Upstream, Verdict, git, read_json,
};
use crate::fs::Links;
use crate::record::lower_hex;
use crate::roots::{Environment, Project, Scope, Walk};
use crate::skill::SKILL_FILE;

/// The global lock's version the CLI reads; it starts over when it finds an older one.
const GLOBAL_VERSION: u64 = 3;
/// The project lock's version.
const PROJECT_VERSION: u64 = 1;
/// What the CLI leaves out when it copies a skill: files by name, folders by name.
const NOT_COPIED_FILES: [&str; 1] = ["metadata.json"];
const NOT_COPIED_FOLDERS: [&str; 3] = [".git", "__pycache__", "__pypackages__"];
/// How a well-known index's digest begins.
const WELL_KNOWN_PREFIX: &str = "sha256:";
/// What its folder hash leaves out: folders by name.
const NOT_HASHED_FOLDERS: [&str; 2] = [".git", "node_modules"];

#[derive(Debug, Deserialize)]
struct LockFile {
    version: Option<serde_json::Value>,
    skills: Option<BTreeMap<String, EntryFile>>,
}

/// One skill's entry; every field optional, as versions and writers (gh skill) differ.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct EntryFile {
    source: Option<String>,
    source_type: Option<String>,
    source_url: Option<String>,
    #[serde(rename = "ref")]
    reference: Option<String>,
    skill_path: Option<String>,
    skill_folder_hash: Option<String>,
    computed_hash: Option<String>,
    well_known_digest: Option<String>,
    updated_at: Option<String>,
    installed_at: Option<String>,
    pinned_ref: Option<String>,
}

/// A lock that was read, its entries by the folder name the CLI installs each under.
#[derive(Debug)]
struct Lock {
    path: PathBuf,
    /// The folder the lock lives in: the home's `.agents` or the project.
    base: PathBuf,
    entries: BTreeMap<String, (String, EntryFile)>,
    /// When the lock was last written, for a project lock whose entries carry no time.
    written: Option<SystemTime>,
}

/// A lock that exists but could not be read, and where the skills it would record are: any
/// user root for a global lock, a project root below its folder for a project lock.
#[derive(Debug)]
struct Broken {
    project: Option<PathBuf>,
    problem: FileProblem,
}

/// The global and project locks of one run.
#[derive(Debug, Default)]
pub struct Locks {
    global: Vec<Lock>,
    project: Vec<Lock>,
    broken: Vec<Broken>,
}

impl Locks {
    /// The global locks `env` points at and the project lock of each directory the project
    /// walk visits.
    pub fn read(env: &Environment, project: &Project, problems: &mut Vec<FileProblem>) -> Self {
        let mut locks = Self::default();
        let home_lock = env.home().join(".agents/.skill-lock.json");
        let mut global = vec![home_lock];
        if let Some(state) = env.var("XDG_STATE_HOME") {
            global.insert(0, Path::new(state).join("skills/.skill-lock.json"));
        }
        for path in global {
            if let Some(lock) = locks.load(path, None, GLOBAL_VERSION, problems) {
                locks.global.push(lock);
            }
        }
        for (dir, _) in project.levels(Walk::UpToRepository, env) {
            if let Some(lock) = locks.load(
                dir.join("skills-lock.json"),
                Some(&dir),
                PROJECT_VERSION,
                problems,
            ) {
                locks.project.push(lock);
            }
        }
        locks
    }

    fn load(
        &mut self,
        path: PathBuf,
        project: Option<&Path>,
        version: u64,
        problems: &mut Vec<FileProblem>,
    ) -> Option<Lock> {
        let file: LockFile = match read_json(&path) {
            Ok(file) => file?,
            Err(problem) => {
                self.broken.push(Broken {
                    project: project.map(Path::to_path_buf),
                    problem: problem.clone(),
                });
                problems.push(problem);
                return None;
            }
        };
        let found = file.version.as_ref().and_then(serde_json::Value::as_u64);
        let Some(skills) = file.skills.filter(|_| found.is_some()) else {
            let problem = FileProblem::Unreadable {
                path: path.clone(),
                reason: "it has no numeric \"version\" and \"skills\" map, so the skills CLI reads it as empty".into(),
            };
            self.broken.push(Broken {
                project: project.map(Path::to_path_buf),
                problem: problem.clone(),
            });
            problems.push(problem);
            return None;
        };
        match found {
            Some(found) if found < version => problems.push(FileProblem::Version {
                path: path.clone(),
                what: "a skills CLI lock",
                found: found.to_string(),
                consequence: "the skills CLI ignores locks older than its own and starts a new one on its next install; skilldeck still reads its entries",
            }),
            Some(found) if found > version => problems.push(FileProblem::Version {
                path: path.clone(),
                what: "a skills CLI lock",
                found: found.to_string(),
                consequence: "newer than the one skilldeck knows; its entries are read as if they were the known version",
            }),
            _ => {}
        }
        let written = std::fs::metadata(&path).and_then(|m| m.modified()).ok();
        let entries = skills
            .into_iter()
            .map(|(name, entry)| (install_name(&name), (name, entry)))
            .collect();
        Some(Lock {
            base: path.parent().map(Path::to_path_buf).unwrap_or_default(),
            path,
            entries,
            written,
        })
    }

    /// The entry of a global lock for `name` that records the tree id `tree`, as gh skill
    /// writes it beside its own record, with its install time.
    pub fn global_install_time(&self, name: &str, tree: &str) -> Option<SystemTime> {
        self.global.iter().find_map(|lock| {
            let (_, entry) = lock.entries.get(name)?;
            (entry.skill_folder_hash.as_deref() == Some(tree))
                .then(|| entry.updated_at.as_deref().and_then(super::parse_time))
                .flatten()
        })
    }

    /// The skills CLI's record of `subject`: a project lock for a skill in a project root
    /// below it, the global lock for one in a user root.
    pub fn attribute(&self, subject: &Subject<'_>) -> Option<Attribution> {
        let name = subject.dir_name();
        let project = subject
            .directly_in(Scope::Project)
            .then(|| {
                self.project
                    .iter()
                    .filter(|lock| {
                        subject.dir.starts_with(&lock.base)
                            || subject.real_dir.starts_with(&lock.base)
                    })
                    .max_by_key(|lock| lock.base.components().count())
            })
            .flatten();
        let found = match project {
            Some(lock) => lock.entries.get(name).map(|entry| (lock, entry, true)),
            None if subject.directly_in(Scope::User) => self
                .global
                .iter()
                .find_map(|lock| lock.entries.get(name).map(|entry| (lock, entry, false))),
            None => None,
        };
        let (lock, (recorded_name, entry), is_project) = found?;
        let mut owner =
            Owner::new(Installer::SkillsCli, lock.path.clone()).with_upstream(Upstream {
                repository: entry.source_url.clone().or_else(|| entry.source.clone()),
                reference: entry.reference.clone().or_else(|| entry.pinned_ref.clone()),
                path: entry
                    .skill_path
                    .as_deref()
                    .map(|p| p.strip_suffix(SKILL_FILE).unwrap_or(p))
                    .map(|p| p.trim_end_matches('/').to_owned()),
                commit: None,
            });
        let recorded = if is_project {
            entry.computed_hash.as_deref()
        } else {
            entry.skill_folder_hash.as_deref()
        }
        .filter(|hash| !hash.is_empty())
        .or(entry.well_known_digest.as_deref())
        .unwrap_or("");
        owner = owner.with_hash(recorded);
        let installed = if is_project {
            lock.written
        } else {
            entry
                .updated_at
                .as_deref()
                .or(entry.installed_at.as_deref())
                .and_then(super::parse_time)
        };
        let recorded_as = Recorded {
            lock,
            name: recorded_name,
            entry,
            hash: recorded,
        };
        Some(verify(subject, &recorded_as, installed).for_owner(owner))
    }

    /// The locks that could not be read and would have been looked in for `subject`: its
    /// record may be in one of them, which the listing says rather than calling it unrecorded
    /// without a word.
    pub fn broken_for<'a>(
        &'a self,
        subject: &'a Subject<'_>,
    ) -> impl Iterator<Item = &'a FileProblem> + 'a {
        self.broken
            .iter()
            .filter(|broken| match &broken.project {
                None => subject.directly_in(Scope::User),
                Some(base) => {
                    subject.directly_in(Scope::Project)
                        && (subject.dir.starts_with(base) || subject.real_dir.starts_with(base))
                }
            })
            .map(|broken| &broken.problem)
    }
}

/// The folder name the CLI installs a skill of this name under.
fn install_name(name: &str) -> String {
    let mut out = String::new();
    let mut in_run = false;
    for c in name.to_lowercase().chars() {
        if c.is_ascii_lowercase() || c.is_ascii_digit() || c == '.' || c == '_' {
            out.push(c);
            in_run = false;
        } else if !in_run {
            out.push('-');
            in_run = true;
        }
    }
    let trimmed = out.trim_matches(|c| c == '.' || c == '-');
    let cut: String = trimmed.chars().take(255).collect();
    if cut.is_empty() {
        "unnamed-skill".to_owned()
    } else {
        cut
    }
}

/// One skill's entry in a lock, under the name the CLI recorded it by.
struct Recorded<'a> {
    lock: &'a Lock,
    name: &'a str,
    entry: &'a EntryFile,
    hash: &'a str,
}

/// Check the installed folder against the recorded hash.
fn verify(
    subject: &Subject<'_>,
    recorded: &Recorded<'_>,
    installed: Option<SystemTime>,
) -> Verdict {
    let hash = recorded.hash;
    let method = if git::is_object_id(hash) {
        Method::GitTree
    } else if hash.len() == 64 && hash.bytes().all(|b| b.is_ascii_hexdigit()) {
        Method::SkillsCliFolderHash
    } else if hash.starts_with(WELL_KNOWN_PREFIX) {
        Method::WellKnownDigest
    } else if hash.is_empty() {
        return Verdict::unverifiable(
            "the skills CLI recorded no hash for it (its global lock keeps none for a local source)",
        );
    } else {
        return Verdict::unverifiable(format!(
            "the recorded hash {hash:?} is of no kind skilldeck can recompute"
        ));
    };
    let entries = match walk::list(subject.real_dir) {
        Ok(entries) => entries,
        Err(error) => return Verdict::failed(&error),
    };
    let now = match method {
        Method::GitTree => git::tree_id(&entries),
        Method::WellKnownDigest => well_known_digest(&entries),
        _ => folder_hash(hashed_files(&entries)),
    };
    let now = match now {
        Ok(now) => now,
        Err(error) => return Verdict::failed(&error),
    };
    if now.eq_ignore_ascii_case(hash) {
        return Verdict::intact(method);
    }
    if method == Method::SkillsCliFolderHash
        && let Some(source) = hashed_source(recorded)
    {
        return against_source(&now, &source);
    }
    if method == Method::WellKnownDigest {
        return super::changed_since(
            subject.real_dir,
            &entries,
            installed,
            "its files do not hash to the recorded digest, which may be one the publisher's index gave in a form of its own".into(),
        );
    }
    super::changed_since(
        subject.real_dir,
        &entries,
        installed,
        "its files do not hash to the recorded value, but the skills CLI hashed the folder it copied from and leaves metadata.json, __pycache__/ and __pypackages__/ out of a copy, following links: an untouched copy of a source holding any of them never matches".into(),
    )
}

/// The digest the CLI records for a skill from a well-known index: `sha256:` over each file's
/// path, a zero byte, its bytes and a zero byte, paths in JavaScript's default sort (UTF-16
/// code units).
fn well_known_digest(entries: &[Entry]) -> io::Result<String> {
    let mut files: Vec<&Entry> = entries
        .iter()
        .filter(|e| matches!(e.kind, Kind::File { .. }))
        .collect();
    files.sort_by(|a, b| a.path.encode_utf16().cmp(b.path.encode_utf16()));
    let mut hasher = Sha256::new();
    for file in files {
        hasher.update(file.path.as_bytes());
        hasher.update([0]);
        walk::stream(
            &file.full,
            Links::Refuse,
            |_| Vec::new(),
            |b| hasher.update(b),
        )?;
        hasher.update([0]);
    }
    Ok(format!(
        "{WELL_KNOWN_PREFIX}{}",
        lower_hex(&hasher.finalize())
    ))
}

/// The files the folder hash covers in a listing, each read without following links.
fn hashed_files(entries: &[Entry]) -> Vec<(String, PathBuf, Links)> {
    entries
        .iter()
        .filter(|e| matches!(e.kind, Kind::File { .. }))
        .filter(|e| !e.folders().any(|f| NOT_HASHED_FOLDERS.contains(&f)))
        .map(|e| (e.path.clone(), e.full.clone(), Links::Refuse))
        .collect()
}

/// The files of a source folder as the CLI copies them: links followed, the names it leaves
/// out left out; then as its folder hash would take the copy.
fn copied_files(entries: &[Entry]) -> Vec<(String, PathBuf, Links)> {
    entries
        .iter()
        .filter(|e| match e.kind {
            Kind::File { .. } => true,
            Kind::Link => e.full.is_file(),
            Kind::Dir | Kind::Other => false,
        })
        .filter(|e| !NOT_COPIED_FILES.contains(&e.name()))
        .filter(|e| {
            !e.folders()
                .any(|f| NOT_COPIED_FOLDERS.contains(&f) || NOT_HASHED_FOLDERS.contains(&f))
        })
        .map(|e| (e.path.clone(), e.full.clone(), Links::Follow))
        .collect()
}

/// The project lock's `computedHash` of the skill folder `dir` as the CLI computes it over
/// the folder it installs, with `manifest` hashed in place of the folder's own `SKILL.md` when
/// given (the text before another installer wrote its record into it). What `skilldeck lock`
/// writes and `skilldeck verify` checks; the same walk, bounds and order as the ledger's.
///
/// # Errors
/// The first entry or file that cannot be read, or a bound of the digest passed.
pub fn computed_hash(dir: &Path, manifest: Option<&[u8]>) -> io::Result<String> {
    let entries = walk::list(dir)?;
    folder_hash_with(hashed_files(&entries), manifest)
}

/// The paths the project lock's `computedHash` of `dir` covers, in the order it hashes them.
///
/// # Errors
/// As [`computed_hash`].
pub fn hashed_paths(dir: &Path) -> io::Result<Vec<String>> {
    let mut files = hashed_files(&walk::list(dir)?);
    sort_as_the_cli(&mut files);
    Ok(files.into_iter().map(|(path, ..)| path).collect())
}

/// JavaScript's `localeCompare` (the CLDR root collation), which orders the CLI's hash.
fn collator() -> Collator {
    Collator::new(Tailoring::Cldr(Locale::Root), false, true)
}

/// Files in the order the CLI hashes them: `localeCompare` on their paths.
fn sort_as_the_cli(files: &mut [(String, PathBuf, Links)]) {
    let mut collator = collator();
    files.sort_by(|a, b| collator.collate(a.0.as_str(), b.0.as_str()));
}

/// Paths in the order the CLI hashes them.
pub fn sort_paths(paths: &mut [String]) {
    let mut collator = collator();
    paths.sort_by(|a, b| collator.collate(a.as_str(), b.as_str()));
}

/// The CLI's folder hash of files held in memory (a snapshot's), by path below the folder.
pub fn hash_of_files(mut files: Vec<(&str, &[u8])>) -> String {
    files.retain(|(path, _)| {
        !path
            .split('/')
            .rev()
            .skip(1)
            .any(|folder| NOT_HASHED_FOLDERS.contains(&folder))
    });
    let mut collator = collator();
    files.sort_by(|a, b| collator.collate(a.0, b.0));
    let mut hasher = Sha256::new();
    for (path, bytes) in files {
        hasher.update(path.as_bytes());
        hasher.update(bytes);
    }
    lower_hex(&hasher.finalize())
}

/// The CLI's folder hash of these files.
fn folder_hash(files: Vec<(String, PathBuf, Links)>) -> io::Result<String> {
    folder_hash_with(files, None)
}

/// The CLI's folder hash of these files, `manifest` taken for the top `SKILL.md`'s bytes.
fn folder_hash_with(
    mut files: Vec<(String, PathBuf, Links)>,
    manifest: Option<&[u8]>,
) -> io::Result<String> {
    sort_as_the_cli(&mut files);
    let mut hasher = Sha256::new();
    for (path, full, links) in files {
        hasher.update(path.as_bytes());
        match manifest.filter(|_| path == SKILL_FILE) {
            Some(bytes) => hasher.update(bytes),
            None => walk::stream(&full, links, |_| Vec::new(), |bytes| hasher.update(bytes))?,
        }
    }
    Ok(lower_hex(&hasher.finalize()))
}

/// The local source folder an entry was installed from, when it is still there and still
/// hashes to the recorded value: the CLI records the repository folder, not the skill's, so
/// the places it looks for skills in are tried.
fn hashed_source(recorded: &Recorded<'_>) -> Option<PathBuf> {
    let Recorded {
        lock, name, entry, ..
    } = *recorded;
    if entry.source_type.as_deref() != Some("local") {
        return None;
    }
    let base = resolve(&lock.base, entry.source.as_deref()?);
    let mut candidates = vec![
        base.clone(),
        base.join(name),
        base.join("skills").join(name),
    ];
    if let Some(skill_path) = entry.skill_path.as_deref() {
        candidates.insert(0, base.join(skill_path.trim_end_matches(SKILL_FILE)));
    }
    candidates.into_iter().find(|dir| {
        dir.join(SKILL_FILE).is_file()
            && walk::list(dir)
                .ok()
                .and_then(|entries| folder_hash(hashed_files(&entries)).ok())
                .is_some_and(|hash| hash.eq_ignore_ascii_case(recorded.hash))
    })
}

/// `relative` from `base`, `..` and `.` taken away as Node's `path.resolve` does.
fn resolve(base: &Path, relative: &str) -> PathBuf {
    let mut out = PathBuf::new();
    for part in base.join(relative).components() {
        match part {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            part => out.push(part),
        }
    }
    out
}

/// The verdict from the source folder the recorded hash was computed over: what the CLI would
/// have copied from it, against the installed copy's hash `now`.
fn against_source(now: &str, source: &Path) -> Verdict {
    let copied = walk::list(source).and_then(|entries| folder_hash(copied_files(&entries)));
    let mut verdict = match copied {
        Ok(copied) => Verdict::compare(Method::SourceFolder, now, &copied),
        Err(error) => return Verdict::failed(&error),
    };
    verdict.pristine = Some(source.to_path_buf());
    verdict.noting(format!(
        "checked against the source folder {}, which still hashes to the recorded value, as the skills CLI copies it",
        source.display()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    #[test]
    fn a_relative_source_resolves_as_node_resolves_it() {
        assert_eq!(
            resolve(Path::new("/w/repo"), "../demo-skills/./x"),
            Path::new("/w/demo-skills/x")
        );
        assert_eq!(resolve(Path::new("/w/repo"), "/abs"), Path::new("/abs"));
    }

    #[test]
    fn names_become_the_folders_the_cli_installs_them_under() {
        assert_eq!(install_name("greet"), "greet");
        assert_eq!(install_name("My Skill!"), "my-skill");
        assert_eq!(install_name("..a__b.c--"), "a__b.c");
        assert_eq!(install_name("???"), "unnamed-skill");
    }

    /// The order `Array.prototype.sort` with `localeCompare` gives in Node 20 (ICU 74, en-US),
    /// recorded by running it on these names.
    #[test]
    fn paths_sort_as_javascripts_locale_compare_sorts_them() {
        let node_order = [
            "_x.md",
            ".hidden",
            "10.md",
            "9.md",
            "a b.md",
            "a_b.md",
            "a-b.md",
            "a.md",
            "A.md",
            "ä.md",
            "a.txt",
            "a/x.md",
            "a#.md",
            "a~.md",
            "b.md",
            "B.md",
            "e.md",
            "é.md",
            "f.md",
            "Makefile",
            "readme.md",
            "README.md",
            "references/Usage.md",
            "scripts/hello.sh",
            "SKILL.md",
            "z.md",
            "z/a.md",
            "zz.md",
            "Ω.md",
            "日本.md",
        ];
        let mut names = node_order;
        names.reverse();
        let mut collator = Collator::new(Tailoring::Cldr(Locale::Root), false, true);
        names.sort_by(|a, b| collator.collate(*a, *b));
        assert_eq!(names, node_order);
    }

    #[test]
    fn the_folder_hash_is_the_clis() {
        // The skill `greet` of tests/fixtures/skills-cli, with the hash skills@1.5.26 recorded.
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        fs::create_dir_all(dir.join("scripts")).unwrap();
        fs::create_dir_all(dir.join("references")).unwrap();
        fs::create_dir_all(dir.join("node_modules/x")).unwrap();
        fs::write(dir.join("SKILL.md"), "---\nname: greet\ndescription: Greets the person at the keyboard. A fixture skill for skilldeck's tests.\n---\n# Greet\n\nRun `scripts/hello.sh` and read `references/Usage.md` first.\n").unwrap();
        fs::write(
            dir.join("scripts/hello.sh"),
            "#!/bin/sh\necho \"hello, $USER\"\n",
        )
        .unwrap();
        fs::write(dir.join("references/Usage.md"), "# Usage\n\nSay hello.\n").unwrap();
        fs::write(dir.join("node_modules/x/index.js"), "skipped").unwrap();
        let entries = walk::list(dir).unwrap();
        assert_eq!(
            folder_hash(hashed_files(&entries)).unwrap(),
            "4a797f1fbd4982503fec7b1a51faba8b178364622c848d39e5ad92036b7cceb3"
        );
    }
}
