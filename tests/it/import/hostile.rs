//! Hostile archives built byte by byte, one for every trick in archive-import-safety.md §2.3:
//! each is refused with its code and a sentence naming the member, the benign neighbours of
//! each trick are accepted, and a real import of every refused one leaves the destination
//! exactly as it was.

use crate::common::archive::{GNU, Header, Tar, ZipEntry, gzip, pax_record, skill_md, zip};
use crate::common::{Machine, snapshot};
use skilldeck::bundle::{Bundle, Limits, Refusal, limits, read_archive};

fn read(bytes: &[u8]) -> Result<Bundle, Refusal> {
    read_archive("bundle", bytes, &limits())
}

fn read_within(bytes: &[u8], limits: &Limits) -> Result<Bundle, Refusal> {
    read_archive("bundle", bytes, limits)
}

/// A hostile archive, the code it must get, and a piece of the sentence (the member named).
struct Case {
    trick: &'static str,
    bytes: Vec<u8>,
    code: &'static str,
    names: &'static str,
}

fn case(trick: &'static str, tar: Tar, code: &'static str, names: &'static str) -> Case {
    Case {
        trick,
        bytes: tar.bytes(),
        code,
        names,
    }
}

fn demo() -> Tar {
    Tar::new().skill("demo")
}

fn with_size(mut header: Header, size: u64) -> Header {
    header.size = Some(size);
    header
}

fn link(name: &str, flag: u8, target: &str) -> Header {
    let mut header = Header::new(name, flag, b"");
    header.linkname = target.as_bytes().to_vec();
    header
}

/// Every trick of §2.3, in its order.
fn cases() -> Vec<Case> {
    let pax_path = |path: &[u8]| demo().pax(&[("path", path)]).file("demo/ok.md", "x");
    vec![
        case(
            "1 absolute path",
            demo().file("/etc/x", "x").end(),
            "unsafe_path",
            "/etc/x",
        ),
        case(
            "1 drive letter",
            demo().file("C:/x", "x").end(),
            "unsafe_path",
            "C:/x",
        ),
        case(
            "2 '..' component",
            demo().file("demo/../../x", "x").end(),
            "unsafe_path",
            "demo/../../x",
        ),
        case(
            "3 pax path over a benign name",
            pax_path(b"../evil").end(),
            "unsafe_path",
            "../evil",
        ),
        case(
            "4 GNU long name escaping",
            demo()
                .long_name(b"demo/../../evil")
                .file("demo/benign.md", "x")
                .end(),
            "unsafe_path",
            "demo/../../evil",
        ),
        case(
            "4 GNU long link on a file",
            demo()
                .header(&Header::new("././@LongLink", b'K', b"/etc/passwd\0"))
                .file("demo/file.md", "x")
                .end(),
            "malformed_archive",
            "demo/file.md",
        ),
        case(
            "5 pax path together with a GNU long name",
            demo()
                .long_name(b"demo/one.md")
                .pax(&[("path", b"demo/two.md")])
                .file("demo/x.md", "x")
                .end(),
            "malformed_archive",
            "GNU long name and a pax path",
        ),
        case(
            "6 duplicate pax key",
            demo()
                .pax(&[("path", b"demo/a.md"), ("path", b"demo/b.md")])
                .file("demo/x.md", "x")
                .end(),
            "malformed_archive",
            "twice",
        ),
        case(
            "6 malformed pax record",
            demo()
                .header(&Header::new("PaxHeaders/x", b'x', b"99 path=demo/a.md\n"))
                .file("demo/x.md", "x")
                .end(),
            "malformed_archive",
            "PaxHeaders/x",
        ),
        case(
            "6 two pax headers in a row",
            demo()
                .pax(&[("mtime", b"1")])
                .pax(&[("path", b"demo/a.md")])
                .file("demo/x.md", "x")
                .end(),
            "malformed_archive",
            "two pax headers",
        ),
        case(
            "7 pax value with an embedded newline",
            demo()
                .header(&Header::new(
                    "PaxHeaders/x",
                    b'x',
                    b"29 comment=x\n16 path=../evil\n",
                ))
                .file("demo/SKILL2.md", "x")
                .end(),
            "malformed_archive",
            "line break",
        ),
        case(
            "8 pax size differing from the header size",
            demo()
                .pax(&[("size", b"512")])
                .header(&with_size(Header::new("demo/a.md", b'0', b""), 0))
                .file("demo/hidden.md", "x")
                .end(),
            "malformed_archive",
            "demo/a.md",
        ),
        case(
            "9 size on a folder",
            demo()
                .header(&with_size(Header::new("demo/dir/", b'5', [0u8; 512]), 512))
                .end(),
            "malformed_archive",
            "demo/dir/",
        ),
        case(
            "9 size on a link",
            demo()
                .header(&with_size(link("demo/l", b'2', "SKILL.md"), 512))
                .raw(&[0; 512])
                .end(),
            "malformed_archive",
            "demo/l",
        ),
        case(
            "10 data after the end-of-archive marker",
            demo().end().file("demo/hidden.md", "x").end(),
            "malformed_archive",
            "follows the end-of-archive marker",
        ),
        case(
            "11 no end-of-archive marker",
            demo(),
            "malformed_archive",
            "end-of-archive marker",
        ),
        case(
            "11 half an end-of-archive marker",
            demo().raw(&[0; 512]),
            "malformed_archive",
            "incomplete",
        ),
        case(
            "12 truncated member",
            demo().raw(&Tar::new().file("demo/big.md", vec![b'x'; 4096]).bytes()[..1024]),
            "malformed_archive",
            "demo/big.md",
        ),
        case(
            "13 duplicate member",
            demo().file("demo/SKILL.md", "again").end(),
            "duplicate_path",
            "demo/SKILL.md",
        ),
        case(
            "14 file then folder",
            demo().file("demo/x", "x").dir("demo/x/").end(),
            "path_conflict",
            "demo/x",
        ),
        case(
            "14 file used as a parent",
            demo().file("demo/a", "x").file("demo/a/b", "y").end(),
            "path_conflict",
            "demo/a",
        ),
        case(
            "15 symbolic link in a skill",
            demo().header(&link("demo/lnk", b'2', "../..")).end(),
            "unsupported_entry",
            "demo/lnk",
        ),
        case(
            "15 a file written through a symbolic link",
            demo()
                .header(&link("demo/lnk", b'2', "../.."))
                .file("demo/lnk/.bashrc", "x")
                .end(),
            "unsupported_entry",
            "demo/lnk is a symbolic link",
        ),
        case(
            "16 hard link in a skill",
            demo()
                .header(&link("demo/copy.md", b'1', "/etc/passwd"))
                .end(),
            "unsupported_entry",
            "demo/copy.md",
        ),
        case(
            "16 hard link carrying data",
            demo()
                .header(&Header {
                    linkname: b"demo/SKILL.md".to_vec(),
                    ..Header::new("demo/copy.md", b'1', b"data")
                })
                .end(),
            "malformed_archive",
            "demo/copy.md",
        ),
        case(
            "17 FIFO",
            demo().header(&Header::new("demo/p", b'6', b"")).end(),
            "unsupported_entry",
            "demo/p",
        ),
        case(
            "17 character device",
            demo().header(&Header::new("demo/null", b'3', b"")).end(),
            "unsupported_entry",
            "demo/null",
        ),
        case(
            "17 block device",
            demo().header(&Header::new("demo/sda", b'4', b"")).end(),
            "unsupported_entry",
            "demo/sda",
        ),
        case(
            "17 contiguous file",
            demo().header(&Header::new("demo/c.md", b'7', b"x")).end(),
            "unsupported_entry",
            "demo/c.md",
        ),
        case(
            "17 GNU volume label",
            demo().header(&Header::new("label", b'V', b"")).end(),
            "unsupported_entry",
            "label",
        ),
        case(
            "17 unknown type flag",
            demo().header(&Header::new("demo/z", b'Z', b"")).end(),
            "unsupported_entry",
            "demo/z",
        ),
        case(
            "18 GNU sparse file",
            demo().header(&Header::new("demo/s", b'S', b"")).end(),
            "unsupported_entry",
            "demo/s",
        ),
        case(
            "18 pax sparse keys",
            demo()
                .pax(&[("GNU.sparse.major", b"1"), ("GNU.sparse.minor", b"0")])
                .file("demo/s", "x")
                .end(),
            "unsupported_entry",
            "sparse",
        ),
        case(
            "19 huge declared size",
            demo()
                .header(&with_size(Header::new("demo/big", b'0', b""), 1 << 62))
                .end(),
            "too_large",
            "demo/big",
        ),
        case(
            "21 too deep",
            demo()
                .file(&format!("demo/{}", ["d"; 30].join("/")), "x")
                .end(),
            "unsafe_path",
            "folders deep",
        ),
        case(
            "21 name too long",
            demo()
                .pax(&[("path", format!("demo/{}", "n".repeat(300)).as_bytes())])
                .file("demo/x", "x")
                .end(),
            "unsafe_path",
            "longer than 255",
        ),
        case(
            "25 Windows device name",
            demo().file("demo/nul.md", "x").end(),
            "unsafe_path",
            "demo/nul.md",
        ),
        case(
            "25 Windows reserved character",
            demo().file("demo/a:b.md", "x").end(),
            "unsafe_path",
            "demo/a:b.md",
        ),
        case(
            "25 Windows 8.3 short name",
            demo().file("demo/GIT~1/config", "x").end(),
            "unsafe_path",
            "demo/GIT~1/config",
        ),
        case(
            "25 trailing dot",
            demo().file("demo/notes.", "x").end(),
            "unsafe_path",
            "demo/notes.",
        ),
        case(
            "26 case collision",
            demo().file("demo/skill.md", "x").end(),
            "path_conflict",
            "demo/skill.md",
        ),
        case(
            "27 normalisation collision",
            demo()
                .pax(&[("path", "demo/caf\u{e9}.md".as_bytes())])
                .file("demo/x1", "nfc")
                .pax(&[("path", "demo/cafe\u{301}.md".as_bytes())])
                .file("demo/x2", "nfd")
                .end(),
            "path_conflict",
            "demo/caf",
        ),
        case(
            "27 invisible format character",
            demo()
                .pax(&[("path", "demo/\u{200c}.git/config".as_bytes())])
                .file("demo/x", "x")
                .end(),
            "unsafe_path",
            "U+200C",
        ),
        case(
            "28 invalid UTF-8",
            demo()
                .header(&Header::new(b"demo/\xff\xfe.md".as_slice(), b'0', b"x"))
                .end(),
            "unsafe_path",
            "demo/\\xff\\xfe.md",
        ),
        case(
            "29 control characters",
            demo().file("demo/a\x1b[2Jb.md", "x").end(),
            "unsafe_path",
            "demo/a\\u{1b}[2Jb.md",
        ),
        case(
            "30 NUL inside a pax path",
            demo()
                .pax(&[("path", b"demo/a\0b.md")])
                .file("demo/a", "x")
                .end(),
            "unsafe_path",
            "demo/a\\u{0}b.md",
        ),
        case(
            // Found by the tar_names fuzz target: GNU tar reads `demo/a.md`, the tar crate
            // the whole name after the NUL.
            "30 NUL inside a GNU long name",
            demo()
                .long_name(b"demo/a.md\0/../../evil.md")
                .file("demo/b.md", "x")
                .end(),
            "malformed_archive",
            "NUL",
        ),
        case(
            // Found by the bundle_gz fuzz target: the tar crate reads this checksum, GNU tar
            // does not, so the two disagree on whether this header is one.
            "checksum field ending in a line break",
            Tar::new().raw(&{
                let mut tar = demo().end().bytes();
                tar[154] = b'\n';
                tar
            }),
            "malformed_archive",
            "checksum is not a number",
        ),
        case(
            "31 backslash",
            demo().file("demo\\..\\..\\evil.md", "x").end(),
            "unsafe_path",
            "demo\\..\\..\\evil.md",
        ),
        case(
            "32 link name on a regular file",
            demo().header(&link("demo/f.md", b'0', "/etc/passwd")).end(),
            "malformed_archive",
            "demo/f.md",
        ),
        case(
            "34 global header setting a path",
            Tar::new().global(&[("path", b"evil")]).skill("demo").end(),
            "malformed_archive",
            "global",
        ),
        case(
            "header with a bad checksum",
            demo()
                .header(&Header {
                    checksum_error: 1,
                    ..Header::new("demo/a.md", b'0', b"x")
                })
                .end(),
            "malformed_archive",
            "checksum",
        ),
        case(
            "header of neither ustar nor GNU tar",
            demo()
                .header(&Header {
                    magic: *b"xxxxxxxx",
                    ..Header::new("demo/a.md", b'0', b"")
                })
                .end(),
            "malformed_archive",
            "neither POSIX ustar nor GNU",
        ),
        case(
            "extended header with nothing after it",
            demo().pax(&[("mtime", b"1")]).end(),
            "malformed_archive",
            "extended header",
        ),
    ]
}

#[test]
fn every_trick_is_refused_with_its_code_and_the_member_named() {
    let cases = cases();
    for case in &cases {
        let refusal = match read(&case.bytes) {
            Ok(bundle) => panic!("{}: accepted {bundle:?}", case.trick),
            Err(refusal) => refusal,
        };
        assert_eq!(refusal.code(), case.code, "{}: {refusal}", case.trick);
        assert!(
            refusal.to_string().contains(case.names),
            "{}: {refusal:?} does not name {:?}",
            case.trick,
            case.names
        );
    }
    // And the same through gzip: the compression layer changes nothing.
    for case in cases.iter().filter(|c| c.code != "malformed_archive") {
        assert_eq!(
            read(&gzip(&case.bytes)).unwrap_err().code(),
            case.code,
            "{}",
            case.trick
        );
    }
}

#[test]
fn every_refusal_leaves_the_destination_as_it_was() {
    let machine = Machine::new();
    let root = machine.home.join(".claude/skills");
    crate::common::write_skill(&root.join("demo"), &[("notes.md", "mine")]);
    let archive = machine.root().join("bundle.tar");
    let before = snapshot(&machine.root());
    for case in cases() {
        std::fs::write(&archive, &case.bytes).unwrap();
        let output = machine.run(&[
            "import",
            archive.to_str().unwrap(),
            "--agent",
            "claude-code",
            "--json",
        ]);
        assert_eq!(output.status.code(), Some(1), "{}", case.trick);
        let json: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        assert_eq!(json["refused"]["code"], case.code, "{}", case.trick);
        std::fs::remove_file(&archive).unwrap();
        assert_eq!(
            snapshot(&machine.root()),
            before,
            "{} changed the machine",
            case.trick
        );
    }
}

#[test]
fn the_benign_forms_of_each_trick_are_accepted() {
    let long = format!("demo/references/{}.md", "a".repeat(150));
    let bundle = read(
        &Tar::new()
            .global(&[("comment", b"3f2a9c0d1e")])
            .dir("./")
            .skill("demo")
            .pax(&[
                ("path", long.as_bytes()),
                ("mtime", b"1700000000.5"),
                ("SCHILY.xattr.com.apple.quarantine", b"0081;x"),
                ("uname", b"someone"),
            ])
            .file("demo/benign-ustar-name", "long by pax")
            .long_name(b"demo/references/gnu-long-name.md")
            .header(&Header {
                magic: GNU,
                ..Header::new("demo/references/gnu-long", b'0', b"long by GNU")
            })
            .header(&Header {
                mode: 0o4777,
                ..Header::new("demo/setuid-tool", b'0', b"#!/bin/sh\n")
            })
            .header(&Header {
                mode: 0o666,
                ..Header::new("demo/world-writable.md", b'0', b"x")
            })
            .file("demo/draft~v2.md", "a tilde, not a short name")
            .file("demo/._SKILL.md", "AppleDouble")
            .file("demo/.DS_Store", "Finder")
            .file("__MACOSX/demo/._x", "AppleDouble")
            .header(&link("README-link", b'2', "demo/SKILL.md"))
            .end()
            .raw(&[0; 8192])
            .bytes(),
    )
    .unwrap();
    let skill = &bundle.skills[0];
    let files: Vec<(&str, bool)> = skill
        .files
        .iter()
        .map(|f| (f.path.as_str(), f.executable))
        .collect();
    assert_eq!(
        files,
        [
            ("SKILL.md", false),
            ("draft~v2.md", false),
            (&long["demo/".len()..], false),
            ("references/gnu-long-name.md", false),
            ("setuid-tool", true),
            ("world-writable.md", false),
        ]
    );
    assert_eq!(bundle.left_out, ["README-link"]);
    assert_eq!(bundle.set_aside.len(), 3);
}

#[test]
fn concatenated_gzip_members_are_read_whole() {
    let tar = demo()
        .file("demo/tail.md", "in the second member")
        .end()
        .bytes();
    let (head, tail) = tar.split_at(1536);
    let mut two = gzip(head);
    two.extend(gzip(tail));
    let bundle = read(&two).unwrap();
    assert!(bundle.skills[0].files.iter().any(|f| f.path == "tail.md"));
}

#[test]
fn gzip_damage_is_refused() {
    let good = demo().end().gz();
    let mut garbage = good.clone();
    garbage.extend_from_slice(b"PK\x03\x04 an appended zip");
    let mut bad_crc = good.clone();
    let at = bad_crc.len() - 8;
    bad_crc[at] ^= 0xff;
    let truncated = &good[..good.len() - 4];
    for (what, bytes) in [
        ("trailing garbage", garbage.as_slice()),
        ("bad CRC", bad_crc.as_slice()),
        ("truncated", truncated),
    ] {
        let refusal = read(bytes).unwrap_err();
        assert_eq!(refusal.code(), "malformed_archive", "{what}: {refusal}");
    }
    read(&good).unwrap();
}

#[test]
fn bombs_are_refused_at_each_bound() {
    let small = Limits {
        entries: 5,
        bytes: 4096,
        file_bytes: 2048,
        stream_bytes: 64 * 1024,
        ..limits()
    };
    // Expanded bytes: every file within its bound, the whole past it.
    let mut many = demo();
    for n in 0..3 {
        many = many.file(&format!("demo/{n}.bin"), vec![0u8; 2000]);
    }
    assert_eq!(
        read_within(&gzip(&many.end().bytes()), &small).unwrap_err(),
        Refusal::TooLarge(4096)
    );
    // Entries.
    let mut crowded = demo();
    for n in 0..6 {
        crowded = crowded.file(&format!("demo/{n}"), "x");
    }
    assert_eq!(
        read_within(&crowded.end().bytes(), &small).unwrap_err(),
        Refusal::TooManyEntries(5)
    );
    // The stream: metadata costs nothing but what it takes to read past it, and that is bounded.
    let padded = demo().file("demo/._huge", vec![0u8; 100_000]).end().gz();
    assert_eq!(
        read_within(&padded, &small).unwrap_err(),
        Refusal::TooLarge(64 * 1024)
    );
    // A billion zeros compress to a megabyte; reading stops at the bound, long before the end.
    let bomb = demo().raw(&vec![0u8; 1 << 20]).gz();
    assert_eq!(
        read_within(&bomb, &small).unwrap_err(),
        Refusal::TooLarge(64 * 1024)
    );
}

#[test]
fn zip_tricks_are_refused() {
    let manifest = skill_md("demo");
    let ok = ZipEntry::file("demo/SKILL.md", manifest.as_bytes());
    let refused = |entries: &[ZipEntry<'_>]| read(&zip(entries)).unwrap_err();
    assert_eq!(
        refused(&[
            ZipEntry::file("demo/SKILL.md", manifest.as_bytes()),
            ZipEntry::file("demo/../../.bashrc", b"x")
        ])
        .code(),
        "unsafe_path"
    );
    let link = ZipEntry {
        name: "demo/link",
        data: b"/etc/passwd",
        mode: 0o120_777,
    };
    assert_eq!(
        refused(&[ZipEntry::file("demo/SKILL.md", manifest.as_bytes()), link]).code(),
        "unsupported_entry"
    );
    // A zip bomb: its declared size is checked before a byte is inflated.
    let zeros = vec![0u8; 4096];
    let small = Limits {
        file_bytes: 1024,
        ..limits()
    };
    let bomb = zip(&[
        ZipEntry::file("demo/SKILL.md", manifest.as_bytes()),
        ZipEntry::file("demo/zeros", &zeros),
    ]);
    assert!(matches!(
        read_within(&bomb, &small).unwrap_err(),
        Refusal::FileTooLarge {
            size: 4096,
            limit: 1024,
            ..
        }
    ));
    // A folder's name (or mode) on an entry with data: the zip writer will not make one, so
    // the entry "demo/docsX" is renamed "demo/docs/" in place, and its mode set to a folder's.
    let with_data = zip(&[
        ZipEntry::file("demo/SKILL.md", manifest.as_bytes()),
        ZipEntry::file("demo/docsX", b"data"),
    ]);
    let renamed = replace_all(&with_data, b"demo/docsX", b"demo/docs/");
    let refusal = read(&renamed).unwrap_err();
    assert!(refusal.to_string().contains("disagree"), "{refusal}");
    let as_folder = folder_mode(&renamed, b"demo/docs/");
    let refusal = read(&as_folder).unwrap_err();
    assert!(
        refusal.to_string().contains("a folder carries data"),
        "{refusal}"
    );
    let archive = zip(&[ok]);
    let mut trailing = archive.clone();
    trailing.extend_from_slice(b"appended");
    assert_eq!(read(&trailing).unwrap_err().code(), "malformed_archive");
    let mut prepended = b"PK\x03\x04 a stub before the archive".to_vec();
    prepended.extend_from_slice(&archive);
    assert_eq!(read(&prepended).unwrap_err().code(), "malformed_archive");
    read(&archive).unwrap();
}

#[test]
fn skills_that_cannot_be_installed_as_they_are_are_refused() {
    let skill_md = skill_md("demo");
    let cases: Vec<(&str, Tar, &str, &str)> = vec![
        (
            "nothing like a skill",
            Tar::new().file("README.md", "x").end(),
            "no_skills",
            "the source holds no skill:",
        ),
        (
            "metadata the record cannot join",
            Tar::new()
                .file("demo/SKILL.md", "---\nname: demo\nmetadata:\n  n: 3\n---\n")
                .end(),
            "invalid_skill",
            "demo/SKILL.md has metadata that is not a map of text values",
        ),
        (
            "no frontmatter",
            Tar::new().file("demo/SKILL.md", "# just markdown\n").end(),
            "invalid_skill",
            "demo/SKILL.md cannot carry the installer's record",
        ),
        (
            "binary SKILL.md",
            Tar::new().file("demo/SKILL.md", b"---\0\n").end(),
            "invalid_skill",
            "demo/SKILL.md is a binary file",
        ),
        (
            "SKILL.md not UTF-8",
            Tar::new()
                .file("demo/SKILL.md", b"---\nname: caf\xe9\n---\n")
                .end(),
            "invalid_skill",
            "demo/SKILL.md is not valid UTF-8",
        ),
        (
            "SKILL.md past what an agent reads",
            Tar::new()
                .file("demo/SKILL.md", vec![b'a'; 1024 * 1024 + 1])
                .end(),
            "invalid_skill",
            "demo/SKILL.md is 1048577 bytes",
        ),
        (
            "SKILL.md a folder",
            Tar::new()
                .dir("demo/SKILL.md/")
                .file("demo/SKILL.md/x", "x")
                .file("other/SKILL.md", skill_md.clone())
                .end(),
            "missing_manifest",
            "demo has no SKILL.md",
        ),
        (
            "two skills of one name",
            Tar::new()
                .file("demo/SKILL.md", skill_md.clone())
                .file("skills/Demo/SKILL.md", skill_md.clone())
                .end(),
            "duplicate_skill",
            "two skills are named Demo: demo and skills/Demo",
        ),
        (
            "a listed folder without a skill",
            Tar::new()
                .file(
                    ".claude-plugin/marketplace.json",
                    r#"{"plugins": [{"name": "p", "source": "./", "skills": ["./empty"]}]}"#,
                )
                .file("empty/README.md", "x")
                .file("demo/SKILL.md", skill_md.clone())
                .end(),
            "missing_manifest",
            "empty has no SKILL.md",
        ),
    ];
    for (what, tar, code, sentence) in cases {
        let refusal = read(&tar.bytes()).unwrap_err();
        assert_eq!(refusal.code(), code, "{what}: {refusal}");
        assert!(
            refusal.to_string().starts_with(sentence),
            "{what}: {refusal}"
        );
    }
}

fn replace_all(bytes: &[u8], from: &[u8], to: &[u8]) -> Vec<u8> {
    let mut out = bytes.to_vec();
    let mut at = 0;
    while let Some(found) = out[at..].windows(from.len()).position(|w| w == from) {
        out[at + found..at + found + to.len()].copy_from_slice(to);
        at += found + to.len();
    }
    out
}

/// `bytes` with the central directory entry of `name` given a folder's Unix mode.
fn folder_mode(bytes: &[u8], name: &[u8]) -> Vec<u8> {
    let mut out = bytes.to_vec();
    let entry = (0..out.len() - 46)
        .find(|&i| out[i..].starts_with(b"PK\x01\x02") && out[i + 46..].starts_with(name))
        .unwrap();
    out[entry + 5] = 3; // made by Unix
    out[entry + 38..entry + 42].copy_from_slice(&(0o040_755u32 << 16).to_le_bytes());
    out
}

#[test]
fn a_pax_record_helper_counts_its_own_length() {
    assert_eq!(
        pax_record("comment", b"3f2a9c0d1e"),
        b"22 comment=3f2a9c0d1e\n"
    );
}
