//! The inventory as the app shows it: every string from disk sanitised once, paths under the
//! home directory written `~/…`, the file list turned into a tree, each agent's verdict on
//! which copy of a name it runs, and the skills in every order the list can be sorted in.
//! Built on the scan worker, so the UI thread only filters and draws.

use std::cmp::Ordering;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use crate::operations::lock_state::{LockState, LockStates};
use crate::ownership::{Owner, Upstream};
use crate::record::{SkillFile, State};
use crate::roots::{AgentId, Effect, OnSameName, RootState, Scope, Source};
use crate::scan::{Builtin, Inventory, RootEntry, Skill};
use crate::skill::SKILL_FILE;

use crate::text::{Unsafe, human, sanitize};

use super::budget::{Budgets, Uses};

/// Everything the app knows after a scan.
#[derive(Clone, Debug, Default)]
pub struct Deck {
    /// Sorted by name, then folder, as the scan gives them.
    pub skills: Vec<SkillView>,
    pub roots: Vec<RootView>,
    /// Indexes into `skills` in each order of [`Sort::ALL`], worked out once (the cost's when
    /// the listings are known, the last use's when the uses are).
    orders: [Vec<usize>; Sort::ALL.len()],
    counts: Counts,
    /// The installers of its skills, by name, each once.
    installers: Vec<String>,
    /// The agents the machine has, as the scan found them; `None` for a deck not made by a
    /// scan, which shows every agent.
    pub installed: Option<Vec<AgentId>>,
    /// The agents with no setting that turns one skill off, each with the sentence that says
    /// so and what works instead.
    pub no_switch: Vec<(AgentId, String)>,
    /// What each agent's listing costs, and how it shows each skill.
    pub budgets: Budgets,
    /// The skills' uses, read on a worker after the scan.
    pub usage: Uses,
    /// Some skill has a state against its project's lock: the list gives them a column.
    pub lock_column: bool,
}

/// The order of the skill list.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Sort {
    #[default]
    Name,
    Source,
    State,
    Recent,
    /// Costliest in some agent's listing first.
    Cost,
    /// Most recently used first; never used last.
    LastUsed,
}

impl Sort {
    pub const ALL: [Sort; 6] = [
        Sort::Name,
        Sort::Source,
        Sort::State,
        Sort::Recent,
        Sort::Cost,
        Sort::LastUsed,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Sort::Name => "name",
            Sort::Source => "source",
            Sort::State => "state",
            Sort::Recent => "recently modified",
            Sort::Cost => "cost",
            Sort::LastUsed => "last used",
        }
    }
}

impl Sort {
    /// `skills` (sorted by name) in this order; name breaks every tie, as the sorts are stable.
    fn order(self, skills: &[SkillView], budgets: &Budgets, usage: &Uses) -> Vec<usize> {
        let mut order: Vec<usize> = (0..skills.len()).collect();
        match self {
            Sort::Name => {}
            Sort::Source => order.sort_by_key(|&i| skills[i].source),
            Sort::State => order.sort_by_key(|&i| state_rank(skills[i].state)),
            Sort::Recent => order.sort_by(|&a, &b| newest_first(&skills[a], &skills[b])),
            Sort::Cost => order
                .sort_by_key(|&i| std::cmp::Reverse(budgets.cost(&skills[i].dir).map(|c| c.chars))),
            Sort::LastUsed => {
                if let Some(view) = usage.view() {
                    order.sort_by_key(|&i| std::cmp::Reverse(view.last(&skills[i].dir)));
                }
            }
        }
        order
    }
}

/// Drifted first: the states that ask for attention lead the list.
fn state_rank(state: State) -> u8 {
    match state {
        State::Modified => 0,
        State::Unreadable => 1,
        State::Unverifiable => 2,
        State::Unrecorded => 3,
        State::Intact => 4,
    }
}

fn newest_first(a: &SkillView, b: &SkillView) -> Ordering {
    match (a.modified, b.modified) {
        (Some(a), Some(b)) => b.cmp(&a),
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => Ordering::Equal,
    }
}

/// How many skills of each kind a deck holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub skills: usize,
    /// In the order of [`State::ALL`].
    pub states: [usize; State::ALL.len()],
    pub shadowed: usize,
    pub with_problems: usize,
    /// Roots that hold at least one skill.
    pub roots: usize,
}

/// One skill, ready to show.
#[derive(Clone, Debug)]
pub struct SkillView {
    pub name: String,
    /// The name in lower case, for search.
    pub search_key: String,
    pub description: Option<String>,
    /// The version its frontmatter declares: what its export is named after.
    pub version: Option<String>,
    /// The folder, for reading its `SKILL.md`; never shown as it is.
    pub dir: PathBuf,
    /// The folder as shown.
    pub shown_dir: String,
    /// Where the folder really is, when it was reached through a link.
    pub real_dir: Option<String>,
    /// Other paths that lead to the same folder.
    pub also_at: Vec<String>,
    pub source: Source,
    /// The plugin and its version folder, for a plugin's skill.
    pub plugin: Option<String>,
    pub agents: Vec<AgentId>,
    /// Each root it is found in, with the agents that load it from there.
    pub reads: Vec<Read>,
    /// For each agent that loads it, which copy of the name that agent runs.
    pub verdicts: Vec<Verdict>,
    /// Agents that read its folder and leave it out, each with the sentence that says how.
    pub left_out: Vec<(AgentId, String)>,
    /// Agents that load one of several copies of its name, not always the same one.
    pub unsettled_for: Vec<AgentId>,
    /// Agents whose own settings turn it off.
    pub disabled_for: Vec<AgentId>,
    pub state: State,
    pub record: Option<RecordView>,
    /// Who installed it and from where, by any installer's record.
    pub owner: Option<OwnerView>,
    /// The installer's digest of the files as they are now.
    pub digest: Option<String>,
    pub problems: Vec<String>,
    pub tree: Vec<TreeLine>,
    pub modified: Option<SystemTime>,
    /// How long before the scan its newest file was modified.
    pub age: Option<Duration>,
    /// A project skill against its project's `skills-lock.json`, when the project has one.
    pub lock: Option<LockState>,
}

impl SkillView {
    /// Its `SKILL.md` as its folder spells it (Amp also reads `skill.md`), below the folder:
    /// what the editor opens first and the viewer's cursor starts on.
    pub fn manifest(&self) -> Option<&Path> {
        self.tree
            .iter()
            .find(|line| line.depth == 0 && line.path.as_os_str().eq_ignore_ascii_case(SKILL_FILE))
            .map(|line| line.path.as_path())
    }

    /// Some agent runs another copy of this name.
    pub fn is_shadowed(&self) -> bool {
        self.verdicts.iter().any(|v| v.winner.is_some())
    }

    /// The skill as an action's target.
    pub fn target(&self) -> super::manage::Target {
        super::manage::Target {
            name: self.name.clone(),
            dir: self.dir.clone(),
            shown_dir: self.shown_dir.clone(),
        }
    }
}

/// A root a skill is found in, and the agents that load it from there (none for a root kept
/// on disk and not loaded, such as a marketplace clone).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Read {
    pub shown_root: String,
    pub agents: Vec<AgentId>,
}

/// Which copy of a skill's name one agent runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    pub agent: AgentId,
    /// The folder of the copy that wins over this one; `None` when this copy runs.
    pub winner: Option<String>,
    /// The agent keeps every copy of a name (Codex), so nothing is shadowed for it.
    pub keeps_all: bool,
}

/// The ownership record, sanitised.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordView {
    pub installed_by: String,
    pub installed_version: String,
    pub content_digest: String,
}

/// Who installed a skill, from where, and what its record allows to be checked, sanitised.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OwnerView {
    /// The installer's name: `skilldeck`, `skills-cli`, `claude-plugin`, ...
    pub installer: String,
    /// The repository, ref, path and commit it came from, as far as the record says.
    pub upstream: Option<String>,
    /// The repository alone, short, for the list.
    pub repository: Option<String>,
    /// Why the record cannot be verified, or what its check leaves out.
    pub note: Option<String>,
    /// An untouched copy the installer keeps, which the skill is diffed against when it has no
    /// snapshot; never shown as it is.
    pub pristine: Option<PathBuf>,
    pub shown_pristine: Option<String>,
}

/// One line of a skill's file tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TreeLine {
    pub depth: usize,
    pub name: String,
    pub entry: Entry,
    /// Its path below the skill's folder, as the file system has it: what the viewer and the
    /// editor open. Never shown as it is.
    pub path: PathBuf,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Entry {
    Folder,
    File { size: u64, executable: bool },
}

/// What is at a root's path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Presence {
    Exists,
    Missing,
    NotADirectory,
    Unreadable(String),
    /// Not a folder: the skills an agent ships inside itself, listed as one root of its own.
    BuiltIn,
}

/// One root, ready to show.
#[derive(Clone, Debug)]
pub struct RootView {
    pub shown_path: String,
    /// What the first agent to read it calls it ("Claude Code personal skills").
    pub label: String,
    pub scope: Scope,
    /// The agents that load skills from it.
    pub agents: Vec<AgentId>,
    /// Every agent with a use for it, loading or not (Claude Code keeps marketplace clones).
    pub owners: Vec<AgentId>,
    pub presence: Presence,
    pub skills: usize,
    pub notes: Vec<String>,
}

impl Deck {
    /// The inventory of a scan finished at `now`, with paths under `home` shown as `~/…`.
    pub fn new(inventory: &Inventory, home: &Path, now: SystemTime) -> Self {
        let mut roots: Vec<RootView> = inventory
            .roots
            .iter()
            .map(|root| root_view(root, home))
            .collect();
        roots.extend(builtin_roots(&inventory.builtins));
        let skills = inventory
            .skills
            .iter()
            .map(|skill| skill_view(skill, &roots, home, now))
            .collect();
        Self::from_views(skills, roots).with_installed(inventory.installed.clone())
    }

    /// The deck of a machine that has `installed`, and no other agent.
    pub fn with_installed(mut self, installed: Vec<AgentId>) -> Self {
        self.installed = Some(installed);
        self
    }

    /// A deck of skills already sorted by name, and roots.
    pub fn from_views(skills: Vec<SkillView>, roots: Vec<RootView>) -> Self {
        let (budgets, usage) = (Budgets::default(), Uses::default());
        let orders = Sort::ALL.map(|sort| sort.order(&skills, &budgets, &usage));
        let counts = Counts::of(&skills, &roots);
        let lock_column = skills.iter().any(|skill| skill.lock.is_some());
        let mut installers: Vec<String> = skills
            .iter()
            .filter_map(|s| s.owner.as_ref().map(|o| o.installer.clone()))
            .collect();
        installers.sort();
        installers.dedup();
        Self {
            skills,
            roots,
            orders,
            counts,
            installers,
            installed: None,
            no_switch: Vec::new(),
            budgets,
            usage,
            lock_column,
        }
    }

    /// The deck, knowing where each project skill stands against its project's lock.
    pub fn with_lock_states(mut self, states: Option<&LockStates>) -> Self {
        for skill in &mut self.skills {
            skill.lock = states.and_then(|states| states.of(&skill.dir));
        }
        self.lock_column = self.skills.iter().any(|skill| skill.lock.is_some());
        self
    }

    /// The deck, knowing what each agent's listing costs.
    pub fn with_budgets(mut self, budgets: Budgets) -> Self {
        self.budgets = budgets;
        self.sort_again(Sort::Cost);
        self
    }

    /// Take in what is known of the skills' uses; the last use's order follows.
    pub fn set_usage(&mut self, usage: Uses) {
        self.usage = usage;
        self.sort_again(Sort::LastUsed);
    }

    fn sort_again(&mut self, sort: Sort) {
        let at = Sort::ALL.iter().position(|s| *s == sort).unwrap_or(0);
        self.orders[at] = sort.order(&self.skills, &self.budgets, &self.usage);
    }

    /// The deck, knowing which agents have no setting that turns one skill off.
    pub fn with_no_switch(mut self, no_switch: Vec<(AgentId, String)>) -> Self {
        self.no_switch = no_switch;
        self
    }

    /// Why `agent` cannot turn one skill off, when it cannot.
    pub fn no_switch_for(&self, agent: AgentId) -> Option<&str> {
        self.no_switch
            .iter()
            .find(|(a, _)| *a == agent)
            .map(|(_, why)| why.as_str())
    }

    pub fn counts(&self) -> Counts {
        self.counts
    }

    /// The installers of its skills, by name.
    pub fn installers(&self) -> &[String] {
        &self.installers
    }

    /// Indexes into `skills` in the order `sort` gives.
    pub fn order(&self, sort: Sort) -> &[usize] {
        let at = Sort::ALL.iter().position(|s| *s == sort).unwrap_or(0);
        &self.orders[at]
    }
}

impl Counts {
    fn of(skills: &[SkillView], roots: &[RootView]) -> Self {
        let mut counts = Counts {
            skills: skills.len(),
            roots: roots
                .iter()
                .filter(|r| r.skills > 0 && r.presence != Presence::BuiltIn)
                .count(),
            ..Counts::default()
        };
        for skill in skills {
            if let Some(i) = State::ALL.iter().position(|s| *s == skill.state) {
                counts.states[i] += 1;
            }
            counts.shadowed += usize::from(skill.is_shadowed());
            counts.with_problems += usize::from(!skill.problems.is_empty());
        }
        counts
    }

    /// How many skills are in `state`.
    pub fn in_state(&self, state: State) -> usize {
        State::ALL
            .iter()
            .position(|s| *s == state)
            .map_or(0, |i| self.states[i])
    }
}

/// How each agent that reads the skill's folder leaves it out.
fn left_out(skill: &Skill) -> Vec<(AgentId, String)> {
    let lines: Vec<(AgentId, String)> = skill
        .left_out
        .iter()
        .map(|left| {
            let how = match left.effect {
                Effect::Dropped => "does not load it",
                Effect::FromModel => "keeps it from its model",
                Effect::Disabled => "has it turned off",
                Effect::BreaksListing => "may fail to list any skill because of it",
            };
            (left.agent, format!("{} {how}: {}", left.agent, left.why))
        })
        .collect();
    lines
}

fn skill_view(skill: &Skill, roots: &[RootView], home: &Path, now: SystemTime) -> SkillView {
    let name = sanitize::name(&skill.name);
    let verdicts = skill
        .agents
        .iter()
        .map(|&agent| Verdict {
            agent,
            winner: skill
                .shadowed_by
                .iter()
                .find(|s| s.agent == agent)
                .map(|s| human::path(&s.winner, home, Unsafe::Dropped)),
            keeps_all: agent.on_same_name() == OnSameName::KeepsAll,
        })
        .collect();
    let plugin = skill.plugin.as_deref().map(|plugin| {
        let plugin = sanitize::name(plugin);
        match skill.plugin_version() {
            Some(version) => format!("{plugin} {version}"),
            None => plugin,
        }
    });
    SkillView {
        search_key: name.to_lowercase(),
        name,
        description: skill.declared.description.as_deref().map(sanitize::line),
        version: skill.declared.version.clone(),
        dir: skill.dir.clone(),
        shown_dir: human::path(&skill.dir, home, Unsafe::Dropped),
        real_dir: (skill.real_dir != skill.dir)
            .then(|| human::path(&skill.real_dir, home, Unsafe::Dropped)),
        also_at: skill.reached_by[1..]
            .iter()
            .map(|path| human::path(path, home, Unsafe::Dropped))
            .collect(),
        source: skill.source,
        plugin,
        agents: skill.agents.clone(),
        reads: skill
            .roots
            .iter()
            .filter_map(|&i| roots.get(i))
            .map(|root| Read {
                shown_root: root.shown_path.clone(),
                agents: root
                    .agents
                    .iter()
                    .copied()
                    .filter(|agent| skill.agents.contains(agent))
                    .collect(),
            })
            .collect(),
        verdicts,
        left_out: left_out(skill),
        unsettled_for: skill.unsettled_for.clone(),
        disabled_for: skill.disabled_for(),
        state: skill.state,
        record: skill.record.as_ref().map(|record| RecordView {
            installed_by: sanitize::line(&record.installed_by),
            installed_version: sanitize::line(&record.installed_version),
            content_digest: sanitize::line(&record.content_digest),
        }),
        owner: skill.owner.as_deref().map(|owner| owner_view(owner, home)),
        digest: skill.digest.as_ref().map(|d| d.as_str().to_owned()),
        problems: skill
            .problems
            .iter()
            .map(|problem| sanitize::line(&problem.to_string()))
            .collect(),
        tree: tree(&skill.files),
        modified: skill.modified,
        age: skill.modified.and_then(|at| now.duration_since(at).ok()),
        lock: None,
    }
}

fn owner_view(owner: &Owner, home: &Path) -> OwnerView {
    let upstream = owner.upstream.as_ref();
    OwnerView {
        installer: sanitize::line(owner.installer.name()),
        upstream: upstream.map(upstream_text).filter(|text| !text.is_empty()),
        repository: upstream
            .and_then(|u| u.repository.as_deref())
            .map(|repository| sanitize::line(short_repository(repository))),
        note: owner.note.as_deref().map(sanitize::line),
        pristine: owner.pristine.clone(),
        shown_pristine: owner
            .pristine
            .as_deref()
            .map(|p| human::path(p, home, Unsafe::Dropped)),
    }
}

/// `acme/tools@v2 skills/pdf (1a2b3c4d5e6f)`: what is known of where a skill came from.
fn upstream_text(upstream: &Upstream) -> String {
    let mut text = upstream
        .repository
        .as_deref()
        .map(short_repository)
        .unwrap_or_default()
        .to_owned();
    if let Some(reference) = &upstream.reference {
        text.push('@');
        text.push_str(reference);
    }
    for part in [
        upstream.path.as_deref(),
        upstream.commit.as_deref().map(short_commit),
    ]
    .into_iter()
    .flatten()
    {
        if !text.is_empty() {
            text.push(' ');
        }
        text.push_str(part);
    }
    sanitize::line(&text)
}

/// A repository without the scheme and `.git` its URL may carry: `github.com/acme/tools`.
fn short_repository(repository: &str) -> &str {
    let bare = repository
        .strip_prefix("https://")
        .or_else(|| repository.strip_prefix("http://"))
        .unwrap_or(repository);
    bare.strip_suffix(".git").unwrap_or(bare)
}

fn short_commit(commit: &str) -> &str {
    commit.get(..12).unwrap_or(commit)
}

/// The files of a skill as a tree, folders before what they hold, in the digest's order.
fn tree(files: &[SkillFile]) -> Vec<TreeLine> {
    let mut lines = Vec::new();
    let mut open: Vec<String> = Vec::new();
    for file in files {
        let mut parts: Vec<String> = file
            .path
            .iter()
            .map(|part| sanitize::name(&part.to_string_lossy()))
            .collect();
        let Some(name) = parts.pop() else { continue };
        let common = open.iter().zip(&parts).take_while(|(a, b)| a == b).count();
        open.truncate(common);
        for folder in &parts[common..] {
            let below: PathBuf = file.path.iter().take(open.len() + 1).collect();
            lines.push(TreeLine {
                depth: open.len(),
                name: folder.clone(),
                entry: Entry::Folder,
                path: below,
            });
            open.push(folder.clone());
        }
        lines.push(TreeLine {
            depth: open.len(),
            name,
            entry: Entry::File {
                size: file.size,
                executable: file.executable,
            },
            path: file.path.clone(),
        });
    }
    lines
}

/// One row per agent that ships skills inside itself, after the folders: they cost its
/// context like the others, and no folder holds them.
fn builtin_roots(builtins: &[Builtin]) -> Vec<RootView> {
    crate::scan::builtins_by_agent(builtins)
        .into_iter()
        .map(|(agent, own)| {
            let names = |overridden: bool| -> Vec<&str> {
                own.iter()
                    .filter(|b| b.overridden_by.is_some() == overridden)
                    .map(|b| b.name)
                    .collect()
            };
            let mut notes = vec![format!("ships {}", names(false).join(", "))];
            let replaced = names(true);
            if !replaced.is_empty() {
                notes.push(format!(
                    "a skill on disk runs instead of {}",
                    replaced.join(", ")
                ));
            }
            RootView {
                shown_path: format!("built into {}", agent.display_name()),
                label: format!("{} built-in skills", agent.display_name()),
                scope: Scope::Bundled,
                agents: vec![agent],
                owners: vec![agent],
                presence: Presence::BuiltIn,
                skills: names(false).len(),
                notes,
            }
        })
        .collect()
}

fn root_view(entry: &RootEntry, home: &Path) -> RootView {
    let root = &entry.root;
    RootView {
        shown_path: human::path(&root.path, home, Unsafe::Dropped),
        label: root.label().to_owned(),
        scope: root.scope(),
        agents: root.agents(),
        owners: root.owners(),
        presence: match &root.state {
            RootState::Directory => Presence::Exists,
            RootState::Missing => Presence::Missing,
            RootState::NotADirectory => Presence::NotADirectory,
            RootState::Unreadable(error) => Presence::Unreadable(sanitize::line(error)),
        },
        skills: entry.skills,
        notes: entry
            .notes
            .iter()
            .map(|note| sanitize::line(&note.to_string()))
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(path: &str, size: u64) -> SkillFile {
        SkillFile {
            path: PathBuf::from(path),
            size,
            executable: path.ends_with(".sh"),
            modified: None,
        }
    }

    #[test]
    fn files_become_a_tree() {
        let lines = tree(&[
            file("SKILL.md", 10),
            file("references/a.md", 1),
            file("references/deep/b.md", 2),
            file("scripts/run.sh", 3),
        ]);
        let shown: Vec<(usize, &str, bool)> = lines
            .iter()
            .map(|l| (l.depth, l.name.as_str(), l.entry == Entry::Folder))
            .collect();
        assert_eq!(
            shown,
            [
                (0, "SKILL.md", false),
                (0, "references", true),
                (1, "a.md", false),
                (1, "deep", true),
                (2, "b.md", false),
                (0, "scripts", true),
                (1, "run.sh", false),
            ]
        );
        assert_eq!(
            lines[6].entry,
            Entry::File {
                size: 3,
                executable: true
            }
        );
    }

    #[test]
    fn upstreams_read_short() {
        let upstream = Upstream {
            repository: Some("https://github.com/acme/tools.git".to_owned()),
            reference: Some("v2".to_owned()),
            path: Some("skills/pdf".to_owned()),
            commit: Some("1a2b3c4d5e6f7a8b9c0d".to_owned()),
        };
        assert_eq!(
            upstream_text(&upstream),
            "github.com/acme/tools@v2 skills/pdf 1a2b3c4d5e6f"
        );
        let path_only = Upstream {
            path: Some("plugins/x".to_owned()),
            ..Upstream::default()
        };
        assert_eq!(upstream_text(&path_only), "plugins/x");
    }
}
