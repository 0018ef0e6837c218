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

use crate::fs::{EntryKind, FileFacts, Folder};
use crate::limits::{DIGEST_DEPTH, DIGEST_FILE_BYTES, DIGEST_SKILL_BYTES};
use crate::skill::SKILL_FILE;
use crate::text::human;
use serde::Serialize;
use sha2::{Digest as _, Sha256};

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
    #[error(
        "{} lies more than {DIGEST_DEPTH} folders deep; the content digest does not walk further",
        .0.display()
    )]
    TooDeep(PathBuf),
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
            Obstacle::FileOverBudget { .. } | Obstacle::SkillOverBudget(_) | Obstacle::TooDeep(_)
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
    /// The walk goes through each folder's open handle ([`Folder`]), visiting files in digest
    /// order, so each is opened once, by its name: its facts for the listing and its bytes for
    /// the hash come from the same open file. A file over [`DIGEST_FILE_BYTES`], or one that
    /// takes the skill over [`DIGEST_SKILL_BYTES`], is an obstacle found by its size before any
    /// of it is read; a folder more than [`DIGEST_DEPTH`] deep is one, unwalked.
    pub fn read(skill_dir: &Path, manifest: &[u8]) -> (Self, Result<Digest, Obstacle>) {
        match Folder::open(skill_dir) {
            Ok(folder) => Self::read_in(folder, manifest, None),
            Err(error) => {
                let mut walk = Walk::new(manifest, None);
                walk.unreadable(Path::new(""), &error);
                walk.finish()
            }
        }
    }

    /// As [`Contents::read`], for the skill folder already open as `folder`; `facts`, when
    /// given, are what the open of its top-level `SKILL.md` (a regular file of that very name)
    /// read of it, so that file is not asked about again.
    pub fn read_in(
        folder: Folder,
        manifest: &[u8],
        facts: Option<FileFacts>,
    ) -> (Self, Result<Digest, Obstacle>) {
        let mut walk = Walk::new(manifest, facts);
        walk.folder(folder, &mut PathBuf::new(), &mut String::new(), 0);
        walk.finish()
    }
}

impl<'m> Walk<'m> {
    fn new(manifest: &'m [u8], manifest_facts: Option<FileFacts>) -> Self {
        Walk {
            contents: Contents::default(),
            hasher: Sha256::new(),
            budget: DIGEST_SKILL_BYTES.saturating_sub(manifest.len() as u64),
            manifest,
            manifest_facts,
        }
    }

    fn finish(self) -> (Contents, Result<Digest, Obstacle>) {
        let Walk {
            contents, hasher, ..
        } = self;
        let digest = match contents.obstacles.first() {
            Some(obstacle) => Err(obstacle.clone()),
            None => Ok(finish(hasher)),
        };
        (contents, digest)
    }
}

/// A walk of one skill folder under way: what it found and the hash so far.
struct Walk<'m> {
    contents: Contents,
    hasher: Sha256,
    /// The bytes the skill may still have read.
    budget: u64,
    manifest: &'m [u8],
    /// What opening the top-level `SKILL.md` read of it, when that was the file by that name.
    manifest_facts: Option<FileFacts>,
}

impl Walk<'_> {
    /// Every entry of `folder`, which lies at `at` below the skill folder (`portable` is the
    /// same path as the digest frames it, kept beside it so no file costs a conversion) and
    /// `depth` folders down, in digest order.
    fn folder(
        &mut self,
        mut folder: Folder,
        at: &mut PathBuf,
        portable: &mut String,
        depth: usize,
    ) {
        let entries = match folder.entries() {
            Ok(entries) => entries,
            Err(error) => return self.unreadable(at, &error),
        };
        for entry in entries {
            if IGNORED_NAMES.iter().any(|ignored| entry.name == *ignored) {
                continue;
            }
            at.push(&entry.name);
            let parent_len = portable.len();
            if parent_len > 0 {
                portable.push('/');
            }
            portable.push_str(&entry.name.to_string_lossy());
            match entry.kind {
                EntryKind::Folder if depth == DIGEST_DEPTH => {
                    self.contents.obstacles.push(Obstacle::TooDeep(at.clone()));
                }
                EntryKind::Folder => match folder.folder(&entry.name) {
                    Ok(inner) => self.folder(inner, at, portable, depth + 1),
                    Err(error) => self.unreadable(at, &error),
                },
                EntryKind::Link => self.contents.obstacles.push(Obstacle::Link(at.clone())),
                EntryKind::Other => self.contents.obstacles.push(Obstacle::Special(at.clone())),
                EntryKind::File => self.file(&folder, &entry.name, at, portable),
            }
            portable.truncate(parent_len);
            at.pop();
        }
    }

    /// The regular file `name` of `folder`, at `at` (`portable` as the digest frames it):
    /// listed, and framed into the hash while no obstacle has made the digest impossible. Only
    /// a file to be hashed is opened; the top-level `SKILL.md` is framed from the bytes
    /// already read, with the facts its open read when there are some.
    fn file(&mut self, folder: &Folder, name: &std::ffi::OsStr, at: &Path, portable: &str) {
        // After an obstacle there is no digest to compute; the walk only lists.
        let hashing = self.contents.obstacles.is_empty();
        let manifest = portable == SKILL_FILE;
        if !hashing || manifest {
            let facts = match self.manifest_facts.filter(|_| manifest) {
                Some(facts) => Ok(facts),
                None => folder.facts(name),
            };
            match facts {
                Ok(facts) => {
                    if hashing {
                        frame(&mut self.hasher, portable, &blanked(self.manifest));
                    }
                    self.list(at, &facts);
                }
                Err(error) => self.unreadable(at, &error),
            }
            return;
        }
        let (file, facts) = match folder.file(name) {
            Ok(opened) => opened,
            Err(error) => return self.unreadable(at, &error),
        };
        let obstacle = match hash_file(&mut self.hasher, portable, file, &facts, &mut self.budget) {
            Ok(()) => None,
            Err(HashError::Io(error)) => {
                return self.unreadable(at, &error);
            }
            Err(HashError::Changed) => {
                return self
                    .contents
                    .obstacles
                    .push(Obstacle::Changed(at.to_path_buf()));
            }
            Err(HashError::FileOverBudget) => Some(Obstacle::FileOverBudget {
                path: at.to_path_buf(),
                size: facts.len,
            }),
            Err(HashError::SkillOverBudget) => Some(Obstacle::SkillOverBudget(at.to_path_buf())),
        };
        // A file left unread for its size is listed with it.
        self.contents.obstacles.extend(obstacle);
        self.list(at, &facts);
    }

    fn list(&mut self, at: &Path, facts: &FileFacts) {
        self.contents.files.push(SkillFile {
            path: at.to_path_buf(),
            size: facts.len,
            executable: facts.executable,
            modified: facts.modified,
        });
    }

    fn unreadable(&mut self, at: &Path, error: &io::Error) {
        self.contents.obstacles.push(Obstacle::Unreadable {
            path: at.to_path_buf(),
            error: crate::fs::said(error).to_string(),
        });
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
    frame_header(hasher, portable, content.len() as u64);
    hasher.update(content);
}

/// What the framing puts before a file's content: its path, a zero byte and its length as a
/// big-endian u64, for a file hashed from memory and one streamed from disk alike.
fn frame_header(hasher: &mut Sha256, portable: &str, length: u64) {
    hasher.update(portable.as_bytes());
    hasher.update([0]);
    hasher.update(length.to_be_bytes());
}

/// `SKILL.md` with every `content-digest` line of its frontmatter blanked, so a skill hashes
/// the same before and after the digest is written into it (§2.4).
pub fn blanked(skill_md: &[u8]) -> std::borrow::Cow<'_, [u8]> {
    let Ok(text) = std::str::from_utf8(skill_md) else {
        return std::borrow::Cow::Borrowed(skill_md);
    };
    // Most files have no digest line at all: nothing to blank, nothing to copy.
    if !text.contains(DIGEST_LINE) {
        return std::borrow::Cow::Borrowed(skill_md);
    }
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
    /// Unread: more than a file's budget, or more than what is left of the skill's.
    FileOverBudget,
    SkillOverBudget,
}

/// Frame one open file, of the size its check read, into the hash, streamed; what it holds
/// is taken from `budget`, the bytes the skill may still have read. A file whose length
/// differs from what was read changed under the walk; its digest would be meaningless.
fn hash_file(
    hasher: &mut Sha256,
    portable: &str,
    file: std::fs::File,
    facts: &FileFacts,
    budget: &mut u64,
) -> Result<(), HashError> {
    READ_BUFFER
        .with_borrow_mut(|buffer| hash_file_with(hasher, portable, file, facts, buffer, budget))
}

thread_local! {
    /// One read buffer per scanning thread, rather than one allocated (and zeroed) per file.
    static READ_BUFFER: std::cell::RefCell<Vec<u8>> = std::cell::RefCell::new(vec![0; 64 * 1024]);
}

fn hash_file_with(
    hasher: &mut Sha256,
    portable: &str,
    mut file: std::fs::File,
    facts: &FileFacts,
    buffer: &mut [u8],
    budget: &mut u64,
) -> Result<(), HashError> {
    let length = facts.len;
    // The size the open file gives, before a byte is read: a sparse file of terabytes costs
    // nothing to make and would cost hours to hash.
    if length > DIGEST_FILE_BYTES {
        return Err(HashError::FileOverBudget);
    }
    if length > *budget {
        return Err(HashError::SkillOverBudget);
    }
    *budget -= length;
    frame_header(hasher, portable, length);
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
        Ok(())
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

    /// The walk from an open folder, given the facts the manifest's open read, lists and
    /// digests exactly what the walk by path does, and a digest line is still blanked.
    #[test]
    fn a_walk_given_the_manifest_facts_is_the_walk_by_path() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        let manifest: &[u8] =
            b"---\nname: a\nmetadata:\n  content-digest: \"sha256:1\"\n---\nBody\n";
        write(
            dir,
            &[
                ("SKILL.md", manifest),
                ("references/guide.md", b"guide"),
                ("scripts/run.sh", b"echo"),
            ],
        );
        let facts = crate::fs::Folder::open(dir)
            .unwrap()
            .file(std::ffi::OsStr::new("SKILL.md"))
            .unwrap()
            .1;
        let by_path = Contents::read(dir, manifest);
        let through =
            Contents::read_in(crate::fs::Folder::open(dir).unwrap(), manifest, Some(facts));
        assert_eq!(through, by_path);
        assert_eq!(through.0.files.len(), 3);
        assert_eq!(
            through.1.unwrap(),
            digest_of([
                (Path::new("SKILL.md"), manifest),
                (Path::new("references/guide.md"), &b"guide"[..]),
                (Path::new("scripts/run.sh"), &b"echo"[..]),
            ])
        );
        assert_eq!(
            blanked(manifest).as_ref(),
            &b"---\nname: a\nmetadata:\n  content-digest: \"\"\n---\nBody\n"[..]
        );
        assert!(matches!(
            blanked(b"---\nname: a\n---\n"),
            std::borrow::Cow::Borrowed(_)
        ));
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
    fn a_folder_deeper_than_the_walk_goes_stops_the_digest_and_is_named() {
        let tmp = tempfile::tempdir().unwrap();
        write(tmp.path(), &[("SKILL.md", b"---\nname: x\n---\n")]);
        let deepest: PathBuf = std::iter::repeat_n("d", DIGEST_DEPTH).collect();
        write(
            tmp.path(),
            &[(deepest.join("f.md").to_str().unwrap(), b"f")],
        );
        let (contents, digest) = {
            let manifest = fs::read(tmp.path().join(SKILL_FILE)).unwrap();
            Contents::read(tmp.path(), &manifest)
        };
        assert!(digest.is_ok(), "{digest:?}");
        assert!(
            contents
                .files
                .iter()
                .any(|f| f.path == deepest.join("f.md"))
        );

        let too_deep = deepest.join("d");
        write(
            tmp.path(),
            &[(too_deep.join("g.md").to_str().unwrap(), b"g")],
        );
        let manifest = fs::read(tmp.path().join(SKILL_FILE)).unwrap();
        let (contents, digest) = Contents::read(tmp.path(), &manifest);
        let expected = Obstacle::TooDeep(too_deep.clone());
        assert_eq!(digest, Err(expected.clone()));
        assert!(expected.is_over_budget());
        assert_eq!(contents.obstacles, [expected]);
        // What lies above it is still listed; nothing below it is.
        assert!(
            contents
                .files
                .iter()
                .any(|f| f.path == deepest.join("f.md"))
        );
        assert!(!contents.files.iter().any(|f| f.path.starts_with(&too_deep)));
        assert!(
            digest.unwrap_err().to_string().ends_with(
                "lies more than 96 folders deep; the content digest does not walk further"
            )
        );
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
    fn a_fifo_or_socket_inside_is_named_never_opened_and_the_walk_goes_on() {
        let tmp = tempfile::tempdir().unwrap();
        write(tmp.path(), &[("SKILL.md", b"s"), ("sub/z.md", b"z")]);
        crate::fs::mkfifo(&tmp.path().join("sub/pipe"));
        let _socket = std::os::unix::net::UnixListener::bind(tmp.path().join("a-socket")).unwrap();
        let contents = listed(tmp.path());
        assert_eq!(
            contents.obstacles,
            [
                Obstacle::Special(PathBuf::from("a-socket")),
                Obstacle::Special(PathBuf::from("sub/pipe")),
            ]
        );
        let names: Vec<String> = contents
            .files
            .iter()
            .map(|f| portable_path(&f.path))
            .collect();
        assert_eq!(names, ["SKILL.md", "sub/z.md"]);
    }

    #[test]
    fn a_missing_folder_is_one_unreadable_obstacle() {
        let tmp = tempfile::tempdir().unwrap();
        let (contents, digest) = Contents::read(&tmp.path().join("gone"), b"");
        assert!(contents.files.is_empty());
        assert!(matches!(
            &digest,
            Err(Obstacle::Unreadable { path, .. }) if path.as_os_str().is_empty()
        ));
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
