//! Walking every root into an inventory: each skill once, with every root and agent that
//! reaches it, its source, record, state, digest and shadowing. The folders are read in
//! parallel; progress is reported through a callback the terminal app turns into messages.

mod again;
mod discover;
mod inspect;
mod shadow;
mod touched;

use std::borrow::Cow;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::SystemTime;

use rayon::prelude::*;

use crate::ownership::{FileProblem, Ledger, Owner, Subject};
use crate::plugin::Naming;
use crate::record::{Digest, Obstacle, Record, SkillFile, State};
use crate::roots::{
    AgentId, Effect, Environment, Hydration, NameFrom, Priority, Root, RootSet, Scope, Selector,
    Source,
};
use crate::skill::{Declared, Lint};

pub use again::{Watched, again, watched};
pub use discover::{Broken, RootNote, Via};
pub use shadow::{Rank, outranks, ties};
pub use touched::{Touched, touched};

/// Why part of a skill could not be read or does not follow the rules; shown on the listing,
/// never a reason to leave the skill out.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Problem {
    #[error("{0}")]
    Broken(Broken),
    #[error("{0}")]
    Manifest(String),
    #[error("{0}")]
    Lint(Lint),
    #[error("{0}")]
    Digest(Obstacle),
    #[error(
        "the record's installed-version {0:?} is not a semantic version, so agent-skill-installer treats the skill as another program's"
    )]
    VersionNotSemver(String),
    /// An installer's file about this skill could not be used.
    #[error("{0}")]
    Record(FileProblem),
}

/// An agent reads this skill's folder but leaves the skill out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeftOut {
    pub agent: AgentId,
    pub effect: Effect,
    pub why: &'static str,
}

/// One agent runs another copy of this skill's name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shadowing {
    pub agent: AgentId,
    /// The folder of the copy that wins.
    pub winner: PathBuf,
}

/// One agent loads a skill from a root with this priority.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Claim {
    pub agent: AgentId,
    pub priority: Priority,
    /// The agent reaches it as a skill of its own, not as a plugin's: it names it as it
    /// names any skill (Amp reading Claude Code's plugin cache, Gemini CLI's extensions).
    pub plain: bool,
    /// The prefix the agent lists it under, `PREFIX:NAME`, by the row that reaches it.
    pub qualifier: Option<&'static str>,
    /// The agent reaches it through a plugin whose `${key}` substitution it makes in the
    /// skill's name and description ([`Skill::hydration`]).
    pub hydrated: bool,
}

/// A skill folder, once, however many roots reach it.
#[derive(Clone, Debug)]
pub struct Skill {
    /// The name agents know it by: `plugin:skill` for a plugin's, else its folder name.
    pub name: String,
    /// The folder as found (a path that is not a link, when there is one).
    pub dir: PathBuf,
    /// The folder with every link resolved.
    pub real_dir: PathBuf,
    /// Every path it was found at, `dir` first.
    pub reached_by: Vec<PathBuf>,
    /// Found through a symbolic link.
    pub is_link: bool,
    pub source: Source,
    /// The agents that load it, in table order.
    pub agents: Vec<AgentId>,
    pub plugin: Option<String>,
    plugin_version: Option<semver::Version>,
    /// Its plugin's place among those its agent lists ([`crate::plugin::Plugin::order`]).
    plugin_order: usize,
    /// Indexes into [`Inventory::roots`].
    pub roots: Vec<usize>,
    pub claims: Vec<Claim>,
    pub declared: Declared,
    /// agent-skill-installer's record in its frontmatter; boxed, as most skills have none
    /// and a listing holds every skill at once (64 bytes less a skill).
    pub record: Option<Box<Record>>,
    /// Who installed it, from where, and how its state was told: from `record`, or from another
    /// installer's files.
    pub owner: Option<Box<Owner>>,
    pub state: State,
    /// The installer's content digest of the folder as it is now, when it can be computed.
    pub digest: Option<Digest>,
    pub files: Vec<SkillFile>,
    /// The newest modification time among its files.
    pub modified: Option<SystemTime>,
    pub shadowed_by: Vec<Shadowing>,
    /// Agents that load one of several copies of this skill's name, not always the same one.
    pub unsettled_for: Vec<AgentId>,
    /// Agents that read its folder but drop it, or keep it from their model.
    pub left_out: Vec<LeftOut>,
    /// The name of a plugin manifest in a folder between its skills root and it.
    pub namespace: Option<String>,
    /// The `${key}` substitution of the plugin it belongs to (Gemini CLI's extensions), made
    /// for the agents whose claim says [`Claim::hydrated`].
    pub hydration: Option<Arc<Hydration>>,
    pub problems: Vec<Problem>,
    /// The state reading its folder gave, before any installer's record was asked: what a scan
    /// again keeps for a folder whose files did not change.
    read_state: State,
}

impl Skill {
    /// The folder's own name.
    pub fn dir_name(&self) -> &str {
        last_name(&self.dir)
            .and_then(|name| name.to_str())
            .unwrap_or("")
    }

    /// The agents whose own settings turn this skill off.
    pub fn disabled_for(&self) -> Vec<AgentId> {
        self.left_out
            .iter()
            .filter(|left| left.effect == Effect::Disabled)
            .map(|left| left.agent)
            .collect()
    }

    /// The best priority with which `agent` loads this skill.
    pub fn priority_for(&self, agent: AgentId) -> Option<Priority> {
        self.claims
            .iter()
            .filter(|claim| claim.agent == agent)
            .map(|claim| claim.priority)
            .min()
    }

    /// The version folder of a cached plugin, when it is a semantic version.
    pub fn plugin_version(&self) -> Option<&semver::Version> {
        self.plugin_version.as_ref()
    }

    /// Where its plugin comes among those its agent lists skills of.
    pub fn plugin_order(&self) -> usize {
        self.plugin_order
    }

    /// The name `agent` lists this skill by and matches it on.
    pub fn name_for(&self, agent: AgentId) -> Cow<'_, str> {
        let best = self
            .claims
            .iter()
            .filter(|claim| claim.agent == agent)
            .min_by_key(|claim| claim.priority);
        self.name_by(agent, best)
    }

    /// The description `agent` lists this skill with.
    pub fn description_for(&self, agent: AgentId) -> Cow<'_, str> {
        let description = self.declared.description.as_deref().unwrap_or_default();
        match self.hydration_for(agent) {
            Some(hydration) => hydration.apply(description),
            None => Cow::Borrowed(description),
        }
    }

    /// The substitution `agent` makes in this skill's strings, when its best claim makes one.
    fn hydration_for(&self, agent: AgentId) -> Option<&Hydration> {
        let best = self
            .claims
            .iter()
            .filter(|claim| claim.agent == agent)
            .min_by_key(|claim| claim.priority)?;
        best.hydrated.then_some(self.hydration.as_deref()).flatten()
    }

    /// The name `agent` lists this skill by, given its best claim for that agent.
    fn name_by(&self, agent: AgentId, best: Option<&Claim>) -> Cow<'_, str> {
        let plain = best.is_none_or(|claim| claim.plain);
        if self.plugin.is_some() && !plain {
            return Cow::Borrowed(&self.name);
        }
        let name = own_name_for(agent, self.dir_name(), &self.declared);
        // Sanitized first, then hydrated, as Gemini CLI does.
        let hydration = best.filter(|claim| claim.hydrated);
        let name = match hydration.and(self.hydration.as_deref()) {
            Some(hydration) => Cow::Owned(hydration.apply(&name).into_owned()),
            None => name,
        };
        if let Some(qualifier) = best.and_then(|claim| claim.qualifier) {
            return Cow::Owned(format!("{qualifier}:{name}"));
        }
        match &self.namespace {
            Some(namespace) if agent.agent().names_by_manifest() => {
                Cow::Owned(format!("{namespace}:{name}"))
            }
            _ => name,
        }
    }

    pub fn is_shadowed(&self) -> bool {
        !self.shadowed_by.is_empty()
    }
}

/// The name `agent` gives a skill folder of its own roots named `dir_name`, whose frontmatter
/// says `declared` (as the agent reads it): also what a copy not yet installed will be known
/// by.
pub fn own_name_for<'a>(agent: AgentId, dir_name: &'a str, declared: &'a Declared) -> Cow<'a, str> {
    let own = match agent.name_from() {
        NameFrom::Directory => dir_name,
        NameFrom::Frontmatter => match declared.read_by(agent.agent().reads()).name_text() {
            Some(Cow::Borrowed(name)) => name,
            Some(Cow::Owned(name)) => return agent.agent().listed_name(&name).into_owned().into(),
            None => dir_name,
        },
    };
    agent.agent().listed_name(own)
}

/// A skill an agent ships inside itself, in no folder on disk: listed because it costs that
/// agent's context like any other, never changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Builtin {
    pub agent: AgentId,
    pub name: &'static str,
    /// A skill on disk of the same name that the agent runs instead.
    pub overridden_by: Option<PathBuf>,
}

/// The skills by name, then folder. A skill is a large record: a sort moving each one a dozen
/// times through a buffer as large as the list cost more than its comparisons (20,000
/// skills), so the order is worked out on their indexes, on every core, and then each skill
/// is swapped into its place, with nothing allocated for the skills themselves.
fn sorted(mut skills: Vec<Skill>) -> Vec<Skill> {
    let mut order: Vec<usize> = (0..skills.len()).collect();
    order.par_sort_by(|&a, &b| {
        let (a, b) = (&skills[a], &skills[b]);
        a.name.cmp(&b.name).then_with(|| a.dir.cmp(&b.dir))
    });
    put_in_order(&mut skills, order);
    skills
}

/// Move each of `items` to its place, `order[place]` being the index of the item that belongs
/// there (a permutation): each cycle of it is followed once, with swaps, every place marked
/// done as it is filled.
fn put_in_order<T>(items: &mut [T], mut order: Vec<usize>) {
    const DONE: usize = usize::MAX;
    for start in 0..order.len() {
        let mut place = start;
        while order[place] != DONE {
            let from = order[place];
            order[place] = DONE;
            if from == start {
                break;
            }
            items.swap(place, from);
            place = from;
        }
    }
}

/// Every agent's built-in skills, each with the skill on disk that takes its name, if any;
/// none for an agent whose switch took them away.
fn builtins(env: &Environment, roots: &RootSet, skills: &[Skill]) -> Vec<Builtin> {
    let shipped: Vec<(AgentId, &'static str)> = AgentId::all()
        .flat_map(|agent| {
            let shipped = agent.agent();
            let off = shipped.builtin_off().iter().any(|switch| env.flag(switch))
                || shipped.builtin_off_by_settings(env, &roots.project);
            shipped
                .builtin()
                .iter()
                .filter(move |name| !off || shipped.builtin_plugins().contains(name))
                .map(move |name| (agent, *name))
        })
        .collect();
    // The first skill on disk each built-in's agent runs under its name, in one pass over the
    // skills rather than one per built-in (20,000 skills, a dozen built-ins). Only the names
    // of the built-ins are looked for: a map of every name of every skill cost more than the
    // rest of this pass.
    let mut overridden_by: Vec<Option<&Path>> = vec![None; shipped.len()];
    for skill in skills {
        for &agent in &skill.agents {
            let ships = shipped.iter().any(|&(with, _)| with == agent);
            if !ships || skill.shadowed_by.iter().any(|s| s.agent == agent) {
                continue;
            }
            let runs_as = skill.name_for(agent);
            for (slot, &(with, name)) in overridden_by.iter_mut().zip(&shipped) {
                if slot.is_none() && with == agent && name == runs_as {
                    *slot = Some(&skill.dir);
                }
            }
        }
    }
    shipped
        .into_iter()
        .zip(overridden_by)
        .map(|((agent, name), dir)| Builtin {
            agent,
            name,
            overridden_by: dir.map(Path::to_path_buf),
        })
        .collect()
}

/// The built-in skills grouped by the agent that ships them, in table order: each agent's are
/// one row of the roots, as no folder holds them.
pub fn builtins_by_agent(builtins: &[Builtin]) -> Vec<(AgentId, Vec<&Builtin>)> {
    let mut groups: Vec<(AgentId, Vec<&Builtin>)> = Vec::new();
    for builtin in builtins {
        match groups.iter_mut().find(|(agent, _)| *agent == builtin.agent) {
            Some((_, own)) => own.push(builtin),
            None => groups.push((builtin.agent, vec![builtin])),
        }
    }
    groups
}

/// A root with what the scan found in it.
#[derive(Clone, Debug)]
pub struct RootEntry {
    pub root: Root,
    pub skills: usize,
    pub notes: Vec<RootNote>,
}

/// Everything on the machine.
#[derive(Clone, Debug)]
pub struct Inventory {
    pub roots: Vec<RootEntry>,
    /// Sorted by name, then folder.
    pub skills: Vec<Skill>,
    /// The skills agents ship inside themselves.
    pub builtins: Vec<Builtin>,
    /// Installers' files that could not be used as they are.
    pub problems: Vec<FileProblem>,
    /// The agents this machine has (one of their config folders exists), in table order: what
    /// the listings show by default.
    pub installed: Vec<AgentId>,
}

/// How far a scan has come: `done` of `total` skill folders read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    pub done: usize,
    pub total: usize,
}

/// Scan every root `env` gives for a run started in `project_start` (an absolute path),
/// telling `progress` after each skill folder is read.
pub fn scan(
    env: &Environment,
    project_start: &Path,
    progress: &(dyn Fn(Progress) + Sync),
) -> Inventory {
    scan_keeping(env, project_start, progress, &again::Keep::nothing())
}

/// [`scan`], taking what `keep` holds of the folders it says did not change instead of reading
/// them again: one scan decides what a skill is, whether it reads every folder or a few.
fn scan_keeping(
    env: &Environment,
    project_start: &Path,
    progress: &(dyn Fn(Progress) + Sync),
    keep: &again::Keep<'_>,
) -> Inventory {
    let roots = RootSet::resolve(env, project_start);
    let mut discovery = discover::discover(&roots, env);
    let mut groups = group(&discovery.found);
    progress(Progress {
        done: 0,
        total: groups.len(),
    });
    let done = AtomicUsize::new(0);
    let mut inspections = inspect_all(&discovery, &groups, &done, groups.len(), progress, keep);

    // Skills inside other skills' folders, told from the files just read; each is read once
    // more only if no root reached it already.
    let reaches = discover::Reaches::of(&roots);
    let inner: Vec<discover::Found> = groups
        .par_iter()
        .zip(&inspections)
        .flat_map_iter(|(group, inspection)| {
            let (found, reaches) = (&discovery.found, &reaches);
            group.members.iter().flat_map(move |&member| {
                discover::inner_skills(reaches, &found[member], &inspection.files)
            })
        })
        .collect();
    if !inner.is_empty() {
        discovery.found.extend(inner);
        let regrouped = group(&discovery.found);
        let mut read: HashMap<PathBuf, inspect::Inspection> = groups
            .into_iter()
            .map(|group| group.real_dir)
            .zip(inspections)
            .collect();
        let unread: Vec<Group> = regrouped
            .iter()
            .filter(|group| !read.contains_key(&group.real_dir))
            .cloned()
            .collect();
        let total = regrouped.len();
        let more = inspect_all(&discovery, &unread, &done, total, progress, keep);
        read.extend(unread.into_iter().map(|group| group.real_dir).zip(more));
        inspections = regrouped
            .iter()
            .map(|group| read.remove(&group.real_dir).unwrap_or_default())
            .collect();
        groups = regrouped;
    }

    let mut sources = roots.source_roots();
    for dir in &discovery.plugin_dirs {
        sources.add(Some(Source::Plugin), dir.clone());
    }
    let mut skills: Vec<Skill> = groups
        .into_par_iter()
        .zip(inspections)
        .map(|(group, inspection)| assemble(&roots, &discovery, group, inspection))
        .collect();
    // Every found path is in a skill now, and every folder read; what is left of the
    // discovery is its notes.
    discovery.found = Vec::new();
    discovery.open_roots = discover::OpenRoots::default();
    skills.par_iter_mut().for_each(|skill| {
        let qualified = skill.plugin.is_some().then_some(skill.name.as_str());
        skill.source = sources.classify(qualified, &skill.dir, Some(&skill.real_dir));
    });
    let ledger = Ledger::read(env, &roots);
    skills.par_iter_mut().for_each(|skill| {
        if !keep.attribution(skill) {
            attribute(&ledger, &roots, skill);
        }
    });
    turn_off(env, &roots, &mut skills);
    shadow::shadow(&mut skills);
    let skills = sorted(skills);

    let installed = AgentId::all()
        .filter(|agent| agent.agent().is_installed(env, &roots.project))
        .collect();
    let mut counts = vec![0usize; roots.roots.len()];
    for skill in &skills {
        for &root in &skill.roots {
            counts[root] += 1;
        }
    }
    let builtins = builtins(env, &roots, &skills);
    let roots = roots
        .roots
        .into_iter()
        .zip(counts)
        .zip(discovery.notes)
        .map(|((root, skills), notes)| RootEntry {
            root,
            skills,
            notes,
        })
        .collect();
    Inventory {
        roots,
        builtins,
        skills,
        problems: ledger.problems().to_vec(),
        installed,
    }
}

/// Who installed `skill`, and its state by that installer's record.
fn attribute(ledger: &Ledger, roots: &RootSet, skill: &mut Skill) {
    let attribution = ledger.attribute(&Subject {
        dir: &skill.dir,
        real_dir: &skill.real_dir,
        roots: skill.roots.iter().map(|&i| &roots.roots[i]).collect(),
        declared: &skill.declared,
        files: &skill.files,
        digest: skill.digest.as_ref(),
        record: skill.record.as_deref(),
        state: skill.state,
    });
    skill.owner = attribution.owner.map(Box::new);
    skill.state = attribution.state;
    skill
        .problems
        .extend(attribution.problems.into_iter().map(Problem::Record));
}

/// Every skill folder `env` gives for a run started in `project_start`, each once with its
/// links resolved, found without reading any of them: what snapshotting every skill needs,
/// without the cost of a full inventory.
pub fn skill_dirs(env: &Environment, project_start: &Path) -> Vec<PathBuf> {
    dirs_in(env, project_start, |_| true)
}

/// [`skill_dirs`] of the project's own roots only (every agent's project-scope folders, from
/// `project_start` up to the repository's top): the skills a project ships, as `lint` in a
/// project checks them.
pub fn project_skill_dirs(env: &Environment, project_start: &Path) -> Vec<PathBuf> {
    dirs_in(env, project_start, |root| root.scope() == Scope::Project)
}

/// Every readable skill folder of the roots `keep` keeps, each once with its links resolved.
fn dirs_in(env: &Environment, project_start: &Path, keep: impl Fn(&Root) -> bool) -> Vec<PathBuf> {
    let roots = RootSet::resolve(env, project_start);
    let discovery = discover::discover(&roots, env);
    let readable: Vec<discover::Found> = discovery
        .found
        .into_iter()
        .filter(|found| found.broken.is_none())
        .filter(|found| roots.roots.get(found.root).is_some_and(&keep))
        .collect();
    group(&readable).into_iter().map(|g| g.real_dir).collect()
}

/// Read every group's folder in parallel (but those `keep` holds), counting each into `done`
/// of `total`.
fn inspect_all(
    discovery: &discover::Discovery,
    groups: &[Group],
    done: &AtomicUsize,
    total: usize,
    progress: &(dyn Fn(Progress) + Sync),
    keep: &again::Keep<'_>,
) -> Vec<inspect::Inspection> {
    let (found, open_roots) = (&discovery.found, &discovery.open_roots);
    groups
        .par_iter()
        .map(|group| {
            let first = &found[group.members[0]];
            let dir_name = file_name(&first.path);
            let kept = first
                .broken
                .is_none()
                .then(|| keep.inspection(&group.real_dir))
                .flatten();
            let inspection = kept.unwrap_or_else(|| {
                let at = open_roots.holding(first);
                inspect::inspect(&first.path, at, &dir_name, first.broken.as_ref())
            });
            let done = done.fetch_add(1, Ordering::Relaxed) + 1;
            progress(Progress { done, total });
            inspection
        })
        .collect()
}

/// The found paths that lead to one folder.
#[derive(Clone)]
struct Group {
    members: Vec<usize>,
    real_dir: PathBuf,
}

/// Group the found paths by the folder they resolve to, keeping the order found.
fn group(found: &[discover::Found]) -> Vec<Group> {
    let real: Vec<PathBuf> = found
        .par_iter()
        .map(|f| {
            f.real
                .clone()
                .unwrap_or_else(|| crate::fs::canonical(&f.path).unwrap_or_else(|_| f.path.clone()))
        })
        .collect();
    let mut groups: Vec<Group> = Vec::new();
    // Hashed with foldhash, seeded per run: SipHash over every found path was a visible part
    // of this serial step.
    let mut index: HashMap<&Path, usize, foldhash::fast::RandomState> =
        HashMap::with_capacity_and_hasher(found.len(), foldhash::fast::RandomState::default());
    for (member, real_dir) in real.iter().enumerate() {
        match index.get(real_dir.as_path()) {
            Some(&group) => groups[group].members.push(member),
            None => {
                index.insert(real_dir, groups.len());
                groups.push(Group {
                    members: vec![member],
                    real_dir: real_dir.clone(),
                });
            }
        }
    }
    groups
}

fn assemble(
    roots: &RootSet,
    discovery: &discover::Discovery,
    group: Group,
    inspection: inspect::Inspection,
) -> Skill {
    let found = &discovery.found;
    let members: Vec<&discover::Found> = group.members.iter().map(|&m| &found[m]).collect();
    // The path that is the folder itself reads best; a link to it is kept in `reached_by`.
    let preferred = members
        .iter()
        .find(|f| !f.is_link && f.path == group.real_dir)
        .or_else(|| members.iter().find(|f| !f.is_link))
        .unwrap_or(&members[0]);
    let mut reached_by = vec![preferred.path.clone()];
    for member in &members {
        if !reached_by.contains(&member.path) {
            reached_by.push(member.path.clone());
        }
    }
    let mut claims = Vec::new();
    let mut left_out: Vec<LeftOut> = Vec::new();
    // A root an agent does not read here (an untrusted workspace) leaves the skill out only
    // when none of that agent's other roots reads it: at the home, Gemini CLI's workspace
    // `.gemini/skills` is its user root too, which it reads in any folder.
    let mut distrusted: Vec<(AgentId, &'static str)> = Vec::new();
    let mut skill_roots = Vec::new();
    for member in &members {
        if !skill_roots.contains(&member.root) {
            skill_roots.push(member.root);
        }
        let root_skill = discovery.root_skill[member.root];
        // Where the skill lies below its root, worked out once per path rather than once per
        // agent reading the root (two dozen read `~/.agents/skills`): each is a parse of both
        // paths into their parts.
        let below = member
            .path
            .strip_prefix(&roots.roots[member.root].path)
            .unwrap_or(Path::new(""));
        for root_use in &roots.roots[member.root].uses {
            let finds = root_use.rule.finds;
            if !member.via.loaded_by(root_use.rule.layout) {
                continue;
            }
            if member.via != Via::Direct
                && let Some(off) = root_use.all_off
            {
                note_left_out(&mut left_out, root_use.rule.agent, Effect::Dropped, off.why);
                continue;
            }
            if member.via == Via::Direct {
                if !finds.reaches(member.spot, below, root_skill) {
                    continue;
                }
                if let Some(trust) = root_use.distrusted {
                    distrusted.push((root_use.rule.agent, trust.why));
                    continue;
                }
                let reads = root_use.rule.agent.agent().reads();
                if let Some(why) = finds.needs.unmet_by(&inspection.declared.read_by(reads)) {
                    note_left_out(&mut left_out, root_use.rule.agent, Effect::Dropped, why);
                    continue;
                }
            }
            claims.push(Claim {
                agent: root_use.rule.agent,
                priority: root_use.priority,
                plain: member.via == Via::Direct || member.naming == Naming::Bare,
                qualifier: root_use.rule.qualifier,
                hydrated: member.hydration.is_some(),
            });
        }
    }
    for (agent, why) in distrusted {
        if !claims.iter().any(|claim: &Claim| claim.agent == agent) {
            note_left_out(&mut left_out, agent, Effect::Dropped, why);
        }
    }
    let mut agents: Vec<AgentId> = claims.iter().map(|c| c.agent).collect();
    agents.sort();
    agents.dedup();
    // A walk's paths are relative and hold only names, so they compare as the `/`-joined
    // text would, without making that text for every file.
    let holds = |rel: &str| {
        let rel = Path::new(rel);
        inspection.files.iter().any(|file| file.path == rel)
    };
    for agent in agents.clone() {
        for hiding in agent.agent().hides() {
            if (hiding.applies)(&group.real_dir, &holds, &inspection.declared) {
                note_left_out(&mut left_out, agent, hiding.effect, hiding.why);
            }
        }
    }
    let dropped = |agent: AgentId| {
        left_out
            .iter()
            .any(|l| l.agent == agent && l.effect == Effect::Dropped)
    };
    claims.retain(|claim| !dropped(claim.agent));
    agents.retain(|&agent| !dropped(agent));
    let plugin_member = members.iter().find(|f| f.plugin.is_some());
    let plugin = plugin_member.and_then(|f| f.plugin.clone());
    let plugin_order = plugin_member.map_or(0, |f| f.plugin_order);
    let plugin_version = members
        .iter()
        .find_map(|f| f.version.as_deref())
        .and_then(|v| semver::Version::parse(v).ok());
    let dir = preferred.path.clone();
    let dir_name = file_name(&dir);
    let name = match (plugin_member, &plugin) {
        (Some(member), Some(plugin)) => member.naming.name(
            plugin,
            inspection.declared.name.as_deref(),
            &dir_name,
            member.own_entry,
        ),
        _ => dir_name,
    };
    Skill {
        name,
        is_link: members.iter().any(|f| f.is_link),
        dir,
        real_dir: group.real_dir,
        reached_by,
        source: Source::Unknown,
        agents,
        plugin,
        plugin_version,
        plugin_order,
        roots: skill_roots,
        claims,
        declared: inspection.declared,
        record: inspection.record,
        owner: None,
        state: inspection.state.unwrap_or(State::Unreadable),
        read_state: inspection.state.unwrap_or(State::Unreadable),
        digest: inspection.digest,
        files: inspection.files,
        modified: inspection.modified,
        shadowed_by: Vec::new(),
        unsettled_for: Vec::new(),
        left_out,
        namespace: members.iter().find_map(|f| f.namespace.clone()),
        hydration: members.iter().find_map(|f| f.hydration.clone()),
        problems: inspection.problems,
    }
}

/// Mark the skills each agent's own settings turn off.
fn turn_off(env: &Environment, roots: &RootSet, skills: &mut [Skill]) {
    for agent in AgentId::all() {
        let offs = agent.agent().turned_off(env, &roots.project);
        if offs.is_empty() {
            continue;
        }
        for skill in skills.iter_mut().filter(|s| s.agents.contains(&agent)) {
            let hit = offs.iter().find(|off| selects(&off.selector, skill, agent));
            if let Some(off) = hit {
                note_left_out(&mut skill.left_out, agent, Effect::Disabled, off.why);
            }
        }
    }
}

/// Whether `selector`, a setting of `agent`'s, names `skill`.
fn selects(selector: &Selector, skill: &Skill, agent: AgentId) -> bool {
    match selector {
        Selector::Name(name) => skill.name_for(agent) == name.as_str(),
        Selector::NameAnyCase(name) => skill.name_for(agent).to_lowercase() == name.to_lowercase(),
        Selector::Pattern(pattern) => pattern.selects(&skill.name_for(agent)),
        Selector::File(file) => {
            file.parent() == Some(skill.real_dir.as_path())
                || skill
                    .reached_by
                    .iter()
                    .any(|dir| file.parent() == Some(dir))
        }
        Selector::LastOf(entries) => entries
            .iter()
            .rfind(|(entry, _)| selects(entry, skill, agent))
            .is_some_and(|(_, on)| !on),
    }
}

/// Note once that `agent` leaves the skill out; a skill it keeps through another root is not
/// dropped.
fn note_left_out(left_out: &mut Vec<LeftOut>, agent: AgentId, effect: Effect, why: &'static str) {
    if !left_out
        .iter()
        .any(|l| l.agent == agent && l.effect == effect)
    {
        left_out.push(LeftOut { agent, effect, why });
    }
}

fn file_name(path: &Path) -> String {
    last_name(path)
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// [`Path::file_name`], read from the bytes after the last `/` where they are a plain name,
/// as they are in every path a scan makes: `file_name` parses the path into its parts from
/// the end, and the shadowing asks each skill's folder name once per agent that loads it
/// (110,000 times at 20,000 skills). A path ending in `/`, `.` or `..` is left to `Path`.
fn last_name(path: &Path) -> Option<&std::ffi::OsStr> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let bytes = path.as_os_str().as_bytes();
        let last = bytes.rsplit(|&byte| byte == b'/').next().unwrap_or(bytes);
        if !matches!(last, b"" | b"." | b"..") {
            return Some(std::ffi::OsStr::from_bytes(last));
        }
    }
    path.file_name()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn items_are_put_in_the_order_a_permutation_gives() {
        let orders: [&[usize]; 7] = [
            &[],
            &[0],
            &[1, 0],
            &[0, 1, 2, 3],
            &[3, 2, 1, 0],
            &[2, 0, 1, 4, 3],
            &[5, 3, 0, 1, 6, 2, 4],
        ];
        for order in orders {
            let mut items: Vec<String> = (0..order.len()).map(|i| format!("item {i}")).collect();
            let expected: Vec<String> = order.iter().map(|&i| items[i].clone()).collect();
            put_in_order(&mut items, order.to_vec());
            assert_eq!(items, expected, "{order:?}");
        }
    }

    #[test]
    fn a_last_name_read_from_bytes_is_what_path_gives() {
        for path in [
            "/home/me/.claude/skills/pdf",
            "skills/pdf",
            "pdf",
            "/",
            "",
            ".",
            "..",
            "a/..",
            "a/.",
            "a/b/",
            "a/b//",
            "/a/./b",
            "./b",
            "a/.hidden",
            "a/...",
            "a/b c",
            "a/é",
        ] {
            let path = Path::new(path);
            assert_eq!(last_name(path), path.file_name(), "{}", path.display());
        }
    }
}
