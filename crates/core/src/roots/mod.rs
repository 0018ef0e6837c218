//! Where skills live: every agent's roots at every scope, resolved for one environment and one
//! project, and the classification of a skill's source from the roots that hold it.

mod agent;
mod copilot_numbers;
pub mod dialect;
mod env;
mod js_json;
mod machine;
mod place;
mod project;
mod settings;
mod source;
mod table;
mod trust;

use std::io;
use std::path::{Path, PathBuf};

pub use agent::{
    AgentId, Effect, Evidence, Hiding, NameFrom, OnSameName, PromptListing, Selector, SessionLogs,
    SkillSwitch, TurnedOff,
};
pub use env::{Environment, NoHome, Platform};
pub use machine::Machine;
pub use place::{Located, Pick, Place, SystemPath};
pub use project::{Beyond, Markers, Project, Walk};
pub use settings::reading as reading_settings;
pub use source::{Source, SourceRoots, is_plugin_qualified};
pub use table::{
    AgentRules, AtRoot, Finds, Hydration, HydrationContexts, Layout, Needs, PREFERRED_DESTINATION,
    Records, Rule, Scope, Spot, agents, install_rule, markdown, rules,
};
pub use trust::Trust;

pub(crate) use table::homes;
pub(crate) use table::switch_files;
pub(crate) use table::{copilot_ignored, gemini_extensions};

impl Scope {
    /// The source a skill in a root of this scope has.
    pub fn source(self) -> Source {
        match self {
            Scope::Plugin => Source::Plugin,
            Scope::Organization => Source::Organization,
            Scope::User => Source::User,
            Scope::Project => Source::Project,
            Scope::Bundled => Source::Builtin,
        }
    }
}

/// Every variable that moves a root or turns one off, as the roots table names them, and
/// skilldeck's own.
pub fn honoured_variables() -> Vec<&'static str> {
    let mut names: Vec<&'static str> = env::OWN_VARIABLES.to_vec();
    names.extend(table::variables());
    names.sort_unstable();
    names.dedup();
    names
}

impl Environment {
    /// The environment of this process: its home and every variable skilldeck honours.
    ///
    /// # Errors
    /// [`NoHome`] when neither `HOME` nor the password database names a home directory.
    pub fn from_process() -> Result<Self, NoHome> {
        Self::reading(&honoured_variables())
    }
}

/// How an agent's claim on a root ranks against its other roots when two skills share a name:
/// lower wins.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Priority {
    pub rank: u8,
    pub level: u8,
    pub row: u16,
}

/// One table row that resolved to a root.
#[derive(Clone, Copy, Debug)]
pub struct RootUse {
    pub rule: &'static Rule,
    /// The row is read only in a folder its agent trusts, and it does not trust this one:
    /// its skills are listed, and left out for that agent.
    pub distrusted: Option<Trust>,
    /// A setting (or a config the agent refuses) that leaves the agent without any skill:
    /// it reaches the plugins read through this root too, not only the skills found in it
    /// (Codex 0.171.0 refusing its config starts no session; Gemini CLI 0.61.0 calls
    /// `discoverSkills(storage, extensions, …)` only `if (this.skillsSupport)`, bundle
    /// chunk-5FZXKDXH.js, so its extensions' skills go with the rest).
    pub all_off: Option<Trust>,
    pub priority: Priority,
}

/// What is at a root's path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RootState {
    Missing,
    Directory,
    NotADirectory,
    Unreadable(String),
}

/// A directory that holds skills, with every agent and scope that reads it.
#[derive(Clone, Debug)]
pub struct Root {
    pub path: PathBuf,
    pub uses: Vec<RootUse>,
    pub state: RootState,
    /// The path with every link resolved, when the root exists.
    pub real_path: Option<PathBuf>,
}

impl Root {
    /// The scope that names this root's source: plugin before organization before user before
    /// project, as source classification asks them.
    pub fn scope(&self) -> Scope {
        self.uses
            .iter()
            .map(|u| u.rule.scope)
            .min()
            .unwrap_or(Scope::Bundled)
    }

    /// The agents that load skills from this root, each once, in table order.
    pub fn agents(&self) -> Vec<AgentId> {
        let mut agents: Vec<AgentId> = self
            .uses
            .iter()
            .filter(|u| u.rule.layout.loaded() && u.distrusted.is_none())
            .map(|u| u.rule.agent)
            .collect();
        agents.sort();
        agents.dedup();
        agents
    }

    /// What the first agent to read it calls it ("Claude Code personal skills").
    pub fn label(&self) -> &'static str {
        self.uses.first().map(|u| u.rule.label).unwrap_or_default()
    }

    /// Every agent with a use for this root, loading from it or not (Claude Code keeps its
    /// marketplace clones in one), each once, in table order.
    pub fn owners(&self) -> Vec<AgentId> {
        let mut owners: Vec<AgentId> = self.uses.iter().map(|u| u.rule.agent).collect();
        owners.sort();
        owners.dedup();
        owners
    }

    /// Whether any row lays this root out as `layout`.
    pub fn has_layout(&self, wanted: impl Fn(Layout) -> bool) -> bool {
        self.uses.iter().any(|u| wanted(u.rule.layout))
    }
}

/// Whether a listing of roots that shows the agents `shown` keeps a root with these `owners`
/// (the agents with a use for it) holding `skills`: a folder holding skills is kept whoever
/// reads it, what an agent ships inside itself (`built_in`) and an empty folder only when a
/// shown agent has a use for it, since most of the table's agents are not on a given machine.
pub fn root_shown(
    skills: usize,
    owners: &[AgentId],
    built_in: bool,
    shown: impl Fn(AgentId) -> bool,
) -> bool {
    (skills > 0 && !built_in) || owners.iter().any(|&agent| shown(agent))
}

/// Every root of one run.
#[derive(Clone, Debug)]
pub struct RootSet {
    pub roots: Vec<Root>,
    pub project: Project,
}

impl RootSet {
    /// The roots `env` gives for a run started in `project_start` (an absolute path).
    pub fn resolve(env: &Environment, project_start: &Path) -> Self {
        let project = Project::locate(project_start);
        let mut roots: Vec<Root> = Vec::new();
        // A setting that switches all an agent's skills off is read once per agent, not once
        // per row: it reads the agent's settings files.
        let mut switched_off: Vec<(AgentId, Option<Trust>)> = Vec::new();
        // The folders a setting leaves out by path, read once per agent too.
        let mut ignoring: Vec<(AgentId, Vec<PathBuf>)> = Vec::new();
        for (row, rule) in (0u16..).zip(rules()) {
            if rule.unless.iter().any(|switch| env.flag(switch)) {
                continue;
            }
            let all_off = match switched_off.iter().find(|(agent, _)| *agent == rule.agent) {
                Some(&(_, off)) => off,
                None => {
                    let off = rule
                        .agent
                        .agent()
                        .skills_enabled()
                        .filter(|gate| !(gate.check)(env, &project));
                    switched_off.push((rule.agent, off));
                    off
                }
            };
            // Folder trust first, then that setting: the first that says no leaves the root
            // out, with its sentence.
            let distrusted = rule
                .trust
                .filter(|trust| !(trust.check)(env, &project))
                .or(all_off);
            let ignored: Vec<PathBuf> = match rule.ignores {
                Some(ignores) => match ignoring.iter().find(|(agent, _)| *agent == rule.agent) {
                    Some((_, locations)) => locations.clone(),
                    None => {
                        let locations = (ignores.locations)(env, &project);
                        ignoring.push((rule.agent, locations.clone()));
                        locations
                    }
                },
                None => Vec::new(),
            };
            for Located { path, level } in rule.place.resolve(env, &project) {
                // Then a setting that names the folder itself.
                let distrusted = distrusted.or_else(|| {
                    let named = ignored
                        .iter()
                        .any(|location| crate::fs::lexical(&path).starts_with(location));
                    rule.ignores
                        .filter(|_| named)
                        .map(|ignores| ignores.verdict())
                });
                let claim = RootUse {
                    distrusted,
                    all_off,
                    rule,
                    priority: Priority {
                        rank: rule.rank,
                        level,
                        row,
                    },
                };
                match roots.iter_mut().find(|root| root.path == path) {
                    Some(root) => root.uses.push(claim),
                    None => {
                        let state = state_of(&path);
                        let real_path = (state == RootState::Directory)
                            .then(|| crate::fs::canonical(&path).ok())
                            .flatten();
                        roots.push(Root {
                            state,
                            real_path,
                            path,
                            uses: vec![claim],
                        });
                    }
                }
            }
        }
        Self { roots, project }
    }

    /// The folders source classification asks, before the scan adds the plugin folders it
    /// finds inside skill roots.
    pub fn source_roots(&self) -> SourceRoots {
        let mut sources = SourceRoots::default();
        for root in &self.roots {
            let scope = root.scope();
            let source = (scope != Scope::Bundled).then(|| scope.source());
            sources.add(source, root.path.clone());
        }
        sources.add(Some(Source::Project), self.project.top().to_path_buf());
        sources
    }
}

/// The root an import for `agent` at `scope` installs into, for a run started in
/// `project_start`; `None` for a scope the agent has no install root at.
///
/// A project root is taken at the farthest level the agent reads it from (the repository root
/// for agents that walk up to it, the start directory for the others), so the skill is seen
/// from anywhere the agent would look.
pub fn install_root(
    env: &Environment,
    project_start: &Path,
    agent: AgentId,
    scope: Scope,
) -> Option<PathBuf> {
    let rule = install_rule(agent, scope)?;
    let project = Project::locate(project_start);
    // Agents that walk past the repository (or past a start outside one) still find a skill
    // installed at the top of the project.
    rule.place
        .resolve(env, &project)
        .into_iter()
        .rfind(|located| rule.scope != Scope::Project || located.path.starts_with(project.top()))
        .map(|located| located.path)
}

fn state_of(path: &Path) -> RootState {
    match std::fs::metadata(path) {
        Ok(meta) if meta.is_dir() => RootState::Directory,
        Ok(_) => RootState::NotADirectory,
        Err(error) if error.kind() == io::ErrorKind::NotFound => RootState::Missing,
        Err(error) => RootState::Unreadable(error.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn find<'a>(set: &'a RootSet, path: &str) -> &'a Root {
        set.roots
            .iter()
            .find(|root| root.path == Path::new(path))
            .unwrap_or_else(|| panic!("no root at {path}"))
    }

    #[test]
    fn one_path_read_by_several_agents_is_one_root() {
        let env = Environment::new("/home/me");
        let set = RootSet::resolve(&env, Path::new("/nonexistent/project"));
        let shared = find(&set, "/home/me/.agents/skills");
        for agent in [
            AgentId::CODEX,
            AgentId::OPENCODE,
            AgentId::GEMINI_CLI,
            AgentId::COPILOT,
            AgentId::CURSOR,
            AgentId::GOOSE,
        ] {
            assert!(shared.agents().contains(&agent), "{agent}");
        }
        assert!(!shared.agents().contains(&AgentId::CLAUDE_CODE));
        let cline = AgentId::from_id("cline").unwrap();
        assert!(shared.agents().contains(&cline));
        assert_eq!(shared.scope(), Scope::User);
        let claude = find(&set, "/home/me/.claude/skills");
        assert!(claude.agents().contains(&AgentId::CLAUDE_CODE));
        assert_eq!(
            set.roots
                .iter()
                .filter(|r| r.path == Path::new("/home/me/.claude/skills"))
                .count(),
            1
        );
    }

    #[test]
    fn claude_config_dir_moves_its_roots_but_not_other_agents_reads_of_dot_claude() {
        let env = Environment::new("/home/me").with_var("CLAUDE_CONFIG_DIR", "/cfg/claude");
        let set = RootSet::resolve(&env, Path::new("/nonexistent/project"));
        assert_eq!(
            find(&set, "/cfg/claude/skills").agents(),
            [AgentId::CLAUDE_CODE]
        );
        assert!(
            !find(&set, "/home/me/.claude/skills")
                .agents()
                .contains(&AgentId::CLAUDE_CODE)
        );
        find(&set, "/cfg/claude/plugins/cache");
    }

    // Written with Unix absolute paths (`/…`), which are not absolute on Windows.
    #[cfg(unix)]
    #[test]
    fn every_override_moves_its_root() {
        let env = Environment::new("/home/me")
            .with_var("CLAUDE_CODE_PLUGIN_CACHE_DIR", "/plug")
            .with_var("CODEX_HOME", "/codex")
            .with_var("COPILOT_HOME", "/copilot")
            .with_var("GEMINI_CLI_HOME", "/gem")
            .with_var("OPENCODE_CONFIG_DIR", "/oc")
            .with_var("XDG_CONFIG_HOME", "/xdg")
            .with_var("SKILLDECK_SYSTEM_ROOT", "/sys");
        let set = RootSet::resolve(&env, Path::new("/nonexistent/project"));
        for path in [
            "/plug/cache",
            "/plug/marketplaces",
            "/codex/skills",
            "/codex/skills/.system",
            "/codex/plugins/cache",
            "/copilot/skills",
            "/copilot/installed-plugins",
            "/gem/.gemini/skills",
            "/gem/.gemini/extensions",
            "/oc/skills",
            "/xdg/opencode/skills",
            "/xdg/goose/skills",
        ] {
            find(&set, path);
        }
        if cfg!(target_os = "linux") {
            assert_eq!(
                find(&set, "/sys/etc/claude-code/.claude/skills").scope(),
                Scope::Organization
            );
            find(&set, "/sys/etc/codex/skills");
        }
    }

    #[test]
    fn imports_install_where_each_agent_documents_its_skills() {
        let env = Environment::new("/home/me").with_var("CODEX_HOME", "/codex");
        let tmp = tempfile::tempdir().unwrap();
        let repo = tmp.path().join("repo");
        std::fs::create_dir_all(repo.join(".git")).unwrap();
        std::fs::create_dir_all(repo.join("app")).unwrap();
        let start = repo.join("app");
        let root = |agent, scope| install_root(&env, &start, agent, scope).unwrap();
        assert_eq!(
            root(AgentId::CLAUDE_CODE, Scope::User),
            Path::new("/home/me/.claude/skills")
        );
        assert_eq!(
            root(AgentId::CODEX, Scope::User),
            Path::new("/home/me/.agents/skills")
        );
        assert_eq!(
            root(AgentId::CLAUDE_CODE, Scope::Project),
            repo.join(".claude/skills")
        );
        assert_eq!(
            root(AgentId::CURSOR, Scope::Project),
            start.join(".cursor/skills")
        );
        assert_eq!(
            root(AgentId::OPENCODE, Scope::User),
            Path::new("/home/me/.config/opencode/skills")
        );
        assert_eq!(
            install_root(&env, &start, AgentId::CODEX, Scope::Plugin),
            None
        );
    }

    #[test]
    fn a_switch_turns_its_roots_off() {
        let env = Environment::new("/home/me")
            .with_var("CLAUDE_CODE_DISABLE_POLICY_SKILLS", "1")
            .with_var("SKILLDECK_SYSTEM_ROOT", "/sys");
        let set = RootSet::resolve(&env, Path::new("/nonexistent/project"));
        assert!(
            !set.roots
                .iter()
                .any(|r| r.path.ends_with("etc/claude-code/.claude/skills"))
        );
    }
}
