//! OpenCode 1.18.33: `opencode debug skill`, a JSON array of `{name, description?, location}`
//! (`location` the SKILL.md path, or `<built-in>`). It lists every loaded skill, those the
//! model is not shown (no description) included. Between same-name copies OpenCode picks one at
//! random (all copies are parsed concurrently and the last to finish wins), so cases with
//! duplicate names compare names only: which names it lists is stable, which copy is not.
//!
//! That listing ignores `permission.skill`: a denied skill is listed all the same, and
//! skilldeck says it is loaded but turned off. What a denial does shows in what OpenCode offers
//! its model, so the permission cases also compare that ([`check_offered`]): the
//! `<available_skills>` of the request `opencode run` sends a loopback stand-in for the model,
//! against skilldeck's skills for OpenCode less those it says are kept from the model.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::layout;
use super::{Agent, Check, Lab, Loaded, Sink, claims, compare, here, record_status, skill_file};

const ME: &[Agent] = &[Agent::OpenCode];

pub fn ask(lab: &Lab, cwd: &Path) -> Vec<Loaded> {
    let output = lab.run(Agent::OpenCode, cwd, &["debug", "skill"]);
    assert!(
        output.status.success(),
        "opencode debug skill failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let json: Value = serde_json::from_slice(&output.stdout).expect("opencode prints JSON");
    json.as_array()
        .into_iter()
        .flatten()
        .map(|skill| {
            let name = skill["name"].as_str().unwrap_or_default().to_owned();
            let location = skill["location"].as_str().unwrap_or_default();
            if location == "<built-in>" {
                Loaded {
                    name,
                    skill_md: PathBuf::new(),
                    builtin: true,
                    unsettled: false,
                    other_names: Vec::new(),
                }
            } else {
                Loaded {
                    name,
                    skill_md: skill_file(Path::new(location)),
                    builtin: false,
                    unsettled: false,
                    other_names: Vec::new(),
                }
            }
        })
        .collect()
}

fn lab() -> Option<Lab> {
    Lab::new()
}

#[test]
fn opencode_roots_per_scope_from_root_subfolder_and_outside() {
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
fn opencode_nested_skills_at_any_depth() {
    let Some(lab) = lab() else { return };
    layout::nested(&lab, &lab.home.join(".config/opencode/skills"), "u");
    layout::nested(&lab, &lab.project.join(".claude/skills"), "p");
    lab.check(Check::new(here!(), "nested skills", ME, &[&lab.project]));
}

#[test]
fn opencode_skill_md_straight_in_a_root_is_a_skill() {
    let Some(lab) = lab() else { return };
    layout::file_in_root(&lab, &lab.home.join(".config/opencode/skills"), "u");
    layout::file_in_root(&lab, &lab.project.join(".agents/skills"), "p");
    lab.check(Check::new(
        here!(),
        "SKILL.md in a root",
        ME,
        &[&lab.project],
    ));
}

/// Hidden folders are found below `.claude`/`.agents` roots, not below OpenCode's own.
#[test]
fn opencode_lower_case_ignored_hidden_found_only_in_claude_and_agents_roots() {
    let Some(lab) = lab() else { return };
    layout::spellings(&lab, &lab.home.join(".config/opencode/skills"), "u");
    layout::spellings(&lab, &lab.home.join(".claude/skills"), "c");
    layout::spellings(&lab, &lab.project.join(".agents/skills"), "p");
    lab.check(Check::new(
        here!(),
        "lower-case skill.md, hidden folders",
        ME,
        &[&lab.project],
    ));
}

#[test]
fn opencode_names_from_frontmatter_only() {
    let Some(lab) = lab() else { return };
    layout::names(&lab, &lab.home.join(".config/opencode/skills"), "u");
    layout::names(&lab, &lab.project.join(".opencode/skills"), "p");
    lab.check(Check::new(here!(), "names", ME, &[&lab.project]));
}

/// One copy wins, at random: compare the names only.
#[test]
fn opencode_same_name_in_two_roots_one_listed() {
    let Some(lab) = lab() else { return };
    for root in [
        lab.home.join(".config/opencode/skills"),
        lab.home.join(".claude/skills"),
        lab.project.join(".opencode/skills"),
        lab.project.join(".agents/skills"),
    ] {
        lab.named(&root.join("dup"));
    }
    lab.check(Check::new(here!(), "same name in two roots", ME, &[&lab.project]).names_only());
}

#[test]
fn opencode_xdg_config_home_moves_its_global_root() {
    let Some(mut lab) = lab() else { return };
    let xdg = lab.root.join("xdg");
    lab.set("XDG_CONFIG_HOME", &xdg);
    lab.named(&xdg.join("opencode/skills/x-xdg"));
    layout::every_root(&lab);
    lab.check(Check::new(
        here!(),
        "env XDG_CONFIG_HOME",
        ME,
        &[&lab.project],
    ));
}

#[test]
fn opencode_config_dir_adds_a_root() {
    let Some(mut lab) = lab() else { return };
    let dir = lab.root.join("oc-config");
    lab.set("OPENCODE_CONFIG_DIR", &dir);
    lab.named(&dir.join("skills/c-cfgdir-skills"));
    lab.named(&dir.join("skill/c-cfgdir-skill"));
    layout::every_root(&lab);
    lab.check(Check::new(
        here!(),
        "env OPENCODE_CONFIG_DIR",
        ME,
        &[&lab.project],
    ));
}

#[test]
fn opencode_disable_external_skills() {
    let Some(mut lab) = lab() else { return };
    lab.set("OPENCODE_DISABLE_EXTERNAL_SKILLS", "1");
    layout::every_root(&lab);
    lab.check(Check::new(
        here!(),
        "env OPENCODE_DISABLE_EXTERNAL_SKILLS",
        ME,
        &[&lab.project],
    ));
}

#[test]
fn opencode_disable_claude_code_skills() {
    let Some(mut lab) = lab() else { return };
    lab.set("OPENCODE_DISABLE_CLAUDE_CODE_SKILLS", "1");
    layout::every_root(&lab);
    lab.check(Check::new(
        here!(),
        "env OPENCODE_DISABLE_CLAUDE_CODE_SKILLS",
        ME,
        &[&lab.project],
    ));
}

#[test]
fn opencode_disable_claude_code() {
    let Some(mut lab) = lab() else { return };
    lab.set("OPENCODE_DISABLE_CLAUDE_CODE", "1");
    layout::every_root(&lab);
    lab.check(Check::new(
        here!(),
        "env OPENCODE_DISABLE_CLAUDE_CODE",
        ME,
        &[&lab.project],
    ));
}

#[test]
fn opencode_disable_project_config() {
    let Some(mut lab) = lab() else { return };
    lab.set("OPENCODE_DISABLE_PROJECT_CONFIG", "1");
    layout::every_root(&lab);
    lab.check(Check::new(
        here!(),
        "env OPENCODE_DISABLE_PROJECT_CONFIG",
        ME,
        &[&lab.project],
    ));
}

// The links are Unix links.
#[cfg(unix)]
#[test]
fn opencode_symlinked_skill_and_root_followed() {
    let Some(lab) = lab() else { return };
    lab.links(
        &lab.home.join(".config/opencode/skills"),
        &lab.home.join(".opencode/skills"),
    );
    lab.check(Check::new(here!(), "links", ME, &[&lab.project]));
}

/// `customize-opencode` is compiled in; a file skill of that name replaces it.
#[test]
fn opencode_builtins() {
    let Some(lab) = lab() else { return };
    lab.named(&lab.home.join(".claude/skills/mine"));
    lab.check(Check::new(here!(), "built-ins", ME, &[&lab.project]).builtins());
}

#[test]
fn opencode_file_skill_replaces_the_builtin() {
    let Some(lab) = lab() else { return };
    lab.named(&lab.home.join(".claude/skills/customize-opencode"));
    lab.check(Check::new(here!(), "built-ins (replaced)", ME, &[&lab.project]).builtins());
}

/// What OpenCode offers its default agent's model, started in `cwd`: the skills in the
/// `<available_skills>` of the first request `opencode run` sends (no block: none).
pub fn ask_offered(lab: &Lab, cwd: &Path) -> Vec<Loaded> {
    let sink = Sink::start();
    // The provider comes through the variable, so that the lab's files hold only the case's
    // settings; OpenCode merges it over them.
    let provider = serde_json::json!({
        "model": "sink/m",
        "provider": {"sink": {
            "npm": "@ai-sdk/openai-compatible",
            "options": {"baseURL": format!("http://127.0.0.1:{}/v1", sink.port), "apiKey": "x"},
            "models": {"m": {}}
        }}
    });
    let output = lab
        .command(&Agent::OpenCode.program(&lab.prefix), cwd)
        .env("OPENCODE_CONFIG_CONTENT", provider.to_string())
        .args(["run", "--model", "sink/m", "hi"])
        .output()
        .expect("run opencode");
    let request = sink
        .bodies()
        .into_iter()
        .filter_map(|body| serde_json::from_str::<Value>(&body).ok())
        .find(|body| {
            body["tools"]
                .as_array()
                .is_some_and(|tools| !tools.is_empty())
        })
        .unwrap_or_else(|| {
            panic!(
                "opencode run sent the model no request with tools ({}):\n{}",
                output.status,
                String::from_utf8_lossy(&output.stderr)
            )
        });
    let mut system = Vec::new();
    for message in request["messages"].as_array().into_iter().flatten() {
        if message["role"] == "system" {
            super::strings(&message["content"], &mut system);
        }
    }
    let system = system.join("\n");
    let Some(block) = between(&system, "<available_skills>", "</available_skills>") else {
        return Vec::new();
    };
    block
        .split("<skill>")
        .skip(1)
        .map(|entry| {
            let name = between(entry, "<name>", "</name>")
                .unwrap_or_default()
                .to_owned();
            // The location is escaped for XML and, for a file, a `file://` URL.
            let location = between(entry, "<location>", "</location>")
                .unwrap_or_default()
                .replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&quot;", "\"")
                .replace("&#39;", "'")
                .replace("&amp;", "&");
            let location = location.strip_prefix("file://").unwrap_or(&location);
            let builtin = location == "<built-in>";
            Loaded {
                name,
                skill_md: if builtin {
                    PathBuf::new()
                } else {
                    skill_file(Path::new(&percent_decoded(location)))
                },
                builtin,
                unsettled: false,
                other_names: Vec::new(),
            }
        })
        .collect()
}

fn between<'t>(text: &'t str, open: &str, close: &str) -> Option<&'t str> {
    let start = text.find(open)? + open.len();
    let end = text[start..].find(close)? + start;
    Some(&text[start..end])
}

/// A `file://` URL's path with its `%XX` escapes decoded.
fn percent_decoded(path: &str) -> String {
    let bytes = path.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut at = 0;
    while at < bytes.len() {
        let hex = bytes
            .get(at + 1..at + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (bytes[at], hex) {
            (b'%', Some(byte)) => {
                out.push(byte);
                at += 3;
            }
            (byte, _) => {
                out.push(byte);
                at += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// What skilldeck says OpenCode offers its model: what it says OpenCode loads, less the skills
/// it says OpenCode keeps from the model (turned off by settings, or without a description).
fn offered_by_skilldeck(lab: &Lab, cwd: &Path) -> Vec<Loaded> {
    let json = lab.skilldeck_json(cwd);
    let kept_back: Vec<PathBuf> = json["skills"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|skill| {
            skill["left_out"].as_array().into_iter().flatten().any(|e| {
                e["agent"] == "opencode"
                    && matches!(e["effect"].as_str(), Some("from-model" | "disabled"))
            })
        })
        .filter_map(|skill| skill["dir"].as_str())
        .map(|dir| skill_file(Path::new(dir)))
        .collect();
    let mut said = claims(lab, &json)
        .remove(&Agent::OpenCode)
        .unwrap_or_default();
    said.retain(|row| row.builtin || !kept_back.contains(&row.skill_md));
    said
}

/// As [`Lab::check`], for what OpenCode offers its model rather than what it lists.
fn check_offered(lab: &Lab, check: &Check<'_>) {
    let mut failures = Vec::new();
    for &cwd in check.cwds {
        let said = offered_by_skilldeck(lab, cwd);
        let offered = ask_offered(lab, cwd);
        if let Some(diff) = compare(check, Agent::OpenCode, &offered, &said) {
            failures.push(format!("[opencode offers, from {}] {diff}", lab.place(cwd)));
        }
    }
    let one_line = (!failures.is_empty()).then(|| failures.join("; "));
    let class = format!("{} (offered to the model)", check.class);
    record_status(check.test, Agent::OpenCode, &class, one_line.as_deref());
    assert!(
        failures.is_empty(),
        "case {} ({class}): OpenCode and skilldeck disagree\n{}\n(lab: home {}, project {})",
        check.test,
        failures.join("\n"),
        lab.home.display(),
        lab.project.display()
    );
}

/// Both comparisons: the listing (denied skills still in it) and what the model is offered.
fn check_both(lab: &Lab, check: Check<'_>) {
    check_offered(lab, &check);
    lab.check(check);
}

/// Skills in the global root named `names`.
fn skills(lab: &Lab, names: &[&str]) {
    for name in names {
        lab.named(&lab.home.join(".config/opencode/skills").join(name));
    }
}

#[test]
fn opencode_permission_denies_a_skill_by_name_in_the_global_file() {
    let Some(lab) = lab() else { return };
    skills(&lab, &["secret", "public", "secret-not"]);
    lab.file(
        &lab.home.join(".config/opencode/opencode.json"),
        r#"{"permission": {"skill": {"secret": "deny"}}}"#,
    );
    check_both(
        &lab,
        Check::new(
            here!(),
            "permission.skill deny by name",
            ME,
            &[&lab.project],
        ),
    );
}

#[test]
fn opencode_permission_denies_by_wildcard_in_the_project_file() {
    let Some(lab) = lab() else { return };
    skills(
        &lab,
        &[
            "internal-a",
            "internal-",
            "my-internal-b",
            "public",
            "intern?l",
        ],
    );
    lab.named(&lab.project.join(".opencode/skills/internal-p"));
    lab.file(
        &lab.project.join("opencode.json"),
        r#"{"permission": {"skill": {"internal-*": "deny", "*l": "deny", "my-?nternal-*": "deny"}}}"#,
    );
    check_both(
        &lab,
        Check::new(
            here!(),
            "permission.skill deny by wildcard",
            ME,
            &[&lab.project, &lab.sub, &lab.outside],
        ),
    );
}

/// The last rule that matches decides: an allow after a deny wins, a deny after it wins back.
#[test]
fn opencode_permission_the_last_matching_rule_wins() {
    let Some(lab) = lab() else { return };
    skills(&lab, &["keep-one", "keep-not", "drop-one", "ask-one"]);
    lab.file(
        &lab.project.join(".opencode/opencode.jsonc"),
        r#"{"permission": {"skill": {"*": "deny", "keep-*": "allow", "keep-not": "deny", "ask-*": "ask"}}}"#,
    );
    check_both(
        &lab,
        Check::new(here!(), "permission.skill order", ME, &[&lab.project]),
    );
}

/// A deny after `"*": "allow"` still counts; `"*": "allow"` after a deny undoes it.
#[test]
fn opencode_permission_an_allow_for_everything_after_a_deny_undoes_it() {
    let Some(lab) = lab() else { return };
    skills(&lab, &["first", "second"]);
    lab.file(
        &lab.home.join(".config/opencode/opencode.json"),
        r#"{"permission": {"skill": {"first": "deny", "*": "allow", "second": "deny"}}}"#,
    );
    check_both(
        &lab,
        Check::new(
            here!(),
            "permission.skill allow-all in between",
            ME,
            &[&lab.project],
        ),
    );
}

#[test]
fn opencode_permission_a_string_denies_every_skill() {
    let Some(lab) = lab() else { return };
    skills(&lab, &["one", "two"]);
    lab.file(
        &lab.project.join("opencode.json"),
        r#"{"permission": {"skill": "deny"}}"#,
    );
    check_both(
        &lab,
        Check::new(
            here!(),
            "permission.skill \"deny\"",
            ME,
            &[&lab.project, &lab.outside],
        ),
    );
}

/// The project's file merges into the global one: its rule for a name replaces the global's
/// in place, and its new names come after.
#[test]
fn opencode_permission_the_project_file_merges_over_the_global_one() {
    let Some(lab) = lab() else { return };
    skills(&lab, &["a", "b", "c", "d"]);
    lab.file(
        &lab.home.join(".config/opencode/opencode.json"),
        r#"{"permission": {"skill": {"a": "deny", "b": "deny", "*": "allow", "d": "deny"}}}"#,
    );
    lab.file(
        &lab.project.join("opencode.json"),
        r#"{"permission": {"skill": {"a": "allow", "c": "deny", "b": "deny"}}}"#,
    );
    check_both(
        &lab,
        Check::new(
            here!(),
            "permission.skill global and project",
            ME,
            &[&lab.project, &lab.outside],
        ),
    );
}

#[test]
fn opencode_permission_in_jsonc_with_comments_and_trailing_commas() {
    let Some(lab) = lab() else { return };
    skills(&lab, &["quiet", "loud"]);
    lab.file(
        &lab.home.join(".config/opencode/opencode.jsonc"),
        "// my settings\n{\n  /* skills */ \"permission\": {\"skill\": {\"quiet\": \"deny\",},},\n}\n",
    );
    check_both(
        &lab,
        Check::new(here!(), "permission.skill in JSONC", ME, &[&lab.project]),
    );
}

/// The default agent's own rules, and `tools: {skill: false}`.
#[test]
fn opencode_permission_of_the_default_agent_and_tools() {
    let Some(lab) = lab() else { return };
    skills(&lab, &["for-build", "for-plan", "other"]);
    lab.file(
        &lab.home.join(".config/opencode/opencode.json"),
        r#"{"agent": {"build": {"permission": {"skill": {"for-build": "deny"}}},
                      "plan": {"permission": {"skill": {"for-plan": "deny"}}}}}"#,
    );
    check_both(
        &lab,
        Check::new(here!(), "agent.build.permission.skill", ME, &[&lab.project]),
    );
    lab.file(
        &lab.project.join("opencode.json"),
        r#"{"tools": {"skill": false}}"#,
    );
    check_both(
        &lab,
        Check::new(here!(), "tools.skill false", ME, &[&lab.project]),
    );
}

/// `node_modules` (and `.git` in the roots it looks into hidden folders in) are entered like
/// any folder, in every root.
#[test]
fn opencode_enters_node_modules_folders() {
    let Some(lab) = lab() else { return };
    for (root, tag) in [
        (lab.home.join(".config/opencode/skills"), "u"),
        (lab.project.join(".opencode/skills"), "o"),
        (lab.project.join(".agents/skills"), "p"),
        (lab.home.join(".claude/skills"), "c"),
    ] {
        lab.named(&root.join(format!("node_modules/{tag}-nm")));
        lab.named(&root.join(format!("node_modules/pkg/skills/{tag}-nm-pkg")));
        lab.named(&root.join(format!("grp/node_modules/{tag}-nm-grp")));
        lab.named(&root.join(format!(".git/{tag}-git")));
    }
    lab.check(Check::new(
        here!(),
        "node_modules and .git folders",
        ME,
        &[&lab.project],
    ));
}

/// Hidden folders on the way and hidden skill folders: looked into below `.claude` and
/// `.agents` roots, not below OpenCode's own.
#[test]
fn opencode_hidden_folders_by_kind_of_root() {
    let Some(lab) = lab() else { return };
    for (root, tag) in [
        (lab.home.join(".config/opencode/skills"), "u"),
        (lab.project.join(".opencode/skill"), "o"),
        (lab.project.join(".agents/skills"), "p"),
        (lab.home.join(".claude/skills"), "c"),
    ] {
        lab.named(&root.join(format!(".group/{tag}-in-group")));
        lab.named(&root.join(format!("a/.b/{tag}-mid-hidden")));
        lab.skill(
            &root.join(format!(".{tag}-hidden-folder")),
            Some(&format!("{tag}-hidden-folder")),
        );
    }
    lab.check(Check::new(here!(), "hidden folders", ME, &[&lab.project]));
}

/// Far deeper than eight folders, in its own roots and the shared ones.
#[test]
fn opencode_depth_has_no_small_bound() {
    let Some(lab) = lab() else { return };
    for (root, tag) in [
        (lab.home.join(".config/opencode/skills"), "u"),
        (lab.project.join(".agents/skills"), "p"),
    ] {
        let mut dir = root.clone();
        for depth in 1..=14 {
            dir = dir.join(format!("g{depth}"));
        }
        lab.named(&dir.join(format!("{tag}-depth-15")));
        lab.named(
            &dir.join("more/and/more/still")
                .join(format!("{tag}-depth-19")),
        );
    }
    lab.check(Check::new(here!(), "nested skills", ME, &[&lab.project]));
}

/// OpenCode 1.18.33's `Wildcard.match` has no escape: a rule for `p*` is a wildcard that denies
/// `pdf` and `px` too, and `p?` every two-letter name starting with p, `*` itself included.
/// This is why `skilldeck disable 'p*' --agent opencode` refuses
/// (`switch_parsing::an_opencode_name_its_matcher_cannot_spell_is_refused_naming_what_it_would_reach`),
/// and skilldeck's listing reads such a rule as OpenCode does.
#[test]
fn opencode_permission_a_name_with_wildcard_characters_is_a_wildcard() {
    let Some(lab) = lab() else { return };
    skills(&lab, &["p*", "pdf", "px", "p?", "q"]);
    let config = lab.home.join(".config/opencode/opencode.json");
    for (text, class) in [
        (
            r#"{"permission": {"skill": {"p*": "deny"}}}"#,
            "permission.skill p* denies every p name",
        ),
        (
            r#"{"permission": {"skill": {"p?": "deny"}}}"#,
            "permission.skill p? denies every two-letter p name",
        ),
    ] {
        lab.file(&config, text);
        check_both(&lab, Check::new(here!(), class, ME, &[&lab.project]));
    }
}

/// A key written twice in an OpenCode config: its JSONC parser keeps the last copy (in the
/// first copy's place), of `permission` and of one pattern's rule, as skilldeck's listing does.
#[test]
fn opencode_permission_written_twice() {
    let Some(lab) = lab() else { return };
    skills(&lab, &["first", "second"]);
    let config = lab.home.join(".config/opencode/opencode.jsonc");
    for (text, class) in [
        (
            r#"{"permission": {"skill": {"first": "deny"}}, "permission": {"skill": {"second": "deny"}}}"#,
            "permission twice, the last wins",
        ),
        (
            r#"{"permission": {"skill": {"first": "deny", "second": "deny", "first": "allow"}}}"#,
            "one rule twice, the last wins",
        ),
    ] {
        lab.file(&config, text);
        check_both(&lab, Check::new(here!(), class, ME, &[&lab.project]));
    }
}

/// A config file starting with a byte-order mark: whether OpenCode still reads it, as
/// skilldeck's listing and `disable` must.
#[test]
fn opencode_config_with_a_byte_order_mark() {
    let Some(lab) = lab() else { return };
    skills(&lab, &["first", "second"]);
    let config = lab.home.join(".config/opencode/opencode.jsonc");
    lab.file(
        &config,
        "\u{feff}{\"permission\": {\"skill\": {\"first\": \"deny\"}}}",
    );
    check_both(
        &lab,
        Check::new(
            here!(),
            "a byte-order mark before the config",
            ME,
            &[&lab.project],
        ),
    );
}
