//! What already sits where a skill is about to be installed, judged on agent-skill-installer's
//! ladder (ownership-record-and-digest.md §2.6), with skilldeck as the program: a link, a file,
//! a folder without a readable `SKILL.md` or without a record, or one another program
//! installed, belongs to someone else; skilldeck's own copy is intact only while its files
//! still match the digest in its record.

use std::io;
use std::path::Path;

use crate::record::{self, Contents, INSTALLED_BY, State};
use crate::skill;

/// What is at a skill's folder in a root.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Existing {
    Absent,
    /// skilldeck installed it; `intact` while its files match the record's digest.
    Ours {
        intact: bool,
    },
    /// Someone else's, or not a skill folder skilldeck can read: the reason, as the installer
    /// words it, and whether `--force` may replace it (when it may not, `why` says what to do).
    Foreign {
        why: String,
        replaceable: bool,
    },
}

/// Judge what is at `dir`.
pub fn judge(dir: &Path) -> Existing {
    let meta = match dir.symlink_metadata() {
        Ok(meta) => meta,
        Err(error) if error.kind() == io::ErrorKind::NotFound => return Existing::Absent,
        Err(error) => return foreign(error.to_string(), false),
    };
    if meta.file_type().is_symlink() {
        // A link is replaced as a link and the folder it points at is never touched; but only
        // a link to a skill, which the snapshot taken first can keep.
        return if skill::read_manifest(dir).is_ok() {
            foreign("is a symlink".to_owned(), true)
        } else {
            foreign(
                "is a symlink to something other than a skill, which no snapshot can keep; remove the link first".to_owned(),
                false,
            )
        };
    }
    if !meta.is_dir() {
        return foreign(
            "is not a directory; skilldeck only replaces folders, so move it away first".to_owned(),
            false,
        );
    }
    let Ok(manifest) = skill::read_manifest(dir) else {
        return foreign(
            "has no readable SKILL.md, so no snapshot can keep what it holds; move it away first"
                .to_owned(),
            false,
        );
    };
    let Some(record) = record::parse(&manifest) else {
        return foreign("carries no installation record".to_owned(), true);
    };
    if record.installed_by != INSTALLED_BY {
        return foreign(format!("was installed by {}", record.installed_by), true);
    }
    if !record.version_is_semver() {
        return foreign("has an unreadable version in its record".to_owned(), true);
    }
    let (_, digest) = Contents::read(dir, &manifest);
    let intact = State::judge(Some(&record), digest.as_ref()) == State::Intact;
    Existing::Ours { intact }
}

fn foreign(why: String, replaceable: bool) -> Existing {
    Existing::Foreign { why, replaceable }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{INSTALLED_VERSION, digest_of, stamp};
    use std::fs;

    fn ours(dir: &Path, by: &str) {
        let stamped = stamp("---\nname: demo\n---\nbody\n", by, INSTALLED_VERSION).unwrap();
        let digest = digest_of([(Path::new("SKILL.md"), stamped.text().as_bytes())]);
        fs::create_dir_all(dir).unwrap();
        fs::write(dir.join("SKILL.md"), stamped.seal(&digest)).unwrap();
    }

    #[test]
    fn each_rung_of_the_ladder() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("demo");
        assert_eq!(judge(&dir), Existing::Absent);

        ours(&dir, INSTALLED_BY);
        assert_eq!(judge(&dir), Existing::Ours { intact: true });
        fs::write(dir.join("extra.md"), "added").unwrap();
        assert_eq!(judge(&dir), Existing::Ours { intact: false });

        ours(&tmp.path().join("theirs"), "other-tool");
        assert_eq!(
            judge(&tmp.path().join("theirs")),
            foreign("was installed by other-tool".into(), true)
        );

        let plain = tmp.path().join("plain");
        fs::create_dir_all(&plain).unwrap();
        fs::write(plain.join("SKILL.md"), "---\nname: plain\n---\n").unwrap();
        assert_eq!(
            judge(&plain),
            foreign("carries no installation record".into(), true)
        );
        fs::remove_file(plain.join("SKILL.md")).unwrap();
        assert!(matches!(
            judge(&plain),
            Existing::Foreign { replaceable: false, why } if why.starts_with("has no readable SKILL.md")
        ));

        let file = tmp.path().join("file");
        fs::write(&file, "x").unwrap();
        assert!(matches!(
            judge(&file),
            Existing::Foreign { replaceable: false, why } if why.starts_with("is not a directory")
        ));

        #[cfg(unix)]
        {
            let link = tmp.path().join("link");
            std::os::unix::fs::symlink(&dir, &link).unwrap();
            assert_eq!(judge(&link), foreign("is a symlink".into(), true));
            for (name, to) in [
                ("dangling", tmp.path().join("nowhere")),
                ("to-file", file.clone()),
                ("to-plain", plain.clone()),
            ] {
                let link = tmp.path().join(name);
                std::os::unix::fs::symlink(&to, &link).unwrap();
                assert!(
                    matches!(
                        judge(&link),
                        Existing::Foreign {
                            replaceable: false,
                            ..
                        }
                    ),
                    "{name}"
                );
            }
        }
    }
}
