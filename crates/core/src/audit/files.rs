//! A skill's files, as the audit reads them: walked through the folder's open handle (no link
//! below it followed, nothing but a regular file opened, as `fs` reads every untrusted
//! folder), within [`AUDIT`]. A file whose first bytes hold a NUL is not text: only those
//! first bytes are kept, for the magic numbers of a compiled program.

use std::ffi::OsStr;
use std::io::{self, Read};
use std::path::Path;

use crate::fs::{EntryKind, Folder};
use crate::limits::AUDIT;

/// The bytes read first of every file, to tell text from anything else: what git and grep
/// look at for the same question.
const SNIFF_BYTES: usize = 8 * 1024;

/// What the walk read of one file.
pub struct Content {
    /// The file's text (UTF-8, anything else replaced), or empty when it is not text.
    pub text: String,
    pub is_text: bool,
    /// Its first bytes, whatever it is.
    pub head: Vec<u8>,
    /// Text past [`AUDIT`]'s `file_bytes` was left unread.
    pub cut: bool,
}

pub struct File {
    /// Relative to the skill's folder, `/` between parts.
    pub relative: String,
    pub executable: bool,
    pub content: io::Result<Content>,
}

pub struct Walked {
    pub files: Vec<File>,
    /// More files, or deeper folders, than [`AUDIT`] reads.
    pub files_left: bool,
}

/// Every file of the skill at `dir`, in name order, `.git/` set aside.
///
/// # Errors
/// The open's or listing's own error for `dir` itself; a folder or file below it that cannot
/// be read is said in its [`File`] (or left, for a folder, as the digest's walk leaves it).
pub fn walk(dir: &Path) -> io::Result<Walked> {
    let mut folder = Folder::open(dir)?;
    let mut walked = Walked {
        files: Vec::new(),
        files_left: false,
    };
    let entries = folder.entries()?;
    walk_in(&folder, entries, "", 0, &mut walked);
    Ok(walked)
}

fn walk_in(
    folder: &Folder,
    entries: Vec<crate::fs::Entry>,
    prefix: &str,
    depth: usize,
    walked: &mut Walked,
) {
    for entry in entries {
        let name = entry.name.to_string_lossy();
        let relative = format!("{prefix}{name}");
        match entry.kind {
            EntryKind::Folder => {
                if name == ".git" {
                    continue;
                }
                if depth + 1 > AUDIT.depth {
                    walked.files_left = true;
                    continue;
                }
                let Ok(mut below) = folder.folder(&entry.name) else {
                    continue;
                };
                let Ok(entries) = below.entries() else {
                    continue;
                };
                walk_in(&below, entries, &format!("{relative}/"), depth + 1, walked);
            }
            EntryKind::File => {
                if walked.files.len() >= AUDIT.files {
                    walked.files_left = true;
                    return;
                }
                let (content, executable) = match read(folder, &entry.name) {
                    Ok((content, executable)) => (Ok(content), executable),
                    Err(error) => (Err(error), false),
                };
                walked.files.push(File {
                    relative,
                    executable,
                    content,
                });
            }
            // A link is what it points at, which is not the skill's to judge; what it points
            // at inside the skill is read there.
            EntryKind::Link | EntryKind::Other => {}
        }
    }
}

/// What the audit reads of a file held in memory (a bundle's, before it is installed): the
/// same sniff and the same bound as a file read from disk.
pub fn content_of(bytes: &[u8]) -> Content {
    let head: Vec<u8> = bytes.iter().copied().take(SNIFF_BYTES).collect();
    if head.contains(&0) {
        return Content {
            text: String::new(),
            is_text: false,
            head,
            cut: false,
        };
    }
    let bound = usize::try_from(AUDIT.file_bytes).unwrap_or(usize::MAX);
    let cut = bytes.len() > bound;
    let kept = &bytes[..bytes.len().min(bound)];
    Content {
        text: String::from_utf8_lossy(kept).into_owned(),
        is_text: true,
        head,
        cut,
    }
}

/// The file `name` of `folder`, and whether it is executable.
fn read(folder: &Folder, name: &OsStr) -> io::Result<(Content, bool)> {
    let (file, facts) = folder.file(name)?;
    let mut head = Vec::with_capacity(SNIFF_BYTES.min(usize::try_from(facts.len).unwrap_or(0)));
    let mut reader = file.take(AUDIT.file_bytes + 1);
    (&mut reader)
        .take(SNIFF_BYTES as u64)
        .read_to_end(&mut head)?;
    if head.contains(&0) {
        return Ok((
            Content {
                text: String::new(),
                is_text: false,
                head,
                cut: false,
            },
            facts.executable,
        ));
    }
    let mut bytes = head.clone();
    reader.read_to_end(&mut bytes)?;
    let cut = bytes.len() as u64 > AUDIT.file_bytes;
    if cut {
        bytes.truncate(usize::try_from(AUDIT.file_bytes).unwrap_or(usize::MAX));
    }
    let text = match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(error) => String::from_utf8_lossy(error.as_bytes()).into_owned(),
    };
    Ok((
        Content {
            text,
            is_text: true,
            head,
            cut,
        },
        facts.executable,
    ))
}
