//! `verify`: a project against its `skills-lock.json`, read-only, for CI. Each locked skill
//! must be in the project with the locked `computedHash` (computed as `lock` computes it, so
//! skilldeck's record does not count), and each project skill the lock would hold must be in
//! it; every finding names the agents that load the skill. Where a snapshot of the skill
//! still holds the locked content, the first file (in the hash's order) that differs from it
//! is named.
//!
//! Where the project has Microsoft APM's `apm.lock.yaml`, each skill file it records is checked
//! against the SHA-256 it records, hashed as APM hashes it (`lock::apm`): a file that differs or
//! is gone is a finding naming the file. A project may have either lock or both; with neither,
//! nothing is checked.
//!
//! Asked to (`skilldeck verify --fail-on SEVERITY`), each project skill a lock names is also
//! audited as `skilldeck audit` audits it (issue 33), and each finding at or above the
//! severity asked for is a finding of the verification: what the locked skills would do is
//! checked in CI with what they hold.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::audit::{self, Severity};
use crate::lock::{self, APM_LOCK_FILE, ApmLock, LOCK_FILE, SkillsLock};
use crate::ownership::skills_cli;
use crate::record::unstamp;
use crate::roots::{AgentId, Machine};
use crate::scan::{Inventory, Skill};
use crate::skill::SKILL_FILE;
use crate::snapshot::Store;

use super::lock::{LockOpError, lock_dir, project_skills};

/// What is wrong with one skill.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Problem {
    /// Its files do not hash to the locked value.
    Differs {
        locked: String,
        now: String,
        /// The first file, below the skill's folder, that differs from a kept copy of the
        /// locked content; `None` when no such copy is kept.
        file: Option<String>,
    },
    /// The lock names it and the project has no skill of that name.
    Missing,
    /// The project has it and the lock does not name it.
    Unlocked,
    /// A file `apm.lock.yaml` records, below the skill's folder, does not hash to its SHA-256.
    ApmDiffers {
        file: String,
        locked: String,
        now: String,
    },
    /// A file `apm.lock.yaml` records, below the skill's folder, is not there.
    ApmMissing { file: String },
    /// What `skilldeck audit` finds in the locked skill, at or above the severity asked for.
    Audit(audit::Finding),
}

impl Problem {
    /// The rule's id, as SARIF and the annotations give it.
    pub fn rule(&self) -> &'static str {
        match self {
            Problem::Differs { .. } => "skill-differs",
            Problem::Missing => "skill-missing",
            Problem::Unlocked => "skill-unlocked",
            Problem::ApmDiffers { .. } => "apm-file-differs",
            Problem::ApmMissing { .. } => "apm-file-missing",
            Problem::Audit(finding) => finding.rule,
        }
    }
}

/// One finding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    pub name: String,
    /// The skill's folder, when the project has it.
    pub dir: Option<PathBuf>,
    pub problem: Problem,
    /// The agents that load the skill from the project.
    pub agents: Vec<AgentId>,
}

impl Finding {
    /// The finding in a sentence, with `dir` as the caller shows paths.
    pub fn sentence(&self, shown_dir: &str) -> String {
        let agents = if self.agents.is_empty() {
            "no agent loads it".to_owned()
        } else {
            let names: Vec<String> = self.agents.iter().map(ToString::to_string).collect();
            format!("loaded by {}", names.join(", "))
        };
        match &self.problem {
            Problem::Differs { file, .. } => {
                let which = match file {
                    Some(file) => format!("{file} differs from the locked content"),
                    None => "its files do not hash to the lock's computedHash (no copy of the locked content is kept to name the file)".to_owned(),
                };
                format!("{} in {shown_dir}: {which}; {agents}", self.name)
            }
            Problem::Missing => format!(
                "{} is in {LOCK_FILE} but not in the project's skill folders",
                self.name
            ),
            Problem::Unlocked => format!(
                "{} in {shown_dir} is not in {LOCK_FILE}; {agents}",
                self.name
            ),
            Problem::ApmDiffers { file, .. } => format!(
                "{} in {shown_dir}: {file} does not hash to the SHA-256 {APM_LOCK_FILE} records; {agents}",
                self.name
            ),
            Problem::ApmMissing { file } => format!(
                "{} in {shown_dir}: {file}, recorded in {APM_LOCK_FILE}, is missing; {agents}",
                self.name
            ),
            Problem::Audit(finding) => format!(
                "{} in {shown_dir}: {}:{} {} ({}): {}; {agents}",
                self.name,
                finding.file,
                finding.line,
                finding.rule,
                finding.severity,
                finding.message
            ),
        }
    }
}

/// What `verify` found.
#[derive(Debug)]
pub struct Verified {
    /// The project's `skills-lock.json`, when it has one.
    pub lock_path: Option<PathBuf>,
    /// The project's `apm.lock.yaml`, when it has one.
    pub apm_lock_path: Option<PathBuf>,
    /// The folder the locks are in: paths in the reports are relative to it.
    pub top: PathBuf,
    /// How many skills `skills-lock.json` names.
    pub locked: usize,
    /// How many skill files `apm.lock.yaml` records, each checked.
    pub apm_files: usize,
    pub findings: Vec<Finding>,
}

/// Why the project could not be checked.
#[derive(Debug, thiserror::Error)]
pub enum VerifyError {
    #[error(
        "there is no {LOCK_FILE} or {APM_LOCK_FILE} at {}; `skilldeck lock` writes a {LOCK_FILE}",
        .0.display()
    )]
    NoLock(PathBuf),
    #[error(transparent)]
    Lock(#[from] lock::LockError),
    #[error(transparent)]
    ApmLock(#[from] lock::ApmLockError),
    #[error("{} could not be read to check it against {APM_LOCK_FILE}: {}", .path.display(), crate::fs::said(.source))]
    ApmFile {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(transparent)]
    Project(#[from] LockOpError),
    #[error(transparent)]
    Hash(#[from] lock::HashError),
    /// A locked skill's folder could not be read to audit it.
    #[error(transparent)]
    Audit(#[from] audit::Unreadable),
}

/// Check `machine`'s project against its lock.
///
/// # Errors
/// [`VerifyError`] when the lock or a skill could not be read: nothing was checked.
/// Verify the project against its locks; with `audit_at`, also audit each skill a lock names
/// and report its findings of that severity or more. Nothing is written.
///
/// # Errors
/// [`VerifyError`]: no lock, a lock or a skill that cannot be read (nothing is reported).
pub fn verify(
    machine: &Machine,
    inventory: &Inventory,
    audit_at: Option<Severity>,
) -> Result<Verified, VerifyError> {
    let top = lock_dir(machine);
    let lock_path = top.join(LOCK_FILE);
    let apm_lock_path = top.join(APM_LOCK_FILE);
    let lock = SkillsLock::read(&lock_path)?;
    let apm = ApmLock::read(&apm_lock_path)?;
    if lock.is_none() && apm.is_none() {
        return Err(VerifyError::NoLock(top));
    }
    let skills = project_skills(inventory, &top)?;
    let mut findings = Vec::new();
    if let Some(lock) = &lock {
        check_skills_lock(machine, lock, &skills, &mut findings)?;
    }
    if let Some(apm) = &apm {
        check_apm_lock(&top, apm, &skills, &mut findings)?;
    }
    if let Some(least) = audit_at {
        let named = |name: &str, skill: &Skill| {
            lock.as_ref().is_some_and(|l| l.skills.contains_key(name))
                || apm
                    .as_ref()
                    .is_some_and(|apm| apm.files.values().any(|f| top.join(&f.dir) == skill.dir))
        };
        for (name, copies) in &skills {
            for &skill in copies.iter().filter(|skill| named(name, skill)) {
                let audited = audit::audit_skill(name, &skill.real_dir)?;
                findings.extend(
                    audited
                        .findings
                        .into_iter()
                        .filter(|f| f.severity >= least)
                        .map(|f| found(skill, name, Problem::Audit(f))),
                );
            }
        }
    }
    Ok(Verified {
        lock_path: lock.as_ref().map(|_| lock_path),
        apm_lock_path: apm.as_ref().map(|_| apm_lock_path),
        top,
        locked: lock.as_ref().map_or(0, |lock| lock.skills.len()),
        apm_files: apm.as_ref().map_or(0, |apm| apm.files.len()),
        findings,
    })
}

/// The project's skills against `skills-lock.json`: each locked skill's `computedHash`, and
/// each project skill the lock does not name.
fn check_skills_lock(
    machine: &Machine,
    lock: &SkillsLock,
    skills: &BTreeMap<String, Vec<&Skill>>,
    findings: &mut Vec<Finding>,
) -> Result<(), VerifyError> {
    let store = Store::open(&machine.env);
    for (name, entry) in &lock.skills {
        let Some(copies) = skills.get(name) else {
            findings.push(Finding {
                name: name.clone(),
                dir: None,
                problem: Problem::Missing,
                agents: Vec::new(),
            });
            continue;
        };
        let locked = entry.locked().computed_hash.to_ascii_lowercase();
        for &skill in copies {
            let now = lock::computed_hash(&skill.real_dir)?;
            if now != locked {
                let file = first_difference(&store, skill, &locked);
                let problem = Problem::Differs {
                    locked: locked.clone(),
                    now,
                    file,
                };
                findings.push(found(skill, name, problem));
            }
        }
    }
    for (name, copies) in skills {
        if !lock.skills.contains_key(name) {
            for &skill in copies {
                findings.push(found(skill, name, Problem::Unlocked));
            }
        }
    }
    Ok(())
}

/// Each skill file `apm.lock.yaml` records against its SHA-256, read without following a link
/// at the file itself (APM's own audit skips links; a link here could read outside the
/// project). A project skill APM did not install is not a finding: APM's lock names only
/// what APM deployed.
fn check_apm_lock(
    top: &Path,
    apm: &ApmLock,
    skills: &BTreeMap<String, Vec<&Skill>>,
    findings: &mut Vec<Finding>,
) -> Result<(), VerifyError> {
    for (rel, recorded) in &apm.files {
        let path = top.join(rel);
        let problem = match crate::fs::read_bounded(
            &path,
            crate::fs::Links::Refuse,
            crate::limits::DIGEST_FILE_BYTES,
        ) {
            Ok(bytes) => {
                let now = lock::apm_file_hash(&bytes);
                if now == recorded.sha256 {
                    continue;
                }
                Problem::ApmDiffers {
                    file: recorded.file.clone(),
                    locked: recorded.sha256.clone(),
                    now,
                }
            }
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => Problem::ApmMissing {
                file: recorded.file.clone(),
            },
            Err(source) => return Err(VerifyError::ApmFile { path, source }),
        };
        let dir = top.join(&recorded.dir);
        let agents = skills
            .get(&recorded.name)
            .into_iter()
            .flatten()
            .find(|skill| skill.dir == dir)
            .map(|skill| skill.agents.clone())
            .unwrap_or_default();
        findings.push(Finding {
            name: recorded.name.clone(),
            dir: Some(dir),
            problem,
            agents,
        });
    }
    Ok(())
}

fn found(skill: &Skill, name: &str, problem: Problem) -> Finding {
    Finding {
        name: name.to_owned(),
        dir: Some(skill.dir.clone()),
        problem,
        agents: skill.agents.clone(),
    }
}

/// The first file, in the order the hash takes them, where the skill differs from the latest
/// snapshot of it that holds the locked content; `None` when no snapshot does.
fn first_difference(store: &Store, skill: &Skill, locked: &str) -> Option<String> {
    let history = store.history(&skill.real_dir).ok()?;
    let kept = history.into_iter().rev().find_map(|snapshot| {
        let files: BTreeMap<String, Vec<u8>> = snapshot
            .read_kept(&skill.real_dir)
            .ok()?
            .into_iter()
            .map(|kept| (kept.rel, kept.bytes))
            .collect();
        (kept_hash(&files) == locked).then_some(files)
    })?;
    let now = skills_cli::hashed_paths(&skill.real_dir).ok()?;
    let mut paths: Vec<String> = now.clone();
    paths.extend(kept.keys().filter(|p| !now.contains(p)).cloned());
    skills_cli::sort_paths(&mut paths);
    paths.into_iter().find(|path| {
        let on_disk = crate::fs::read_bounded(
            &skill.real_dir.join(path),
            crate::fs::Links::Refuse,
            crate::limits::DIGEST_FILE_BYTES,
        )
        .ok();
        on_disk.as_deref() != kept.get(path).map(Vec::as_slice)
    })
}

/// The `computedHash` of a snapshot's files, its `SKILL.md` without skilldeck's record.
fn kept_hash(files: &BTreeMap<String, Vec<u8>>) -> String {
    let manifest = files
        .get(SKILL_FILE)
        .and_then(|bytes| std::str::from_utf8(bytes).ok())
        .and_then(unstamp);
    skills_cli::hash_of_files(
        files
            .iter()
            .map(|(path, bytes)| match (&manifest, path.as_str()) {
                (Some(text), SKILL_FILE) => (path.as_str(), text.as_bytes()),
                _ => (path.as_str(), bytes.as_slice()),
            })
            .collect(),
    )
}

/// `path` below the lock's folder, `/`-separated, for reports.
pub fn relative(top: &Path, path: &Path) -> String {
    let rel = path.strip_prefix(top).unwrap_or(path);
    crate::record::portable_path(rel)
}
