//! Where a skill skilldeck installed from a git source came from: the repository as the user
//! gave it, the ref asked for, the commit fetched and the skill's folder in the repository —
//! what `outdated` and `update` start from.
//!
//! It is kept beside the skill, not in its `SKILL.md`: one small JSON file per skill folder in
//! skilldeck's data folder (`upstream/<SHA-256 of the folder's path>.json`, which names the
//! folder too), next to the baseline snapshot an update merges against. Written into the
//! frontmatter it would change the skill's own text at every update (a new commit each time),
//! which the three-way merge would then have to merge and the agents would load, and a copy of
//! the folder shared or exported would carry a claim about its origin that no longer holds.

use std::io;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest as _, Sha256};

use crate::fs::{Links, read_bounded};
use crate::limits::RECORD_FILE_BYTES;

/// The folder of the data folder the records are kept in.
pub const FOLDER: &str = "upstream";

/// Where a skill came from in a git repository.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Upstream {
    /// The repository as it was given: a URL, a path, or the URL GitHub shorthand stands for.
    pub repository: String,
    /// The branch, tag or commit asked for; none for the repository's default branch.
    #[serde(rename = "ref")]
    pub reference: Option<String>,
    /// The commit that was fetched (its full id).
    pub commit: String,
    /// The skill's folder in the repository, `/`-separated; empty for its top.
    pub path: String,
}

/// One record file: the folder it is about, and where that folder came from.
#[derive(Debug, Serialize, Deserialize)]
struct RecordFile {
    skill_dir: PathBuf,
    upstream: Upstream,
}

/// The folder a record is keyed by: `dir` with its links resolved when it exists, so a skill
/// reached through a linked skills folder has the record it was installed with. Kept, it
/// finds the same record when the folder is gone or back.
pub fn key_dir(dir: &Path) -> PathBuf {
    crate::fs::canonical(dir).unwrap_or_else(|_| dir.to_path_buf())
}

fn record_path(data_dir: &Path, skill_dir: &Path) -> PathBuf {
    let digest = Sha256::digest(key_dir(skill_dir).as_os_str().as_encoded_bytes());
    let name: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    data_dir.join(FOLDER).join(format!("{name}.json"))
}

/// The upstream recorded for the skill folder `skill_dir`, with `data_dir` skilldeck's data
/// folder; none when there is no record, or it cannot be read.
pub fn of(data_dir: &Path, skill_dir: &Path) -> Option<Upstream> {
    let path = record_path(data_dir, skill_dir);
    let bytes = read_bounded(&path, Links::Refuse, RECORD_FILE_BYTES).ok()?;
    let file: RecordFile = serde_json::from_slice(&bytes).ok()?;
    (file.skill_dir == key_dir(skill_dir)).then_some(file.upstream)
}

/// Record that the skill folder `skill_dir` came from `upstream`, replacing any record of it,
/// atomically (a temporary file in the same folder, renamed into place).
///
/// # Errors
/// When the data folder cannot be written.
pub fn write(data_dir: &Path, skill_dir: &Path, upstream: &Upstream) -> io::Result<()> {
    let path = record_path(data_dir, skill_dir);
    let file = RecordFile {
        skill_dir: key_dir(skill_dir),
        upstream: upstream.clone(),
    };
    let mut bytes = serde_json::to_vec_pretty(&file).map_err(io::Error::other)?;
    bytes.push(b'\n');
    crate::fs::replace_file(&path, &bytes)
}

/// Forget where the skill folder `skill_dir` came from: it was replaced from elsewhere.
///
/// # Errors
/// When a record exists and cannot be removed.
pub fn forget(data_dir: &Path, skill_dir: &Path) -> io::Result<()> {
    match std::fs::remove_file(record_path(data_dir, skill_dir)) {
        Err(error) if error.kind() != io::ErrorKind::NotFound => Err(error),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn upstream(commit: &str) -> Upstream {
        Upstream {
            repository: "https://example.org/r.git".into(),
            reference: Some("v1".into()),
            commit: commit.into(),
            path: "skills/a".into(),
        }
    }

    #[test]
    fn a_record_reads_back_replaces_and_is_forgotten() {
        let tmp = tempfile::tempdir().unwrap();
        let data = tmp.path().join("data");
        let skill = tmp.path().join("skills/a");
        std::fs::create_dir_all(&skill).unwrap();
        assert_eq!(of(&data, &skill), None);
        write(&data, &skill, &upstream("1")).unwrap();
        assert_eq!(of(&data, &skill), Some(upstream("1")));
        write(&data, &skill, &upstream("2")).unwrap();
        assert_eq!(of(&data, &skill), Some(upstream("2")));
        assert_eq!(of(&data, &tmp.path().join("skills/b")), None);
        forget(&data, &skill).unwrap();
        forget(&data, &skill).unwrap();
        assert_eq!(of(&data, &skill), None);
    }

    #[cfg(unix)]
    #[test]
    fn a_skill_reached_through_a_link_has_its_record() {
        let tmp = tempfile::tempdir().unwrap();
        let data = tmp.path().join("data");
        let real = tmp.path().join("real");
        std::fs::create_dir_all(real.join("a")).unwrap();
        std::os::unix::fs::symlink(&real, tmp.path().join("linked")).unwrap();
        write(&data, &real.join("a"), &upstream("1")).unwrap();
        assert_eq!(of(&data, &tmp.path().join("linked/a")), Some(upstream("1")));
    }
}
