//! What must hold for any input to the bundle reader: shared by the fuzz targets and by the
//! replay of their corpora in `cargo test` (`tests/fuzz_corpus.rs`).
//!
//! The reader may refuse anything, but never panic, hang or over-allocate; what it accepts
//! must keep every rule (paths, bounds, no collisions), and for a tar stream the tar crate, an
//! independent reader, must list exactly the same files with exactly the same bytes.

use std::collections::BTreeMap;
use std::io::{Read, Write};

use skilldeck_core::bundle::{self, Bundle, Limits, collision_key, is_metadata, member_path};

use super::tar_oracle::{self, Member, MemberKind};

/// Small bounds, so the fuzzer reaches them often and every run stays fast.
pub fn limits() -> Limits {
    Limits {
        entries: 64,
        bytes: 1 << 20,
        file_bytes: 256 << 10,
        stream_bytes: 2 << 20,
        depth: 8,
        path_bytes: 256,
        name_bytes: 64,
    }
}

/// Check one input as it is, and (when it is not gzip already) wrapped in gzip, so that
/// mutations of a tar reach the tar walk through a valid compressed stream.
pub fn check(data: &[u8]) {
    let limits = limits();
    check_one(data, &limits);
    if !data.starts_with(&[0x1f, 0x8b]) && data.get(257..262) == Some(b"ustar") {
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(data).expect("gzip into memory");
        check_one(&gz.finish().expect("gzip into memory"), &limits);
    }
}

/// Check one input as an import reads it; the bundle when it was accepted.
pub fn check_one(data: &[u8], limits: &Limits) -> Option<Bundle> {
    let bundle = bundle::read_archive("fuzz", data, limits).ok()?;
    keeps_the_rules(&bundle, limits);
    if let Some(tar) = tar_stream(data) {
        agrees_with(&bundle, &tar_crate_members(&tar), "the tar crate");
        let listing =
            tar_oracle::read(&tar).expect("the independent reader reads what skilldeck accepted");
        assert!(
            !listing.after_end,
            "skilldeck accepted data after the end-of-archive marker"
        );
        assert!(
            !listing.unterminated,
            "skilldeck accepted an archive without its end marker"
        );
        agrees_with(&bundle, &listing.members, "the independent reader");
    }
    Some(bundle)
}

/// Check `data` as the tar inside a gzip stream of two members, cut at a block boundary near
/// its middle: mutations reach the tar walk through a valid compressed stream, and the reader
/// must join the members.
pub fn check_gzip(data: &[u8]) {
    let cut = (data.len() / 2) / 512 * 512;
    let mut stream = Vec::new();
    for part in [&data[..cut], &data[cut..]] {
        if part.is_empty() {
            continue;
        }
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(part).expect("gzip into memory");
        stream.extend(gz.finish().expect("gzip into memory"));
    }
    check_one(&stream, &limits());
}

pub fn keeps_the_rules(bundle: &Bundle, limits: &Limits) {
    let mut total = 0u64;
    let mut names = BTreeMap::new();
    for skill in &bundle.skills {
        let key = collision_key(&skill.name);
        assert!(
            names.insert(key, &skill.name).is_none(),
            "two skills named {}",
            skill.name
        );
        assert!(skill.files.iter().any(|f| f.path == "SKILL.md"));
        let mut keys: BTreeMap<Vec<String>, &str> = BTreeMap::new();
        for file in &skill.files {
            let full = if skill.origin.is_empty() {
                file.path.clone()
            } else {
                format!("{}/{}", skill.origin, file.path)
            };
            let path = member_path(full.as_bytes(), limits)
                .expect("an accepted path passes the rules")
                .expect("a file is not the top");
            assert!(!path.parts.iter().any(|p| is_metadata(p)), "{full}");
            let size = file.content.len() as u64;
            assert!(size <= limits.file_bytes);
            total += size;
            let key: Vec<String> = file.path.split('/').map(collision_key).collect();
            assert!(
                keys.insert(key, &file.path).is_none(),
                "collision at {full}"
            );
        }
        // No file is also used as a folder.
        for (key, path) in &keys {
            for other in keys.keys() {
                assert!(
                    !(other.len() > key.len() && other.starts_with(key)),
                    "{path} is a file and a folder"
                );
            }
        }
    }
    assert!(total <= limits.bytes);
}

/// The tar stream inside `data`, when it is one (plain, or every gzip member inflated).
fn tar_stream(data: &[u8]) -> Option<Vec<u8>> {
    if data.starts_with(&[0x1f, 0x8b]) {
        let mut tar = Vec::new();
        flate2::read::MultiGzDecoder::new(data)
            .read_to_end(&mut tar)
            .expect("an accepted gzip stream inflates");
        Some(tar)
    } else if data.get(257..262) == Some(b"ustar") {
        Some(data.to_vec())
    } else {
        None
    }
}

/// The tar crate's reading of the same stream, as members.
fn tar_crate_members(tar: &[u8]) -> Vec<Member> {
    let mut members = Vec::new();
    let mut archive = tar::Archive::new(tar);
    for entry in archive
        .entries()
        .expect("the tar crate opens what skilldeck accepted")
    {
        let mut entry = entry.expect("the tar crate reads every entry skilldeck accepted");
        // The tar crate returns a global pax header as an entry (archive-import-safety.md
        // §2.2 item 3); skilldeck accepts only a comment there.
        if entry.header().entry_type() == tar::EntryType::XGlobalHeader {
            continue;
        }
        let raw = entry.path_bytes().into_owned();
        let name = String::from_utf8(raw).expect("accepted names are UTF-8");
        let name = name.strip_prefix("./").map(str::to_owned).unwrap_or(name);
        let flag = entry.header().entry_type();
        let kind = if flag.is_file() {
            let mut data = Vec::new();
            entry
                .read_to_end(&mut data)
                .expect("the tar crate reads the data skilldeck accepted");
            let mode = entry.header().mode().expect("an accepted mode");
            MemberKind::File {
                data,
                executable: mode & 0o100 != 0,
            }
        } else if flag.is_dir() {
            MemberKind::Folder
        } else {
            MemberKind::Other(flag.as_byte())
        };
        members.push(Member { name, kind });
    }
    members
}

/// Another reader's members under each skill are the skill's files, byte for byte and mode for
/// mode; it sees no link or device inside a skill; what lies outside every skill is left out.
pub fn agrees_with(bundle: &Bundle, members: &[Member], reader: &str) {
    let outside = |name: &str| {
        !bundle.skills.iter().any(|skill| {
            skill.origin.is_empty()
                || name == skill.origin
                || name.starts_with(&format!("{}/", skill.origin))
        })
    };
    for member in members {
        let name = member.name.trim_end_matches('/');
        if name.is_empty() || name.split('/').any(is_metadata) {
            continue;
        }
        if outside(name) && !matches!(member.kind, MemberKind::Folder) {
            assert!(
                bundle.left_out.iter().any(|left| left == name),
                "{reader} lists {name}, which skilldeck neither installs nor leaves out"
            );
        }
    }
    for skill in &bundle.skills {
        let prefix = if skill.origin.is_empty() {
            String::new()
        } else {
            format!("{}/", skill.origin)
        };
        let mut theirs: BTreeMap<&str, (&[u8], bool)> = BTreeMap::new();
        for member in members {
            let Some(path) = member.name.strip_prefix(&prefix) else {
                continue;
            };
            if path.split('/').any(is_metadata) {
                continue;
            }
            match &member.kind {
                MemberKind::Folder => {}
                MemberKind::File { data, executable } => assert!(
                    theirs.insert(path, (data, *executable)).is_none(),
                    "{reader} lists {} twice",
                    member.name
                ),
                MemberKind::Other(flag) => panic!(
                    "{reader} reads {} as type {:?} inside skill {}",
                    member.name, *flag as char, skill.name
                ),
            }
        }
        let ours: BTreeMap<&str, (&[u8], bool)> = skill
            .files
            .iter()
            .map(|f| (f.path.as_str(), (f.content.as_slice(), f.executable)))
            .collect();
        assert_eq!(
            ours, theirs,
            "skill {} differs from {reader}'s reading",
            skill.name
        );
    }
}
