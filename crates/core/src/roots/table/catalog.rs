//! The agents known only from the skills CLI's agent table (`skills` 1.7.4, `dist/`): each reads
//! one project folder and one global folder, and counts as installed when its folder is there.
//! Nothing here was checked against the agent itself; every row says so.

use super::*;

/// One agent as the skills CLI's table gives it.
struct Listed {
    id: &'static str,
    name: &'static str,
    /// Relative to each project directory the agent reads.
    project: &'static str,
    global: Option<Place>,
    detect: &'static [Place],
}

const fn listed(
    id: &'static str,
    name: &'static str,
    project: &'static str,
    global: Option<Place>,
    detect: &'static [Place],
) -> Listed {
    Listed {
        id,
        name,
        project,
        global,
        detect,
    }
}

/// What the skills CLI's table says of every one of its agents, and what skilldeck assumes
/// where it says nothing: the common case of the agents it models, and nothing it cannot tell.
impl AgentRules for Listed {
    fn id(&self) -> &'static str {
        self.id
    }

    fn name(&self) -> &'static str {
        self.name
    }

    fn evidence(&self) -> Evidence {
        Evidence::SkillsCli
    }

    fn name_from(&self) -> NameFrom {
        NameFrom::Frontmatter
    }

    fn reads(&self) -> Reader {
        Reader::STRICT
    }

    fn listed_name<'a>(&self, name: &'a str) -> Cow<'a, str> {
        Cow::Borrowed(name)
    }

    fn names_by_manifest(&self) -> bool {
        false
    }

    fn on_same_name(&self) -> OnSameName {
        OnSameName::OneWins
    }

    fn detect(&self) -> &'static [Place] {
        self.detect
    }

    fn builtin(&self) -> &'static [&'static str] {
        &[]
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
        &[]
    }

    fn turned_off(&self, _: &Environment, _: &ProjectDir) -> Vec<TurnedOff> {
        Vec::new()
    }

    fn settings_variables(&self) -> &'static [&'static str] {
        &[]
    }

    fn rows(&self, me: AgentId) -> Vec<Rule> {
        let project = installs(row(
            me,
            Project,
            Place::Project(self.project, Start),
            Skills,
            0,
            "project skills (skills CLI table)",
            Evidence::SkillsCli,
        ));
        let global = self.global.map(|place| {
            installs(row(
                me,
                User,
                place,
                Skills,
                1,
                "global skills (skills CLI table)",
                Evidence::SkillsCli,
            ))
        });
        std::iter::once(project).chain(global).collect()
    }

    fn prompt_listing(&self) -> PromptListing {
        PromptListing::Unknown
    }

    fn skill_switch(&self) -> SkillSwitch {
        SkillSwitch::NoSetting
    }

    fn session_logs(&self) -> SessionLogs {
        SessionLogs::Unread
    }
}

/// In the skills CLI's order. Left out: its `universal` pseudo-agent (never detected), and
/// detections this table cannot express: macOS application bundles (ZCode, MiniMax Code) and
/// Eve's `package.json` dependency.
static CATALOG: &[Listed] = &[
    listed(
        "aider-desk",
        "AiderDesk",
        ".aider-desk/skills",
        Some(Place::Home(".aider-desk/skills")),
        &[Place::Home(".aider-desk")],
    ),
    listed(
        "antigravity",
        "Antigravity",
        ".agents/skills",
        Some(Place::Home(".gemini/antigravity/skills")),
        &[Place::Home(".gemini/antigravity")],
    ),
    listed(
        "antigravity-cli",
        "Antigravity CLI",
        ".agents/skills",
        Some(Place::Home(".gemini/antigravity-cli/skills")),
        &[Place::Home(".gemini/antigravity-cli")],
    ),
    listed(
        "astrbot",
        "AstrBot",
        "data/skills",
        Some(Place::Home(".astrbot/data/skills")),
        &[
            Place::Project("data/skills", Start),
            Place::Home(".astrbot"),
        ],
    ),
    listed(
        "autohand-code",
        "Autohand Code CLI",
        ".autohand/skills",
        Some(Place::Under(
            &Place::Env {
                var: "AUTOHAND_HOME",
                then: "",
                or: &Place::Home(".autohand"),
            },
            "skills",
        )),
        &[Place::Env {
            var: "AUTOHAND_HOME",
            then: "",
            or: &Place::Home(".autohand"),
        }],
    ),
    listed(
        "augment",
        "Augment",
        ".augment/skills",
        Some(Place::Home(".augment/skills")),
        &[Place::Home(".augment")],
    ),
    listed(
        "bob",
        "IBM Bob",
        ".bob/skills",
        Some(Place::Home(".bob/skills")),
        &[Place::Home(".bob")],
    ),
    listed(
        "openclaw",
        "OpenClaw",
        "skills",
        Some(Place::Home(".openclaw/skills")),
        &[
            Place::Home(".openclaw"),
            Place::Home(".clawdbot"),
            Place::Home(".moltbot"),
        ],
    ),
    listed(
        "cline",
        "Cline",
        ".agents/skills",
        Some(Place::Home(".agents/skills")),
        &[Place::Home(".cline")],
    ),
    listed(
        "codearts-agent",
        "CodeArts Agent",
        ".codeartsdoer/skills",
        Some(Place::Home(".codeartsdoer/skills")),
        &[Place::Home(".codeartsdoer")],
    ),
    listed(
        "codebuddy",
        "CodeBuddy",
        ".codebuddy/skills",
        Some(Place::Home(".codebuddy/skills")),
        &[
            Place::Project(".codebuddy", Start),
            Place::Home(".codebuddy"),
        ],
    ),
    listed(
        "codemaker",
        "Codemaker",
        ".codemaker/skills",
        Some(Place::Home(".codemaker/skills")),
        &[Place::Home(".codemaker")],
    ),
    listed(
        "codestudio",
        "Code Studio",
        ".codestudio/skills",
        Some(Place::Home(".codestudio/skills")),
        &[Place::Home(".codestudio")],
    ),
    listed(
        "command-code",
        "Command Code",
        ".commandcode/skills",
        Some(Place::Home(".commandcode/skills")),
        &[Place::Home(".commandcode")],
    ),
    listed(
        "continue",
        "Continue",
        ".continue/skills",
        Some(Place::Home(".continue/skills")),
        &[Place::Project(".continue", Start), Place::Home(".continue")],
    ),
    listed(
        "cortex",
        "Cortex Code",
        ".cortex/skills",
        Some(Place::Home(".snowflake/cortex/skills")),
        &[Place::Home(".snowflake/cortex")],
    ),
    listed(
        "crush",
        "Crush",
        ".crush/skills",
        Some(Place::Home(".config/crush/skills")),
        &[Place::Home(".config/crush")],
    ),
    listed(
        "deepagents",
        "Deep Agents",
        ".agents/skills",
        Some(Place::Home(".deepagents/agent/skills")),
        &[Place::Home(".deepagents")],
    ),
    listed(
        "devin",
        "Devin for Terminal",
        ".devin/skills",
        Some(Place::Under(&XDG_CONFIG, "devin/skills")),
        &[Place::Under(&XDG_CONFIG, "devin")],
    ),
    listed(
        "dexto",
        "Dexto",
        ".agents/skills",
        Some(Place::Home(".agents/skills")),
        &[Place::Home(".dexto")],
    ),
    listed(
        "droid",
        "Droid",
        ".agents/skills",
        Some(Place::Home(".factory/skills")),
        &[Place::Home(".factory")],
    ),
    listed(
        "eve",
        "Eve",
        "agent/skills",
        None,
        &[Place::Project("agent", Start)],
    ),
    listed(
        "firebender",
        "Firebender",
        ".agents/skills",
        Some(Place::Home(".firebender/skills")),
        &[Place::Home(".firebender")],
    ),
    listed(
        "forgecode",
        "ForgeCode",
        ".forge/skills",
        Some(Place::Home(".forge/skills")),
        &[Place::Home(".forge")],
    ),
    listed(
        "fx",
        "fx",
        ".agents/skills",
        Some(Place::Home(".agents/skills")),
        &[Place::Home(".fx")],
    ),
    listed(
        "grok",
        "Grok Build",
        ".grok/skills",
        Some(Place::Under(
            &Place::Env {
                var: "GROK_HOME",
                then: "",
                or: &Place::Home(".grok"),
            },
            "skills",
        )),
        &[Place::Env {
            var: "GROK_HOME",
            then: "",
            or: &Place::Home(".grok"),
        }],
    ),
    listed(
        "hermes-agent",
        "Hermes Agent",
        ".hermes/skills",
        Some(Place::Under(
            &Place::Env {
                var: "HERMES_HOME",
                then: "",
                or: &Place::Home(".hermes"),
            },
            "skills",
        )),
        &[Place::Env {
            var: "HERMES_HOME",
            then: "",
            or: &Place::Home(".hermes"),
        }],
    ),
    listed(
        "inference-sh",
        "inference.sh",
        ".inferencesh/skills",
        Some(Place::Home(".inferencesh/skills")),
        &[Place::Home(".inferencesh")],
    ),
    listed(
        "jazz",
        "Jazz",
        ".jazz/skills",
        Some(Place::Home(".jazz/skills")),
        &[Place::Home(".jazz"), Place::Project(".jazz", Start)],
    ),
    listed(
        "junie",
        "Junie",
        ".junie/skills",
        Some(Place::Home(".junie/skills")),
        &[Place::Home(".junie")],
    ),
    listed(
        "iflow-cli",
        "iFlow CLI",
        ".iflow/skills",
        Some(Place::Home(".iflow/skills")),
        &[Place::Home(".iflow")],
    ),
    listed(
        "kilo",
        "Kilo Code",
        ".agents/skills",
        Some(Place::Home(".kilo/skills")),
        &[Place::Home(".kilo"), Place::Home(".kilocode")],
    ),
    listed(
        "kimchi",
        "Kimchi",
        ".kimchi/skills",
        Some(Place::Home(".config/kimchi/harness/skills")),
        &[Place::Home(".config/kimchi")],
    ),
    listed(
        "kimi-code-cli",
        "Kimi Code CLI",
        ".agents/skills",
        Some(Place::Home(".agents/skills")),
        &[Place::Home(".kimi-code"), Place::Home(".kimi")],
    ),
    listed(
        "kiro-cli",
        "Kiro CLI",
        ".kiro/skills",
        Some(Place::Home(".kiro/skills")),
        &[Place::Home(".kiro")],
    ),
    listed(
        "kode",
        "Kode",
        ".kode/skills",
        Some(Place::Home(".kode/skills")),
        &[Place::Home(".kode")],
    ),
    listed(
        "lingma",
        "Lingma",
        ".lingma/skills",
        Some(Place::Home(".lingma/skills")),
        &[Place::Home(".lingma")],
    ),
    listed(
        "loaf",
        "Loaf",
        ".agents/skills",
        Some(Place::Home(".agents/skills")),
        &[Place::Home(".loaf")],
    ),
    listed(
        "mcpjam",
        "MCPJam",
        ".mcpjam/skills",
        Some(Place::Home(".mcpjam/skills")),
        &[Place::Home(".mcpjam")],
    ),
    listed(
        "minimax-code",
        "MiniMax Code",
        ".minimax/skills",
        Some(Place::Home(".minimax/skills")),
        &[Place::Home(".minimax")],
    ),
    listed(
        "mistral-vibe",
        "Mistral Vibe",
        ".vibe/skills",
        Some(Place::Under(
            &Place::Env {
                var: "VIBE_HOME",
                then: "",
                or: &Place::Home(".vibe"),
            },
            "skills",
        )),
        &[Place::Env {
            var: "VIBE_HOME",
            then: "",
            or: &Place::Home(".vibe"),
        }],
    ),
    listed(
        "moxby",
        "Moxby",
        ".moxby/skills",
        Some(Place::Home(".moxby/skills")),
        &[Place::Home(".moxby")],
    ),
    listed(
        "mux",
        "Mux",
        ".mux/skills",
        Some(Place::Home(".mux/skills")),
        &[Place::Home(".mux")],
    ),
    listed(
        "openhands",
        "OpenHands",
        ".openhands/skills",
        Some(Place::Home(".openhands/skills")),
        &[Place::Home(".openhands")],
    ),
    listed(
        "ona",
        "Ona",
        ".ona/skills",
        Some(Place::Home(".ona/skills")),
        &[Place::Home(".ona")],
    ),
    listed(
        "pi",
        "Pi",
        ".agents/skills",
        Some(Place::Home(".agents/skills")),
        &[Place::Home(".pi/agent")],
    ),
    listed(
        "posit-assistant",
        "Posit Assistant",
        ".posit/assistant/skills",
        Some(Place::Home(".posit/assistant/skills")),
        &[Place::Home(".posit/assistant"), Place::Home(".positai")],
    ),
    listed(
        "qoder",
        "Qoder",
        ".qoder/skills",
        Some(Place::Home(".qoder/skills")),
        &[Place::Home(".qoder")],
    ),
    listed(
        "qoder-cn",
        "Qoder CN",
        ".qoder/skills",
        Some(Place::Home(".qoder-cn/skills")),
        &[Place::Home(".qoder-cn")],
    ),
    listed(
        "qwen-code",
        "Qwen Code",
        ".qwen/skills",
        Some(Place::Home(".qwen/skills")),
        &[Place::Home(".qwen")],
    ),
    listed(
        "replit",
        "Replit",
        ".agents/skills",
        Some(Place::Under(&XDG_CONFIG, "agents/skills")),
        &[Place::Project(".replit", Start)],
    ),
    listed(
        "reasonix",
        "Reasonix",
        ".reasonix/skills",
        Some(Place::Home(".reasonix/skills")),
        &[Place::Home(".reasonix")],
    ),
    listed(
        "rovodev",
        "Rovo Dev",
        ".rovodev/skills",
        Some(Place::Home(".rovodev/skills")),
        &[Place::Home(".rovodev")],
    ),
    listed(
        "roo",
        "Roo Code",
        ".roo/skills",
        Some(Place::Home(".roo/skills")),
        &[Place::Home(".roo")],
    ),
    listed(
        "sarvam-code",
        "Sarvam Code",
        ".agents/skills",
        Some(Place::Home(".agents/skills")),
        &[Place::Env {
            var: "SARVAM_HOME",
            then: "",
            or: &Place::Home(".sarvam"),
        }],
    ),
    listed(
        "tabnine-cli",
        "Tabnine CLI",
        ".tabnine/agent/skills",
        Some(Place::Home(".tabnine/agent/skills")),
        &[Place::Home(".tabnine")],
    ),
    listed(
        "terramind",
        "Terramind",
        ".terramind/skills",
        Some(Place::Home(".terramind/skills")),
        &[Place::Home(".terramind")],
    ),
    listed(
        "tinycloud",
        "Tinycloud",
        ".tinycloud/skills",
        Some(Place::Home(".tinycloud/skills")),
        &[Place::Home(".tinycloud")],
    ),
    listed(
        "trae",
        "Trae",
        ".trae/skills",
        Some(Place::Home(".trae/skills")),
        &[Place::Home(".trae")],
    ),
    listed(
        "trae-cn",
        "Trae CN",
        ".trae/skills",
        Some(Place::Home(".trae-cn/skills")),
        &[Place::Home(".trae-cn")],
    ),
    listed(
        "warp",
        "Warp",
        ".agents/skills",
        Some(Place::Home(".agents/skills")),
        &[Place::Home(".warp")],
    ),
    listed(
        "zed",
        "Zed",
        ".agents/skills",
        Some(Place::Home(".agents/skills")),
        &[
            Place::Under(&XDG_CONFIG, "zed"),
            Place::Env {
                var: "APPDATA",
                then: "Zed",
                or: &Place::Nowhere,
            },
            Place::Env {
                var: "FLATPAK_XDG_CONFIG_HOME",
                then: "zed",
                or: &Place::Nowhere,
            },
        ],
    ),
    listed(
        "zcode",
        "ZCode",
        ".zcode/skills",
        Some(Place::Home(".zcode/skills")),
        &[Place::Home(".zcode")],
    ),
    listed(
        "zencoder",
        "Zencoder",
        ".zencoder/skills",
        Some(Place::Home(".zencoder/skills")),
        &[Place::Home(".zencoder")],
    ),
    listed(
        "zenflow",
        "Zenflow",
        ".zencoder/skills",
        Some(Place::Home(".zencoder/skills")),
        &[Place::Home(".zencoder")],
    ),
    listed(
        "neovate",
        "Neovate",
        ".neovate/skills",
        Some(Place::Home(".neovate/skills")),
        &[Place::Home(".neovate")],
    ),
    listed(
        "pochi",
        "Pochi",
        ".pochi/skills",
        Some(Place::Home(".pochi/skills")),
        &[Place::Home(".pochi")],
    ),
    listed(
        "promptscript",
        "PromptScript",
        ".agents/skills",
        None,
        &[Place::Project(".promptscript", Start)],
    ),
    listed(
        "adal",
        "AdaL",
        ".adal/skills",
        Some(Place::Home(".adal/skills")),
        &[Place::Home(".adal")],
    ),
];

/// The catalogue's agents, in its order.
pub(super) fn agents() -> impl Iterator<Item = &'static dyn AgentRules> {
    CATALOG.iter().map(|listed| listed as &dyn AgentRules)
}
