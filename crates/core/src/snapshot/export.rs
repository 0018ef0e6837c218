//! A skill packed for sharing: a reproducible gzip-compressed tar of its files, secrets
//! removed (skill-format-and-roots.md §3.5).
//!
//! Files are taken as a snapshot takes them ([`walk`](super::walk)), sorted by path, each as a
//! regular entry with mtime 0, no owner, mode 0644 or 0755, PAX records for what a ustar header
//! cannot hold; so the same content always gives the same bytes. Every file is scanned by
//! [`redact`](super::redact), and so is its path ([`Names`]): a file whose name holds a
//! secret is packed under the name without it. What cannot be cleaned is left out of the package and listed
//! with why: a file holding a secret the redaction cannot cut out, always; a file it could not
//! read through (binary, compressed, encoded) and a `.env` file, unless the user asks for them
//! ([`Unscanned::Include`]). A file that cannot be read fails the export, and so does a
//! `SKILL.md` that would be left out, since a package without one is no skill. An archive over
//! [`EXPORT_BOUND`] is refused. A package `import` would refuse is not written either: every
//! name goes through the bundle's own path rules before it is packed, and the package is read
//! back as an import reads it, so what export writes is what import accepts ([`NotImportable`]).
//! Nothing on disk is changed.
//!
//! [`NotImportable`]: ExportError::NotImportable

use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use flate2::{Compression, GzBuilder};

use crate::bundle::{self, Refusal};
use crate::fs::{At, Links, open_regular, set_mode};

use crate::skill::{Frontmatter, SKILL_FILE};

use super::redact::{Names, Withheld, redact, secret_file};
use super::walk::Listing;
use super::{COPY_BOUND, SnapshotError};

/// The largest archive an export writes.
pub const EXPORT_BOUND: u64 = 5 << 20;

/// Why a skill was not exported. Nothing was written.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    #[error(
        "{} is {} MiB, over the {} MiB a skill may hold to be exported",
        .dir.display(),
        .size.div_ceil(1 << 20),
        COPY_BOUND >> 20
    )]
    SkillTooLarge { dir: PathBuf, size: u64 },
    #[error(
        "the export of {} would be {:.1} MiB, over the {} MiB bound; nothing was written",
        .dir.display(),
        *.size as f64 / f64::from(1 << 20),
        EXPORT_BOUND >> 20
    )]
    ArchiveTooLarge { dir: PathBuf, size: u64 },
    #[error("{0}; import would refuse the package, so nothing was exported")]
    NotImportable(Refusal),
    #[error("{SKILL_FILE} could not be exported: it is {0}")]
    Definition(Withheld),
    #[error(transparent)]
    Snapshot(#[from] SnapshotError),
    #[error("{} could not be written: {}", .path.display(), crate::fs::said(.source))]
    Write { path: PathBuf, source: io::Error },
    #[error("there is already a file at {}; nothing was exported (give another name, or --force to replace it)", .0.display())]
    Exists(PathBuf),
    #[error("there is no folder {}; nothing was exported (create it first, or give a folder that exists)", .0.display())]
    NoFolder(PathBuf),
    #[error("{} is not a .tar.gz name, and an export is a gzip-compressed tar: name it FILE.tar.gz (or give a folder to export into); nothing was exported", .0.display())]
    NotTarGz(PathBuf),
}

impl ExportError {
    fn write(path: PathBuf, source: io::Error) -> Self {
        Self::Write { path, source }
    }

    /// Whether skilldeck refused, rather than failed to read or write.
    pub fn is_refusal(&self) -> bool {
        match self {
            ExportError::SkillTooLarge { .. }
            | ExportError::ArchiveTooLarge { .. }
            | ExportError::Definition(_)
            | ExportError::NotImportable(_)
            | ExportError::Exists(_)
            | ExportError::NotTarGz(_)
            | ExportError::NoFolder(_) => true,
            ExportError::Snapshot(error) => error.is_refusal(),
            ExportError::Write { .. } => false,
        }
    }
}

/// What becomes of the files the redaction could not read through, and of `.env` files.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unscanned {
    /// Left out of the package and listed: what nobody asked for does not leave.
    LeaveOut,
    /// Packed, as they are (a `.env` file redacted like any text), and listed: the user asked.
    /// A file holding a secret that cannot be cut out is left out all the same.
    Include,
}

/// A packed skill.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Export {
    /// The gzip-compressed tar.
    pub archive: Vec<u8>,
    /// Each secret removed: the file and the rule that found it.
    pub redacted: Vec<(String, &'static str)>,
    /// Each file packed under another name, because its path held a secret: the path and the
    /// name it is packed under.
    pub renamed: Vec<(String, String)>,
    /// Each file of the skill not in the package, and why.
    pub left_out: Vec<(String, Withheld)>,
    /// Each file packed although it could not be read through, because the user asked.
    pub unscanned: Vec<(String, Withheld)>,
    /// How many files the package holds.
    pub files: usize,
    /// The version its `SKILL.md` declares ([`Frontmatter::version`]), when it is one a file
    /// name can hold: what the archive is named after, beside the skill's name.
    pub version: Option<String>,
}

/// Pack the skill folder at `dir`, leaving out what could not be scanned.
///
/// # Errors
/// [`ExportError`] says why; nothing is written.
pub fn export(dir: &Path) -> Result<Export, ExportError> {
    export_with(dir, Unscanned::LeaveOut)
}

/// Pack the skill folder at `dir`, with what could not be scanned as `unscanned` says.
///
/// # Errors
/// [`ExportError`] says why; nothing is written.
pub fn export_with(dir: &Path, unscanned: Unscanned) -> Result<Export, ExportError> {
    let listing = Listing::read(dir)?;
    let size = listing.total_size();
    if size > COPY_BOUND {
        return Err(ExportError::SkillTooLarge {
            dir: dir.to_path_buf(),
            size,
        });
    }
    let gzip = GzBuilder::new()
        .mtime(0)
        .write(Vec::new(), Compression::best());
    let mut tar = tar::Builder::new(gzip);
    let include = unscanned == Unscanned::Include;
    let mut package = Export::default();
    // Every entry under the skill's folder name: the archive unpacks as one folder, and is
    // imported under that name whatever the archive is called (`pdf-1.2.0.tar.gz`).
    let top = listing
        .root
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let limits = bundle::limits();
    let mut names = Names::default();
    for file in &listing.files {
        // A name leaves with the package as its content does: packed without its secrets.
        let name = match names.clean(&file.rel) {
            Ok(name) => name,
            Err(why) => {
                package.left_out.push((file.rel.clone(), why));
                continue;
            }
        };
        // The import's rule, before anything of the file is read: one the bundle would refuse
        // is named here rather than packed.
        let packed_path = format!("{top}/{}", name.path);
        bundle::member_path(packed_path.as_bytes(), &limits).map_err(ExportError::NotImportable)?;
        if name.path != file.rel {
            let found = name.found.iter().map(|rule| (file.rel.clone(), *rule));
            package.redacted.extend(found);
            package.renamed.push((file.rel.clone(), name.path.clone()));
        }
        if secret_file(&file.rel) && !include {
            package
                .left_out
                .push((file.rel.clone(), Withheld::SecretFile));
            continue;
        }
        let mut content = Vec::new();
        open_regular(&file.source, Links::Refuse)
            .and_then(|f| f.take(COPY_BOUND + 1).read_to_end(&mut content))
            .at(&file.source, SnapshotError::read)?;
        let packed = match redact(&content) {
            Ok(clean) => {
                if file.rel == SKILL_FILE {
                    package.version = version_of(&clean.content);
                }
                let found = clean.found.iter().map(|rule| (file.rel.clone(), *rule));
                package.redacted.extend(found);
                if secret_file(&file.rel) {
                    package
                        .unscanned
                        .push((file.rel.clone(), Withheld::SecretFile));
                }
                clean.content
            }
            Err(why) if file.rel == SKILL_FILE => return Err(ExportError::Definition(why)),
            Err(why) if include && why.may_be_included() => {
                package.unscanned.push((file.rel.clone(), why));
                content.as_slice().into()
            }
            Err(why) => {
                package.left_out.push((file.rel.clone(), why));
                continue;
            }
        };
        append(&mut tar, &packed_path, &packed, file.executable).map_err(in_memory)?;
        package.files += 1;
    }
    let archive = tar
        .into_inner()
        .and_then(|gzip| gzip.finish())
        .map_err(in_memory)?;
    if archive.len() as u64 > EXPORT_BOUND {
        return Err(ExportError::ArchiveTooLarge {
            dir: dir.to_path_buf(),
            size: archive.len() as u64,
        });
    }
    // Read back as `import` reads it: names that collide on another file system, the bounds,
    // the skill's own name. The name it would be imported under is the folder's.
    let name = format!("{top}.tar.gz");
    bundle::read_archive(&name, &archive, &limits).map_err(ExportError::NotImportable)?;
    package.archive = archive;
    Ok(package)
}

impl Export {
    /// Write the archive to `out`, put in place in one rename only once it is whole. A file
    /// already at `out` is replaced only when `replace` says so; otherwise the rename itself
    /// refuses to replace one, so a file that appears meanwhile is not lost either.
    ///
    /// # Errors
    /// [`ExportError::Exists`] when `out` exists and may not be replaced;
    /// [`ExportError::Write`] when the file cannot be written.
    pub fn write_to(&self, out: &Path, replace: bool) -> Result<(), ExportError> {
        let parent = match out.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => parent,
            _ => Path::new("."),
        };
        let mut file = tempfile::Builder::new()
            .prefix(".skilldeck-export-")
            .tempfile_in(parent)
            .at(out, ExportError::write)?;
        file.write_all(&self.archive).at(out, ExportError::write)?;
        file.as_file().sync_all().at(out, ExportError::write)?;
        set_mode(file.as_file(), 0o644).at(out, ExportError::write)?;
        let persisted = if replace {
            file.persist(out).map(drop)
        } else {
            file.persist_noclobber(out).map(drop)
        };
        persisted.map_err(|e| {
            if e.error.kind() == io::ErrorKind::AlreadyExists {
                ExportError::Exists(out.to_path_buf())
            } else {
                ExportError::write(out.to_path_buf(), e.error)
            }
        })
    }
}

/// One regular entry: ustar header, mtime 0, no owner; a PAX record carries a path too long
/// for the header.
fn append<W: Write>(
    tar: &mut tar::Builder<W>,
    path: &str,
    content: &[u8],
    executable: bool,
) -> io::Result<()> {
    let mut header = tar::Header::new_ustar();
    header.set_entry_type(tar::EntryType::Regular);
    header.set_size(content.len() as u64);
    header.set_mode(if executable { 0o755 } else { 0o644 });
    header.set_mtime(0);
    header.set_uid(0);
    header.set_gid(0);
    header.set_username("")?;
    header.set_groupname("")?;
    if header.set_path(path).is_err() {
        tar.append_pax_extensions([("path", path.as_bytes())])?;
        // Readers that know PAX take the record; the header's own name is a stand-in.
        header.set_path("long-path")?;
    }
    header.set_cksum();
    tar.append(&header, content)
}

/// The version a `SKILL.md`'s frontmatter declares, when a file name can hold it.
fn version_of(skill_md: &[u8]) -> Option<String> {
    let text = std::str::from_utf8(skill_md).ok()?;
    Frontmatter::parse(text)
        .ok()?
        .version()
        .filter(|version| nameable(version))
}

/// Whether a declared version can go in an archive's file name as it is (letters, digits,
/// `.`, `_`, `+`, `-`; not starting with a dot): `../x` or a 1,000-character one cannot.
pub fn nameable(version: &str) -> bool {
    version.len() <= 64
        && !version.starts_with('.')
        && version
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "._+-".contains(c))
}

fn in_memory(source: io::Error) -> ExportError {
    ExportError::write(PathBuf::from("(the archive in memory)"), source)
}
