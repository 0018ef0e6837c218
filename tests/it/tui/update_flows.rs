//! `update` for the changed view, the diff, the tasks (snapshot, accept, restore, export), the
//! installer filter and every step of an import, driven by messages alone: no terminal, no
//! threads, no files. Each case starts from a small app, applies messages, and checks the
//! state and the effects asked for.

use std::path::PathBuf;

use crate::common::deck::{deck, dir, every_action, laid, pane};
use skilldeck::bundle::browse::FoundKind;
use skilldeck::roots::{AgentId, Scope};
use skilldeck::snapshot::SnapshotError;
use skilldeck::snapshot::diff::{Blob, Body, FileDiff, SkillDiff, hunks};
use skilldeck::tui::app::{App, By, Overlay, Screen, Setup};
use skilldeck::tui::changes::{ChangeView, SinceView};
use skilldeck::tui::diff::{Against, DiffView};
use skilldeck::tui::failed::ListingFailed;
use skilldeck::tui::failed::{DiffError, Stopped, TaskError};
use skilldeck::tui::geometry::Panes;
use skilldeck::tui::import::picker::EntryView;
use skilldeck::tui::import::{
    BundleView, BundledSkillView, ConflictView, DestinationView, FileView, ImportedView, PlaceView,
    RefusalView, Step,
};
use skilldeck::tui::keymap::Mode;
use skilldeck::tui::model::OwnerView;
use skilldeck::tui::msg::{Action, Changes, Effect, ImportEvent, Msg};
use skilldeck::tui::update::update;
use skilldeck::tui::views::Loading;
use skilldeck::tui::workers::ChangesFailed;
use skilldeck::tui::workers::import::ImportFailed;
use strum::VariantArray;

use Action::*;

/// A task's worker that stopped, saying `said`.
fn task_stopped(work: &'static str, said: &str) -> TaskError {
    TaskError::Stopped(Stopped {
        work,
        panic: said.to_owned(),
    })
}

fn change(name: &str, since: SinceView, pristine: Option<&str>) -> ChangeView {
    ChangeView {
        name: name.to_owned(),
        dir: dir(name),
        shown_dir: format!("~/skills/{name}"),
        source: None,
        since,
        pristine: pristine.map(PathBuf::from),
    }
}

fn snapshot_since(id: &str) -> SinceView {
    SinceView::Snapshot {
        id: id.to_owned(),
        age: None,
    }
}

/// The app after a scan of [`crate::common::deck::deck`]: alpha changed since its snapshot, beta
/// (modified) since installed with a pristine copy, gamma gone; beta's installer is
/// claude-plugin, alpha's skilldeck.
fn loaded() -> App {
    let mut app = App::new(Setup {
        work_dir: "~/work".to_owned(),
        ..Setup::default()
    });
    let mut deck = deck();
    let owner = |installer: &str, pristine: Option<&str>| OwnerView {
        installer: installer.to_owned(),
        upstream: None,
        repository: None,
        note: None,
        pristine: pristine.map(PathBuf::from),
        shown_pristine: None,
    };
    deck.skills[0].owner = Some(owner("skilldeck", None));
    deck.skills[1].owner = Some(owner("claude-plugin", Some("/clone/beta")));
    deck.skills[4].owner = Some(owner("claude-plugin", None));
    let deck = skilldeck::tui::model::Deck::from_views(deck.skills, deck.roots);
    update(&mut app, Msg::Started);
    let effects = update(&mut app, Msg::ScanDone(Box::new(deck)));
    crate::common::app::audited(&mut app, effects);
    update(
        &mut app,
        Msg::Changes(Ok(Changes {
            skills: vec![
                change("alpha", snapshot_since("snap-a"), None),
                change(
                    "beta",
                    SinceView::Installed {
                        installer: Some("claude-plugin".to_owned()),
                    },
                    Some("/clone/beta"),
                ),
                change(
                    "gamma",
                    SinceView::Gone {
                        id: "snap-g".to_owned(),
                        age: None,
                    },
                    None,
                ),
            ],
            unreadable: 0,
        })),
    );
    update(
        &mut app,
        Msg::Preview {
            dir: dir("alpha"),
            text: Ok(vec!["# alpha".to_owned()]),
        },
    );
    update(
        &mut app,
        laid(Panes {
            list: pane(3, 0),
            changed: pane(3, 0),
            diff: pane(4, 12),
            picker: pane(5, 0),
            destination: pane(4, 0),
            ..Panes::default()
        }),
    );
    app
}

/// A diff of two files, the second starting at row 9, with hunks.
fn diff_view(name: &str, against: Against) -> DiffView {
    let blob = Blob {
        size: 1,
        sha256: "00".repeat(32),
        executable: false,
    };
    let file = |path: &str, old: &str, new: &str| {
        let hunks = hunks(old, new);
        FileDiff {
            path: path.to_owned(),
            old: Some(blob.clone()),
            new: Some(blob.clone()),
            added: 1,
            removed: 1,
            body: Body::Hunks(hunks),
        }
    };
    let far: String = (0..12).map(|i| format!("{i}\n")).collect();
    let diff = SkillDiff {
        files: vec![
            file("SKILL.md", "a\n", "b\n"),
            file(
                "notes.md",
                &far,
                &far.replace("0\n", "zero\n").replace("11\n", "eleven\n"),
            ),
        ],
        frontmatter: None,
        truncated: false,
        not_compared: Vec::new(),
    };
    let mut view = DiffView::new(name, dir(name), format!("~/skills/{name}"), against);
    view.push(None, &diff);
    view
}

fn keys(actions: &[Action]) -> Vec<Msg> {
    actions.iter().copied().map(Msg::Action).collect()
}

fn with(mut msgs: Vec<Msg>, more: Vec<Msg>) -> Vec<Msg> {
    msgs.extend(more);
    msgs
}

/// The request number of the diff open.
fn diff_request(app: &App) -> u64 {
    app.views.diff().unwrap().request
}

fn diff_ready(app: &mut App, against: Against) {
    let request = diff_request(app);
    let name = app.views.diff().unwrap().name.clone();
    update(
        app,
        Msg::Diff {
            request,
            diff: Ok(Box::new(diff_view(&name, against))),
        },
    );
}

/// Alpha's diff, against its snapshot, open.
fn diffing() -> App {
    let mut app = loaded();
    for msg in keys(&[ShowChanged, OpenDiff]) {
        update(&mut app, msg);
    }
    diff_ready(
        &mut app,
        Against::Snapshot {
            id: "snap-a".to_owned(),
            age: None,
        },
    );
    app
}

// --- Import fixtures ------------------------------------------------------------------------

fn place() -> PlaceView {
    let entry = |name: &str, kind| EntryView {
        name: name.to_owned(),
        key: name.to_lowercase(),
        path: PathBuf::from(format!("/dl/{name}")),
        kind,
        hidden: false,
    };
    PlaceView {
        dir: PathBuf::from("/dl"),
        shown_dir: "~/dl".to_owned(),
        parent: Some(PathBuf::from("/")),
        entries: vec![
            entry("repos", FoundKind::Folder),
            entry("evil.zip", FoundKind::Archive { size: 9 }),
            entry("team.tar.gz", FoundKind::Archive { size: 99 }),
        ],
    }
}

/// The picker open on [`place`].
fn picking() -> App {
    let mut app = loaded();
    update(&mut app, Msg::Action(Import));
    let request = app.import.as_ref().unwrap().picker.request;
    update(
        &mut app,
        Msg::Listing {
            request,
            place: Ok(place()),
        },
    );
    app
}

fn session(app: &App) -> u64 {
    app.import.as_ref().unwrap().session
}

fn bundle() -> BundleView {
    let skill = |name: &str| BundledSkillView {
        name: name.to_owned(),
        shown_name: name.to_owned(),
        folder: String::new(),
        description: None,
        files: vec![FileView {
            path: "SKILL.md".to_owned(),
            size: 10,
            executable: false,
        }],
        size: 10,
        lints: Vec::new(),
        audit: Default::default(),
    };
    BundleView {
        source: "~/dl/team.tar.gz".to_owned(),
        skills: vec![skill("one"), skill("two"), skill("three")],
        left_out: vec!["README.md".to_owned()],
        set_aside: 0,
        notes: Vec::new(),
    }
}

fn destinations() -> Vec<DestinationView> {
    let at = |agent, scope, root: &str| DestinationView {
        agent,
        scope,
        root: PathBuf::from(root),
        shown_root: root.to_owned(),
        readers: vec![agent],
        shadows: Vec::new(),
        distrusting: Vec::new(),
    };
    vec![
        at(AgentId::CODEX, Scope::User, "/h/.agents/skills"),
        at(AgentId::CLAUDE_CODE, Scope::User, "/h/.claude/skills"),
        at(AgentId::CLAUDE_CODE, Scope::Project, "/p/.claude/skills"),
    ]
}

/// The team bundle read, its preview shown.
fn previewing() -> App {
    let mut app = picking();
    for msg in keys(&[Type('t'), Type('e'), Choose]) {
        update(&mut app, msg);
    }
    let session = session(&app);
    update(
        &mut app,
        Msg::Import {
            session,
            event: ImportEvent::Read(Ok((Box::new(bundle()), destinations()))),
        },
    );
    app
}

fn choosing_destination() -> App {
    let mut app = previewing();
    update(&mut app, Msg::Action(Choose));
    app
}

/// The import asked to install `one` and `two`, and refused for their high findings: the
/// question before a risky install.
pub(crate) fn risky() -> App {
    let mut app = choosing_destination();
    update(&mut app, Msg::Action(Choose));
    let session = session(&app);
    let finding = |skill: &str, rule: &'static str| skilldeck::tui::audit::FindingView {
        skill: skill.to_owned(),
        file: "run.sh".to_owned(),
        line: 2,
        rule,
        severity: skilldeck::audit::Severity::High,
        message: "a download piped into a shell".to_owned(),
    };
    update(
        &mut app,
        Msg::Import {
            session,
            event: ImportEvent::Risky {
                risk: skilldeck::tui::audit::RiskView {
                    findings: vec![
                        finding("one", "remote-pipe-to-shell"),
                        finding("two", "env-to-webhook"),
                    ],
                    skills: vec!["one".to_owned(), "two".to_owned()],
                    rules: vec!["remote-pipe-to-shell", "env-to-webhook"],
                },
                force: false,
                skills: vec!["one".to_owned(), "two".to_owned()],
            },
        },
    );
    app
}

fn replacing(forcible: bool) -> App {
    let mut app = choosing_destination();
    update(&mut app, Msg::Action(Choose));
    let session = session(&app);
    update(
        &mut app,
        Msg::Import {
            session,
            event: ImportEvent::Conflicts {
                conflicts: vec![ConflictView {
                    skill: "two".to_owned(),
                    row: 0,
                    files: 0..1,
                    name: "two".to_owned(),
                    shown_dir: "/h/.claude/skills/two".to_owned(),
                    why: "carries no installation record".to_owned(),
                    forcible,
                    edited: false,
                }],
                diff: Box::new(diff_view("two", Against::Import)),
            },
        },
    );
    app
}

fn event(app: &App, event: ImportEvent) -> Msg {
    Msg::Import {
        session: session(app),
        event,
    }
}

fn step(app: &App) -> &Step {
    &app.import.as_ref().unwrap().step
}

struct Case {
    name: &'static str,
    start: fn() -> App,
    msgs: fn(&App) -> Vec<Msg>,
    check: fn(&App, &[Effect]),
}

const CASES: &[Case] = &[
    // --- The changed view and the diff ---
    Case {
        name: "3 shows the changed skills, where the cursor moves",
        start: loaded,
        msgs: |_| keys(&[ShowChanged, Down, Down, Down]),
        check: |app, effects| {
            assert_eq!(app.screen, Screen::Changed);
            assert_eq!(app.mode(), Mode::Changed);
            assert_eq!(app.changes.selected, 2);
            assert!(effects.is_empty());
        },
    },
    Case {
        name: "changes found again keep the cursor on its skill",
        start: loaded,
        msgs: |_| {
            with(
                keys(&[ShowChanged, Down]),
                vec![Msg::Changes(Ok(Changes {
                    skills: vec![change(
                        "beta",
                        SinceView::Installed { installer: None },
                        None,
                    )],
                    unreadable: 2,
                }))],
            )
        },
        check: |app, _| {
            assert_eq!(app.changes.selected().unwrap().name, "beta");
            assert_eq!(app.changes.unreadable, 2);
        },
    },
    Case {
        name: "changes that could not be found say why",
        start: loaded,
        msgs: |_| {
            vec![Msg::Changes(Err(ChangesFailed::Unreadable(
                SnapshotError::Read {
                    path: "/store".into(),
                    source: std::io::Error::other("denied"),
                },
            )))]
        },
        check: |app, _| {
            assert_eq!(
                app.changes.skills,
                Loading::Failed(
                    "The snapshots could not be read: /store could not be read: denied".to_owned()
                )
            );
        },
    },
    Case {
        name: "a rescan compares again",
        start: loaded,
        msgs: |_| keys(&[ShowChanged, Rescan]),
        check: |app, effects| {
            assert_eq!(effects, [Effect::StartScan]);
            assert_eq!(app.changes.skills, Loading::Waiting);
            assert!(app.waiting());
        },
    },
    Case {
        name: "Enter on a changed skill asks for its diff",
        start: loaded,
        msgs: |_| keys(&[ShowChanged, Down, OpenDiff]),
        check: |app, effects| {
            let request = diff_request(app);
            assert_eq!(
                effects,
                [Effect::ComputeDiff {
                    request,
                    name: "beta".to_owned(),
                    dir: dir("beta"),
                    pristine: Some(PathBuf::from("/clone/beta")),
                }]
            );
            assert_eq!(app.mode(), Mode::Diff);
            assert!(app.waiting());
        },
    },
    Case {
        name: "D in the list diffs the selected skill, with its installer's copy",
        start: loaded,
        msgs: |_| keys(&[Down, OpenDiff]),
        check: |app, effects| {
            assert!(
                matches!(&effects[1], Effect::ComputeDiff { name, pristine, .. }
                if name == "beta" && pristine.as_deref() == Some(std::path::Path::new("/clone/beta")))
            );
            assert_eq!(app.views.diff().unwrap().name, "beta");
        },
    },
    Case {
        name: "the diff asked for is shown; an older one is dropped",
        start: loaded,
        msgs: |_| keys(&[ShowChanged, OpenDiff]),
        check: |app, _| {
            let mut app = app.clone();
            let stale = diff_request(&app) - 1;
            update(
                &mut app,
                Msg::Diff {
                    request: stale,
                    diff: Err(Stopped {
                        work: "The diff",
                        panic: "old".to_owned(),
                    }
                    .into()),
                },
            );
            assert_eq!(app.views.diff().unwrap().view, Loading::Waiting);
            diff_ready(&mut app, Against::Import);
            assert!(matches!(app.views.diff().unwrap().view, Loading::Ready(_)));
        },
    },
    Case {
        name: "a diff that cannot be made says why",
        start: || {
            let mut app = loaded();
            update(&mut app, Msg::Action(ShowChanged));
            update(&mut app, Msg::Action(OpenDiff));
            app
        },
        msgs: |app| {
            vec![Msg::Diff {
                request: diff_request(app),
                diff: Err(DiffError::NoBaseline {
                    name: "alpha".to_owned(),
                    key: "s".to_owned(),
                }),
            }]
        },
        check: |app, _| {
            assert_eq!(
                app.views.diff().unwrap().view,
                Loading::Failed(
                    "No snapshot of alpha was taken, and its installer keeps no copy of it to compare with: s takes a snapshot now, and later changes can be diffed against it."
                        .to_owned()
                )
            );
        },
    },
    Case {
        name: "n and N jump between hunks, ] and [ between files",
        start: diffing,
        msgs: |_| keys(&[NextHunk, NextHunk]),
        check: |app, _| {
            let Loading::Ready(view) = &app.views.diff().unwrap().view else {
                panic!()
            };
            assert_eq!(app.views.diff().unwrap().scroll, view.hunks[1]);
            let mut app = app.clone();
            update(&mut app, Msg::Action(PreviousHunk));
            assert_eq!(app.views.diff().unwrap().scroll, view.hunks[0]);
            update(&mut app, Msg::Action(NextFile));
            assert_eq!(app.views.diff().unwrap().scroll, view.files[1].row);
            update(&mut app, Msg::Action(PreviousFile));
            assert_eq!(app.views.diff().unwrap().scroll, 0);
            update(&mut app, Msg::Action(PreviousFile));
            assert_eq!(app.status.as_ref().unwrap().text, "No more that way.");
        },
    },
    Case {
        name: "the diff scrolls no further than the view allows",
        start: diffing,
        msgs: |_| keys(&[Bottom, Down, PageDown]),
        check: |app, _| assert_eq!(app.views.diff().unwrap().scroll, 12),
    },
    Case {
        name: "R asks before restoring, and nothing is done yet",
        start: diffing,
        msgs: |_| keys(&[Restore]),
        check: |app, effects| {
            assert!(effects.is_empty());
            assert_eq!(app.mode(), Mode::Confirm);
            let Overlay::Confirm(question) = &app.overlay else {
                panic!()
            };
            assert_eq!(question.title, "Restore alpha?");
            assert!(question.lines[0].contains("snap-a"));
        },
    },
    Case {
        name: "y restores the snapshot",
        start: diffing,
        msgs: |_| keys(&[Restore, Confirm]),
        check: |app, effects| {
            assert_eq!(
                effects,
                [Effect::Restore {
                    name: "alpha".to_owned(),
                    dir: dir("alpha"),
                    snapshot: "snap-a".to_owned(),
                }]
            );
            assert_eq!(app.overlay, Overlay::None);
            assert_eq!(app.tasks, 1);
            assert!(app.waiting());
        },
    },
    Case {
        name: "n leaves it as it is",
        start: diffing,
        msgs: |_| keys(&[Restore, Back]),
        check: |app, effects| {
            assert!(effects.is_empty());
            assert_eq!(app.mode(), Mode::Diff);
            assert_eq!(app.status.as_ref().unwrap().text, "Nothing was changed.");
        },
    },
    Case {
        name: "R on a diff against the installer's copy says only a snapshot can be restored",
        start: || {
            let mut app = loaded();
            for msg in keys(&[ShowChanged, Down, OpenDiff]) {
                update(&mut app, msg);
            }
            diff_ready(&mut app, Against::Pristine("~/clone/beta".to_owned()));
            app
        },
        msgs: |_| keys(&[Restore]),
        check: |app, effects| {
            assert!(effects.is_empty());
            assert_eq!(app.overlay, Overlay::None);
            assert!(
                app.status
                    .as_ref()
                    .unwrap()
                    .text
                    .starts_with("Only a snapshot")
            );
        },
    },
    Case {
        name: "R in the changed view restores the gone skill's snapshot, after asking",
        start: loaded,
        msgs: |_| keys(&[ShowChanged, Bottom, Restore, Confirm]),
        check: |_, effects| {
            assert!(matches!(&effects[0], Effect::Restore { name, snapshot, .. }
                if name == "gamma" && snapshot == "snap-g"));
        },
    },
    Case {
        name: "R on a skill with no snapshot says there is none",
        start: loaded,
        msgs: |_| keys(&[ShowChanged, Down, Restore]),
        check: |app, effects| {
            assert!(effects.is_empty());
            assert!(
                app.status
                    .as_ref()
                    .unwrap()
                    .text
                    .starts_with("No snapshot of beta")
            );
        },
    },
    Case {
        name: "a asks first, naming the skill and the baseline it replaces",
        start: loaded,
        msgs: |_| keys(&[ShowChanged, Accept]),
        check: |app, effects| {
            assert!(effects.is_empty());
            assert_eq!(app.tasks, 0);
            let Overlay::Confirm(question) = &app.overlay else {
                panic!("{:?}", app.overlay)
            };
            assert_eq!(question.title, "Accept alpha as it is now as its baseline?");
            assert_eq!(
                question.lines,
                ["The snapshot it replaces as baseline, snap-a, stays in its history; u undoes."]
            );
            assert_eq!(question.yes, "accept");
        },
    },
    Case {
        name: "y accepts what the skill holds now",
        start: loaded,
        msgs: |_| keys(&[ShowChanged, Accept, Confirm]),
        check: |app, effects| {
            assert_eq!(
                effects,
                [Effect::Accept {
                    name: "alpha".to_owned(),
                    dir: dir("alpha"),
                }]
            );
            assert_eq!(app.tasks, 1);
            assert_eq!(app.overlay, Overlay::None);
        },
    },
    Case {
        name: "Esc at the accept question accepts nothing",
        start: loaded,
        msgs: |_| keys(&[ShowChanged, Accept, Back]),
        check: |app, effects| {
            assert!(effects.is_empty());
            assert_eq!(app.tasks, 0);
            assert_eq!(app.status.as_ref().unwrap().text, "Nothing was changed.");
        },
    },
    Case {
        name: "accepting a skill with no snapshot says it takes the first",
        start: loaded,
        msgs: |_| keys(&[ShowChanged, Down, Accept]),
        check: |app, effects| {
            assert!(effects.is_empty());
            let Overlay::Confirm(question) = &app.overlay else {
                panic!("{:?}", app.overlay)
            };
            assert_eq!(question.title, "Accept beta as it is now as its baseline?");
            assert!(question.lines[0].starts_with("It has no snapshot yet: this takes its first"));
        },
    },
    Case {
        name: "a in the diff asks first too, and y accepts",
        start: diffing,
        msgs: |_| keys(&[Accept]),
        check: |app, effects| {
            assert!(effects.is_empty());
            let Overlay::Confirm(question) = &app.overlay else {
                panic!("{:?}", app.overlay)
            };
            assert_eq!(question.title, "Accept alpha as it is now as its baseline?");
            assert!(question.lines[0].contains("snap-a"));
            let mut app = app.clone();
            let effects = update(&mut app, Msg::Action(Confirm));
            assert_eq!(
                effects,
                [Effect::Accept {
                    name: "alpha".to_owned(),
                    dir: dir("alpha"),
                }]
            );
        },
    },
    Case {
        name: "in the diff of a gone skill, accept, snapshot and export are refused before asking",
        start: || {
            let mut app = loaded();
            for msg in keys(&[ShowChanged, Bottom, OpenDiff]) {
                update(&mut app, msg);
            }
            diff_ready(
                &mut app,
                Against::Snapshot {
                    id: "snap-g".to_owned(),
                    age: None,
                },
            );
            app
        },
        msgs: |_| keys(&[Accept, Snapshot, Export]),
        check: |app, effects| {
            assert!(effects.is_empty());
            assert_eq!(app.overlay, Overlay::None);
            assert!(app.status.as_ref().unwrap().text.contains("gamma is gone"));
        },
    },
    Case {
        name: "accept, snapshot and export of a gone skill are refused with a sentence",
        start: loaded,
        msgs: |_| keys(&[ShowChanged, Bottom, Accept, Snapshot, Export]),
        check: |app, effects| {
            assert!(effects.is_empty());
            assert!(app.status.as_ref().unwrap().text.contains("gamma is gone"));
            assert_eq!(app.overlay, Overlay::None);
        },
    },
    Case {
        name: "s snapshots the selected skill of the list",
        start: loaded,
        msgs: |_| keys(&[Down, Snapshot]),
        check: |app, effects| {
            assert_eq!(
                effects[1],
                Effect::TakeSnapshot {
                    name: "beta".to_owned(),
                    dir: dir("beta"),
                }
            );
            assert_eq!(app.status.as_ref().unwrap().text, "Snapshotting beta…");
        },
    },
    Case {
        name: "a snapshot that matches takes the skill off the changed list",
        start: loaded,
        msgs: |_| {
            vec![Msg::Compared {
                dir: dir("alpha"),
                change: None,
            }]
        },
        check: |app, _| {
            let names: Vec<&str> = app
                .changes
                .shown()
                .iter()
                .map(|c| c.name.as_str())
                .collect();
            assert_eq!(names, ["beta", "gamma"]);
        },
    },
    Case {
        name: "a compared skill that differs takes its place by name",
        start: loaded,
        msgs: |_| {
            vec![Msg::Compared {
                dir: dir("delta"),
                change: Some(change("delta", snapshot_since("snap-d"), None)),
            }]
        },
        check: |app, _| {
            let names: Vec<&str> = app
                .changes
                .shown()
                .iter()
                .map(|c| c.name.as_str())
                .collect();
            assert_eq!(names, ["alpha", "beta", "delta", "gamma"]);
        },
    },
    Case {
        name: "a task's end shows its note, and a restore's scans again and remakes the diff",
        start: || {
            let mut app = diffing();
            update(&mut app, Msg::Action(Restore));
            update(&mut app, Msg::Action(Confirm));
            app
        },
        msgs: |_| {
            vec![Msg::TaskDone {
                result: Ok("Restored alpha to snapshot snap-a.".to_owned().into()),
                rescan: true,
            }]
        },
        check: |app, effects| {
            let request = diff_request(app);
            assert_eq!(
                effects,
                [
                    Effect::ComputeDiff {
                        request,
                        name: "alpha".to_owned(),
                        dir: dir("alpha"),
                        pristine: None,
                    },
                    Effect::StartScan
                ]
            );
            assert_eq!(app.tasks, 0);
            assert_eq!(
                app.status.as_ref().unwrap().text,
                "Restored alpha to snapshot snap-a."
            );
        },
    },
    Case {
        name: "a failed task opens a message",
        start: diffing,
        msgs: |_| {
            keys(&[Accept])
                .into_iter()
                .chain([Msg::TaskDone {
                    result: Err(task_stopped("The accept", "alpha could not be read")),
                    rescan: false,
                }])
                .collect()
        },
        check: |app, _| {
            assert_eq!(
                app.messages,
                ["The accept stopped: alpha could not be read"]
            );
            assert_eq!(app.mode(), Mode::Message);
        },
    },
    Case {
        name: "Esc closes the diff, back to the changed view",
        start: diffing,
        msgs: |_| keys(&[Back]),
        check: |app, _| {
            assert!(app.views.diff().is_none());
            assert_eq!(app.mode(), Mode::Changed);
        },
    },
    Case {
        name: "e asks where to export, a name in the work folder to start with",
        start: loaded,
        msgs: |_| keys(&[Export, Erase, Erase, Type('g'), Type('z'), Choose]),
        check: |app, effects| {
            assert_eq!(
                effects,
                [Effect::Export {
                    name: "alpha".to_owned(),
                    dir: dir("alpha"),
                    to: "~/work/alpha.tar.gz".to_owned(),
                    numbered: true,
                }]
            );
            assert_eq!(app.overlay, Overlay::None);
        },
    },
    Case {
        name: "Esc in the export prompt exports nothing",
        start: loaded,
        msgs: |_| keys(&[Export, Back]),
        check: |app, effects| {
            assert!(effects.is_empty());
            assert_eq!(app.status.as_ref().unwrap().text, "Nothing was exported.");
        },
    },
    Case {
        name: "an empty export path is asked for again",
        start: loaded,
        msgs: |_| {
            let mut msgs = keys(&[Export]);
            msgs.extend((0..40).map(|_| Msg::Action(Erase)));
            msgs.push(Msg::Action(Choose));
            msgs
        },
        check: |app, effects| {
            assert!(effects.is_empty());
            assert_eq!(app.mode(), Mode::Export);
        },
    },
    Case {
        name: "w filters by installer: each one found, then none, then all",
        start: loaded,
        msgs: |_| keys(&[CycleInstaller]),
        check: |app, _| {
            assert_eq!(
                app.filter.installer,
                Some(By::Installer("claude-plugin".to_owned()))
            );
            let names: Vec<&str> = app
                .visible
                .iter()
                .map(|&i| app.deck.skills[i].name.as_str())
                .collect();
            assert_eq!(names, ["beta", "gamma"]);
            let mut app = app.clone();
            update(&mut app, Msg::Action(CycleInstaller));
            assert_eq!(
                app.filter.installer,
                Some(By::Installer("skilldeck".to_owned()))
            );
            update(&mut app, Msg::Action(CycleInstaller));
            assert_eq!(app.filter.installer, Some(By::Nobody));
            assert_eq!(app.visible.len(), 3);
            update(&mut app, Msg::Action(CycleInstaller));
            assert_eq!(app.filter.installer, None);
            assert_eq!(app.visible.len(), 6);
        },
    },
    // --- Import ---
    Case {
        name: "i opens the picker and asks for the start folder",
        start: loaded,
        msgs: |_| keys(&[Import]),
        check: |app, effects| {
            let request = app.import.as_ref().unwrap().picker.request;
            assert_eq!(effects, [Effect::Browse { request, dir: None }]);
            assert_eq!(app.mode(), Mode::Picker);
            assert!(app.waiting());
        },
    },
    Case {
        name: "the listing shows the folder, the cursor on its first entry",
        start: picking,
        msgs: |_| Vec::new(),
        check: |app, _| {
            let import = app.import.as_ref().unwrap();
            assert_eq!(import.picker.rows().len(), 5);
            assert_eq!(import.picker.selected, 2);
            assert_eq!(app.picker_dir, Some(PathBuf::from("/dl")));
            assert!(!app.waiting());
        },
    },
    Case {
        name: "a listing for another request is dropped",
        start: picking,
        msgs: |app| {
            vec![Msg::Listing {
                request: app.import.as_ref().unwrap().picker.request + 99,
                place: Err(ListingFailed::Unlistable {
                    shown: "elsewhere".to_owned(),
                    source: std::io::Error::other("gone"),
                }),
            }]
        },
        check: |app, _| assert!(app.import.as_ref().unwrap().picker.error.is_none()),
    },
    Case {
        name: "a folder that cannot be listed says why and keeps the one shown",
        start: picking,
        msgs: |app| {
            vec![Msg::Listing {
                request: app.import.as_ref().unwrap().picker.request,
                place: Err(ListingFailed::Unlistable {
                    shown: "~/x".to_owned(),
                    source: std::io::Error::other("denied"),
                }),
            }]
        },
        check: |app, _| {
            let picker = &app.import.as_ref().unwrap().picker;
            assert_eq!(
                picker.error.as_deref(),
                Some("~/x cannot be listed: denied")
            );
            assert!(picker.place.is_some());
        },
    },
    Case {
        name: "letters filter the picker by name; the cursor goes to the first match",
        start: picking,
        msgs: |_| keys(&[Type('T'), Type('a')]),
        check: |app, _| {
            let picker = &app.import.as_ref().unwrap().picker;
            assert_eq!(picker.filter.text(), "Ta");
            // This folder, then team.tar.gz; the folder above is not offered while filtering.
            assert_eq!(picker.rows().len(), 2);
            assert_eq!(picker.selected, 1);
        },
    },
    Case {
        name: "Enter on a folder lists it",
        start: picking,
        msgs: |_| keys(&[Choose]),
        check: |app, effects| {
            let request = app.import.as_ref().unwrap().picker.request;
            assert_eq!(
                effects,
                [Effect::Browse {
                    request,
                    dir: Some(PathBuf::from("/dl/repos"))
                }]
            );
        },
    },
    Case {
        name: "Backspace with no filter, or the left arrow, goes to the folder above",
        start: picking,
        msgs: |_| keys(&[Erase, Parent]),
        check: |_, effects| {
            assert_eq!(effects.len(), 2);
            for effect in effects {
                assert!(
                    matches!(effect, Effect::Browse { dir: Some(d), .. } if d == std::path::Path::new("/"))
                );
            }
        },
    },
    Case {
        name: "Enter on an archive reads it",
        start: picking,
        msgs: |_| keys(&[Down, Choose]),
        check: |app, effects| {
            assert_eq!(
                effects,
                [Effect::ReadBundle {
                    session: session(app),
                    source: PathBuf::from("/dl/evil.zip")
                }]
            );
            assert_eq!(*step(app), Step::Reading("evil.zip".to_owned()));
            assert_eq!(app.mode(), Mode::Busy);
        },
    },
    Case {
        name: "the first row reads the folder shown as the bundle",
        start: picking,
        msgs: |_| keys(&[Top, Choose]),
        check: |_, effects| {
            assert!(
                matches!(&effects[0], Effect::ReadBundle { source, .. } if source == std::path::Path::new("/dl"))
            );
        },
    },
    Case {
        name: "a refusal is shown; Enter goes back to the picker",
        start: picking,
        msgs: |app| {
            vec![
                Msg::Action(Down),
                Msg::Action(Choose),
                event(
                    app,
                    ImportEvent::Read(Err(RefusalView {
                        source: "~/dl/evil.zip".to_owned(),
                        code: "unsafe_path".to_owned(),
                        sentence: "demo/../x cannot be stored".to_owned(),
                    })),
                ),
            ]
        },
        check: |app, _| {
            assert_eq!(app.mode(), Mode::Refused);
            let mut app = app.clone();
            update(&mut app, Msg::Action(Choose));
            assert_eq!(app.mode(), Mode::Picker);
        },
    },
    Case {
        name: "a bundle read: every skill taken, Claude Code's user folder chosen",
        start: previewing,
        msgs: |_| Vec::new(),
        check: |app, _| {
            let import = app.import.as_ref().unwrap();
            assert_eq!(app.mode(), Mode::Bundle);
            assert_eq!(import.chosen, [true, true, true]);
            assert_eq!(import.destination, 1);
            assert_eq!(import.chosen_names(), ["one", "two", "three"]);
        },
    },
    Case {
        name: "Space leaves the skill under the cursor",
        start: previewing,
        msgs: |_| keys(&[Down, ToggleSkill]),
        check: |app, _| {
            assert_eq!(
                app.import.as_ref().unwrap().chosen_names(),
                ["one", "three"]
            );
        },
    },
    Case {
        name: "with no skill taken, Enter warns and stays",
        start: previewing,
        msgs: |_| keys(&[ToggleSkill, Down, ToggleSkill, Down, ToggleSkill, Choose]),
        check: |app, _| {
            assert_eq!(app.mode(), Mode::Bundle);
            assert!(app.status.as_ref().unwrap().warning);
        },
    },
    Case {
        name: "Enter goes on to the destination",
        start: choosing_destination,
        msgs: |_| keys(&[Down]),
        check: |app, _| {
            assert_eq!(app.mode(), Mode::Destination);
            assert_eq!(app.import.as_ref().unwrap().destination, 2);
        },
    },
    Case {
        name: "Enter on a destination asks for an install without force",
        start: choosing_destination,
        msgs: |_| keys(&[Choose]),
        check: |app, effects| {
            assert_eq!(
                effects,
                [Effect::Install {
                    session: session(app),
                    root: PathBuf::from("/h/.claude/skills"),
                    skills: vec!["one".to_owned(), "two".to_owned(), "three".to_owned()],
                    force: false,
                    accept_risk: false,
                }]
            );
            assert_eq!(*step(app), Step::Planning);
        },
    },
    Case {
        name: "skills that would be replaced are shown with their diff; nothing asked of the worker yet",
        start: || replacing(true),
        msgs: |_| keys(&[NextHunk]),
        check: |app, effects| {
            assert!(effects.is_empty());
            assert_eq!(app.mode(), Mode::Replace);
            let Step::Replace { scroll, diff, .. } = step(app) else {
                panic!()
            };
            assert_eq!(*scroll, diff.hunks[0]);
        },
    },
    Case {
        name: "high findings are asked about: Enter and y do not install, ! does with the risk accepted",
        start: risky,
        msgs: |_| keys(&[Choose, Confirm, ToggleSkill]),
        check: |app, effects| {
            assert!(effects.is_empty(), "{effects:?}");
            assert_eq!(app.mode(), Mode::Risk);
            let mut app = app.clone();
            let effects = update(&mut app, Msg::Action(AcceptRisk));
            assert_eq!(
                effects,
                [Effect::Install {
                    session: session(&app),
                    root: PathBuf::from("/h/.claude/skills"),
                    skills: vec!["one".to_owned(), "two".to_owned()],
                    force: false,
                    accept_risk: true,
                }]
            );
            assert_eq!(*step(&app), Step::Planning);
        },
    },
    Case {
        name: "Esc at the risk's question cancels the import; nothing was written",
        start: risky,
        msgs: |_| keys(&[Back]),
        check: |app, effects| {
            assert!(
                matches!(effects, [Effect::CancelImport { .. }]),
                "{effects:?}"
            );
            assert!(app.import.is_none());
            assert!(
                app.status
                    .as_ref()
                    .unwrap()
                    .text
                    .contains("nothing was written")
            );
        },
    },
    Case {
        name: "replacements confirmed, then the risk: the forced install is asked again, accepted",
        start: || replacing(true),
        msgs: |app| {
            let mut msgs = keys(&[Confirm]);
            msgs.push(Msg::Import {
                session: session(app),
                event: ImportEvent::Risky {
                    risk: skilldeck::tui::audit::RiskView {
                        findings: Vec::new(),
                        skills: vec!["two".to_owned()],
                        rules: vec!["reverse-shell"],
                    },
                    force: true,
                    skills: vec!["two".to_owned()],
                },
            });
            msgs.extend(keys(&[AcceptRisk]));
            msgs
        },
        check: |app, effects| {
            assert!(matches!(
                effects.last(),
                Some(Effect::Install {
                    force: true,
                    accept_risk: true,
                    ..
                })
            ));
            assert!(matches!(step(app), Step::Installing(_)));
        },
    },
    Case {
        name: "y replaces them: an install with force",
        start: || replacing(true),
        msgs: |_| keys(&[Confirm]),
        check: |app, effects| {
            assert!(matches!(&effects[0], Effect::Install { force: true, .. }));
            assert!(matches!(step(app), Step::Installing(_)));
        },
    },
    Case {
        name: "something that is not a skill folder is kept as it is: y installs the rest",
        start: || replacing(false),
        msgs: |_| keys(&[ToggleSkill, Confirm]),
        check: |app, effects| {
            // Space cannot take it: it stays kept.
            assert_eq!(
                effects,
                [Effect::Install {
                    session: session(app),
                    root: PathBuf::from("/h/.claude/skills"),
                    skills: vec!["one".to_owned(), "three".to_owned()],
                    force: true,
                    accept_risk: false,
                }]
            );
        },
    },
    Case {
        name: "progress, then the result; closing it scans again",
        start: || replacing(true),
        msgs: |app| {
            vec![
                Msg::Action(Confirm),
                event(
                    app,
                    ImportEvent::Progress {
                        skill: "two".to_owned(),
                        files_done: 1,
                        files_total: 3,
                    },
                ),
                event(
                    app,
                    ImportEvent::Done(Ok(ImportedView {
                        skills: Vec::new(),
                        warnings: Vec::new(),
                    })),
                ),
                Msg::Action(Back),
            ]
        },
        check: |app, effects| {
            assert!(app.import.is_none());
            assert_eq!(effects.last(), Some(&Effect::StartScan));
        },
    },
    Case {
        name: "Esc while installing asks the worker to stop, and waits for its word",
        start: || replacing(true),
        msgs: |_| keys(&[Confirm, Back]),
        check: |app, effects| {
            assert_eq!(
                effects.last(),
                Some(&Effect::CancelImport {
                    session: session(app)
                })
            );
            assert!(matches!(step(app), Step::Installing(p) if p.cancelling));
            let mut app = app.clone();
            let cancelled = event(&app, ImportEvent::Cancelled);
            update(&mut app, cancelled);
            assert!(app.import.is_none());
            assert_eq!(
                app.status.as_ref().unwrap().text,
                "Import cancelled; nothing was written."
            );
        },
    },
    Case {
        name: "Esc while the destination is judged waits too, and a late conflict cancels",
        start: choosing_destination,
        msgs: |_| keys(&[Choose, Back]),
        check: |app, _| {
            assert!(matches!(step(app), Step::Installing(p) if p.cancelling));
            let mut app = app.clone();
            let late = event(
                &app,
                ImportEvent::Conflicts {
                    conflicts: Vec::new(),
                    diff: Box::new(diff_view("x", Against::Import)),
                },
            );
            update(&mut app, late);
            assert!(app.import.is_none());
        },
    },
    Case {
        name: "news from an import cancelled before is dropped",
        start: previewing,
        msgs: |app| {
            vec![Msg::Import {
                session: session(app) + 1000,
                event: ImportEvent::Done(Err(stopped("old"))),
            }]
        },
        check: |app, _| assert_eq!(app.mode(), Mode::Bundle),
    },
    Case {
        name: "Ctrl-C during an import quits and stops it",
        start: || replacing(true),
        msgs: |_| keys(&[Quit]),
        check: |app, effects| {
            assert!(!app.running);
            assert!(matches!(effects[0], Effect::CancelImport { .. }));
        },
    },
    Case {
        name: "a signal stops the app as q does, and is remembered",
        start: loaded,
        msgs: |_| vec![Msg::Signal(15)],
        check: |app, _| {
            assert!(!app.running);
            assert_eq!(app.signal, Some(15));
        },
    },
];

#[test]
fn update_cases() {
    for case in CASES {
        let mut app = (case.start)();
        let mut effects = Vec::new();
        for msg in (case.msgs)(&app) {
            effects.extend(update(&mut app, msg));
        }
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            (case.check)(&app, &effects);
        }));
        assert!(result.is_ok(), "case failed: {}", case.name);
    }
}

/// Esc at every step of an import closes it at once (the worker has written nothing), and
/// tells the worker to stop.
#[test]
fn esc_cancels_every_step_before_the_install() {
    type Start = fn() -> App;
    let steps: [(&str, Start); 5] = [
        ("picker", picking),
        ("preview", previewing),
        ("destination", choosing_destination),
        ("replacement", || replacing(true)),
        ("refusal", || {
            let mut app = picking();
            update(&mut app, Msg::Action(Choose));
            let refused = event(
                &app,
                ImportEvent::Read(Err(RefusalView {
                    source: String::new(),
                    code: "no_skills".to_owned(),
                    sentence: String::new(),
                })),
            );
            update(&mut app, refused);
            app
        }),
    ];
    for (name, start) in steps {
        let mut app = start();
        let session = session(&app);
        let effects = update(&mut app, Msg::Action(Back));
        assert_eq!(effects, [Effect::CancelImport { session }], "{name}");
        assert!(app.import.is_none(), "{name}");
        assert_eq!(
            app.status.as_ref().unwrap().text,
            "Import cancelled; nothing was written.",
            "{name}"
        );
    }
}

/// What the export prompt holds, when it is open.
fn export_text(app: &App) -> Option<&str> {
    match &app.overlay {
        Overlay::Export(prompt) => Some(prompt.text.text()),
        _ => None,
    }
}

/// A failure from a worker, while the person types the archive's path: the message is shown
/// over the prompt, which keeps what was typed and has the keys again once it is closed.
#[test]
fn a_failure_over_the_export_prompt_keeps_what_was_typed() {
    let failures = [
        Msg::Failed("The scan stopped: boom".to_owned()),
        Msg::TaskDone {
            result: Err(task_stopped(
                "The snapshot",
                "beta could not be snapshotted",
            )),
            rescan: false,
        },
    ];
    for failure in failures {
        let mut app = loaded();
        for msg in keys(&[Export, Erase, Erase, Type('x'), Type('z')]) {
            update(&mut app, msg);
        }
        assert_eq!(export_text(&app), Some("~/work/alpha.tar.xz"));
        let said = format!("{failure:?}");
        update(&mut app, failure);
        assert_eq!(app.messages.len(), 1, "{said}");
        assert_eq!(app.mode(), Mode::Message, "{said}");
        assert_eq!(export_text(&app), Some("~/work/alpha.tar.xz"), "{said}");
        // The message has the keys while it is open: nothing is typed under it.
        update(&mut app, Msg::Action(Type('q')));
        assert_eq!(export_text(&app), Some("~/work/alpha.tar.xz"), "{said}");
        update(&mut app, Msg::Action(Back));
        assert!(app.messages.is_empty(), "{said}");
        assert_eq!(app.mode(), Mode::Export, "{said}");
        let effects = update(&mut app, Msg::Action(Choose));
        assert_eq!(
            effects,
            [Effect::Export {
                name: "alpha".to_owned(),
                dir: dir("alpha"),
                to: "~/work/alpha.tar.xz".to_owned(),
                numbered: false,
            }],
            "{said}"
        );
    }
}

/// A failure while the restore question is open: the question is still asked afterwards, and
/// still restores.
#[test]
fn a_failure_over_the_restore_question_keeps_the_question() {
    let mut app = diffing();
    update(&mut app, Msg::Action(Restore));
    let question = app.overlay.clone();
    assert!(matches!(question, Overlay::Confirm(_)));
    update(
        &mut app,
        Msg::Failed("The SKILL.md reader stopped".to_owned()),
    );
    assert_eq!(app.messages, ["The SKILL.md reader stopped"]);
    assert_eq!(app.overlay, question);
    assert_eq!(app.mode(), Mode::Message);
    // Closing the message leaves the question as it was asked.
    update(&mut app, Msg::Action(Back));
    assert_eq!(app.overlay, question);
    assert_eq!(app.mode(), Mode::Confirm);
    let effects = update(&mut app, Msg::Action(Confirm));
    assert_eq!(
        effects,
        [Effect::Restore {
            name: "alpha".to_owned(),
            dir: dir("alpha"),
            snapshot: "snap-a".to_owned(),
        }]
    );
}

/// Messages wait their turn, the oldest shown first, over an import under way.
#[test]
fn messages_queue_over_an_import() {
    let mut app = previewing();
    update(&mut app, Msg::Failed("first".to_owned()));
    update(
        &mut app,
        Msg::TaskDone {
            result: Err(task_stopped("The snapshot", "second")),
            rescan: false,
        },
    );
    assert_eq!(app.messages, ["first", "The snapshot stopped: second"]);
    update(&mut app, Msg::Action(Back));
    assert_eq!(app.messages, ["The snapshot stopped: second"]);
    assert_eq!(app.mode(), Mode::Message);
    update(&mut app, Msg::Action(Back));
    assert_eq!(app.mode(), Mode::Bundle);
    assert_eq!(step(&app), &Step::Preview);
}

/// Every action (derived from the enum, so a new one is never left out), twice, from a state in
/// every mode; and the states do reach every mode, so a new mode needs a start here.
#[test]
fn every_action_is_handled_without_a_panic_in_every_mode() {
    let refused = || {
        let mut app = picking();
        update(&mut app, Msg::Action(Choose));
        let refusal = event(
            &app,
            ImportEvent::Read(Err(RefusalView {
                source: String::new(),
                code: "no_skills".to_owned(),
                sentence: String::new(),
            })),
        );
        update(&mut app, refusal);
        app
    };
    let imported = || {
        let mut app = choosing_destination();
        update(&mut app, Msg::Action(Choose));
        let done = event(&app, ImportEvent::Done(Err(stopped("stopped"))));
        update(&mut app, done);
        app
    };
    let message = || {
        let mut app = loaded();
        update(&mut app, Msg::Action(Export));
        update(&mut app, Msg::Failed("boom".to_owned()));
        app
    };
    // Two copies of alpha (so the copies view opens), and a batch under way and done.
    fn managed() -> App {
        let mut app = App::new(Setup::default());
        update(&mut app, Msg::Started);
        update(
            &mut app,
            Msg::ScanDone(Box::new(crate::common::deck::managed_deck())),
        );
        app
    }
    fn working() -> App {
        let mut app = managed();
        update(&mut app, Msg::Action(Remove));
        update(&mut app, Msg::Action(Confirm));
        app
    }
    let summarised = || {
        let mut app = working();
        let id = app.batch.as_ref().map_or(0, |b| b.id);
        update(
            &mut app,
            Msg::Batch {
                id,
                event: skilldeck::tui::manage::BatchEvent::Done(Default::default()),
            },
        );
        app
    };
    let starts: [fn() -> App; 17] = [
        || App::new(Setup::default()),
        crate::tui::reading::reading,
        loaded,
        diffing,
        picking,
        previewing,
        choosing_destination,
        || replacing(true),
        risky,
        refused,
        imported,
        message,
        managed,
        working,
        summarised,
        crate::tui::budget::budgeted,
        crate::tui::update_upstream_flows::settling,
    ];
    let actions = every_action();
    let mut reached = std::collections::HashSet::new();
    for start in starts {
        for &first in &actions {
            for &second in &actions {
                let mut app = start();
                reached.insert(app.mode());
                update(&mut app, Msg::Action(first));
                reached.insert(app.mode());
                update(&mut app, Msg::Action(second));
                reached.insert(app.mode());
                assert!(app.changes.selected <= app.changes.shown().len());
            }
        }
    }
    let missed: Vec<Mode> = Mode::VARIANTS
        .iter()
        .copied()
        .filter(|mode| !reached.contains(mode))
        .collect();
    assert!(missed.is_empty(), "no start reaches {missed:?}");
}

/// An import that stopped on `panic`.
fn stopped(panic: &str) -> ImportFailed {
    ImportFailed::Stopped(Stopped {
        work: "The import",
        panic: panic.to_owned(),
    })
}
