//! The viewer of one skill's files: the list of them (from the scan's tree, every file, not
//! only `SKILL.md`), the one opened, as a worker read it ([`crate::operations::peek`]) and
//! made safe to show, and where it is scrolled to.

use std::path::PathBuf;

use super::model::{Entry, SkillView};

/// A file of the skill, as the list shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ViewerFile {
    /// Its path below the skill's folder, display-safe: `scripts/run.sh`.
    pub shown: String,
    /// The same path as the file system has it.
    pub path: PathBuf,
    pub size: u64,
}

/// A file as the viewer shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileText {
    /// The size the file gives.
    pub size: u64,
    pub body: Body,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Body {
    /// Display-safe lines; `cut` when the file holds more than the viewer reads.
    Text { lines: Vec<String>, cut: bool },
    /// Not text: only its size is shown.
    Binary,
}

/// One file opened in the viewer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opened {
    /// The read asked for last; an answer to another is dropped.
    pub request: u64,
    /// Index into [`Viewer::files`].
    pub index: usize,
    pub text: Reading,
    /// The first row shown.
    pub scroll: usize,
}

/// A file on its way from the worker.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reading {
    Waiting,
    Ready(FileText),
    Failed(String),
}

/// The viewer, open on one skill.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Viewer {
    pub name: String,
    pub dir: PathBuf,
    pub shown_dir: String,
    pub files: Vec<ViewerFile>,
    /// Index into `files`.
    pub selected: usize,
    /// The file being read, when one is open.
    pub open: Option<Opened>,
}

impl Viewer {
    /// The viewer on `skill`'s files, the cursor on its `SKILL.md`.
    pub fn new(skill: &SkillView) -> Self {
        let files = files(skill);
        let manifest = skill.manifest();
        let selected = files
            .iter()
            .position(|f| Some(f.path.as_path()) == manifest)
            .unwrap_or(0);
        Self {
            name: skill.name.clone(),
            dir: skill.dir.clone(),
            shown_dir: skill.shown_dir.clone(),
            files,
            selected,
            open: None,
        }
    }

    /// The file under the cursor, or the one open.
    pub fn current(&self) -> Option<&ViewerFile> {
        let index = self.open.as_ref().map_or(self.selected, |o| o.index);
        self.files.get(index)
    }
}

/// Every file of the tree with its path from the folders above it.
fn files(skill: &SkillView) -> Vec<ViewerFile> {
    let mut folders: Vec<&str> = Vec::new();
    let mut out = Vec::new();
    for line in &skill.tree {
        folders.truncate(line.depth);
        match line.entry {
            Entry::Folder => folders.push(&line.name),
            Entry::File { size, .. } => {
                let mut shown = folders.join("/");
                if !shown.is_empty() {
                    shown.push('/');
                }
                shown.push_str(&line.name);
                out.push(ViewerFile {
                    shown,
                    path: line.path.clone(),
                    size,
                });
            }
        }
    }
    out
}
