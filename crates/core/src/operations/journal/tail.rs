//! A torn tail: the journal's last bytes after its last newline, left by a write cut short
//! (a full disk, a crash in the middle of the write). They are no entry, and an entry
//! appended after them would be glued onto them and lost with them; so before every append
//! they are copied aside to `journal.jsonl.torn-<millis>` (kept, never read again) and cut
//! off, under the journal's lock.

use std::fs::File;
use std::io::{self, Read as _, Seek, SeekFrom, Write as _};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use crate::fs::create_new;

/// How much of the journal is read at a time, from its end, to find its last newline.
const CHUNK: u64 = 64 << 10;

/// Cut a torn tail off the open, locked `file` at `path`, keeping it aside; where it was
/// kept, when there was one.
///
/// # Errors
/// When the journal cannot be read or cut, or the tail cannot be kept: nothing is cut then.
pub fn set_aside(file: &mut File, path: &Path) -> io::Result<Option<PathBuf>> {
    let len = file.metadata()?.len();
    let keep = last_line_end(file, len)?;
    if keep == len {
        return Ok(None);
    }
    let mut torn = Vec::new();
    file.seek(SeekFrom::Start(keep))?;
    file.take(len - keep).read_to_end(&mut torn)?;
    let aside = keep_aside(path, &torn)?;
    file.set_len(keep)?;
    file.sync_all()?;
    Ok(Some(aside))
}

/// Where the last whole line ends: just after the last newline, or 0 for none.
fn last_line_end(file: &mut File, len: u64) -> io::Result<u64> {
    let mut end = len;
    let mut chunk = Vec::new();
    while end > 0 {
        let start = end.saturating_sub(CHUNK);
        chunk.clear();
        file.seek(SeekFrom::Start(start))?;
        (&mut *file).take(end - start).read_to_end(&mut chunk)?;
        if let Some(at) = memchr::memrchr(b'\n', &chunk) {
            return Ok(start + at as u64 + 1);
        }
        end = start;
    }
    Ok(0)
}

/// Write `torn` to a new private file beside the journal, synced; its path.
fn keep_aside(path: &Path, torn: &[u8]) -> io::Result<PathBuf> {
    let millis = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis());
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    for attempt in 0..1000u32 {
        let aside = path.with_file_name(format!("{name}.torn-{millis}-{attempt}"));
        let mut out = match create_new(&aside, 0o600) {
            Ok(out) => out,
            Err(error) if error.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(error) => return Err(error),
        };
        out.write_all(torn)?;
        out.sync_all()?;
        return Ok(aside);
    }
    Err(io::Error::new(
        io::ErrorKind::AlreadyExists,
        "no free name to keep the journal's torn tail aside",
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn journal_with(bytes: &[u8]) -> (tempfile::TempDir, PathBuf, File) {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("journal.jsonl");
        std::fs::write(&path, bytes).unwrap();
        let file = std::fs::OpenOptions::new()
            .read(true)
            .append(true)
            .open(&path)
            .unwrap();
        (tmp, path, file)
    }

    #[test]
    fn a_tail_without_its_newline_is_kept_aside_and_cut() {
        let long = format!("{{\"a\":1}}\n{}", "x".repeat(200_000));
        let cases: [(&[u8], usize); 4] = [
            (b"{\"a\":1}\n{\"at\":\"half", 8),
            (b"{\"at\":\"only a half", 0),
            (b"{\"a\":1}\n{\"b\":2}", 8),
            (long.as_bytes(), 8),
        ];
        for (bytes, keep) in cases {
            let (_tmp, path, mut file) = journal_with(bytes);
            let aside = set_aside(&mut file, &path).unwrap().unwrap();
            assert_eq!(std::fs::read(&path).unwrap(), &bytes[..keep]);
            assert_eq!(std::fs::read(&aside).unwrap(), &bytes[keep..]);
        }
    }

    #[test]
    fn whole_lines_are_left_as_they_are() {
        for bytes in [&b""[..], b"{\"a\":1}\n", b"{\"a\":1}\nnot json\n"] {
            let (tmp, path, mut file) = journal_with(bytes);
            assert_eq!(set_aside(&mut file, &path).unwrap(), None);
            assert_eq!(std::fs::read(&path).unwrap(), bytes);
            assert_eq!(std::fs::read_dir(tmp.path()).unwrap().count(), 1);
        }
    }
}
