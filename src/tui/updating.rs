//! An update of skills from their upstream as the app shows it: what the worker planned for each
//! skill (every file's fate: took theirs, kept ours, merged; the baseline it merges against),
//! what another installer's record would go stale, and the conflicts, each with the diff of the
//! file here against upstream's and the choice the person made for it; then the sentence of
//! what the update did, every field of its report. Built from `operations::update`'s plans and
//! report, display-safe; `update` only records the choices, and the worker applies them.

use std::fmt;
use std::path::PathBuf;

use crate::merge::{self, Clash, Resolution, Summary};
use crate::operations::update::{self, Baseline, PrepareError, Report, Status, UpstreamError};
use crate::snapshot::diff;
use crate::text::human::count;
use crate::text::sanitize;

use super::diff::{Against, DiffView};
use super::manage::Target;

pub use crate::operations::update::Settled;

/// An update under way, from the key to the status line that says what it did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Updating {
    /// The worker's session; news from another is dropped.
    pub session: u64,
    /// The skills, by name, for the status line.
    pub names: String,
    /// Their folders, as the list has them.
    pub dirs: Vec<PathBuf>,
    pub step: UpdateStep,
}

/// Where an update is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UpdateStep {
    /// The upstream is being read (fetched, for a repository) and the merge planned.
    Reading,
    /// Planned: asked to confirm, or to settle the conflicts first.
    Planned(Box<Planned>),
    /// The merged files are being written.
    Applying,
}

impl Updating {
    /// Whether a worker's answer is awaited.
    pub fn waiting(&self) -> bool {
        matches!(self.step, UpdateStep::Reading | UpdateStep::Applying)
    }

    /// The plan, once it is made.
    pub fn planned(&self) -> Option<&Planned> {
        match &self.step {
            UpdateStep::Planned(planned) => Some(planned),
            _ => None,
        }
    }

    pub fn planned_mut(&mut self) -> Option<&mut Planned> {
        match &mut self.step {
            UpdateStep::Planned(planned) => Some(planned),
            _ => None,
        }
    }

    /// Whether the conflict view is open: a plan with conflicts.
    pub fn settling(&self) -> bool {
        self.planned().is_some_and(|p| !p.conflicts.is_empty())
    }
}

/// What the update would do to every skill asked for, and its conflicts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Planned {
    pub skills: Vec<SkillPlan>,
    /// Every skill's conflicting files, in the skills' order, then by path.
    pub conflicts: Vec<ConflictFile>,
    /// The conflict under the cursor.
    pub selected: usize,
    /// The first row of its diff shown.
    pub scroll: usize,
}

/// One skill's part of the plan.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SkillPlan {
    pub name: String,
    pub dir: PathBuf,
    pub shown_dir: String,
    /// Upstream holds what the baseline does: nothing to write.
    pub up_to_date: bool,
    /// Every file something happens to (display-safe path), in path order; the unchanged left
    /// out.
    pub files: Vec<(String, Summary)>,
    /// What the merge is against, in words: skilldeck's snapshot, or another installer's
    /// untouched copy (display-safe).
    pub baseline: String,
    /// Each record of another installer's the update would leave describing other files.
    pub stale: Vec<String>,
}

/// A file both sides changed in ways that cannot both be kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConflictFile {
    /// Index into [`Planned::skills`].
    pub skill: usize,
    /// The path as the merge has it, which the choice is passed back with; never shown as it is.
    pub path: String,
    pub shown_path: String,
    pub clash: Clash,
    /// Both sides can be kept (conflict markers, or the edited side of a deletion); never for
    /// a binary file.
    pub both: bool,
    /// The file here against upstream's, and with both kept, the file with conflict markers.
    pub diff: DiffView,
    /// What the person chose; `None` while it is unsettled.
    pub choice: Option<Resolution>,
}

impl Planned {
    /// The plans of `planned`, for the skills `targets` (in the same order), as the app shows
    /// them; `both` is the key that keeps both sides of a conflict.
    pub fn of(planned: &update::Planned, targets: &[Target], both: &str) -> Self {
        let skills = planned
            .plans
            .iter()
            .zip(targets)
            .map(|(plan, target)| SkillPlan {
                name: target.name.clone(),
                dir: target.dir.clone(),
                shown_dir: target.shown_dir.clone(),
                up_to_date: plan.up_to_date(),
                files: plan
                    .merge
                    .files
                    .iter()
                    .filter(|f| f.summary != Summary::Unchanged)
                    .map(|f| (sanitize::name(&f.path), f.summary))
                    .collect(),
                baseline: baseline_words(&plan.baseline),
                stale: plan.stale.iter().map(|s| sanitize::line(s)).collect(),
            })
            .collect();
        let conflicts = planned
            .plans
            .iter()
            .zip(targets)
            .enumerate()
            .flat_map(|(skill, (plan, target))| {
                plan.merge.conflicts().filter_map(move |file| {
                    let conflict = file.conflict.as_ref()?;
                    Some(ConflictFile {
                        skill,
                        path: file.path.clone(),
                        shown_path: sanitize::name(&file.path),
                        clash: conflict.clash,
                        both: conflict.resolve(Resolution::Both).is_some(),
                        diff: conflict_diff(target, &file.path, conflict, both),
                        choice: None,
                    })
                })
            })
            .collect();
        Planned {
            skills,
            conflicts,
            selected: 0,
            scroll: 0,
        }
    }

    pub fn selected(&self) -> Option<&ConflictFile> {
        self.conflicts.get(self.selected)
    }

    /// How many conflicts have a choice.
    pub fn settled(&self) -> usize {
        self.conflicts.iter().filter(|c| c.choice.is_some()).count()
    }

    /// Whether every conflict has a choice: only then can the update be applied.
    pub fn all_settled(&self) -> bool {
        self.settled() == self.conflicts.len()
    }

    /// The choices, for the worker.
    pub fn choices(&self) -> Vec<Settled> {
        self.conflicts
            .iter()
            .filter_map(|c| {
                Some(Settled {
                    dir: self.skills.get(c.skill)?.dir.clone(),
                    path: c.path.clone(),
                    resolution: c.choice?,
                })
            })
            .collect()
    }

    /// Every record that would go stale, over the skills that would be written.
    pub fn stale(&self) -> Vec<String> {
        self.skills
            .iter()
            .filter(|s| !s.up_to_date)
            .flat_map(|s| s.stale.iter().map(move |why| format!("{}: {why}", s.name)))
            .collect()
    }

    /// What the update would do, a line per skill and per file, the conflicts with their
    /// choices: the confirm dialog's lines.
    pub fn lines(&self) -> Vec<String> {
        let mut lines = Vec::new();
        for (index, skill) in self.skills.iter().enumerate() {
            if skill.up_to_date {
                lines.push(format!(
                    "{} ({}) is up to date with its upstream.",
                    skill.name, skill.shown_dir
                ));
                continue;
            }
            lines.push(format!("{} ({}):", skill.name, skill.shown_dir));
            let width = skill
                .files
                .iter()
                .map(|(path, _)| crate::text::width::of(path))
                .max()
                .unwrap_or(0);
            for (path, summary) in &skill.files {
                let conflict = self
                    .conflicts
                    .iter()
                    .find(|c| c.skill == index && c.shown_path == *path);
                let what = match conflict {
                    Some(conflict) => conflict_words(conflict),
                    None => summary.words().to_owned(),
                };
                lines.push(format!(
                    "  {}  {what}",
                    crate::text::width::pad(path, width)
                ));
            }
            lines.push(format!("  merged against {}", skill.baseline));
        }
        lines
    }
}

/// The baseline of a plan in words: `its baseline snapshot 20260101-…`.
fn baseline_words(baseline: &Baseline) -> String {
    match baseline {
        Baseline::Snapshot(id) => format!("its baseline, snapshot {}", sanitize::name(id)),
        Baseline::Pristine(path) => format!(
            "the untouched copy its installer keeps at {}",
            sanitize::line(&path.display().to_string())
        ),
    }
}

/// The file here (ours) against upstream's (theirs), and for lines both changed, the file as
/// keeping both would write it, between conflict markers.
fn conflict_diff(target: &Target, path: &str, conflict: &merge::Conflict, both: &str) -> DiffView {
    let mut view = DiffView::new(
        &target.name,
        target.dir.clone(),
        target.shown_dir.clone(),
        Against::Upstream,
    );
    fn side(file: Option<&merge::File>) -> Option<(&[u8], bool)> {
        file.map(|file| (file.bytes.as_slice(), file.executable))
    }
    match diff::of_versions(
        path,
        side(conflict.ours.as_ref()),
        side(conflict.theirs.as_ref()),
    ) {
        Ok(between) => view.push(None, &between),
        Err(error) => view.heading(&sanitize::line(&error.to_string())),
    }
    if conflict.clash == Clash::Overlapping
        && let Some(markers) = &conflict.markers
        && let Ok(text) = std::str::from_utf8(&markers.bytes)
    {
        view.text(
            &format!(
                "Keeping both ({both}) writes the file with both sides between conflict markers:"
            ),
            text,
        );
    }
    view
}

/// Why an update stopped before its report, with nothing written.
#[derive(Debug)]
pub enum UpdateFailure {
    /// The skill asked for is no longer where the list had it.
    Gone { name: String, shown_dir: String },
    /// Its upstream could not be told or read, or it could not be planned against it.
    Prepare(PrepareError),
    /// The worker stopped ("The update").
    Panicked(crate::tui::failed::Stopped),
}

impl fmt::Display for UpdateFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UpdateFailure::Gone { name, shown_dir } => write!(
                f,
                "{name}: no skill is at {shown_dir} any more; nothing was written."
            ),
            UpdateFailure::Prepare(PrepareError::Upstream { name, error, .. })
                if matches!(**error, UpstreamError::NoUpstream(_)) =>
            {
                write!(
                    f,
                    "{name}: skilldeck did not import it from a git repository, so it does not know where to update it from; nothing was written. On the command line, `skilldeck update {name} --from SOURCE` names the new upstream (a folder, an archive or a repository)."
                )
            }
            UpdateFailure::Prepare(PrepareError::Upstream { name, error, .. }) => {
                write!(f, "{name}: {error}; nothing was written.")
            }
            UpdateFailure::Prepare(error) => write!(f, "{error}"),
            UpdateFailure::Panicked(stopped) => write!(f, "{stopped}"),
        }
    }
}

impl std::error::Error for UpdateFailure {}

/// How an update ended, in the app's words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Said {
    /// Updated, or up to date: for the status line.
    Done(String),
    /// Refused, failed or stopped, with what was updated before: for a message.
    Stopped(String),
}

/// What an update did, in the app's words: every field of its report (what each skill
/// became, the snapshots undo and the next update use, the records left stale, what could not
/// be recorded), or why it stopped and what was updated before.
/// `undo` is the key that puts it back.
pub fn said(report: &Report, undo: &str) -> Said {
    let name = |skill: &update::SkillReport| sanitize::name(&skill.name);
    let updated: Vec<String> = report.updated().map(name).collect();
    let before = match updated.as_slice() {
        [] => String::new(),
        names => format!(
            " {} was updated before it; {undo} puts it back.",
            listed(names)
        ),
    };
    if report.cancelled {
        return Said::Stopped(format!("The update was stopped.{before}"));
    }
    if let Some(error) = &report.stopped {
        let at = report
            .stopped_at
            .and_then(|at| report.skills.get(at))
            .map(|skill| format!("{}: ", name(skill)))
            .unwrap_or_default();
        return Said::Stopped(sanitize::line(&format!("{at}{error}{before}")));
    }
    let mut text = if updated.is_empty() {
        let names: Vec<String> = report.skills.iter().map(name).collect();
        match names.as_slice() {
            [_] => format!(
                "{} is up to date with its upstream; nothing was written.",
                listed(&names)
            ),
            _ => format!(
                "{} are up to date with their upstreams; nothing was written.",
                listed(&names)
            ),
        }
    } else {
        format!(
            "Updated {}: {}. {undo} puts it back.",
            listed(&updated),
            tally(report)
        )
    };
    for skill in &report.skills {
        match (&skill.updated, skill.status) {
            (Some(done), _) => {
                text.push_str(&match &done.before {
                    Some(before) => format!(
                        " {} held snapshot {} before; its new baseline is snapshot {}.",
                        name(skill),
                        sanitize::name(before),
                        sanitize::name(&done.baseline)
                    ),
                    None => format!(
                        " {}'s files already held the merge; its new baseline is snapshot {}.",
                        name(skill),
                        sanitize::name(&done.baseline)
                    ),
                });
                for stale in &skill.stale {
                    text.push_str(&format!(" {}: {stale}.", name(skill)));
                }
            }
            (None, Status::UpToDate) if !updated.is_empty() => {
                text.push_str(&format!(" {} was up to date.", name(skill)));
            }
            _ => {}
        }
    }
    for skill in &report.skills {
        if let Some(done) = &skill.updated {
            text.push_str(&super::manage::lock_note(&done.lock));
        }
        if let Some(error) = skill.updated.as_ref().and_then(|u| u.unjournalled.as_ref()) {
            text.push_str(&format!(
                " Note: the journal could not be told of {} ({error}), so undo will not know of it.",
                name(skill)
            ));
        }
        if let Some(error) = &skill.unremembered {
            text.push_str(&format!(
                " Note: where {} came from could not be recorded ({error}); the next update needs the command line's --from.",
                name(skill)
            ));
        }
    }
    Said::Done(sanitize::line(&text))
}

/// `alpha, beta and 3 more`.
fn listed(names: &[String]) -> String {
    let targets: Vec<Target> = names
        .iter()
        .map(|name| Target {
            name: name.clone(),
            dir: PathBuf::new(),
            shown_dir: String::new(),
        })
        .collect();
    super::manage::names(&targets)
}

/// `2 files took theirs, 1 merged, 1 conflict settled`: what the merges did, in a few words.
fn tally(report: &Report) -> String {
    let tally = report.tally();
    let mut parts = Vec::new();
    if tally.theirs > 0 {
        parts.push(format!("{} took theirs", count(tally.theirs, "file")));
    }
    if tally.merged > 0 {
        parts.push(format!("{} merged", tally.merged));
    }
    if tally.ours > 0 {
        parts.push(format!("{} kept ours", tally.ours));
    }
    if tally.settled > 0 {
        parts.push(format!("{} settled", count(tally.settled, "conflict")));
    }
    if parts.is_empty() {
        "its files already held the merge".to_owned()
    } else {
        parts.join(", ")
    }
}

/// A choice in a word: what the conflict view and the confirm dialog say of it.
pub fn choice_word(choice: Resolution) -> &'static str {
    match choice {
        Resolution::Theirs => "theirs",
        Resolution::Ours => "ours",
        Resolution::Both => "both",
    }
}

fn conflict_words(conflict: &ConflictFile) -> String {
    match conflict.choice {
        Some(Resolution::Theirs) => {
            format!("conflict ({}), took theirs", conflict.clash.describe())
        }
        Some(Resolution::Ours) => format!("conflict ({}), kept ours", conflict.clash.describe()),
        Some(Resolution::Both) => format!("conflict ({}), kept both", conflict.clash.describe()),
        None => format!("conflict: {}", conflict.clash.describe()),
    }
}
