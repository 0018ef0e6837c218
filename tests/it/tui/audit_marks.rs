//! What the audit finds in the installed skills, in the app: judged on a worker after the list
//! is shown (never before: the scan does not wait for it), a skill with a finding of medium
//! or high severity marked in the list, and the detail's "Audit" listing each finding with its
//! file, line, rule and sentence; a quiet skill is neither. Changed files are judged again.

use std::path::PathBuf;

use crate::common::app::{Screen, settings};
use crate::common::{Machine, copy_corpus, write_skill};
use skilldeck::roots;
use skilldeck::tui::app::{App, Setup};
use skilldeck::tui::audit::AuditView;
use skilldeck::tui::msg::{Effect, Msg};
use skilldeck::tui::theme::AUDIT_MARKER;
use skilldeck::tui::update::update;

/// Claude Code's user skills: two risky ones of the corpus and a quiet one.
fn machine() -> (Machine, PathBuf) {
    let machine = Machine::new();
    let root = machine.home.join(".claude/skills");
    copy_corpus("risky", "curl-pipe-sh", &root.join("curl-pipe-sh"));
    copy_corpus(
        "risky",
        "git-credential-fill",
        &root.join("git-credential-fill"),
    );
    write_skill(&root.join("quiet"), &[]);
    (machine, root)
}

#[test]
fn risky_skills_are_marked_in_the_list_and_their_findings_listed_in_the_detail() {
    let (machine, root) = machine();
    for size in [(80, 24), (120, 40)] {
        let on = roots::Machine::new(machine.env(), &machine.start);
        let mut screen = Screen::open(on, Setup::default(), size);
        screen.draw().unwrap();
        let text = screen.text();
        // The list's rows: the marker before the name, in the problems' column; a medium
        // finding marks a skill too; the quiet one is not marked.
        for name in ["curl-pipe-sh", "git-credential-fill"] {
            assert!(
                text.contains(&format!("{AUDIT_MARKER}  {name}")),
                "{name}\n{text}"
            );
        }
        assert!(text.contains("○    quiet"), "{text}");
        let risky = screen
            .app()
            .audits
            .of(&root.join("curl-pipe-sh"))
            .cloned()
            .expect("audited");
        assert_eq!(risky.summary(), "1 finding, the most severe high");
        assert_eq!(
            screen.app().audits.of(&root.join("quiet")),
            Some(&AuditView::default())
        );
        // The first skill, curl-pipe-sh, is selected: its detail lists the finding.
        assert!(text.contains("Audit"), "{text}");
        assert!(text.contains("remote-pipe-to-shell"), "{text}");
        settings().bind(|| {
            insta::assert_snapshot!(
                format!("audit_marks_{}x{}", size.0, size.1),
                screen.backend()
            );
        });
    }
}

#[test]
fn the_audit_is_asked_after_the_scan_and_answers_are_taken_once() {
    let mut app = App::new(Setup::default());
    update(&mut app, Msg::Started);
    let deck = crate::common::deck::managed_deck();
    let dirs: Vec<PathBuf> = deck.skills.iter().map(|s| s.dir.clone()).collect();
    let effects = update(&mut app, Msg::ScanDone(Box::new(deck)));
    let Some(Effect::Audit { request, skills }) =
        effects.iter().find(|e| matches!(e, Effect::Audit { .. }))
    else {
        panic!("{effects:?}")
    };
    assert_eq!(
        skills
            .iter()
            .map(|(_, dir)| dir.clone())
            .collect::<Vec<_>>(),
        dirs
    );
    assert!(app.waiting());
    let risky = AuditView::of(&[skilldeck::audit::Finding {
        skill: "alpha".to_owned(),
        file: "SKILL.md".to_owned(),
        line: 3,
        rule: "remote-pipe-to-shell",
        class: skilldeck::audit::Class::RemoteExec,
        severity: skilldeck::audit::Severity::High,
        message: "pipes a download into a shell".to_owned(),
    }]);
    // An answer to no request is dropped.
    update(
        &mut app,
        Msg::Audited {
            request: request + 100,
            found: vec![(dirs[0].clone(), risky.clone())],
        },
    );
    assert!(app.audits.of(&dirs[0]).is_none());
    update(
        &mut app,
        Msg::Audited {
            request: *request,
            found: vec![(dirs[0].clone(), risky)],
        },
    );
    assert!(app.audits.marked(&dirs[0]));
    assert!(!app.audits.waiting());
    // A skill whose files changed, rescanned: it alone is judged again.
    let effects = update(
        &mut app,
        Msg::Rescanned {
            dirs: vec![dirs[1].clone()],
            result: Ok(Box::new(skilldeck::tui::msg::Rescan {
                deck: crate::common::deck::managed_deck(),
                compared: Vec::new(),
            })),
        },
    );
    assert!(
        effects.iter().any(
            |e| matches!(e, Effect::Audit { skills, .. } if skills.len() == 1 && skills[0].1 == dirs[1])
        ),
        "{effects:?}"
    );
}

#[test]
fn a_skill_judged_with_the_files_it_holds_is_not_judged_again_on_the_next_scan() {
    let deck = |changed: Option<&PathBuf>| {
        let mut deck = crate::common::deck::managed_deck();
        for skill in &mut deck.skills {
            let digest = if Some(&skill.dir) == changed {
                "new"
            } else {
                "same"
            };
            skill.digest = Some(format!("{}-{digest}", skill.dir.display()));
        }
        deck
    };
    let mut app = App::new(Setup::default());
    update(&mut app, Msg::Started);
    let effects = update(&mut app, Msg::ScanDone(Box::new(deck(None))));
    let all = effects
        .iter()
        .find_map(|e| match e {
            Effect::Audit { skills, .. } => Some(skills.len()),
            _ => None,
        })
        .unwrap();
    crate::common::app::audited(&mut app, effects);
    // The same files: nothing asked.
    let effects = update(&mut app, Msg::ScanDone(Box::new(deck(None))));
    assert!(
        !effects.iter().any(|e| matches!(e, Effect::Audit { .. })),
        "{effects:?}"
    );
    assert!(!app.audits.waiting());
    // One skill's files changed: it alone is judged again.
    let (name, dir) = (
        app.deck.skills[0].name.clone(),
        app.deck.skills[0].dir.clone(),
    );
    let effects = update(&mut app, Msg::ScanDone(Box::new(deck(Some(&dir)))));
    let asked: Vec<&str> = effects
        .iter()
        .flat_map(|e| match e {
            Effect::Audit { skills, .. } => skills.iter().map(|(n, _)| n.as_str()).collect(),
            _ => Vec::new(),
        })
        .collect();
    assert_eq!(asked, [name.as_str()]);
    assert!(all > 1);
}
