//! Gemini CLI 0.61.0, as its own listing shows it (`gemini skills list --all`). The later
//! source wins: extensions, then `~/.gemini/skills`, `~/.agents/skills`, then the workspace's
//! `.gemini/skills` and `.agents/skills`, which it reads only in a trusted folder and only
//! where it starts.

use super::*;

pub(crate) mod extensions;
mod folder_trust;
pub(crate) mod hydration;
mod merged;
pub(crate) mod switches;

const SEEN: Evidence = Evidence::Listing {
    version: "0.61.0",
    test: "agree::gemini_cli",
};

/// One folder down and the root's own `SKILL.md`; a skill without frontmatter, a `name` or a
/// `description` is dropped without a word.
const FINDS: Finds = Finds {
    at_root: AtRoot::Also,
    needs: Needs {
        frontmatter: true,
        name: Want::Text,
        description: Want::Text,
        ..Needs::NOTHING
    },
    ..Finds::DIRECT
};

/// `GEMINI_CLI_HOME` stands for the home directory in everything Gemini CLI reads, its
/// `.agents/skills` included.
const GEMINI_HOME_AGENTS: Place = Place::Env {
    var: "GEMINI_CLI_HOME",
    then: ".agents/skills",
    or: &Place::Home(".agents/skills"),
};

/// Gemini CLI 0.61.0 turns each of the characters in `REPLACED` in a name into `-` (seen in its
/// listing: `p:colon` is listed as `p-colon`).
fn sanitized(name: &str) -> Cow<'_, str> {
    const REPLACED: &[char] = &[':', '\\', '/', '<', '>', '*', '?', '"', '|'];
    if name.contains(REPLACED) {
        Cow::Owned(name.replace(REPLACED, "-"))
    } else {
        Cow::Borrowed(name)
    }
}

/// `FRONTMATTER_REGEX = /^---\r?\n([\s\S]*?)\r?\n---/` (no byte-order mark, nothing after the
/// opening `---`), then js-yaml; when that throws or gives no string `name` and
/// `description`, `parseSimpleFrontmatter` reads the `name:` and `description:` lines
/// (bundle/chunk-5FZXKDXH.js of @google/gemini-cli 0.61.0, packages/core/src/skills/
/// skillLoader.ts). Checked by agree::frontmatter.
const READS: Reader = Reader {
    skips_bom: false,
    padded_fence: false,
    fallbacks: &[Fallback::Lines],
    ..Reader::STRICT
};

/// Gemini CLI's answers to every question skilldeck asks about an agent.
pub(super) static AGENT: AgentRules = AgentRules {
    reads: READS,
    listed_name: sanitized,
    builtin: &["skill-creator", "antigravity-support"],
    builtin_off_by_settings: switches::builtins_off,
    skills_enabled: Some(switches::SKILLS_ENABLED),
    turned_off: switches::turned_off,
    settings_variables: &["GEMINI_CLI_SYSTEM_SETTINGS_PATH"],
    // `renderAgentSkills` in the 0.61.0 bundle (listing::plain).
    prompt_listing: PromptListing::GeminiCli,
    // `skills.disabled` in `settings.json` (switches.rs), checked by
    // agree::switch_gemini_cli_user_settings_with_comments on 0.61.0.
    skill_switch: SkillSwitch::GeminiCli,
    // It keeps chats under `~/.gemini/tmp/*/chats`, which skilldeck does not read yet.
    session_logs: SessionLogs::GeminiCli,
    ..AgentRules::assumed(
        "gemini-cli",
        "Gemini CLI",
        SEEN,
        &[GEMINI_DIR],
        Rows::Written(RULES),
    )
};

const ME: AgentId = AgentId::GEMINI_CLI;

/// Every skills folder it reads is searched as [`FINDS`] says.
const FOLDER: Rule = folders(ME, SEEN, FINDS);

/// A workspace folder, read only in a trusted folder.
const fn workspace(dir: &'static str, rank: u8) -> Rule {
    trusted(
        FOLDER.project(dir, Start, rank, "Gemini CLI workspace skills"),
        folder_trust::TRUST,
    )
}

const RULES: &[Rule] = &[
    workspace(".agents/skills", 0),
    installs(workspace(".gemini/skills", 1)),
    FOLDER.at(User, GEMINI_HOME_AGENTS, 2, "Gemini CLI user skills"),
    installs(FOLDER.under(&GEMINI_DIR, "skills", 3, "Gemini CLI user skills")),
    row(
        ME,
        Plugin,
        Place::Under(&GEMINI_DIR, "extensions"),
        // Named by gemini-extension.json; linked ones read from their source; disabled ones
        // give nothing (`plugin::gemini_cli`).
        Plugins(GeminiCli),
        4,
        "Gemini CLI extensions",
        SEEN,
    ),
];
