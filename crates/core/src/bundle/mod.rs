//! Reading a bundle — a folder, a `.tar`, a `.tar.gz`/`.tgz` or a `.zip`/`.skill` — into the
//! skills it holds, in memory, and refusing one that cannot be installed exactly as it is.
//!
//! Every source arrives here and goes through the same rules, so what a skill is and what a
//! bundle may hold is decided in one place: the members are gathered and checked
//! ([`members`]), the skills found among them ([`layout`]), and each skill's files and
//! `SKILL.md` checked. A git commit's tree arrives listed first, its files read only once the
//! listing is judged ([`tree`]). What comes out is a [`Bundle`]: the skills with their files, the files
//! left out of every skill, and the metadata set aside. Nothing is written anywhere, and an
//! untrusted path is never used to reach the disk; a refusal is about the whole bundle.

mod bounded;
pub mod browse;
mod folder;
mod layout;
mod limits;
mod members;
mod path;
mod pax;
mod refusal;
mod tar;
pub mod tree;
mod zip;

use std::io::Read;
use std::path::{Path, PathBuf};

use crate::fs::{Links, open_regular};
use crate::record::{INSTALLED_BY, INSTALLED_VERSION, stamp};
use crate::skill::{self, Declared, MAX_MANIFEST_BYTES, ManifestError, SKILL_FILE};

pub use layout::{CONTAINERS, DEEP_SEARCH_DEPTH, PassedOver, SKIP_DIRS};
pub use limits::{Limits, limits};
pub use members::is_metadata;
pub use path::{collision_key, member_path, part_problem};
pub use refusal::{EntryKind, PathProblem, Refusal};

use members::{Kind, Members};

/// Whether a member with this mode is installed executable (0755, else 0644): the owner's
/// execute bit decides, for archives and folders alike, as tar, zip and git read a mode. Wide
/// enough for a tar mode field, whose base-256 form may exceed 32 bits.
fn executable_mode(mode: u64) -> bool {
    mode & 0o100 != 0
}

/// What a bundle holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bundle {
    /// The skills, ordered by where they sit in the bundle.
    pub skills: Vec<BundledSkill>,
    /// Files (and links or other entries) outside every skill, by their path in the bundle.
    pub left_out: Vec<String>,
    /// Metadata set aside before it counted: `._*`, `.DS_Store`, `__MACOSX/`, `Thumbs.db`,
    /// `.git`.
    pub set_aside: Vec<String>,
    /// What the search for skills noticed, such as a marketplace listing a skill the bundle
    /// does not hold.
    pub notes: Vec<String>,
    /// Each `SKILL.md` that is not the manifest of one of the skills, with why.
    pub passed_over: Vec<PassedOver>,
}

/// One skill of a bundle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BundledSkill {
    /// The name it is installed under: its folder's name.
    pub name: String,
    /// Where its folder sits in the bundle; empty for a bundle that is one skill.
    pub origin: String,
    /// The folder of the bundle it came from (`skills`, `skills/.curated`,
    /// `plugins/docs/skills`), which its folder sits in; empty at the top. A preview groups the
    /// skills by it.
    pub folder: String,
    /// Its files, in the content digest's order.
    pub files: Vec<BundledFile>,
    /// What its `SKILL.md` says, and how far it follows the specification.
    pub declared: Declared,
}

/// One file of a skill, byte for byte as the bundle holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BundledFile {
    /// Its path below the skill's folder, `/`-separated.
    pub path: String,
    pub content: Vec<u8>,
    /// Installed 0755 when set, 0644 otherwise.
    pub executable: bool,
}

impl BundledSkill {
    /// The text of its `SKILL.md`, which was checked to be UTF-8 when the bundle was read.
    pub fn manifest(&self) -> &str {
        self.files
            .iter()
            .find(|f| f.path == SKILL_FILE)
            .and_then(|f| std::str::from_utf8(&f.content).ok())
            .unwrap_or_default()
    }

    /// The bytes of all its files.
    pub fn size(&self) -> u64 {
        self.files.iter().map(|f| f.content.len() as u64).sum()
    }
}

impl Bundle {
    /// The skills named in `wanted`, or every skill when it is empty.
    ///
    /// # Errors
    /// [`Refusal::NoSuchSkill`] for a name the bundle does not hold.
    pub fn select(&self, wanted: &[String]) -> Result<Vec<&BundledSkill>, Refusal> {
        if wanted.is_empty() {
            return Ok(self.skills.iter().collect());
        }
        let mut chosen: Vec<&BundledSkill> = Vec::new();
        for name in wanted {
            let skill = self
                .skills
                .iter()
                .find(|s| s.name == *name)
                .ok_or_else(|| {
                    let held: Vec<&str> = self.skills.iter().map(|s| s.name.as_str()).collect();
                    Refusal::NoSuchSkill {
                        wanted: name.clone(),
                        held: held.join(", "),
                    }
                })?;
            if !chosen.iter().any(|c| c.name == skill.name) {
                chosen.push(skill);
            }
        }
        Ok(chosen)
    }
}

/// Read the bundle at `source` within the [`limits`] every import is held to.
///
/// # Errors
/// The [`Refusal`] that says why the bundle cannot be imported as it is.
pub fn read(source: &Path) -> Result<Bundle, Refusal> {
    read_within(source, &limits())
}

/// Read the bundle at `source` (a folder or an archive file) within `limits`.
///
/// # Errors
/// The [`Refusal`] that says why the bundle cannot be imported as it is.
pub fn read_within(source: &Path, limits: &Limits) -> Result<Bundle, Refusal> {
    let shown_source = source.display().to_string();
    let unreadable = |error: std::io::Error| Refusal::UnreadableSource {
        path: shown_source.clone(),
        error: crate::fs::said(&error).to_string(),
    };
    // The source is the one path the user named: a link to it is followed.
    let meta = std::fs::metadata(source).map_err(unreadable)?;
    if meta.is_dir() {
        let mut members = Members::new(limits);
        folder::read(source, &mut members)?;
        let name = crate::fs::canonical(source)
            .ok()
            .and_then(|dir| dir.file_name().map(|n| n.to_string_lossy().into_owned()))
            .unwrap_or_default();
        return assemble(members, &Top::Folder(name));
    }
    if !meta.is_file() {
        return Err(Refusal::UnsupportedSource {
            path: shown_source,
            what: kind_of(&meta.file_type()),
        });
    }
    if meta.len() > limits.stream_bytes {
        return Err(Refusal::TooLarge(limits.stream_bytes));
    }
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
    open_regular(source, Links::Follow)
        .and_then(|file| file.take(limits.stream_bytes + 1).read_to_end(&mut bytes))
        .map_err(unreadable)?;
    if bytes.len() as u64 > limits.stream_bytes {
        return Err(Refusal::TooLarge(limits.stream_bytes));
    }
    read_archive(&shown_source, &bytes, limits)
}

/// Read an archive held in memory; `name` is its file name, which names a skill whose
/// `SKILL.md` sits at the archive's top when its frontmatter does not.
///
/// # Errors
/// The [`Refusal`] that says why the bundle cannot be imported as it is.
pub fn read_archive(name: &str, bytes: &[u8], limits: &Limits) -> Result<Bundle, Refusal> {
    let format = Format::of(bytes).ok_or_else(|| Refusal::UnsupportedSource {
        path: name.to_owned(),
        what: if bytes.is_empty() {
            "an empty file".to_owned()
        } else {
            "a file of another kind".to_owned()
        },
    })?;
    // What every reader would take the file for: its content, its name, and any other format
    // its bytes also are. Where two of them differ, some reader lists other files.
    if let Some(named) = Format::named(name)
        && named != format
    {
        return Err(Refusal::MisnamedArchive {
            path: name.to_owned(),
            named: named.to_string(),
            holds: format.to_string(),
        });
    }
    if let Some(other) = format.also(bytes) {
        return Err(Refusal::malformed(
            None,
            format!("it is a {format} and also {other}, which other readers would list instead"),
        ));
    }
    let mut members = Members::new(limits);
    match format {
        Format::Gzip => {
            // Every gzip member, and an error for anything after the last one.
            let inflated = flate2::bufread::MultiGzDecoder::new(bytes);
            tar::read(
                bounded::Bounded::new(inflated, limits.stream_bytes),
                &mut members,
            )?;
        }
        Format::Zip => zip::read(bytes, &mut members)?,
        Format::Tar => tar::read(bytes, &mut members)?,
    }
    assemble(members, &Top::Archive(archive_stem(name)))
}

/// The kinds of archive a file may be, told apart by content.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Format {
    /// A gzip-compressed tar.
    Gzip,
    Zip,
    Tar,
}

impl Format {
    /// What the first bytes say.
    fn of(bytes: &[u8]) -> Option<Self> {
        if bytes.starts_with(&[0x1f, 0x8b]) {
            Some(Format::Gzip)
        } else if bytes.starts_with(b"PK\x03\x04") || bytes.starts_with(b"PK\x05\x06") {
            Some(Format::Zip)
        } else if bytes.get(257..262) == Some(b"ustar") {
            Some(Format::Tar)
        } else {
            None
        }
    }

    /// What a file name's archive extension says, if it has one.
    fn named(name: &str) -> Option<Self> {
        let lower = name.to_ascii_lowercase();
        let ends = |extensions: &[&str]| extensions.iter().any(|e| lower.ends_with(e));
        if ends(&[".tar.gz", ".tgz", ".gz"]) {
            Some(Format::Gzip)
        } else if ends(&[".zip", ".skill"]) {
            Some(Format::Zip)
        } else if ends(&[".tar"]) {
            Some(Format::Tar)
        } else {
            None
        }
    }

    /// Another format the same bytes are, as other readers find it: a zip end record where
    /// zip readers look for one (the last 64 KiB), in a tar or a gzip file; a tar header at
    /// the start of a zip.
    fn also(self, bytes: &[u8]) -> Option<String> {
        match self {
            Format::Gzip | Format::Tar => zip_end_record(bytes)
                .map(|at| format!("a zip archive (its end record at byte {at})")),
            Format::Zip => tar::starts_with_header(bytes)
                .then(|| "a tar archive (a valid tar header at its start)".to_owned()),
        }
    }
}

impl std::fmt::Display for Format {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Format::Gzip => "gzip-compressed tar",
            Format::Zip => "zip archive",
            Format::Tar => "tar archive",
        })
    }
}

/// Where a zip end-of-central-directory record sits in the part of `bytes` zip readers search
/// (the record and the longest comment, from the end), if one does: a record whose central
/// directory fits before it, as Python's zipfile and unzip take one even with bytes after it
/// or before the archive.
fn zip_end_record(bytes: &[u8]) -> Option<usize> {
    const RECORD: usize = 22;
    let start = bytes.len().saturating_sub(RECORD + usize::from(u16::MAX));
    let field = |at: usize| {
        bytes
            .get(at..at + 4)
            .and_then(|b| <[u8; 4]>::try_from(b).ok())
            .map(|b| u64::from(u32::from_le_bytes(b)))
    };
    memchr::memmem::rfind_iter(&bytes[start..], b"PK\x05\x06")
        .map(|found| start + found)
        .find(|&at| {
            at + RECORD <= bytes.len()
                && matches!((field(at + 12), field(at + 16)), (Some(size), Some(offset)) if size + offset <= at as u64)
        })
}

/// The skills among the members, each checked whole.
/// Where a bundle came from, which names a skill whose `SKILL.md` is at the bundle's top.
enum Top {
    /// A folder, by its name.
    Folder(String),
    /// An archive, by its file name without its extensions.
    Archive(String),
}

fn assemble(members: Members, top: &Top) -> Result<Bundle, Refusal> {
    let limits = *members.limits();
    let (members, set_aside) = members.finish();
    let found = layout::find(&members)?;
    // Each member goes to the skill that holds it, or to what is left out; its bytes move.
    let mut files: Vec<Vec<BundledFile>> = vec![Vec::new(); found.skills.len()];
    let mut left_out = Vec::new();
    for member in members {
        let owner = found
            .skills
            .iter()
            .position(|dir| member.parts.starts_with(dir));
        match (owner, member.kind) {
            (_, Kind::Folder) => {}
            (None, _) => left_out.push(member.parts.join("/")),
            (Some(_), Kind::Other(kind)) => {
                return Err(Refusal::UnsupportedEntry {
                    path: member.parts.join("/"),
                    kind,
                });
            }
            (
                Some(skill),
                Kind::File {
                    content,
                    executable,
                },
            ) => files[skill].push(BundledFile {
                path: member.parts[found.skills[skill].len()..].join("/"),
                content,
                executable,
            }),
        }
    }
    left_out.sort();
    let mut skills: Vec<BundledSkill> = Vec::with_capacity(found.skills.len());
    for (dir, files) in found.skills.iter().zip(files) {
        let skill = skill_at(dir, files, top, &limits)?;
        let key = collision_key(&skill.name);
        if let Some(first) = skills.iter().find(|s| collision_key(&s.name) == key) {
            return Err(Refusal::DuplicateSkill {
                name: skill.name,
                first: shown_origin(&first.origin),
                second: shown_origin(&skill.origin),
            });
        }
        skills.push(skill);
    }
    Ok(Bundle {
        skills,
        left_out,
        set_aside,
        notes: found.notes,
        passed_over: found.passed_over,
    })
}

/// The skill whose folder is `dir`, holding `files`, with its `SKILL.md` checked.
fn skill_at(
    dir: &[String],
    mut files: Vec<BundledFile>,
    top: &Top,
    limits: &Limits,
) -> Result<BundledSkill, Refusal> {
    let origin = dir.join("/");
    // The digest's order: path component by component.
    files.sort_by(|a, b| Path::new(&a.path).cmp(Path::new(&b.path)));
    let manifest_path = if origin.is_empty() {
        SKILL_FILE.to_owned()
    } else {
        format!("{origin}/{SKILL_FILE}")
    };
    let invalid = |why: String| Refusal::InvalidSkill {
        path: manifest_path.clone(),
        why,
    };
    let Some(manifest) = files.iter().find(|f| f.path == SKILL_FILE) else {
        return Err(Refusal::MissingManifest(shown_origin(&origin)));
    };
    if manifest.content.len() as u64 > MAX_MANIFEST_BYTES {
        return Err(invalid(format!(
            "is {} bytes, more than the {MAX_MANIFEST_BYTES} an agent's SKILL.md may be",
            manifest.content.len()
        )));
    }
    let text = skill::manifest_text(&manifest.content).map_err(|error| {
        invalid(match error {
            ManifestError::Binary => "is a binary file, not text".to_owned(),
            _ => "is not valid UTF-8 text".to_owned(),
        })
    })?;
    stamp(text, INSTALLED_BY, INSTALLED_VERSION).map_err(|error| invalid(error.to_string()))?;
    let name = match dir.last() {
        Some(name) => name.clone(),
        None => top_skill_name(text, top, limits)
            .ok_or_else(|| invalid("names no skill: give its frontmatter a name".to_owned()))?,
    };
    // A folder no agent loads would be a skill installed where no listing shows it.
    if name.starts_with('.') {
        return Err(invalid(format!(
            "would be installed as {name:?}, a hidden folder, which agents do not load as a skill"
        )));
    }
    let declared = Declared::read(text, &name);
    Ok(BundledSkill {
        name,
        folder: dir
            .split_last()
            .map(|(_, folder)| folder.join("/"))
            .unwrap_or_default(),
        origin,
        files,
        declared,
    })
}

/// The name of a skill whose `SKILL.md` is at the bundle's top: a folder's own name, as for
/// every skill folder; an archive has no folder to lend one, so its frontmatter `name`, else
/// the archive's file name. The first that can be a folder's name.
fn top_skill_name(text: &str, top: &Top, limits: &Limits) -> Option<String> {
    let (first, second) = match top {
        Top::Folder(name) => (Some(name.clone()), Declared::read(text, name).name),
        Top::Archive(stem) => (Declared::read(text, stem).name, Some(stem.clone())),
    };
    [first, second]
        .into_iter()
        .flatten()
        .find(|name| part_problem(name, limits).is_none())
}

fn shown_origin(origin: &str) -> String {
    if origin.is_empty() {
        "the bundle's top".to_owned()
    } else {
        origin.to_owned()
    }
}

/// An archive's file name without its folder and archive extensions.
fn archive_stem(name: &str) -> String {
    let file = PathBuf::from(name)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let lower = file.to_ascii_lowercase();
    // A gzip file is read as a compressed tar whatever its name, so `.gz` alone names one too.
    for extension in browse::ARCHIVE_EXTENSIONS.iter().chain(&[".gz"]) {
        if lower.ends_with(extension) {
            return file[..file.len() - extension.len()].to_owned();
        }
    }
    file
}

/// What a source that is neither a folder nor a file is.
fn kind_of(file_type: &std::fs::FileType) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_fifo() {
            return "a FIFO".to_owned();
        }
        if file_type.is_socket() {
            return "a socket".to_owned();
        }
        if file_type.is_char_device() || file_type.is_block_device() {
            return "a device".to_owned();
        }
    }
    let _ = file_type;
    "a special file".to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn archive_names_lose_their_extensions() {
        assert_eq!(archive_stem("/x/pdf-tools.tar.gz"), "pdf-tools");
        assert_eq!(archive_stem("demo.SKILL"), "demo");
        assert_eq!(archive_stem("plain"), "plain");
    }

    #[test]
    fn a_skill_at_the_top_is_named_by_its_folder_or_else_by_its_frontmatter() {
        let limits = limits();
        let archive = |stem: &str| Top::Archive(stem.to_owned());
        let folder = |name: &str| Top::Folder(name.to_owned());
        let named_pdf = "---\nname: pdf\n---\n";
        let name = |text: &str, top: &Top| top_skill_name(text, top, &limits);
        assert_eq!(name(named_pdf, &archive("archive")).as_deref(), Some("pdf"));
        assert_eq!(name(named_pdf, &folder("tools")).as_deref(), Some("tools"));
        assert_eq!(name(named_pdf, &folder("")).as_deref(), Some("pdf"));
        assert_eq!(
            name("---\nname: ../x\n---\n", &archive("archive")).as_deref(),
            Some("archive")
        );
        assert_eq!(name("---\n---\n", &archive("")), None);
    }
}
