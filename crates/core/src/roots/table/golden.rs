//! Every answer of every agent, over a few machines, against the dump `answers.golden`: the
//! table may be written another way, but no agent may answer differently by it. Run with
//! `SKILLDECK_BLESS=1` to write the dump again after a change that means to alter an answer.

use std::fmt::Write as _;
use std::path::Path;

use super::*;
use crate::roots::Platform;
use crate::skill::Declared;

const GOLDEN: &str = "src/roots/table/answers.golden";

/// Function addresses change from build to build; what the functions answer is dumped instead.
fn masked(text: String) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text.as_str();
    while let Some(at) = rest.find("0x") {
        out.push_str(&rest[..at]);
        let hex = rest[at + 2..]
            .find(|c: char| !c.is_ascii_hexdigit())
            .unwrap_or(rest.len() - at - 2);
        out.push_str(if hex > 0 { "0x_" } else { "0x" });
        rest = &rest[at + 2 + hex..];
    }
    out.push_str(rest);
    out
}

/// One machine the answers are asked on.
struct Case {
    label: &'static str,
    env: Environment,
    project: ProjectDir,
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn cases(tmp: &Path) -> Vec<Case> {
    let home = tmp.join("home");
    let repo = home.join("work/repo");
    std::fs::create_dir_all(repo.join(".git")).unwrap();
    std::fs::create_dir_all(repo.join("sub")).unwrap();
    let start = repo.join("sub");
    let project = || ProjectDir::locate(&start);
    // Every case names its platform, so the dump is the same on every machine it runs on.
    let plain = Environment::new(&home).with_platform(Platform::Xdg);
    let mut every_variable = variables();
    every_variable.sort_unstable();
    every_variable.dedup();
    let paths = every_variable.iter().fold(plain.clone(), |env, name| {
        env.with_var(name, tmp.join("vars").join(name))
    });
    let zeros = every_variable
        .iter()
        .fold(plain.clone(), |env, name| env.with_var(name, "0"));
    // Settings that turn skills off, one file per agent that has one.
    let settings = tmp.join("settings");
    let configured = Environment::new(&settings).with_platform(Platform::Xdg);
    write(
        &settings.join(".claude/settings.json"),
        r#"{"skillOverrides": {"a": "off", "b": "user-invocable-only"}, "disableBundledSkills": true}"#,
    );
    write(
        &settings.join(".codex/config.toml"),
        "[[skills.config]]\nname = \"c\"\nenabled = false\n",
    );
    write(
        &settings.join(".copilot/settings.json"),
        r#"{"disabledSkills": ["d"]}"#,
    );
    write(
        &settings.join(".gemini/settings.json"),
        r#"{"skills": {"enabled": false, "disabled": ["e"]}}"#,
    );
    write(
        &settings.join(".config/opencode/opencode.json"),
        r#"{"permission": {"skill": {"f*": "deny", "fine": "allow"}}}"#,
    );
    for agent in agents() {
        for place in agent.detect() {
            for located in place.resolve(&configured, &project()) {
                std::fs::create_dir_all(located.path).unwrap();
            }
        }
    }
    vec![
        Case {
            label: "plain",
            env: plain.clone(),
            project: project(),
        },
        Case {
            label: "every variable a folder",
            env: paths,
            project: project(),
        },
        Case {
            label: "every variable 0",
            env: zeros,
            project: project(),
        },
        Case {
            label: "settings and detection folders",
            env: configured,
            project: project(),
        },
        Case {
            label: "windows",
            env: plain.clone().with_platform(Platform::Windows),
            project: project(),
        },
        Case {
            label: "macos",
            env: plain.with_platform(Platform::MacOs),
            project: project(),
        },
    ]
}

const NAMES: &[&str] = &[
    "plain",
    "p:colon",
    "a/b",
    "a\\b",
    "x*?<>|\"",
    "with space",
    "Ünï",
];

const SKILLS: &[&str] = &[
    "---\nname: x\ndescription: d\n---\n",
    "---\nname: 12\ndescription: d\n---\n",
    "---\nname: x\n---\n",
    "---\nname: Bad Name\ndescription: d\n---\n",
    "no frontmatter\n",
];

fn dump(tmp: &Path) -> String {
    let cases = cases(tmp);
    let mut out = String::new();
    let o = &mut out;
    for agent in AgentId::all() {
        let rules = agent.agent();
        writeln!(o, "## {agent} ({})", rules.name()).unwrap();
        writeln!(o, "evidence {:?}", rules.evidence()).unwrap();
        writeln!(o, "name_from {:?}", rules.name_from()).unwrap();
        writeln!(o, "reads {:?}", rules.reads()).unwrap();
        for name in NAMES {
            writeln!(o, "listed_name {name:?} -> {:?}", rules.listed_name(name)).unwrap();
        }
        writeln!(o, "names_by_manifest {}", rules.names_by_manifest()).unwrap();
        writeln!(o, "on_same_name {:?}", rules.on_same_name()).unwrap();
        writeln!(o, "detect {:?}", rules.detect()).unwrap();
        writeln!(o, "builtin {:?}", rules.builtin()).unwrap();
        writeln!(o, "builtin_off {:?}", rules.builtin_off()).unwrap();
        writeln!(o, "builtin_plugins {:?}", rules.builtin_plugins()).unwrap();
        writeln!(o, "skills_enabled {:?}", rules.skills_enabled()).unwrap();
        for hiding in rules.hides() {
            writeln!(o, "hides {:?}", hiding).unwrap();
            for text in SKILLS {
                let declared = Declared::read(text, "x");
                let applies = (hiding.applies)(Path::new("/r/x"), &|_| false, &declared);
                writeln!(o, "  {text:?} -> {applies}").unwrap();
            }
        }
        writeln!(o, "settings_variables {:?}", rules.settings_variables()).unwrap();
        writeln!(o, "prompt_listing {:?}", rules.prompt_listing()).unwrap();
        writeln!(o, "skill_switch {:?}", rules.skill_switch()).unwrap();
        writeln!(o, "session_logs {:?}", rules.session_logs()).unwrap();
        for scope in [Plugin, Organization, User, Project, Bundled] {
            writeln!(o, "install_rule {scope:?} {:?}", install_rule(agent, scope)).unwrap();
        }
        let rows = rules.rows(agent);
        for row in &rows {
            writeln!(o, "row {row:?}").unwrap();
        }
        for case in &cases {
            let (env, project) = (&case.env, &case.project);
            writeln!(o, "# on {}", case.label).unwrap();
            writeln!(o, "installed {}", rules.is_installed(env, project)).unwrap();
            for place in rules.detect() {
                writeln!(o, "detect at {:?}", place.resolve(env, project)).unwrap();
            }
            writeln!(
                o,
                "builtin_off_by_settings {}",
                rules.builtin_off_by_settings(env, project)
            )
            .unwrap();
            writeln!(o, "turned_off {:?}", rules.turned_off(env, project)).unwrap();
            if let Some(gate) = rules.skills_enabled() {
                writeln!(o, "skills_enabled check {}", (gate.check)(env, project)).unwrap();
            }
            for row in &rows {
                let off = row.unless.iter().any(|switch| env.flag(switch));
                let trusted = row.trust.map(|trust| (trust.check)(env, project));
                let ignored = row.ignores.map(|ignores| (ignores.locations)(env, project));
                writeln!(
                    o,
                    "row {} off {off} trusted {trusted:?} ignored {ignored:?} at {:?}",
                    row.label,
                    row.place.resolve(env, project)
                )
                .unwrap();
            }
        }
        writeln!(o).unwrap();
    }
    writeln!(o, "variables {:?}", variables()).unwrap();
    writeln!(o, "{}", markdown()).unwrap();
    masked(out.replace(&tmp.display().to_string(), "<tmp>"))
}

#[test]
fn every_agent_answers_as_the_golden_dump_says() {
    let tmp = tempfile::tempdir().unwrap();
    let tmp_path = crate::fs::canonical(tmp.path()).unwrap();
    let dumped = dump(&tmp_path);
    let golden = Path::new(env!("CARGO_MANIFEST_DIR")).join(GOLDEN);
    if std::env::var_os("SKILLDECK_BLESS").is_some() {
        std::fs::write(&golden, &dumped).unwrap();
    }
    let expected = std::fs::read_to_string(&golden).unwrap();
    for (line, (got, want)) in dumped.lines().zip(expected.lines()).enumerate() {
        assert_eq!(got, want, "line {} of {GOLDEN}", line + 1);
    }
    assert_eq!(dumped.lines().count(), expected.lines().count());
}
