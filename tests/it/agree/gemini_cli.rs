//! Gemini CLI 0.61.0: `gemini skills list --all` (text: `NAME [Enabled]` / `[Disabled]`,
//! `[Built-in]`, `Location: …`). Workspace skills are read only in a trusted folder: the lab
//! sets `GEMINI_CLI_TRUST_WORKSPACE=true` for every case but the one about trust.

use std::path::{Path, PathBuf};

use super::layout;
use super::{Agent, Check, Lab, Loaded, here, skill_file};

const ME: &[Agent] = &[Agent::GeminiCli];

pub fn ask(lab: &Lab, cwd: &Path) -> Vec<Loaded> {
    let output = lab.run(Agent::GeminiCli, cwd, &["skills", "list", "--all"]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    // Gemini CLI stopped before listing (an extension it could not check against
    // `security.allowedExtensions`): it loads no skill, which is what skilldeck must say.
    let stderr = String::from_utf8_lossy(&output.stderr);
    if !output.status.success()
        && (stdout.contains("An unexpected critical error occurred")
            || stderr.contains("An unexpected critical error occurred"))
    {
        return Vec::new();
    }
    assert!(
        output.status.success(),
        "gemini skills list failed: {stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let mut out = Vec::new();
    let mut current: Option<(String, bool)> = None;
    let Some(at) = stdout.find("Discovered Agent Skills:") else {
        return out;
    };
    for line in stdout[at..].lines() {
        if let Some(location) = line.trim_start().strip_prefix("Location:") {
            if let Some((name, builtin)) = current.take() {
                let path = PathBuf::from(location.trim());
                out.push(Loaded {
                    name,
                    skill_md: skill_file(&path),
                    builtin,
                    unsettled: false,
                    other_names: Vec::new(),
                });
            }
        } else if !line.starts_with("  ") {
            let builtin = line.ends_with(" [Built-in]");
            let head = line.trim_end_matches(" [Built-in]");
            for state in [" [Enabled]", " [Disabled]"] {
                if let Some(name) = head.strip_suffix(state) {
                    current = Some((name.to_owned(), builtin));
                }
            }
        }
    }
    out
}

fn lab() -> Option<Lab> {
    Lab::new()
}

#[test]
fn gemini_cli_roots_per_scope_from_root_subfolder_and_outside() {
    let Some(lab) = lab() else { return };
    layout::every_root(&lab);
    lab.check(Check::new(
        here!(),
        "roots per scope",
        ME,
        &[&lab.project, &lab.sub, &lab.outside],
    ));
}

#[test]
fn gemini_cli_untrusted_workspace_skips_project_skills() {
    let Some(mut lab) = lab() else { return };
    lab.unset("GEMINI_CLI_TRUST_WORKSPACE");
    layout::every_root(&lab);
    lab.check(Check::new(
        here!(),
        "untrusted workspace",
        ME,
        &[&lab.project, &lab.outside],
    ));
}

#[test]
fn gemini_cli_trusted_folders_file_trusts_the_project() {
    let Some(mut lab) = lab() else { return };
    lab.unset("GEMINI_CLI_TRUST_WORKSPACE");
    lab.file(
        &lab.home.join(".gemini/trustedFolders.json"),
        &format!("{{\"{}\": \"TRUST_FOLDER\"}}", lab.project.display()),
    );
    layout::every_root(&lab);
    lab.check(Check::new(
        here!(),
        "trusted folder (trustedFolders.json)",
        ME,
        &[&lab.project, &lab.sub, &lab.outside],
    ));
}

#[test]
fn gemini_cli_one_level_only_not_nested_skills() {
    let Some(lab) = lab() else { return };
    layout::nested(&lab, &lab.home.join(".gemini/skills"), "u");
    layout::nested(&lab, &lab.project.join(".agents/skills"), "p");
    lab.check(Check::new(here!(), "nested skills", ME, &[&lab.project]));
}

#[test]
fn gemini_cli_skill_md_straight_in_a_root_is_a_skill() {
    let Some(lab) = lab() else { return };
    layout::file_in_root(&lab, &lab.home.join(".gemini/skills"), "u");
    layout::file_in_root(&lab, &lab.project.join(".gemini/skills"), "p");
    lab.check(Check::new(
        here!(),
        "SKILL.md in a root",
        ME,
        &[&lab.project],
    ));
}

#[test]
fn gemini_cli_lower_case_skill_md_and_hidden_folders_ignored() {
    let Some(lab) = lab() else { return };
    layout::spellings(&lab, &lab.home.join(".gemini/skills"), "u");
    layout::spellings(&lab, &lab.project.join(".agents/skills"), "p");
    lab.check(Check::new(
        here!(),
        "lower-case skill.md, hidden folders",
        ME,
        &[&lab.project],
    ));
}

/// Names come from the frontmatter with `:` and other characters made `-`; skills without a
/// name or description are not loaded.
#[test]
fn gemini_cli_names_from_frontmatter_sanitized() {
    let Some(lab) = lab() else { return };
    layout::names(&lab, &lab.home.join(".gemini/skills"), "u");
    layout::names(&lab, &lab.project.join(".gemini/skills"), "p");
    lab.check(Check::new(here!(), "names", ME, &[&lab.project]));
}

/// Workspace `.agents` beats workspace `.gemini`, beats user `.agents`, beats user `.gemini`.
#[test]
fn gemini_cli_same_name_workspace_beats_user() {
    let Some(lab) = lab() else { return };
    for root in [
        lab.home.join(".gemini/skills"),
        lab.home.join(".agents/skills"),
        lab.project.join(".gemini/skills"),
        lab.project.join(".agents/skills"),
    ] {
        lab.named(&root.join("dup"));
    }
    for root in [
        lab.home.join(".gemini/skills"),
        lab.home.join(".agents/skills"),
    ] {
        lab.named(&root.join("udup"));
    }
    lab.check(Check::new(
        here!(),
        "same name in two roots",
        ME,
        &[&lab.project, &lab.outside],
    ));
}

#[test]
fn gemini_cli_home_moves_both_user_roots() {
    let Some(mut lab) = lab() else { return };
    let gh = lab.root.join("gemini-home");
    lab.set("GEMINI_CLI_HOME", &gh);
    lab.named(&gh.join(".gemini/skills/gch-gem"));
    lab.named(&gh.join(".agents/skills/gch-agents"));
    layout::every_root(&lab);
    lab.check(Check::new(
        here!(),
        "env GEMINI_CLI_HOME",
        ME,
        &[&lab.project],
    ));
}

// The links are Unix links.
#[cfg(unix)]
#[test]
fn gemini_cli_symlinked_skill_and_root_followed() {
    let Some(lab) = lab() else { return };
    lab.links(
        &lab.home.join(".gemini/skills"),
        &lab.home.join(".agents/skills"),
    );
    lab.check(Check::new(here!(), "links", ME, &[&lab.project]));
}

/// `gemini extensions install` (a copy) and `gemini extensions link` (read from the source):
/// skills from `skills/` one level deep and `skills/SKILL.md`, not from the extension root.
#[test]
fn gemini_cli_extensions_installed_and_linked() {
    let Some(lab) = lab() else { return };
    let copied = lab.root.join("src/ext-a-folder");
    lab.file(
        &copied.join("gemini-extension.json"),
        r#"{"name":"ext-a","version":"1.2.3"}"#,
    );
    lab.named(&copied.join("skills/ext-skill"));
    lab.skill(&copied.join("skills"), Some("skills-root-skill"));
    lab.skill(&copied, Some("ext-root-skill"));
    lab.named(&copied.join("skills/grp/ext-nested"));
    let linked = lab.root.join("src/ext-b-linked");
    lab.file(
        &linked.join("gemini-extension.json"),
        r#"{"name":"ext-b","version":"0.0.1"}"#,
    );
    lab.named(&linked.join("skills/linked-ext-skill"));
    let (c, l) = (
        copied.to_string_lossy().into_owned(),
        linked.to_string_lossy().into_owned(),
    );
    lab.agent(
        Agent::GeminiCli,
        &lab.outside,
        &["extensions", "install", &c, "--consent", "--skip-settings"],
    );
    lab.agent(
        Agent::GeminiCli,
        &lab.outside,
        &["extensions", "link", &l, "--consent"],
    );
    lab.check(Check::new(here!(), "extensions", ME, &[&lab.project]));
}

#[test]
fn gemini_cli_builtins() {
    let Some(lab) = lab() else { return };
    lab.named(&lab.home.join(".gemini/skills/mine"));
    lab.check(Check::new(here!(), "built-ins", ME, &[&lab.project]).builtins());
}

#[test]
fn gemini_cli_user_skill_overrides_the_builtin() {
    let Some(lab) = lab() else { return };
    lab.named(&lab.home.join(".gemini/skills/skill-creator"));
    lab.check(Check::new(here!(), "built-ins (overridden)", ME, &[&lab.project]).builtins());
}

/// Disabled skills stay in the listing (`[Disabled]`): loaded, not shown to the model.
#[test]
fn gemini_cli_disabled_in_settings_still_listed() {
    let Some(lab) = lab() else { return };
    lab.named(&lab.home.join(".gemini/skills/kept"));
    lab.named(&lab.home.join(".gemini/skills/turned-off"));
    lab.file(
        &lab.home.join(".gemini/settings.json"),
        r#"{"skills":{"disabled":["turned-off"]}}"#,
    );
    lab.check(Check::new(
        here!(),
        "hidden skills (disabled)",
        ME,
        &[&lab.project],
    ));
}

#[test]
fn gemini_cli_xdg_config_home_moves_nothing() {
    let Some(mut lab) = lab() else { return };
    let xdg = lab.root.join("xdg");
    lab.set("XDG_CONFIG_HOME", &xdg);
    lab.named(&xdg.join("gemini/skills/x-gemini"));
    lab.named(&xdg.join("agents/skills/x-agents"));
    lab.named(&lab.home.join(".gemini/skills/u-gemini"));
    lab.check(Check::new(
        here!(),
        "env XDG_CONFIG_HOME",
        ME,
        &[&lab.project],
    ));
}

#[test]
fn gemini_cli_trusted_folders_path_names_the_trust_file() {
    let Some(mut lab) = lab() else { return };
    lab.unset("GEMINI_CLI_TRUST_WORKSPACE");
    let file = lab.root.join("trust/folders.json");
    lab.file(
        &file,
        &format!("{{\"{}\": \"TRUST_FOLDER\"}}", lab.project.display()),
    );
    lab.set("GEMINI_CLI_TRUSTED_FOLDERS_PATH", &file);
    layout::every_root(&lab);
    lab.check(Check::new(
        here!(),
        "env GEMINI_CLI_TRUSTED_FOLDERS_PATH",
        ME,
        &[&lab.project, &lab.outside],
    ));
}

/// `skills.enabled: false` in the user's settings: no skill at all outside the project, built-ins
/// included; the trusted workspace's `true` turns them back on inside it.
#[test]
fn gemini_cli_skills_enabled_false_for_the_user_true_in_the_workspace() {
    let Some(lab) = lab() else { return };
    lab.named(&lab.home.join(".gemini/skills/user-one"));
    lab.named(&lab.home.join(".agents/skills/user-two"));
    lab.named(&lab.project.join(".gemini/skills/workspace-one"));
    lab.file(
        &lab.home.join(".gemini/settings.json"),
        r#"{"skills": {"enabled": false}}"#,
    );
    lab.file(
        &lab.project.join(".gemini/settings.json"),
        r#"{"skills": {"enabled": true}}"#,
    );
    lab.check(Check::new(here!(), "skills.enabled", ME, &[&lab.project, &lab.outside]).builtins());
}

/// `skills.enabled: false` in a trusted workspace: nothing there, the user's skills everywhere
/// else; the same file in an untrusted workspace is not read.
#[test]
fn gemini_cli_skills_enabled_false_in_the_workspace_only_where_trusted() {
    let Some(mut lab) = lab() else { return };
    lab.named(&lab.home.join(".gemini/skills/user-one"));
    lab.named(&lab.project.join(".agents/skills/workspace-one"));
    lab.file(
        &lab.project.join(".gemini/settings.json"),
        "// comments are allowed\n{\"skills\": {\"enabled\": false, \"disabled\": []}}\n",
    );
    lab.check(
        Check::new(
            here!(),
            "skills.enabled",
            ME,
            &[&lab.project, &lab.sub, &lab.outside],
        )
        .builtins(),
    );
    lab.unset("GEMINI_CLI_TRUST_WORKSPACE");
    lab.check(Check::new(here!(), "skills.enabled (untrusted)", ME, &[&lab.project]).builtins());
}

/// Gemini CLI 0.61.0 reads settings.json with strip-json-comments then `JSON.parse`: a key
/// written twice is its last copy (at the top, or nested, or spelt with an escape), and
/// skilldeck's listing reads the same copy (the one `disable` refuses to guess past).
#[test]
fn gemini_cli_a_settings_key_written_twice_is_its_last_copy() {
    let Some(lab) = lab() else { return };
    for name in ["first", "second"] {
        lab.named(&lab.home.join(".gemini/skills").join(name));
    }
    let settings = lab.home.join(".gemini/settings.json");
    for (text, class) in [
        (
            r#"{"skills": {"disabled": ["first"]}, "skills": {"disabled": ["second"]}}"#,
            "skills twice, the last wins",
        ),
        (
            r#"{"skills": {"disabled": ["second"], "disabled": ["first"]}}"#,
            "skills.disabled twice, the last wins",
        ),
        (
            "// mine\n{\"skills\": {\"disabled\": [\"first\"]}, \"\\u0073kills\": {}}\n",
            "skills twice, one spelt with an escape",
        ),
    ] {
        lab.file(&settings, text);
        lab.check(Check::new(here!(), class, ME, &[&lab.project]));
    }
}

/// Which settings files Gemini CLI can read at all (it refuses to start on one it cannot:
/// "Please fix the configuration file(s) and try again"), against skilldeck's reading of its
/// syntax (`settings::dialect::Syntax::CommentsStripped`), which `disable` refuses to edit.
#[test]
fn gemini_cli_which_settings_files_it_can_read() {
    let Some(lab) = lab() else { return };
    lab.named(&lab.home.join(".gemini/skills/first"));
    let settings = lab.home.join(".gemini/settings.json");
    for text in [
        "{\"skills\": {\"disabled\": [\"first\",]}}",
        "{\"skills\": {\"disabled\": ['first']}}",
        "{skills: {disabled: [\"first\"]}}",
        "\u{feff}{\"skills\": {}}",
        "{\"skills\": {}} // a no\u{a0}break space\n",
        "{\"n\": 0x10}",
        "{\"n\": .5}",
        "// mine\n{\"a\": \"// no comment\", /* b */ \"skills\": {}}\n",
        "{\"skills\": {}}\n/* left open",
        "{\"skills\": {}} // a tab\tand a vertical tab\u{b}\n",
    ] {
        lab.file(&settings, text);
        let output = lab.run(Agent::GeminiCli, &lab.project, &["skills", "list", "--all"]);
        let skilldeck = skilldeck::settings::dialect::read(
            text,
            skilldeck::settings::dialect::Syntax::CommentsStripped,
        );
        assert_eq!(
            output.status.success(),
            skilldeck.is_ok(),
            "{text:?}: gemini says {}{}; skilldeck reads {skilldeck:?}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
    }
}

/// The skills Gemini CLI lists as `[Disabled]`, from `cwd`.
fn disabled_by_gemini(lab: &Lab, cwd: &Path) -> std::collections::BTreeSet<String> {
    let output = lab.run(Agent::GeminiCli, cwd, &["skills", "list", "--all"]);
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(|line| line.strip_suffix(" [Disabled]"))
        .map(str::to_owned)
        .collect()
}

/// The skills skilldeck says Gemini CLI's settings turn off (`disabled_for`), from `cwd`.
fn disabled_by_skilldeck(lab: &Lab, cwd: &Path) -> std::collections::BTreeSet<String> {
    let json = lab.skilldeck_json(cwd);
    json["skills"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|skill| {
            skill["disabled_for"]
                .as_array()
                .is_some_and(|ids| ids.iter().any(|id| id == "gemini-cli"))
        })
        .filter_map(|skill| {
            let name = skill["loaded_as"]["gemini-cli"]
                .as_str()
                .or_else(|| skill["name"].as_str())?;
            Some(name.to_owned())
        })
        .collect()
}

/// Gemini CLI expands `$NAME`, `${NAME}` and `${NAME:-default}` in every settings string
/// (`resolveEnvVarsInObject`, bundle/chunk-2YTYPKEZ.js 0.61.0), `skills.disabled` entries
/// included; a name that is not set stays as written, one set to the empty string gives it.
#[test]
fn gemini_cli_variables_in_settings_name_disabled_skills() {
    let Some(mut lab) = lab() else { return };
    for name in ["gem-a", "gem-b", "gem-c", "gem-d", "gem-e", "gem-f", "kept"] {
        lab.named(&lab.home.join(".gemini/skills").join(name));
    }
    lab.set("GEM_A", "gem-a")
        .set("GEM_B", "GEM-B")
        .set("GEM_TAIL", "d")
        .set("GEM_EMPTY", "");
    lab.file(
        &lab.home.join(".gemini/settings.json"),
        r#"{"skills": {"disabled": ["$GEM_A", "${GEM_B}", "${GEM_UNSET:-gem-c}",
            "gem-$GEM_TAIL", "$GEM_UNSET", "gem-e$GEM_UNSET", "${GEM_EMPTY:-x}gem-f"]}}"#,
    );
    lab.check(Check::new(
        here!(),
        "settings variables",
        ME,
        &[&lab.project],
    ));
    let expected: std::collections::BTreeSet<String> =
        ["gem-a", "gem-b", "gem-c", "gem-d", "gem-f"]
            .into_iter()
            .map(str::to_owned)
            .collect();
    assert_eq!(disabled_by_gemini(&lab, &lab.project), expected);
    assert_eq!(disabled_by_skilldeck(&lab, &lab.project), expected);
}

/// Extensions written by hand with their install records (a git one, a local one, one with
/// none), under `security.blockGitExtensions` and `security.allowedExtensions` (patterns that
/// match the git source, the local one, neither) in the user's settings, and
/// `admin.extensions.enabled` / `admin.skills.enabled` false, which come only from the remote
/// admin settings and so change nothing offline.
#[test]
fn gemini_cli_extensions_under_the_security_settings() {
    let Some(lab) = lab() else { return };
    let extensions = lab.home.join(".gemini/extensions");
    let local = lab.root.join("src/ext-local");
    for (folder, record) in [
        (
            "ext-git",
            Some(r#"{"source":"https://github.com/acme/ext-git","type":"git"}"#.to_owned()),
        ),
        (
            "ext-release",
            Some(r#"{"source":"acme/ext-release","type":"github-release"}"#.to_owned()),
        ),
        (
            "ext-local",
            Some(format!(
                r#"{{"source":"{}","type":"local"}}"#,
                local.display()
            )),
        ),
        ("ext-bare", None),
    ] {
        let dir = extensions.join(folder);
        lab.file(
            &dir.join("gemini-extension.json"),
            &format!(r#"{{"name":"{folder}","version":"1.0.0"}}"#),
        );
        lab.named(&dir.join(format!("skills/{folder}-skill")));
        if let Some(record) = record {
            lab.file(&dir.join(".gemini-extension-install.json"), &record);
        }
    }
    lab.named(&lab.home.join(".gemini/skills/mine"));
    let settings = lab.home.join(".gemini/settings.json");
    lab.file(&settings, r#"{"security":{"blockGitExtensions":true}}"#);
    lab.check(Check::new(
        here!(),
        "blockGitExtensions",
        ME,
        &[&lab.project],
    ));
    // The trusted project's list, with `ext-bare` (no install record) there: Gemini CLI stops
    // in the project and lists no skill; outside it lists as before.
    let workspace = lab.project.join(".gemini/settings.json");
    lab.file(&workspace, r#"{"security":{"allowedExtensions":["acme"]}}"#);
    lab.check(Check::new(
        here!(),
        "allowedExtensions and an extension without a record",
        ME,
        &[&lab.project, &lab.outside],
    ));
    std::fs::remove_file(&workspace).expect("remove the project's settings");
    std::fs::remove_dir_all(extensions.join("ext-bare")).expect("remove ext-bare");
    for text in [
        r#"{"security":{"allowedExtensions":["github\\.com/acme/"]}}"#,
        r#"{"security":{"allowedExtensions":["^https://github.com"]}}"#,
        r#"{"security":{"allowedExtensions":["ext-local$"],"blockGitExtensions":true}}"#,
        r#"{"security":{"allowedExtensions":[]},"admin":{"extensions":{"enabled":false},"skills":{"enabled":false}}}"#,
    ] {
        lab.file(&settings, text);
        lab.check(Check::new(here!(), text, ME, &[&lab.project]));
    }
}

/// Gemini CLI stopped on the clash of two extensions' names, and skilldeck says it loads
/// nothing there either.
fn stopped_on_a_clash(lab: &Lab, cwd: &Path, class: &str) {
    let output = lab.run(Agent::GeminiCli, cwd, &["skills", "list", "--all"]);
    let said = String::from_utf8_lossy(&output.stdout) + String::from_utf8_lossy(&output.stderr);
    assert!(
        said.contains("Extension with name dup already was loaded"),
        "{class}: Gemini CLI did not stop on the clash: {said}"
    );
    let claimed = lab.skilldeck(cwd);
    let loaded = claimed.get(&Agent::GeminiCli).cloned().unwrap_or_default();
    assert!(
        loaded.iter().all(|skill| skill.builtin),
        "{class}: Gemini CLI loads nothing, skilldeck says it loads {loaded:?}"
    );
}

/// Two extensions Gemini CLI builds under one manifest name stop it before it lists anything
/// ("Extension with name dup already was loaded"), enabled or not; one it does not build (no
/// version, a name it refuses, kept out by `blockGitExtensions`) does not. Each step changes
/// one thing and asks again.
#[test]
fn gemini_cli_two_extensions_of_one_name() {
    let Some(lab) = lab() else { return };
    let extensions = lab.home.join(".gemini/extensions");
    let manifest = |folder: &str, text: &str| {
        lab.file(&extensions.join(folder).join("gemini-extension.json"), text);
    };
    for folder in ["ext-a", "ext-b"] {
        manifest(folder, r#"{"name":"dup","version":"1.0.0"}"#);
        lab.named(
            &extensions
                .join(folder)
                .join(format!("skills/{folder}-skill")),
        );
    }
    lab.named(&lab.home.join(".gemini/skills/mine"));
    let linked = lab.root.join("src/ext-linked");
    lab.file(
        &linked.join("gemini-extension.json"),
        r#"{"name":"dup","version":"2"}"#,
    );
    lab.named(&linked.join("skills/linked-skill"));
    let cwds: &[&Path] = &[&lab.project];
    stopped_on_a_clash(&lab, &lab.project, "two of one name");
    // Turned off for every folder: still built, still a clash.
    lab.file(
        &extensions.join("extension-enablement.json"),
        r#"{"dup":{"overrides":["!/*"]}}"#,
    );
    stopped_on_a_clash(&lab, &lab.project, "two of one name, both off");
    std::fs::remove_file(extensions.join("extension-enablement.json")).expect("remove rules");
    // Not built: no version, then a name with a dot.
    manifest("ext-b", r#"{"name":"dup"}"#);
    lab.check(Check::new(
        here!(),
        "the second without a version",
        ME,
        cwds,
    ));
    manifest("ext-b", r#"{"name":"dup.b","version":"1"}"#);
    lab.check(Check::new(here!(), "the second named with a dot", ME, cwds));
    // A link whose source names the same extension clashes; kept out as git, it does not.
    manifest("ext-b", r#"{"name":"other","version":"1"}"#);
    let record = extensions.join("ext-c/.gemini-extension-install.json");
    std::fs::create_dir_all(extensions.join("ext-c")).expect("ext-c");
    lab.file(
        &record,
        &format!(r#"{{"source":"{}","type":"link"}}"#, linked.display()),
    );
    stopped_on_a_clash(&lab, &lab.project, "a link to another of the name");
    lab.file(
        &lab.home.join(".gemini/settings.json"),
        r#"{"security":{"blockGitExtensions":true}}"#,
    );
    lab.file(
        &record,
        &format!(r#"{{"source":"{}","type":"git"}}"#, linked.display()),
    );
    manifest("ext-c", r#"{"name":"dup","version":"1"}"#);
    lab.check(Check::new(here!(), "the second kept out as git", ME, cwds));
}
