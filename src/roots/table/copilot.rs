//! GitHub Copilot CLI 1.0.102, as its own listing shows it (`copilot skill list --json`). The
//! first copy of a name wins: the kind of folder first (`.github`, then `.agents`, then
//! `.claude`), the nearer project folder next, then personal skills, then plugins.

use super::*;

const ME: AgentId = AgentId::COPILOT;

const SEEN: Evidence = Evidence::Listing {
    version: "1.0.102",
    test: "agree::copilot",
};

/// Any depth (30 was tried), not into a skill's own folder, hidden folders skipped; a
/// `SKILL.md` in the root makes the root the one skill.
const FINDS: Finds = Finds {
    depth: 30,
    at_root: AtRoot::Instead,
    inside_skills: false,
    hidden: false,
    hidden_skills: false,
    any_case: false,
    needs: Needs::NOTHING,
};

/// Up to the repository, or without one every parent up to and including the home.
const WALK: Walk = UpToRepositoryElse(Beyond::ToHome);

pub(super) static AGENT: Agent = Agent {
    id: "copilot",
    name: "GitHub Copilot",
    name_from: NameFrom::Frontmatter,
    name_fix: None,
    names_by_manifest: false,
    on_same_name: OnSameName::OneWins,
    detect: &[COPILOT_HOME],
    builtin: &["customize-cloud-agent", "github-pr-media"],
    builtin_off: &[],
    builtin_plugins: &[],
    hides: &[],
    turned_off: None,
    evidence: SEEN,
};

pub(super) static RULES: &[Rule] = &[
    finds(
        installs(row(
            ME,
            Project,
            Place::Project(".github/skills", WALK),
            Skills,
            0,
            "Copilot project skills",
            SEEN,
        )),
        FINDS,
    ),
    finds(
        row(
            ME,
            Project,
            Place::Project(".agents/skills", WALK),
            Skills,
            1,
            "Copilot project skills",
            SEEN,
        ),
        FINDS,
    ),
    finds(
        row(
            ME,
            Project,
            Place::Project(".claude/skills", WALK),
            Skills,
            2,
            "Copilot project skills",
            SEEN,
        ),
        FINDS,
    ),
    finds(
        installs(row(
            ME,
            User,
            Place::Under(&COPILOT_HOME, "skills"),
            Skills,
            3,
            "Copilot personal skills",
            SEEN,
        )),
        FINDS,
    ),
    // Setting COPILOT_HOME elsewhere turns this one off; `~/.claude/skills` is never read.
    finds(
        unless(
            row(
                ME,
                User,
                Place::Home(".agents/skills"),
                Skills,
                4,
                "Copilot personal skills",
                SEEN,
            ),
            &["COPILOT_HOME"],
        ),
        FINDS,
    ),
    finds(
        row(
            ME,
            Plugin,
            Place::Under(&COPILOT_HOME, "installed-plugins"),
            // Loaded by config.json's `installedPlugins` and settings.json's local
            // marketplaces, not by what is on disk (`plugin::copilot`).
            Plugins(Copilot),
            5,
            "Copilot installed plugins",
            SEEN,
        ),
        FINDS,
    ),
];
