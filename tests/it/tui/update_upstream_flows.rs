//! `update` for updating skills from their upstream and for the upstreams' marks, driven by
//! messages alone: no terminal, no threads, no files. `U` asks the worker to read and plan; a
//! clean plan is one question (a record that would go stale, a second); a plan with conflicts
//! opens the conflict view, where each file is settled before the update can be confirmed, a
//! binary file never with both, and Esc stops it; the worker's answer ends it in the status
//! line (a rescan after a write) or a message. The last check's answers mark the skills, and
//! `K` asks for a check.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::{Duration, SystemTime};

use crate::common::deck::{deck, dir};
use skilldeck::merge::{Clash, Resolution, Summary};
use skilldeck::operations::update::{Baseline, FileReport, Report, SkillReport, Status, Updated};
use skilldeck::tui::app::{App, Overlay, Setup};
use skilldeck::tui::diff::{Against, DiffView};
use skilldeck::tui::failed::Stopped;
use skilldeck::tui::keymap::Mode;
use skilldeck::tui::msg::{Action, Changes, Effect, Msg, UpdateEvent, UpstreamsEvent};
use skilldeck::tui::update::update;
use skilldeck::tui::updating::{
    ConflictFile, Planned, Said, Settled, SkillPlan, UpdateFailure, UpdateStep,
};
use skilldeck::tui::upstreams::{CheckStopped, Mark, Upstreams};

use Action::*;

fn loaded() -> App {
    let mut app = App::new(Setup::default());
    update(&mut app, Msg::Started);
    update(&mut app, Msg::ScanDone(Box::new(deck())));
    update(&mut app, Msg::Changes(Ok(Changes::default())));
    app
}

fn act(app: &mut App, action: Action) -> Vec<Effect> {
    update(app, Msg::Action(action))
}

fn session(app: &App) -> u64 {
    app.updating.as_ref().expect("an update under way").session
}

fn news(app: &mut App, event: UpdateEvent) -> Vec<Effect> {
    let session = session(app);
    update(app, Msg::Update { session, event })
}

fn status(app: &App) -> String {
    app.status
        .as_ref()
        .map(|s| s.text.clone())
        .unwrap_or_default()
}

fn plan(stale: Vec<String>, conflicts: Vec<ConflictFile>) -> Planned {
    Planned {
        skills: vec![SkillPlan {
            name: "alpha".to_owned(),
            dir: dir("alpha"),
            shown_dir: "~/skills/alpha".to_owned(),
            up_to_date: false,
            files: vec![
                ("SKILL.md".to_owned(), Summary::TookTheirs),
                ("guide.md".to_owned(), Summary::Merged),
                ("logo.bin".to_owned(), Summary::Conflict),
                ("notes.md".to_owned(), Summary::KeptOurs),
            ],
            baseline: "its baseline, snapshot s-1".to_owned(),
            stale,
        }],
        conflicts,
        selected: 0,
        scroll: 0,
    }
}

/// The report of an update of `skills`, each with the status given: an updated one took
/// upstream's SKILL.md, its snapshots named after it.
fn report(skills: &[(&str, Status)]) -> Report {
    Report {
        dry_run: false,
        skills: skills
            .iter()
            .map(|&(name, status)| SkillReport {
                name: name.to_owned(),
                dir: dir(name),
                status,
                baseline: Baseline::Snapshot(format!("s-{name}")),
                files: vec![FileReport {
                    path: "SKILL.md".to_owned(),
                    summary: if status == Status::Updated {
                        Summary::TookTheirs
                    } else {
                        Summary::KeptOurs
                    },
                    conflict: None,
                    resolution: None,
                }],
                stale: Vec::new(),
                updated: (status == Status::Updated).then(|| Updated {
                    name: name.to_owned(),
                    dir: dir(name),
                    written: true,
                    before: Some(format!("before-{name}")),
                    baseline: format!("upstream-{name}"),
                    unjournalled: None,
                    lock: Ok(None),
                }),
                unremembered: None,
            })
            .collect(),
        stopped: None,
        stopped_at: None,
        cancelled: false,
    }
}

fn conflict(path: &str, clash: Clash, both: bool) -> ConflictFile {
    ConflictFile {
        skill: 0,
        path: path.to_owned(),
        shown_path: path.to_owned(),
        clash,
        both,
        diff: DiffView::new(
            "alpha",
            dir("alpha"),
            "~/skills/alpha".to_owned(),
            Against::Upstream,
        ),
        choice: None,
    }
}

/// The app with alpha's update planned, its two conflicts (an overlapping text, a binary)
/// unsettled: the conflict view.
pub fn settling() -> App {
    let mut app = loaded();
    act(&mut app, Update);
    news(
        &mut app,
        UpdateEvent::Planned(Box::new(plan(
            Vec::new(),
            vec![
                conflict("guide.md", Clash::Overlapping, true),
                conflict("logo.bin", Clash::Binary, false),
            ],
        ))),
    );
    app
}

#[test]
fn u_asks_the_worker_for_the_selected_or_the_marked_skills() {
    let mut app = loaded();
    let effects = act(&mut app, Update);
    let [Effect::ReadUpdate { session, skills }] = effects.as_slice() else {
        panic!("{effects:?}");
    };
    assert_eq!(*session, app.updating.as_ref().unwrap().session);
    assert_eq!(skills.len(), 1);
    assert_eq!(skills[0].dir, dir("alpha"));
    assert!(app.waiting(), "the worker's answer is awaited");
    assert!(status(&app).contains("Reading the upstream of alpha"));
    // A second U while it runs starts nothing.
    assert!(act(&mut app, Update).is_empty());
    assert!(status(&app).contains("already under way"));
    // Progress is said while it reads.
    news(
        &mut app,
        UpdateEvent::Progress("Fetching acme/tools…".to_owned()),
    );
    assert_eq!(status(&app), "Fetching acme/tools…");

    let mut app = loaded();
    // Marking moves the cursor on.
    act(&mut app, ToggleMark);
    act(&mut app, ToggleMark);
    let effects = act(&mut app, Update);
    let [Effect::ReadUpdate { skills, .. }] = effects.as_slice() else {
        panic!("{effects:?}");
    };
    let dirs: Vec<PathBuf> = skills.iter().map(|s| s.dir.clone()).collect();
    assert_eq!(dirs, [dir("alpha"), dir("beta")]);
}

#[test]
fn a_clean_plan_is_one_question_and_yes_applies_it_then_rescans() {
    let mut app = loaded();
    act(&mut app, Update);
    news(
        &mut app,
        UpdateEvent::Planned(Box::new(plan(Vec::new(), Vec::new()))),
    );
    assert_eq!(app.mode(), Mode::Confirm);
    let Overlay::Confirm(question) = &app.overlay else {
        panic!("{:?}", app.overlay);
    };
    assert_eq!(question.title, "Update alpha from upstream?");
    let lines = question.lines.join("\n");
    assert!(lines.contains("SKILL.md  took theirs"), "{lines}");
    assert!(lines.contains("guide.md  merged"), "{lines}");
    assert!(lines.contains("notes.md  kept ours"), "{lines}");
    assert!(lines.contains("u puts it back"), "{lines}");
    assert!(question.then.is_none(), "nothing goes stale");
    let session = session(&app);
    let effects = act(&mut app, Confirm);
    assert_eq!(
        effects,
        [Effect::ApplyUpdate {
            session,
            settled: Vec::new(),
            yes: false
        }]
    );
    assert_eq!(app.updating.as_ref().unwrap().step, UpdateStep::Applying);
    assert_eq!(app.tasks, 1);
    assert!(status(&app).contains("Updating alpha…"));
    // Done: said, and the skills scanned again.
    let effects = news(
        &mut app,
        UpdateEvent::Done(Ok(Box::new(report(&[("alpha", Status::Updated)])))),
    );
    assert!(effects.contains(&Effect::StartScan), "{effects:?}");
    assert!(app.updating.is_none());
    assert_eq!(app.tasks, 0);
    assert_eq!(
        status(&app),
        "Updated alpha: 1 file took theirs. u puts it back. alpha held snapshot before-alpha before; its new baseline is snapshot upstream-alpha."
    );
}

#[test]
fn no_to_a_clean_plan_stops_the_session_with_nothing_written() {
    let mut app = loaded();
    act(&mut app, Update);
    let session = session(&app);
    news(
        &mut app,
        UpdateEvent::Planned(Box::new(plan(Vec::new(), Vec::new()))),
    );
    let effects = act(&mut app, Back);
    assert_eq!(effects, [Effect::CancelUpdate { session }]);
    assert!(app.updating.is_none());
    assert_eq!(app.overlay, Overlay::None);
    assert!(status(&app).contains("nothing was written"));
    // The worker's last word for the session is dropped.
    update(
        &mut app,
        Msg::Update {
            session,
            event: UpdateEvent::Cancelled,
        },
    );
    assert!(app.updating.is_none());
}

#[test]
fn a_record_that_would_go_stale_is_asked_about_on_its_own() {
    let mut app = loaded();
    act(&mut app, Update);
    let stale = vec!["skills-cli installed it and keeps its record in ~/.agents/.skill-lock.json, which would no longer match the updated files".to_owned()];
    news(
        &mut app,
        UpdateEvent::Planned(Box::new(plan(stale, Vec::new()))),
    );
    let session = session(&app);
    // The first yes leads to the second question, which says what goes stale.
    assert!(act(&mut app, Confirm).is_empty());
    let Overlay::Confirm(question) = &app.overlay else {
        panic!("{:?}", app.overlay);
    };
    assert!(question.title.contains("go stale"));
    assert!(question.lines[0].starts_with("alpha: skills-cli installed it"));
    let effects = act(&mut app, Confirm);
    assert_eq!(
        effects,
        [Effect::ApplyUpdate {
            session,
            settled: Vec::new(),
            yes: true
        }]
    );
}

#[test]
fn conflicts_are_settled_one_by_one_before_the_update_can_be_confirmed() {
    let mut app = settling();
    assert_eq!(app.mode(), Mode::Conflicts);
    assert!(
        !app.updating.as_ref().unwrap().waiting(),
        "nothing is awaited while the person chooses"
    );
    assert!(
        status(&app).contains("Conflicts in 2 files"),
        "{}",
        status(&app)
    );
    // Not settled: y refuses, saying how to settle.
    assert!(act(&mut app, Confirm).is_empty());
    assert_eq!(app.mode(), Mode::Conflicts);
    assert!(
        status(&app).contains("2 files not settled yet"),
        "{}",
        status(&app)
    );
    // Both, for the text; the cursor goes on to the binary, which cannot keep both.
    act(&mut app, TakeBoth);
    let planned = app.updating.as_ref().unwrap().planned().unwrap();
    assert_eq!(planned.conflicts[0].choice, Some(Resolution::Both));
    assert_eq!(planned.selected, 1);
    act(&mut app, TakeBoth);
    assert!(
        status(&app).contains("cannot keep both"),
        "{}",
        status(&app)
    );
    let planned = app.updating.as_ref().unwrap().planned().unwrap();
    assert_eq!(planned.conflicts[1].choice, None);
    act(&mut app, TakeOurs);
    assert!(status(&app).contains("Every file is settled"));
    // A choice can be changed: back up to the text and take theirs.
    act(&mut app, Up);
    act(&mut app, TakeTheirs);
    let planned = app.updating.as_ref().unwrap().planned().unwrap();
    assert_eq!(planned.conflicts[0].choice, Some(Resolution::Theirs));
    // Settled: y asks, listing each conflict with its choice.
    let session = session(&app);
    assert!(act(&mut app, Confirm).is_empty());
    let Overlay::Confirm(question) = &app.overlay else {
        panic!("{:?}", app.overlay);
    };
    let lines = question.lines.join("\n");
    assert!(
        lines.contains("logo.bin  conflict (a binary file both sides changed), kept ours"),
        "{lines}"
    );
    // No goes back to the conflicts, their choices standing.
    act(&mut app, Back);
    assert_eq!(app.mode(), Mode::Conflicts);
    assert!(status(&app).contains("the choices stand"));
    act(&mut app, Confirm);
    let effects = act(&mut app, Confirm);
    assert_eq!(
        effects,
        [Effect::ApplyUpdate {
            session,
            settled: vec![
                Settled {
                    dir: dir("alpha"),
                    path: "guide.md".to_owned(),
                    resolution: Resolution::Theirs
                },
                Settled {
                    dir: dir("alpha"),
                    path: "logo.bin".to_owned(),
                    resolution: Resolution::Ours
                },
            ],
            yes: false
        }]
    );
    assert_ne!(
        app.mode(),
        Mode::Conflicts,
        "the view closes while it is written"
    );
}

#[test]
fn esc_stops_the_update_from_the_conflicts() {
    let mut app = settling();
    let session = session(&app);
    act(&mut app, TakeTheirs);
    let effects = act(&mut app, Back);
    assert_eq!(effects, [Effect::CancelUpdate { session }]);
    assert!(app.updating.is_none());
    assert_eq!(app.mode(), Mode::Skills);
    assert!(status(&app).contains("nothing was written"));
}

#[test]
fn the_conflicts_move_and_their_diff_scrolls() {
    let mut app = settling();
    act(&mut app, Down);
    assert_eq!(
        app.updating.as_ref().unwrap().planned().unwrap().selected,
        1
    );
    act(&mut app, Down);
    assert_eq!(
        app.updating.as_ref().unwrap().planned().unwrap().selected,
        1
    );
    act(&mut app, PreviousFile);
    assert_eq!(
        app.updating.as_ref().unwrap().planned().unwrap().selected,
        0
    );
    act(&mut app, NextFile);
    assert_eq!(
        app.updating.as_ref().unwrap().planned().unwrap().selected,
        1
    );
    // Help opens over it and closes back to it.
    act(&mut app, ToggleHelp);
    assert_eq!(app.mode(), Mode::Help);
    act(&mut app, Back);
    assert_eq!(app.mode(), Mode::Conflicts);
}

#[test]
fn a_failure_or_an_up_to_date_skill_ends_the_update_without_a_write() {
    let mut app = loaded();
    act(&mut app, Update);
    let effects = news(
        &mut app,
        UpdateEvent::Done(Err(UpdateFailure::Gone {
            name: "alpha".to_owned(),
            shown_dir: "~/skills/alpha".to_owned(),
        })),
    );
    assert!(effects.is_empty(), "nothing to scan again");
    assert!(app.updating.is_none());
    assert_eq!(
        app.messages,
        ["alpha: no skill is at ~/skills/alpha any more; nothing was written."]
    );

    let mut app = loaded();
    act(&mut app, Update);
    let effects = news(
        &mut app,
        UpdateEvent::Done(Ok(Box::new(report(&[("alpha", Status::UpToDate)])))),
    );
    assert!(effects.is_empty());
    assert_eq!(
        status(&app),
        "alpha is up to date with its upstream; nothing was written."
    );
    assert_eq!(app.tasks, 0);
}

fn upstreams(marks: &[(&str, Mark)], ago: Duration) -> Upstreams {
    Upstreams {
        checked_at: Some(SystemTime::now() - ago),
        marks: marks
            .iter()
            .map(|(name, mark)| (dir(name), mark.clone()))
            .collect(),
        origins: BTreeMap::new(),
        checking: false,
    }
}

#[test]
fn the_last_checks_answers_mark_the_skills_and_k_checks_again() {
    let mut app = loaded();
    let kept = upstreams(
        &[
            (
                "alpha",
                Mark::Moved {
                    edited: Some(false),
                    change: "1a2b → 3c4d".to_owned(),
                },
            ),
            ("beta", Mark::UpToDate),
            ("gamma", Mark::Failed("git could not reach it".to_owned())),
        ],
        Duration::from_secs(3 * 3600 + 60),
    );
    update(
        &mut app,
        Msg::Upstreams(UpstreamsEvent::Kept(Some(Box::new(kept)))),
    );
    assert!(app.upstreams.moved(&dir("alpha")));
    assert!(!app.upstreams.moved(&dir("beta")));
    let now = SystemTime::now();
    assert_eq!(
        app.upstreams.sentence(&dir("alpha"), now).as_deref(),
        Some("upstream moved (1a2b → 3c4d); checked 3 h ago")
    );
    assert_eq!(
        app.upstreams.sentence(&dir("beta"), now).as_deref(),
        Some("up to date with upstream, checked 3 h ago")
    );
    assert!(
        app.upstreams
            .sentence(&dir("gamma"), now)
            .unwrap()
            .starts_with("could not be checked (git could not reach it)")
    );
    assert_eq!(app.upstreams.sentence(&dir("delta"), now), None);
    // Nothing kept: the marks stay as they are.
    update(&mut app, Msg::Upstreams(UpstreamsEvent::Kept(None)));
    assert!(app.upstreams.moved(&dir("alpha")));

    // K asks; progress is said; the answers replace the marks.
    let effects = act(&mut app, CheckUpstreams);
    assert_eq!(effects, [Effect::CheckUpstreams]);
    assert!(app.waiting());
    assert!(
        act(&mut app, CheckUpstreams).is_empty(),
        "one check at a time"
    );
    update(
        &mut app,
        Msg::Upstreams(UpstreamsEvent::Progress("asking acme/tools".to_owned())),
    );
    assert_eq!(status(&app), "asking acme/tools");
    // What a scan meanwhile kept does not undo the check under way.
    let old = upstreams(&[], Duration::ZERO);
    update(
        &mut app,
        Msg::Upstreams(UpstreamsEvent::Kept(Some(Box::new(old)))),
    );
    assert!(app.upstreams.checking);
    let checked = upstreams(&[("alpha", Mark::UpToDate)], Duration::ZERO);
    update(
        &mut app,
        Msg::Upstreams(UpstreamsEvent::Checked(Ok(Box::new(checked)))),
    );
    assert!(!app.upstreams.checking, "the check is no longer awaited");
    assert!(!app.upstreams.moved(&dir("alpha")));
    assert!(status(&app).contains("none moved"), "{}", status(&app));

    act(&mut app, CheckUpstreams);
    update(
        &mut app,
        Msg::Upstreams(UpstreamsEvent::Checked(Err(CheckStopped(Stopped {
            work: "Checking the upstreams",
            panic: "boom".to_owned(),
        })))),
    );
    assert!(!app.upstreams.checking);
    assert_eq!(app.messages, ["Checking the upstreams stopped: boom"]);
}

#[test]
fn an_update_forgets_what_the_last_check_said_of_the_skills_it_wrote() {
    let mut app = loaded();
    let moved = Mark::Moved {
        edited: Some(true),
        change: "1a2b → 3c4d".to_owned(),
    };
    let kept = upstreams(&[("alpha", moved)], Duration::ZERO);
    update(
        &mut app,
        Msg::Upstreams(UpstreamsEvent::Kept(Some(Box::new(kept)))),
    );
    act(&mut app, Update);
    news(
        &mut app,
        UpdateEvent::Planned(Box::new(plan(Vec::new(), Vec::new()))),
    );
    act(&mut app, Confirm);
    news(
        &mut app,
        UpdateEvent::Done(Ok(Box::new(report(&[("alpha", Status::Updated)])))),
    );
    assert!(!app.upstreams.moved(&dir("alpha")));
}

#[test]
fn the_status_line_says_every_field_of_the_report() {
    // Updated beside an up-to-date one; a record left stale (with yes); a commit not recorded.
    let mut done = report(&[("alpha", Status::Updated), ("beta", Status::UpToDate)]);
    done.skills[0].stale = vec!["skills-cli installed it and its record in SKILL.md would no longer match the updated files".to_owned()];
    done.skills[1].unremembered = Some(std::io::Error::other("disk full"));
    let Said::Done(said) = skilldeck::tui::updating::said(&done, "u") else {
        panic!("stopped");
    };
    assert!(
        said.starts_with("Updated alpha: 1 file took theirs. u puts it back."),
        "{said}"
    );
    assert!(
        said.contains(
            "alpha held snapshot before-alpha before; its new baseline is snapshot upstream-alpha."
        ),
        "{said}"
    );
    assert!(said.contains("alpha: skills-cli installed it"), "{said}");
    assert!(said.contains("beta was up to date."), "{said}");
    assert!(
        said.contains("where beta came from could not be recorded (disk full)"),
        "{said}"
    );

    // A merge the files already held: nothing rewritten, the baseline kept all the same.
    let mut done = report(&[("alpha", Status::Updated)]);
    let updated = done.skills[0].updated.as_mut().unwrap();
    updated.written = false;
    updated.before = None;
    let Said::Done(said) = skilldeck::tui::updating::said(&done, "u") else {
        panic!("stopped");
    };
    assert!(
        said.contains(
            "alpha's files already held the merge; its new baseline is snapshot upstream-alpha."
        ),
        "{said}"
    );

    // Stopped at the second skill: the refusal, naming it, and what was updated before.
    let mut done = report(&[("alpha", Status::Updated), ("beta", Status::NotUpdated)]);
    done.stopped = Some(skilldeck::operations::update::UpdateError::ChangedSince(
        dir("beta"),
    ));
    done.stopped_at = Some(1);
    let Said::Stopped(said) = skilldeck::tui::updating::said(&done, "u") else {
        panic!("not stopped");
    };
    assert!(said.starts_with("beta: "), "{said}");
    assert!(
        said.contains("changed while it was being updated"),
        "{said}"
    );
    assert!(
        said.ends_with("alpha was updated before it; u puts it back."),
        "{said}"
    );
}

#[test]
fn the_marks_say_what_outdated_says_of_each_skill() {
    use skilldeck::operations::outdated::{Checked, Compares, Outdated};
    use skilldeck::record::upstream::Upstream;
    let checked = |name: &str, latest: Option<&str>| Checked {
        name: name.to_owned(),
        dir: dir(name),
        upstream: Upstream {
            repository: "acme/tools".to_owned(),
            reference: Some("main".to_owned()),
            commit: "0123456789abcdef".to_owned(),
            path: String::new(),
        },
        latest: latest.map(str::to_owned),
        pinned: false,
        edited: false,
        error: None,
        record: "skills-cli".to_owned(),
        compares: Compares::Commit,
        recorded: None,
        edits_known: false,
        note: None,
        folder_same: false,
    };
    let outdated = Outdated {
        checked_at: SystemTime::now(),
        skills: vec![
            checked("alpha", Some("fedcba9876543210")),
            Checked {
                note: Some("Codex records only the version it installed".to_owned()),
                compares: Compares::Nothing,
                ..checked("beta", None)
            },
        ],
    };
    let marks = Upstreams::of(&outdated);
    let now = SystemTime::now();
    let alpha = marks.sentence(&dir("alpha"), now).unwrap();
    assert!(
        alpha.starts_with("upstream moved (0123456789ab → fedcba987654), and whether it was edited here cannot be told;"),
        "{alpha}"
    );
    assert!(
        alpha.ends_with("from acme/tools@main, by skills-cli's record"),
        "{alpha}"
    );
    // A record with nothing to compare is not said to be up to date.
    let beta = marks.sentence(&dir("beta"), now).unwrap();
    assert!(
        beta.starts_with("cannot be told (Codex records only the version it installed)"),
        "{beta}"
    );
    assert!(!marks.moved(&dir("beta")));
}
