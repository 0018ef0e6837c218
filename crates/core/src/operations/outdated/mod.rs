//! Which installed skills their upstream has moved past: for every skill whose upstream a
//! record names (skilldeck's own, `record::upstream`, or the installer's that put it there:
//! the skills CLI's locks, gh skill's metadata, Claude Code's plugin installs, ... — see
//! [`known`]), whether upstream has moved past what was recorded — the commit the ref was at
//! (`git ls-remote`, no contents fetched; when it moved, the skill's own folder's trees at
//! both commits, so a commit elsewhere in the repository moves no skill), or the git tree of
//! the skill's folder (a fetch of trees alone) — and whether the local copy was edited since (the skill's state against that
//! record). Network only when asked: the last results are kept with their time, so the app
//! and `outdated --offline` show them without asking again.

mod known;

use std::path::PathBuf;
use std::rc::Rc;
use std::time::SystemTime;

use serde::{Deserialize, Serialize};

use crate::fs::replace_file;
use crate::operations::progress::{Progress, Step};
use crate::record::State;
use crate::record::upstream::{self, Upstream};
use crate::roots::Machine;
use crate::scan::Inventory;
use crate::source::git::{self, Latest, Spec};

use known::{Ask, Known};

/// One skill's answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Checked {
    pub name: String,
    pub dir: PathBuf,
    /// Where the record says it came from; `commit` empty when the record names none.
    pub upstream: Upstream,
    /// What upstream holds now, of the kind [`Checked::compares`] names: the commit the ref is
    /// at, or the folder's tree id. `None` when the repository could not be asked (`error`
    /// says why), the ref is a commit id (`pinned`), or the record gives nothing to compare
    /// (`note` says why).
    pub latest: Option<String>,
    pub pinned: bool,
    /// The files differ from what the record says was installed or last updated.
    pub edited: bool,
    pub error: Option<String>,
    /// Whose record the upstream comes from: `skilldeck`, or the installer by the name the
    /// listing gives it (`skills-cli`, `gh-skill`, `claude-plugin`, ...).
    #[serde(default = "skilldeck")]
    pub record: String,
    #[serde(default)]
    pub compares: Compares,
    /// The tree id the record holds, when that is what is compared.
    #[serde(default)]
    pub recorded: Option<String>,
    /// Whether `edited` could be told: the files could be checked against the record.
    #[serde(default = "yes")]
    pub edits_known: bool,
    /// What cannot be told of this skill, and why.
    #[serde(default)]
    pub note: Option<String>,
    /// The ref moved to another commit, but the skill's own folder holds the same git tree at
    /// both: only other files of the repository changed, so the skill is up to date.
    #[serde(default)]
    pub folder_same: bool,
}

/// What a record lets upstream be compared by.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Compares {
    /// The commit the ref is at, against the commit recorded.
    #[default]
    Commit,
    /// The git tree of the skill's folder, against the tree id recorded: only a change to the
    /// skill's own files moves it.
    Tree,
    /// Nothing the record holds can be compared (`note` says why).
    Nothing,
}

fn skilldeck() -> String {
    known::SKILLDECK.to_owned()
}

fn yes() -> bool {
    true
}

/// What the check found of one skill's upstream: the one verdict both front ends say.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// The ref is a commit id, which never moves.
    Pinned,
    /// Upstream holds something other than what the skill was installed from.
    Moved,
    UpToDate,
    /// The record holds nothing to compare ([`Checked::note`] says why).
    CannotTell,
    /// The repository could not be asked ([`Checked::error`] says why).
    Failed,
    /// Nothing was asked, and nothing says why.
    NotAsked,
}

impl Checked {
    /// Upstream holds something other than what the skill was installed from.
    pub fn moved(&self) -> Option<bool> {
        self.latest
            .as_ref()
            .map(|latest| !latest.eq_ignore_ascii_case(self.was()) && !self.folder_same)
    }

    /// What upstream was compared against: the tree id recorded, else the commit.
    pub fn was(&self) -> &str {
        self.recorded.as_deref().unwrap_or(&self.upstream.commit)
    }

    pub fn status(&self) -> Status {
        match (self.moved(), self.pinned) {
            (_, true) => Status::Pinned,
            (Some(true), _) => Status::Moved,
            (Some(false), _) => Status::UpToDate,
            (None, _) if self.note.is_some() => Status::CannotTell,
            (None, _) if self.error.is_some() => Status::Failed,
            (None, _) => Status::NotAsked,
        }
    }

    /// What moved, as both front ends say it: source → destination, the id the skill was
    /// installed from first and the one upstream holds now (`tree 1a2b3c4d5e6f → 9f8e…`), as
    /// every arrow of skilldeck points old → new.
    pub fn change(&self) -> String {
        format!(
            "{}{} → {}",
            if self.compares == Compares::Tree {
                "tree "
            } else {
                ""
            },
            short(self.was()),
            short(self.latest.as_deref().unwrap_or_default())
        )
    }

    /// Whether the local copy was edited since, when that can be told.
    pub fn edits(&self) -> Option<bool> {
        self.edits_known.then_some(self.edited)
    }
}

impl Outdated {
    /// Some upstream moved, or could not be asked: what `outdated`'s exit code says.
    pub fn behind(&self) -> bool {
        self.skills
            .iter()
            .any(|c| c.status() == Status::Moved || c.error.is_some())
    }
}

/// A commit or tree id as people read it: its first 12 characters.
pub fn short(id: &str) -> &str {
    id.get(..12).unwrap_or(id)
}

/// Why a folder's tree could not be told.
#[derive(Clone, Debug, thiserror::Error)]
enum TreeError {
    #[error(transparent)]
    Fetch(Rc<git::FetchError>),
    #[error("{0} was not asked")]
    NotAsked(String),
}

/// The answers, with when the repositories were asked.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outdated {
    pub checked_at: SystemTime,
    pub skills: Vec<Checked>,
}

/// The file the last answers are kept in.
fn kept(machine: &Machine) -> PathBuf {
    machine.data_dir().join("outdated.json")
}

/// Ask each repository a record names (each repository and ref once) where the skills
/// recorded from it are now, keeping the answers for [`last`]; `progress` hears each
/// repository asked.
pub fn check(machine: &Machine, inventory: &Inventory, progress: &mut dyn Progress) -> Outdated {
    let progress = &mut |said: &str| progress.step(Step::Said(said));
    let data = machine.data_dir();
    let found: Vec<(&crate::scan::Skill, Known)> = inventory
        .skills
        .iter()
        .filter_map(|skill| known::of(&data, skill).map(|known| (skill, known)))
        .collect();
    // Each repository and ref is asked once; the skills recorded from it share the answer.
    let mut commits: Vec<(Spec, Result<Latest, Rc<git::FetchError>>)> = Vec::new();
    let trees = ask_trees(&found, progress);
    let mut skills = Vec::new();
    // The skills whose ref moved, by their place in `skills`, with the repository asked.
    let mut moved_repositories: Vec<(usize, Spec)> = Vec::new();
    for (skill, known) in found {
        let mut checked = Checked {
            name: skill.name.clone(),
            dir: skill.dir.clone(),
            upstream: known.upstream,
            latest: None,
            pinned: false,
            edited: skill.state == State::Modified,
            error: None,
            record: known.record,
            compares: Compares::Commit,
            recorded: None,
            edits_known: matches!(skill.state, State::Intact | State::Modified),
            note: None,
            folder_same: false,
        };
        match known.ask {
            Ask::Commit(spec) => {
                let answer = match commits.iter().find(|(s, _)| *s == spec) {
                    Some((_, answer)) => answer.clone(),
                    None => {
                        let answer = git::latest(&spec, progress).map_err(Rc::new);
                        commits.push((spec.clone(), answer.clone()));
                        answer
                    }
                };
                match answer {
                    Ok(Latest::Commit(commit)) => {
                        if !commit.eq_ignore_ascii_case(&checked.upstream.commit) {
                            moved_repositories.push((skills.len(), spec));
                        }
                        checked.latest = Some(commit);
                    }
                    Ok(Latest::Pinned) => checked.pinned = true,
                    Err(error) => checked.error = Some(error.to_string()),
                }
            }
            Ask::Tree { spec, recorded } => {
                checked.compares = Compares::Tree;
                checked.recorded = Some(recorded);
                match tree_of(&trees, &spec) {
                    Ok(Some(tree)) => checked.latest = Some(tree),
                    Ok(None) => {
                        checked.error = Some(format!(
                            "{} no longer has the folder {}",
                            without_path(spec.clone()).shown(),
                            spec.path.as_deref().unwrap_or("")
                        ));
                    }
                    Err(error) => checked.error = Some(error.to_string()),
                }
            }
            Ask::Pinned => checked.pinned = true,
            Ask::Cannot(why) => {
                checked.compares = Compares::Nothing;
                checked.note = Some(why);
            }
        }
        skills.push(checked);
    }
    same_folders(&mut skills, &moved_repositories, progress);
    let outdated = Outdated {
        checked_at: SystemTime::now(),
        skills,
    };
    // Keeping the answers only saves asking again: a failure leaves the last ones.
    if let Ok(json) = serde_json::to_vec_pretty(&outdated) {
        let _ = replace_file(&kept(machine), &json);
    }
    outdated
}

/// For each skill whose ref moved (`moved`: its place in `skills` and its repository), whether
/// its own folder holds the same git tree at the commit recorded and at the one the ref is at
/// now: a commit that changed other files of the repository leaves the skill up to date. Each
/// repository is fetched once (trees only) for all its skills; one that cannot be leaves them
/// moved, as the commits say.
fn same_folders(skills: &mut [Checked], moved: &[(usize, Spec)], progress: &mut dyn FnMut(&str)) {
    let mut repositories: Vec<&Spec> = Vec::new();
    for (_, spec) in moved {
        if !repositories.contains(&spec) {
            repositories.push(spec);
        }
    }
    for repository in repositories {
        let these: Vec<usize> = moved
            .iter()
            .filter(|(_, spec)| spec == repository)
            .map(|(at, _)| *at)
            .collect();
        let mut commits: Vec<String> = Vec::new();
        let mut folders: Vec<String> = Vec::new();
        for &at in &these {
            let checked = &skills[at];
            let wanted = [
                checked.upstream.commit.clone(),
                checked.latest.clone().unwrap_or_default(),
            ];
            for commit in wanted {
                if !commits.contains(&commit) {
                    commits.push(commit);
                }
            }
            if !folders.contains(&checked.upstream.path) {
                folders.push(checked.upstream.path.clone());
            }
        }
        let asked: Vec<&str> = commits.iter().map(String::as_str).collect();
        let in_folders: Vec<&str> = folders.iter().map(String::as_str).collect();
        let Ok(trees) = git::trees_at(repository, &asked, &in_folders, progress) else {
            continue;
        };
        let tree = |commit: &str, folder: &str| {
            let c = commits.iter().position(|c| c == commit)?;
            let f = folders.iter().position(|f| f == folder)?;
            trees.get(c)?.get(f)?.clone()
        };
        for at in these {
            let checked = &mut skills[at];
            let latest = checked.latest.clone().unwrap_or_default();
            let was = tree(&checked.upstream.commit, &checked.upstream.path);
            checked.folder_same = was.is_some() && was == tree(&latest, &checked.upstream.path);
        }
    }
}

/// Each repository and ref a tree is asked of, fetched once for all its skills' folders.
type TreeAnswers = Vec<(Spec, Vec<String>, Result<Vec<Option<String>>, TreeError>)>;

fn ask_trees(
    found: &[(&crate::scan::Skill, Known)],
    progress: &mut dyn FnMut(&str),
) -> TreeAnswers {
    let mut wanted: Vec<(Spec, Vec<String>)> = Vec::new();
    for (_, known) in found {
        if let Ask::Tree { spec, .. } = &known.ask {
            let folder = spec.path.clone().unwrap_or_default();
            let repository = without_path(spec.clone());
            match wanted.iter_mut().find(|(s, _)| *s == repository) {
                Some((_, folders)) if folders.contains(&folder) => {}
                Some((_, folders)) => folders.push(folder),
                None => wanted.push((repository, vec![folder])),
            }
        }
    }
    wanted
        .into_iter()
        .map(|(spec, folders)| {
            let asked: Vec<&str> = folders.iter().map(String::as_str).collect();
            let answer = git::trees(&spec, &asked, progress)
                .map(|trees| trees.trees)
                .map_err(|e| TreeError::Fetch(Rc::new(e)));
            (spec, folders, answer)
        })
        .collect()
}

/// The answer for `spec`'s folder among `answers`.
fn tree_of(answers: &TreeAnswers, spec: &Spec) -> Result<Option<String>, TreeError> {
    let folder = spec.path.clone().unwrap_or_default();
    let repository = without_path(spec.clone());
    let Some((_, folders, answer)) = answers.iter().find(|(s, _, _)| *s == repository) else {
        return Err(TreeError::NotAsked(repository.shown()));
    };
    let trees = answer.as_ref().map_err(Clone::clone)?;
    let at = folders.iter().position(|f| *f == folder);
    Ok(at.and_then(|at| trees.get(at).cloned().flatten()))
}

/// The answers the last [`check`] kept, without asking anyone; `None` when there are none (or
/// they do not parse).
pub fn last(machine: &Machine) -> Option<Outdated> {
    let bytes = crate::fs::read_bounded(
        &kept(machine),
        crate::fs::Links::Refuse,
        crate::limits::OUTDATED_FILE_BYTES,
    )
    .ok()?;
    let mut outdated: Outdated = serde_json::from_slice(&bytes).ok()?;
    // Against the commit each skill skilldeck imported is recorded at now: one updated since
    // the check is not said to be behind the commit it now holds.
    let data = machine.data_dir();
    for checked in &mut outdated.skills {
        if let Some(now) = upstream::of(&data, &checked.dir) {
            checked.upstream = now;
        }
    }
    Some(outdated)
}

/// The repository and ref alone: one question answers every skill fetched from it.
fn without_path(spec: Spec) -> Spec {
    Spec { path: None, ..spec }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn checked(latest: Option<&str>) -> Checked {
        Checked {
            name: "pdf".to_owned(),
            dir: PathBuf::from("/skills/pdf"),
            upstream: Upstream {
                repository: "acme/tools".to_owned(),
                reference: Some("main".to_owned()),
                commit: "aaaa".to_owned(),
                path: String::new(),
            },
            latest: latest.map(str::to_owned),
            pinned: false,
            edited: false,
            error: None,
            record: skilldeck(),
            compares: Compares::Commit,
            recorded: None,
            edits_known: true,
            note: None,
            folder_same: false,
        }
    }

    #[test]
    fn what_moved_reads_installed_then_upstream() {
        let commit = Checked {
            upstream: Upstream {
                commit: "0123456789abcdef".to_owned(),
                ..checked(None).upstream
            },
            ..checked(Some("fedcba9876543210"))
        };
        assert_eq!(commit.change(), "0123456789ab → fedcba987654");
        let tree = Checked {
            compares: Compares::Tree,
            recorded: Some("1111".to_owned()),
            ..checked(Some("2222"))
        };
        assert_eq!(tree.change(), "tree 1111 → 2222");
    }

    #[test]
    fn one_status_for_every_answer() {
        assert_eq!(checked(Some("AAAA")).status(), Status::UpToDate);
        assert_eq!(checked(Some("bbbb")).status(), Status::Moved);
        let only_others = Checked {
            folder_same: true,
            ..checked(Some("bbbb"))
        };
        assert_eq!(only_others.status(), Status::UpToDate);
        let tree = Checked {
            recorded: Some("bbbb".to_owned()),
            compares: Compares::Tree,
            ..checked(Some("bbbb"))
        };
        assert_eq!(
            tree.status(),
            Status::UpToDate,
            "the tree is compared, not the commit"
        );
        assert_eq!(tree.was(), "bbbb");
        let pinned = Checked {
            pinned: true,
            ..checked(None)
        };
        assert_eq!(pinned.status(), Status::Pinned);
        let note = Checked {
            note: Some("Codex records only a version".to_owned()),
            compares: Compares::Nothing,
            ..checked(None)
        };
        assert_eq!(note.status(), Status::CannotTell);
        let failed = Checked {
            error: Some("git could not fetch".to_owned()),
            ..checked(None)
        };
        assert_eq!(failed.status(), Status::Failed);
        assert_eq!(checked(None).status(), Status::NotAsked);
    }

    #[test]
    fn behind_when_one_moved_or_could_not_be_asked() {
        let of = |skills| Outdated {
            checked_at: SystemTime::UNIX_EPOCH,
            skills,
        };
        assert!(!of(vec![checked(Some("aaaa")), checked(None)]).behind());
        assert!(of(vec![checked(Some("aaaa")), checked(Some("bbbb"))]).behind());
        let failed = Checked {
            error: Some("no network".to_owned()),
            ..checked(None)
        };
        assert!(of(vec![failed]).behind());
    }

    #[test]
    fn edits_unknown_are_not_said_to_be_none() {
        let unknown = Checked {
            edited: false,
            edits_known: false,
            ..checked(None)
        };
        assert_eq!(unknown.edits(), None);
        let edited = Checked {
            edited: true,
            ..checked(None)
        };
        assert_eq!(edited.edits(), Some(true));
        assert_eq!(short("0123456789abcdef"), "0123456789ab");
        assert_eq!(short("é"), "é", "a short id is kept whole");
    }
}
