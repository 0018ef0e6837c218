//! Codex 0.171.0, as its own listings show it (`codex debug prompt-input`, `codex app-server`
//! `skills/list`; /work/probe/codex in the session that checked it, codex-rs/core-skills/src/
//! loader.rs for the bounds). It keeps every copy of a name; the ranks only document its sort
//! order (repo, user, system, admin).

use super::*;

pub(crate) mod switches;

mod bundled;
mod layers;
mod markers;
mod policy;

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
    needs: Needs {
        frontmatter: true,
        description: Want::Filled,
        name_at_most: Some(64),
        ..Needs::NOTHING
    },
    ..Finds::DIRECT
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
    values: Values::Lenient,
    fallbacks: &[Fallback::KnownKeys, Fallback::Quoted],
    // `sanitize_single_line` (`split_whitespace().join(" ")`) on the name and the description
    // before their lengths are checked and the skill is listed (codex-rs/core-skills/src/
    // loader.rs; seen in 0.171.0: `name: alpha Two  Spaces` is listed `alpha Two Spaces`,
    // agree::frontmatter::frontmatter_white_space_runs_and_lengths).
    folds_white_space: true,
    // `SkillFrontmatter`'s `name: Option<String>`: a list or a mapping fails serde, and the
    // retry quotes values with `: ` in them (seen in 0.171.0: `name: {alpha: 1}` is listed
    // `{alpha: 1}`, `name: {beta}` and `name: [a, b]` are not listed;
    // agree::frontmatter::frontmatter_lists_and_mappings_as_values).
    typed_text: true,
    ..Reader::STRICT
};

/// Codex's answers to every question skilldeck asks about an agent.
pub(super) static AGENT: AgentRules = AgentRules {
    reads: READS,
    names_by_manifest: true,
    on_same_name: OnSameName::KeepsAll,
    // A config Codex refuses leaves it without a session, so without any skill.
    skills_enabled: Some(layers::STARTS),
    hides: &[policy::IMPLICIT_OFF, policy::OTHER_PRODUCTS],
    turned_off: switches::turned_off,
    // `codex debug prompt-input` of 0.171.0, checked by agree::listing_codex.
    prompt_listing: PromptListing::Codex,
    // `[[skills.config]]` in `$CODEX_HOME/config.toml` (switches.rs), checked by
    // agree::switch_codex_config_toml on 0.171.0.
    skill_switch: SkillSwitch::Codex,
    // Its rollouts, as codex-rs and the 0.171.0 binary write them (usage::codex).
    session_logs: SessionLogs::Codex,
    ..AgentRules::assumed("codex", "Codex", SEEN, &[CODEX_HOME], Rows::Written(RULES))
};

/// Its project folders are looked for up to the project root its markers tell.
const WALK: Walk = UpToMarkers(&markers::MARKERS);

const ME: AgentId = AgentId::CODEX;

/// Every skills folder it reads is searched as [`FINDS`] says.
const FOLDER: Rule = folders(ME, SEEN, FINDS);

const RULES: &[Rule] = &[
    installs(FOLDER.project(".agents/skills", WALK, 0, "Codex project skills")),
    FOLDER.project(".codex/skills", WALK, 0, "Codex project config skills"),
    FOLDER.under(
        &CODEX_HOME,
        "skills",
        1,
        "Codex user skills (deprecated location)",
    ),
    // No variable moves it: Codex asks for the home directory itself.
    installs(FOLDER.home(".agents/skills", 1, "Codex user skills")),
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
    trusted(
        FOLDER.at(
            Bundled,
            Place::Under(&CODEX_HOME, "skills/.system"),
            2,
            "Codex system skills",
        ),
        bundled::BUNDLED,
    ),
    FOLDER.at(
        Organization,
        Place::System(SystemPath {
            linux: "etc/codex/skills",
            macos: "etc/codex/skills",
            windows: "ProgramData/OpenAI/Codex/skills",
        }),
        3,
        "Codex admin skills",
    ),
];
