//! The import picker's state: the folder shown, what it holds (folders and archives, listed by
//! a worker through [`crate::bundle::browse`]), the name filter and the cursor.

use std::path::{Path, PathBuf};

use crate::bundle::browse::{FoundKind, Place};

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
    pub filter: String,
    /// Index into [`Picker::rows`].
    pub selected: usize,
}

impl Picker {
    /// The rows shown: this folder, the folder above, then the entries the filter lets through.
    pub fn rows(&self) -> Vec<PickRow> {
        let Some(place) = &self.place else {
            return Vec::new();
        };
        let mut rows = vec![PickRow::ThisFolder];
        if place.parent.is_some() && self.filter.is_empty() {
            rows.push(PickRow::Up);
        }
        let filter = self.filter.to_lowercase();
        rows.extend(
            place
                .entries
                .iter()
                .enumerate()
                .filter(|(_, e)| e.key.contains(&filter))
                .map(|(i, _)| PickRow::Entry(i)),
        );
        rows
    }

    /// The entry under the cursor, when it is one.
    pub fn selected_row(&self) -> Option<PickRow> {
        self.rows().get(self.selected).copied()
    }
}
