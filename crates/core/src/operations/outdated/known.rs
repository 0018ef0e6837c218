//! What each installer's record says of a skill's upstream, and so what can be asked of it:
//! skilldeck's own record and Claude Code's plugin installs and SkillPort name the commit
//! installed (asked with `git ls-remote`); the skills CLI's global lock and gh skill name the
//! git tree of the skill's folder (asked with a fetch of trees alone); Codex, Copilot and
//! Gemini CLI name only the version installed, and SkillKit and OpenSkills neither, which is
//! said rather than guessed at.

use std::path::Path;

use crate::ownership::{self, Installer, Owner};
use crate::record::upstream::{self, Upstream};
use crate::scan::Skill;
use crate::source::git::Spec;
use crate::source::{self, Source};

/// The record skilldeck's own imports are told by, as `Checked::record` names it.
pub const SKILLDECK: &str = "skilldeck";

/// One skill's upstream as a record gives it, and the question that tells whether it moved.
#[derive(Debug)]
pub struct Known {
    /// The installer whose record it is, by the name listings give it.
    pub record: String,
    pub upstream: Upstream,
    pub ask: Ask,
}

/// What can be asked of upstream about a skill.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ask {
    /// Where the ref is now, against the commit recorded (`upstream.commit`).
    Commit(Spec),
    /// The id of the folder's git tree now (`Spec::path`), against `recorded`.
    Tree { spec: Spec, recorded: String },
    /// The record pins a ref that never moves.
    Pinned,
    /// Nothing: the sentence says why.
    Cannot(String),
}

/// The skill's upstream as skilldeck's record or, failing that, its installer's gives it; `None`
/// when no record names where it came from.
pub fn of(data_dir: &Path, skill: &Skill) -> Option<Known> {
    if let Some(upstream) = upstream::of(data_dir, &skill.real_dir) {
        let spec = Spec {
            path: None,
            ..Spec::recorded(&upstream)
        };
        return Some(Known {
            record: SKILLDECK.to_owned(),
            upstream,
            ask: Ask::Commit(spec),
        });
    }
    let owner = skill.owner.as_deref()?;
    let recorded = owner.upstream.as_ref()?;
    let installer = owner.installer.name().to_owned();
    let versions_only = matches!(
        owner.installer,
        Installer::CodexPlugin | Installer::CopilotPlugin | Installer::GeminiExtension
    );
    let upstream = Upstream {
        repository: recorded.repository.clone().unwrap_or_default(),
        // What these managers record as a ref is the version installed, no git ref.
        reference: recorded.reference.clone().filter(|_| !versions_only),
        commit: recorded.commit.clone().unwrap_or_default(),
        path: recorded.path.clone().unwrap_or_default(),
    };
    let ask = ask(skill, owner, recorded, &upstream, versions_only);
    Some(Known {
        record: installer,
        upstream,
        ask,
    })
}

fn ask(
    skill: &Skill,
    owner: &Owner,
    recorded: &ownership::Upstream,
    upstream: &Upstream,
    versions_only: bool,
) -> Ask {
    let installer = owner.installer.name();
    if upstream.repository.is_empty() {
        return Ask::Cannot(format!(
            "{installer}'s record names no repository it came from, so there is nothing to ask"
        ));
    }
    if versions_only {
        let version = recorded
            .reference
            .as_deref()
            .map(|v| format!(" ({v})"))
            .unwrap_or_default();
        return Ask::Cannot(format!(
            "{installer} records the version it installed{version}, not a commit or a hash, so whether its repository has moved past it cannot be told without fetching it and reading its manifest"
        ));
    }
    let tree = owner.hash.clone().filter(|hash| is_git_tree_id(hash));
    match owner.installer {
        Installer::GhSkill if skill.declared.metadata("github-pinned").is_some() => Ask::Pinned,
        Installer::SkillsCli | Installer::GhSkill => match tree {
            Some(recorded) => match spec(installer, upstream) {
                Ok(spec) => Ask::Tree { spec, recorded },
                Err(cannot) => cannot,
            },
            None if owner.hash.is_some() => Ask::Cannot(format!(
                "{installer} recorded a SHA-256 of the files, not their git tree, so whether upstream changed cannot be told without fetching the files"
            )),
            None => Ask::Cannot(format!(
                "{installer} recorded no hash of the folder to compare upstream's with"
            )),
        },
        Installer::ClaudePlugin | Installer::Skillport if !upstream.commit.is_empty() => {
            match spec(installer, upstream) {
                Ok(spec) => Ask::Commit(Spec { path: None, ..spec }),
                Err(cannot) => cannot,
            }
        }
        _ => Ask::Cannot(format!(
            "{installer} records where it came from but no commit or hash of it, so there is nothing to compare upstream with"
        )),
    }
}

/// The repository `upstream` names as git is asked for it: a URL, `OWNER/REPO`, or a local
/// repository; a folder that is no repository is said.
fn spec(installer: &str, upstream: &Upstream) -> Result<Spec, Ask> {
    let path = Some(upstream.path.as_str()).filter(|p| !p.is_empty());
    match source::parse(Path::new(&upstream.repository), path) {
        Source::Git(mut spec) => {
            if upstream.reference.is_some() {
                spec.reference.clone_from(&upstream.reference);
            }
            Ok(spec)
        }
        // A repository that is gone is asked all the same, for git to say it cannot be.
        Source::Local(dir) if dir.is_absolute() && !dir.exists() => {
            Ok(Spec::local(&dir, upstream.reference.as_deref(), path))
        }
        Source::Local(_) => Err(Ask::Cannot(format!(
            "{installer} installed it from a folder that is no git repository, so there is nothing to ask"
        ))),
    }
}

/// A SHA-1 git object id, as the skills CLI's and gh skill's tree hashes are; the skills CLI's
/// other hash, SHA-256 over the files, has 64 digits.
fn is_git_tree_id(hash: &str) -> bool {
    hash.len() == 40 && hash.bytes().all(|b| b.is_ascii_hexdigit())
}
