//! The JSON shapes that scripts rely on (docs/json.md). Fields are only ever added.
//!
//! Paths are written as text; a name that is not UTF-8 is written lossily rather than failing
//! the whole listing.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::path::Path;

use serde::Serialize;

use crate::bundle::{Bundle, BundledSkill};
use crate::install::{Action, Installed, Step};
use crate::operations::lock_state::{LockState, LockStates};
use crate::operations::lock_upkeep::Upkeep;
use crate::operations::shadow::WouldShadow;
use crate::ownership::{Installer, Method, Owner, Upstream};
use crate::record::{Digest, Record, State};
use crate::roots::{AgentId, Effect, Source};
use crate::scan::{Builtin, Inventory, RootEntry, Skill};
use crate::usage::{Reading, Usage};

use super::agents::Shown;

#[derive(Serialize)]
pub struct RootJson<'a> {
    pub path: Cow<'a, str>,
    pub source: Source,
    pub agents: Vec<AgentId>,
    pub exists: bool,
    pub labels: Vec<&'static str>,
    pub skills: usize,
    pub problems: Vec<String>,
}

impl<'a> RootJson<'a> {
    pub fn new(entry: &'a RootEntry) -> Self {
        let mut labels: Vec<&'static str> = Vec::new();
        for label in entry.root.uses.iter().map(|u| u.rule.label) {
            if !labels.contains(&label) {
                labels.push(label);
            }
        }
        Self {
            path: entry.root.path.to_string_lossy(),
            source: entry.root.scope().source(),
            agents: entry.root.agents(),
            exists: entry.root.state == crate::roots::RootState::Directory,
            labels,
            skills: entry.skills,
            problems: entry.notes.iter().map(ToString::to_string).collect(),
        }
    }
}

#[derive(Serialize)]
pub struct ShadowingJson<'a> {
    pub agent: AgentId,
    pub winner: Cow<'a, str>,
}

/// Who installed a skill and what its record says: agent-skill-installer's three fields when
/// the record is one of its, and for every installer the fields after them.
#[derive(Serialize)]
pub struct RecordJson<'a> {
    #[serde(flatten)]
    pub agent_skill_installer: Option<&'a Record>,
    pub installer: &'a Installer,
    pub upstream: Option<&'a Upstream>,
    pub recorded_in: Cow<'a, str>,
    pub hash: Option<&'a str>,
    pub verified_by: Option<Method>,
    pub note: Option<&'a str>,
    pub pristine: Option<Cow<'a, str>>,
}

impl<'a> RecordJson<'a> {
    pub fn new(owner: &'a Owner, record: Option<&'a Record>) -> Self {
        Self {
            agent_skill_installer: record,
            installer: &owner.installer,
            upstream: owner.upstream.as_ref(),
            recorded_in: owner.recorded_in.to_string_lossy(),
            hash: owner.hash.as_deref(),
            verified_by: owner.method,
            note: owner.note.as_deref(),
            pristine: owner.pristine.as_deref().map(Path::to_string_lossy),
        }
    }
}

#[derive(Serialize)]
pub struct SkillJson<'a> {
    pub name: &'a str,
    pub dir: Cow<'a, str>,
    pub source: Source,
    /// The agents that load it, those installed here unless `--all-agents` was given.
    pub agents: Vec<AgentId>,
    pub record: Option<RecordJson<'a>>,
    pub state: State,
    pub digest: Option<&'a Digest>,
    pub shadowed_by: Vec<Cow<'a, str>>,
    pub problems: Vec<String>,
    pub description: Option<&'a str>,
    pub plugin: Option<&'a str>,
    pub is_link: bool,
    pub real_dir: Cow<'a, str>,
    pub reached_by: Vec<Cow<'a, str>>,
    pub shadowing: Vec<ShadowingJson<'a>>,
    /// The name each agent lists it by, where that is not `name`.
    pub loaded_as: BTreeMap<AgentId, Cow<'a, str>>,
    /// Agents that load one of several copies of its name, not always this one.
    pub unsettled_for: &'a [AgentId],
    /// Agents that read its folder but drop it, or keep it from their model.
    pub left_out: Vec<LeftOutJson>,
    /// Agents whose own settings turn it off (`skilldeck disable`), of those it shows.
    pub disabled_for: Vec<AgentId>,
    pub files: usize,
}

#[derive(Serialize)]
pub struct LeftOutJson {
    pub agent: AgentId,
    /// `dropped` or `from-model`.
    pub effect: &'static str,
    pub why: &'static str,
}

/// A skill an agent ships inside itself.
#[derive(Serialize)]
pub struct BuiltinJson<'a> {
    pub agent: AgentId,
    pub name: &'a str,
    pub overridden_by: Option<Cow<'a, str>>,
}

impl<'a> SkillJson<'a> {
    pub fn new(skill: &'a Skill, shown: Shown<'_>) -> Self {
        let mut winners: Vec<&Path> = skill
            .shadowed_by
            .iter()
            .map(|s| s.winner.as_path())
            .collect();
        winners.sort();
        winners.dedup();
        Self {
            name: &skill.name,
            dir: skill.dir.to_string_lossy(),
            source: skill.source,
            agents: shown.of(&skill.agents),
            record: skill
                .owner
                .as_ref()
                .map(|owner| RecordJson::new(owner, skill.record.as_deref())),
            state: skill.state,
            digest: skill.digest.as_ref(),
            shadowed_by: winners.into_iter().map(Path::to_string_lossy).collect(),
            problems: skill.problems.iter().map(ToString::to_string).collect(),
            description: skill.declared.description.as_deref(),
            plugin: skill.plugin.as_deref(),
            is_link: skill.is_link,
            real_dir: skill.real_dir.to_string_lossy(),
            reached_by: skill
                .reached_by
                .iter()
                .map(|p| p.to_string_lossy())
                .collect(),
            shadowing: skill
                .shadowed_by
                .iter()
                .map(|s| ShadowingJson {
                    agent: s.agent,
                    winner: s.winner.to_string_lossy(),
                })
                .collect(),
            loaded_as: skill
                .agents
                .iter()
                .map(|&agent| (agent, skill.name_for(agent)))
                .filter(|(_, name)| *name != skill.name)
                .collect(),
            unsettled_for: &skill.unsettled_for,
            left_out: skill
                .left_out
                .iter()
                .map(|l| LeftOutJson {
                    agent: l.agent,
                    effect: match l.effect {
                        Effect::Dropped => "dropped",
                        Effect::FromModel => "from-model",
                        Effect::Disabled => "disabled",
                        Effect::BreaksListing => "breaks-listing",
                    },
                    why: l.why,
                })
                .collect(),
            disabled_for: shown.of(&skill.disabled_for()),
            files: skill.files.len(),
        }
    }
}

/// A skill as `list --json` gives it: with each agent's uses of it, when usage was read.
#[derive(Serialize)]
pub struct ListedSkillJson<'a> {
    #[serde(flatten)]
    pub skill: SkillJson<'a>,
    /// Each agent's uses, in agent order; empty for a skill never used, or with `--no-usage`.
    pub usage: Vec<AgentUseJson>,
    /// The latest use by any agent (RFC 3339), or null.
    pub last_used: Option<String>,
    /// What `skilldeck audit` finds in it (how many findings, and the most severe), with
    /// `list --json --audit`; absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub audit: Option<crate::audit::Summary>,
    /// A project skill against its project's `skills-lock.json`: `locked`, `differing` or
    /// `unlocked`; absent when the project has no lock, and for every other skill.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lock: Option<LockState>,
}

#[derive(Serialize)]
pub struct AgentUseJson {
    pub agent: AgentId,
    pub uses: u64,
    pub last_used: Option<String>,
    /// `counter` (the agent's own lifetime count) or `sessions` (the session logs read).
    pub from: &'static str,
}

/// What was read to find the uses.
#[derive(Serialize)]
pub struct ReadingJson {
    /// The session files whose uses count (read now or held unchanged in the cache).
    pub sessions: usize,
    /// The files read from disk this time, counters included.
    pub files: usize,
    pub bytes: u64,
    pub unread: usize,
    pub cached: usize,
    pub broken: usize,
}

impl ReadingJson {
    fn new(reading: &Reading) -> Self {
        Self {
            sessions: reading.sessions,
            files: reading.files,
            bytes: reading.bytes,
            unread: reading.unread,
            cached: reading.cached,
            broken: reading.broken,
        }
    }
}

/// A time as the JSON shapes give it: RFC 3339, to the second, in UTC.
pub fn time(at: std::time::SystemTime) -> String {
    humantime::format_rfc3339_seconds(at).to_string()
}

impl<'a> ListedSkillJson<'a> {
    fn new(
        skill: &'a Skill,
        shown: Shown<'_>,
        usage: Option<&Usage>,
        audit: Option<crate::audit::Summary>,
        locks: Option<&LockStates>,
    ) -> Self {
        let uses = usage.map(|usage| usage.of(skill)).unwrap_or_default();
        Self {
            audit,
            lock: locks.and_then(|locks| locks.of(&skill.dir)),
            skill: SkillJson::new(skill, shown),
            last_used: uses.iter().filter_map(|u| u.uses.last).max().map(time),
            usage: uses
                .iter()
                .map(|u| AgentUseJson {
                    agent: u.agent,
                    uses: u.uses.count,
                    last_used: u.uses.last.map(time),
                    from: u.from.as_str(),
                })
                .collect(),
        }
    }
}

#[derive(Serialize)]
pub struct ListJson<'a> {
    /// Every root, with every agent that reads it.
    pub roots: Vec<RootJson<'a>>,
    pub skills: ListedSkillsJson<'a>,
    pub builtin: Vec<BuiltinJson<'a>>,
    /// Installers' files that could not be used as they are.
    pub problems: Vec<String>,
    #[serde(flatten)]
    pub agents: AgentsJson<'a>,
    /// What was read for the skills' usage; null with `--no-usage`.
    pub usage_read: Option<ReadingJson>,
}

/// The skills of a listing, each made into its JSON as it is written rather than all held at
/// once: at 20,000 skills those values cost megabytes the inventory already holds.
pub struct ListedSkillsJson<'a> {
    skills: Vec<&'a Skill>,
    shown: Shown<'a>,
    usage: Option<&'a Usage>,
    /// Each skill's audit, in the order of `skills`.
    audits: &'a [crate::audit::Summary],
    /// Each project skill against the project's lock, when it has one.
    pub locks: Option<&'a LockStates>,
}

impl Serialize for ListedSkillsJson<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.skills.iter().enumerate().map(|(index, skill)| {
            let audit = self.audits.get(index).copied();
            ListedSkillJson::new(skill, self.shown, self.usage, audit, self.locks)
        }))
    }
}

/// Which agents the skills' `agents` name: those installed here, or every one.
#[derive(Serialize)]
pub struct AgentsJson<'a> {
    pub installed_agents: &'a [AgentId],
    pub all_agents: bool,
}

impl<'a> AgentsJson<'a> {
    pub fn new(shown: Shown<'a>) -> Self {
        Self {
            installed_agents: shown.installed,
            all_agents: shown.all,
        }
    }
}

impl<'a> ListJson<'a> {
    /// Every root of `inventory`, with the `skills` and `builtins` of it a listing keeps, and
    /// the skills' uses when `usage` was read.
    pub fn new(
        inventory: &'a Inventory,
        skills: &[&'a Skill],
        builtins: &[&'a Builtin],
        shown: Shown<'a>,
        usage: Option<&'a Usage>,
    ) -> Self {
        Self {
            roots: inventory.roots.iter().map(RootJson::new).collect(),
            skills: ListedSkillsJson {
                skills: skills.to_vec(),
                shown,
                usage,
                audits: &[],
                locks: None,
            },
            builtin: builtins
                .iter()
                .map(|b| BuiltinJson {
                    agent: b.agent,
                    name: b.name,
                    overridden_by: b.overridden_by.as_deref().map(Path::to_string_lossy),
                })
                .collect(),
            problems: inventory.problems.iter().map(ToString::to_string).collect(),
            agents: AgentsJson::new(shown),
            usage_read: usage.map(|usage| ReadingJson::new(&usage.reading)),
        }
    }

    /// The listing with each skill's audit, `audits` in the order of its skills.
    pub fn with_audits(mut self, audits: &'a [crate::audit::Summary]) -> Self {
        self.skills.audits = audits;
        self
    }
}

/// `import --json` refused: the code of the contract and the sentence.
#[derive(Serialize)]
pub struct RefusedJson {
    pub refused: RefusalJson,
}

#[derive(Serialize)]
pub struct RefusalJson {
    pub code: &'static str,
    pub message: String,
}

impl RefusedJson {
    pub fn new(code: &'static str, message: &str) -> Self {
        Self {
            refused: RefusalJson {
                code,
                message: message.to_owned(),
            },
        }
    }
}

/// `import --dry-run --json`: the chosen skills with their files, and what the bundle left out.
#[derive(Serialize)]
pub struct PreviewJson<'a> {
    pub skills: Vec<PreviewSkillJson<'a>>,
    pub left_out: &'a [String],
    pub set_aside: &'a [String],
    pub notes: &'a [String],
    /// Each `SKILL.md` the bundle holds that is not one of its skills' manifests, with why.
    pub passed_over: Vec<PassedOverJson<'a>>,
    /// For a git source: where the bundle was fetched from, as it will be recorded.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub upstream: Option<&'a crate::record::upstream::Upstream>,
    /// With a destination: the folder, and the agents that would load the skills there.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub destination: Option<DestinationJson<'a>>,
    /// With a destination: who would run which copy, as [`ImportedJson::shadowing`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shadowing: Option<Vec<ShadowJson<'a>>>,
}

#[derive(Serialize)]
pub struct DestinationJson<'a> {
    pub dir: Cow<'a, str>,
    /// The agents that read `dir`: those installed here unless `all_agents`.
    pub agents: Vec<AgentId>,
    pub installed_agents: &'a [AgentId],
    pub all_agents: bool,
}

#[derive(Serialize)]
pub struct PreviewSkillJson<'a> {
    pub name: &'a str,
    /// Where the skill's folder sits in the bundle.
    pub origin: &'a str,
    /// The folder of the bundle it came from, which the preview groups by; empty at the top.
    pub folder: &'a str,
    pub files: Vec<PreviewFileJson<'a>>,
    pub problems: Vec<String>,
    /// With a destination: what the import would do, and where.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub action: Option<Action>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dir: Option<Cow<'a, str>>,
    /// What `skilldeck audit` finds in the skill as the bundle holds it.
    pub audit: PreviewAuditJson<'a>,
}

/// A skill's verdict in the preview: every finding, as `audit --format json` gives it, and
/// the most severe (null when nothing was found).
#[derive(Serialize)]
pub struct PreviewAuditJson<'a> {
    pub findings: &'a [crate::audit::Finding],
    pub highest: Option<crate::audit::Severity>,
}

#[derive(Serialize)]
pub struct PassedOverJson<'a> {
    pub path: &'a str,
    pub why: &'a str,
}

#[derive(Serialize)]
pub struct PreviewFileJson<'a> {
    pub path: &'a str,
    pub size: usize,
    pub executable: bool,
}

impl<'a> PreviewJson<'a> {
    pub fn new(
        bundle: &'a Bundle,
        chosen: &[&'a BundledSkill],
        steps: Option<&'a [Step<'a>]>,
        verdicts: &'a [crate::operations::import::risk::Verdict<'a>],
    ) -> Self {
        let skills = chosen
            .iter()
            .map(|skill| {
                let step = steps.and_then(|s| s.iter().find(|step| step.skill.name == skill.name));
                let verdict = verdicts.iter().find(|v| v.skill.name == skill.name);
                PreviewSkillJson {
                    name: &skill.name,
                    origin: &skill.origin,
                    folder: &skill.folder,
                    files: skill
                        .files
                        .iter()
                        .map(|file| PreviewFileJson {
                            path: &file.path,
                            size: file.content.len(),
                            executable: file.executable,
                        })
                        .collect(),
                    problems: skill
                        .declared
                        .lints
                        .iter()
                        .map(ToString::to_string)
                        .collect(),
                    action: step.map(|s| s.action),
                    dir: step.map(|s| s.dir.to_string_lossy()),
                    audit: PreviewAuditJson {
                        findings: verdict.map(|v| v.findings.as_slice()).unwrap_or_default(),
                        highest: verdict
                            .and_then(crate::operations::import::risk::Verdict::highest),
                    },
                }
            })
            .collect();
        Self {
            skills,
            left_out: &bundle.left_out,
            set_aside: &bundle.set_aside,
            notes: &bundle.notes,
            passed_over: bundle
                .passed_over
                .iter()
                .map(|p| PassedOverJson {
                    path: &p.path,
                    why: &p.why,
                })
                .collect(),
            upstream: None,
            destination: None,
            shadowing: None,
        }
    }
}

/// `import --json` done.
#[derive(Serialize)]
pub struct ImportedJson<'a> {
    pub installed: Vec<InstalledJson<'a>>,
    /// Each agent that runs a skill installed instead of another copy of its name, or runs the
    /// other copy instead of it.
    pub shadowing: Vec<ShadowJson<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lock: Option<LockKeptJson<'a>>,
}

/// What an operation did to the project's `skills-lock.json` (`lock_kept` in docs/json.md):
/// the entries it added, refreshed and dropped, or why the lock was not kept current.
#[derive(Serialize)]
#[serde(untagged)]
pub enum LockKeptJson<'a> {
    Kept {
        path: &'a Path,
        added: &'a [String],
        refreshed: &'a [String],
        dropped: &'a [String],
    },
    Failed {
        error: String,
    },
}

impl<'a> LockKeptJson<'a> {
    /// `None` when the project has no lock or the operation changed none of its skills.
    pub fn of(upkeep: &'a Upkeep) -> Option<Self> {
        match upkeep {
            Ok(None) => None,
            Ok(Some(kept)) => Some(Self::Kept {
                path: &kept.path,
                added: &kept.added,
                refreshed: &kept.refreshed,
                dropped: &kept.dropped,
            }),
            Err(error) => Some(Self::Failed {
                error: error.to_string(),
            }),
        }
    }
}

/// One agent's choice between a skill an import installs and another copy of its name.
#[derive(Serialize)]
pub struct ShadowJson<'a> {
    pub skill: &'a str,
    pub agent: AgentId,
    /// The copy it runs, and the one it passes over.
    pub winner: Cow<'a, str>,
    pub loser: Cow<'a, str>,
    /// It picks one of the two, not always the same (OpenCode).
    pub unsettled: bool,
}

impl<'a> ShadowJson<'a> {
    pub fn new(skill: &'a str, shadow: &'a WouldShadow) -> Self {
        Self {
            skill,
            agent: shadow.agent,
            winner: shadow.winner.to_string_lossy(),
            loser: shadow.loser.to_string_lossy(),
            unsettled: shadow.unsettled,
        }
    }
}

#[derive(Serialize)]
pub struct InstalledJson<'a> {
    pub name: &'a str,
    pub dir: Cow<'a, str>,
    pub action: Action,
    /// The lint problems of its `SKILL.md`, as the dry run lists them.
    pub problems: Vec<String>,
    /// From a git source: where it came from, as recorded.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub upstream: Option<crate::record::upstream::Upstream>,
}

impl<'a> ImportedJson<'a> {
    pub fn new(
        installed: &'a [Installed],
        problems: impl Fn(&str) -> Vec<String>,
        shadowing: Vec<ShadowJson<'a>>,
    ) -> Self {
        Self {
            lock: None,
            shadowing,
            installed: installed
                .iter()
                .map(|skill| InstalledJson {
                    name: &skill.name,
                    dir: skill.dir.to_string_lossy(),
                    action: skill.action,
                    problems: problems(&skill.name),
                    upstream: None,
                })
                .collect(),
        }
    }
}

/// Write `value` as one line of JSON to standard output.
pub fn print<T: Serialize>(value: &T) -> Result<(), super::Failure> {
    use std::io::Write;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    serde_json::to_writer(&mut out, value)
        .map_err(std::io::Error::from)
        .and_then(|()| out.write_all(b"\n"))
        .and_then(|()| out.flush())
        .map_err(super::Failure::Output)
}
