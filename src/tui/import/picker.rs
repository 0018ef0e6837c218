//! The import picker's state: the folder shown, what it holds (folders and archives, listed by
//! a worker through [`crate::bundle::browse`]), the line typed (a filter on names, or a path
//! when it starts like one), whether hidden entries are shown, and the cursor.

use std::path::{Path, PathBuf};

use crate::bundle::browse::{FoundKind, Place, is_archive_name};
use crate::source;
use crate::tui::line::LineEdit;

use crate::text::sanitize;
use crate::text::{Unsafe, human};

/// One folder's listing, ready to show.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlaceView {
    pub dir: PathBuf,
    pub shown_dir: String,
    pub parent: Option<PathBuf>,
    pub entries: Vec<EntryView>,
}

/// A folder or an archive in it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EntryView {
    pub name: String,
    /// The name in lower case, for the filter.
    pub key: String,
    pub path: PathBuf,
    pub kind: FoundKind,
    /// Its name starts with a dot.
    pub hidden: bool,
}

impl PlaceView {
    pub fn new(place: Place, home: &Path) -> Self {
        Self {
            shown_dir: human::path(&place.dir, home, Unsafe::Dropped),
            dir: place.dir,
            parent: place.parent,
            entries: place
                .entries
                .into_iter()
                .map(|found| {
                    let name = sanitize::name(&found.name);
                    EntryView {
                        key: name.to_lowercase(),
                        name,
                        path: found.path,
                        kind: found.kind,
                        hidden: found.hidden,
                    }
                })
                .collect(),
        }
    }
}

/// A row of the picker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PickRow {
    /// Read the folder shown as the bundle.
    ThisFolder,
    /// Go up to the folder above.
    Up,
    /// An entry of the listing, by its index.
    Entry(usize),
}

/// The picker.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Picker {
    /// The listing asked for last; a listing for another request is dropped.
    pub request: u64,
    /// A listing was asked for and has not come.
    pub loading: bool,
    pub place: Option<PlaceView>,
    /// Why the folder asked for could not be listed.
    pub error: Option<String>,
    /// A filter on names, or a path ([`Picker::typed_path`]).
    pub filter: LineEdit,
    /// What the filter held when the listing under way was asked for: the listing clears
    /// that, and keeps what was typed since (letters meant for the folder coming).
    pub typed_before: String,
    /// Hidden folders and archives (a leading dot) are shown.
    pub hidden: bool,
    /// Index into [`Picker::rows`].
    pub selected: usize,
}

/// Where a typed path leads, as far as the picker can tell without looking.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Typed {
    /// A folder to list (`~/` is the home folder, for the worker to expand).
    Folder(PathBuf),
    /// An archive to read, by the ending of its name.
    Archive(PathBuf),
    /// A git repository (a URL, or `OWNER/REPO`), with its `@REF`, for the worker to fetch.
    Repository(String),
}

impl Picker {
    /// The rows shown: this folder, the folder above, then the entries the filter lets through.
    pub fn rows(&self) -> Vec<PickRow> {
        let Some(place) = &self.place else {
            return Vec::new();
        };
        let mut rows = vec![PickRow::ThisFolder];
        let filter = self.name_filter().unwrap_or_default().to_lowercase();
        if place.parent.is_some() && filter.is_empty() {
            rows.push(PickRow::Up);
        }
        rows.extend(
            place
                .entries
                .iter()
                .enumerate()
                .filter(|(_, e)| (self.hidden || !e.hidden) && e.key.contains(&filter))
                .map(|(i, _)| PickRow::Entry(i)),
        );
        rows
    }

    /// The line typed when it filters names: anything that does not start like a path.
    pub fn name_filter(&self) -> Option<&str> {
        let text = self.filter.text();
        (!is_path(text) && !source::names_repository(text)).then_some(text)
    }

    /// Where the line typed leads, when it is a repository (a URL or `OWNER/REPO`, by
    /// `source::names_repository`) or a path: from `/`, from the home folder with `~`,
    /// or from the folder shown with `.` (`./x`, `../x`, `.` and `..`). A name with the
    /// ending of an archive is read as one; anything else is listed as a folder.
    pub fn typed_path(&self) -> Option<Typed> {
        let text = self.filter.text();
        if !is_path(text) {
            return source::names_repository(text).then(|| Typed::Repository(text.to_owned()));
        }
        let path = if text.starts_with('.') {
            self.place
                .as_ref()
                .map_or_else(|| PathBuf::from(text), |place| place.dir.join(text))
        } else {
            PathBuf::from(text)
        };
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        Some(if is_archive_name(&name) {
            Typed::Archive(path)
        } else {
            Typed::Folder(path)
        })
    }

    /// How many hidden entries the folder shown has.
    pub fn hidden_count(&self) -> usize {
        self.place
            .as_ref()
            .map_or(0, |p| p.entries.iter().filter(|e| e.hidden).count())
    }

    /// The entry under the cursor, when it is one.
    pub fn selected_row(&self) -> Option<PickRow> {
        self.rows().get(self.selected).copied()
    }
}

/// Whether a typed line is a path rather than a filter on names.
fn is_path(text: &str) -> bool {
    text.starts_with(['/', '~', '.'])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn picker(typed: &str) -> Picker {
        Picker {
            place: Some(PlaceView {
                dir: PathBuf::from("/dl"),
                ..PlaceView::default()
            }),
            filter: LineEdit::new(typed),
            ..Picker::default()
        }
    }

    #[test]
    fn a_line_starting_like_a_path_or_naming_a_repository_is_one_and_anything_else_a_filter() {
        let cases = [
            ("/srv/skills", Some(Typed::Folder("/srv/skills".into()))),
            ("~/Downloads", Some(Typed::Folder("~/Downloads".into()))),
            ("./team.zip", Some(Typed::Archive("/dl/./team.zip".into()))),
            ("../up", Some(Typed::Folder("/dl/../up".into()))),
            (
                "/a b/my skills.tar.gz",
                Some(Typed::Archive("/a b/my skills.tar.gz".into())),
            ),
            (
                "anthropics/skills@v1",
                Some(Typed::Repository("anthropics/skills@v1".into())),
            ),
            (
                "https://example.org/r.git",
                Some(Typed::Repository("https://example.org/r.git".into())),
            ),
            ("team", None),
            ("", None),
        ];
        for (typed, want) in cases {
            let picker = picker(typed);
            assert_eq!(picker.typed_path(), want, "{typed:?}");
            assert_eq!(picker.name_filter().is_some(), want.is_none(), "{typed:?}");
        }
    }
}
