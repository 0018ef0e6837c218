//! What an event from the system is a change of: which events are changes at all (the app's
//! own reads are not), and the skill folder, or the path that decides the skills, each path
//! named lies in.

use std::path::{Path, PathBuf};

use notify::EventKind;
use notify::event::ModifyKind;

use crate::scan::Watched;

/// Whether an event is a change: reading a file (the app's own scan and preview do) is not,
/// nor is a change of its times or mode alone, which reading may cause.
pub(super) fn is_change(kind: &EventKind) -> bool {
    !matches!(
        kind,
        EventKind::Access(_) | EventKind::Modify(ModifyKind::Metadata(_))
    )
}

/// What a change at `path` is a change of, by `plan`: the skill folder it lies in; else the
/// path itself, when it is an entry of a folder whose entries decide the skills, or lies on
/// the way to a root or settings file; else nothing that matters.
pub(super) fn affected(plan: &Watched, path: &Path) -> Option<PathBuf> {
    // The skills are sorted and none lies inside another: the one `path` may lie in is the
    // last that sorts before it.
    let at = plan.skills.partition_point(|dir| dir.as_path() <= path);
    if let Some(dir) = at.checked_sub(1).map(|at| &plan.skills[at])
        && path.starts_with(dir)
    {
        return Some(dir.clone());
    }
    let is_folder = |dir: &Path| {
        plan.folders
            .binary_search_by(|f| f.as_path().cmp(dir))
            .is_ok()
    };
    let matters = is_folder(path)
        || path.parent().is_some_and(is_folder)
        || plan.awaited.iter().any(|awaited| awaited.starts_with(path));
    matters.then(|| path.to_path_buf())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_change_is_of_the_skill_it_lies_in_or_of_what_decides_the_skills() {
        let plan = Watched {
            skills: vec![
                PathBuf::from("/r/a"),
                PathBuf::from("/r/a-b"),
                PathBuf::from("/r/c"),
            ],
            folders: vec![PathBuf::from("/p/group"), PathBuf::from("/r")],
            awaited: vec![PathBuf::from("/home/.claude/settings.json")],
        };
        let of = |path: &str| affected(&plan, Path::new(path));
        assert_eq!(of("/r/a/SKILL.md"), Some(PathBuf::from("/r/a")));
        assert_eq!(of("/r/a-b/x/y.md"), Some(PathBuf::from("/r/a-b")));
        assert_eq!(of("/r/a"), Some(PathBuf::from("/r/a")));
        // A folder made in a root, or in a folder between a root and its skills.
        assert_eq!(of("/r/new"), Some(PathBuf::from("/r/new")));
        assert_eq!(of("/p/group/new"), Some(PathBuf::from("/p/group/new")));
        // A settings file, or a folder on the way to it.
        assert_eq!(
            of("/home/.claude/settings.json"),
            Some(PathBuf::from("/home/.claude/settings.json"))
        );
        assert_eq!(of("/home/.claude"), Some(PathBuf::from("/home/.claude")));
        // Another file beside it, or deeper in a folder that is no skill, is nothing.
        assert_eq!(of("/home/.claude/history.jsonl"), None);
        assert_eq!(of("/r/new/deeper/file"), None);
    }

    #[test]
    fn reading_is_no_change() {
        use notify::event::{AccessKind, CreateKind, DataChange, MetadataKind};
        assert!(!is_change(&EventKind::Access(AccessKind::Any)));
        assert!(!is_change(&EventKind::Modify(ModifyKind::Metadata(
            MetadataKind::AccessTime
        ))));
        assert!(is_change(&EventKind::Modify(ModifyKind::Data(
            DataChange::Content
        ))));
        assert!(is_change(&EventKind::Create(CreateKind::Folder)));
    }
}
