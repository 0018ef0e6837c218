use std::path::Path;

use super::*;

const HELLO: &str = "5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03";
const EMPTY: &str = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

/// Shaped as APM writes it (its own repository's `apm.lock.yaml` and the lockfile spec's
/// example): a dependency with a `sha256:` hash, one with bare hex, the project's own files,
/// a directory entry, a non-skill file, and fields skilldeck does not read.
fn real_shaped() -> String {
    format!(
        "lockfile_version: '1'
generated_at: '2026-07-31T12:14:04.210842+00:00'
apm_version: 0.26.0
dependencies:
- repo_url: github.com/octocat/example-skills
  resolved_ref: v1.2.0
  resolved_commit: 7f3c9a4d2e1b8c7f0a9e6d5c4b3a2918f7e6d5c4
  package_type: skill_bundle
  skill_subset:
  - review
  deployed_files:
  - .agents/skills/review
  - .agents/skills/review/SKILL.md
  - .github/instructions/style.instructions.md
  deployed_file_hashes:
    .agents/skills/review/SKILL.md: sha256:{HELLO}
    .agents/skills/review/scripts/run.sh: sha256:{EMPTY}
    .github/instructions/style.instructions.md: sha256:{EMPTY}
- repo_url: local/fixture
  resolved_commit: fixture
  deployed_file_hashes:
    .claude/skills/hello/SKILL.md: {}
mcp_servers:
- github
local_deployed_files:
- .github/skills/mine/SKILL.md
local_deployed_file_hashes:
  .github/skills/mine/SKILL.md: \"{EMPTY}\"
",
        HELLO.to_ascii_uppercase()
    )
}

fn parse(text: &str) -> Result<ApmLock, ApmLockError> {
    ApmLock::parse(text.as_bytes(), Path::new("apm.lock.yaml"))
}

#[test]
fn a_real_shaped_lock_gives_its_skill_files() {
    let lock = parse(&real_shaped()).expect("a lock");
    let paths: Vec<&str> = lock.files.keys().map(String::as_str).collect();
    assert_eq!(
        paths,
        [
            ".agents/skills/review/SKILL.md",
            ".agents/skills/review/scripts/run.sh",
            ".claude/skills/hello/SKILL.md",
            ".github/skills/mine/SKILL.md",
        ]
    );
    let review = &lock.files[".agents/skills/review/SKILL.md"];
    assert_eq!(review.dir, ".agents/skills/review");
    assert_eq!(review.name, "review");
    assert_eq!(review.file, "SKILL.md");
    assert_eq!(review.sha256, HELLO);
    assert_eq!(lock.files[".claude/skills/hello/SKILL.md"].sha256, HELLO);
    assert_eq!(lock.files[".github/skills/mine/SKILL.md"].sha256, EMPTY);
}

#[test]
fn a_prefix_other_than_sha256_is_not_a_hash() {
    // `SHA256:` is not what APM writes; the entry is refused, not guessed at.
    let text = real_shaped().replacen("sha256:", "SHA256:", 1);
    let error = parse(&text).expect_err("refused");
    assert!(error.to_string().contains("is not a SHA-256"), "{error}");
}

#[test]
fn nested_files_and_version_two_are_read() {
    let text = format!(
        "lockfile_version: \"2\"\ndependencies:\n- repo_url: a/b\n  deployed_file_hashes:\n    .kiro/skills/x/scripts/a/run.sh: sha256:{EMPTY}\n"
    );
    let lock = parse(&text).expect("a lock");
    let file = &lock.files[".kiro/skills/x/scripts/a/run.sh"];
    assert_eq!(
        (file.name.as_str(), file.file.as_str()),
        ("x", "scripts/a/run.sh")
    );
}

#[test]
fn a_lock_without_a_version_is_a_legacy_v1_and_empty_fields_are_empty() {
    assert_eq!(
        parse("dependencies:\n").expect("a lock"),
        ApmLock::default()
    );
    assert_eq!(
        parse("lockfile_version: '1'\ndependencies: []\nlocal_deployed_file_hashes:\n")
            .expect("a lock"),
        ApmLock::default()
    );
}

#[test]
fn an_unknown_version_is_refused() {
    for version in ["'3'", "'0'", "'1.0'", "next"] {
        let error = parse(&format!("lockfile_version: {version}\n")).expect_err(version);
        assert!(
            matches!(error, ApmLockError::Version { .. }),
            "{version}: {error}"
        );
        assert!(error.to_string().contains("refuses to guess"), "{error}");
    }
}

#[test]
fn hostile_paths_are_refused_naming_the_entry() {
    for (path, says) in [
        ("/etc/passwd", "absolute"),
        ("~/.ssh/id_rsa", "absolute"),
        ("C:/x/skills/a/SKILL.md", "absolute"),
        (".agents/skills/../../../x", "climbs"),
        ("../outside/SKILL.md", "climbs"),
        (".agents\\\\skills\\\\a\\\\SKILL.md", "backslash"),
        (".agents/skills/a/\\u001b[2J", "control"),
    ] {
        let text = format!(
            "lockfile_version: '1'\ndependencies:\n- repo_url: evil/repo\n  deployed_file_hashes:\n    \"{path}\": {EMPTY}\n"
        );
        let error = parse(&text).expect_err(path);
        let sentence = error.to_string();
        assert!(
            matches!(error, ApmLockError::Entry { .. }),
            "{path}: {sentence}"
        );
        assert!(sentence.contains(says), "{path}: {sentence}");
        assert!(sentence.contains("\"evil/repo\""), "{sentence}");
    }
}

#[test]
fn what_is_not_a_lock_is_refused_with_a_sentence() {
    for text in [
        "- a list\n",
        "dependencies: {a: 1}\n",
        "dependencies:\n- repo_url: a\n  deployed_file_hashes: [x]\n",
        "local_deployed_file_hashes:\n  .agents/skills/a/SKILL.md: [1]\n",
        ": : :\n\t",
    ] {
        let error = parse(text).expect_err(text);
        assert!(
            matches!(error, ApmLockError::NotALock { .. }),
            "{text}: {error}"
        );
        assert!(error.to_string().contains("is not an APM lock"), "{error}");
    }
    let error = ApmLock::parse(&[0xff, 0xfe], Path::new("apm.lock.yaml")).expect_err("bytes");
    assert!(error.to_string().contains("not UTF-8"), "{error}");
}

#[test]
fn a_missing_lock_is_none_and_a_huge_one_is_refused() {
    let dir = tempfile::tempdir().expect("temp");
    let path = dir.path().join(APM_LOCK_FILE);
    assert_eq!(ApmLock::read(&path).expect("read"), None);
    let file = std::fs::File::create(&path).expect("create");
    file.set_len(crate::limits::APM_LOCK_BYTES + 1)
        .expect("size");
    let error = ApmLock::read(&path).expect_err("huge");
    assert!(matches!(error, ApmLockError::Read { .. }), "{error}");
}

#[test]
fn the_hash_is_apms_line_ending_neutral_one() {
    assert_eq!(apm_file_hash(b""), EMPTY);
    assert_eq!(apm_file_hash(b"hello\n"), HELLO);
    assert_eq!(apm_file_hash(b"hello\r\n"), HELLO);
    // A bare CR stays visible, as APM keeps it.
    assert_ne!(apm_file_hash(b"hello\r"), HELLO);
    // Bytes with a NUL, or not UTF-8, are hashed raw: their CRLF counts.
    assert_ne!(apm_file_hash(b"\0hello\r\n"), apm_file_hash(b"\0hello\n"));
    assert_ne!(
        apm_file_hash(b"\xffhello\r\n"),
        apm_file_hash(b"\xffhello\n")
    );
}
