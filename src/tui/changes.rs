//! The "changed" view's model: each skill whose files differ from its latest snapshot (or, with
//! no snapshot, from its installer's record), sanitised, with what its diff compares it with.
//! Which skills count is the domain's rule ([`crate::snapshot::changes`]); this only makes
//! the answer ready to show. Built on the scan worker.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use crate::roots::Source;
use crate::scan::Skill;
use crate::snapshot::changes::{Changed, Since};

use crate::text::sanitize;
use crate::text::{Unsafe, human};

/// One changed skill, ready to show.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChangeView {
    pub name: String,
    /// The folder, as the skill list has it; never shown as it is.
    pub dir: PathBuf,
    pub shown_dir: String,
    /// `None` for a folder that is gone.
    pub source: Option<Source>,
    pub since: SinceView,
    /// The untouched copy its installer keeps, diffed against when it has no snapshot.
    pub pristine: Option<PathBuf>,
}

/// What a changed skill differs from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SinceView {
    /// Its latest snapshot, taken `age` before the comparison.
    Snapshot { id: String, age: Option<Duration> },
    /// Its latest snapshot; the folder holds no skill any more.
    Gone { id: String, age: Option<Duration> },
    /// Its installer's record (no snapshot was taken of it), and whether the installer keeps
    /// a copy to diff against.
    Installed { installer: Option<String> },
}

impl SinceView {
    /// The snapshot `R` would restore.
    pub fn snapshot(&self) -> Option<&str> {
        match self {
            SinceView::Snapshot { id, .. } | SinceView::Gone { id, .. } => Some(id),
            SinceView::Installed { .. } => None,
        }
    }
}

/// Whether the comparison found the skill at `dir` changed since its latest snapshot (the list
/// and the detail mark it so, apart from the state `modified`).
pub fn changed_since_snapshot(changes: &[ChangeView], dir: &Path) -> bool {
    changes
        .iter()
        .any(|c| c.dir == dir && matches!(c.since, SinceView::Snapshot { .. }))
}

/// Whether the comparison found the folder at `dir` gone: what can be done to it is only
/// restoring it.
pub fn is_gone(changes: &[ChangeView], dir: &Path) -> bool {
    changes
        .iter()
        .any(|c| c.dir == dir && matches!(c.since, SinceView::Gone { .. }))
}

/// The changed skills as shown, by name, compared at `now`; `skills` gives the names, sources
/// and owners of those still on disk.
pub fn views(
    changed: &[Changed],
    skills: &[Skill],
    home: &Path,
    now: SystemTime,
) -> Vec<ChangeView> {
    let age = |taken: SystemTime| now.duration_since(taken).ok();
    let by_dir: HashMap<&Path, &Skill> = skills.iter().map(|s| (s.dir.as_path(), s)).collect();
    let mut views: Vec<ChangeView> = changed
        .iter()
        .map(|change| {
            let skill = by_dir.get(change.dir.as_path()).copied();
            let owner = skill.and_then(|s| s.owner.as_deref());
            let since = match &change.since {
                Since::Snapshot(snapshot) => SinceView::Snapshot {
                    id: snapshot.id.clone(),
                    age: age(snapshot.info.taken_at),
                },
                Since::Gone(snapshot) => SinceView::Gone {
                    id: snapshot.id.clone(),
                    age: age(snapshot.info.taken_at),
                },
                Since::Installed => SinceView::Installed {
                    installer: owner.map(|o| sanitize::line(o.installer.name())),
                },
            };
            let name = skill.map_or_else(
                || {
                    change
                        .dir
                        .file_name()
                        .map(|n| n.to_string_lossy().into_owned())
                        .unwrap_or_default()
                },
                |s| s.name.clone(),
            );
            ChangeView {
                name: sanitize::name(&name),
                dir: change.dir.clone(),
                shown_dir: human::path(&change.dir, home, Unsafe::Dropped),
                source: skill.map(|s| s.source),
                since,
                pristine: owner.and_then(|o| o.pristine.clone()),
            }
        })
        .collect();
    views.sort_by(|a, b| a.name.cmp(&b.name).then_with(|| a.dir.cmp(&b.dir)));
    views
}
