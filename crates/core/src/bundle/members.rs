//! What a bundle may hold, whatever its source: every member's name goes through the path
//! rules, metadata is set aside before it costs anything, the bounds are counted, and no two
//! members may land on one path (exactly, as a file and a folder, or on a case-insensitive,
//! normalisation-insensitive file system).

use std::collections::HashMap;

use super::limits::Limits;
use super::path::{MemberPath, collision_key, member_path};
use super::refusal::{EntryKind, Refusal};
use crate::record::IGNORED_NAMES;
use crate::skill::names::is_version_control;
use crate::text::escape;

/// One member held in memory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Member {
    pub parts: Vec<String>,
    pub kind: Kind,
}

/// What a member is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    File {
        content: Vec<u8>,
        executable: bool,
    },
    Folder,
    /// A link, device or other entry: allowed outside the skills (left out), refused inside.
    Other(EntryKind),
}

/// What a reader does with a member whose name was admitted.
#[derive(Debug)]
pub enum Admit {
    Hold(MemberPath),
    /// Metadata: its data is skipped and it counts against nothing but the stream bound.
    SetAside,
    /// The bundle's own top folder (`./`).
    Top,
}

/// Whether a path is metadata an operating system or a version-control tool left beside the
/// files: AppleDouble `._*` sidecars, `__MACOSX/`, `.DS_Store`, `Thumbs.db`, and the
/// version-control folders in any letter case (what a snapshot leaves out too).
pub fn is_metadata(part: &str) -> bool {
    is_os_metadata(part) || is_version_control(part)
}

/// What an operating system leaves beside the files it shows: AppleDouble `._*` sidecars,
/// `__MACOSX/`, `.DS_Store`, `Thumbs.db`.
fn is_os_metadata(part: &str) -> bool {
    part.starts_with("._") || part == "__MACOSX" || IGNORED_NAMES.contains(&part)
}

/// Which metadata a source's members are set aside for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Aside {
    /// What an operating system left and version-control folders: archives and folders,
    /// which pick up what the author's system left beside the files without their choosing.
    AllMetadata,
    /// Version-control folders only: a git commit's tree, whose every other file was
    /// committed, and which every installer that clones it installs. The skills CLI hashes a
    /// committed `.DS_Store` into a lock's `computedHash`; setting it aside would make a
    /// locked skill impossible to sync and a lock skilldeck writes another one's.
    VersionControl,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Class {
    File,
    Folder,
    /// A folder only known because something lies below it.
    Implied,
    /// A link, device or other entry: nothing may lie below it, as a link's target would
    /// then be written through.
    Entry(EntryKind),
}

/// The members of one bundle as a reader gathers them.
#[derive(Debug)]
pub struct Members<'l> {
    limits: &'l Limits,
    held: Vec<Member>,
    aside: Aside,
    set_aside: Vec<String>,
    exact: HashMap<Vec<String>, Class>,
    folded: HashMap<Vec<String>, Vec<String>>,
    bytes: u64,
}

impl<'l> Members<'l> {
    pub fn new(limits: &'l Limits) -> Self {
        Self::setting_aside(limits, Aside::AllMetadata)
    }

    pub fn setting_aside(limits: &'l Limits, aside: Aside) -> Self {
        Self {
            limits,
            held: Vec::new(),
            aside,
            set_aside: Vec::new(),
            exact: HashMap::new(),
            folded: HashMap::new(),
            bytes: 0,
        }
    }

    pub fn limits(&self) -> &Limits {
        self.limits
    }

    /// Check a member's raw name and say what to do with it.
    ///
    /// # Errors
    /// [`Refusal::UnsafePath`] for a name that breaks a path rule.
    pub fn admit(&mut self, raw: &[u8]) -> Result<Admit, Refusal> {
        let Some(path) = member_path(raw, self.limits)? else {
            return Ok(Admit::Top);
        };
        let aside = |part: &String| match self.aside {
            Aside::AllMetadata => is_metadata(part),
            Aside::VersionControl => is_version_control(part),
        };
        if path.parts.iter().any(aside) {
            self.set_aside.push(escape::bytes(raw));
            return Ok(Admit::SetAside);
        }
        Ok(Admit::Hold(path))
    }

    /// Check that a file of `size` bytes may be held, before its data is read.
    ///
    /// # Errors
    /// When the file, or the bundle with it, would pass a bound.
    pub fn reserve(&mut self, path: &MemberPath, size: u64) -> Result<(), Refusal> {
        if self.held.len() >= self.limits.entries {
            return Err(Refusal::TooManyEntries(self.limits.entries));
        }
        if size > self.limits.file_bytes {
            return Err(Refusal::FileTooLarge {
                path: path.parts.join("/"),
                size,
                limit: self.limits.file_bytes,
            });
        }
        match self.bytes.checked_add(size) {
            Some(total) if total <= self.limits.bytes => {
                self.bytes = total;
                Ok(())
            }
            _ => Err(Refusal::TooLarge(self.limits.bytes)),
        }
    }

    /// Hold a member.
    ///
    /// # Errors
    /// When the bundle holds too many entries, or the member's path is taken.
    pub fn hold(&mut self, parts: Vec<String>, kind: Kind) -> Result<(), Refusal> {
        if self.held.len() >= self.limits.entries {
            return Err(Refusal::TooManyEntries(self.limits.entries));
        }
        let class = match kind {
            Kind::Folder => Class::Folder,
            Kind::File { .. } => Class::File,
            Kind::Other(entry) => Class::Entry(entry),
        };
        self.place(&parts, class)?;
        self.held.push(Member { parts, kind });
        Ok(())
    }

    /// Every member held, and the names set aside.
    pub fn finish(self) -> (Vec<Member>, Vec<String>) {
        (self.held, self.set_aside)
    }

    /// Mark `parts` as a `class`, and each folder above it as a folder.
    fn place(&mut self, parts: &[String], class: Class) -> Result<(), Refusal> {
        let mut folded: Vec<String> = Vec::with_capacity(parts.len());
        for (index, part) in parts.iter().enumerate() {
            folded.push(collision_key(part));
            let prefix = &parts[..=index];
            let last = index + 1 == parts.len();
            let wanted = if last { class } else { Class::Implied };
            match (self.exact.get(prefix).copied(), wanted) {
                (None, _) => {
                    if let Some(other) = self.folded.get(folded.as_slice()) {
                        return Err(Refusal::Collision {
                            path: prefix.join("/"),
                            other: other.join("/"),
                        });
                    }
                    self.folded.insert(folded.clone(), prefix.to_vec());
                    self.exact.insert(prefix.to_vec(), wanted);
                }
                // A member below a link (or another entry that is not a folder) is named by
                // what it would be written through.
                (Some(Class::Entry(kind)), Class::Implied) => {
                    return Err(Refusal::EntryAsFolder {
                        path: prefix.join("/"),
                        kind,
                        below: Some(parts.join("/")),
                    });
                }
                (Some(Class::Folder | Class::Implied), Class::Entry(kind))
                | (Some(Class::Entry(kind)), Class::Folder) => {
                    return Err(Refusal::EntryAsFolder {
                        path: prefix.join("/"),
                        kind,
                        below: self.below(prefix),
                    });
                }
                (Some(Class::File | Class::Entry(_)), Class::File | Class::Entry(_))
                | (Some(Class::Folder), Class::Folder) => {
                    return Err(Refusal::DuplicatePath(prefix.join("/")));
                }
                (Some(Class::File), _) | (Some(Class::Folder | Class::Implied), Class::File) => {
                    return Err(Refusal::FileAndFolder(prefix.join("/")));
                }
                (Some(Class::Implied), Class::Folder) => {
                    self.exact.insert(prefix.to_vec(), Class::Folder);
                }
                (Some(Class::Folder | Class::Implied), Class::Implied) => {}
            }
        }
        Ok(())
    }

    /// A member held below the folder `prefix`, to name in a sentence.
    fn below(&self, prefix: &[String]) -> Option<String> {
        self.held
            .iter()
            .find(|m| m.parts.len() > prefix.len() && m.parts.starts_with(prefix))
            .map(|m| m.parts.join("/"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bundle::limits;

    fn file() -> Kind {
        Kind::File {
            content: Vec::new(),
            executable: false,
        }
    }

    fn parts(path: &str) -> Vec<String> {
        path.split('/').map(str::to_owned).collect()
    }

    fn hold_all(members: &[(&str, Kind)]) -> Result<(), Refusal> {
        let limits = limits();
        let mut held = Members::new(&limits);
        for (path, kind) in members {
            held.hold(parts(path), kind.clone())?;
        }
        Ok(())
    }

    #[test]
    fn a_path_is_one_thing_once() {
        assert_eq!(
            hold_all(&[("demo/SKILL.md", file()), ("demo/SKILL.md", file())]),
            Err(Refusal::DuplicatePath("demo/SKILL.md".into()))
        );
        assert_eq!(
            hold_all(&[("demo", Kind::Folder), ("demo", Kind::Folder)]),
            Err(Refusal::DuplicatePath("demo".into()))
        );
        assert_eq!(
            hold_all(&[("demo/x", file()), ("demo/x", Kind::Folder)]),
            Err(Refusal::FileAndFolder("demo/x".into()))
        );
        assert_eq!(
            hold_all(&[("demo/a", file()), ("demo/a/b", file())]),
            Err(Refusal::FileAndFolder("demo/a".into()))
        );
        assert_eq!(
            hold_all(&[("demo/a/b", file()), ("demo/a", file())]),
            Err(Refusal::FileAndFolder("demo/a".into()))
        );
        assert_eq!(
            hold_all(&[
                ("demo/a/b", file()),
                ("demo/a", Kind::Folder),
                ("demo", Kind::Folder)
            ]),
            Ok(())
        );
    }

    #[test]
    fn nothing_lies_below_a_link() {
        let link = || Kind::Other(EntryKind::SymbolicLink);
        let through = |below: Option<&str>| {
            Err(Refusal::EntryAsFolder {
                path: "demo/lnk".into(),
                kind: EntryKind::SymbolicLink,
                below: below.map(str::to_owned),
            })
        };
        assert_eq!(
            hold_all(&[("demo/lnk", link()), ("demo/lnk/x", file())]),
            through(Some("demo/lnk/x"))
        );
        assert_eq!(
            hold_all(&[("demo/lnk/x", file()), ("demo/lnk", link())]),
            through(Some("demo/lnk/x"))
        );
        assert_eq!(
            hold_all(&[("demo/lnk", Kind::Folder), ("demo/lnk", link())]),
            through(None)
        );
        assert_eq!(
            hold_all(&[("demo/lnk", link()), ("demo/lnk", Kind::Folder)]),
            through(None)
        );
        assert_eq!(
            hold_all(&[("demo/lnk", link()), ("demo/lnk", file())]),
            Err(Refusal::DuplicatePath("demo/lnk".into()))
        );
    }

    #[test]
    fn names_one_file_system_would_merge_collide() {
        assert_eq!(
            hold_all(&[("demo/SKILL.md", file()), ("demo/skill.md", file())]),
            Err(Refusal::Collision {
                path: "demo/skill.md".into(),
                other: "demo/SKILL.md".into()
            })
        );
        assert_eq!(
            hold_all(&[("Demo/a", file()), ("demo/b", file())]),
            Err(Refusal::Collision {
                path: "demo".into(),
                other: "Demo".into()
            })
        );
        assert!(matches!(
            hold_all(&[
                ("demo/caf\u{e9}.md", file()),
                ("demo/cafe\u{301}.md", file())
            ]),
            Err(Refusal::Collision { .. })
        ));
    }

    #[test]
    fn metadata_is_set_aside_before_it_counts() {
        let limits = crate::bundle::Limits {
            entries: 1,
            ..limits()
        };
        let mut members = Members::new(&limits);
        for name in [
            "demo/._SKILL.md",
            "__MACOSX/demo/x",
            "demo/.DS_Store",
            "demo/Thumbs.db",
            ".git/config",
            ".GIT/config",
            "demo/.Hg/hgrc",
            "demo/.svn/entries",
            "demo/.JJ/repo",
        ] {
            assert!(
                matches!(members.admit(name.as_bytes()), Ok(Admit::SetAside)),
                "{name}"
            );
        }
        let Ok(Admit::Hold(path)) = members.admit(b"demo/SKILL.md") else {
            panic!("a skill file is held");
        };
        members.reserve(&path, 3).unwrap();
        members.hold(path.parts, file()).unwrap();
        let (held, set_aside) = members.finish();
        assert_eq!(held.len(), 1);
        assert_eq!(set_aside.len(), 9);
    }

    #[test]
    fn bounds_are_checked_before_data_is_read() {
        let limits = crate::bundle::Limits {
            entries: 2,
            bytes: 10,
            file_bytes: 6,
            ..limits()
        };
        let mut members = Members::new(&limits);
        let path = MemberPath {
            parts: parts("demo/a"),
            folder: false,
        };
        assert!(matches!(
            members.reserve(&path, 7),
            Err(Refusal::FileTooLarge {
                size: 7,
                limit: 6,
                ..
            })
        ));
        members.reserve(&path, 6).unwrap();
        assert_eq!(members.reserve(&path, 5), Err(Refusal::TooLarge(10)));
        members.hold(parts("demo/a"), file()).unwrap();
        members.hold(parts("demo/b"), file()).unwrap();
        assert_eq!(
            members.hold(parts("demo/c"), file()),
            Err(Refusal::TooManyEntries(2))
        );
        assert_eq!(members.reserve(&path, 0), Err(Refusal::TooManyEntries(2)));
    }
}
