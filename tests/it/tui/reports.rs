//! Every field of a managing operation's report that the command line prints, shown by the
//! app too (issue 31): the folder a removal left where it is, each change an undo put back,
//! each secret an export removed and each file it left out, the links a snapshot left out,
//! the snapshot a restore's content is, where a link leads and who reads it. Each test runs
//! the real worker on a demo machine with something of its own laid out, and fails when the
//! field is no longer said.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::mpsc;

use crate::common::app::{PATIENCE, Screen};
use skilldeck::demo::Sandbox;
use skilldeck::roots::{AgentId, Scope};
use skilldeck::snapshot::{Reason, Store};
use skilldeck::tui::app::{Overlay, Setup};
use skilldeck::tui::line::Edit;
use skilldeck::tui::manage::{Batch, BatchEvent, Destination, How, Job, Summary, Target};
use skilldeck::tui::msg::{Action, Msg, Told};
use skilldeck::tui::theme::Theme;
use skilldeck::tui::workers::{manage, tasks};

/// A demo machine with a skill `name` of its own, at `dir` under the home folder, holding
/// `files` beside its `SKILL.md`.
fn with_skill(name: &str, dir: &str, files: &[(&str, &[u8])]) -> (Sandbox, PathBuf) {
    let sandbox = Sandbox::create().unwrap();
    let folder = sandbox.home().join(dir);
    fs::create_dir_all(&folder).unwrap();
    fs::write(
        folder.join("SKILL.md"),
        format!("---\nname: {name}\ndescription: one of the person's own\n---\nIts body.\n"),
    )
    .unwrap();
    for (file, bytes) in files {
        fs::write(folder.join(file), bytes).unwrap();
    }
    (sandbox, folder)
}

fn open(sandbox: &Sandbox) -> Screen {
    let setup = Setup {
        banner: Some(sandbox.banner()),
        mouse: false,
        theme: Theme::plain(),
        work_dir: "~/src/acme-app".to_owned(),
    };
    Screen::open(sandbox.machine(), setup, (120, 40))
}

/// The summary the app shows, or a failure naming what it shows instead.
fn summary(screen: &Screen) -> Summary {
    match &screen.app().overlay {
        Overlay::Summary(summary) => summary.clone(),
        other => panic!("no summary: {other:?}\n{}", screen.text()),
    }
}

/// Whether `line` is in `lines`, in part.
fn said(lines: &[String], part: &str) -> bool {
    lines.iter().any(|line| line.contains(part))
}

/// A skill folder of the person's own, linked into Claude Code's skills folder.
fn linked_in() -> (Sandbox, PathBuf) {
    let (sandbox, folder) = with_skill("own-notes", "mine/own-notes", &[]);
    let skills = sandbox.home().join(".claude/skills");
    fs::create_dir_all(&skills).unwrap();
    std::os::unix::fs::symlink(&folder, skills.join("own-notes")).unwrap();
    (sandbox, folder)
}

#[test]
fn a_removal_says_the_folder_it_left_in_place_and_the_undo_every_change_it_put_back() {
    let (sandbox, folder) = linked_in();
    let mut screen = open(&sandbox);
    screen.press("/own-notes\n").press("x").press("y");
    let removed = summary(&screen);
    assert!(
        said(
            &removed.done,
            "The folder the links led to, ~/mine/own-notes, lies in no root and was left where it is."
        ),
        "{removed:?}"
    );
    assert!(said(
        &removed.done,
        "own-notes: removed ~/.claude/skills/own-notes"
    ));
    assert!(
        screen.text().contains("own-notes: removed"),
        "{}",
        screen.text()
    );
    assert!(folder.join("SKILL.md").is_file(), "the folder stays");

    screen.press("\x1b").press("u").press("y");
    let undone = summary(&screen);
    assert!(
        undone.done[0].starts_with("Undone: the remove made "),
        "{undone:?}"
    );
    assert_eq!(undone.title, "Undone");
    // When, in words: "the remove made 0 s ago", never the journal's raw time.
    assert!(said(&undone.done, "Undid the remove made "), "{undone:?}");
    assert!(!said(&undone.done, "T0"), "{undone:?}");
    assert!(
        said(
            &undone.done,
            "linked ~/mine/own-notes → ~/.claude/skills/own-notes"
        ),
        "{undone:?}"
    );
    assert!(
        screen.text().contains("Undid the remove made"),
        "{}",
        screen.text()
    );
    assert!(sandbox.home().join(".claude/skills/own-notes").is_symlink());
}

#[test]
fn an_export_lists_each_secret_removed_and_each_file_left_out() {
    let token = format!("ghp_{}", "a1B2c3D4".repeat(5));
    let script = format!("#!/bin/sh\ncurl -H 'Authorization: token {token}' x\n");
    let (sandbox, _) = with_skill(
        "own-tool",
        ".claude/skills/own-tool",
        &[
            ("run.sh", script.as_bytes()),
            ("blob.bin", b"\x00\x01\x02binary\x00\xff"),
        ],
    );
    fs::create_dir_all(sandbox.home().join("out")).unwrap();
    let mut screen = open(&sandbox);
    screen.press("/own-tool\n").press("e");
    screen.send(Msg::Action(Action::Edit(Edit::EraseToStart)));
    screen.press("~/out/\n");
    let exported = summary(&screen);
    assert!(
        exported.done[0].starts_with("Exported own-tool (2 files, "),
        "{exported:?}"
    );
    assert!(exported.done[0].contains("to ~/out/own-tool.tar.gz; 1 secret removed."));
    assert_eq!(exported.title, "Exported own-tool");
    assert!(
        said(&exported.done, "secret removed from run.sh: github-token"),
        "{exported:?}"
    );
    assert!(said(&exported.done, "left out blob.bin: "), "{exported:?}");
    assert!(
        screen.text().contains("secret removed from run.sh"),
        "{}",
        screen.text()
    );
    let status = &screen.app().status.as_ref().unwrap().text;
    assert!(status.contains("~/out/own-tool.tar.gz"), "{status}");
}

#[test]
fn a_snapshot_says_the_links_it_left_out() {
    let (sandbox, folder) = with_skill("own-links", ".claude/skills/own-links", &[]);
    std::os::unix::fs::symlink("/etc/hostname", folder.join("host")).unwrap();
    let mut screen = open(&sandbox);
    screen.press("/own-links\n").press("s");
    let status = &screen.app().status.as_ref().unwrap().text;
    assert!(status.starts_with("Kept snapshot "), "{status}");
    assert!(
        status.ends_with("of own-links. 1 link left out of it."),
        "{status}"
    );
}

/// The one message a task's worker answers with.
fn answer(start: impl FnOnce(mpsc::Sender<Msg>)) -> Msg {
    let (tx, rx) = mpsc::channel();
    start(tx);
    rx.recv_timeout(PATIENCE).unwrap()
}

#[test]
fn a_restore_says_what_it_kept_and_the_snapshot_its_content_is() {
    let (sandbox, folder) = with_skill("own-draft", ".claude/skills/own-draft", &[]);
    let machine = sandbox.machine();
    let store = Store::open(&machine.env);
    let first = store.take(&folder, Reason::Manual).unwrap().snapshot.id;
    fs::write(
        folder.join("SKILL.md"),
        "---\nname: own-draft\n---\nEdited.\n",
    )
    .unwrap();
    let msg = answer(|tx| {
        tasks::restore(
            &machine,
            tx,
            "own-draft".to_owned(),
            folder.clone(),
            first.clone(),
        );
    });
    let Msg::TaskDone {
        result: Ok(Told { note, .. }),
        rescan: true,
    } = &msg
    else {
        panic!("{msg:?}")
    };
    let note = note.clone();
    let kept = store.history(&folder).unwrap();
    let ids: Vec<&str> = kept.iter().map(|s| s.id.as_str()).collect();
    // The first, what the folder held before, and the restored content.
    assert_eq!(ids.len(), 3, "{ids:?}");
    assert!(
        note.contains(&format!("kept as snapshot {}", ids[1])),
        "{note}"
    );
    assert!(
        note.contains(&format!("back to snapshot {first}")),
        "{note}"
    );
    assert!(
        note.contains(&format!("the restored content is snapshot {}", ids[2])),
        "{note}"
    );
    let mut screen = open(&sandbox);
    screen.send(msg);
    let status = &screen.app().status.as_ref().unwrap().text;
    assert_eq!(*status, note);
}

/// The summary of a batch run by its worker.
fn batch_summary(sandbox: &Sandbox, job: Job, skills: Vec<Target>) -> Summary {
    let (tx, rx) = mpsc::channel();
    manage::run(&sandbox.machine(), tx, Batch { id: 5, job, skills });
    loop {
        match rx.recv_timeout(PATIENCE).unwrap() {
            Msg::Batch {
                event: BatchEvent::Done(summary),
                ..
            } => return summary,
            Msg::Batch { .. } => {}
            other => panic!("{other:?}"),
        }
    }
}

fn target(name: &str, dir: &Path) -> Target {
    Target {
        name: name.to_owned(),
        dir: dir.to_path_buf(),
        shown_dir: String::new(),
    }
}

#[test]
fn a_link_says_where_it_leads_and_which_agents_read_it_there() {
    let (sandbox, folder) = with_skill("own-guide", ".claude/skills/own-guide", &[]);
    let to = Destination {
        how: How::Link,
        agent: Some(AgentId::CODEX),
        scope: Scope::User,
        all_agents: false,
    };
    let linked = batch_summary(
        &sandbox,
        Job::Share { to, force: true },
        vec![target("own-guide", &folder)],
    );
    assert_eq!(linked.done.len(), 1, "{linked:?}");
    let line = &linked.done[0];
    // Which way the link points, in words: it is made in Codex's folder, to the skill.
    assert!(
        line.starts_with("own-guide: ~/.agents/skills/own-guide "),
        "{line}"
    );
    assert!(
        line.contains(" (Codex's user folder) is now a link to ~/.claude/skills/own-guide."),
        "{line}"
    );
    assert!(
        line.contains("Agents that load skills from there: "),
        "{line}"
    );
    assert!(line.contains("Codex"), "{line}");
}

#[test]
fn a_batch_export_names_each_archive_and_numbers_a_name_taken() {
    let (sandbox, folder) = with_skill("own-kit", ".claude/skills/own-kit", &[]);
    let out = sandbox.home().join("out");
    fs::create_dir_all(&out).unwrap();
    fs::write(out.join("own-kit.tar.gz"), "someone else's").unwrap();
    let exported = batch_summary(
        &sandbox,
        Job::Export {
            folder: "~/out".to_owned(),
        },
        vec![target("own-kit", &folder)],
    );
    assert_eq!(exported.done.len(), 1, "{exported:?}");
    let line = &exported.done[0];
    assert!(
        line.contains("to ~/out/own-kit-2.tar.gz; no secrets found."),
        "{line}"
    );
    assert_eq!(
        fs::read(out.join("own-kit.tar.gz")).unwrap(),
        b"someone else's"
    );
}
