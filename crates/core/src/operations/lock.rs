//! `lock`: write the project's `skills-lock.json` from its skills, as the skills CLI would
//! have written it had it installed them, with the commit each git skill was fetched at.
//!
//! Which skills: those of every project root at the project's top folder (the repository
//! root, or the start folder outside a repository — the folder whose skills count as the
//! project's), for every agent skilldeck knows (`.agents/skills`, `.claude/skills`,
//! `.github/skills`, `.opencode/skills`, …): what an agent started there loads from the
//! project. The skills CLI itself installs into `.agents/skills` and links the others; a
//! team's skills committed under `.claude/skills` are the team's skills as much. Roots of
//! folders below the top (a monorepo's packages) are another project's and have their own lock.
//!
//! Each skill is keyed by its folder's name, which is what the CLI installs it under
//! (`.agents/skills/NAME`), so a restore puts it back where it was.
//!
//! The file is written as every user file skilldeck changes: read bounded, the previous bytes
//! kept, a temporary file renamed into place, journalled, so `undo` puts the previous lock
//! back.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::lock::{self, Entry, LOCAL, LOCK_FILE, Locked, SkillsLock};
use crate::record::upstream::{self, Upstream};
use crate::roots::{Machine, Source};
use crate::scan::{Inventory, Skill};
use crate::settings::{self, EditError};

use super::journal::{Entry as JournalEntry, Journal, JournalError, Operation};

/// Why the lock was not written; the file is as it was.
#[derive(Debug, thiserror::Error)]
pub enum LockOpError {
    #[error(transparent)]
    Lock(#[from] lock::LockError),
    #[error(transparent)]
    Hash(#[from] lock::HashError),
    #[error(
        "two project skills in folders named {name:?} hold different files ({} and {}); a skills-lock.json holds one skill of a name, so make them the same or rename one",
        .first.display(), .second.display()
    )]
    SameName {
        name: String,
        first: PathBuf,
        second: PathBuf,
    },
    #[error("the project skill in {} cannot be locked: {what}", .dir.display())]
    Name {
        dir: PathBuf,
        what: lock::file::EntryProblem,
    },
    #[error("the project skill {name:?} is in no folder to lock")]
    NoFolder { name: String },
    #[error(transparent)]
    Write(#[from] EditError),
}

/// What `lock` did.
#[derive(Debug)]
pub struct LockDone {
    pub path: PathBuf,
    /// Each skill locked, by name, with what its entry records.
    pub skills: Vec<(String, Locked)>,
    /// Whether the file changed (a lock already up to date is left alone).
    pub changed: bool,
    pub unjournalled: Option<JournalError>,
}

/// The folder a project's lock lives in.
pub fn lock_dir(machine: &Machine) -> PathBuf {
    crate::roots::Project::locate(&machine.project)
        .top()
        .to_path_buf()
}

/// The project's skills a lock at `top` holds, by the name it holds each under: every copy
/// of that name (a team may commit the same skill to `.agents/skills` and `.claude/skills`
/// for agents that read only one of them), in the inventory's order.
///
/// # Errors
/// A folder name a lock cannot hold.
pub fn project_skills<'a>(
    inventory: &'a Inventory,
    top: &Path,
) -> Result<BTreeMap<String, Vec<&'a Skill>>, LockOpError> {
    let mut skills: BTreeMap<String, Vec<&Skill>> = BTreeMap::new();
    for skill in &inventory.skills {
        if !is_project_skill(inventory, skill, top) {
            continue;
        }
        let name = skill.dir_name().to_owned();
        lock::file::check_name(&name).map_err(|what| LockOpError::Name {
            dir: skill.dir.clone(),
            what,
        })?;
        skills.entry(name).or_default().push(skill);
    }
    Ok(skills)
}

/// Whether a lock at `top` holds `skill`: a project skill that one of the roots at `top`
/// reaches.
pub fn is_project_skill(inventory: &Inventory, skill: &Skill, top: &Path) -> bool {
    skill.source == Source::Project
        && skill.roots.iter().any(|&i| {
            inventory
                .roots
                .get(i)
                .is_some_and(|entry| root_at_top(&entry.root.path, top))
        })
}

/// Whether the root `path` sits in a dot-folder of `top` itself (`.agents/skills`,
/// `.claude/skills`), not in a folder below it (a monorepo's package, with its own lock).
pub fn root_at_top(path: &Path, top: &Path) -> bool {
    path.strip_prefix(top)
        .ok()
        .and_then(|rel| rel.components().next())
        .is_some_and(|first| first.as_os_str().to_string_lossy().starts_with('.'))
}

/// Write the lock of `machine`'s project from `inventory`.
///
/// # Errors
/// [`LockOpError`]; nothing was written.
pub fn lock(machine: &Machine, inventory: &Inventory) -> Result<LockDone, LockOpError> {
    let top = lock_dir(machine);
    let path = top.join(LOCK_FILE);
    // What the lock held when it was read: the new one is worked out from it, so a lock
    // another program writes meanwhile is left as it wrote it, never overwritten.
    let seen = std::fs::read(&path).unwrap_or_default();
    let before = SkillsLock::read(&path)?.unwrap_or_default();
    let data = machine.data_dir();
    let mut after = SkillsLock::default();
    let mut skills = Vec::new();
    for (name, copies) in project_skills(inventory, &top)? {
        let (skill, computed_hash) = one_content(&name, &copies)?;
        let (entry, locked) = entry_of(
            &data,
            &top,
            &copies,
            skill,
            computed_hash,
            before.skills.get(&name),
        );
        after.skills.insert(name.clone(), entry);
        skills.push((name, locked));
    }
    let text = after.render();
    let change = settings::edit(machine, &path, |now| {
        if now.as_bytes() == seen.as_slice() {
            Ok(Some(text.clone()))
        } else {
            Err(settings::EditError::ChangedSince { file: path.clone() })
        }
    })?;
    let changed = change.is_some();
    let unjournalled = change.and_then(|change| {
        let mut entry = JournalEntry::now(Operation::Lock, Vec::new());
        entry.settings = vec![change];
        Journal::of(machine).append(&entry).err()
    });
    Ok(LockDone {
        path,
        skills,
        changed,
        unjournalled,
    })
}

/// The entry a lock at `top` holds for the project skill `skill` (one of `copies`, the
/// project's copies of its name), whose files hash to `computed_hash`, where the lock held
/// `before`; and what the entry records. The one rule `lock` and the upkeep of a lock by the
/// other operations (`lock_upkeep`) share, so running `lock` after either changes nothing:
/// - a skill skilldeck fetched from git: where from, as the skills CLI writes that source;
/// - else a source the lock already names (not `local`): kept, skilldeck knows no better;
/// - else a `local` source, its skills folder: the files are the project's own. The skills
///   CLI writes `local` for a skill added from a folder (`sourceType: "local"`, a path
///   relative to the lock, skills 1.5.26 `dist/cli.mjs` `getPortableLocalSource`), and
///   `experimental_install` restores it from that path, which the project itself holds.
///
/// The fields of `before` neither the CLI nor skilldeck writes are kept where they were.
pub fn entry_of(
    data: &Path,
    top: &Path,
    copies: &[&Skill],
    skill: &Skill,
    computed_hash: String,
    before: Option<&Entry>,
) -> (Entry, Locked) {
    let recorded = copies
        .iter()
        .find_map(|copy| upstream::of(data, &copy.real_dir));
    let locked = match (&recorded, before) {
        (Some(upstream), _) => from_upstream(upstream, top, computed_hash),
        (None, Some(entry)) if entry.locked().source_type != LOCAL => Locked {
            computed_hash,
            ..entry.locked()
        },
        (None, _) => local(skill, top, computed_hash),
    };
    let entry = match before {
        Some(old) => old.updated(&locked),
        None => Entry::new(&locked),
    };
    (entry, locked)
}

/// The first of the copies of one name and the hash they all have; two copies with different
/// files cannot be one entry.
fn one_content<'a>(name: &str, copies: &[&'a Skill]) -> Result<(&'a Skill, String), LockOpError> {
    let mut first: Option<(&Skill, String)> = None;
    for &copy in copies {
        let hash = lock::computed_hash(&copy.real_dir)?;
        match &first {
            None => first = Some((copy, hash)),
            Some((one, one_hash)) if *one_hash != hash => {
                return Err(LockOpError::SameName {
                    name: name.to_owned(),
                    first: one.dir.clone(),
                    second: copy.dir.clone(),
                });
            }
            Some(_) => {}
        }
    }
    // project_skills gives each name at least one copy.
    first.ok_or_else(|| LockOpError::NoFolder {
        name: name.to_owned(),
    })
}

/// The entry of a skill skilldeck imported from a git repository, as the skills CLI writes one
/// for the same source (`projectLockEntry`, `getLockSource`, skills 1.7.4): a GitHub
/// repository as `owner/repo`, another host's URL as it is (with `sourceUrl` for `git` and
/// `gitlab`), a repository on this disk as a `local` path beside the lock.
fn from_upstream(upstream: &Upstream, top: &Path, computed_hash: String) -> Locked {
    let repository = upstream.repository.as_str();
    let skill_path = if upstream.path.is_empty() {
        "SKILL.md".to_owned()
    } else {
        format!("{}/SKILL.md", upstream.path.trim_end_matches('/'))
    };
    let (source, source_type, source_url) = match classify(repository) {
        Kind::GitHub(owner_repo) => (owner_repo, "github", None),
        Kind::GitLab => (repository.to_owned(), "gitlab", Some(repository.to_owned())),
        Kind::Git => (repository.to_owned(), "git", Some(repository.to_owned())),
        Kind::Path(path) => (relative_to(top, &path), LOCAL, None),
    };
    Locked {
        source,
        source_type: source_type.to_owned(),
        source_url,
        reference: upstream.reference.clone(),
        skill_path: Some(skill_path),
        computed_hash,
        commit: Some(upstream.commit.clone()),
    }
}

/// A project skill skilldeck knows no source of: its files are the project's own, locked as a
/// `local` source at its skills folder.
fn local(skill: &Skill, top: &Path, computed_hash: String) -> Locked {
    let folder = skill.dir.parent().unwrap_or(top);
    Locked {
        source: relative_to(top, folder),
        source_type: LOCAL.to_owned(),
        source_url: None,
        reference: None,
        skill_path: Some(format!("{}/SKILL.md", skill.dir_name())),
        computed_hash,
        commit: None,
    }
}

enum Kind {
    GitHub(String),
    GitLab,
    Git,
    Path(PathBuf),
}

fn classify(repository: &str) -> Kind {
    if let Some(path) = repository.strip_prefix("file://") {
        return Kind::Path(PathBuf::from(path));
    }
    if repository.starts_with('/') {
        return Kind::Path(PathBuf::from(repository));
    }
    let github = repository
        .strip_prefix("https://github.com/")
        .or_else(|| repository.strip_prefix("http://github.com/"));
    if let Some(rest) = github {
        let rest = rest.trim_end_matches('/');
        let rest = rest.strip_suffix(".git").unwrap_or(rest);
        if rest.split('/').count() == 2 && !rest.split('/').any(str::is_empty) {
            return Kind::GitHub(rest.to_owned());
        }
    }
    if repository.contains("gitlab.com") {
        return Kind::GitLab;
    }
    Kind::Git
}

/// `path` as the skills CLI writes a local source: relative to the lock's folder.
fn relative_to(top: &Path, path: &Path) -> String {
    let top_parts: Vec<_> = top.components().collect();
    let parts: Vec<_> = path.components().collect();
    let common = top_parts
        .iter()
        .zip(&parts)
        .take_while(|(a, b)| a == b)
        .count();
    let mut out: Vec<String> = vec!["..".to_owned(); top_parts.len() - common];
    out.extend(
        parts[common..]
            .iter()
            .map(|part| part.as_os_str().to_string_lossy().into_owned()),
    );
    let joined = out.join("/");
    if joined.is_empty() {
        ".".to_owned()
    } else if joined.starts_with("..") {
        joined
    } else {
        format!("./{joined}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repositories_become_the_sources_the_cli_writes() {
        let up = |repository: &str| Upstream {
            repository: repository.into(),
            reference: None,
            commit: "0".repeat(40),
            path: "skills/a".into(),
        };
        let top = Path::new("/w/project");
        let locked = |r: &str| from_upstream(&up(r), top, "h".into());
        let github = locked("https://github.com/owner/repo.git");
        assert_eq!(
            (github.source.as_str(), github.source_type.as_str()),
            ("owner/repo", "github")
        );
        assert_eq!(github.source_url, None);
        assert_eq!(github.skill_path.as_deref(), Some("skills/a/SKILL.md"));
        let other = locked("https://git.example.org/t/r.git");
        assert_eq!(other.source_type, "git");
        assert_eq!(
            other.source_url.as_deref(),
            Some("https://git.example.org/t/r.git")
        );
        assert_eq!(locked("https://gitlab.com/t/r").source_type, "gitlab");
        let disk = locked("/w/skills-repo");
        assert_eq!(
            (disk.source.as_str(), disk.source_type.as_str()),
            ("../skills-repo", LOCAL)
        );
        assert_eq!(locked("file:///w/project/vendor/r").source, "./vendor/r");
        assert_eq!(relative_to(top, top), ".");
    }

    #[test]
    fn only_the_roots_in_a_dot_folder_of_the_top_are_the_locks() {
        let top = Path::new("/w/project");
        assert!(root_at_top(Path::new("/w/project/.agents/skills"), top));
        assert!(root_at_top(Path::new("/w/project/.claude/skills"), top));
        // A package's own roots below the top, and roots elsewhere, are not.
        assert!(!root_at_top(
            Path::new("/w/project/app/.claude/skills"),
            top
        ));
        assert!(!root_at_top(Path::new("/home/u/.claude/skills"), top));
        assert!(!root_at_top(top, top));
    }
}
