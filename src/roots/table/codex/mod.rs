//! Codex 0.171.0, as its own listings show it (`codex debug prompt-input`, `codex app-server`
//! `skills/list`; /work/probe/codex in the session that checked it, codex-rs/core-skills/src/
//! loader.rs for the bounds). It keeps every copy of a name; the ranks only document its sort
//! order (repo, user, system, admin).

use super::*;

pub(crate) mod switches;

mod bundled;
mod markers;
mod policy;

const ME: AgentId = AgentId::CODEX;

const SEEN: Evidence = Evidence::Listing {
    version: "0.171.0",
    test: "agree::codex",
};

/// Breadth-first to six folders below every root (`MAX_SCAN_DEPTH = 6`), into skill folders
/// too, hidden folders skipped; a `SKILL.md` in the root counts; a skill without frontmatter,
/// without a description or with a name over 64 characters is dropped.
const FINDS: Finds = Finds {
    depth: 6,
    at_root: AtRoot::Also,
    inside_skills: true,
    hidden: false,
    hidden_skills: false,
    any_case: false,
    skips: &[],
    needs: Needs {
        frontmatter: true,
        name: Want::Anything,
        valid_name: false,
        description: Want::Filled,
        name_at_most: Some(64),
        description_at_most: None,
    },
};

/// Codex's listing (agree::frontmatter, 0.171.0): no byte-order mark before the fence; a
/// `name` or `description` that is a number or a boolean is its text, `null` or only white
/// space is none (so the folder names it, and a skill without a description is dropped), a
/// list is an error. `name`/`description` repeated fail, other keys repeated do not (the
/// fields it deserialises, codex-rs/core-skills/src/loader.rs `SkillFrontmatter`); a value
/// holding `: ` is read as text, a tab before a key or an unclosed quote is not. A fence is a
/// line that is `---` once trimmed (`extract_frontmatter`), so an indented `---` closes the
/// block. A `SKILL.md` that is a symbolic link is passed over: only linked folders are
/// followed (`discover_skills_under_root`).
const READS: Reader = Reader {
    follows_link: false,
    indented_fence: true,
    skips_bom: false,
    lenient_values: true,
    fallbacks: &[Fallback::KnownKeys, Fallback::Quoted],
    ..Reader::STRICT
};

pub(super) static AGENT: Agent = Agent {
    id: "codex",
    name: "Codex",
    name_from: NameFrom::Frontmatter,
    reads: READS,
    name_fix: None,
    names_by_manifest: true,
    on_same_name: OnSameName::KeepsAll,
    detect: &[CODEX_HOME],
    builtin: &[],
    builtin_off: &[],
    builtin_off_by_settings: None,
    builtin_plugins: &[],
    skills_enabled: None,
    hides: &[policy::IMPLICIT_OFF, policy::OTHER_PRODUCTS],
    turned_off: Some(switches::turned_off),
    settings_variables: &[],
    evidence: SEEN,
};

pub(super) static RULES: &[Rule] = &[
    finds(
        installs(row(
            ME,
            Project,
            Place::Project(".agents/skills", UpToMarkers(&markers::MARKERS)),
            Skills,
            0,
            "Codex project skills",
            SEEN,
        )),
        FINDS,
    ),
    finds(
        row(
            ME,
            Project,
            Place::Project(".codex/skills", UpToMarkers(&markers::MARKERS)),
            Skills,
            0,
            "Codex project config skills",
            SEEN,
        ),
        FINDS,
    ),
    finds(
        row(
            ME,
            User,
            Place::Under(&CODEX_HOME, "skills"),
            Skills,
            1,
            "Codex user skills (deprecated location)",
            SEEN,
        ),
        FINDS,
    ),
    // No variable moves it: Codex asks for the home directory itself.
    finds(
        installs(row(
            ME,
            User,
            Place::Home(".agents/skills"),
            Skills,
            1,
            "Codex user skills",
            SEEN,
        )),
        FINDS,
    ),
    row(
        ME,
        Plugin,
        Place::Under(&CODEX_HOME, "plugins/cache"),
        // Only `[plugins."P@M"] enabled = true` in config.toml loads, one version folder each
        // (`plugin::codex`).
        Plugins(Codex),
        1,
        "Codex plugin cache",
        SEEN,
    ),
    // Written by Codex itself at each start (`install_system_skills`), and read only while
    // `[skills.bundled]` leaves them on (`bundled::BUNDLED`).
    finds(
        trusted(
            row(
                ME,
                Bundled,
                Place::Under(&CODEX_HOME, "skills/.system"),
                Skills,
                2,
                "Codex system skills",
                SEEN,
            ),
            bundled::BUNDLED,
        ),
        FINDS,
    ),
    finds(
        row(
            ME,
            Organization,
            Place::System(SystemPath {
                linux: "etc/codex/skills",
                macos: "etc/codex/skills",
                windows: "ProgramData/OpenAI/Codex/skills",
            }),
            Skills,
            3,
            "Codex admin skills",
            SEEN,
        ),
        FINDS,
    ),
];
