//! Amp 0.0.1790142911, as its own listing shows it (`amp skill list --json`). The first copy
//! of a name it loads wins: the user folders under `~/.config` and `~/.agents` before the
//! project's, and those before Claude Code's folders. `XDG_CONFIG_HOME` does not move them.

use super::*;

const ME: AgentId = AgentId::AMP;

const SEEN: Evidence = Evidence::Listing {
    version: "0.0.1790142911-g7618fb",
    test: "agree::amp",
};

/// Five folders below every root, hidden folders and skills inside skills too, the root's own
/// `SKILL.md` as well; a skill without frontmatter, a description or a valid name is dropped.
/// A skill whose own folder is hidden is kept (`.x/SKILL.md` naming `x`; `.x` as a name is not
/// valid). `node_modules` and `.git` folders are never entered, at any depth and in every root;
/// other names (`Node_Modules`, `.node_modules`, `vendor`, `dist`, `__pycache__`) are, and
/// `.gitignore` changes nothing (`agree::amp_skips_node_modules_and_git_folders`,
/// `agree::amp_hidden_groups_and_hidden_skill_folders_loaded`; Amp ships compiled, so its
/// listing is the evidence).
const FINDS: Finds = Finds {
    depth: 5,
    at_root: AtRoot::Also,
    inside_skills: true,
    hidden: true,
    hidden_skills: true,
    any_case: true,
    skips: &["node_modules", ".git"],
    needs: Needs {
        frontmatter: true,
        name: Want::Filled,
        valid_name: true,
        // Empty is dropped, only white space is kept (agree::frontmatter).
        description: Want::Filled,
        name_at_most: Some(64),
        description_at_most: None,
    },
};

pub(super) static AGENT: Agent = Agent {
    id: "amp",
    name: "Amp",
    name_from: NameFrom::Frontmatter,
    // Strict YAML, no fallback (agree::frontmatter). A `name` that is not a string makes
    // `amp skill list` fail outright (0.0.1790142911), which no rule here can say.
    reads: Reader::STRICT,
    name_fix: None,
    names_by_manifest: false,
    on_same_name: OnSameName::OneWinsAcrossRoots,
    detect: &[Place::Under(&XDG_CONFIG, "amp")],
    builtin: &[
        "browser-use",
        "building-plugins",
        "building-schedules",
        "building-skills",
        "creating-charts",
        "creating-webhooks",
        "explaining-code",
        "gmail",
        "google-workspace",
        "orb-setup",
        "setup-tmux",
        "using-agent-browser",
        "writing-prompts",
    ],
    builtin_off: &[],
    builtin_off_by_settings: None,
    builtin_plugins: &[],
    skills_enabled: None,
    hides: &[],
    turned_off: None,
    settings_variables: &[],
    evidence: SEEN,
};

pub(super) static RULES: &[Rule] = &[
    finds(
        installs(row(
            ME,
            User,
            Place::Home(".config/agents/skills"),
            Skills,
            0,
            "Amp user skills",
            SEEN,
        )),
        FINDS,
    ),
    finds(
        row(
            ME,
            User,
            Place::Home(".agents/skills"),
            Skills,
            1,
            "Amp user skills (legacy location)",
            SEEN,
        ),
        FINDS,
    ),
    finds(
        row(
            ME,
            User,
            Place::Home(".config/amp/skills"),
            Skills,
            2,
            "Amp user skills",
            SEEN,
        ),
        FINDS,
    ),
    finds(
        installs(row(
            ME,
            Project,
            Place::Project(".agents/skills", EveryParent),
            Skills,
            3,
            "Amp project skills",
            SEEN,
        )),
        FINDS,
    ),
    finds(
        row(
            ME,
            Project,
            Place::Project(".claude/skills", EveryParent),
            Skills,
            4,
            "Amp project skills",
            SEEN,
        ),
        FINDS,
    ),
    finds(
        row(
            ME,
            User,
            Place::Home(".claude/skills"),
            Skills,
            5,
            "Amp Claude Code skills",
            SEEN,
        ),
        FINDS,
    ),
    finds(
        row(
            ME,
            User,
            Place::Home(".claude/plugins/cache"),
            Skills,
            6,
            "Amp Claude Code plugin cache, read as plain skills",
            SEEN,
        ),
        FINDS,
    ),
];
