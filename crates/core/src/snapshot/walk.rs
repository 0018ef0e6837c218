//! Which files of a skill folder a snapshot holds (skill-format-and-roots.md §3.3), decided in
//! this one place for taking, digesting, diffing, restoring and exporting alike.
//!
//! The folder itself may be a link (agents often install a skill as a link to a checkout), so
//! it is resolved first. Inside it, a link is followed only to a regular file inside the
//! folder; a link out of the folder, to a directory, broken or in a loop is left out and
//! counted, so a skill cannot pull other files of the user into a snapshot and a loop of links
//! cannot stop the walk. Version-control directories are left out, and so is anything that is
//! neither a file nor a directory (a FIFO, a socket). Nothing here opens a file: sizes come
//! from metadata, and the readers open through [`crate::fs`].

use std::fmt;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use walkdir::WalkDir;

use crate::fs::{At, is_executable};
use crate::record::portable_path;
use crate::skill::SKILL_FILE;
use crate::skill::names::is_version_control;

use super::SnapshotError;

/// One file a snapshot holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The path below the skill folder, `/`-separated.
    pub rel: String,
    /// Where its bytes are read from: the file itself, or the file a link inside points to.
    pub source: PathBuf,
    pub size: u64,
    pub executable: bool,
}

/// Why an entry of the folder is not in the snapshot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Why {
    /// A link out of the folder, to a directory, broken, or in a loop.
    Link,
    /// Neither a file, a directory nor a link: a FIFO, a socket, a device.
    Special,
    /// A version-control directory (or a worktree's `.git` file).
    VersionControl,
}

/// An entry of the folder that a snapshot does not hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeftOut {
    pub rel: String,
    pub why: Why,
}

impl fmt::Display for LeftOut {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let why = match self.why {
            Why::Link => "a link out of the skill or to a folder",
            Why::Special => "neither a file nor a folder",
            Why::VersionControl => "version-control data",
        };
        write!(f, "{} ({why})", self.rel)
    }
}

/// The files of one skill folder, in the order the snapshot digest takes them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Listing {
    /// The folder with every link resolved.
    pub root: PathBuf,
    /// Sorted by `rel`, byte by byte.
    pub files: Vec<Entry>,
    pub left_out: Vec<LeftOut>,
}

impl Listing {
    /// List the skill folder `dir`.
    ///
    /// # Errors
    /// [`SnapshotError::NotSkill`] when the folder holds no `SKILL.md` file,
    /// [`SnapshotError::Read`] when the folder or one of its directories cannot be read.
    pub fn read(dir: &Path) -> Result<Self, SnapshotError> {
        let root = crate::fs::canonical(dir).at(dir, SnapshotError::read)?;
        let mut listing = Listing {
            root,
            files: Vec::new(),
            left_out: Vec::new(),
        };
        let mut walk = WalkDir::new(&listing.root)
            .min_depth(1)
            .follow_links(false)
            .into_iter();
        while let Some(entry) = walk.next() {
            let entry = entry.map_err(|error| SnapshotError::Read {
                path: error
                    .path()
                    .map_or_else(|| listing.root.clone(), Path::to_path_buf),
                source: io::Error::from(error),
            })?;
            let rel = portable_path(
                entry
                    .path()
                    .strip_prefix(&listing.root)
                    .unwrap_or(entry.path()),
            );
            let kind = entry.file_type();
            // The rule a bundle sets version-control data aside by, so what an import installs
            // and what a snapshot of it holds are the same files.
            if is_version_control(&entry.file_name().to_string_lossy()) {
                if kind.is_dir() {
                    walk.skip_current_dir();
                }
                listing.left_out(rel, Why::VersionControl);
            } else if kind.is_dir() {
                continue;
            } else if kind.is_file() {
                let meta = entry.metadata().map_err(|error| SnapshotError::Read {
                    path: entry.path().to_path_buf(),
                    source: io::Error::from(error),
                })?;
                listing.files.push(Entry {
                    rel,
                    source: entry.into_path(),
                    size: meta.len(),
                    executable: is_executable(&meta),
                });
            } else if kind.is_symlink() {
                match listing.inside_file(entry.path()) {
                    Some((source, meta)) => listing.files.push(Entry {
                        rel,
                        source,
                        size: meta.len(),
                        executable: is_executable(&meta),
                    }),
                    None => listing.left_out(rel, Why::Link),
                }
            } else {
                listing.left_out(rel, Why::Special);
            }
        }
        if !listing.files.iter().any(|f| f.rel == SKILL_FILE) {
            return Err(SnapshotError::NotSkill(dir.to_path_buf()));
        }
        listing.files.sort_by(|a, b| a.rel.cmp(&b.rel));
        Ok(listing)
    }

    /// How many links were left out: what a snapshot's `skipped_links` counts.
    pub fn skipped_links(&self) -> usize {
        self.left_out.iter().filter(|l| l.why == Why::Link).count()
    }

    /// The sum of the files' sizes, as listed.
    pub fn total_size(&self) -> u64 {
        self.files.iter().map(|f| f.size).sum()
    }

    fn left_out(&mut self, rel: String, why: Why) {
        self.left_out.push(LeftOut { rel, why });
    }

    /// The regular file a link inside the folder points to, when it is inside the folder and
    /// outside its version-control directories.
    fn inside_file(&self, link: &Path) -> Option<(PathBuf, fs::Metadata)> {
        let target = crate::fs::canonical(link).ok()?;
        let below = target.strip_prefix(&self.root).ok()?;
        if below
            .components()
            .any(|part| is_version_control(&part.as_os_str().to_string_lossy()))
        {
            return None;
        }
        let meta = fs::metadata(&target).ok()?;
        meta.is_file().then_some((target, meta))
    }
}

#[cfg(test)]
#[cfg(unix)]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    fn skill(dir: &Path) {
        fs::create_dir_all(dir.join("refs")).unwrap();
        fs::write(dir.join(SKILL_FILE), "---\nname: s\n---\n").unwrap();
        fs::write(dir.join("refs/a.md"), "a").unwrap();
    }

    fn rels(listing: &Listing) -> Vec<&str> {
        listing.files.iter().map(|f| f.rel.as_str()).collect()
    }

    #[test]
    fn files_are_sorted_byte_by_byte_on_their_slash_paths() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("s");
        skill(&dir);
        fs::write(dir.join("a-b.md"), "").unwrap();
        fs::write(dir.join("Z.md"), "").unwrap();
        let listing = Listing::read(&dir).unwrap();
        assert_eq!(rels(&listing), ["SKILL.md", "Z.md", "a-b.md", "refs/a.md"]);
        assert!(listing.left_out.is_empty());
    }

    #[test]
    fn links_are_followed_only_to_files_inside() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("s");
        skill(&dir);
        fs::write(tmp.path().join("secret.txt"), "outside").unwrap();
        symlink(tmp.path().join("secret.txt"), dir.join("out")).unwrap();
        symlink(tmp.path(), dir.join("out-dir")).unwrap();
        symlink("refs", dir.join("in-dir")).unwrap();
        symlink("refs/a.md", dir.join("alias.md")).unwrap();
        symlink("missing", dir.join("broken")).unwrap();
        symlink("loop-b", dir.join("loop-a")).unwrap();
        symlink("loop-a", dir.join("loop-b")).unwrap();
        let listing = Listing::read(&dir).unwrap();
        assert_eq!(rels(&listing), ["SKILL.md", "alias.md", "refs/a.md"]);
        let alias = &listing.files[1];
        assert_eq!(alias.source, listing.root.join("refs/a.md"));
        assert_eq!(listing.skipped_links(), 6);
    }

    #[test]
    fn version_control_and_special_entries_are_left_out() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("s");
        skill(&dir);
        fs::create_dir_all(dir.join(".git/objects")).unwrap();
        fs::write(dir.join(".git/config"), "x").unwrap();
        fs::write(dir.join("refs/.hg"), "worktree pointer").unwrap();
        fs::create_dir_all(dir.join(".SVN")).unwrap();
        fs::write(dir.join(".SVN/entries"), "x").unwrap();
        fs::write(dir.join("refs/.Jj"), "x").unwrap();
        symlink(".git/config", dir.join("config-link")).unwrap();
        crate::fs::mkfifo(&dir.join("pipe"));
        let listing = Listing::read(&dir).unwrap();
        assert_eq!(rels(&listing), ["SKILL.md", "refs/a.md"]);
        let mut whys: Vec<(String, Why)> = listing
            .left_out
            .iter()
            .map(|l| (l.rel.clone(), l.why))
            .collect();
        whys.sort_by(|a, b| a.0.cmp(&b.0));
        assert_eq!(
            whys,
            [
                (".SVN".to_owned(), Why::VersionControl),
                (".git".to_owned(), Why::VersionControl),
                ("config-link".to_owned(), Why::Link),
                ("pipe".to_owned(), Why::Special),
                ("refs/.Jj".to_owned(), Why::VersionControl),
                ("refs/.hg".to_owned(), Why::VersionControl),
            ]
        );
    }

    #[test]
    fn a_folder_reached_through_a_link_is_resolved() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("checkout");
        skill(&dir);
        symlink(&dir, tmp.path().join("linked")).unwrap();
        let listing = Listing::read(&tmp.path().join("linked")).unwrap();
        assert_eq!(listing.root, crate::fs::canonical(&dir).unwrap());
        assert_eq!(rels(&listing), ["SKILL.md", "refs/a.md"]);
    }

    #[test]
    fn a_folder_without_skill_md_is_not_a_skill() {
        let tmp = tempfile::tempdir().unwrap();
        fs::write(tmp.path().join("README.md"), "").unwrap();
        assert!(matches!(
            Listing::read(tmp.path()),
            Err(SnapshotError::NotSkill(_))
        ));
        symlink("/etc/hostname", tmp.path().join(SKILL_FILE)).unwrap();
        assert!(matches!(
            Listing::read(tmp.path()),
            Err(SnapshotError::NotSkill(_))
        ));
    }
}
