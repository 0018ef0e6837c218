//! The snapshot digest (skill-format-and-roots.md §3.2): SHA-256 over one line per file,
//! `%d:%s:%t:%x\n` — the length of the `/`-separated relative path, the path, whether the file
//! is executable, and the hex SHA-256 of its content — in the listing's byte order. The same
//! content gives the same digest on every machine: times, owners and the other mode bits do not
//! count, the executable bit does.
//!
//! It is not the installer's content digest (`record`): that one seals what an installer wrote,
//! this one names what a snapshot holds, links inside included.

use std::fmt;
use std::fs::File;
use std::io::{self, Read, Write};
use std::path::Path;

use serde::{Deserialize, Serialize};
use sha2::{Digest as _, Sha256};

use crate::limits::{DIGEST_FILE_BYTES, DIGEST_SKILL_BYTES};

use crate::fs::{At, Links, open_regular};
use crate::record::lower_hex;

use super::SnapshotError;
use super::walk::{Entry, Listing};

/// A snapshot digest, `sha256:` and 64 lower-case hex digits.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct SnapshotDigest(String);

impl SnapshotDigest {
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The first hex digits, enough to tell snapshots apart by eye.
    pub fn short(&self, digits: usize) -> &str {
        let hex = self.0.strip_prefix("sha256:").unwrap_or(&self.0);
        &hex[..digits.min(hex.len())]
    }
}

impl fmt::Display for SnapshotDigest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// The digest being built, one file at a time in listing order.
#[derive(Default)]
pub struct DigestBuilder(Sha256);

impl DigestBuilder {
    pub fn add(&mut self, rel: &str, executable: bool, content_hash: &[u8]) {
        let line = format!(
            "{}:{rel}:{executable}:{}\n",
            rel.len(),
            lower_hex(content_hash)
        );
        self.0.update(line.as_bytes());
    }

    pub fn finish(self) -> SnapshotDigest {
        SnapshotDigest(format!("sha256:{}", lower_hex(&self.0.finalize())))
    }
}

/// The digest of a skill folder's content as a snapshot would hold it, without copying
/// anything (seed 003's `ContentDigest`).
///
/// # Errors
/// When the folder is not a skill or a file cannot be read.
pub fn content_digest(dir: &Path) -> Result<SnapshotDigest, SnapshotError> {
    digest_listing(&Listing::read(dir)?)
}

/// The digest of the files of `listing`, read from disk.
///
/// # Errors
/// When a file cannot be opened or read.
pub fn digest_listing(listing: &Listing) -> Result<SnapshotDigest, SnapshotError> {
    let mut digest = DigestBuilder::default();
    let mut budget = HashBudget::default();
    for entry in &listing.files {
        let hash = match budget.spend(entry.size) {
            true => copy_hashing(entry, None)?.hash,
            false => unhashed(entry.size),
        };
        digest.add(&entry.rel, entry.executable, &hash);
    }
    Ok(digest.finish())
}

/// What a snapshot's digest may read of one skill: the content digest's budget
/// (`limits::DIGEST_FILE_BYTES` a file, `limits::DIGEST_SKILL_BYTES` a skill). A file past it
/// is digested by its size alone, judged by the size it reports before anything is read, so
/// one sparse file of terabytes costs nothing; only a skill over the copy bound, which a
/// snapshot truncates, can hold one.
#[derive(Default)]
pub struct HashBudget {
    spent: u64,
}

impl HashBudget {
    /// Whether a file of `size` bytes is read and hashed; counts it when it is.
    pub fn spend(&mut self, size: u64) -> bool {
        let fits =
            size <= DIGEST_FILE_BYTES && self.spent.saturating_add(size) <= DIGEST_SKILL_BYTES;
        if fits {
            self.spent += size;
        }
        fits
    }
}

/// The stand-in for the content hash of a file past the budget: its size, and a mark no
/// SHA-256 of content is.
pub fn unhashed(size: u64) -> [u8; 32] {
    Sha256::digest(format!("skilldeck: not hashed, {size} bytes").as_bytes()).into()
}

/// What reading one file found.
pub struct Copied {
    pub hash: [u8; 32],
    pub bytes: u64,
}

/// Read one listed file through a non-blocking, no-follow open (a FIFO swapped in never
/// hangs), hashing it and writing it to `to` when given.
///
/// # Errors
/// [`SnapshotError::Read`] for the source, [`SnapshotError::Write`] for the copy.
pub fn copy_hashing(entry: &Entry, mut to: Option<&mut File>) -> Result<Copied, SnapshotError> {
    let mut file =
        open_regular(&entry.source, Links::Refuse).at(&entry.source, SnapshotError::read)?;
    let mut hasher = Sha256::new();
    let mut bytes = 0u64;
    let mut buffer = [0u8; 64 * 1024];
    loop {
        let read = match file.read(&mut buffer) {
            Ok(0) => break,
            Ok(read) => read,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            Err(error) => return Err(SnapshotError::read(entry.source.clone(), error)),
        };
        hasher.update(&buffer[..read]);
        bytes += read as u64;
        if let Some(out) = to.as_deref_mut() {
            out.write_all(&buffer[..read])
                .at(&entry.rel, SnapshotError::write)?;
        }
    }
    Ok(Copied {
        hash: hasher.finalize().into(),
        bytes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    fn sha256_hex(bytes: &[u8]) -> String {
        lower_hex(&Sha256::digest(bytes))
    }

    /// The digest written out by hand from its definition, for one file.
    fn by_hand(rel: &str, executable: bool, content: &[u8]) -> SnapshotDigest {
        let line = format!("{}:{rel}:{executable}:{}\n", rel.len(), sha256_hex(content));
        SnapshotDigest(format!("sha256:{}", sha256_hex(line.as_bytes())))
    }

    #[test]
    fn one_file_digests_to_its_line() {
        let tmp = tempfile::tempdir().unwrap();
        fs::write(tmp.path().join("SKILL.md"), "hi\n").unwrap();
        assert_eq!(
            content_digest(tmp.path()).unwrap(),
            by_hand("SKILL.md", false, b"hi\n")
        );
    }

    #[cfg(unix)]
    #[test]
    fn the_executable_bit_and_every_byte_count_but_times_do_not() {
        use std::os::unix::fs::PermissionsExt;
        let tmp = tempfile::tempdir().unwrap();
        let file = tmp.path().join("SKILL.md");
        fs::write(&file, "hi\n").unwrap();
        let first = content_digest(tmp.path()).unwrap();
        fs::set_permissions(&file, fs::Permissions::from_mode(0o600)).unwrap();
        File::options()
            .append(true)
            .open(&file)
            .unwrap()
            .set_modified(std::time::UNIX_EPOCH)
            .unwrap();
        assert_eq!(content_digest(tmp.path()).unwrap(), first);
        fs::set_permissions(&file, fs::Permissions::from_mode(0o700)).unwrap();
        assert_eq!(
            content_digest(tmp.path()).unwrap(),
            by_hand("SKILL.md", true, b"hi\n")
        );
        fs::write(&file, "hi!\n").unwrap();
        assert_ne!(content_digest(tmp.path()).unwrap(), first);
    }

    #[test]
    fn short_takes_hex_digits_only() {
        let digest = by_hand("SKILL.md", false, b"");
        assert_eq!(digest.short(6).len(), 6);
        assert!(digest.as_str().ends_with(digest.short(64)));
    }
}
