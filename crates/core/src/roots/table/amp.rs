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

/// Amp's answers to every question skilldeck asks about an agent.
pub(super) struct Agent;

impl AgentRules for Agent {
    fn id(&self) -> &'static str {
        "amp"
    }

    fn name(&self) -> &'static str {
        "Amp"
    }

    fn evidence(&self) -> Evidence {
        SEEN
    }

    fn name_from(&self) -> NameFrom {
        NameFrom::Frontmatter
    }

    fn reads(&self) -> Reader {
        // Strict YAML, no fallback (agree::frontmatter). A `name` or `description` that is
        // not text is read as JavaScript reads it: `!value` is "Missing required fields in
        // frontmatter" (`null`, `0`, `false`, `""`), anything else is `String(value)`, which
        // the name check then judges: `name: 12` loads as `12`, `0x1f` as `31`, `[ab]` as
        // `ab`, `[a, b]` ("a,b") and a mapping ("[object Object]") are "Invalid skill name";
        // `description: [a]` or `{}` is kept. `amp skill list --json` 0.0.1790142911 lists
        // such a skill (its `name` the YAML value) and reports the others under `errors`; the
        // listing as a whole never fails (generated class `amp-names`).
        Reader {
            values: Values::Js,
            ..Reader::STRICT
        }
    }

    fn listed_name<'a>(&self, name: &'a str) -> Cow<'a, str> {
        Cow::Borrowed(name)
    }

    fn names_by_manifest(&self) -> bool {
        false
    }

    fn on_same_name(&self) -> OnSameName {
        OnSameName::OneWinsAcrossRoots
    }

    fn detect(&self) -> &'static [Place] {
        &[Place::Under(&XDG_CONFIG, "amp")]
    }

    fn builtin(&self) -> &'static [&'static str] {
        &[
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
        ]
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
        &[NAME_NOT_TEXT]
    }

    fn turned_off(&self, _: &Environment, _: &ProjectDir) -> Vec<TurnedOff> {
        Vec::new()
    }

    fn settings_variables(&self) -> &'static [&'static str] {
        &[]
    }

    // Every row names `ME`; the table's tests check that it is the `me` given.
    fn rows(&self, _: AgentId) -> Vec<Rule> {
        RULES.to_vec()
    }

    fn prompt_listing(&self) -> PromptListing {
        // skilldeck does not model its listing.
        PromptListing::Unknown
    }

    fn skill_switch(&self) -> SkillSwitch {
        // skilldeck knows no setting of its that turns one skill off (none is named in
        // agent-controls-and-budgets.md, "Turning a skill off").
        SkillSwitch::NoSetting
    }

    fn session_logs(&self) -> SessionLogs {
        // skilldeck reads none of its session logs.
        SessionLogs::Unread
    }
}

/// A `name` that is not text in the YAML (`12`, `true`, `[ab]`) and that Amp still loads (as
/// `String()` of it, [`Agent::reads`]) may stop its whole listing: it sorts its skills with
/// `a.name.localeCompare(b.name)`, which throws when `a.name` is no string ("TypeError:
/// n.name.localeCompare is not a function"), and `amp skill list` then prints nothing and
/// hangs. Whether the comparison meets that skill first depends on the order Amp found its
/// skills in: of six probes with two or three user skills (0.0.1790142911), four failed and
/// two listed everything, the same files failing on one run and listing on another. So
/// skilldeck says the skill loads and that it may take every other with it (generated class
/// `amp-names`, whose runner counts a failed listing as agreement only then).
const NAME_NOT_TEXT: Hiding = Hiding {
    why: "its frontmatter name is not text (a number, a boolean, a list or a mapping): Amp sorts its skills by name as text and may fail to list any of them",
    effect: Effect::BreaksListing,
    applies: |_, _, declared| declared.read_by(Reader::STRICT).name == Field::NotText,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::skill::Declared;

    #[test]
    fn a_name_that_is_not_text_loads_as_javascript_prints_it_and_may_break_the_listing() {
        let read = |yaml: &str| Declared::read(&format!("---\n{yaml}\ndescription: d\n---\n"), "x");
        let breaks = |declared: &Declared| {
            (NAME_NOT_TEXT.applies)(std::path::Path::new("/r/x"), &|_| false, declared)
        };
        for (yaml, name) in [
            ("name: 12", "12"),
            ("name: 0x1f", "31"),
            ("name: [ab]", "ab"),
        ] {
            let declared = read(yaml);
            assert_eq!(
                FINDS.needs.unmet_by(&declared.read_by(Agent.reads())),
                None,
                "{yaml}"
            );
            assert_eq!(declared.read_by(Agent.reads()).name, Field::Text(name));
            assert!(breaks(&declared), "{yaml}");
        }
        for yaml in [
            "name: 0",
            "name: false",
            "name: null",
            "name: [a, b]",
            "name: 1.5",
        ] {
            assert!(
                FINDS
                    .needs
                    .unmet_by(&read(yaml).read_by(Agent.reads()))
                    .is_some(),
                "{yaml}"
            );
        }
        assert!(!breaks(&read("name: plain")));
    }
}
