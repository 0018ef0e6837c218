//! Amp 0.0.1790142911, as its own listing shows it (`amp skill list --json`). The first copy
//! of a name it loads wins: the user folders under `~/.config` and `~/.agents` before the
//! project's, and those before Claude Code's folders. `XDG_CONFIG_HOME` does not move them.

use super::*;

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
pub(super) static AGENT: AgentRules = AgentRules {
    // Strict YAML, no fallback (agree::frontmatter). A `name` or `description` that is not
    // text is read as JavaScript reads it: `!value` is "Missing required fields in
    // frontmatter" (`null`, `0`, `false`, `""`), anything else is `String(value)`, which the
    // name check then judges: `name: 12` loads as `12`, `0x1f` as `31`, `[ab]` as `ab`,
    // `[a, b]` ("a,b") and a mapping ("[object Object]") are "Invalid skill name";
    // `description: [a]` or `{}` is kept. `amp skill list --json` 0.0.1790142911 lists such a
    // skill (its `name` the YAML value) and reports the others under `errors`; the listing as
    // a whole never fails (generated class `amp-names`).
    reads: Reader {
        values: Values::Js,
        ..Reader::STRICT
    },
    on_same_name: OnSameName::OneWinsAcrossRoots,
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
    hides: &[NAME_NOT_TEXT],
    // skilldeck knows no setting of its that turns one skill off (none is named in
    // agent-controls-and-budgets.md, "Turning a skill off").
    skill_switch: SkillSwitch::NoSetting,
    ..AgentRules::assumed(
        "amp",
        "Amp",
        SEEN,
        &[Place::Under(&XDG_CONFIG, "amp")],
        Rows::Written(RULES),
    )
};

/// A `name` that is not text in the YAML (`12`, `true`, `[ab]`) and that Amp still loads (as
/// `String()` of it, [`AGENT`]'s `reads`) may stop its whole listing: it sorts its skills with
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

const ME: AgentId = AgentId::AMP;

/// Every folder it reads is searched as [`FINDS`] says.
const FOLDER: Rule = folders(ME, SEEN, FINDS);

const RULES: &[Rule] = &[
    installs(FOLDER.home(".config/agents/skills", 0, "Amp user skills")),
    FOLDER.home(".agents/skills", 1, "Amp user skills (legacy location)"),
    FOLDER.home(".config/amp/skills", 2, "Amp user skills"),
    installs(FOLDER.project(".agents/skills", EveryParent, 3, "Amp project skills")),
    FOLDER.project(".claude/skills", EveryParent, 4, "Amp project skills"),
    FOLDER.home(".claude/skills", 5, "Amp Claude Code skills"),
    FOLDER.home(
        ".claude/plugins/cache",
        6,
        "Amp Claude Code plugin cache, read as plain skills",
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
                FINDS.needs.unmet_by(&declared.read_by(AGENT.reads())),
                None,
                "{yaml}"
            );
            assert_eq!(declared.read_by(AGENT.reads()).name, Field::Text(name));
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
                    .unmet_by(&read(yaml).read_by(AGENT.reads()))
                    .is_some(),
                "{yaml}"
            );
        }
        assert!(!breaks(&read("name: plain")));
    }
}
