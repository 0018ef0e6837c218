//! The skill model: what a skill directory says about itself in its `SKILL.md`, and how far it
//! follows the specification.

mod frontmatter;
mod lint;
pub mod names;
mod plain_yaml;
mod reading;

use std::ffi::OsStr;
use std::io::{self, Read};
use std::path::Path;

use crate::fs::{FileFacts, Folder, Links, open_regular_with_facts};

pub use frontmatter::{Frontmatter, FrontmatterError};
pub use lint::{
    Lint, MAX_COMPATIBILITY_CHARS, MAX_DESCRIPTION_CHARS, MAX_NAME_CHARS, SPEC_FIELDS, lint,
};
/// JavaScript's `\s`, for the other readers of what JavaScript agents write (`roots::dialect`).
pub(crate) use reading::js_space;
pub use reading::{Fallback, Field, File, Reader, Reading, Values};

/// The file that makes a directory a skill.
pub const SKILL_FILE: &str = "SKILL.md";

/// The lower-case spelling a few agents (Amp) accept in its place.
pub const LOWER_SKILL_FILE: &str = "skill.md";

/// The `metadata` keys that make up agent-skill-installer's ownership record. They are named
/// here, below the record, because what a skill declares leaves them out: they say who
/// installed the skill, not what it says about itself.
pub const RECORD_KEYS: [&str; 3] = ["installed-by", "installed-version", "content-digest"];

/// The largest `SKILL.md` skilldeck reads, kept with every other bound.
pub use crate::limits::MANIFEST_BYTES as MAX_MANIFEST_BYTES;

/// Why a `SKILL.md` could not be read as text.
#[derive(Debug, thiserror::Error)]
pub enum ManifestError {
    #[error("SKILL.md could not be read: {0}")]
    Unreadable(io::Error),
    #[error("SKILL.md is {size} bytes, more than the {MAX_MANIFEST_BYTES} skilldeck reads")]
    TooLarge { size: u64 },
    #[error("SKILL.md is a binary file, not text")]
    Binary,
    #[error("SKILL.md is not valid UTF-8 text")]
    NotUtf8,
}

/// The bytes of a skill's `SKILL.md`, read within [`MAX_MANIFEST_BYTES`].
///
/// # Errors
/// When the file cannot be opened or read, or is larger than the bound.
pub fn read_manifest(skill_dir: &Path) -> Result<Vec<u8>, ManifestError> {
    read_manifest_noting_link(skill_dir).map(|(bytes, _)| bytes)
}

/// As [`read_manifest`], and whether the `SKILL.md` is a symbolic link (some agents pass such
/// a file over). The file is opened refusing a link first, so a plain file costs no more.
///
/// # Errors
/// As [`read_manifest`].
pub fn read_manifest_noting_link(skill_dir: &Path) -> Result<(Vec<u8>, bool), ManifestError> {
    let manifest =
        read_manifest_with(|name, links| open_regular_with_facts(&skill_dir.join(name), links))?;
    Ok((manifest.bytes, manifest.linked))
}

/// A skill's `SKILL.md` as read through its open folder: what a scan reads, once per skill.
#[derive(Debug)]
pub struct Manifest {
    pub bytes: Vec<u8>,
    /// The `SKILL.md` is a symbolic link.
    pub linked: bool,
    /// What the open of a `SKILL.md` that is a regular file of that very name read of it, so
    /// that the walk of its folder need not ask again; none for a link or a `skill.md`.
    pub facts: Option<FileFacts>,
}

/// As [`read_manifest_noting_link`], each name looked up in the skill's open `folder` rather
/// than from `/` again.
///
/// # Errors
/// As [`read_manifest`].
pub fn read_manifest_in(folder: &Folder) -> Result<Manifest, ManifestError> {
    read_manifest_with(|name, links| folder.file_with(OsStr::new(name), links))
}

/// The manifest opened by `open` (a name in the skill folder, and whether a link there is
/// followed): `SKILL.md` refused as a link first, then followed, then `skill.md`.
fn read_manifest_with(
    open: impl Fn(&str, Links) -> io::Result<(std::fs::File, FileFacts)>,
) -> Result<Manifest, ManifestError> {
    let follow = || match open(SKILL_FILE, Links::Follow) {
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            open(LOWER_SKILL_FILE, Links::Follow)
        }
        opened => opened,
    };
    let (opened, linked, plain) = match open(SKILL_FILE, Links::Refuse) {
        Ok(opened) => (Ok(opened), false, true),
        Err(refused) if refused.kind() == std::io::ErrorKind::NotFound => (follow(), false, false),
        // Refused but readable when followed: a link to a file.
        Err(_) => (follow(), true, false),
    };
    let (file, facts) = opened.map_err(ManifestError::Unreadable)?;
    let size = facts.len;
    if size > MAX_MANIFEST_BYTES {
        return Err(ManifestError::TooLarge { size });
    }
    let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
    // Read one byte past the bound, so a file that grew after the size check is caught.
    file.take(MAX_MANIFEST_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(ManifestError::Unreadable)?;
    let read = bytes.len() as u64;
    if read > MAX_MANIFEST_BYTES {
        return Err(ManifestError::TooLarge { size: read });
    }
    Ok(Manifest {
        bytes,
        linked,
        facts: plain.then_some(facts),
    })
}

/// A manifest's bytes as text, or why they are not.
///
/// # Errors
/// [`ManifestError::Binary`] for bytes holding a NUL, [`ManifestError::NotUtf8`] otherwise
/// when they do not decode.
pub fn manifest_text(bytes: &[u8]) -> Result<&str, ManifestError> {
    if bytes.contains(&0) {
        return Err(ManifestError::Binary);
    }
    std::str::from_utf8(bytes).map_err(|_| ManifestError::NotUtf8)
}

/// Every way the skill folder `dir`, called `dir_name`, breaks the specification: the lint a
/// listing shows for it, read as a scan reads it.
///
/// # Errors
/// When its `SKILL.md` cannot be read as text.
pub fn lint_dir(dir: &Path, dir_name: &str) -> Result<Vec<Lint>, ManifestError> {
    let bytes = read_manifest(dir)?;
    let text = manifest_text(&bytes)?;
    Ok(Declared::read(text, dir_name).lints)
}

/// What a skill says about itself.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Declared {
    /// The frontmatter `name`, when it is a string.
    pub name: Option<String>,
    /// The frontmatter `description`, when it is a string.
    pub description: Option<String>,
    /// The frontmatter `when_to_use`, when it is a string: Claude Code lists it after the
    /// description, so it costs context like one.
    pub when_to_use: Option<String>,
    /// The version it declares ([`Frontmatter::version`]): what an export is named after.
    pub version: Option<String>,
    /// The entries of the frontmatter `metadata` map that hold text, where installers such as
    /// gh skill write where a skill came from; agent-skill-installer's record keys are left to
    /// the record. A list, not a map: most skills have none or a few, and a listing holds many.
    pub metadata: Vec<(String, String)>,
    /// Every way the skill breaks the specification.
    pub lints: Vec<Lint>,
    /// What the agents that read a frontmatter otherwise than strictly find, kept only for a
    /// file where that differs (see [`Declared::read_by`]).
    readings: Option<Box<reading::Readings>>,
}

impl Declared {
    /// Whether the `SKILL.md` opens with a frontmatter block that parses.
    pub fn has_frontmatter(&self) -> bool {
        !self
            .lints
            .iter()
            .any(|lint| matches!(lint, Lint::Frontmatter(_)))
    }

    /// The text a frontmatter `metadata` key holds.
    pub fn metadata(&self, key: &str) -> Option<&str> {
        self.metadata
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// What a skill whose `SKILL.md` cannot be read declares: nothing, and no agent lists it.
    pub fn unread() -> Self {
        Self {
            readings: Some(reading::Readings::unread()),
            ..Self::default()
        }
    }

    /// What an agent reading the frontmatter as `reader` says finds: the strict reading's
    /// fields, unless this file is one where readers part ways.
    pub fn read_by(&self, reader: Reader) -> Reading<'_> {
        match &self.readings {
            Some(readings) => Reading::of(
                readings.by(reader),
                readings.file(reader),
                reader.folds_white_space,
            ),
            None => Reading {
                folds: reader.folds_white_space,
                file: File::Read,
                frontmatter: self.has_frontmatter(),
                name: self.name.as_deref().map_or(Field::Absent, Field::Text),
                description: self
                    .description
                    .as_deref()
                    .map_or(Field::Absent, Field::Text),
            },
        }
    }

    /// Read from the text of a `SKILL.md` in the directory named `dir_name`: parsed once,
    /// strictly; the other readings only where that one fails or leaves a doubt.
    pub fn read(text: &str, dir_name: &str) -> Self {
        Self::read_file(text, dir_name, false)
    }

    /// As [`Declared::read`], for a `SKILL.md` that is (`linked`) or is not a symbolic link.
    pub fn read_file(text: &str, dir_name: &str, linked: bool) -> Self {
        let body = text.strip_prefix('\u{feff}').unwrap_or(text);
        let block = frontmatter::Block::of(body);
        let parsed = block
            .as_ref()
            .map_err(Clone::clone)
            .and_then(|block| frontmatter::parse_yaml(block.yaml));
        let readings = reading::Readings::of(text, &block, &parsed, linked);
        match parsed {
            Ok(frontmatter) => Self {
                name: frontmatter.text("name").map(str::to_owned),
                description: frontmatter.text("description").map(str::to_owned),
                when_to_use: frontmatter.text("when_to_use").map(str::to_owned),
                version: frontmatter.version(),
                metadata: frontmatter
                    .fields
                    .get("metadata")
                    .and_then(serde_json::Value::as_object)
                    .map(|map| {
                        map.iter()
                            .filter(|(k, _)| !RECORD_KEYS.contains(&k.as_str()))
                            .filter_map(|(k, v)| Some((k.clone(), v.as_str()?.to_owned())))
                            .collect()
                    })
                    .unwrap_or_default(),
                lints: lint(&frontmatter, dir_name),
                readings,
            },
            Err(error) => Self {
                lints: vec![Lint::Frontmatter(error)],
                readings,
                ..Self::default()
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_manifest_is_read_within_its_bound() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::write(tmp.path().join(SKILL_FILE), "---\nname: x\n---\n").unwrap();
        assert_eq!(read_manifest(tmp.path()).unwrap(), b"---\nname: x\n---\n");

        let big = vec![b'a'; usize::try_from(MAX_MANIFEST_BYTES).unwrap() + 1];
        std::fs::write(tmp.path().join(SKILL_FILE), big).unwrap();
        assert!(matches!(
            read_manifest(tmp.path()),
            Err(ManifestError::TooLarge { size }) if size == MAX_MANIFEST_BYTES + 1
        ));
    }

    #[test]
    fn binary_and_non_utf8_manifests_are_told_apart() {
        assert!(matches!(manifest_text(b"a\0b"), Err(ManifestError::Binary)));
        assert!(matches!(
            manifest_text(b"caf\xe9"),
            Err(ManifestError::NotUtf8)
        ));
        assert_eq!(manifest_text(b"ok").unwrap(), "ok");
    }

    #[cfg(unix)]
    #[test]
    fn a_manifest_that_is_a_link_is_told_from_a_plain_one() {
        let tmp = tempfile::tempdir().unwrap();
        let plain = tmp.path().join("plain");
        std::fs::create_dir(&plain).unwrap();
        std::fs::write(plain.join(SKILL_FILE), "---\nname: x\n---\n").unwrap();
        assert!(!read_manifest_noting_link(&plain).unwrap().1);

        let linked = tmp.path().join("linked");
        std::fs::create_dir(&linked).unwrap();
        std::fs::write(linked.join("REAL.md"), "---\nname: y\n---\n").unwrap();
        std::os::unix::fs::symlink("REAL.md", linked.join(SKILL_FILE)).unwrap();
        let (bytes, is_link) = read_manifest_noting_link(&linked).unwrap();
        assert_eq!(
            (bytes.as_slice(), is_link),
            (&b"---\nname: y\n---\n"[..], true)
        );

        let dangling = tmp.path().join("dangling");
        std::fs::create_dir(&dangling).unwrap();
        std::os::unix::fs::symlink("missing.md", dangling.join(SKILL_FILE)).unwrap();
        assert!(matches!(
            read_manifest_noting_link(&dangling),
            Err(ManifestError::Unreadable(_))
        ));
    }

    /// Reading through the open folder finds what reading by path finds, for every shape a
    /// `SKILL.md` takes, and keeps the open's facts only for a regular file of that name.
    #[cfg(unix)]
    #[test]
    fn a_manifest_read_through_its_folder_is_the_one_read_by_path() {
        let tmp = tempfile::tempdir().unwrap();
        let make = |name: &str, files: &[(&str, &str)], link: Option<(&str, &str)>| {
            let dir = tmp.path().join(name);
            std::fs::create_dir(&dir).unwrap();
            for (file, text) in files {
                std::fs::write(dir.join(file), text).unwrap();
            }
            if let Some((target, at)) = link {
                std::os::unix::fs::symlink(target, dir.join(at)).unwrap();
            }
            dir
        };
        let cases = [
            (
                make("plain", &[(SKILL_FILE, "---\nname: a\n---\n")], None),
                true,
            ),
            (
                make("lower", &[(LOWER_SKILL_FILE, "---\nname: b\n---\n")], None),
                false,
            ),
            (
                make(
                    "linked",
                    &[("REAL.md", "---\nname: c\n---\n")],
                    Some(("REAL.md", SKILL_FILE)),
                ),
                false,
            ),
            (
                make(
                    "dangling",
                    &[(LOWER_SKILL_FILE, "---\nname: d\n---\n")],
                    Some(("missing.md", SKILL_FILE)),
                ),
                false,
            ),
            (make("none", &[("README.md", "x")], None), false),
        ];
        for (dir, keeps_facts) in cases {
            let by_path = read_manifest_noting_link(&dir);
            let folder = Folder::open(&dir).unwrap();
            let through = read_manifest_in(&folder);
            match (by_path, through) {
                (Ok((bytes, linked)), Ok(manifest)) => {
                    assert_eq!(
                        (manifest.bytes, manifest.linked),
                        (bytes, linked),
                        "{dir:?}"
                    );
                    assert_eq!(manifest.facts.is_some(), keeps_facts, "{dir:?}");
                    if let Some(facts) = manifest.facts {
                        let meta = std::fs::metadata(dir.join(SKILL_FILE)).unwrap();
                        assert_eq!(facts.len, meta.len());
                        assert_eq!(facts.modified, meta.modified().ok());
                    }
                }
                (Err(by_path), Err(through)) => {
                    assert_eq!(by_path.to_string(), through.to_string(), "{dir:?}");
                }
                (by_path, through) => panic!("{dir:?}: {by_path:?} against {through:?}"),
            }
        }
    }

    #[test]
    fn only_the_readers_that_follow_links_read_a_linked_manifest() {
        let text = "---\nname: a\ndescription: d\n---\n";
        let follows = Reader::STRICT;
        let passes = Reader {
            follows_link: false,
            ..Reader::STRICT
        };
        let linked = Declared::read_file(text, "dir", true);
        assert_eq!(linked.read_by(follows).file, File::Read);
        assert_eq!(linked.read_by(follows).name, Field::Text("a"));
        assert_eq!(linked.read_by(passes).file, File::LinkNotFollowed);
        assert_eq!(Declared::read(text, "dir").read_by(passes).file, File::Read);
        assert_eq!(Declared::unread().read_by(follows).file, File::Unreadable);
    }

    #[test]
    fn a_missing_manifest_is_unreadable() {
        let tmp = tempfile::tempdir().unwrap();
        assert!(matches!(
            read_manifest(tmp.path()),
            Err(ManifestError::Unreadable(_))
        ));
    }

    #[test]
    fn declared_reads_name_description_and_findings() {
        let declared = Declared::read(
            "---\nname: Pdf\ndescription: d\nmetadata:\n  github-ref: v1\n  count: 3\n  installed-by: \"x\"\n---\n",
            "pdf",
        );
        assert_eq!(declared.name.as_deref(), Some("Pdf"));
        assert_eq!(declared.description.as_deref(), Some("d"));
        assert_eq!(
            declared.metadata,
            [("github-ref".to_owned(), "v1".to_owned())]
        );
        assert_eq!(declared.metadata("github-ref"), Some("v1"));
        assert!(!declared.lints.is_empty());
        let broken = Declared::read("no frontmatter", "pdf");
        assert_eq!(broken.lints, [Lint::Frontmatter(FrontmatterError::Missing)]);
    }
}
