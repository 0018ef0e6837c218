//! The update use case on a throw-away machine: skills skilldeck installed from a folder,
//! updated from another folder.

use std::fs;
use std::path::{Path, PathBuf};

use super::*;
use crate::operations::import;
use crate::operations::progress::Watching;

/// A sandbox machine, its Claude Code user root, and the temporary folder that holds both.
struct Lab {
    _temp: tempfile::TempDir,
    top: PathBuf,
    machine: Machine,
    root: PathBuf,
}

const NOTES: &str = "1\n2\n3\n4\n5\n6\n7\n8\n9\n";

fn write_skill(dir: &Path, files: &[(&str, &str)]) {
    let name = dir.file_name().unwrap().to_string_lossy().into_owned();
    fs::create_dir_all(dir).unwrap();
    fs::write(
        dir.join("SKILL.md"),
        format!("---\nname: {name}\ndescription: The {name} skill.\n---\n# {name}\n"),
    )
    .unwrap();
    for (path, text) in files {
        fs::write(dir.join(path), text).unwrap();
    }
}

impl Lab {
    /// `skills` installed by skilldeck from version 1 of an upstream folder, each with
    /// `notes.md`.
    fn new(skills: &[&str]) -> Self {
        let temp = tempfile::tempdir().unwrap();
        let top = temp.path().canonicalize().unwrap();
        let home = top.join("home");
        let project = top.join("project");
        fs::create_dir_all(&project).unwrap();
        let machine = Machine::sandbox(&home, &top.join("system"), &project);
        let root = home.join(".claude/skills");
        for skill in skills {
            write_skill(&top.join("v1").join(skill), &[("notes.md", NOTES)]);
        }
        let bundle = import::read(&top.join("v1")).unwrap();
        let chosen: Vec<_> = bundle.skills.iter().collect();
        let (mut progress, cancel) = (|_: Step<'_>| {}, Cancel::new());
        let mut watch = Watching {
            progress: &mut progress,
            cancel: &cancel,
        };
        import::install(&machine, &root, &chosen, false, &mut watch).unwrap();
        Self {
            _temp: temp,
            top,
            machine,
            root,
        }
    }

    /// Version `version` of the upstream: version 1 with `notes` as every skill's notes.
    fn upstream(&self, version: &str, skills: &[&str], notes: &str) -> Source {
        for skill in skills {
            write_skill(&self.top.join(version).join(skill), &[("notes.md", notes)]);
        }
        Source::Local(self.top.join(version))
    }

    fn skills(&self) -> crate::scan::Inventory {
        crate::scan::scan(&self.machine.env, &self.machine.project, &|_| {})
    }

    fn notes(&self, skill: &str) -> String {
        fs::read_to_string(self.root.join(skill).join("notes.md")).unwrap()
    }

    fn edit(&self, skill: &str, notes: &str) {
        fs::write(self.root.join(skill).join("notes.md"), notes).unwrap();
    }

    /// Prepare the update of `names` from `from`, with the steps heard.
    fn prepare(
        &self,
        names: &[&str],
        from: Option<Source>,
        cancel: &Cancel,
    ) -> (Result<Planned, PrepareError>, Vec<String>) {
        let inventory = self.skills();
        let skills: Vec<&Skill> = names
            .iter()
            .map(|name| inventory.skills.iter().find(|s| s.name == *name).unwrap())
            .collect();
        let mut heard = Vec::new();
        let planned = prepare(
            &self.machine,
            &skills,
            &Request { from },
            &mut |step: Step<'_>| {
                if let Step::Target { current, .. } = step {
                    heard.push(current.to_owned());
                }
            },
            cancel,
        );
        (planned, heard)
    }
}

fn apply_all(lab: &Lab, planned: &Planned, choices: &Choices) -> Report {
    apply(
        &lab.machine,
        planned,
        choices,
        &mut |_: Step<'_>| {},
        &Cancel::new(),
    )
}

fn statuses(report: &Report) -> Vec<Status> {
    report.skills.iter().map(|s| s.status).collect()
}

#[test]
fn a_dry_run_writes_nothing_and_applying_writes_what_it_showed() {
    let lab = Lab::new(&["alpha"]);
    let v2 = lab.upstream("v2", &["alpha"], "new notes\n");
    let (planned, _) = lab.prepare(&["alpha"], Some(v2), &Cancel::new());
    let planned = planned.unwrap();
    assert!(!planned.up_to_date());
    let preview = planned.preview(&Choices::default());
    assert!(preview.dry_run && preview.stopped.is_none());
    assert_eq!(statuses(&preview), [Status::WouldUpdate]);
    assert_eq!(lab.notes("alpha"), NOTES, "a preview writes nothing");

    let report = apply_all(&lab, &planned, &Choices::default());
    assert!(report.stopped.is_none(), "{:?}", report.stopped);
    assert_eq!(statuses(&report), [Status::Updated]);
    assert_eq!(lab.notes("alpha"), "new notes\n");
    let updated = report.skills[0].updated.as_ref().unwrap();
    assert!(updated.written && updated.before.is_some());
    assert!(matches!(report.skills[0].baseline, Baseline::Snapshot(_)));
    let notes = report.skills[0]
        .files
        .iter()
        .find(|f| f.path == "notes.md")
        .unwrap();
    assert_eq!(notes.summary, Summary::TookTheirs);
    assert_eq!(report.tally().theirs, 1);
    assert!(report.skills[0].unremembered.is_none());
}

#[test]
fn an_unsettled_conflict_stops_every_skill_and_a_choice_settles_it() {
    let lab = Lab::new(&["alpha", "beta"]);
    lab.edit("beta", "1\nmine\n3\n4\n5\n6\n7\n8\n9\n");
    let v2 = lab.upstream("v2", &["alpha", "beta"], "1\ntheirs\n3\n4\n5\n6\n7\n8\n9\n");
    let (planned, _) = lab.prepare(&["alpha", "beta"], Some(v2), &Cancel::new());
    let planned = planned.unwrap();

    let report = apply_all(&lab, &planned, &Choices::default());
    assert!(matches!(
        report.stopped,
        Some(UpdateError::Conflicts { ref dir, .. }) if dir.ends_with("beta")
    ));
    assert_eq!(statuses(&report), [Status::NotUpdated, Status::Conflict]);
    assert_eq!(report.stopped_at, Some(1), "beta stopped it");
    assert_eq!(lab.notes("alpha"), NOTES, "alpha is not written either");

    // One file's own choice stands before the side taken for every other.
    let choices = Choices {
        take: Some(Resolution::Theirs),
        each: vec![Settled {
            dir: planned.plans[1].dir.clone(),
            path: "notes.md".to_owned(),
            resolution: Resolution::Ours,
        }],
        yes: false,
    };
    let report = apply_all(&lab, &planned, &choices);
    assert!(report.stopped.is_none(), "{:?}", report.stopped);
    assert_eq!(statuses(&report), [Status::Updated, Status::Updated]);
    assert_eq!(lab.notes("beta"), "1\nmine\n3\n4\n5\n6\n7\n8\n9\n");
    let beta = &report.skills[1].files;
    let notes = beta.iter().find(|f| f.path == "notes.md").unwrap();
    assert_eq!(notes.conflict, Some(Clash::Overlapping));
    assert_eq!(notes.resolution, Some(Resolution::Ours));
    assert_eq!(report.tally().settled, 1);
}

#[test]
fn one_source_is_read_once_for_every_skill_it_holds() {
    let lab = Lab::new(&["alpha", "beta"]);
    let v2 = lab.upstream("v2", &["alpha", "beta"], "new\n");
    let (planned, heard) = lab.prepare(&["alpha", "beta"], Some(v2), &Cancel::new());
    assert_eq!(planned.unwrap().plans.len(), 2);
    assert_eq!(
        heard,
        ["alpha"],
        "read for the first skill, shared by the second"
    );
}

#[test]
fn an_up_to_date_skill_is_said_so_and_nothing_is_written() {
    let lab = Lab::new(&["alpha"]);
    lab.edit("alpha", "my notes\n");
    let same = Source::Local(lab.top.join("v1"));
    let (planned, _) = lab.prepare(&["alpha"], Some(same), &Cancel::new());
    let planned = planned.unwrap();
    assert!(planned.up_to_date(), "a local edit alone is no update");
    let report = apply_all(&lab, &planned, &Choices::default());
    assert!(report.up_to_date());
    assert_eq!(statuses(&report), [Status::UpToDate]);
    assert!(report.updated().next().is_none());
    assert_eq!(lab.notes("alpha"), "my notes\n");
}

#[test]
fn no_upstream_and_a_cancel_are_typed_refusals_before_any_read() {
    let lab = Lab::new(&["alpha"]);
    let (planned, heard) = lab.prepare(&["alpha"], None, &Cancel::new());
    assert!(matches!(
        planned,
        Err(PrepareError::Upstream { ref error, ref name, .. })
            if name == "alpha" && matches!(**error, UpstreamError::NoUpstream(_))
    ));
    assert!(heard.is_empty());

    let cancel = Cancel::new();
    cancel.cancel();
    let v2 = lab.upstream("v2", &["alpha"], "new\n");
    let (planned, heard) = lab.prepare(&["alpha"], Some(v2), &cancel);
    assert!(matches!(planned, Err(PrepareError::Cancelled)));
    assert!(heard.is_empty(), "nothing is read once cancelled");
}

#[test]
fn a_skill_the_source_does_not_hold_is_refused_naming_it() {
    let lab = Lab::new(&["alpha"]);
    let other = lab.upstream("v2", &["gamma"], "new\n");
    let (planned, _) = lab.prepare(&["alpha"], Some(other), &Cancel::new());
    let Err(PrepareError::Plan { name, error, .. }) = planned else {
        panic!("not refused");
    };
    assert_eq!(name, "alpha");
    assert_eq!(error.code(), "not_in_bundle");
}

#[test]
fn a_cancel_stops_between_two_skills_each_written_whole() {
    let lab = Lab::new(&["alpha", "beta"]);
    let v2 = lab.upstream("v2", &["alpha", "beta"], "new\n");
    let (planned, _) = lab.prepare(&["alpha", "beta"], Some(v2), &Cancel::new());
    let planned = planned.unwrap();
    let cancel = Cancel::new();
    let mut under_way = Vec::new();
    let report = apply(
        &lab.machine,
        &planned,
        &Choices::default(),
        &mut |step: Step<'_>| {
            if let Step::Target { current, .. } = step {
                under_way.push(current.to_owned());
                // Asked to stop while the first is written.
                cancel.cancel();
            }
        },
        &cancel,
    );
    assert_eq!(under_way, ["alpha"]);
    assert!(report.cancelled && report.stopped.is_none());
    assert_eq!(statuses(&report), [Status::Updated, Status::NotUpdated]);
    assert_eq!(lab.notes("alpha"), "new\n");
    assert_eq!(lab.notes("beta"), NOTES);
}
