//! The audit in the app's import, with the real workers: each skill of the preview carries its
//! verdict and lists its findings; a bundle with a high finding is not installed on the plain
//! confirm but asked about, naming the findings, and installed only on the risk's own key
//! (Esc cancels, nothing written); a project folder Gemini CLI does not trust says so at the
//! destination, once. The risky skills are the committed corpus's (`tests/fixtures/audit`).

use std::fs;
use std::path::{Path, PathBuf};

use crate::common::Machine;
use crate::common::app::{Screen, settings};
use crate::common::archive::Tar;
use skilldeck::audit::Severity;
use skilldeck::roots::{self, AgentId, Scope};
use skilldeck::tui::app::Setup;
use skilldeck::tui::import::{Import, Step};
use skilldeck::tui::keymap::Mode;

const RISKY: &str = "curl-pipe-sh";
const RISKY_TOO: &str = "env-to-webhook";
const BENIGN: &str = "git-workflow";

fn corpus(kind: &str, name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/audit")
        .join(kind)
        .join(name)
}

/// Every file of the corpus's skill `kind/name`, into `tar` under `name/`.
fn with_skill(mut tar: Tar, kind: &str, name: &str) -> Tar {
    let top = corpus(kind, name);
    let mut stack = vec![top.clone()];
    tar = tar.dir(&format!("{name}/"));
    while let Some(dir) = stack.pop() {
        let mut entries: Vec<_> = fs::read_dir(&dir).unwrap().map(|e| e.unwrap()).collect();
        entries.sort_by_key(fs::DirEntry::file_name);
        for entry in entries {
            let path = entry.path();
            let inside = path.strip_prefix(&top).unwrap().to_str().unwrap();
            if path.is_dir() {
                tar = tar.dir(&format!("{name}/{inside}/"));
                stack.push(path);
            } else {
                tar = tar.file(&format!("{name}/{inside}"), fs::read(&path).unwrap());
            }
        }
    }
    tar
}

/// `~/Downloads/pack.tar` with the skills `(kind, name)` of the corpus.
fn machine_with(skills: &[(&str, &str)]) -> Machine {
    let machine = Machine::new();
    let mut tar = Tar::new();
    for (kind, name) in skills {
        tar = with_skill(tar, kind, name);
    }
    let downloads = machine.home.join("Downloads");
    fs::create_dir_all(&downloads).unwrap();
    fs::write(downloads.join("pack.tar"), tar.end().bytes()).unwrap();
    machine
}

fn open(machine: &Machine, size: (u16, u16)) -> Screen {
    let on = roots::Machine::new(machine.env(), &machine.start);
    let mut screen = Screen::open(on, Setup::default(), size);
    screen.press("ipack\n");
    assert_eq!(screen.app().mode(), Mode::Bundle, "{}", screen.text());
    screen
}

fn import(screen: &Screen) -> &Import {
    screen.app().import.as_ref().unwrap()
}

/// Where the destination under the cursor is.
fn destination(screen: &Screen) -> PathBuf {
    let import = import(screen);
    import.destinations[import.destination].root.clone()
}

#[test]
fn the_preview_carries_each_skills_verdict_and_lists_its_findings() {
    let machine = machine_with(&[("risky", RISKY), ("benign", BENIGN)]);
    let screen = open(&machine, (120, 40));
    let bundle = import(&screen).bundle.clone().unwrap();
    let verdict = |name: &str| {
        let skill = bundle.skills.iter().find(|s| s.name == name).unwrap();
        skill.audit.clone()
    };
    assert_eq!(verdict(RISKY).highest(), Some(Severity::High));
    assert_eq!(verdict(BENIGN).highest(), None);
    let text = screen.text();
    assert!(text.contains("audit: nothing found"), "{text}");
    assert!(text.contains("the most severe high"), "{text}");
    // The finding itself: severity, file:line, rule, its sentence.
    let finding = &verdict(RISKY).findings[0];
    let listed = format!("high SKILL.md:{} {}", finding.line, finding.rule);
    assert!(text.contains(&listed), "{listed}\n{text}");
    for size in [(80, 24), (120, 40)] {
        let screen = open(&machine, size);
        settings().bind(|| {
            insta::assert_snapshot!(
                format!("import_risk_preview_{}x{}", size.0, size.1),
                screen.backend()
            );
        });
    }
}

#[test]
fn a_high_finding_is_asked_about_and_installed_only_with_the_risk_accepted() {
    let machine = machine_with(&[("risky", RISKY), ("risky", RISKY_TOO), ("benign", BENIGN)]);
    for size in [(80, 24), (120, 40)] {
        let mut screen = open(&machine, size);
        screen.press("\n");
        assert_eq!(screen.app().mode(), Mode::Destination, "{}", screen.text());
        let root = destination(&screen);
        // The plain confirm: the import asks instead of installing.
        screen.press("\n");
        assert_eq!(screen.app().mode(), Mode::Risk, "{}", screen.text());
        let Step::Risky { risk, .. } = &import(&screen).step else {
            panic!("{:?}", import(&screen).step)
        };
        assert_eq!(risk.skills, [RISKY, RISKY_TOO]);
        assert!(!risk.rules.is_empty());
        let text = screen.text();
        assert!(
            text.contains(&format!("high findings in {RISKY}, {RISKY_TOO}")),
            "{text}"
        );
        assert!(text.contains(risk.rules[0]), "{text}");
        settings().bind(|| {
            insta::assert_snapshot!(
                format!("import_risk_question_{}x{}", size.0, size.1),
                screen.backend()
            );
        });
        assert!(!root.join(RISKY).exists());
        // Enter and y do not accept it.
        screen.press("\ny ");
        assert_eq!(screen.app().mode(), Mode::Risk, "{}", screen.text());
        assert!(!root.join(RISKY).exists());
        if size == (80, 24) {
            // Esc cancels: nothing written.
            screen.press("\x1b");
            assert!(screen.app().import.is_none());
            assert!(!root.join(RISKY).exists() && !root.join(BENIGN).exists());
            continue;
        }
        screen.press("!");
        assert!(
            matches!(import(&screen).step, Step::Done(_)),
            "{:?}\n{}",
            import(&screen).step,
            screen.text()
        );
        for name in [RISKY, RISKY_TOO, BENIGN] {
            assert!(root.join(name).join("SKILL.md").is_file(), "{name}");
        }
        // The result says again what was accepted.
        let Step::Done(done) = &import(&screen).step else {
            panic!()
        };
        assert!(
            done.warnings[0].starts_with("Installed with the risk accepted: 2 high findings"),
            "{:?}",
            done.warnings
        );
    }
}

#[test]
fn a_bundle_without_a_high_finding_installs_on_the_plain_confirm() {
    let machine = machine_with(&[("benign", BENIGN), ("benign", "ask-before-acting")]);
    let mut screen = open(&machine, (120, 40));
    screen.press("\n");
    let root = destination(&screen);
    screen.press("\n");
    assert!(
        matches!(import(&screen).step, Step::Done(_)),
        "{}",
        screen.text()
    );
    assert!(root.join(BENIGN).join("SKILL.md").is_file());
}

#[test]
fn a_project_folder_gemini_does_not_trust_is_said_at_the_destination() {
    let machine = machine_with(&[("benign", BENIGN)]);
    // Gemini CLI installed; the project is in no rule of its trusted folders.
    fs::create_dir_all(machine.home.join(".gemini")).unwrap();
    let mut screen = open(&machine, (120, 40));
    screen.press("\n");
    let at = import(&screen)
        .destinations
        .iter()
        .position(|d| d.agent == AgentId::GEMINI_CLI && d.scope == Scope::Project)
        .expect("gemini-cli's project folder is offered");
    screen.press(&"j".repeat(at));
    let text = screen.text();
    let said = "Gemini CLI would not load the skills in";
    assert_eq!(text.matches(said).count(), 1, "{text}");
    assert!(text.contains("Gemini CLI does not trust this"), "{text}");
    // Its user folder says nothing of trust.
    let user = import(&screen)
        .destinations
        .iter()
        .position(|d| d.agent == AgentId::GEMINI_CLI && d.scope == Scope::User);
    if let Some(user) = user {
        let mut screen = open(&machine, (120, 40));
        screen.press("\n");
        screen.press(&"j".repeat(user));
        assert!(!screen.text().contains(said), "{}", screen.text());
    }
    // Trusted, it says nothing either.
    let mut screen = {
        let env = machine.env().with_var("GEMINI_CLI_TRUST_WORKSPACE", "true");
        let on = roots::Machine::new(env, &machine.start);
        Screen::open(on, Setup::default(), (120, 40))
    };
    screen.press("ipack\n\n");
    screen.press(&"j".repeat(at));
    assert!(!screen.text().contains(said), "{}", screen.text());
}
