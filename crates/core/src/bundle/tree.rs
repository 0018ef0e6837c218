//! A tree whose every entry, with each file's size, is listed before any file is read: a git
//! commit's, as `git ls-tree` lists it. Every name and every bound is judged on the listing,
//! so the files' bytes are asked for only once the whole is known to fit; what is asked for is
//! exactly the files held (version-control folders set aside are never read), and what comes
//! back must be exactly the size listed. A committed `.DS_Store` or `._x` is a file of the
//! commit like any other ([`Aside::VersionControl`]).

use super::limits::Limits;
use super::members::{Admit, Aside, Kind, Members};
use super::path::MemberPath;
use super::refusal::{EntryKind, Refusal};
use super::{Bundle, Top, assemble};

/// What one listed entry is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Listed {
    File { size: u64, executable: bool },
    Folder,
    Other(EntryKind),
}

/// A listing judged whole, waiting for the bytes of the files it holds.
#[derive(Debug)]
pub struct Judged<'l> {
    members: Members<'l>,
    name: String,
    held: Vec<(MemberPath, Listed)>,
    /// Where each held file is in the listing.
    files: Vec<usize>,
}

/// Judge `entries` (raw `/`-separated paths relative to the tree's top, and what each is)
/// against `limits`; `name` is the tree's folder name, which names a skill whose `SKILL.md`
/// sits at its top when its frontmatter does not.
///
/// # Errors
/// A path rule, too many entries, a file or the whole too large: before any byte is read.
pub fn judge<'l>(
    name: &str,
    entries: &[(Vec<u8>, Listed)],
    limits: &'l Limits,
) -> Result<Judged<'l>, Refusal> {
    // A commit's files were all committed: only version-control folders are set aside.
    let mut members = Members::setting_aside(limits, Aside::VersionControl);
    let mut held = Vec::new();
    let mut files = Vec::new();
    for (at, (raw, listed)) in entries.iter().enumerate() {
        let path = match members.admit(raw)? {
            Admit::Hold(path) => path,
            Admit::SetAside | Admit::Top => continue,
        };
        if held.len() >= limits.entries {
            return Err(Refusal::TooManyEntries(limits.entries));
        }
        if let Listed::File { size, .. } = listed {
            members.reserve(&path, *size)?;
            files.push(at);
        }
        held.push((path, *listed));
    }
    Ok(Judged {
        members,
        name: name.to_owned(),
        held,
        files,
    })
}

impl Judged<'_> {
    /// Where in the listing each file whose bytes are needed is, in order.
    pub fn files(&self) -> &[usize] {
        &self.files
    }

    /// The bundle, given the bytes of each of [`Judged::files`], in that order.
    ///
    /// # Errors
    /// Contents that do not match the listing, or a refusal of the bundle's.
    pub fn finish(self, contents: Vec<Vec<u8>>) -> Result<Bundle, Refusal> {
        let Judged {
            mut members,
            name,
            held,
            files,
        } = self;
        if contents.len() != files.len() {
            return Err(changed(&name));
        }
        let mut contents = contents.into_iter();
        for (path, listed) in held {
            let kind = match listed {
                Listed::Folder => Kind::Folder,
                Listed::Other(kind) => Kind::Other(kind),
                Listed::File { size, executable } => {
                    let content = contents.next().ok_or_else(|| changed(&name))?;
                    if content.len() as u64 != size {
                        return Err(changed(&name));
                    }
                    Kind::File {
                        content,
                        executable,
                    }
                }
            };
            members.hold(path.parts, kind)?;
        }
        assemble(members, &Top::Folder(name))
    }
}

fn changed(name: &str) -> Refusal {
    Refusal::UnreadableSource {
        path: name.to_owned(),
        error: "its files did not match their listing".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bundle::limits;

    fn file(path: &str, size: u64) -> (Vec<u8>, Listed) {
        (
            path.as_bytes().to_vec(),
            Listed::File {
                size,
                executable: false,
            },
        )
    }

    #[test]
    fn the_bounds_are_judged_on_the_listing_before_a_byte_is_read() {
        let limits = limits();
        let big = limits.file_bytes + 1;
        let refused = judge("r", &[file("a/SKILL.md", 10), file("a/big", big)], &limits);
        assert_eq!(refused.unwrap_err().code(), "too_large");
        let many: Vec<_> = (0..=limits.entries)
            .map(|i| file(&format!("a/f{i}"), 0))
            .collect();
        assert_eq!(
            judge("r", &many, &limits).unwrap_err().code(),
            "too_many_entries"
        );
        let each = limits.file_bytes;
        let whole: Vec<_> = (0..=limits.bytes / each)
            .map(|i| file(&format!("a/f{i}"), each))
            .collect();
        assert_eq!(judge("r", &whole, &limits).unwrap_err().code(), "too_large");
    }

    #[test]
    fn version_control_is_never_asked_for_committed_metadata_is_a_file_and_contents_must_match() {
        let limits = limits();
        let manifest = b"---\nname: a\ndescription: d\n---\n".to_vec();
        let entries = [
            file(".git/config", 5),
            (b"a".to_vec(), Listed::Folder),
            file("a/SKILL.md", manifest.len() as u64),
            file("a/._x", 1),
            file("a/.DS_Store", 2),
        ];
        let judged = judge("r", &entries, &limits).unwrap();
        assert_eq!(judged.files(), [2, 3, 4]);
        let bundle = judged
            .finish(vec![manifest.clone(), b"x".to_vec(), b"ds".to_vec()])
            .unwrap();
        assert_eq!(bundle.skills.len(), 1);
        let files: Vec<&str> = bundle.skills[0]
            .files
            .iter()
            .map(|f| f.path.as_str())
            .collect();
        assert_eq!(files, [".DS_Store", "._x", "SKILL.md"]);
        let judged = judge("r", &entries, &limits).unwrap();
        let short = manifest[1..].to_vec();
        assert_eq!(
            judged
                .finish(vec![short, b"x".to_vec(), b"ds".to_vec()])
                .unwrap_err()
                .code(),
            "unreadable_source"
        );
    }
}
