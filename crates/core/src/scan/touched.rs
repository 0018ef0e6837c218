//! Which skills some changed paths lie in: the rule a scan again and the app's rescan share.
//! A change lies in a skill when the changed path is, or is below, the folder the skill
//! resolves to or any path it was reached by.
//!
//! The skills' folders are looked up by hash, and a changed path is looked up only at the
//! depths some skill's folder has: k changes among m skills cost k·(those depths) lookups and
//! m to index, where testing each change against each skill cost k·m (10,000 skill folders
//! made while the app ran cost a minute of CPU; issue 30).

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use super::Skill;

/// What some changes touched among some skills.
#[derive(Debug, PartialEq, Eq)]
pub struct Touched {
    /// For each skill, in order, whether a change lies in it.
    pub skills: Vec<bool>,
    /// Every change lies in some skill.
    pub all_inside: bool,
    /// The folders looked up: the work it took, which grows with the changes and the skills,
    /// never with their product.
    pub lookups: usize,
}

/// Which of `skills` the paths of `changed` lie in.
pub fn touched(skills: &[Skill], changed: &[PathBuf]) -> Touched {
    let folders = skills.iter().enumerate().flat_map(|(at, skill)| {
        std::iter::once(skill.real_dir.as_path())
            .chain(skill.reached_by.iter().map(PathBuf::as_path))
            .map(move |dir| (at, dir))
    });
    lying_in(skills.len(), folders, changed)
}

/// Which of `owners` owners the paths of `changed` lie in, each owner holding the folders
/// `folders` pairs it with.
fn lying_in<'a>(
    owners: usize,
    folders: impl IntoIterator<Item = (usize, &'a Path)>,
    changed: &[PathBuf],
) -> Touched {
    let mut by_dir: HashMap<&Path, Vec<usize>> = HashMap::new();
    let mut depths = BTreeSet::new();
    for (owner, dir) in folders {
        depths.insert(dir.components().count());
        by_dir.entry(dir).or_default().push(owner);
    }
    let mut touched = Touched {
        skills: vec![false; owners],
        all_inside: true,
        lookups: 0,
    };
    for path in changed {
        let mut inside = false;
        // `ancestors` takes one component off at a time, so the depth is counted down.
        let mut depth = path.components().count();
        for dir in path.ancestors() {
            if depths.contains(&depth) {
                touched.lookups += 1;
                for &owner in by_dir.get(dir).into_iter().flatten() {
                    touched.skills[owner] = true;
                    inside = true;
                }
            }
            depth = depth.saturating_sub(1);
        }
        touched.all_inside &= inside;
    }
    touched
}

// Written with Unix absolute paths (`/…`), which are not absolute on Windows.
#[cfg(test)]
#[cfg(unix)]
mod tests {
    use super::*;

    fn of(folders: &[(usize, &str)], changed: &[&str]) -> Touched {
        let owners = folders.iter().map(|(at, _)| at + 1).max().unwrap_or(0);
        let changed: Vec<PathBuf> = changed.iter().map(PathBuf::from).collect();
        lying_in(
            owners,
            folders.iter().map(|(at, dir)| (*at, Path::new(*dir))),
            &changed,
        )
    }

    #[test]
    fn a_change_lies_in_the_folder_it_is_or_is_below_by_any_path() {
        let folders = [(0, "/r/a"), (1, "/r/a-b"), (2, "/real/c"), (2, "/r/c")];
        let found = of(&folders, &["/r/a/SKILL.md"]);
        assert_eq!(found.skills, [true, false, false]);
        assert!(found.all_inside);
        // Reached by a link: the change names the link's path.
        assert_eq!(of(&folders, &["/r/c/x/y.md"]).skills, [false, false, true]);
        // The folder itself, and a name that only starts the same, which is another folder.
        assert_eq!(of(&folders, &["/r/a-b"]).skills, [false, true, false]);
        assert_eq!(of(&folders, &["/r/a-bc/SKILL.md"]).skills, [false; 3]);
        // A change outside every skill: a folder made in the root.
        let outside = of(&folders, &["/r/new", "/r/a/SKILL.md"]);
        assert_eq!(outside.skills, [true, false, false]);
        assert!(!outside.all_inside);
        // Nested folders: a change below both is in both.
        let nested = of(&[(0, "/r/a"), (1, "/r/a/inner")], &["/r/a/inner/SKILL.md"]);
        assert_eq!(nested.skills, [true, true]);
    }

    /// n skills, and k changes: half inside skills (a file edited), half beside them (a folder
    /// made in the root), `deep` parts below.
    fn lookups(n: usize, k: usize, deep: usize) -> usize {
        let dirs: Vec<PathBuf> = (0..n)
            .map(|i| PathBuf::from(format!("/home/me/.claude/skills/s{i}")))
            .collect();
        let below = "/d".repeat(deep);
        let changed: Vec<PathBuf> = (0..k)
            .map(|i| {
                if i % 2 == 0 {
                    dirs[(i / 2) % n].join(format!("x{below}/SKILL.md"))
                } else {
                    PathBuf::from(format!("/home/me/.claude/skills/new{i}{below}"))
                }
            })
            .collect();
        let found = lying_in(
            n,
            dirs.iter().enumerate().map(|(at, d)| (at, d.as_path())),
            &changed,
        );
        assert_eq!(
            found.skills.iter().filter(|t| **t).count(),
            k.div_ceil(2).min(n)
        );
        found.lookups
    }

    // Counted, not timed: testing each change against each skill took k·m tests, so four times
    // the skills and changes took sixteen times the work.
    #[test]
    fn the_work_grows_with_the_changes_not_with_changes_times_skills() {
        for (n, k, deep) in [
            (1_000, 1_000, 0),
            (1_000, 10, 0),
            (10, 1_000, 0),
            (500, 500, 40),
        ] {
            let small = lookups(n, k, deep);
            let large = lookups(4 * n, 4 * k, deep);
            assert!(
                large <= 5 * small,
                "{n} skills, {k} changes: {small} lookups; four times as many: {large}"
            );
            // One depth holds skills: one lookup per change, however deep it lies.
            assert!(small <= k, "{n} skills, {k} changes: {small} lookups");
        }
    }
}
