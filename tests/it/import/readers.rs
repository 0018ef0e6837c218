//! What is installed is what every common reader lists (issue 11, points 5, 6 and 8): a file
//! that is two formats, or named as another; pax keys, header bytes and zip records that other
//! readers read differently; names one file system merges; version-control data in any case;
//! skill names no agent loads. Several cases for each class, built here byte by byte, and the
//! benign neighbours of each accepted.

use std::fs;
use std::io::Write;

use crate::common::archive::{GNU, Header, Tar, ZipEntry, gzip, skill_md, zip};
use crate::common::{Machine, write_files, write_skill};
use skilldeck::bundle::{self, Bundle, Refusal, limits, read_archive};

fn read(name: &str, bytes: &[u8]) -> Result<Bundle, Refusal> {
    read_archive(name, bytes, &limits())
}

/// Refused with `code`, the sentence holding `names`.
#[track_caller]
fn refused(name: &str, bytes: &[u8], code: &str, names: &str) {
    match read(name, bytes) {
        Ok(bundle) => panic!("{name}: accepted, {:?}", files(&bundle)),
        Err(refusal) => {
            assert_eq!(refusal.code(), code, "{name}: {refusal}");
            assert!(
                refusal.to_string().contains(names),
                "{name}: {refusal:?} does not name {names:?}"
            );
        }
    }
}

fn files(bundle: &Bundle) -> Vec<String> {
    bundle
        .skills
        .iter()
        .flat_map(|s| {
            s.files
                .iter()
                .map(move |f| format!("{}/{}", s.name, f.path))
        })
        .collect()
}

fn demo() -> Tar {
    Tar::new().skill("demo")
}

// ---- Polyglots and names that say another format ----

/// A zip end-of-central-directory record of an empty archive: what unzip and Python's zipfile
/// look for in the last 64 KiB.
fn empty_zip_end() -> Vec<u8> {
    let mut record = b"PK\x05\x06".to_vec();
    record.extend([0u8; 18]);
    record
}

#[test]
fn a_tar_or_gzip_file_that_is_also_a_zip_is_refused() {
    let inner = zip(&[ZipEntry::file(
        "other/SKILL.md",
        skill_md("other").as_bytes(),
    )]);
    let with_zip = demo().file("demo/asset.zip", &inner).end().bytes();
    refused(
        "b.tar",
        &with_zip,
        "malformed_archive",
        "also a zip archive",
    );
    let with_record = demo().file("demo/x.bin", empty_zip_end()).end().bytes();
    refused(
        "b.tar",
        &with_record,
        "malformed_archive",
        "also a zip archive",
    );
    // In a gzip header's extra field, which zip readers see among the last bytes too.
    let tar = demo().end().bytes();
    let mut gz = flate2::GzBuilder::new()
        .extra(empty_zip_end())
        .write(Vec::new(), flate2::Compression::default());
    gz.write_all(&tar).unwrap();
    let gz = gz.finish().unwrap();
    refused("b.tar.gz", &gz, "malformed_archive", "also a zip archive");
    // The benign form: a zip asset far from the end, where no zip reader looks.
    let far = demo()
        .file("demo/asset.zip", &inner)
        .file("demo/padding.md", "x".repeat(70_000))
        .end()
        .bytes();
    assert_eq!(read("b.tar", &far).unwrap().skills[0].files.len(), 3);
}

/// Make the first 512 bytes of `bytes` a tar header with a valid checksum, as GNU tar and
/// Python take one, by writing the checksum (and a magic) into bytes a zip reader skips.
fn with_tar_header(mut bytes: Vec<u8>, magic: bool) -> Vec<u8> {
    if magic {
        bytes[257..265].copy_from_slice(b"ustar\x0000");
    }
    let sum: u32 = bytes[..148]
        .iter()
        .chain(&[b' '; 8])
        .chain(&bytes[156..512])
        .map(|b| u32::from(*b))
        .sum();
    bytes[148..156].copy_from_slice(format!("{sum:06o}\0 ").as_bytes());
    bytes
}

#[test]
fn a_zip_that_is_also_a_tar_is_refused() {
    // A local extra field of 480 bytes, which zip readers skip, holds the tar header's fields.
    let entry = |data: &[u8]| {
        let mut entry = RawEntry::new("SKILL.md", data);
        entry.local_extra = [
            &0xcafe_u16.to_le_bytes()[..],
            &480u16.to_le_bytes(),
            &[0; 480],
        ]
        .concat();
        entry
    };
    let manifest = skill_md("demo");
    let plain = raw_zip(&[entry(manifest.as_bytes())]);
    assert_eq!(read("b.zip", &plain).unwrap().skills.len(), 1);
    for magic in [true, false] {
        let both = with_tar_header(plain.clone(), magic);
        refused("b.zip", &both, "malformed_archive", "also a tar archive");
    }
}

#[test]
fn an_archive_named_as_another_format_is_refused() {
    let tar = demo().end().bytes();
    let tgz = demo().end().gz();
    let archive = zip(&[ZipEntry::file("demo/SKILL.md", skill_md("demo").as_bytes())]);
    for (name, bytes, holds) in [
        ("b.zip", &tar, "tar archive"),
        ("b.skill", &tgz, "gzip-compressed tar"),
        ("b.tar.gz", &archive, "zip archive"),
        ("b.TGZ", &tar, "tar archive"),
        ("b.tar", &tgz, "gzip-compressed tar"),
        ("b.tar", &archive, "zip archive"),
    ] {
        refused(name, bytes, "unsupported_source", holds);
    }
    for (name, bytes) in [
        ("b.tar", &tar),
        ("b.TAR.GZ", &tgz),
        ("b.gz", &tgz),
        ("b.skill", &archive),
        ("no-extension", &archive),
    ] {
        read(name, bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
    }
    // And from disk, under the file's own name.
    let tmp = tempfile::tempdir().unwrap();
    let misnamed = tmp.path().join("demo.zip");
    fs::write(&misnamed, &tar).unwrap();
    let refusal = bundle::read(&misnamed).unwrap_err();
    assert_eq!(refusal.code(), "unsupported_source");
    assert!(refusal.to_string().contains("demo.zip"), "{refusal}");
}

// ---- pax keys and tar header fields ----

#[test]
fn pax_keys_another_reader_obeys_are_refused() {
    for (key, value) in [
        ("SCHILY.realsize", &b"4096"[..]),
        ("SCHILY.offset", b"512"),
        ("SCHILY.filetype", b"symlink"),
        ("SCHILY.fflags", b"compressed"),
        ("SCHILY.xattr.com.apple.decmpfs", b"fpmc"),
        ("LIBARCHIVE.xattr.com.apple.ResourceFork", b"AAAA"),
        ("LIBARCHIVE.xattr.com%2Eapple%2Edecmpfs", b"AAAA"),
        ("hdrcharset", b"BINARY"),
        ("charset", b"ISO-IR 10646 2000 UTF-8"),
        ("VENDOR.anything", b"x"),
    ] {
        let tar = demo().pax(&[(key, value)]).file("demo/notes.md", "x").end();
        refused("b.tar", &tar.bytes(), "malformed_archive", key);
        refused("b.tar.gz", &tar.gz(), "malformed_archive", key);
    }
    // What real archives carry, and no reader applies to a file's bytes.
    for (key, value) in [
        ("SCHILY.xattr.user.origin", &b"x"[..]),
        ("LIBARCHIVE.xattr.com.apple.quarantine", b"MDA4MTs2NTQz"),
        ("SCHILY.xattr.com.apple.provenance", b"AQ"),
        ("SCHILY.acl.access", b"user::rw-"),
        ("SCHILY.dev", b"16777231"),
        ("SCHILY.ino", b"1234"),
        ("SCHILY.nlink", b"1"),
        ("LIBARCHIVE.creationtime", b"1700000000"),
        ("mtime", b"1700000000.25"),
        ("uname", b"someone"),
    ] {
        let tar = demo().pax(&[(key, value)]).file("demo/notes.md", "x").end();
        read("b.tar", &tar.bytes()).unwrap_or_else(|e| panic!("{key}: {e}"));
    }
}

/// `bytes` with `data` written at `offset` of the header block `block`, its checksum made
/// right again.
fn patched(bytes: &[u8], block: usize, offset: usize, data: &[u8]) -> Vec<u8> {
    let mut bytes = bytes.to_vec();
    let start = block * 512;
    bytes[start + offset..start + offset + data.len()].copy_from_slice(data);
    let fixed = with_tar_header(bytes[start..start + 512].to_vec(), false);
    bytes[start..start + 512].copy_from_slice(&fixed);
    bytes
}

#[test]
fn header_bytes_the_format_leaves_empty_are_refused() {
    let gnu = |name: &str, data: &str| {
        let mut header = Header::new(name, b'0', data);
        header.magic = GNU;
        header
    };
    let tar = Tar::new()
        .header(&gnu("demo/SKILL.md", &skill_md("demo")))
        .header(&gnu("demo/notes.md", "x"))
        .end()
        .bytes();
    read("b.tar", &tar).unwrap();
    // notes.md's header is block 2 (SKILL.md's is 0, its data 1).
    for (block, offset, data, names) in [
        // Python reads these as a name prefix ("evil/notes.md"); GNU tar does not.
        (2, 345, &b"evil"[..], "demo/notes.md"),
        // A GNU atime, as only an incremental dump writes one.
        (2, 345, b"14371426143\0", "demo/notes.md"),
        // The sparse map and the real size of an old GNU sparse file.
        (2, 483, b"00000010000\0", "demo/notes.md"),
        (0, 500, b"x", "demo/SKILL.md"),
    ] {
        let hostile = patched(&tar, block, offset, data);
        refused("b.tar", &hostile, "malformed_archive", names);
        refused("b.tar.gz", &gzip(&hostile), "malformed_archive", "bytes");
    }
    // A ustar header keeps its name prefix there, and padding after it is refused.
    let ustar = Tar::new()
        .header(&Header::new("SKILL.md", b'0', skill_md("demo")))
        .end()
        .bytes();
    let prefixed = patched(&ustar, 0, 345, b"demo");
    assert_eq!(files(&read("b.tar", &prefixed).unwrap()), ["demo/SKILL.md"]);
    refused(
        "b.tar",
        &patched(&ustar, 0, 508, b"tar\0"),
        "malformed_archive",
        "500..512",
    );
    // Device numbers on a file, which no format gives one.
    for number in [&b"0000001\0"[..], b"7777777\0"] {
        let devices = patched(&ustar, 0, 329, number);
        refused("b.tar", &devices, "malformed_archive", "device numbers");
    }
    read("b.tar", &patched(&ustar, 0, 329, b"0000000\x000000000\x00")).unwrap();
}

// ---- zip records ----

/// A stored zip entry written field by field, so each may lie.
#[derive(Clone)]
struct RawEntry {
    name: Vec<u8>,
    data: Vec<u8>,
    flags: u16,
    local_extra: Vec<u8>,
    central_extra: Vec<u8>,
    /// The local header's CRC and sizes, when they are not the true ones.
    local_sums: Option<[u32; 3]>,
    /// A data descriptor after the data (flag bit 3), with these CRC and sizes.
    descriptor: Option<[u32; 3]>,
}

impl RawEntry {
    fn new(name: &str, data: &[u8]) -> Self {
        Self {
            name: name.as_bytes().to_vec(),
            data: data.to_vec(),
            flags: if name.is_ascii() { 0 } else { 1 << 11 },
            local_extra: Vec::new(),
            central_extra: Vec::new(),
            local_sums: None,
            descriptor: None,
        }
    }

    fn sums(&self) -> [u32; 3] {
        let mut crc = flate2::Crc::new();
        crc.update(&self.data);
        let len = u32::try_from(self.data.len()).unwrap();
        [crc.sum(), len, len]
    }

    fn with_descriptor(mut self, descriptor: [u32; 3]) -> Self {
        self.flags |= 1 << 3;
        self.local_sums = Some([0; 3]);
        self.descriptor = Some(descriptor);
        self
    }
}

/// An Info-ZIP Unicode path extra field naming `name`.
fn unicode_path(header_name: &[u8], name: &str) -> Vec<u8> {
    let mut crc = flate2::Crc::new();
    crc.update(header_name);
    let len = u16::try_from(5 + name.len()).unwrap();
    [
        &0x7075_u16.to_le_bytes()[..],
        &len.to_le_bytes(),
        &[1],
        &crc.sum().to_le_bytes(),
        name.as_bytes(),
    ]
    .concat()
}

fn raw_zip(entries: &[RawEntry]) -> Vec<u8> {
    let u16s = |v: u16| v.to_le_bytes();
    let u32s = |v: u32| v.to_le_bytes();
    let mut out = Vec::new();
    let mut central = Vec::new();
    for entry in entries {
        let offset = u32::try_from(out.len()).unwrap();
        let sums = entry.sums();
        let local_sums = entry.local_sums.unwrap_or(sums);
        let name_len = u16::try_from(entry.name.len()).unwrap();
        out.extend(b"PK\x03\x04");
        out.extend(u16s(20));
        out.extend(u16s(entry.flags));
        out.extend(u16s(0)); // stored
        out.extend(u16s(0));
        out.extend(u16s(0x21));
        for field in local_sums {
            out.extend(u32s(field));
        }
        out.extend(u16s(name_len));
        out.extend(u16s(u16::try_from(entry.local_extra.len()).unwrap()));
        out.extend(&entry.name);
        out.extend(&entry.local_extra);
        out.extend(&entry.data);
        if let Some(descriptor) = entry.descriptor {
            out.extend(b"PK\x07\x08");
            for field in descriptor {
                out.extend(u32s(field));
            }
        }
        central.extend(b"PK\x01\x02");
        central.extend(u16s(3 << 8 | 20));
        central.extend(u16s(20));
        central.extend(u16s(entry.flags));
        central.extend(u16s(0));
        central.extend(u16s(0));
        central.extend(u16s(0x21));
        for field in sums {
            central.extend(u32s(field));
        }
        central.extend(u16s(name_len));
        central.extend(u16s(u16::try_from(entry.central_extra.len()).unwrap()));
        central.extend(u16s(0));
        central.extend(u16s(0));
        central.extend(u16s(0));
        central.extend(u32s(0o100_644 << 16));
        central.extend(u32s(offset));
        central.extend(&entry.name);
        central.extend(&entry.central_extra);
    }
    let central_at = u32::try_from(out.len()).unwrap();
    let count = u16::try_from(entries.len()).unwrap();
    out.extend(&central);
    out.extend(b"PK\x05\x06");
    out.extend(u16s(0));
    out.extend(u16s(0));
    out.extend(u16s(count));
    out.extend(u16s(count));
    out.extend(u32s(u32::try_from(central.len()).unwrap()));
    out.extend(u32s(central_at));
    out.extend(u16s(0));
    out
}

fn manifest() -> RawEntry {
    RawEntry::new("demo/SKILL.md", skill_md("demo").as_bytes())
}

#[test]
fn the_raw_zip_writer_writes_what_is_accepted() {
    let notes = RawEntry::new("demo/notes.md", b"hello");
    let described = RawEntry::new("demo/later.md", b"sizes after");
    let sums = described.sums();
    let bundle = read(
        "b.zip",
        &raw_zip(&[manifest(), notes, described.with_descriptor(sums)]),
    )
    .unwrap();
    assert_eq!(
        files(&bundle),
        ["demo/SKILL.md", "demo/later.md", "demo/notes.md"]
    );
}

#[test]
fn zip_sizes_that_disagree_between_records_are_refused() {
    let entry = RawEntry::new("demo/notes.md", b"hello, world");
    let [crc, csize, usize] = entry.sums();
    for descriptor in [
        [crc, csize + 1, usize],
        [crc, csize, usize - 1],
        [crc ^ 1, csize, usize],
        [crc, 0, 0],
    ] {
        let bytes = raw_zip(&[manifest(), entry.clone().with_descriptor(descriptor)]);
        refused("b.zip", &bytes, "malformed_archive", "demo/notes.md");
    }
    for local in [
        [crc, csize, usize + 1],
        [crc, csize + 3, usize],
        [crc, 1, 1],
    ] {
        let mut lying = entry.clone();
        lying.local_sums = Some(local);
        refused(
            "b.zip",
            &raw_zip(&[manifest(), lying]),
            "malformed_archive",
            "demo/notes.md",
        );
    }
    // The local header's sizes, given beside a descriptor, must be the same ones.
    let mut both = entry.clone().with_descriptor([crc, csize, usize]);
    both.local_sums = Some([crc, csize + 1, usize]);
    refused(
        "b.zip",
        &raw_zip(&[manifest(), both]),
        "malformed_archive",
        "demo/notes.md",
    );
    // Stored data holding a descriptor signature, where a streaming reader would end it.
    let early = RawEntry::new("demo/early.md", b"abc PK\x07\x08 def");
    let sums = early.sums();
    refused(
        "b.zip",
        &raw_zip(&[manifest(), early.with_descriptor(sums)]),
        "malformed_archive",
        "demo/early.md",
    );
}

#[test]
fn zip_names_others_read_another_way_are_refused() {
    // Not ASCII, not marked UTF-8: CP437 to unzip, Windows and Python.
    for name in [
        "demo/caf\u{e9}.md",
        "demo/\u{65e5}\u{672c}.md",
        "demo/\u{2500}.md",
    ] {
        let mut entry = RawEntry::new(name, b"x");
        entry.flags &= !(1 << 11);
        refused(
            "b.zip",
            &raw_zip(&[manifest(), entry]),
            "malformed_archive",
            "CP437",
        );
        let marked = RawEntry::new(name, b"x");
        read("b.zip", &raw_zip(&[manifest(), marked])).unwrap();
    }
    // A Unicode path field that names another file than the header does.
    for (header, upath, code) in [
        ("demo/notes.md", "demo/other.md", "malformed_archive"),
        ("demo/readme.md", "demo/README.md", "malformed_archive"),
        ("demo/a.md", "demo/sub/a.md", "malformed_archive"),
        // An 8.3 alias in the header and the long name beside it.
        ("demo/NOTES~1.MD", "demo/notes-long.md", "malformed_archive"),
    ] {
        for central in [true, false] {
            let mut entry = RawEntry::new(header, b"x");
            let field = unicode_path(header.as_bytes(), upath);
            if central {
                entry.central_extra = field;
            } else {
                entry.local_extra = field;
            }
            let refusal = read("b.zip", &raw_zip(&[manifest(), entry])).unwrap_err();
            // The 8.3 name, when the zip crate has not put the long one in its place.
            let codes = [code, if central { code } else { "unsafe_path" }];
            assert!(codes.contains(&refusal.code()), "{header}: {refusal}");
            assert!(refusal.to_string().contains(header), "{refusal}");
        }
    }
    let mut same = RawEntry::new("demo/caf\u{e9}.md", b"x");
    same.central_extra = unicode_path(&same.name, "demo/caf\u{e9}.md");
    same.local_extra.clone_from(&same.central_extra);
    read("b.zip", &raw_zip(&[manifest(), same])).unwrap();
}

// ---- Names that merge on case-insensitive file systems ----

#[test]
fn names_that_fold_to_one_are_a_path_conflict() {
    for (first, second) in [
        ("demo/SKILL.md", "demo/\u{17f}KILL.md"),
        ("demo/\u{3c3}.md", "demo/\u{3c2}.md"),
        ("demo/\u{b5}.md", "demo/\u{3bc}.md"),
        ("demo/\u{212a}eys.md", "demo/keys.md"),
        ("demo/\u{131}ndex.md", "demo/index.md"),
        ("demo/Stra\u{df}e.md", "demo/strasse.md"),
        ("demo/\u{212b}.md", "demo/\u{e5}.md"),
    ] {
        let tar = match first {
            "demo/SKILL.md" => demo(),
            first => demo().file(first, "a"),
        };
        let tar = tar.file(second, "b").end();
        for bytes in [tar.bytes(), tar.gz()] {
            refused("b", &bytes, "path_conflict", second);
        }
        let folders = Tar::new()
            .skill(&first.replace("demo/", "").replace(".md", ""))
            .skill(&second.replace("demo/", "").replace(".md", ""))
            .end();
        refused("b.tar", &folders.bytes(), "path_conflict", "");
        let manifest = skill_md("demo");
        let mut entries = vec![ZipEntry::file("demo/SKILL.md", manifest.as_bytes())];
        if first != "demo/SKILL.md" {
            entries.push(ZipEntry::file(first, b"a"));
        }
        entries.push(ZipEntry::file(second, b"b"));
        refused("b.zip", &zip(&entries), "path_conflict", second);
    }
    let tmp = tempfile::tempdir().unwrap();
    let folder = tmp.path().join("demo");
    write_skill(&folder, &[("\u{3c3}.md", "a"), ("\u{3c2}.md", "b")]);
    assert_eq!(bundle::read(&folder).unwrap_err().code(), "path_conflict");
}

// ---- Version-control data in any case ----

#[test]
fn version_control_folders_are_set_aside_in_every_case() {
    let vcs = [
        "demo/.git/config",
        "demo/.GIT/config",
        "demo/.Hg/hgrc",
        "demo/.SVN/entries",
        "demo/.jj/repo/store",
        "demo/.Bzr/branch",
        "demo/refs/.HG/hgrc",
    ];
    let mut tar = demo();
    for path in vcs {
        tar = tar.file(path, "[paths]\ndefault = https://example.invalid/\n");
    }
    let tar = tar.file("demo/.github/workflow.yml", "x").end();
    let bundle = read("b.tar", &tar.bytes()).unwrap();
    assert_eq!(
        files(&bundle),
        ["demo/.github/workflow.yml", "demo/SKILL.md"]
    );
    assert_eq!(bundle.set_aside.len(), vcs.len(), "{:?}", bundle.set_aside);
    let tmp = tempfile::tempdir().unwrap();
    let folder = tmp.path().join("demo");
    write_skill(
        &folder,
        &[(".HG/hgrc", "x"), (".Git/config", "x"), ("a.md", "x")],
    );
    let bundle = bundle::read(&folder).unwrap();
    assert_eq!(files(&bundle), ["demo/SKILL.md", "demo/a.md"]);
}

fn run_ok(machine: &Machine, args: &[&str]) -> String {
    let output = machine.run(args);
    assert!(
        output.status.success(),
        "{args:?}: {}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// `check` and `diff` on the one installed skill: whether each says it changed.
fn check_and_diff(machine: &Machine) -> (bool, bool) {
    let check = machine.run(&["check"]);
    let diff = machine.run(&["diff", "demo"]);
    assert!(
        matches!(check.status.code(), Some(0 | 1)) && matches!(diff.status.code(), Some(0 | 1)),
        "{}{}",
        String::from_utf8_lossy(&check.stderr),
        String::from_utf8_lossy(&diff.stderr)
    );
    (
        check.status.code() == Some(1),
        diff.status.code() == Some(1),
    )
}

#[test]
fn install_snapshot_check_and_diff_agree_on_version_control_data() {
    let machine = Machine::new();
    let source = machine.root().join("bundle/demo");
    write_skill(&source, &[("notes.md", "as shipped\n")]);
    write_files(
        &source,
        &[
            (".hg/hgrc", "[paths]\ndefault = https://example.invalid/\n"),
            (".GIT/config", "[core]\n"),
            (".Svn/entries", "12\n"),
        ],
    );
    let root = machine.home.join(".claude/skills");
    run_ok(
        &machine,
        &[
            "import",
            source.to_str().unwrap(),
            "--to",
            root.to_str().unwrap(),
        ],
    );
    let installed = root.join("demo");
    for vcs in [".hg", ".GIT", ".Svn", ".git"] {
        assert!(!installed.join(vcs).exists(), "{vcs} was installed");
    }
    // What the import installed, the record's digest covers and the baseline snapshot holds:
    // all three the same files, so nothing is changed to either.
    assert_eq!(check_and_diff(&machine), (false, false));
    // An edit of a file they all cover: both see it.
    fs::write(installed.join("notes.md"), "edited\n").unwrap();
    assert_eq!(check_and_diff(&machine), (true, true));
}

/// Version-control data that appears in a skill after it was installed is covered by the
/// record's digest (as agent-skill-installer computes it) but kept by no snapshot: `check`
/// says the skill changed, and `diff`, which cannot compare it, says so rather than "matches".
#[test]
fn diff_names_what_it_cannot_compare_where_check_sees_a_change() {
    for (path, why) in [
        (".hg/hgrc", "version-control"),
        (".GIT/HEAD", "version-control"),
    ] {
        let machine = Machine::new();
        let source = machine.root().join("bundle/demo");
        write_skill(&source, &[]);
        let root = machine.home.join(".claude/skills");
        run_ok(
            &machine,
            &[
                "import",
                source.to_str().unwrap(),
                "--to",
                root.to_str().unwrap(),
            ],
        );
        write_files(&root.join("demo"), &[(path, "[paths]\n")]);
        let output = machine.run(&["diff", "demo"]);
        let stdout = String::from_utf8_lossy(&output.stdout);
        let top = path.split('/').next().unwrap();
        assert!(
            stdout.contains("not compared") && stdout.contains(top) && stdout.contains(why),
            "{path}: {stdout}"
        );
    }
}

// ---- Skill names no agent loads ----

#[test]
fn a_skill_installed_under_a_hidden_name_is_refused() {
    let top = |name: &str| {
        Tar::new()
            .file(
                "SKILL.md",
                format!("---\nname: {name}\ndescription: hidden\n---\n"),
            )
            .end()
    };
    for name in [".hidden-skill", ".x", "..."] {
        let code = if name == "..." {
            "unsafe_path"
        } else {
            "invalid_skill"
        };
        match read("bundle.tar.gz", &top(name).gz()) {
            // `...` cannot be a folder's name at all (a trailing dot), so the archive's
            // name is taken: that is a visible folder.
            Ok(bundle) if name == "..." => assert_eq!(bundle.skills[0].name, "bundle"),
            Ok(bundle) => panic!("{name}: installed as {}", bundle.skills[0].name),
            Err(refusal) => {
                assert_eq!(refusal.code(), code, "{name}: {refusal}");
                assert!(refusal.to_string().contains(name), "{refusal}");
            }
        }
    }
    // An archive named as a hidden file, its frontmatter naming nothing usable.
    refused(
        ".secret.tar",
        &top("../x").bytes(),
        "invalid_skill",
        ".secret",
    );
    // One hidden folder holding everything, taken for a wrapper's skill.
    let wrapped = Tar::new().skill(".wrapper").end();
    refused("b.tar", &wrapped.bytes(), "invalid_skill", ".wrapper");
    // A marketplace listing a hidden folder.
    let marketplace = Tar::new()
        .file(
            ".claude-plugin/marketplace.json",
            r#"{"plugins": [{"name": "p", "source": "./", "skills": ["./.quiet"]}]}"#,
        )
        .skill(".quiet")
        .end();
    refused("b.tar", &marketplace.bytes(), "invalid_skill", ".quiet");
    // A hidden folder of the user's, imported as it is.
    let tmp = tempfile::tempdir().unwrap();
    let folder = tmp.path().join(".dotted");
    write_skill(&folder, &[]);
    let refusal = bundle::read(&folder).unwrap_err();
    assert_eq!(refusal.code(), "invalid_skill", "{refusal}");
    // The visible forms are kept.
    for name in ["visible", "a.b", "x-1"] {
        assert_eq!(
            read("bundle.tar", &top(name).bytes()).unwrap().skills[0].name,
            name
        );
    }
}

// ---- Export writes what import accepts ----

#[test]
fn export_refuses_a_name_import_would_refuse_and_names_the_file() {
    let cases: [(&[(&str, &str)], &str); 7] = [
        (&[("a:b.md", "x")], "a:b.md"),
        (&[("tab\there.md", "x")], "tab"),
        (&[("aux.md", "x")], "aux.md"),
        (&[("GIT~1/config", "x")], "GIT~1/config"),
        (&[("Notes.md", "a"), ("notes.md", "b")], "otes.md"),
        (&[("\u{3c3}.md", "a"), ("\u{3c2}.md", "b")], ".md"),
        (&[("what?.md", "x")], "what?.md"),
    ];
    for (extra, names) in cases {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("demo");
        write_skill(&dir, extra);
        let error = skilldeck::snapshot::export::export(&dir).unwrap_err();
        assert!(error.is_refusal(), "{error}");
        let shown = error.to_string();
        assert!(
            shown.contains(names) && shown.contains("import would refuse"),
            "{extra:?}: {shown}"
        );
    }
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("demo");
    write_skill(&dir, &[("refs/ok.md", "x"), (".hg/hgrc", "x")]);
    let package = skilldeck::snapshot::export::export(&dir).unwrap();
    let bundle = read("demo.tar.gz", &package.archive).unwrap();
    assert_eq!(files(&bundle), ["demo/SKILL.md", "demo/refs/ok.md"]);
}
