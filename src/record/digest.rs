//! The content digest agent-skill-installer 0.2.1 seals a skill with
//! (ownership-record-and-digest.md §2.1–2.5), computed from disk without holding the files in
//! memory.
//!
//! The file set: every regular file below the skill directory, `.DS_Store` and `Thumbs.db`
//! left out at every depth; a link or any other kind of entry makes the digest impossible (the
//! installer then calls the skill modified). The order: Rust's `Path` order, component by
//! component, which is what a depth-first walk with each directory sorted by name gives. The
//! framing per file: the `/`-joined path, a zero byte, the content length as a big-endian u64,
//! the content; the top-level `SKILL.md` hashed with its `content-digest` line blanked.

use std::fmt;
use std::io::{self, Read};
use std::path::{Component, Path, PathBuf};
use std::time::SystemTime;

use serde::Serialize;
use sha2::{Digest as _, Sha256};
use walkdir::WalkDir;

use crate::fs::{Links, open_regular_with_metadata};
use crate::limits::{DIGEST_FILE_BYTES, DIGEST_SKILL_BYTES};
use crate::skill::SKILL_FILE;
use crate::text::human;

/// Names the installer never counts: what file managers leave in a folder someone looked at.
pub const IGNORED_NAMES: [&str; 2] = [".DS_Store", "Thumbs.db"];

/// The line the digest sits on, in the shape the installer writes it.
const DIGEST_LINE: &str = "  content-digest: ";

/// A content digest, `sha256:` and 64 lower-case hex digits.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(transparent)]
pub struct Digest(String);

impl Digest {
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Digest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl PartialEq<str> for Digest {
    fn eq(&self, other: &str) -> bool {
        self.0 == other
    }
}

/// One regular file of a skill.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SkillFile {
    /// The path below the skill directory.
    pub path: PathBuf,
    pub size: u64,
    pub executable: bool,
    pub modified: Option<SystemTime>,
}

/// An entry that keeps a skill's digest from being computed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Obstacle {
    #[error("{} is a symbolic link; the installer's digest covers regular files only", .0.display())]
    Link(PathBuf),
    #[error("{} is neither a file nor a directory", .0.display())]
    Special(PathBuf),
    #[error("{} could not be read: {error}", .path.display())]
    Unreadable { path: PathBuf, error: String },
    #[error("{} changed while it was being read", .0.display())]
    Changed(PathBuf),
    #[error(
        "{} is {}, more than the {} of one file the content digest reads; the skill's digest is not computed",
        .path.display(),
        human::size(*.size),
        human::size(DIGEST_FILE_BYTES)
    )]
    FileOverBudget { path: PathBuf, size: u64 },
    #[error(
        "{} takes the skill past the {} the content digest reads of one skill; the skill's digest is not computed",
        .0.display(),
        human::size(DIGEST_SKILL_BYTES)
    )]
    SkillOverBudget(PathBuf),
}

impl Obstacle {
    /// Whether the entry is something the installer never writes (so a recorded skill holding
    /// it has been modified), rather than something skilldeck could not read.
    pub fn is_foreign_entry(&self) -> bool {
        matches!(self, Obstacle::Link(_) | Obstacle::Special(_))
    }

    /// Whether the files were left unread for being more than the digest's budget: nothing
    /// is known of them then, neither that they match nor that they differ.
    pub fn is_over_budget(&self) -> bool {
        matches!(
            self,
            Obstacle::FileOverBudget { .. } | Obstacle::SkillOverBudget(_)
        )
    }
}

/// What a walk of a skill directory found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Contents {
    /// The regular files, in the order the digest takes them.
    pub files: Vec<SkillFile>,
    /// Entries that are not regular files or could not be read, in walk order.
    pub obstacles: Vec<Obstacle>,
}

impl Contents {
    /// Walk `skill_dir` (a link to a directory is followed; links inside are not) and digest
    /// it on the way, `manifest` being the bytes of its top-level `SKILL.md` as already read.
    ///
    /// The walk visits files in digest order, so each is opened once: its metadata for the
    /// listing and its bytes for the hash come from the same open file. A file over
    /// [`DIGEST_FILE_BYTES`], or one that takes the skill over [`DIGEST_SKILL_BYTES`], is an
    /// obstacle found by its size before any of it is read.
    pub fn read(skill_dir: &Path, manifest: &[u8]) -> (Self, Result<Digest, Obstacle>) {
        let mut contents = Contents::default();
        let mut hasher = Sha256::new();
        let mut budget = DIGEST_SKILL_BYTES.saturating_sub(manifest.len() as u64);
        let walk = WalkDir::new(skill_dir)
            .min_depth(1)
            .follow_links(false)
            .sort_by_file_name()
            .into_iter()
            .filter_entry(|entry| {
                !IGNORED_NAMES
                    .iter()
                    .any(|ignored| entry.file_name() == *ignored)
            });
        for entry in walk {
            let entry = match entry {
                Ok(entry) => entry,
                Err(error) => {
                    let path = error
                        .path()
                        .and_then(|p| p.strip_prefix(skill_dir).ok())
                        .map(Path::to_path_buf)
                        .unwrap_or_default();
                    contents.obstacles.push(Obstacle::Unreadable {
                        path,
                        error: error.to_string(),
                    });
                    continue;
                }
            };
            let relative = entry
                .path()
                .strip_prefix(skill_dir)
                .map(Path::to_path_buf)
                .unwrap_or_default();
            let kind = entry.file_type();
            if kind.is_dir() {
                continue;
            }
            if kind.is_symlink() {
                contents.obstacles.push(Obstacle::Link(relative));
                continue;
            }
            if !kind.is_file() {
                contents.obstacles.push(Obstacle::Special(relative));
                continue;
            }
            let portable = portable_path(&relative);
            // After an obstacle there is no digest to compute; the walk only lists.
            let hashing = contents.obstacles.is_empty();
            let read = if hashing && portable == SKILL_FILE {
                frame(&mut hasher, &portable, &blanked(manifest));
                entry.metadata().map_err(|e| HashError::Io(e.into()))
            } else if hashing {
                hash_file(&mut hasher, &portable, entry.path(), &mut budget)
            } else {
                entry.metadata().map_err(|e| HashError::Io(e.into()))
            };
            match read {
                Ok(meta) => contents.files.push(listed_file(relative, &meta)),
                Err(HashError::Io(error)) => contents.obstacles.push(Obstacle::Unreadable {
                    path: relative,
                    error: error.to_string(),
                }),
                Err(HashError::Changed) => {
                    contents.obstacles.push(Obstacle::Changed(relative));
                }
                Err(HashError::FileOverBudget(meta)) => {
                    contents.obstacles.push(Obstacle::FileOverBudget {
                        path: relative.clone(),
                        size: meta.len(),
                    });
                    contents.files.push(listed_file(relative, &meta));
                }
                Err(HashError::SkillOverBudget(meta)) => {
                    contents
                        .obstacles
                        .push(Obstacle::SkillOverBudget(relative.clone()));
                    contents.files.push(listed_file(relative, &meta));
                }
            }
        }
        let digest = match contents.obstacles.first() {
            Some(obstacle) => Err(obstacle.clone()),
            None => Ok(finish(hasher)),
        };
        (contents, digest)
    }
}

/// A file of the listing, from its metadata.
fn listed_file(path: PathBuf, meta: &std::fs::Metadata) -> SkillFile {
    SkillFile {
        path,
        size: meta.len(),
        executable: is_executable(meta),
        modified: meta.modified().ok(),
    }
}

/// The digest of files held in memory, keyed by their path below the skill directory: what an
/// installer computes before it writes anything.
pub fn digest_of<'a>(files: impl IntoIterator<Item = (&'a Path, &'a [u8])>) -> Digest {
    let mut sorted: Vec<(&Path, &[u8])> = files.into_iter().collect();
    sorted.sort_by(|a, b| a.0.cmp(b.0));
    let mut hasher = Sha256::new();
    for (path, content) in sorted {
        let portable = portable_path(path);
        let content = if portable == SKILL_FILE {
            blanked(content)
        } else {
            std::borrow::Cow::Borrowed(content)
        };
        frame(&mut hasher, &portable, &content);
    }
    finish(hasher)
}

/// One file in the digest's framing: path, a zero byte, length, content.
fn frame(hasher: &mut Sha256, portable: &str, content: &[u8]) {
    hasher.update(portable.as_bytes());
    hasher.update([0]);
    hasher.update((content.len() as u64).to_be_bytes());
    hasher.update(content);
}

/// `SKILL.md` with every `content-digest` line of its frontmatter blanked, so a skill hashes
/// the same before and after the digest is written into it (§2.4).
pub fn blanked(skill_md: &[u8]) -> std::borrow::Cow<'_, [u8]> {
    let Ok(text) = std::str::from_utf8(skill_md) else {
        return std::borrow::Cow::Borrowed(skill_md);
    };
    let mut out = String::with_capacity(text.len());
    let mut in_frontmatter = false;
    for (index, line) in text.split_inclusive('\n').enumerate() {
        let bare = line.trim_end_matches(['\n', '\r']);
        if bare == "---" {
            in_frontmatter = index == 0;
        }
        if in_frontmatter && bare.starts_with(DIGEST_LINE) {
            out.push_str(DIGEST_LINE);
            out.push_str("\"\"");
            out.push_str(&line[bare.len()..]);
        } else {
            out.push_str(line);
        }
    }
    std::borrow::Cow::Owned(out.into_bytes())
}

enum HashError {
    Io(io::Error),
    Changed,
    /// Unread: more than a file's budget, or more than what is left of the skill's; the
    /// file's metadata, for the listing.
    FileOverBudget(Box<std::fs::Metadata>),
    SkillOverBudget(Box<std::fs::Metadata>),
}

/// Frame one file into the hash, streamed, and give its metadata; what it holds is taken from
/// `budget`, the bytes the skill may still have read. A file whose length differs from what
/// was read changed under the walk; its digest would be meaningless.
fn hash_file(
    hasher: &mut Sha256,
    portable: &str,
    path: &Path,
    budget: &mut u64,
) -> Result<std::fs::Metadata, HashError> {
    READ_BUFFER.with_borrow_mut(|buffer| hash_file_with(hasher, portable, path, buffer, budget))
}

thread_local! {
    /// One read buffer per scanning thread, rather than one allocated (and zeroed) per file.
    static READ_BUFFER: std::cell::RefCell<Vec<u8>> = std::cell::RefCell::new(vec![0; 64 * 1024]);
}

fn hash_file_with(
    hasher: &mut Sha256,
    portable: &str,
    path: &Path,
    buffer: &mut [u8],
    budget: &mut u64,
) -> Result<std::fs::Metadata, HashError> {
    let (mut file, meta) =
        open_regular_with_metadata(path, Links::Refuse).map_err(HashError::Io)?;
    let length = meta.len();
    // The size the open file gives, before a byte is read: a sparse file of terabytes costs
    // nothing to make and would cost hours to hash.
    if length > DIGEST_FILE_BYTES {
        return Err(HashError::FileOverBudget(Box::new(meta)));
    }
    if length > *budget {
        return Err(HashError::SkillOverBudget(Box::new(meta)));
    }
    *budget -= length;
    hasher.update(portable.as_bytes());
    hasher.update([0]);
    hasher.update(length.to_be_bytes());
    let mut read_total = 0u64;
    loop {
        let read = match file.read(buffer) {
            Ok(0) => break,
            Ok(read) => read,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            Err(error) => return Err(HashError::Io(error)),
        };
        read_total += read as u64;
        if read_total > length {
            return Err(HashError::Changed);
        }
        hasher.update(&buffer[..read]);
    }
    if read_total == length {
        Ok(meta)
    } else {
        Err(HashError::Changed)
    }
}

fn finish(hasher: Sha256) -> Digest {
    Digest(format!("sha256:{}", lower_hex(&hasher.finalize())))
}

/// Bytes as lower-case hexadecimal, the way every installer writes its hashes.
pub fn lower_hex(bytes: &[u8]) -> String {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut text = String::with_capacity(bytes.len() * 2);
    for byte in bytes {
        text.push(char::from(HEX[usize::from(byte >> 4)]));
        text.push(char::from(HEX[usize::from(byte & 0xf)]));
    }
    text
}

/// A relative path with `/` between its parts on every platform; a part that is not UTF-8 is
/// written lossily, as the installer writes it.
pub fn portable_path(path: &Path) -> String {
    let mut out = String::new();
    for component in path.components() {
        if let Component::Normal(part) = component {
            if !out.is_empty() {
                out.push('/');
            }
            out.push_str(&part.to_string_lossy());
        }
    }
    out
}

/// Whether any execute bit is set: the one part of a file's mode a skill's content keeps.
#[cfg(unix)]
pub(crate) fn is_executable(meta: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::PermissionsExt;
    meta.permissions().mode() & 0o111 != 0
}

#[cfg(not(unix))]
pub(crate) fn is_executable(_meta: &std::fs::Metadata) -> bool {
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    /// ownership-record-and-digest.md §2.7(a): the installer's own golden vector.
    const GOLDEN: &str = "sha256:6cc04206c47535a97a74d522b2dcc77d36d66e7cae2f3ddcae4f949e6bd5d252";

    fn write(dir: &Path, files: &[(&str, &[u8])]) {
        for (path, content) in files {
            let path = dir.join(path);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, content).unwrap();
        }
    }

    fn digest_on_disk(dir: &Path) -> Result<Digest, Obstacle> {
        let manifest = fs::read(dir.join(SKILL_FILE)).unwrap();
        Contents::read(dir, &manifest).1
    }

    fn listed(dir: &Path) -> Contents {
        let manifest = fs::read(dir.join(SKILL_FILE)).unwrap_or_default();
        Contents::read(dir, &manifest).0
    }

    /// Sparse files: their sizes cost nothing on disk, and only those within the budget are
    /// read.
    fn sparse(path: &Path, size: u64) {
        fs::File::create(path).unwrap().set_len(size).unwrap();
    }

    #[test]
    fn a_file_over_the_digest_budget_is_refused_by_its_size_unread() {
        for size in [DIGEST_FILE_BYTES + 1, 32 << 30, 8 << 40] {
            let tmp = tempfile::tempdir().unwrap();
            write(
                tmp.path(),
                &[("SKILL.md", b"---\nname: x\n---\n"), ("z.md", b"z")],
            );
            sparse(&tmp.path().join("big.bin"), size);
            let manifest = fs::read(tmp.path().join(SKILL_FILE)).unwrap();
            let (contents, digest) = Contents::read(tmp.path(), &manifest);
            let expected = Obstacle::FileOverBudget {
                path: PathBuf::from("big.bin"),
                size,
            };
            assert_eq!(digest, Err(expected.clone()), "{size}");
            assert_eq!(contents.obstacles, [expected], "{size}");
            assert!(digest.unwrap_err().to_string().starts_with("big.bin is "));
            // The listing goes on: every file, the big one with its size.
            let sizes: Vec<(&Path, u64)> = contents
                .files
                .iter()
                .map(|f| (f.path.as_path(), f.size))
                .collect();
            assert_eq!(
                sizes,
                [
                    (Path::new("SKILL.md"), manifest.len() as u64),
                    (Path::new("big.bin"), size),
                    (Path::new("z.md"), 1)
                ]
            );
        }
    }

    #[test]
    fn a_file_at_the_budget_is_read() {
        let tmp = tempfile::tempdir().unwrap();
        write(tmp.path(), &[("SKILL.md", b"---\nname: x\n---\n")]);
        sparse(&tmp.path().join("big.bin"), DIGEST_FILE_BYTES);
        assert!(digest_on_disk(tmp.path()).is_ok());
    }

    #[test]
    fn files_that_together_pass_the_skill_budget_stop_the_digest_at_the_one_that_does() {
        let tmp = tempfile::tempdir().unwrap();
        write(tmp.path(), &[("SKILL.md", b"---\nname: x\n---\n")]);
        // Each within a file's budget; the fourth takes the skill, its SKILL.md counted, past.
        let each = DIGEST_SKILL_BYTES / 4;
        for name in ["a.bin", "b.bin", "c.bin", "d.bin", "e.bin"] {
            sparse(&tmp.path().join(name), each);
        }
        let (contents, digest) = {
            let manifest = fs::read(tmp.path().join(SKILL_FILE)).unwrap();
            Contents::read(tmp.path(), &manifest)
        };
        let expected = Obstacle::SkillOverBudget(PathBuf::from("d.bin"));
        assert_eq!(digest, Err(expected.clone()));
        assert_eq!(contents.obstacles, [expected]);
        assert_eq!(contents.files.len(), 6);
        assert!(
            digest
                .unwrap_err()
                .to_string()
                .starts_with("d.bin takes the skill past the 256.0 MiB")
        );
    }

    #[test]
    fn the_installers_golden_vector_from_memory_and_from_disk() {
        let files: [(&str, &[u8]); 2] = [
            ("SKILL.md", b"---\nname: x\n---\nbody\n"),
            ("references/cli.md", b"# CLI\n"),
        ];
        let in_memory = digest_of(files.iter().map(|(p, c)| (Path::new(*p), *c)));
        assert_eq!(in_memory, *GOLDEN);
        let tmp = tempfile::tempdir().unwrap();
        write(tmp.path(), &files);
        assert_eq!(digest_on_disk(tmp.path()).unwrap(), *GOLDEN);
    }

    #[test]
    fn a_real_install_reads_back_as_its_recorded_digest() {
        // §2.7(b): the SKILL.md agent-skill-installer wrote for its demo skill, and its record.
        let skill_md = "---\nname: \"demo-skill\"\ndescription: \"A tiny demo skill. Use it to test readers.\"\nlicense: \"MIT\"\nmetadata:\n  author: \"Jane \\\"JJ\\\" Doe\"\n  installed-by: \"demo-prog\"\n  installed-version: \"1.0.0\"\n  content-digest: \"sha256:bcfb24e86bef216d74147cffcb1cbfc1d5f536bf97966d86a99fe9566fbe30e5\"\n---\n# Demo\n\nHello.\n";
        assert_eq!(skill_md.len(), 302);
        let tmp = tempfile::tempdir().unwrap();
        write(
            tmp.path(),
            &[
                ("SKILL.md", skill_md.as_bytes()),
                ("references/cli.md", b"# CLI\n"),
            ],
        );
        assert_eq!(
            digest_on_disk(tmp.path()).unwrap(),
            *"sha256:bcfb24e86bef216d74147cffcb1cbfc1d5f536bf97966d86a99fe9566fbe30e5"
        );
    }

    #[test]
    fn files_are_taken_in_component_order_not_string_order() {
        let tmp = tempfile::tempdir().unwrap();
        write(
            tmp.path(),
            &[
                ("SKILL.md", b"x"),
                ("a-b.md", b"1"),
                ("a.md", b"2"),
                ("a/x.md", b"3"),
                ("Makefile", b"4"),
            ],
        );
        let order: Vec<String> = listed(tmp.path())
            .files
            .iter()
            .map(|f| portable_path(&f.path))
            .collect();
        assert_eq!(order, ["Makefile", "SKILL.md", "a/x.md", "a-b.md", "a.md"]);
    }

    #[test]
    fn blanking_touches_only_digest_lines_inside_the_frontmatter() {
        let text = b"---\nmetadata:\n  content-digest: \"sha256:abc\"\r\n---\n  content-digest: \"keep\"\n";
        let blanked = blanked(text);
        assert_eq!(
            &*blanked,
            b"---\nmetadata:\n  content-digest: \"\"\r\n---\n  content-digest: \"keep\"\n"
        );
        let not_opened = b"x\n---\n  content-digest: \"keep\"\n";
        assert_eq!(&*super::blanked(not_opened), not_opened);
        let binary = b"\xff---\n";
        assert_eq!(&*super::blanked(binary), binary);
    }

    #[test]
    fn ignored_names_and_empty_directories_do_not_change_the_digest() {
        let tmp = tempfile::tempdir().unwrap();
        write(tmp.path(), &[("SKILL.md", b"s"), ("a.md", b"a")]);
        let before = digest_on_disk(tmp.path()).unwrap();
        write(
            tmp.path(),
            &[(".DS_Store", b"junk"), ("sub/Thumbs.db", b"junk")],
        );
        fs::create_dir_all(tmp.path().join("empty/deeper")).unwrap();
        fs::create_dir_all(tmp.path().join(".DS_Store-dir/.DS_Store")).unwrap();
        fs::write(tmp.path().join(".DS_Store-dir/.DS_Store/inside"), "x").unwrap();
        // `.DS_Store-dir` is not ignored, but the `.DS_Store` folder inside it is, whole.
        assert_eq!(digest_on_disk(tmp.path()).unwrap(), before);
    }

    #[test]
    fn an_edit_an_added_file_and_a_renamed_file_all_change_it() {
        let tmp = tempfile::tempdir().unwrap();
        write(tmp.path(), &[("SKILL.md", b"s"), ("a.md", b"a")]);
        let original = digest_on_disk(tmp.path()).unwrap();
        fs::write(tmp.path().join("a.md"), "b").unwrap();
        let edited = digest_on_disk(tmp.path()).unwrap();
        assert_ne!(edited, original);
        fs::write(tmp.path().join("new.md"), "").unwrap();
        assert_ne!(digest_on_disk(tmp.path()).unwrap(), edited);
        fs::remove_file(tmp.path().join("new.md")).unwrap();
        fs::rename(tmp.path().join("a.md"), tmp.path().join("b.md")).unwrap();
        assert_ne!(digest_on_disk(tmp.path()).unwrap(), edited);
    }

    #[cfg(unix)]
    #[test]
    fn every_link_is_listed_and_the_files_after_one_still_are() {
        let tmp = tempfile::tempdir().unwrap();
        write(tmp.path(), &[("SKILL.md", b"s"), ("z.md", b"z")]);
        std::os::unix::fs::symlink("SKILL.md", tmp.path().join("a-link")).unwrap();
        std::os::unix::fs::symlink("z.md", tmp.path().join("b-link")).unwrap();
        let contents = listed(tmp.path());
        assert_eq!(contents.obstacles.len(), 2);
        let names: Vec<String> = contents
            .files
            .iter()
            .map(|f| portable_path(&f.path))
            .collect();
        assert_eq!(names, ["SKILL.md", "z.md"]);
    }

    #[cfg(unix)]
    #[test]
    fn a_link_inside_stops_the_digest_and_is_named() {
        let tmp = tempfile::tempdir().unwrap();
        write(tmp.path(), &[("SKILL.md", b"s")]);
        std::os::unix::fs::symlink("SKILL.md", tmp.path().join("alias.md")).unwrap();
        assert_eq!(
            digest_on_disk(tmp.path()),
            Err(Obstacle::Link(PathBuf::from("alias.md")))
        );
    }

    #[cfg(unix)]
    #[test]
    fn the_executable_bit_is_listed_but_not_hashed() {
        use std::os::unix::fs::PermissionsExt;
        let tmp = tempfile::tempdir().unwrap();
        write(tmp.path(), &[("SKILL.md", b"s"), ("run.sh", b"echo")]);
        let before = digest_on_disk(tmp.path()).unwrap();
        fs::set_permissions(tmp.path().join("run.sh"), fs::Permissions::from_mode(0o755)).unwrap();
        let contents = listed(tmp.path());
        assert!(contents.files.iter().any(|f| f.executable));
        assert_eq!(digest_on_disk(tmp.path()).unwrap(), before);
    }
}
