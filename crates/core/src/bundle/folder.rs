//! Folders: walked without following links, listed whole first, then each file opened without
//! blocking and without following a link (`fs::open_regular`), its type checked on the
//! open handle and its bytes read within its bound. A folder is live: a file swapped for a link
//! or a FIFO between the listing and the read is refused, never followed or waited on.

use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use walkdir::WalkDir;

use super::members::{Admit, Kind, Members, is_metadata};
use super::path::MemberPath;
use super::refusal::{EntryKind, Refusal};
use crate::fs::{Links, is_link_loop, open_regular};

/// One entry of the listing, before any file is opened.
#[derive(Debug)]
pub struct Listed {
    path: MemberPath,
    on_disk: PathBuf,
    kind: Listing,
}

#[derive(Debug)]
enum Listing {
    File,
    Folder,
    Other(EntryKind),
}

/// Read every member of the folder `root` into `members`.
///
/// # Errors
/// The first refusal met.
pub fn read(root: &Path, members: &mut Members) -> Result<(), Refusal> {
    let listed = list(root, members)?;
    take(listed, members)
}

/// Walk `root` and check every name, opening nothing.
///
/// # Errors
/// A refusal for a name, the entry count, or a folder that cannot be listed.
pub fn list(root: &Path, members: &mut Members) -> Result<Vec<Listed>, Refusal> {
    let limits = *members.limits();
    // Metadata is not walked into (a `.git` holds thousands of files); its name is kept.
    let mut metadata: Vec<PathBuf> = Vec::new();
    let walk = WalkDir::new(root)
        .min_depth(1)
        // One level past the bound, so the first entry too deep is seen and refused.
        .max_depth(limits.depth + 1)
        .follow_links(false)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|entry| {
            let skip = entry.depth() > 0 && is_metadata(&entry.file_name().to_string_lossy());
            if skip {
                metadata.push(entry.path().to_path_buf());
            }
            !skip
        });
    let mut listed = Vec::new();
    for entry in walk {
        let entry = entry.map_err(|error| Refusal::UnreadableSource {
            path: error.path().unwrap_or(root).display().to_string(),
            error: error
                .io_error()
                .map_or_else(|| error.to_string(), |io| crate::fs::said(io).to_string()),
        })?;
        if listed.len() >= limits.entries {
            return Err(Refusal::TooManyEntries(limits.entries));
        }
        let relative = entry.path().strip_prefix(root).unwrap_or(entry.path());
        let Admit::Hold(path) = members.admit(&raw(relative))? else {
            continue;
        };
        let file_type = entry.file_type();
        let kind = if file_type.is_dir() {
            Listing::Folder
        } else if file_type.is_symlink() {
            Listing::Other(EntryKind::SymbolicLink)
        } else if file_type.is_file() {
            Listing::File
        } else {
            Listing::Other(special(&file_type))
        };
        listed.push(Listed {
            path,
            on_disk: entry.into_path(),
            kind,
        });
    }
    for path in metadata {
        let relative = path.strip_prefix(root).unwrap_or(&path);
        members.admit(&raw(relative))?;
    }
    Ok(listed)
}

/// Open and read what `list` found.
///
/// # Errors
/// A refusal for a file that is no longer a regular file, is too large, or cannot be read.
pub fn take(listed: Vec<Listed>, members: &mut Members) -> Result<(), Refusal> {
    for Listed {
        path,
        on_disk,
        kind,
    } in listed
    {
        let kind = match kind {
            Listing::Folder => Kind::Folder,
            Listing::Other(kind) => Kind::Other(kind),
            Listing::File => match open(&on_disk) {
                Ok(file) => read_file(file, &path, &on_disk, members)?,
                Err(kind) => kind.map_err(|error| unreadable(&on_disk, &error))?,
            },
        };
        members.hold(path.parts, kind)?;
    }
    Ok(())
}

/// Open a file listed as regular; what it turned into if it no longer is one.
fn open(path: &Path) -> Result<File, Result<Kind, io::Error>> {
    match open_regular(path, Links::Refuse) {
        Ok(file) => Ok(file),
        Err(error) if is_link_loop(&error) => Err(Ok(Kind::Other(EntryKind::SymbolicLink))),
        Err(error) if error.kind() == io::ErrorKind::InvalidData => {
            let now = std::fs::symlink_metadata(path).map(|m| special(&m.file_type()));
            Err(Ok(Kind::Other(now.unwrap_or(EntryKind::Special))))
        }
        Err(error) => Err(Err(error)),
    }
}

fn read_file(
    file: File,
    path: &MemberPath,
    on_disk: &Path,
    members: &mut Members,
) -> Result<Kind, Refusal> {
    let meta = file.metadata().map_err(|e| unreadable(on_disk, &e))?;
    let size = meta.len();
    members.reserve(path, size)?;
    let mut content = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
    // One byte past the size, so a file that grows while read is caught, not cut.
    file.take(size + 1)
        .read_to_end(&mut content)
        .map_err(|e| unreadable(on_disk, &e))?;
    if content.len() as u64 != size {
        return Err(Refusal::UnreadableSource {
            path: on_disk.display().to_string(),
            error: "it changed while it was being read".to_owned(),
        });
    }
    Ok(Kind::File {
        content,
        executable: is_executable(&meta),
    })
}

fn unreadable(path: &Path, error: &io::Error) -> Refusal {
    Refusal::UnreadableSource {
        path: path.display().to_string(),
        error: crate::fs::said(error).to_string(),
    }
}

#[cfg(unix)]
fn raw(relative: &Path) -> Vec<u8> {
    use std::os::unix::ffi::OsStrExt;
    relative.as_os_str().as_bytes().to_vec()
}

/// Elsewhere a name that is not Unicode cannot be written back the same: it reads as invalid.
#[cfg(not(unix))]
fn raw(relative: &Path) -> Vec<u8> {
    match relative.to_str() {
        Some(text) => text.replace('\\', "/").into_bytes(),
        None => vec![0xff],
    }
}

#[cfg(unix)]
fn special(file_type: &std::fs::FileType) -> EntryKind {
    use std::os::unix::fs::FileTypeExt;
    if file_type.is_symlink() {
        EntryKind::SymbolicLink
    } else if file_type.is_fifo() {
        EntryKind::Fifo
    } else if file_type.is_socket() {
        EntryKind::Socket
    } else if file_type.is_char_device() {
        EntryKind::CharacterDevice
    } else if file_type.is_block_device() {
        EntryKind::BlockDevice
    } else {
        EntryKind::Special
    }
}

#[cfg(not(unix))]
fn special(file_type: &std::fs::FileType) -> EntryKind {
    if file_type.is_symlink() {
        EntryKind::SymbolicLink
    } else {
        EntryKind::Special
    }
}

#[cfg(unix)]
fn is_executable(meta: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::PermissionsExt;
    super::executable_mode(meta.permissions().mode().into())
}

#[cfg(not(unix))]
fn is_executable(_meta: &std::fs::Metadata) -> bool {
    false
}

#[cfg(test)]
#[cfg(unix)]
mod tests {
    use super::*;
    use crate::bundle::limits;
    use std::fs;

    use crate::fs::mkfifo as fifo;

    fn held(root: &Path) -> Result<Vec<super::super::members::Member>, Refusal> {
        let limits = limits();
        let mut members = Members::new(&limits);
        read(root, &mut members)?;
        Ok(members.finish().0)
    }

    #[test]
    fn files_folders_and_links_are_listed_without_following_anything() {
        let tmp = tempfile::tempdir().unwrap();
        fs::create_dir_all(tmp.path().join("demo/scripts")).unwrap();
        fs::write(tmp.path().join("demo/SKILL.md"), "s").unwrap();
        fs::write(tmp.path().join("secret"), "secret").unwrap();
        std::os::unix::fs::symlink(tmp.path().join("secret"), tmp.path().join("demo/l")).unwrap();
        fs::write(tmp.path().join("demo/.DS_Store"), "junk").unwrap();
        let members = held(tmp.path()).unwrap();
        let link = members
            .iter()
            .find(|m| m.parts.join("/") == "demo/l")
            .unwrap();
        assert_eq!(link.kind, Kind::Other(EntryKind::SymbolicLink));
        assert!(
            !members
                .iter()
                .any(|m| m.parts.join("/").contains("DS_Store"))
        );
        assert!(
            members
                .iter()
                .any(|m| m.parts.join("/") == "demo/scripts" && m.kind == Kind::Folder)
        );
    }

    #[test]
    fn a_file_swapped_for_a_link_or_a_fifo_after_listing_is_not_read() {
        let tmp = tempfile::tempdir().unwrap();
        fs::create_dir_all(tmp.path().join("demo")).unwrap();
        fs::write(tmp.path().join("demo/SKILL.md"), "s").unwrap();
        fs::write(tmp.path().join("demo/a.md"), "a").unwrap();
        fs::write(tmp.path().join("demo/b.md"), "b").unwrap();
        fs::write(tmp.path().join("secret"), "secret").unwrap();
        let limits = limits();
        let mut members = Members::new(&limits);
        let listed = list(tmp.path(), &mut members).unwrap();

        fs::remove_file(tmp.path().join("demo/a.md")).unwrap();
        std::os::unix::fs::symlink(tmp.path().join("secret"), tmp.path().join("demo/a.md"))
            .unwrap();
        fs::remove_file(tmp.path().join("demo/b.md")).unwrap();
        fifo(&tmp.path().join("demo/b.md"));

        take(listed, &mut members).unwrap();
        let (members, _) = members.finish();
        let kind = |path: &str| {
            &members
                .iter()
                .find(|m| m.parts.join("/") == path)
                .unwrap()
                .kind
        };
        assert_eq!(kind("demo/a.md"), &Kind::Other(EntryKind::SymbolicLink));
        assert_eq!(kind("demo/b.md"), &Kind::Other(EntryKind::Fifo));
    }

    #[test]
    fn a_fifo_is_listed_and_never_opened() {
        let tmp = tempfile::tempdir().unwrap();
        fifo(&tmp.path().join("pipe"));
        let members = held(tmp.path()).unwrap();
        assert_eq!(members[0].kind, Kind::Other(EntryKind::Fifo));
    }

    #[test]
    fn a_file_past_its_bound_is_refused_before_it_is_read() {
        let tmp = tempfile::tempdir().unwrap();
        let big = fs::File::create(tmp.path().join("big")).unwrap();
        big.set_len(limits().file_bytes + 1).unwrap();
        assert!(matches!(
            held(tmp.path()),
            Err(Refusal::FileTooLarge { .. })
        ));
    }
}
