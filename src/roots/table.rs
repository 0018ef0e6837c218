//! Every place an agent reads skills from, one row per agent and directory, written so a reader
//! can check each row against `reference/skill-format-and-roots.md` (the `basis` column names
//! the section).
//!
//! `rank` orders an agent's roots when two skills share a name: the lower rank wins. Within a
//! rank the nearer project level wins, then the earlier row. For agents that load roots one
//! after another and let the later one win (OpenCode, Goose), the rank is the reverse of their
//! load order.
//!
//! Left out on purpose: Amp (its roots are known only from third-party reverse engineering),
//! Cursor's plugin folders and Copilot's `COPILOT_SKILLS_DIRS` (layout and separator
//! unconfirmed), nested project roots below the start directory (agents load them lazily),
//! and roots that only a configuration file names (`skills.paths`, `--add-dir`).

use super::agents::AgentId;
use super::place::{Place, SystemPath};
use super::project::Walk;

/// Which kind of root a skill lives in; `Bundled` is what an agent writes for itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Scope {
    Plugin,
    Organization,
    User,
    Project,
    Bundled,
}

/// How skills sit inside a root.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// `<root>/<name>/SKILL.md`.
    Skills,
    /// As `Skills`, and a folder holding `.claude-plugin/plugin.json` is a plugin whose skills
    /// are namespaced (Claude Code's skills-directory plugins, `<name>@skills-dir`).
    SkillsAndDirPlugins,
    /// Plugin folders `depth` levels below the root; the folder name at level `name_at`
    /// (0 = first) names the plugin when its manifest does not.
    Plugins { depth: u8, name_at: u8 },
    /// Claude Code's marketplace clones: kept on disk, never loaded (installed plugins are
    /// copied into the cache, which is loaded).
    Marketplaces,
}

impl Layout {
    /// Whether the agent of the row loads the skills found this way.
    pub fn loaded(self) -> bool {
        !matches!(self, Layout::Marketplaces)
    }
}

/// One row: an agent reads skills laid out `layout` at `place`, with `scope`.
#[derive(Debug)]
pub struct Rule {
    pub agent: AgentId,
    pub scope: Scope,
    pub place: Place,
    pub layout: Layout,
    pub rank: u8,
    /// A switch the agent reads that turns this root off.
    pub unless: Option<&'static str>,
    /// Whether an import for this agent and scope installs here (see [`install_rule`]).
    pub installs: bool,
    pub label: &'static str,
    pub basis: &'static str,
}

const CLAUDE_HOME: Place = Place::Env {
    var: "CLAUDE_CONFIG_DIR",
    then: "",
    or: &Place::Home(".claude"),
};
const CLAUDE_PLUGINS: Place = Place::Env {
    var: "CLAUDE_CODE_PLUGIN_CACHE_DIR",
    then: "",
    or: &Place::Under(&CLAUDE_HOME, "plugins"),
};
const CODEX_HOME: Place = Place::Env {
    var: "CODEX_HOME",
    then: "",
    or: &Place::Home(".codex"),
};
const COPILOT_HOME: Place = Place::Env {
    var: "COPILOT_HOME",
    then: "",
    or: &Place::Home(".copilot"),
};
/// `GEMINI_CLI_HOME` replaces the home directory that holds `.gemini`.
const GEMINI_DIR: Place = Place::Env {
    var: "GEMINI_CLI_HOME",
    then: ".gemini",
    or: &Place::Home(".gemini"),
};
const XDG_CONFIG: Place = Place::Env {
    var: "XDG_CONFIG_HOME",
    then: "",
    or: &Place::Home(".config"),
};
const OPENCODE_CONFIG_DIR: Place = Place::Env {
    var: "OPENCODE_CONFIG_DIR",
    then: "",
    or: &Place::Nowhere,
};

const fn row(
    agent: AgentId,
    scope: Scope,
    place: Place,
    layout: Layout,
    rank: u8,
    label: &'static str,
    basis: &'static str,
) -> Rule {
    Rule {
        agent,
        scope,
        place,
        layout,
        rank,
        unless: None,
        installs: false,
        label,
        basis,
    }
}

const fn unless(mut rule: Rule, switch: &'static str) -> Rule {
    rule.unless = Some(switch);
    rule
}

const fn installs(mut rule: Rule) -> Rule {
    rule.installs = true;
    rule
}

/// The row an import for `agent` at `scope` installs into: one marked row per agent for the
/// user and the project scope.
///
/// The rule that marks them: the folder the agent's own documentation gives as its home for
/// skills at that scope, or the shared `.agents/skills` where the agent documents that one as
/// its home (Codex, whose `$CODEX_HOME/skills` is deprecated, and Goose's current docs).
/// Folders an agent reads only for compatibility with another agent are never chosen, so an
/// import for one agent does not land in another's folder by surprise.
pub fn install_rule(agent: AgentId, scope: Scope) -> Option<&'static Rule> {
    RULES
        .iter()
        .find(|rule| rule.installs && rule.agent == agent && rule.scope == scope)
}

use AgentId::{ClaudeCode, Codex, Copilot, Cursor, GeminiCli, Goose, Opencode, Windsurf};
use Layout::{Marketplaces, Plugins, Skills, SkillsAndDirPlugins};
use Scope::{Bundled, Organization, Plugin, Project, User};
use Walk::{Start, UpToRepository};

/// The table.
pub static RULES: &[Rule] = &[
    // Claude Code: enterprise over personal over project; plugin skills are namespaced.
    unless(
        row(
            ClaudeCode,
            Organization,
            Place::System(SystemPath {
                linux: "etc/claude-code/.claude/skills",
                macos: "Library/Application Support/ClaudeCode/.claude/skills",
                windows: "Program Files/ClaudeCode/.claude/skills",
            }),
            Skills,
            0,
            "Claude Code managed skills",
            "§2.1 Organization",
        ),
        "CLAUDE_CODE_DISABLE_POLICY_SKILLS",
    ),
    installs(row(
        ClaudeCode,
        User,
        Place::Under(&CLAUDE_HOME, "skills"),
        SkillsAndDirPlugins,
        1,
        "Claude Code personal skills",
        "§2.1 User",
    )),
    installs(row(
        ClaudeCode,
        Project,
        Place::Project(".claude/skills", UpToRepository),
        SkillsAndDirPlugins,
        2,
        "Claude Code project skills",
        "§2.1 Project",
    )),
    row(
        ClaudeCode,
        User,
        Place::Under(&CLAUDE_HOME, "skills/synced"),
        Skills,
        3,
        "Claude Code skills synced from claude.ai",
        "§2.1 User (synced; local sources win)",
    ),
    row(
        ClaudeCode,
        Plugin,
        Place::Under(&CLAUDE_PLUGINS, "cache"),
        Plugins {
            depth: 3,
            name_at: 1,
        },
        4,
        "Claude Code plugin cache",
        "§2.1 Plugin (cache/<marketplace>/<plugin>/<version>)",
    ),
    row(
        ClaudeCode,
        Plugin,
        Place::Under(&Place::EachIn("CLAUDE_CODE_PLUGIN_SEED_DIR"), "cache"),
        Plugins {
            depth: 3,
            name_at: 1,
        },
        5,
        "Claude Code plugin seed cache",
        "§2.1 Plugin (CLAUDE_CODE_PLUGIN_SEED_DIR)",
    ),
    row(
        ClaudeCode,
        Plugin,
        Place::Under(&CLAUDE_PLUGINS, "marketplaces"),
        Marketplaces,
        6,
        "Claude Code marketplace clones (not loaded)",
        "§2.1 Plugin (marketplaces/<name>)",
    ),
    // Codex keeps every skill; ranks only document its sort order (repo, user, system, admin).
    installs(row(
        Codex,
        Project,
        Place::Project(".agents/skills", UpToRepository),
        Skills,
        0,
        "Codex project skills",
        "§2.2 (4)",
    )),
    row(
        Codex,
        Project,
        Place::Project(".codex/skills", UpToRepository),
        Skills,
        0,
        "Codex project config skills",
        "§2.2 (1)",
    ),
    row(
        Codex,
        User,
        Place::Under(&CODEX_HOME, "skills"),
        Skills,
        1,
        "Codex user skills (deprecated location)",
        "§2.2 (1)",
    ),
    installs(row(
        Codex,
        User,
        Place::Home(".agents/skills"),
        Skills,
        1,
        "Codex user skills",
        "§2.2 (1)",
    )),
    row(
        Codex,
        Plugin,
        Place::Under(&CODEX_HOME, "plugins/cache"),
        Plugins {
            depth: 3,
            name_at: 1,
        },
        1,
        "Codex plugin cache",
        "§2.2 Plugins",
    ),
    row(
        Codex,
        Bundled,
        Place::Under(&CODEX_HOME, "skills/.system"),
        Skills,
        2,
        "Codex system skills",
        "§2.2 (1)",
    ),
    row(
        Codex,
        Organization,
        Place::System(SystemPath {
            linux: "etc/codex/skills",
            macos: "etc/codex/skills",
            windows: "ProgramData/OpenAI/Codex/skills",
        }),
        Skills,
        3,
        "Codex admin skills",
        "§2.2 (1)",
    ),
    // OpenCode loads in order and the later wins: the ranks run backwards from its load order.
    row(
        Opencode,
        User,
        Place::Under(&OPENCODE_CONFIG_DIR, "skills"),
        Skills,
        0,
        "OpenCode config dir skills",
        "§2.3 (3)",
    ),
    row(
        Opencode,
        User,
        Place::Under(&OPENCODE_CONFIG_DIR, "skill"),
        Skills,
        0,
        "OpenCode config dir skills",
        "§2.3 (3)",
    ),
    row(
        Opencode,
        User,
        Place::Home(".opencode/skills"),
        Skills,
        1,
        "OpenCode home skills",
        "§2.3 (3)",
    ),
    row(
        Opencode,
        User,
        Place::Home(".opencode/skill"),
        Skills,
        1,
        "OpenCode home skills",
        "§2.3 (3)",
    ),
    installs(row(
        Opencode,
        Project,
        Place::Project(".opencode/skills", UpToRepository),
        Skills,
        2,
        "OpenCode project skills",
        "§2.3 (3)",
    )),
    row(
        Opencode,
        Project,
        Place::Project(".opencode/skill", UpToRepository),
        Skills,
        2,
        "OpenCode project skills",
        "§2.3 (3)",
    ),
    installs(row(
        Opencode,
        User,
        Place::Under(&XDG_CONFIG, "opencode/skills"),
        Skills,
        3,
        "OpenCode global skills",
        "§2.3 (3)",
    )),
    row(
        Opencode,
        User,
        Place::Under(&XDG_CONFIG, "opencode/skill"),
        Skills,
        3,
        "OpenCode global skills",
        "§2.3 (3)",
    ),
    unless(
        row(
            Opencode,
            Project,
            Place::Project(".agents/skills", UpToRepository),
            Skills,
            4,
            "OpenCode project compatibility skills",
            "§2.3 (2)",
        ),
        "OPENCODE_DISABLE_EXTERNAL_SKILLS",
    ),
    unless(
        row(
            Opencode,
            Project,
            Place::Project(".claude/skills", UpToRepository),
            Skills,
            5,
            "OpenCode project compatibility skills",
            "§2.3 (2)",
        ),
        "OPENCODE_DISABLE_EXTERNAL_SKILLS",
    ),
    unless(
        row(
            Opencode,
            User,
            Place::Home(".agents/skills"),
            Skills,
            6,
            "OpenCode global compatibility skills",
            "§2.3 (1)",
        ),
        "OPENCODE_DISABLE_EXTERNAL_SKILLS",
    ),
    unless(
        row(
            Opencode,
            User,
            Place::Home(".claude/skills"),
            Skills,
            7,
            "OpenCode global compatibility skills",
            "§2.3 (1)",
        ),
        "OPENCODE_DISABLE_EXTERNAL_SKILLS",
    ),
    // Gemini CLI: workspace over user over extensions; `.agents` beats `.gemini` in a tier.
    row(
        GeminiCli,
        Project,
        Place::Project(".agents/skills", Start),
        Skills,
        0,
        "Gemini CLI workspace skills",
        "§2.4",
    ),
    installs(row(
        GeminiCli,
        Project,
        Place::Project(".gemini/skills", Start),
        Skills,
        1,
        "Gemini CLI workspace skills",
        "§2.4",
    )),
    row(
        GeminiCli,
        User,
        Place::Home(".agents/skills"),
        Skills,
        2,
        "Gemini CLI user skills",
        "§2.4",
    ),
    installs(row(
        GeminiCli,
        User,
        Place::Under(&GEMINI_DIR, "skills"),
        Skills,
        3,
        "Gemini CLI user skills",
        "§2.4",
    )),
    row(
        GeminiCli,
        Plugin,
        Place::Under(&GEMINI_DIR, "extensions"),
        Plugins {
            depth: 1,
            name_at: 0,
        },
        4,
        "Gemini CLI extensions",
        "§2.4 (extension layout unconfirmed)",
    ),
    // GitHub Copilot: first found wins, project (and its parents) before personal before plugins.
    installs(row(
        Copilot,
        Project,
        Place::Project(".github/skills", UpToRepository),
        Skills,
        0,
        "Copilot project skills",
        "§2.5",
    )),
    row(
        Copilot,
        Project,
        Place::Project(".agents/skills", UpToRepository),
        Skills,
        0,
        "Copilot project skills",
        "§2.5",
    ),
    row(
        Copilot,
        Project,
        Place::Project(".claude/skills", UpToRepository),
        Skills,
        0,
        "Copilot project skills",
        "§2.5",
    ),
    installs(row(
        Copilot,
        User,
        Place::Under(&COPILOT_HOME, "skills"),
        Skills,
        1,
        "Copilot personal skills",
        "§2.5",
    )),
    row(
        Copilot,
        User,
        Place::Home(".agents/skills"),
        Skills,
        1,
        "Copilot personal skills",
        "§2.5",
    ),
    row(
        Copilot,
        User,
        Place::Home(".claude/skills"),
        Skills,
        1,
        "Copilot personal skills",
        "§2.5",
    ),
    row(
        Copilot,
        Plugin,
        Place::Under(&COPILOT_HOME, "installed-plugins"),
        Plugins {
            depth: 2,
            name_at: 1,
        },
        2,
        "Copilot installed plugins",
        "§2.5 (installed-plugins/<marketplace>/<plugin>)",
    ),
    // Cursor: precedence is undocumented; project over user, as the agentskills.io guide has it.
    row(
        Cursor,
        Project,
        Place::Project(".agents/skills", Start),
        Skills,
        0,
        "Cursor project skills",
        "§2.6",
    ),
    installs(row(
        Cursor,
        Project,
        Place::Project(".cursor/skills", Start),
        Skills,
        0,
        "Cursor project skills",
        "§2.6",
    )),
    row(
        Cursor,
        Project,
        Place::Project(".claude/skills", Start),
        Skills,
        0,
        "Cursor project skills",
        "§2.6",
    ),
    row(
        Cursor,
        Project,
        Place::Project(".codex/skills", Start),
        Skills,
        0,
        "Cursor project skills",
        "§2.6",
    ),
    row(
        Cursor,
        User,
        Place::Home(".agents/skills"),
        Skills,
        1,
        "Cursor user skills",
        "§2.6",
    ),
    installs(row(
        Cursor,
        User,
        Place::Home(".cursor/skills"),
        Skills,
        1,
        "Cursor user skills",
        "§2.6",
    )),
    row(
        Cursor,
        User,
        Place::Home(".claude/skills"),
        Skills,
        1,
        "Cursor user skills",
        "§2.6",
    ),
    row(
        Cursor,
        User,
        Place::Home(".codex/skills"),
        Skills,
        1,
        "Cursor user skills",
        "§2.6",
    ),
    // Goose loads in order and the later wins; project `.agents` is highest.
    installs(row(
        Goose,
        Project,
        Place::Project(".agents/skills", Start),
        Skills,
        0,
        "Goose project skills",
        "§2.8",
    )),
    row(
        Goose,
        Project,
        Place::Project(".goose/skills", Start),
        Skills,
        1,
        "Goose project skills",
        "§2.8",
    ),
    row(
        Goose,
        Project,
        Place::Project(".claude/skills", Start),
        Skills,
        2,
        "Goose project skills",
        "§2.8",
    ),
    row(
        Goose,
        User,
        Place::Under(&XDG_CONFIG, "goose/skills"),
        Skills,
        3,
        "Goose config skills",
        "§2.8",
    ),
    installs(row(
        Goose,
        User,
        Place::Home(".agents/skills"),
        Skills,
        4,
        "Goose global skills",
        "§2.8",
    )),
    row(
        Goose,
        User,
        Place::Home(".claude/skills"),
        Skills,
        5,
        "Goose global skills",
        "§2.8",
    ),
    // Windsurf: workspace over global.
    installs(row(
        Windsurf,
        Project,
        Place::Project(".windsurf/skills", Start),
        Skills,
        0,
        "Windsurf workspace skills",
        "§2.9",
    )),
    installs(row(
        Windsurf,
        User,
        Place::Home(".codeium/windsurf/skills"),
        Skills,
        1,
        "Windsurf global skills",
        "§2.9",
    )),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_agent_has_a_user_and_a_project_root() {
        for agent in AgentId::ALL {
            let scopes: Vec<Scope> = RULES
                .iter()
                .filter(|rule| rule.agent == agent)
                .map(|rule| rule.scope)
                .collect();
            assert!(scopes.contains(&User), "{agent} has no user root");
            assert!(scopes.contains(&Project), "{agent} has no project root");
        }
    }

    #[test]
    fn every_agent_has_one_install_root_per_scope() {
        for agent in AgentId::ALL {
            for scope in [User, Project] {
                let marked = RULES
                    .iter()
                    .filter(|r| r.installs && r.agent == agent && r.scope == scope)
                    .count();
                assert_eq!(marked, 1, "{agent} {scope:?}");
                assert!(install_rule(agent, scope).unwrap().layout.loaded());
            }
            assert!(install_rule(agent, Plugin).is_none());
        }
    }

    #[test]
    fn every_row_names_the_reference_it_follows() {
        for rule in RULES {
            assert!(rule.basis.starts_with('§'), "{rule:?}");
            assert!(!rule.label.is_empty(), "{rule:?}");
        }
    }
}
