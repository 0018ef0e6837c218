//! The three-way merge of one skill's files: the baseline (the files as installed), ours (the
//! files now, with the user's edits) and theirs (the new upstream), each a map from the path
//! below the skill folder to its bytes and executable bit. A file changed on one side takes
//! that side; changed alike on both is clean; text changed on both is merged line by line;
//! anything else both sides changed is a conflict that keeps all three for its resolution.
//! A folder is the files below it: where one side holds a file at a path and the other files
//! below that path (upstream turned a folder into a file, or a file into a folder, while the
//! other side kept or edited what was there), neither can be written beside the other, so each
//! path of the clash is a conflict, and a resolution that still leaves both is no result.
//! Nothing here reads or writes a disk: `operations::update` does.

mod text;

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

/// One file's content.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct File {
    pub bytes: Vec<u8>,
    pub executable: bool,
}

impl File {
    pub fn new(bytes: impl Into<Vec<u8>>, executable: bool) -> Self {
        Self {
            bytes: bytes.into(),
            executable,
        }
    }
}

/// A skill's files by their `/`-separated path below its folder.
pub type Files = BTreeMap<String, File>;

/// What became of one file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Summary {
    /// Neither side changed it.
    Unchanged,
    /// Only upstream changed it (added, edited or deleted): upstream's is taken.
    TookTheirs,
    /// Only the local copy changed it: the local edit is kept.
    KeptOurs,
    /// Both changed it, alike or in lines apart: both changes are in the result.
    Merged,
    /// Both changed it in ways that cannot both be kept: someone must choose.
    Conflict,
}

impl Summary {
    /// What became of the file, in a word or two, for the sentences of an update.
    pub fn words(self) -> &'static str {
        match self {
            Summary::Unchanged => "unchanged",
            Summary::TookTheirs => "took theirs",
            Summary::KeptOurs => "kept ours",
            Summary::Merged => "merged",
            Summary::Conflict => "conflict",
        }
    }
}

/// Why both sides' changes to a file cannot both be kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Clash {
    /// Both edited the same lines of a text file differently.
    Overlapping,
    /// Upstream deleted a file edited locally.
    DeletedUpstream,
    /// The local copy deleted a file upstream changed.
    DeletedLocally,
    /// Both changed a binary file (not UTF-8, or holding a NUL byte) differently.
    Binary,
    /// Both added the file, with different contents.
    AddedOnBoth,
    /// The merge would hold a file at this path and files below it, or a file below a path
    /// it holds as a file: one side made a folder what the other keeps as a file.
    FileAndFolder,
}

impl Clash {
    /// The clash in a few words, for the sentence listing conflicts.
    pub fn describe(self) -> &'static str {
        match self {
            Clash::Overlapping => "both sides changed the same lines",
            Clash::DeletedUpstream => "upstream deleted it, and it was edited here",
            Clash::DeletedLocally => "it was deleted here, and upstream changed it",
            Clash::Binary => "a binary file both sides changed",
            Clash::AddedOnBoth => "both sides added it, with different contents",
            Clash::FileAndFolder => "it is a file on one side and a folder on the other",
        }
    }
}

/// A file both sides changed incompatibly, with every version for its resolution (`None`
/// where that side has no such file).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Conflict {
    pub clash: Clash,
    pub base: Option<File>,
    pub ours: Option<File>,
    pub theirs: Option<File>,
    /// For an overlapping text conflict: the file with both sides' lines between conflict
    /// markers, as git writes them.
    pub markers: Option<File>,
}

/// How a conflict is settled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Resolution {
    /// Upstream's version (a deletion when upstream deleted it).
    Theirs,
    /// The local version (a deletion when it was deleted here).
    Ours,
    /// Both kept: an overlapping text file with conflict markers; for a deletion, the edited
    /// side. A binary file cannot keep both, so this settles nothing there.
    Both,
}

impl Conflict {
    /// The file `resolution` leaves: `Some(None)` for a deletion, `None` when it cannot settle
    /// this conflict (both sides of a binary file).
    pub fn resolve(&self, resolution: Resolution) -> Option<Option<File>> {
        match resolution {
            Resolution::Theirs => Some(self.theirs.clone()),
            Resolution::Ours => Some(self.ours.clone()),
            Resolution::Both => match self.clash {
                Clash::Overlapping => self.markers.clone().map(Some),
                Clash::DeletedUpstream => Some(self.ours.clone()),
                Clash::DeletedLocally => Some(self.theirs.clone()),
                Clash::Binary | Clash::AddedOnBoth | Clash::FileAndFolder => {
                    self.markers.clone().map(Some)
                }
            },
        }
    }
}

/// One file of the merge.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Merged {
    pub path: String,
    pub summary: Summary,
    /// What the file becomes on a clean path: `None` when it is deleted (or stays absent).
    /// For a conflict, the local version, which stands until the conflict is resolved.
    pub result: Option<File>,
    pub conflict: Option<Conflict>,
}

/// The merge of a skill: every path any side holds, in path order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Merge {
    pub files: Vec<Merged>,
}

impl Merge {
    /// The files with a conflict.
    pub fn conflicts(&self) -> impl Iterator<Item = &Merged> {
        self.files.iter().filter(|file| file.conflict.is_some())
    }

    /// Whether every file merged cleanly.
    pub fn is_clean(&self) -> bool {
        self.conflicts().next().is_none()
    }

    /// Whether the result differs from ours: anything for an update to write.
    pub fn changes_ours(&self) -> bool {
        self.files
            .iter()
            .any(|file| matches!(file.summary, Summary::TookTheirs | Summary::Merged))
    }

    /// The skill's files after the merge, each conflict settled by `resolve` (`None` leaves it
    /// unsettled); `Err` with the paths of the conflicts left unsettled.
    ///
    /// # Errors
    /// The paths of the conflicts `resolve` did not settle, in path order.
    pub fn result(
        &self,
        resolve: impl Fn(&str) -> Option<Resolution>,
    ) -> Result<Files, Vec<String>> {
        let mut files = Files::new();
        let mut unsettled = Vec::new();
        for merged in &self.files {
            let file = match &merged.conflict {
                None => merged.result.clone(),
                Some(conflict) => {
                    match resolve(&merged.path).and_then(|how| conflict.resolve(how)) {
                        Some(file) => file,
                        None => {
                            unsettled.push(merged.path.clone());
                            continue;
                        }
                    }
                }
            };
            if let Some(file) = file {
                files.insert(merged.path.clone(), file);
            }
        }
        if !unsettled.is_empty() {
            return Err(unsettled);
        }
        // Settled one by one, the conflicts may still leave a file where a folder is.
        let clashing = file_and_folder(files.keys().map(String::as_str));
        if clashing.is_empty() {
            Ok(files)
        } else {
            Err(clashing.into_iter().collect())
        }
    }
}

/// The paths among `paths` that are a file with other paths below it, and those below.
fn file_and_folder<'p>(paths: impl Iterator<Item = &'p str> + Clone) -> BTreeSet<String> {
    let held: BTreeSet<&str> = paths.clone().collect();
    let mut clashing = BTreeSet::new();
    for path in paths {
        for (at, _) in path.match_indices('/') {
            let above = &path[..at];
            if held.contains(above) {
                clashing.insert(above.to_owned());
                clashing.insert(path.to_owned());
            }
        }
    }
    clashing
}

/// Merge the changes from `base` to `ours` and from `base` to `theirs`, file by file.
pub fn merge(base: &Files, ours: &Files, theirs: &Files) -> Merge {
    let paths: BTreeSet<&String> = base
        .keys()
        .chain(ours.keys())
        .chain(theirs.keys())
        .collect();
    let files = paths
        .into_iter()
        .map(|path| {
            merge_one(
                path,
                base.get(path.as_str()),
                ours.get(path.as_str()),
                theirs.get(path.as_str()),
            )
        })
        .collect::<Vec<Merged>>();
    // Where what could stand (a clean result; any side of a conflict) holds a file and files
    // below it, every path of the clash is a conflict, whatever its own merge said.
    let standing = files
        .iter()
        .filter(|file| match &file.conflict {
            None => file.result.is_some(),
            Some(c) => c.ours.is_some() || c.theirs.is_some() || c.markers.is_some(),
        })
        .map(|file| file.path.as_str());
    let clashing = file_and_folder(standing);
    let files = files
        .into_iter()
        .map(|file| {
            if file.conflict.is_some() || !clashing.contains(&file.path) {
                return file;
            }
            let path = file.path.as_str();
            Merged {
                summary: Summary::Conflict,
                result: ours.get(path).cloned(),
                conflict: Some(Conflict {
                    clash: Clash::FileAndFolder,
                    base: base.get(path).cloned(),
                    ours: ours.get(path).cloned(),
                    theirs: theirs.get(path).cloned(),
                    markers: None,
                }),
                path: file.path,
            }
        })
        .collect();
    Merge { files }
}

fn merge_one(
    path: &str,
    base: Option<&File>,
    ours: Option<&File>,
    theirs: Option<&File>,
) -> Merged {
    let clean = |summary: Summary, result: Option<&File>| Merged {
        path: path.to_owned(),
        summary,
        result: result.cloned(),
        conflict: None,
    };
    if ours == theirs {
        let summary = if ours == base {
            Summary::Unchanged
        } else {
            Summary::Merged
        };
        return clean(summary, ours);
    }
    if ours == base {
        return clean(Summary::TookTheirs, theirs);
    }
    if theirs == base {
        return clean(Summary::KeptOurs, ours);
    }
    // Both changed it, differently.
    let conflict = |clash: Clash, markers: Option<File>| Merged {
        path: path.to_owned(),
        summary: Summary::Conflict,
        result: ours.cloned(),
        conflict: Some(Conflict {
            clash,
            base: base.cloned(),
            ours: ours.cloned(),
            theirs: theirs.cloned(),
            markers,
        }),
    };
    let (Some(ours_file), Some(theirs_file)) = (ours, theirs) else {
        let clash = if theirs.is_none() {
            Clash::DeletedUpstream
        } else {
            Clash::DeletedLocally
        };
        return conflict(clash, None);
    };
    let executable = merged_bit(base, ours_file, theirs_file);
    if ours_file.bytes == theirs_file.bytes {
        // Only the executable bits differ, and each side changed its own: the one that
        // differs from the baseline wins, merged_bit says.
        return clean(
            Summary::Merged,
            Some(&File::new(ours_file.bytes.clone(), executable)),
        );
    }
    let base_text = match base {
        Some(base) => text::of(&base.bytes),
        // Both added it: nothing common to merge from; the lines are compared against an
        // empty baseline, so only a conflict can come of it, with markers to keep both.
        None => Some(""),
    };
    let sides = (
        base_text,
        text::of(&ours_file.bytes),
        text::of(&theirs_file.bytes),
    );
    let (Some(base_text), Some(ours_text), Some(theirs_text)) = sides else {
        let clash = if base.is_none() {
            Clash::AddedOnBoth
        } else {
            Clash::Binary
        };
        return conflict(clash, None);
    };
    match text::merge(base_text, ours_text, theirs_text) {
        text::LineMerge::Clean(merged) if base.is_some() => {
            clean(Summary::Merged, Some(&File::new(merged, executable)))
        }
        text::LineMerge::Clean(merged) | text::LineMerge::Conflicted(merged) => {
            let clash = if base.is_none() {
                Clash::AddedOnBoth
            } else {
                Clash::Overlapping
            };
            conflict(clash, Some(File::new(merged, executable)))
        }
    }
}

/// The executable bit of a file both sides hold: the side that changed it from the baseline
/// decides; a file both added is executable when either made it so.
fn merged_bit(base: Option<&File>, ours: &File, theirs: &File) -> bool {
    match base {
        Some(base) if ours.executable != base.executable => ours.executable,
        Some(_) => theirs.executable,
        None => ours.executable || theirs.executable,
    }
}

#[cfg(test)]
mod tests;
