//! Property tests of the bundle reader and the installer (archive-import-safety.md §4.4):
//!
//! - any skill written as a tar, tar.gz (one gzip member or two) or zip, with plain, pax or GNU
//!   long names and with or without folder entries, is read as exactly its files and installs
//!   to exactly those files, modes included;
//! - any mutation of an accepted .tar.gz, and any mutation of a tar's header or end, is either
//!   accepted with the same files or refused (a tar's data and a zip's names are covered by no
//!   checksum, so mutating those may change the files; that is the format, not a bug);
//! - an import the real binary refuses leaves the whole machine byte-identical.
//!
//! Seeded and bounded, so CI runs the same cases every time; `PROPTEST_CASES=N` runs N cases
//! of each property instead (`PROPTEST_CASES=5000 cargo test --release --test properties`).

use std::collections::BTreeMap;
use std::fs;
use std::path::PathBuf;

use crate::common::archive::{Tar, ZipEntry, gzip, skill_md, zip};
use crate::common::{Machine, oracle_digest, snapshot};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};
use skilldeck::bundle::{Bundle, limits, read_archive};

fn config(cases: u32) -> Config {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(cases);
    Config {
        cases,
        rng_seed: RngSeed::Fixed(0x5eed),
        failure_persistence: None,
        ..Config::default()
    }
}

/// A file of the skill: its path below the skill folder, content, executable bit.
type File = (String, Vec<u8>, bool);

/// A name no rule refuses: starting with one of `f`–`k` it is never a reserved device name,
/// never metadata, never hidden.
fn part() -> impl Strategy<Value = String> {
    (
        "[f-k]",
        proptest::collection::vec(prop_oneof!["[a-z0-9_-]", Just("x".repeat(20))], 0..4),
        prop_oneof![Just(""), Just(".md"), Just(".sh"), Just(".txt")],
    )
        .prop_map(|(first, rest, extension)| format!("{first}{}{extension}", rest.concat()))
}

/// A skill's files: `SKILL.md` and up to a dozen more, no path both a file and a folder.
fn files() -> impl Strategy<Value = Vec<File>> {
    proptest::collection::vec(
        (
            proptest::collection::vec(part(), 1..=4),
            proptest::collection::vec(any::<u8>(), 0..2048),
            any::<bool>(),
        ),
        0..12,
    )
    .prop_map(|candidates| {
        let mut kept: Vec<File> = Vec::new();
        for (parts, content, executable) in candidates {
            let path = parts.join("/");
            let clashes = kept.iter().any(|(other, _, _)| {
                *other == path
                    || other.starts_with(&format!("{path}/"))
                    || path.starts_with(&format!("{other}/"))
                    || path == "SKILL.md"
            });
            if !clashes {
                kept.push((path, content, executable));
            }
        }
        kept
    })
}

#[derive(Clone, Copy, Debug)]
enum Format {
    Tar,
    TarGz,
    /// Two gzip members.
    TarGzSplit,
    Zip,
}

#[derive(Clone, Copy, Debug)]
enum Naming {
    Plain,
    Pax,
    GnuLong,
}

#[derive(Clone, Debug)]
struct Skill {
    name: String,
    files: Vec<File>,
    format: Format,
    naming: Naming,
    folders: bool,
}

impl Skill {
    /// Every file, `SKILL.md` first.
    fn all_files(&self) -> Vec<File> {
        let mut all = vec![(
            "SKILL.md".to_owned(),
            skill_md(&self.name).into_bytes(),
            false,
        )];
        all.extend(self.files.iter().cloned());
        all
    }

    fn archive_name(&self) -> &'static str {
        match self.format {
            Format::Tar => "bundle.tar",
            Format::TarGz | Format::TarGzSplit => "bundle.tar.gz",
            Format::Zip => "bundle.zip",
        }
    }

    fn tar(&self) -> Vec<u8> {
        let mut tar = Tar::new();
        if self.folders {
            let mut folders: Vec<String> = vec![format!("{}/", self.name)];
            for (path, _, _) in &self.files {
                let parts: Vec<&str> = path.split('/').collect();
                for depth in 1..parts.len() {
                    folders.push(format!("{}/{}/", self.name, parts[..depth].join("/")));
                }
            }
            folders.sort();
            folders.dedup();
            for folder in folders {
                tar = self.named(tar, &folder).dir(&folder);
            }
        }
        for (path, content, executable) in self.all_files() {
            let name = format!("{}/{path}", self.name);
            tar = self.named(tar, &name);
            tar = if executable {
                tar.executable(&name, content)
            } else {
                tar.file(&name, content)
            };
        }
        tar.end().bytes()
    }

    /// The extended header that carries `name` for the entry after it, if one is needed.
    fn named(&self, tar: Tar, name: &str) -> Tar {
        match (self.naming, name.len() > 100) {
            (Naming::Pax, _) | (Naming::Plain, true) => tar.pax(&[("path", name.as_bytes())]),
            (Naming::GnuLong, _) => tar.long_name(name.as_bytes()),
            (Naming::Plain, false) => tar,
        }
    }

    fn bytes(&self) -> Vec<u8> {
        match self.format {
            Format::Tar => self.tar(),
            Format::TarGz => gzip(&self.tar()),
            Format::TarGzSplit => {
                let tar = self.tar();
                let cut = tar.len() / 2;
                [gzip(&tar[..cut]), gzip(&tar[cut..])].concat()
            }
            Format::Zip => {
                let all = self.all_files();
                let names: Vec<String> = all
                    .iter()
                    .map(|(path, _, _)| format!("{}/{path}", self.name))
                    .collect();
                let entries: Vec<ZipEntry<'_>> = all
                    .iter()
                    .zip(&names)
                    .map(|((_, content, executable), name)| ZipEntry {
                        name,
                        data: content,
                        mode: if *executable { 0o100_755 } else { 0o100_644 },
                    })
                    .collect();
                zip(&entries)
            }
        }
    }
}

fn skill() -> impl Strategy<Value = Skill> {
    (
        part(),
        files(),
        prop_oneof![
            Just(Format::Tar),
            Just(Format::TarGz),
            Just(Format::TarGzSplit),
            Just(Format::Zip)
        ],
        prop_oneof![
            Just(Naming::Plain),
            Just(Naming::Pax),
            Just(Naming::GnuLong)
        ],
        any::<bool>(),
    )
        .prop_map(|(name, files, format, naming, folders)| Skill {
            name: name.replace('.', "-"),
            files,
            format,
            naming,
            folders,
        })
}

/// The files of the one skill a bundle holds, by path.
fn read_files(bundle: &Bundle) -> BTreeMap<String, (Vec<u8>, bool)> {
    assert_eq!(bundle.skills.len(), 1, "{:?}", bundle.skills);
    bundle.skills[0]
        .files
        .iter()
        .map(|f| (f.path.clone(), (f.content.clone(), f.executable)))
        .collect()
}

fn listed(skill: &Skill) -> BTreeMap<String, (Vec<u8>, bool)> {
    skill
        .all_files()
        .into_iter()
        .map(|(path, content, executable)| (path, (content, executable)))
        .collect()
}

proptest! {
    #![proptest_config(config(48))]

    /// Any bundle the reader accepts installs to exactly the files it listed.
    #[test]
    fn an_accepted_bundle_installs_exactly_its_files(skill in skill()) {
        let bundle = read_archive(skill.archive_name(), &skill.bytes(), &limits())
            .unwrap_or_else(|refusal| panic!("{skill:?} was refused: {refusal}"));
        let files = read_files(&bundle);
        prop_assert_eq!(&files, &listed(&skill));
        prop_assert_eq!(&bundle.skills[0].name, &skill.name);

        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join("skills");
        let chosen = bundle.select(&[]).unwrap();
        skilldeck::install::install(&root, &chosen, false, &mut ()).unwrap();
        let dir = root.join(&skill.name);
        let installed = snapshot(&dir);
        let mut seen_files = BTreeMap::new();
        for (path, (kind, mode, content)) in &installed {
            match kind.as_str() {
                "dir" => prop_assert_eq!(mode & 0o7777, 0o755, "{}", path),
                "file" => {
                    let (listed_content, executable) = &files[path];
                    let want = if *executable { 0o755 } else { 0o644 };
                    prop_assert_eq!(mode & 0o7777, want, "{}", path);
                    if path != "SKILL.md" {
                        prop_assert_eq!(content, listed_content, "{}", path);
                    }
                    seen_files.insert(path.clone(), ());
                }
                other => prop_assert!(false, "{path} is a {other}"),
            }
        }
        prop_assert_eq!(seen_files.keys().collect::<Vec<_>>(), files.keys().collect::<Vec<_>>());
        let record = skilldeck::record::parse(&fs::read(dir.join("SKILL.md")).unwrap()).unwrap();
        prop_assert_eq!(record.installed_by, "skilldeck");
        prop_assert_eq!(record.content_digest, oracle_digest(&dir));
        // Nothing else in the root, nothing left beside it.
        prop_assert_eq!(fs::read_dir(&root).unwrap().count(), 1);
        prop_assert_eq!(fs::read_dir(tmp.path()).unwrap().count(), 1);
    }
}

#[derive(Clone, Debug)]
enum Mutation {
    /// XOR one byte with a non-zero value.
    Flip {
        at: usize,
        with: u8,
    },
    Truncate {
        at: usize,
    },
    Insert {
        at: usize,
        bytes: Vec<u8>,
    },
    Append {
        bytes: Vec<u8>,
    },
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        4 => (any::<usize>(), 1..=255u8).prop_map(|(at, with)| Mutation::Flip { at, with }),
        1 => any::<usize>().prop_map(|at| Mutation::Truncate { at }),
        1 => (any::<usize>(), proptest::collection::vec(any::<u8>(), 1..600))
            .prop_map(|(at, bytes)| Mutation::Insert { at, bytes }),
        1 => proptest::collection::vec(any::<u8>(), 1..600)
            .prop_map(|bytes| Mutation::Append { bytes }),
    ]
}

/// Where each header of a well-formed tar starts.
fn header_offsets(tar: &[u8]) -> Vec<usize> {
    let mut offsets = Vec::new();
    let mut at = 0;
    while tar[at..at + 512].iter().any(|b| *b != 0) {
        let field = String::from_utf8_lossy(&tar[at + 124..at + 135]).into_owned();
        let size = usize::from_str_radix(&field, 8).unwrap();
        offsets.push(at);
        at += 512 + size.div_ceil(512) * 512;
    }
    offsets
}

/// `mutation` applied to `bytes`, with its positions taken within `span` (a range of the
/// bytes) so a tar is only mutated where a checksum or the format's end covers it.
fn mutate(bytes: &[u8], mutation: &Mutation, span: std::ops::Range<usize>) -> Vec<u8> {
    let mut out = bytes.to_vec();
    let pick = |at: usize| span.start + at % span.len().max(1);
    match mutation {
        Mutation::Flip { at, with } => out[pick(*at)] ^= with,
        Mutation::Truncate { at } => out.truncate(pick(*at)),
        Mutation::Insert { at, bytes } => {
            let at = pick(*at);
            out.splice(at..at, bytes.iter().copied());
        }
        Mutation::Append { bytes } => out.extend_from_slice(bytes),
    }
    out
}

proptest! {
    #![proptest_config(config(512))]

    /// Any mutation of an accepted archive is either accepted with the same files or refused.
    #[test]
    fn a_mutated_archive_is_read_the_same_or_refused(
        mut skill in skill(),
        mutation in mutation(),
        gzipped in any::<bool>(),
        region in any::<usize>(),
    ) {
        skill.format = if gzipped { Format::TarGz } else { Format::Tar };
        let bytes = skill.bytes();
        let name = skill.archive_name();
        let original = read_files(&read_archive(name, &bytes, &limits()).unwrap());
        // gzip's CRC covers every byte; in a tar, each header is covered by its checksum and
        // the end by the end-of-archive marker.
        let span = if gzipped {
            0..bytes.len()
        } else {
            let headers = header_offsets(&bytes);
            match headers.get(region % (headers.len() + 1)) {
                Some(&at) => at..at + 512,
                None => bytes.len() - 1024..bytes.len(),
            }
        };
        let mutated = mutate(&bytes, &mutation, span);
        if let Ok(bundle) = read_archive(name, &mutated, &limits()) {
            prop_assert_eq!(read_files(&bundle), original, "{:?}", mutation);
        }
    }
}

/// A machine whose Claude Code root holds `existing`, a copy of the skill not installed by
/// skilldeck, when asked.
fn machine_with(skill: &Skill, existing: bool) -> (Machine, PathBuf) {
    let machine = Machine::new();
    let root = machine.home.join(".claude/skills");
    fs::create_dir_all(&root).unwrap();
    crate::common::write_skill(&root.join("bystander"), &[("notes.md", "keep me\n")]);
    if existing {
        crate::common::write_skill(&root.join(&skill.name), &[("mine.md", "the user's own\n")]);
    }
    (machine, root)
}

proptest! {
    #![proptest_config(config(32))]

    /// An import the real binary refuses leaves the whole machine byte-identical: the root,
    /// what is beside it, the snapshot store.
    #[test]
    fn a_refused_import_leaves_the_machine_as_it_was(
        skill in skill(),
        mutation in mutation(),
        conflict in any::<bool>(),
    ) {
        let (machine, root) = machine_with(&skill, conflict);
        let bytes = skill.bytes();
        let bytes = if conflict { bytes } else { mutate(&bytes, &mutation, 0..bytes.len()) };
        let source = machine.root().join(skill.archive_name());
        fs::write(&source, &bytes).unwrap();
        let before = snapshot(&machine.root());
        let output = machine.run(&[
            "import",
            source.to_str().unwrap(),
            "--to",
            root.to_str().unwrap(),
        ]);
        if !output.status.success() {
            prop_assert_eq!(output.status.code(), Some(1), "{}", String::from_utf8_lossy(&output.stderr));
            prop_assert!(!output.stderr.is_empty());
            prop_assert!(snapshot(&machine.root()) == before, "a refused import changed the machine");
        } else {
            prop_assert!(!conflict);
        }
    }
}

/// A name part from a hostile alphabet: what Windows, macOS or a tar reader treats
/// differently (`:`, tab, device names, 8.3 short names, case and Unicode twins, dots,
/// version-control folders), beside ordinary names.
fn hostile_part() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => part(),
        1 => prop::sample::select(vec![
            "a:b.md", "tab\there.md", "aux", "AUX.md", "nul.txt", "com1", "GIT~1", "SKILL~1.MD",
            "Notes.md", "notes.md", "NOTES.md", "\u{3c3}.md", "\u{3c2}.md", "\u{17f}kill.md",
            "Skill.md", "caf\u{e9}.md", "cafe\u{301}.md", "\u{212a}.md", "k.md", "trailing.",
            "space ", ".hidden", ".hg", ".GIT", "what?.md", "\u{200b}zw.md", "日本語.md",
            "-dash.md", "a*b", "\u{131}.md", "i.md",
        ])
        .prop_map(str::to_owned),
    ]
}

/// A skill folder on disk named from the hostile alphabet: `SKILL.md` and up to eight more.
fn hostile_files() -> impl Strategy<Value = Vec<(String, Vec<u8>)>> {
    proptest::collection::vec(
        (
            proptest::collection::vec(hostile_part(), 1..=3),
            proptest::collection::vec(any::<u8>(), 0..64),
        ),
        0..8,
    )
    .prop_map(|files| {
        files
            .into_iter()
            .map(|(parts, content)| (parts.join("/"), content))
            .collect()
    })
}

proptest! {
    #![proptest_config(config(64))]

    /// What `export` writes, `import` accepts with exactly the files packed; what it cannot
    /// write so, it refuses naming the file.
    #[test]
    fn export_then_import_round_trips_or_export_names_the_file(files in hostile_files()) {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("demo");
        fs::create_dir_all(&dir).unwrap();
        fs::write(dir.join("SKILL.md"), skill_md("demo")).unwrap();
        let mut written = Vec::new();
        for (path, content) in &files {
            let at = dir.join(path);
            // A name this file system cannot hold, or a file where a folder is: not a case.
            let made = at.parent().is_some_and(|p| fs::create_dir_all(p).is_ok())
                && !at.exists()
                && fs::write(&at, content).is_ok();
            if made {
                written.push(path.clone());
            }
        }
        match skilldeck::snapshot::export::export(&dir) {
            Err(error) => {
                let shown = error.to_string();
                prop_assert!(error.is_refusal(), "{shown}");
                prop_assert!(shown.contains("import would refuse"), "{shown}");
                // The file is named: some part of some path written, as the bundle shows it.
                let named = written.iter().any(|path| {
                    path.split('/').any(|part| shown.contains(&part.escape_default().to_string()) || shown.contains(part))
                });
                prop_assert!(named, "{shown} names none of {written:?}");
            }
            Ok(package) => {
                let bundle = read_archive("demo.tar.gz", &package.archive, &limits())
                    .unwrap_or_else(|refusal| panic!("export wrote what import refuses: {refusal}"));
                let imported: BTreeMap<String, Vec<u8>> = read_files(&bundle)
                    .into_iter()
                    .map(|(path, (content, _))| (path, content))
                    .collect();
                let on_disk: BTreeMap<String, Vec<u8>> = skilldeck::snapshot::walk::Listing::read(&dir)
                    .unwrap()
                    .files
                    .iter()
                    .filter(|f| !package.left_out.iter().any(|(rel, _)| *rel == f.rel))
                    .map(|f| (f.rel.clone(), fs::read(&f.source).unwrap()))
                    .collect();
                prop_assert_eq!(imported.keys().collect::<Vec<_>>(), on_disk.keys().collect::<Vec<_>>());
                prop_assert_eq!(package.files, imported.len());
            }
        }
    }
}
