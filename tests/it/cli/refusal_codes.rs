//! Refusal codes say what the member is, in tar, tar.gz and zip alike: a link (or another
//! entry that is not a folder) with members stored below it is `unsupported_entry` naming the
//! link, not a file-and-folder conflict; two members of one name are `duplicate_path` naming
//! the path, not the zip library's "malformed"; names that differ only in case remain a
//! `path_conflict` naming both.

use crate::common::Machine;
use crate::common::archive::{Header, Tar, ZipEntry, skill_md, zip};
use skilldeck::bundle::{Refusal, limits, read_archive};

fn refused(name: &str, bytes: &[u8]) -> Refusal {
    match read_archive(name, bytes, &limits()) {
        Ok(bundle) => panic!("{name}: accepted {bundle:?}"),
        Err(refusal) => refusal,
    }
}

fn link(name: &str, flag: u8, target: &str) -> Header {
    let mut header = Header::new(name, flag, b"");
    header.linkname = target.as_bytes().to_vec();
    header
}

fn demo() -> Tar {
    Tar::new().skill("demo")
}

/// Assert the tar and its gzip form are both refused with `code`, the sentence holding each of
/// `names`.
fn assert_tar(trick: &str, tar: &Tar, code: &str, names: &[&str]) {
    for (name, bytes) in [("b.tar", tar.bytes()), ("b.tar.gz", tar.gz())] {
        let refusal = refused(name, &bytes);
        assert_eq!(refusal.code(), code, "{trick} ({name}): {refusal}");
        for wanted in names {
            assert!(
                refusal.to_string().contains(wanted),
                "{trick} ({name}): {refusal} does not name {wanted}"
            );
        }
    }
}

fn assert_zip(trick: &str, bytes: &[u8], code: &str, names: &[&str]) {
    let refusal = refused("b.zip", bytes);
    assert_eq!(refusal.code(), code, "{trick}: {refusal}");
    for wanted in names {
        assert!(
            refusal.to_string().contains(wanted),
            "{trick}: {refusal} does not name {wanted}"
        );
    }
}

/// `bytes` with every occurrence of `from` overwritten by `to`, of the same length: how a zip
/// with two members of one name is made, since the zip writer will not write one.
fn rename(bytes: &[u8], from: &str, to: &str) -> Vec<u8> {
    assert_eq!(from.len(), to.len());
    let mut out = bytes.to_vec();
    let mut at = 0;
    while let Some(found) = out[at..]
        .windows(from.len())
        .position(|w| w == from.as_bytes())
    {
        out[at + found..at + found + to.len()].copy_from_slice(to.as_bytes());
        at += found + to.len();
    }
    out
}

fn zip_link(name: &'static str) -> ZipEntry<'static> {
    ZipEntry {
        name,
        data: b"../..",
        mode: 0o120_777,
    }
}

#[test]
fn a_member_below_a_link_names_the_link() {
    let below = "is a symbolic link but is also stored as a folder, with demo/lnk/x below it";
    assert_tar(
        "symbolic link, then a file below it",
        &demo()
            .header(&link("demo/lnk", b'2', "../.."))
            .file("demo/lnk/x", "x")
            .end(),
        "unsupported_entry",
        &["demo/lnk ", below],
    );
    assert_tar(
        "symbolic link, then a folder below it",
        &demo()
            .header(&link("demo/lnk", b'2', "/etc"))
            .dir("demo/lnk/deeper/")
            .end(),
        "unsupported_entry",
        &["demo/lnk is a symbolic link", "demo/lnk/deeper below it"],
    );
    assert_tar(
        "a file, then a symbolic link above it",
        &demo()
            .file("demo/lnk/x", "x")
            .header(&link("demo/lnk", b'2', "../.."))
            .end(),
        "unsupported_entry",
        &["demo/lnk ", below],
    );
    assert_tar(
        "a folder, then a symbolic link of its name",
        &demo()
            .dir("demo/lnk/")
            .header(&link("demo/lnk", b'2', "../.."))
            .end(),
        "unsupported_entry",
        &["demo/lnk is a symbolic link but is also stored as a folder"],
    );
    assert_tar(
        "hard link, then a file below it",
        &demo()
            .header(&link("demo/hard", b'1', "demo/SKILL.md"))
            .file("demo/hard/x", "x")
            .end(),
        "unsupported_entry",
        &["demo/hard is a hard link", "demo/hard/x below it"],
    );
    assert_tar(
        "a link outside every skill, written through",
        &demo()
            .header(&link("lnk", b'2', "/"))
            .file("lnk/etc/x", "x")
            .end(),
        "unsupported_entry",
        &["lnk is a symbolic link", "lnk/etc/x below it"],
    );
    assert_tar(
        "FIFO with a file below it",
        &demo()
            .header(&Header::new("demo/p", b'6', b""))
            .file("demo/p/x", "x")
            .end(),
        "unsupported_entry",
        &["demo/p is a FIFO", "demo/p/x below it"],
    );
    let manifest = skill_md("demo");
    assert_zip(
        "zip: symbolic link, then a file below it",
        &zip(&[
            ZipEntry::file("demo/SKILL.md", manifest.as_bytes()),
            zip_link("demo/lnk"),
            ZipEntry::file("demo/lnk/x", b"x"),
        ]),
        "unsupported_entry",
        &["demo/lnk ", below],
    );
    assert_zip(
        "zip: a file, then a symbolic link above it",
        &zip(&[
            ZipEntry::file("demo/SKILL.md", manifest.as_bytes()),
            ZipEntry::file("demo/lnk/x", b"x"),
            zip_link("demo/lnk"),
        ]),
        "unsupported_entry",
        &["demo/lnk ", below],
    );
}

#[test]
fn two_members_of_one_name_are_a_duplicate_path() {
    assert_tar(
        "a file twice",
        &demo().file("demo/a.md", "1").file("demo/a.md", "2").end(),
        "duplicate_path",
        &["demo/a.md appears more than once"],
    );
    assert_tar(
        "a folder twice",
        &demo().dir("demo/docs/").dir("demo/docs/").end(),
        "duplicate_path",
        &["demo/docs appears more than once"],
    );
    assert_tar(
        "a file and a link of one name",
        &demo()
            .file("demo/a.md", "1")
            .header(&link("demo/a.md", b'2', "x"))
            .end(),
        "duplicate_path",
        &["demo/a.md appears more than once"],
    );
    let manifest = skill_md("demo");
    let skill = || ZipEntry::file("demo/SKILL.md", manifest.as_bytes());
    let twice = rename(
        &zip(&[
            skill(),
            ZipEntry::file("demo/a.md", b"1"),
            ZipEntry::file("demo/b.md", b"2"),
        ]),
        "demo/b.md",
        "demo/a.md",
    );
    assert_zip(
        "zip: a file twice",
        &twice,
        "duplicate_path",
        &["demo/a.md appears more than once"],
    );
    let manifest_twice = rename(
        &zip(&[skill(), ZipEntry::file("demo/SKILL.mx", b"---\n")]),
        "demo/SKILL.mx",
        "demo/SKILL.md",
    );
    assert_zip(
        "zip: the manifest twice",
        &manifest_twice,
        "duplicate_path",
        &["demo/SKILL.md appears more than once"],
    );
    let folder_twice = rename(
        &zip(&[
            skill(),
            ZipEntry::file("demo/docs/", b""),
            ZipEntry::file("demo/dacs/", b""),
        ]),
        "demo/dacs/",
        "demo/docs/",
    );
    assert_zip(
        "zip: a folder twice",
        &folder_twice,
        "duplicate_path",
        &["demo/docs appears more than once"],
    );
}

#[test]
fn names_that_differ_only_in_case_stay_a_path_conflict_naming_both() {
    let both = ["demo/A.md", "demo/a.md", "letter case"];
    assert_tar(
        "two files differing in case",
        &demo().file("demo/A.md", "1").file("demo/a.md", "2").end(),
        "path_conflict",
        &both,
    );
    let manifest = skill_md("demo");
    assert_zip(
        "zip: two files differing in case",
        &zip(&[
            ZipEntry::file("demo/SKILL.md", manifest.as_bytes()),
            ZipEntry::file("demo/A.md", b"1"),
            ZipEntry::file("demo/a.md", b"2"),
        ]),
        "path_conflict",
        &both,
    );
}

#[test]
fn the_command_line_gives_the_same_codes() {
    let machine = Machine::new();
    let manifest = skill_md("demo");
    let twice = rename(
        &zip(&[
            ZipEntry::file("demo/SKILL.md", manifest.as_bytes()),
            ZipEntry::file("demo/a.md", b"1"),
            ZipEntry::file("demo/b.md", b"2"),
        ]),
        "demo/b.md",
        "demo/a.md",
    );
    let through = demo()
        .header(&link("demo/lnk", b'2', "../.."))
        .file("demo/lnk/x", "x")
        .end();
    for (name, bytes, code, path) in [
        ("twice.zip", twice, "duplicate_path", "demo/a.md"),
        (
            "through.tar.gz",
            through.gz(),
            "unsupported_entry",
            "demo/lnk",
        ),
    ] {
        let archive = machine.root().join(name);
        std::fs::write(&archive, bytes).unwrap();
        let output = machine.run_expecting(
            &["import", archive.to_str().unwrap(), "--dry-run", "--json"],
            1,
        );
        let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        assert_eq!(json["refused"]["code"], code, "{name}");
        let message = json["refused"]["message"].as_str().unwrap();
        assert!(message.starts_with(path), "{name}: {message}");
    }
}
