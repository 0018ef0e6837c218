//! GitHub Copilot CLI 1.0.102, as its own listing shows it (`copilot skill list --json`). The
//! first copy of a name wins: the kind of folder first (`.github`, then `.agents`, then
//! `.claude`), the nearer project folder next, then personal skills, then plugins, then the
//! folders `COPILOT_SKILLS_DIRS` names, then those of `skillDirectories` in its settings.json.
//!
//! `ignoredSkillsLocations` in its settings.json leaves out each skills folder it names
//! (`ignored`).

use super::*;

pub(crate) mod ignored;
mod names;
pub(crate) mod switches;
mod trust;

const SEEN: Evidence = Evidence::Listing {
    version: "1.0.102",
    test: "agree::copilot",
};

/// Any depth (30 was tried), not into a skill's own folder, hidden folders skipped; a
/// `SKILL.md` in the root makes the root the one skill.
///
/// A `SKILL.md` must open with a closed `---` block ("missing or malformed YAML frontmatter"
/// otherwise: no fences, an empty file, a blank line before the fence, no closing fence). An
/// empty block is enough: no `name` means the folder's name, no `description` the first body
/// paragraph. A `name` over 64 characters is refused ("Skill name must be at most 64
/// characters"). Its reader ([`READS`]) keeps a block that is YAML but no mapping.
const FINDS: Finds = Finds {
    depth: 30,
    at_root: AtRoot::Instead,
    needs: Needs {
        frontmatter: true,
        // An empty `name` is refused; a `name` or `description` that is not a string (`null`
        // included) too (agree::frontmatter). Which characters it keeps, and how it rewrites
        // spaces, is Copilot's own rule, wider than the specification's: `names`.
        name: Want::NotEmpty,
        // A longer name or description is a load error ("at most 64 characters"; a 1,025
        // character description is dropped, 1,024 is kept).
        name_at_most: Some(64),
        description_at_most: Some(1024),
        ..Needs::NOTHING
    },
    ..Finds::DIRECT
};

/// Up to the repository, or without one every parent up to and including the home.
const WALK: Walk = UpToRepositoryElse(Beyond::ToHome);

/// The same walk, but `~/.claude/skills` (Claude Code's personal root) is never read: not
/// from the home, not from below it, not when the home is the repository. Parents below the
/// home and above it (a start outside the home) are read.
const CLAUDE_WALK: Walk = Walk::NotAtHome(&WALK);

/// Strict YAML, no fallback; a block that is YAML but not a mapping (a list) is kept as an
/// empty one, the skill named after its folder (agree::frontmatter, 1.0.102).
const READS: Reader = Reader {
    any_yaml: true,
    ..Reader::STRICT
};

/// Copilot CLI's answers to every question skilldeck asks about an agent.
pub(super) static AGENT: AgentRules = AgentRules {
    reads: READS,
    listed_name: names::dashed,
    builtin: &["customize-cloud-agent", "github-pr-media"],
    hides: &[names::REFUSED_NAME],
    turned_off: switches::turned_off,
    settings_variables: &[trust::ALLOW_ALL],
    // skilldeck does not model its listing yet.
    prompt_listing: PromptListing::Unknown,
    // `disabledSkills` in `settings.json` (switches.rs), checked by
    // agree::switch_copilot_user_settings.
    skill_switch: SkillSwitch::Copilot,
    ..AgentRules::assumed(
        "copilot",
        "GitHub Copilot",
        SEEN,
        &[COPILOT_HOME],
        Rows::Written(RULES),
    )
};

const ME: AgentId = AgentId::COPILOT;

/// Every folder it reads is searched as [`FINDS`] says, and left out where
/// `ignoredSkillsLocations` names it.
const FOLDER: Rule = ignorable(folders(ME, SEEN, FINDS), ignored::IGNORED);

const PROJECT: &str = "Copilot project skills";
const PERSONAL: &str = "Copilot personal skills";

/// Copilot reads `~/.agents/skills` only while its home is `~/.copilot`: `COPILOT_HOME` unset
/// or empty, or naming that folder as text (a trailing `/` and `.` parts aside; through a link
/// it does not count), as its listing showed (1.0.102, seed 196 of the 500-seed sweep, case
/// copilot-home-default-agents-skills.txt; empty: case copilot-home-empty.txt); set
/// elsewhere, it does not.
const DEFAULT_HOME: Trust = Trust {
    why: "COPILOT_HOME names a folder other than ~/.copilot, so Copilot CLI does not read ~/.agents/skills",
    shown: "only while `COPILOT_HOME` is unset, empty or `~/.copilot`",
    check: |env, project| {
        let home = homes::copilot(env, project);
        crate::fs::lexical(&home) == crate::fs::lexical(&env.home().join(".copilot"))
    },
    variables: &["COPILOT_HOME"],
};

const RULES: &[Rule] = &[
    installs(FOLDER.project(".github/skills", WALK, 0, PROJECT)),
    FOLDER.project(".agents/skills", WALK, 1, PROJECT),
    FOLDER.project(".claude/skills", CLAUDE_WALK, 2, PROJECT),
    installs(FOLDER.under(&COPILOT_SKILLS_HOME, "skills", 3, PERSONAL)),
    // Read only while Copilot's home is `~/.copilot`; `~/.claude/skills` is never read.
    trusted(FOLDER.home(".agents/skills", 4, PERSONAL), DEFAULT_HOME),
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
    // Each `,`-separated entry, trimmed; `:` and `;` split nothing, `~` is not expanded, a
    // relative one is from the start directory. An entry is a folder of skills (any depth) or
    // one skill itself. The earlier entry wins a clash; every other root beats them.
    FOLDER.at(
        User,
        Place::EachSplitIn {
            var: "COPILOT_SKILLS_DIRS",
            separator: ',',
        },
        6,
        "Copilot custom skill folders",
    ),
    // `skillDirectories` in `${COPILOT_HOME:-~/.copilot}/settings.json`: each entry as
    // written (`~` and `$HOME` are not expanded: "Failed to scan skill directory '~/x': path
    // does not exist"), a relative one from the start folder, a link followed, a missing one
    // skipped; a folder of skills or one skill itself; a list with a number loads none. Below
    // COPILOT_SKILLS_DIRS in a clash, the earlier entry first.
    FOLDER.at(
        User,
        Place::EachListedIn {
            file: &Place::Under(&COPILOT_HOME, "settings.json"),
            key: "skillDirectories",
        },
        7,
        "Copilot custom skill folders (settings)",
    ),
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::skill::Declared;

    #[test]
    fn a_skill_needs_a_frontmatter_block_but_not_a_name_or_description() {
        let unmet = |text: &str| {
            FINDS
                .needs
                .unmet_by(&Declared::read(text, "folder").read_by(READS))
        };
        assert!(unmet("# Just a body\n").is_some());
        assert!(unmet("").is_some());
        assert!(unmet("\n---\nname: x\n---\n").is_some());
        assert!(unmet("---\nname: x\n").is_some());
        assert_eq!(unmet("---\n---\nbody\n"), None);
        assert_eq!(unmet("---\nname: x\n---\n"), None);
        assert_eq!(
            unmet(&format!("---\nname: {}\n---\n", "a".repeat(64))),
            None
        );
        assert!(unmet(&format!("---\nname: {}\n---\n", "a".repeat(65))).is_some());
        assert_eq!(unmet("---\n- a\n- b\n---\n"), None);
        assert!(unmet("---\nname: \"\"\n---\n").is_some());
        assert!(unmet("---\ndescription:\n---\n").is_some());
        assert!(unmet("---\nname: 12\n---\n").is_some());
    }

    #[test]
    fn copilot_skills_dirs_is_honoured_and_ranks_below_plugins() {
        assert!(crate::roots::honoured_variables().contains(&"COPILOT_SKILLS_DIRS"));
        let rank_of = |wanted: fn(&Rule) -> bool| RULES.iter().find(|r| wanted(r)).unwrap().rank;
        let custom = rank_of(|r| matches!(r.place, Place::EachSplitIn { .. }));
        let plugins = rank_of(|r| r.scope == Plugin);
        let settings = rank_of(|r| matches!(r.place, Place::EachListedIn { .. }));
        assert!(custom > plugins);
        assert!(settings > custom);
        assert!(RULES.iter().all(|r| r.rank <= settings));
    }

    #[test]
    fn skill_directories_are_read_as_written_from_the_start_folder() {
        let tmp = tempfile::tempdir().unwrap();
        let row = RULES
            .iter()
            .find(|r| matches!(r.place, Place::EachListedIn { .. }))
            .unwrap();
        let settings = tmp.path().join("settings.json");
        std::fs::write(
            &settings,
            "{ // mine\n \"skillDirectories\": [\"/abs\", \"rel\", \"~/t\"], }",
        )
        .unwrap();
        let env = Environment::new("/nowhere").with_var("COPILOT_HOME", tmp.path());
        let start = tmp.path().join("start");
        let paths = |env: &Environment| -> Vec<_> {
            row.place
                .resolve(env, &crate::roots::Project::locate(&start))
                .into_iter()
                .map(|l| (l.path, l.level))
                .collect()
        };
        assert_eq!(
            paths(&env),
            [
                (std::path::PathBuf::from("/abs"), 0),
                (start.join("rel"), 1),
                (start.join("~/t"), 2)
            ]
        );
        std::fs::write(&settings, r#"{"skillDirectories": ["/abs", 5]}"#).unwrap();
        assert!(paths(&env).is_empty());
    }

    #[test]
    fn the_claude_row_never_reaches_the_home() {
        let claude = RULES
            .iter()
            .find(|r| matches!(r.place, Place::Project(".claude/skills", _)))
            .unwrap();
        let home = std::path::Path::new("/home/me");
        let project = crate::roots::Project::locate(&home.join("work/x"));
        let env = crate::roots::Environment::new("/home/me");
        let dirs: Vec<_> = claude
            .place
            .resolve(&env, &project)
            .into_iter()
            .map(|l| l.path)
            .collect();
        assert_eq!(
            dirs,
            [
                home.join("work/x/.claude/skills"),
                home.join("work/.claude/skills")
            ]
        );
    }
}
