//! What an import shows at each step after the picker, sanitised: the bundle's skills, files,
//! sizes, left-out files and lint problems, or the refusal; the destinations (agent × scope);
//! the skills a replacement would change; and what was installed.

use std::ops::Range;
use std::path::{Path, PathBuf};

use crate::bundle::{Bundle, Refusal};
use crate::install::Action;
use crate::operations::import::{self, Distrusting, Report, risk};
use crate::roots::{AgentId, Scope};
use crate::tui::audit::AuditView;

use crate::text::sanitize;
use crate::text::{Unsafe, human};

/// A bundle that was read whole, ready to show.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BundleView {
    pub source: String,
    pub skills: Vec<BundledSkillView>,
    pub left_out: Vec<String>,
    /// How many metadata files (`.DS_Store`, `__MACOSX/`, ...) were set aside.
    pub set_aside: usize,
    pub notes: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BundledSkillView {
    /// The name it is installed under (its folder's), as the install is asked for it.
    pub name: String,
    pub shown_name: String,
    /// The folder of the bundle it came from (`skills/.curated`), display-safe; empty at the
    /// top. The preview groups the skills by it.
    pub folder: String,
    pub description: Option<String>,
    pub files: Vec<FileView>,
    pub size: u64,
    /// How far its `SKILL.md` strays from the specification.
    pub lints: Vec<String>,
    /// What `skilldeck audit` finds in it, judged from the bundle's bytes by the worker.
    pub audit: AuditView,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileView {
    pub path: String,
    pub size: u64,
    pub executable: bool,
}

impl BundleView {
    pub fn new(bundle: &Bundle, source: &Path, home: &Path) -> Self {
        // Grouped by the folder of the bundle each came from, as the command line lists them,
        // in the bundle's order within a folder (the sort is stable).
        let mut skills: Vec<&crate::bundle::BundledSkill> = bundle.skills.iter().collect();
        skills.sort_by(|a, b| a.folder.cmp(&b.folder));
        // Every skill judged, taken or not: the person takes and leaves them knowing it.
        let verdicts = risk::verdicts(&skills);
        Self {
            source: human::path(source, home, Unsafe::Dropped),
            skills: skills
                .into_iter()
                .zip(verdicts)
                .map(|(skill, verdict)| BundledSkillView {
                    // Kept as the bundle has it: the install is asked for skills by this name.
                    name: skill.name.clone(),
                    shown_name: sanitize::name(&skill.name),
                    folder: sanitize::name(&skill.folder),
                    description: skill.declared.description.as_deref().map(sanitize::line),
                    files: skill
                        .files
                        .iter()
                        .map(|file| FileView {
                            path: sanitize::name(&file.path),
                            size: file.content.len() as u64,
                            executable: file.executable,
                        })
                        .collect(),
                    size: skill.size(),
                    lints: skill
                        .declared
                        .lints
                        .iter()
                        .map(|lint| sanitize::line(&lint.to_string()))
                        .collect(),
                    audit: AuditView::of(&verdict.findings),
                })
                .collect(),
            left_out: bundle.left_out.iter().map(|p| sanitize::line(p)).collect(),
            set_aside: bundle.set_aside.len(),
            notes: bundle.notes.iter().map(|n| sanitize::line(n)).collect(),
        }
    }
}

/// The lines of the preview above the first skill: the bundle's title, the keys, a blank.
pub const PREVIEW_HEAD: usize = 3;

impl BundleView {
    /// Where each skill's block (its header, description, files, lint problems and the findings
    /// its audit lists) sits among the preview's lines, and how many lines the preview has in
    /// all (the left-out files, the metadata set aside and the notes after the last skill). Every line is one row, cut
    /// to the width rather than wrapped, so the update can scroll by it without the terminal.
    pub fn layout(&self) -> (Vec<Range<usize>>, usize) {
        let mut at = PREVIEW_HEAD;
        let blocks = (0..self.skills.len())
            .map(|i| {
                let skill = &self.skills[i];
                // A folder's heading is part of the block of its first skill, so it scrolls
                // into view with it.
                let start = at;
                at += usize::from(self.heading(i).is_some())
                    + 1
                    + usize::from(skill.description.is_some())
                    + skill.files.len()
                    + skill.lints.len()
                    + skill.audit.listed().count();
                start..at
            })
            .collect();
        if !self.left_out.is_empty() {
            at += 2 + self.left_out.len();
        }
        at += usize::from(self.set_aside > 0) + self.notes.len();
        (blocks, at)
    }

    /// The heading above the skill `i`, when it is the first of the folder it came from and
    /// the skills do not all sit at the bundle's top: `in skills/.curated/`.
    pub fn heading(&self, i: usize) -> Option<String> {
        if self.skills.iter().all(|skill| skill.folder.is_empty()) {
            return None;
        }
        let skill = self.skills.get(i)?;
        let first = i == 0 || self.skills[i - 1].folder != skill.folder;
        first.then(|| {
            if skill.folder.is_empty() {
                "at the bundle's top".to_owned()
            } else {
                format!("in {}/", skill.folder)
            }
        })
    }

    /// The first line shown for the skill `cursor` in `page` rows, from `scroll`: its whole
    /// block when it fits, else from its header.
    pub fn scroll_to(&self, cursor: usize, scroll: usize, page: usize) -> usize {
        let (blocks, _) = self.layout();
        let Some(block) = blocks.get(cursor) else {
            return scroll;
        };
        // The first skill is shown with the bundle's heading above it.
        let start = if cursor == 0 { 0 } else { block.start };
        if block.end - start > page {
            block.start
        } else {
            scroll.clamp(block.end.saturating_sub(page), start)
        }
    }

    /// The furthest the preview scrolls in `page` rows: its last line on the last row.
    pub fn furthest(&self, page: usize) -> usize {
        self.layout().1.saturating_sub(page)
    }
}

/// Why a bundle was refused: its code and its sentence.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefusalView {
    pub source: String,
    pub code: String,
    pub sentence: String,
}

impl RefusalView {
    pub fn new(refusal: &Refusal, source: &Path, home: &Path) -> Self {
        Self {
            source: human::path(source, home, Unsafe::Dropped),
            code: refusal.code().to_owned(),
            sentence: sanitize::line(&refusal.to_string()),
        }
    }
}

/// A skills folder an import can go to: one agent's, at one scope.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DestinationView {
    pub agent: AgentId,
    pub scope: Scope,
    pub root: PathBuf,
    pub shown_root: String,
    /// Every agent that loads skills from `root`, in table order.
    pub readers: Vec<AgentId>,
    /// The agents that would read `root` in a project they trust, and do not trust this one.
    pub distrusting: Vec<Distrusting>,
    /// The copies a skill of the bundle installed here would shadow, or be shadowed by.
    pub shadows: Vec<Shadowing>,
}

/// One agent that would run another copy than before, were one of the bundle's skills
/// installed in a destination.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shadowing {
    /// The skill, as the bundle names it.
    pub skill: String,
    pub agent: AgentId,
    /// What the agent would run instead of what, display-safe.
    pub sentence: String,
}

/// A skill an import would replace, and why it needs the person's word.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConflictView {
    /// The name the install is asked for it by, as the bundle has it.
    pub skill: String,
    pub name: String,
    pub shown_dir: String,
    pub why: String,
    /// Whether a replacement may be forced; a file in the way never is.
    pub forcible: bool,
    /// skilldeck's copy, edited since: kept unless the person picks it.
    pub edited: bool,
    /// The row of the replacements' diff where this skill's part begins.
    pub row: usize,
    /// Its changed files, as indexes into the diff's file list.
    pub files: Range<usize>,
}

/// What an import did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportedView {
    pub skills: Vec<ImportedSkill>,
    /// What went wrong after the skills were put in place (a baseline snapshot not taken, the
    /// journal not written): they are installed all the same.
    pub warnings: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportedSkill {
    pub name: String,
    pub action: Action,
    pub shown_dir: String,
}

impl ImportedView {
    /// Every field of the import's report, said: the skills, then as warnings the risk that
    /// was accepted, who now runs which copy, a folder no agent reads, a baseline not kept, the journal not told, and an
    /// upstream not recorded.
    pub fn of(report: &Report<'_>, home: &Path) -> Self {
        let shown = |path: &Path| human::path(path, home, Unsafe::Dropped);
        let risk = report
            .risk_accepted
            .iter()
            .map(|risky| format!("Installed with the risk accepted: {risky}."));
        let shadowing = report.shadowing.iter().map(|(skill, shadow)| {
            let sentence = import::shadow_sentence(shadow, false, &shown);
            format!("{}: {sentence}", skill.name)
        });
        let read_by_none = report.read_by_none().then(|| {
            format!(
                "No agent reads {}, so no agent will load what was installed there.",
                shown(&report.loaders.root)
            )
        });
        let baselines = report
            .missed_baselines
            .iter()
            .map(|missed| format!("No baseline snapshot: {missed}"));
        let journal = report
            .unjournalled
            .iter()
            .map(|error| format!("{error}; undo will not know of this import"));
        let unrecorded = report.unrecorded.iter().map(|unrecorded| {
            format!(
                "{}: where it came from could not be recorded in {}: {}; outdated and update will not know of it",
                unrecorded.skill,
                shown(&unrecorded.folder),
                unrecorded.error
            )
        });
        let lock = Some(crate::tui::manage::lock_note(&report.lock))
            .filter(|note| !note.is_empty())
            .map(|note| note.trim_start().to_owned());
        let warnings: Vec<String> = risk
            .chain(shadowing)
            .chain(read_by_none)
            .chain(baselines)
            .chain(journal)
            .chain(unrecorded)
            .chain(lock)
            .collect();
        Self {
            skills: report
                .installed
                .iter()
                .map(|skill| ImportedSkill {
                    name: sanitize::name(&skill.name),
                    action: skill.action,
                    shown_dir: human::path(&skill.dir, home, Unsafe::Dropped),
                })
                .collect(),
            warnings: warnings.iter().map(|w| sanitize::line(w)).collect(),
        }
    }
}
