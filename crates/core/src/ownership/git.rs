//! Git object ids, computed from files on disk the way `git hash-object` and `git write-tree`
//! compute them (SHA-1 over `"<type> <length>\0"` and the content), and the commit a clone has
//! checked out. gh skill and the skills CLI record a skill folder's tree id; SkillPort hashes
//! per-file blob ids.

use std::collections::BTreeMap;
use std::io;
use std::path::Path;

use sha1::{Digest as _, Sha1};

use super::FileProblem;
use super::walk::{Entry, Kind, stream};
use crate::fs::{Links, read_bounded};
use crate::limits::{GIT_REF_BYTES, PACKED_REFS_BYTES};
use crate::record::lower_hex;

/// The blob id of a file's content.
///
/// # Errors
/// When the file cannot be read whole.
pub fn blob_id(path: &Path, links: Links) -> io::Result<[u8; 20]> {
    let mut hasher = Sha1::new();
    stream(
        path,
        links,
        |length| format!("blob {length}\0").into_bytes(),
        |bytes| hasher.update(bytes),
    )?;
    Ok(hasher.finalize().into())
}

/// The tree id of a folder whose entries were listed by [`super::walk::list`], as git would
/// record it: regular files as blobs (mode 100755 when the owner may execute them, else
/// 100644), links as blobs of their target, folders as trees, and `.git` left out. A folder
/// with nothing in it is not in a tree, as git cannot hold one.
///
/// # Errors
/// When a file or link cannot be read, or an entry is neither file, folder nor link.
pub fn tree_id(entries: &[Entry]) -> io::Result<String> {
    let mut root = Tree::default();
    for entry in entries {
        if entry.parts().any(|part| part == ".git") {
            continue;
        }
        let (mode, id) = match entry.kind {
            Kind::Dir => continue,
            Kind::File { executable } => {
                let mode = if executable { "100755" } else { "100644" };
                (mode, blob_id(&entry.full, Links::Refuse)?)
            }
            Kind::Link => {
                // A link's blob is its target, exactly as written.
                let target = std::fs::read_link(&entry.full)?;
                let target = target.as_os_str().as_encoded_bytes();
                let mut hasher = Sha1::new();
                hasher.update(format!("blob {}\0", target.len()).as_bytes());
                hasher.update(target);
                ("120000", hasher.finalize().into())
            }
            Kind::Other => {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!("{} is neither a file, a folder nor a link", entry.path),
                ));
            }
        };
        root.insert(&entry.path, mode, id);
    }
    Ok(lower_hex(&root.id()))
}

/// A folder of a tree being built: its blobs and its sub-folders by name.
#[derive(Default)]
struct Tree {
    blobs: BTreeMap<String, (&'static str, [u8; 20])>,
    trees: BTreeMap<String, Tree>,
}

impl Tree {
    fn insert(&mut self, path: &str, mode: &'static str, id: [u8; 20]) {
        match path.split_once('/') {
            Some((folder, rest)) => self
                .trees
                .entry(folder.to_owned())
                .or_default()
                .insert(rest, mode, id),
            None => {
                self.blobs.insert(path.to_owned(), (mode, id));
            }
        }
    }

    fn id(&self) -> [u8; 20] {
        // Git sorts a tree's entries by name, a folder's name compared as if it ended in '/'.
        let mut entries: Vec<(String, &str, [u8; 20])> = self
            .blobs
            .iter()
            .map(|(name, (mode, id))| (name.clone(), *mode, *id))
            .collect();
        entries.extend(
            self.trees
                .iter()
                .map(|(name, tree)| (format!("{name}/"), "40000", tree.id())),
        );
        entries.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
        let mut body = Vec::new();
        for (name, mode, id) in entries {
            body.extend_from_slice(mode.as_bytes());
            body.push(b' ');
            body.extend_from_slice(name.trim_end_matches('/').as_bytes());
            body.push(0);
            body.extend_from_slice(&id);
        }
        let mut hasher = Sha1::new();
        hasher.update(format!("tree {}\0", body.len()).as_bytes());
        hasher.update(&body);
        hasher.finalize().into()
    }
}

/// The commit a clone at `repo` has checked out, read from its `.git` files without running
/// git: `HEAD` itself when detached, else the branch it names, loose or packed.
///
/// The clone is someone else's: each file is read only when it is a regular file within its
/// bound, so a `HEAD` that is a FIFO, a link to `/dev/zero` or a sparse file of gigabytes
/// gives no commit and a problem naming it, instead of a hang or a gigabyte of memory.
pub fn head_commit(repo: &Path, problems: &mut Vec<FileProblem>) -> Option<String> {
    let mut read = |path: &Path, limit: u64| match read_text(path, limit) {
        Ok(text) => text,
        Err(problem) => {
            problems.push(problem);
            None
        }
    };
    let mut git_dir = repo.join(".git");
    if std::fs::metadata(&git_dir).is_ok_and(|m| !m.is_dir()) {
        // A worktree or submodule: `.git` is a file naming the real folder.
        let pointer = read(&git_dir, GIT_REF_BYTES)?;
        let target = pointer.trim().strip_prefix("gitdir:")?.trim();
        git_dir = repo.join(target);
    }
    let head = read(&git_dir.join("HEAD"), GIT_REF_BYTES)?;
    let head = head.trim();
    let Some(branch) = head.strip_prefix("ref:").map(str::trim) else {
        return is_object_id(head).then(|| head.to_ascii_lowercase());
    };
    if let Some(loose) = read(&git_dir.join(branch), GIT_REF_BYTES) {
        let loose = loose.trim();
        return is_object_id(loose).then(|| loose.to_ascii_lowercase());
    }
    let packed = read(&git_dir.join("packed-refs"), PACKED_REFS_BYTES)?;
    packed.lines().find_map(|line| {
        let (id, name) = line.split_once(' ')?;
        (name == branch && is_object_id(id)).then(|| id.to_ascii_lowercase())
    })
}

/// A git file's text: `None` when it is missing or not text (git then sees no commit either),
/// a problem when it is there but not a regular file (links, as git's own are, followed) of at
/// most `limit` bytes.
fn read_text(path: &Path, limit: u64) -> Result<Option<String>, FileProblem> {
    match read_bounded(path, Links::Follow, limit) {
        Ok(bytes) => Ok(String::from_utf8(bytes).ok()),
        Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(error) => Err(FileProblem::Unreadable {
            path: path.to_path_buf(),
            reason: error.to_string(),
        }),
    }
}

/// Whether `text` is a full SHA-1 object id.
pub fn is_object_id(text: &str) -> bool {
    text.len() == 40 && text.bytes().all(|b| b.is_ascii_hexdigit())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    #[test]
    fn a_blob_id_is_what_git_hash_object_gives() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("hello");
        fs::write(&path, "hello\n").unwrap();
        // `printf 'hello\n' | git hash-object --stdin`
        assert_eq!(
            lower_hex(&blob_id(&path, Links::Refuse).unwrap()),
            "ce013625030ba8dba906f756967f9e9ca394464a"
        );
    }

    #[test]
    fn the_empty_tree_has_gits_well_known_id() {
        assert_eq!(
            tree_id(&[]).unwrap(),
            "4b825dc642cb6eb9a060e54bf8d69288fbee4904"
        );
    }

    #[test]
    fn head_is_read_loose_packed_and_detached() {
        let tmp = tempfile::tempdir().unwrap();
        let git = tmp.path().join(".git");
        fs::create_dir_all(git.join("refs/heads")).unwrap();
        let id = "a430d5c49c7759ebb877879e1556b6883bf1b60a";
        fs::write(git.join("HEAD"), "ref: refs/heads/main\n").unwrap();
        fs::write(
            git.join("packed-refs"),
            format!("# pack-refs with: peeled\n{id} refs/heads/main\n"),
        )
        .unwrap();
        assert_eq!(
            head_commit(tmp.path(), &mut Vec::new()).as_deref(),
            Some(id)
        );
        let newer = "b430d5c49c7759ebb877879e1556b6883bf1b60a";
        fs::write(git.join("refs/heads/main"), format!("{newer}\n")).unwrap();
        assert_eq!(
            head_commit(tmp.path(), &mut Vec::new()).as_deref(),
            Some(newer)
        );
        fs::write(git.join("HEAD"), format!("{id}\n")).unwrap();
        assert_eq!(
            head_commit(tmp.path(), &mut Vec::new()).as_deref(),
            Some(id)
        );
        fs::write(git.join("HEAD"), "garbage").unwrap();
        assert_eq!(head_commit(tmp.path(), &mut Vec::new()), None);
    }

    /// Each of a clone's git files may be anything: none is read past its bound or opened
    /// unless it is a regular file, and each refusal names the file.
    #[cfg(unix)]
    #[test]
    fn git_files_that_are_not_small_regular_files_are_named_not_read() {
        use crate::limits::{GIT_REF_BYTES, PACKED_REFS_BYTES};
        type Plant = fn(&Path);
        let fifo: Plant = crate::fs::mkfifo;
        let zero: Plant = |path| std::os::unix::fs::symlink("/dev/zero", path).unwrap();
        let sparse: Plant = |path| {
            fs::File::create(path).unwrap().set_len(8 << 30).unwrap();
        };
        let folder: Plant = |path| fs::create_dir(path).unwrap();
        let cases: [(&str, &str, Plant, &str); 6] = [
            ("HEAD", "HEAD", fifo, "it is a FIFO, not a regular file"),
            (
                "HEAD",
                "HEAD",
                zero,
                "it is a character device, not a regular file",
            ),
            (
                "HEAD",
                "HEAD",
                sparse,
                &format!("it is larger than {GIT_REF_BYTES} bytes"),
            ),
            (
                "refs/heads/main",
                "refs/heads/main",
                folder,
                "it is a folder, not a regular file",
            ),
            (
                "packed-refs",
                "packed-refs",
                sparse,
                &format!("it is larger than {PACKED_REFS_BYTES} bytes"),
            ),
            (".git", "", fifo, "it is a FIFO, not a regular file"),
        ];
        for (file, named, plant, reason) in cases {
            let tmp = tempfile::tempdir().unwrap();
            let git = tmp.path().join(".git");
            fs::create_dir_all(git.join("refs/heads")).unwrap();
            fs::write(git.join("HEAD"), "ref: refs/heads/main\n").unwrap();
            let planted = if file == ".git" {
                fs::remove_dir_all(&git).unwrap();
                git.clone()
            } else {
                let path = git.join(file);
                let _ = fs::remove_file(&path);
                path
            };
            plant(&planted);
            let mut problems = Vec::new();
            assert_eq!(head_commit(tmp.path(), &mut problems), None, "{file}");
            let expected = if named.is_empty() {
                git.clone()
            } else {
                git.join(named)
            };
            assert_eq!(
                problems,
                [FileProblem::Unreadable {
                    path: expected,
                    reason: reason.to_owned()
                }],
                "{file}"
            );
        }
    }
}
