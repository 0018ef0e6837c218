//! Gemini CLI 0.61.0, as its own listing shows it (`gemini skills list --all`). The later
//! source wins: extensions, then `~/.gemini/skills`, `~/.agents/skills`, then the workspace's
//! `.gemini/skills` and `.agents/skills`, which it reads only in a trusted folder and only
//! where it starts.

use super::*;

mod folder_trust;
mod merged;
pub(crate) mod switches;

const ME: AgentId = AgentId::GEMINI_CLI;

const SEEN: Evidence = Evidence::Listing {
    version: "0.61.0",
    test: "agree::gemini_cli",
};

/// One folder down and the root's own `SKILL.md`; a skill without frontmatter, a `name` or a
/// `description` is dropped without a word.
const FINDS: Finds = Finds {
    depth: 1,
    at_root: AtRoot::Also,
    inside_skills: false,
    hidden: false,
    hidden_skills: false,
    any_case: false,
    skips: &[],
    needs: Needs {
        frontmatter: true,
        name: Want::Text,
        valid_name: false,
        description: Want::Text,
        name_at_most: None,
        description_at_most: None,
    },
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
pub(super) struct Agent;

impl AgentRules for Agent {
    fn id(&self) -> &'static str {
        "gemini-cli"
    }

    fn name(&self) -> &'static str {
        "Gemini CLI"
    }

    fn evidence(&self) -> Evidence {
        SEEN
    }

    fn name_from(&self) -> NameFrom {
        NameFrom::Frontmatter
    }

    fn reads(&self) -> Reader {
        READS
    }

    fn listed_name<'a>(&self, name: &'a str) -> Cow<'a, str> {
        sanitized(name)
    }

    fn names_by_manifest(&self) -> bool {
        false
    }

    fn on_same_name(&self) -> OnSameName {
        OnSameName::OneWins
    }

    fn detect(&self) -> &'static [Place] {
        &[GEMINI_DIR]
    }

    fn builtin(&self) -> &'static [&'static str] {
        &["skill-creator", "antigravity-support"]
    }

    fn builtin_off(&self) -> &'static [&'static str] {
        &[]
    }

    fn builtin_off_by_settings(&self, env: &Environment, project: &ProjectDir) -> bool {
        switches::builtins_off(env, project)
    }

    fn builtin_plugins(&self) -> &'static [&'static str] {
        &[]
    }

    fn skills_enabled(&self) -> Option<Trust> {
        Some(switches::SKILLS_ENABLED)
    }

    fn hides(&self) -> &'static [Hiding] {
        &[]
    }

    fn turned_off(&self, env: &Environment, project: &ProjectDir) -> Vec<TurnedOff> {
        switches::turned_off(env, project)
    }

    fn settings_variables(&self) -> &'static [&'static str] {
        &["GEMINI_CLI_SYSTEM_SETTINGS_PATH"]
    }

    // Every row names `ME`; the table's tests check that it is the `me` given.
    fn rows(&self, _: AgentId) -> Vec<Rule> {
        RULES.to_vec()
    }

    fn prompt_listing(&self) -> PromptListing {
        // `renderAgentSkills` in the 0.61.0 bundle (listing::plain).
        PromptListing::GeminiCli
    }

    fn skill_switch(&self) -> SkillSwitch {
        // `skills.disabled` in `settings.json` (switches.rs), checked by
        // agree::switch_gemini_cli_user_settings_with_comments on 0.61.0.
        SkillSwitch::GeminiCli
    }

    fn session_logs(&self) -> SessionLogs {
        // It keeps chats under `~/.gemini/tmp/*/chats`, which skilldeck does not read yet.
        SessionLogs::Unread
    }
}

pub(super) static RULES: &[Rule] = &[
    finds(
        trusted(
            row(
                ME,
                Project,
                Place::Project(".agents/skills", Start),
                Skills,
                0,
                "Gemini CLI workspace skills",
                SEEN,
            ),
            folder_trust::TRUST,
        ),
        FINDS,
    ),
    finds(
        trusted(
            installs(row(
                ME,
                Project,
                Place::Project(".gemini/skills", Start),
                Skills,
                1,
                "Gemini CLI workspace skills",
                SEEN,
            )),
            folder_trust::TRUST,
        ),
        FINDS,
    ),
    finds(
        row(
            ME,
            User,
            GEMINI_HOME_AGENTS,
            Skills,
            2,
            "Gemini CLI user skills",
            SEEN,
        ),
        FINDS,
    ),
    finds(
        installs(row(
            ME,
            User,
            Place::Under(&GEMINI_DIR, "skills"),
            Skills,
            3,
            "Gemini CLI user skills",
            SEEN,
        )),
        FINDS,
    ),
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
