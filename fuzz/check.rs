//! What must hold for any input to the bundle reader: shared by the fuzz target and by the
//! replay of its corpus in `cargo test` (`tests/fuzz_corpus.rs`).
//!
//! The reader may refuse anything, but never panic, hang or over-allocate; what it accepts
//! must keep every rule (paths, bounds, no collisions), and for a tar stream the tar crate, an
//! independent reader, must list exactly the same files with exactly the same bytes.

use std::collections::BTreeMap;
use std::io::{Read, Write};

use skilldeck::bundle::{self, Bundle, Limits, collision_key, is_metadata, member_path};

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

fn check_one(data: &[u8], limits: &Limits) {
    let Ok(bundle) = bundle::read_archive("fuzz.tar", data, limits) else {
        return;
    };
    keeps_the_rules(&bundle, limits);
    if let Some(tar) = tar_stream(data) {
        agrees_with_the_tar_crate(&bundle, &tar);
    }
}

fn keeps_the_rules(bundle: &Bundle, limits: &Limits) {
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

/// The tar crate's regular files under each skill are the skill's files, byte for byte.
fn agrees_with_the_tar_crate(bundle: &Bundle, tar: &[u8]) {
    let mut listed: BTreeMap<String, Vec<u8>> = BTreeMap::new();
    let mut archive = tar::Archive::new(tar);
    for entry in archive
        .entries()
        .expect("the tar crate opens what skilldeck accepted")
    {
        let mut entry = entry.expect("the tar crate reads every entry skilldeck accepted");
        if !entry.header().entry_type().is_file() {
            continue;
        }
        let raw = entry.path_bytes().into_owned();
        let path = String::from_utf8(raw).expect("accepted names are UTF-8");
        let path = path.strip_prefix("./").unwrap_or(&path).to_owned();
        let mut content = Vec::new();
        entry
            .read_to_end(&mut content)
            .expect("the tar crate reads the data skilldeck accepted");
        assert!(
            listed.insert(path.clone(), content).is_none(),
            "the tar crate lists {path} twice"
        );
    }
    for skill in &bundle.skills {
        let prefix = if skill.origin.is_empty() {
            String::new()
        } else {
            format!("{}/", skill.origin)
        };
        let theirs: BTreeMap<&str, &Vec<u8>> = listed
            .iter()
            .filter_map(|(path, content)| Some((path.strip_prefix(&prefix)?, content)))
            .filter(|(path, _)| !path.split('/').any(is_metadata))
            .collect();
        let ours: BTreeMap<&str, &Vec<u8>> = skill
            .files
            .iter()
            .map(|f| (f.path.as_str(), &f.content))
            .collect();
        assert_eq!(
            ours, theirs,
            "skill {} differs from the tar crate's reading",
            skill.name
        );
    }
}
