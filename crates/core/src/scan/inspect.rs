//! Reading one skill folder: its `SKILL.md`, its record, its files and their digest.

use std::ffi::OsStr;
use std::path::Path;
use std::time::SystemTime;

use crate::fs::Folder;
use crate::record::{self, Contents, Digest, Record, SkillFile, State};
use crate::skill::{self, Declared};

use super::Problem;
use super::discover::Broken;

/// What reading a skill folder found.
#[derive(Debug, Default)]
pub struct Inspection {
    pub declared: Declared,
    pub record: Option<Box<Record>>,
    pub state: Option<State>,
    pub digest: Option<Digest>,
    pub files: Vec<SkillFile>,
    pub modified: Option<SystemTime>,
    pub problems: Vec<Problem>,
}

/// Read the skill at `dir`, named after the folder `dir_name`; `at` is the opened folder it
/// lies in and its name there, when discovery kept that folder open.
pub fn inspect(
    dir: &Path,
    at: Option<(&Folder, &OsStr)>,
    dir_name: &str,
    broken: Option<&Broken>,
) -> Inspection {
    // A skill folder that cannot be entered (a link to nothing, say) has no `SKILL.md` any
    // agent could open: like an unopenable `SKILL.md`, it is one no agent lists.
    if let Some(broken) = broken {
        return Inspection {
            declared: Declared::unread(),
            ..unreadable(Problem::Broken(broken.clone()))
        };
    }
    // The folder is opened once: its `SKILL.md` is read through it, by name, and its walk
    // starts from it. A folder that cannot be opened (listed) may still let its `SKILL.md` be
    // read by path, as agents read it.
    let folder = match at {
        Some((parent, name)) => parent.open_in(name),
        None => Folder::open(dir),
    }
    .ok();
    let read = match &folder {
        Some(folder) => skill::read_manifest_in(folder),
        None => skill::read_manifest_noting_link(dir).map(|(bytes, linked)| skill::Manifest {
            bytes,
            linked,
            facts: None,
        }),
    };
    let skill::Manifest {
        bytes: manifest,
        linked,
        facts,
    } = match read {
        Ok(read) => read,
        // A `SKILL.md` that cannot be opened (a link to nothing, say) is one no agent lists.
        Err(error @ skill::ManifestError::Unreadable(_)) => {
            return Inspection {
                declared: Declared::unread(),
                ..unreadable(Problem::Manifest(error.to_string()))
            };
        }
        Err(error) => return unreadable(Problem::Manifest(error.to_string())),
    };
    let mut found = Inspection::default();
    let text = skill::manifest_text(&manifest);
    match &text {
        Ok(text) => found.declared = Declared::read_file(text, dir_name, linked),
        Err(error) => found.problems.push(Problem::Manifest(error.to_string())),
    }
    found.record = record::parse(&manifest).map(Box::new);
    if let Some(record) = &found.record
        && !record.version_is_semver()
    {
        found
            .problems
            .push(Problem::VersionNotSemver(record.installed_version.clone()));
    }
    let (contents, digest) = match folder {
        Some(folder) => Contents::read_in(folder, &manifest, facts),
        None => Contents::read(dir, &manifest),
    };
    found.modified = contents.files.iter().filter_map(|f| f.modified).max();
    found.state = Some(if text.is_err() {
        State::Unreadable
    } else {
        State::judge(found.record.as_deref(), digest.as_ref())
    });
    let Contents { files, obstacles } = contents;
    match digest {
        Ok(digest) => found.digest = Some(digest),
        // Every entry the walk could not take is named, not only the first.
        Err(_) if !obstacles.is_empty() => {
            found
                .problems
                .extend(obstacles.into_iter().map(Problem::Digest));
        }
        Err(obstacle) => found.problems.push(Problem::Digest(obstacle)),
    }
    found.files = files;
    found
        .problems
        .extend(found.declared.lints.iter().cloned().map(Problem::Lint));
    found
}

fn unreadable(problem: Problem) -> Inspection {
    Inspection {
        state: Some(State::Unreadable),
        problems: vec![problem],
        ..Inspection::default()
    }
}
