//! What the app's viewer shows of one file of a skill: its first bytes as text, or that it is
//! binary, with its size. The file is reached only below the skill's folder (a link is followed
//! only where it stays inside the folder) and only when it is a regular file
//! ([`crate::fs::read`]), and at most [`VIEW_FILE_BYTES`] of it are read.

use std::io::Read;
use std::path::{Component, Path, PathBuf};

use crate::fs::{Links, open_regular};
use crate::limits::VIEW_FILE_BYTES;

/// One file as far as it was read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Peek {
    /// The size the file gives.
    pub size: u64,
    pub content: Content,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Content {
    /// Its text, not yet made safe to show; `cut` when the file holds more than was read.
    Text { text: String, cut: bool },
    /// Bytes that are not text (a NUL byte, or not UTF-8).
    Binary,
}

/// Why a file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum PeekError {
    #[error("{path} is not a path inside the skill's folder")]
    Outside { path: String },
    #[error("{path} is a link out of the skill's folder, to {target}; it is not shown")]
    LinkOut { path: String, target: String },
    #[error("{path} cannot be read: {}", crate::fs::said(.source))]
    Unreadable {
        path: String,
        source: std::io::Error,
    },
}

/// The file `relative` of the skill at `dir`, its first [`VIEW_FILE_BYTES`] at most.
///
/// # Errors
/// When `relative` leaves the folder (absolute, or through `..`), or the file is not a regular
/// file or cannot be read.
pub fn peek(dir: &Path, relative: &Path) -> Result<Peek, PeekError> {
    peek_within(dir, relative, VIEW_FILE_BYTES)
}

fn peek_within(dir: &Path, relative: &Path, limit: u64) -> Result<Peek, PeekError> {
    let shown = || relative.to_string_lossy().into_owned();
    let inside = relative
        .components()
        .all(|part| matches!(part, Component::Normal(_)));
    if !inside || relative.as_os_str().is_empty() {
        return Err(PeekError::Outside { path: shown() });
    }
    let unreadable = |source| PeekError::Unreadable {
        path: shown(),
        source,
    };
    // Where the path leads once every link on it is followed: a skill's own link to another
    // of its files is read, one out of the folder (to `~/.ssh`, say) is not.
    let folder = crate::fs::canonical(dir).map_err(unreadable)?;
    let path: PathBuf = crate::fs::canonical(dir.join(relative)).map_err(unreadable)?;
    if !path.starts_with(&folder) {
        return Err(PeekError::LinkOut {
            path: shown(),
            target: path.to_string_lossy().into_owned(),
        });
    }
    let file = open_regular(&path, Links::Refuse).map_err(unreadable)?;
    let size = file.metadata().map_err(unreadable)?.len();
    let mut bytes = Vec::with_capacity(usize::try_from(size.min(limit)).unwrap_or(0));
    // One byte past the bound tells a file cut short from one that is exactly the bound.
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(unreadable)?;
    let cut = bytes.len() as u64 > limit;
    bytes.truncate(usize::try_from(limit).unwrap_or(usize::MAX));
    Ok(Peek {
        size: size.max(bytes.len() as u64),
        content: content(bytes, cut),
    })
}

fn content(mut bytes: Vec<u8>, cut: bool) -> Content {
    if bytes.contains(&0) {
        return Content::Binary;
    }
    if cut {
        // The bound may fall inside a character: what is before it is still text.
        if let Err(error) = std::str::from_utf8(&bytes)
            && error.error_len().is_none()
        {
            bytes.truncate(error.valid_up_to());
        }
    }
    match String::from_utf8(bytes) {
        Ok(text) => Content::Text { text, cut },
        Err(_) => Content::Binary,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_binary_cut_and_outside_are_told_apart() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::write(tmp.path().join("a.md"), "héllo\n").unwrap();
        std::fs::write(tmp.path().join("b.bin"), [0x89, b'P', 0, 1]).unwrap();
        std::fs::write(tmp.path().join("c.txt"), "aé".repeat(10)).unwrap();
        let text = peek(tmp.path(), Path::new("a.md")).unwrap();
        assert_eq!(
            text.content,
            Content::Text {
                text: "héllo\n".to_owned(),
                cut: false
            }
        );
        let binary = peek(tmp.path(), Path::new("b.bin")).unwrap();
        assert_eq!((binary.size, binary.content), (4, Content::Binary));
        // Cut inside the `é` of the second pair: the half character is left out.
        let cut = peek_within(tmp.path(), Path::new("c.txt"), 5).unwrap();
        assert_eq!(
            (cut.size, cut.content),
            (
                30,
                Content::Text {
                    text: "aéa".to_owned(),
                    cut: true
                }
            )
        );
        for outside in ["../x", "/etc/passwd", ""] {
            assert!(matches!(
                peek(tmp.path(), Path::new(outside)),
                Err(PeekError::Outside { .. })
            ));
        }
        assert!(matches!(
            peek(tmp.path(), Path::new("missing")),
            Err(PeekError::Unreadable { .. })
        ));
    }

    #[cfg(unix)]
    #[test]
    fn a_link_is_read_only_while_it_stays_inside_the_folder() {
        use std::os::unix::fs::symlink;
        let tmp = tempfile::tempdir().unwrap();
        let skill = tmp.path().join("skill");
        std::fs::create_dir_all(skill.join("docs")).unwrap();
        std::fs::write(skill.join("docs/a.md"), "inside\n").unwrap();
        std::fs::write(tmp.path().join("secret"), "outside\n").unwrap();
        std::fs::create_dir(tmp.path().join("elsewhere")).unwrap();
        std::fs::write(tmp.path().join("elsewhere/b.md"), "outside too\n").unwrap();
        symlink("docs/a.md", skill.join("same.md")).unwrap();
        symlink("../secret", skill.join("key.md")).unwrap();
        symlink(tmp.path().join("elsewhere"), skill.join("more")).unwrap();
        let same = peek(&skill, Path::new("same.md")).unwrap();
        assert!(matches!(same.content, Content::Text { ref text, .. } if text == "inside\n"));
        for out in ["key.md", "more/b.md"] {
            assert!(
                matches!(peek(&skill, Path::new(out)), Err(PeekError::LinkOut { .. })),
                "{out}"
            );
        }
        // A skill that is itself a link (a linked skill) is read through it.
        symlink(&skill, tmp.path().join("linked")).unwrap();
        let through = peek(&tmp.path().join("linked"), Path::new("docs/a.md")).unwrap();
        assert_eq!(through.size, 7);
    }
}
