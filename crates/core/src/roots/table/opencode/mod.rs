//! OpenCode 1.18.33, as its own listing shows it (`opencode debug skill`). It reads every root
//! at once and keeps whichever copy of a name it finishes last, so which of two same-name
//! copies wins changes from run to run; the ranks only document its load order.
//! Skills its permissions deny are still in that listing; they are missing from what it offers
//! its model (`switches.rs`).

use super::*;

mod config;
pub(crate) mod switches;

const ME: AgentId = AgentId::OPENCODE;

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
    hidden: false,
    hidden_skills: false,
    any_case: false,
    skips: &[],
    needs: Needs {
        frontmatter: true,
        name: Want::Text,
        valid_name: false,
        description: Want::Anything,
        name_at_most: None,
        description_at_most: None,
    },
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
pub(super) struct Agent;

impl AgentRules for Agent {
    fn id(&self) -> &'static str {
        "opencode"
    }

    fn name(&self) -> &'static str {
        "OpenCode"
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
        Cow::Borrowed(name)
    }

    fn names_by_manifest(&self) -> bool {
        false
    }

    fn on_same_name(&self) -> OnSameName {
        OnSameName::Unpredictable
    }

    fn detect(&self) -> &'static [Place] {
        &[Place::Under(&XDG_CONFIG, "opencode")]
    }

    fn builtin(&self) -> &'static [&'static str] {
        &["customize-opencode"]
    }

    fn builtin_off(&self) -> &'static [&'static str] {
        &[]
    }

    fn builtin_off_by_settings(&self, _: &Environment, _: &ProjectDir) -> bool {
        false
    }

    fn builtin_plugins(&self) -> &'static [&'static str] {
        &[]
    }

    fn skills_enabled(&self) -> Option<Trust> {
        None
    }

    fn hides(&self) -> &'static [Hiding] {
        &[NO_DESCRIPTION]
    }

    fn turned_off(&self, env: &Environment, project: &ProjectDir) -> Vec<TurnedOff> {
        switches::turned_off(env, project)
    }

    fn settings_variables(&self) -> &'static [&'static str] {
        &[
            "OPENCODE_CONFIG",
            "OPENCODE_CONFIG_CONTENT",
            "OPENCODE_PERMISSION",
        ]
    }

    // Every row names `ME`; the table's tests check that it is the `me` given.
    fn rows(&self, _: AgentId) -> Vec<Rule> {
        RULES.to_vec()
    }

    fn prompt_listing(&self) -> PromptListing {
        // `SystemPrompt.skills` of 1.18.33 (listing::plain).
        PromptListing::OpenCode
    }

    fn skill_switch(&self) -> SkillSwitch {
        // `permission.skill` in `opencode.json` (switches.rs), checked by
        // agree::switch_opencode_global_config_with_comments.
        SkillSwitch::OpenCode
    }

    fn session_logs(&self) -> SessionLogs {
        // It keeps sessions in its own store, which skilldeck does not read yet.
        SessionLogs::Unread
    }
}

pub(super) static RULES: &[Rule] = &[
    finds(
        row(
            ME,
            User,
            Place::Under(&OPENCODE_CONFIG_DIR, "skills"),
            Skills,
            0,
            "OpenCode config dir skills",
            SEEN,
        ),
        FINDS,
    ),
    finds(
        row(
            ME,
            User,
            Place::Under(&OPENCODE_CONFIG_DIR, "skill"),
            Skills,
            0,
            "OpenCode config dir skills",
            SEEN,
        ),
        FINDS,
    ),
    finds(
        row(
            ME,
            User,
            Place::Home(".opencode/skills"),
            Skills,
            1,
            "OpenCode home skills",
            SEEN,
        ),
        FINDS,
    ),
    finds(
        row(
            ME,
            User,
            Place::Home(".opencode/skill"),
            Skills,
            1,
            "OpenCode home skills",
            SEEN,
        ),
        FINDS,
    ),
    finds(
        unless(
            installs(row(
                ME,
                Project,
                Place::Project(".opencode/skills", WALK),
                Skills,
                2,
                "OpenCode project skills",
                SEEN,
            )),
            &["OPENCODE_DISABLE_PROJECT_CONFIG"],
        ),
        FINDS,
    ),
    finds(
        unless(
            row(
                ME,
                Project,
                Place::Project(".opencode/skill", WALK),
                Skills,
                2,
                "OpenCode project skills",
                SEEN,
            ),
            &["OPENCODE_DISABLE_PROJECT_CONFIG"],
        ),
        FINDS,
    ),
    finds(
        installs(row(
            ME,
            User,
            Place::Under(&XDG_CONFIG, "opencode/skills"),
            Skills,
            3,
            "OpenCode global skills",
            SEEN,
        )),
        FINDS,
    ),
    finds(
        row(
            ME,
            User,
            Place::Under(&XDG_CONFIG, "opencode/skill"),
            Skills,
            3,
            "OpenCode global skills",
            SEEN,
        ),
        FINDS,
    ),
    finds(
        unless(
            row(
                ME,
                Project,
                Place::Project(".agents/skills", WALK),
                Skills,
                4,
                "OpenCode project compatibility skills",
                SEEN,
            ),
            EXTERNAL,
        ),
        COMPATIBLE,
    ),
    finds(
        unless(
            row(
                ME,
                Project,
                Place::Project(".claude/skills", WALK),
                Skills,
                5,
                "OpenCode project compatibility skills",
                SEEN,
            ),
            CLAUDE,
        ),
        COMPATIBLE,
    ),
    finds(
        unless(
            row(
                ME,
                User,
                Place::Home(".agents/skills"),
                Skills,
                6,
                "OpenCode global compatibility skills",
                SEEN,
            ),
            EXTERNAL,
        ),
        COMPATIBLE,
    ),
    finds(
        unless(
            row(
                ME,
                User,
                Place::Home(".claude/skills"),
                Skills,
                7,
                "OpenCode global compatibility skills",
                SEEN,
            ),
            CLAUDE,
        ),
        COMPATIBLE,
    ),
];
