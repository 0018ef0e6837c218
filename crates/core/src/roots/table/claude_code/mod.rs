//! Claude Code 2.1.332, as its own listing shows it (the `system/init` line of
//! `claude -p --output-format stream-json` and the skill listing in the request it sends; checked
//! against a loopback stand-in for the model). Enterprise over personal over project, the
//! nearer project folder first; plugin skills are namespaced; a skill is named by its folder.

use super::*;

pub(crate) mod switches;
pub(in crate::roots) mod synced;

const SEEN: Evidence = Evidence::Listing {
    version: "2.1.332",
    test: "agree::claude_code",
};

/// One folder down, hidden folders included, whatever the `SKILL.md` holds.
const FINDS: Finds = Finds {
    hidden: true,
    hidden_skills: true,
    ..Finds::DIRECT
};

/// The personal folder holds the skills synced from claude.ai in `synced`, which is never read
/// as a skill of its own: a `~/.claude/skills/synced/SKILL.md` is not listed (seed 3 of
/// `agree::generate`, class `claude-synced`; the 2.1.332 binary refuses `synced` as a
/// personal skill's folder name), nor is `<proj>/.claude/skills/synced/SKILL.md` (seeds 137
/// and 149 of the 500-seed sweep, case claude-code-project-synced-folder.txt). The managed
/// folder was not asked.
const SKIPS_SYNCED: Finds = Finds {
    skips: &["synced"],
    ..FINDS
};

/// Signed in (a stored token, `oauthAccount`) and signed out with `CLAUDE_CODE_SYNC_SKILLS`,
/// asked of the agent; the rest of `synced.rs` is read in the binary and unit-tested.
const SYNCED_SEEN: Evidence = Evidence::Listing {
    version: "2.1.332",
    test: "agree::generate (class claude-synced), agree::claude_code",
};

/// A cached plugin loads only when `installed_plugins.json` beside the cache lists an install of
/// it and `enabledPlugins`, merged over every settings file, turns it on; a local-folder marketplace's plugin is read from
/// the folder (`readFromFolder`), not from the cache (`plugin::claude_code`).
const PLUGIN_RECORDS: Records = ClaudeCode {
    settings: Place::Under(&CLAUDE_HOME, "settings.json"),
};

/// Seen in the `system/init` line's `plugins[].path` and the skill listing, and asked in the
/// agreement suite (installs at each scope, `enabledPlugins` in each settings file).
const PLUGINS_SEEN: Evidence = SEEN;

/// Claude Code's answers to every question skilldeck asks about an agent.
pub(super) static AGENT: AgentRules = AgentRules {
    name_from: NameFrom::Directory,
    // Named by its folder whatever the frontmatter holds; a `SKILL.md` that is a link to
    // nothing is not listed (agree::frontmatter, 2.1.332).
    reads: Reader::STRICT,
    // What the model's listing holds (the request Claude Code sends); `/skills` also shows
    // batch, debug, deep-research, doctor, run-skill-generator and verify, which the model is
    // not offered.
    builtin: &[
        "claude-api",
        "code-review",
        "dataviz",
        "fewer-permission-prompts",
        "init",
        "keybindings-help",
        "loop",
        "plugin-authoring",
        "run",
        "security-review",
        "simplify",
        "update-config",
        "workflow-authoring",
    ],
    builtin_off: &["CLAUDE_CODE_DISABLE_BUNDLED_SKILLS"],
    builtin_off_by_settings: switches::bundled_off,
    builtin_plugins: &["plugin-authoring"],
    turned_off: switches::turned_off,
    // The request 2.1.332 sends its model, checked by agree::listing_claude_code.
    prompt_listing: PromptListing::ClaudeCode,
    // `skillOverrides` and `enabledPlugins` (switches.rs), checked by
    // agree::switch_claude_code_user_settings on 2.1.332.
    skill_switch: SkillSwitch::ClaudeCode,
    // Its transcripts and `~/.claude.json` counters, as 2.1.332 writes them
    // (usage::transcript, usage::counters).
    session_logs: SessionLogs::ClaudeCode,
    ..AgentRules::assumed(
        "claude-code",
        "Claude Code",
        SEEN,
        &[CLAUDE_HOME],
        Rows::Written(RULES),
    )
};

/// Up to the repository, or without one every parent below the home.
const WALK: Walk = UpToRepositoryElse(Beyond::BelowHome);

const ME: AgentId = AgentId::CLAUDE_CODE;

/// Its skills folders, searched as [`FINDS`] says.
const FOLDER: Rule = folders(ME, SEEN, FINDS);

const RULES: &[Rule] = &[
    unless(
        FOLDER.at(
            Organization,
            Place::System(SystemPath {
                linux: "etc/claude-code/.claude/skills",
                macos: "Library/Application Support/ClaudeCode/.claude/skills",
                windows: "Program Files/ClaudeCode/.claude/skills",
            }),
            0,
            "Claude Code managed skills",
        ),
        &["CLAUDE_CODE_DISABLE_POLICY_SKILLS"],
    ),
    installs(Rule {
        layout: SkillsAndDirPlugins,
        finds: SKIPS_SYNCED,
        ..FOLDER.under(&CLAUDE_HOME, "skills", 1, "Claude Code personal skills")
    }),
    // A plugin-shaped folder here is no plugin: Claude Code 2.1.332 reads skills-directory
    // plugins from the personal folder only (agree::generate, class `home-moved`, seed 13 of
    // the 500-seed sweep; case claude-code-project-dir-plugin.txt).
    installs(Rule {
        finds: SKIPS_SYNCED,
        ..FOLDER.project(".claude/skills", WALK, 2, "Claude Code project skills")
    }),
    // Only `synced/<org>_<account>` of the identity the run is signed in as, and only when its
    // `.bucket-` marker is there (synced.rs, read in the 2.1.332 binary); listed as
    // `anthropic-skills:NAME`, so a personal skill of the same name does not hide it.
    qualified(
        Rule {
            evidence: SYNCED_SEEN,
            ..FOLDER.at(
                User,
                Place::Picked {
                    base: &Place::Under(&CLAUDE_HOME, "skills/synced"),
                    pick: Pick {
                        rule: "claude-code synced",
                        pick: synced::loaded,
                    },
                    variables: synced::VARIABLES,
                    shown: "<org>_<account>",
                },
                3,
                "Claude Code skills synced from claude.ai",
            )
        },
        synced::QUALIFIER,
    ),
    row(
        ME,
        Plugin,
        Place::Under(&CLAUDE_PLUGINS, "cache"),
        Plugins(PLUGIN_RECORDS),
        4,
        "Claude Code plugin cache",
        PLUGINS_SEEN,
    ),
    row(
        ME,
        Plugin,
        Place::Under(&Place::EachIn("CLAUDE_CODE_PLUGIN_SEED_DIR"), "cache"),
        Plugins(PLUGIN_RECORDS),
        5,
        "Claude Code plugin seed cache",
        PLUGINS_SEEN,
    ),
    row(
        ME,
        Plugin,
        Place::Under(&CLAUDE_PLUGINS, "marketplaces"),
        Marketplaces,
        6,
        "Claude Code marketplace clones (not loaded)",
        Evidence::Docs("skill-format-and-roots.md §2.1 Plugin (marketplaces/<name>)"),
    ),
];
