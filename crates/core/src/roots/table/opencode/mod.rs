//! OpenCode 1.18.33, as its own listing shows it (`opencode debug skill`). It reads every root
//! at once and keeps whichever copy of a name it finishes last, so which of two same-name
//! copies wins changes from run to run; the ranks only document its load order.
//! Skills its permissions deny are still in that listing; they are missing from what it offers
//! its model (`switches.rs`).

use super::*;

mod config;
pub(crate) mod switches;

const SEEN: Evidence = Evidence::Listing {
    version: "1.18.33",
    test: "agree::opencode",
};

/// Every `SKILL.md` below a root, the root's own and those inside other skills too; the name
/// comes only from the frontmatter, and a skill without one is not loaded.
const FINDS: Finds = Finds {
    depth: 30,
    at_root: AtRoot::Also,
    inside_skills: true,
    needs: Needs {
        frontmatter: true,
        name: Want::Text,
        ..Needs::NOTHING
    },
    ..Finds::DIRECT
};

/// The folders it shares with other agents are searched into dot folders as well.
const COMPATIBLE: Finds = Finds {
    hidden: true,
    hidden_skills: true,
    ..FINDS
};

/// Up to the repository, or without one every parent up to `/`.
const WALK: Walk = UpToRepositoryElse(Beyond::ToRoot);

const EXTERNAL: &[&str] = &["OPENCODE_DISABLE_EXTERNAL_SKILLS"];
const CLAUDE: &[&str] = &[
    "OPENCODE_DISABLE_EXTERNAL_SKILLS",
    "OPENCODE_DISABLE_CLAUDE_CODE_SKILLS",
    "OPENCODE_DISABLE_CLAUDE_CODE",
];

/// `opencode debug skill` lists a skill without a `description`, but the request it sends its
/// model leaves it out (seen through a loopback stand-in for the model).
const NO_DESCRIPTION: Hiding = Hiding {
    why: "its frontmatter has no description, which OpenCode's model listing needs",
    effect: Effect::FromModel,
    applies: |_, _, declared| declared.description.is_none(),
};

/// OpenCode parses with gray-matter (js-yaml: a tab before a key is not indentation, and a
/// block never closed runs to the end of the file) and, when that fails, again after its
/// `fallbackSanitization` makes every top-level value holding a `:` a block scalar
/// (packages/opencode/src/config/markdown.ts); a `name` or `description` that is not a string
/// (`null` included) drops the skill. Checked by agree::frontmatter, 1.18.33.
const READS: Reader = Reader {
    unclosed_runs_on: true,
    fallbacks: &[Fallback::TabBlind, Fallback::TabBlindQuoted],
    ..Reader::STRICT
};

/// OpenCode's answers to every question skilldeck asks about an agent.
pub(super) static AGENT: AgentRules = AgentRules {
    reads: READS,
    on_same_name: OnSameName::Unpredictable,
    builtin: &["customize-opencode"],
    hides: &[NO_DESCRIPTION],
    turned_off: switches::turned_off,
    settings_variables: &[
        "OPENCODE_CONFIG",
        "OPENCODE_CONFIG_CONTENT",
        "OPENCODE_PERMISSION",
    ],
    // `SystemPrompt.skills` of 1.18.33 (listing::plain).
    prompt_listing: PromptListing::OpenCode,
    // `permission.skill` in `opencode.json` (switches.rs), checked by
    // agree::switch_opencode_global_config_with_comments.
    skill_switch: SkillSwitch::OpenCode,
    // It keeps sessions in its own store, which skilldeck does not read yet.
    session_logs: SessionLogs::OpenCode,
    ..AgentRules::assumed(
        "opencode",
        "OpenCode",
        SEEN,
        &[Place::Under(&XDG_CONFIG, "opencode")],
        Rows::Written(RULES),
    )
};

const ME: AgentId = AgentId::OPENCODE;

/// Its own folders, searched as [`FINDS`] says, each read as `skills` and as `skill`.
const OWN: Rule = folders(ME, SEEN, FINDS);

/// Its own project folders, which `OPENCODE_DISABLE_PROJECT_CONFIG` turns off.
const OWN_PROJECT: Rule = unless(OWN, &["OPENCODE_DISABLE_PROJECT_CONFIG"]);

/// The folders it shares with other agents, searched as [`COMPATIBLE`] says.
const SHARED: Rule = folders(ME, SEEN, COMPATIBLE);
const AGENTS: Rule = unless(SHARED, EXTERNAL);
const CLAUDES: Rule = unless(SHARED, CLAUDE);

const CONFIG_DIR: &str = "OpenCode config dir skills";
const PROJECT: &str = "OpenCode project skills";
const GLOBAL: &str = "OpenCode global skills";
const PROJECT_SHARED: &str = "OpenCode project compatibility skills";
const GLOBAL_SHARED: &str = "OpenCode global compatibility skills";

const RULES: &[Rule] = &[
    OWN.at(
        User,
        Place::Under(&OPENCODE_CONFIG_DIR, "skills"),
        0,
        CONFIG_DIR,
    ),
    OWN.at(
        User,
        Place::Under(&OPENCODE_CONFIG_DIR, "skill"),
        0,
        CONFIG_DIR,
    ),
    OWN.home(".opencode/skills", 1, "OpenCode home skills"),
    OWN.home(".opencode/skill", 1, "OpenCode home skills"),
    installs(OWN_PROJECT.project(".opencode/skills", WALK, 2, PROJECT)),
    OWN_PROJECT.project(".opencode/skill", WALK, 2, PROJECT),
    installs(OWN.at(
        User,
        Place::Under(&XDG_CONFIG, "opencode/skills"),
        3,
        GLOBAL,
    )),
    OWN.at(User, Place::Under(&XDG_CONFIG, "opencode/skill"), 3, GLOBAL),
    AGENTS.project(".agents/skills", WALK, 4, PROJECT_SHARED),
    CLAUDES.project(".claude/skills", WALK, 5, PROJECT_SHARED),
    AGENTS.home(".agents/skills", 6, GLOBAL_SHARED),
    CLAUDES.home(".claude/skills", 7, GLOBAL_SHARED),
];
