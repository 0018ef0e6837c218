use super::*;
use std::fs;

use crate::record::{digest_of, stamp};

const SKILL: &str = "---\nname: greet\ndescription: Greets.\n---\n# Greet\n";

fn folder() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    fs::create_dir_all(dir.join("scripts")).unwrap();
    fs::write(dir.join(SKILL_FILE), SKILL).unwrap();
    fs::write(dir.join("scripts/hello.sh"), "echo hi\n").unwrap();
    tmp
}

#[test]
fn skilldecks_record_does_not_change_the_hash() {
    let tmp = folder();
    let before = computed_hash(tmp.path()).unwrap();
    assert_eq!(
        before,
        skills_cli::computed_hash(tmp.path(), None).unwrap(),
        "a skill without a record is hashed as it is"
    );
    let stamped = stamp(SKILL, "skilldeck", "9.9.9").unwrap();
    let digest = digest_of([(Path::new(SKILL_FILE), stamped.text().as_bytes())]);
    fs::write(tmp.path().join(SKILL_FILE), stamped.seal(&digest)).unwrap();
    assert_ne!(skills_cli::computed_hash(tmp.path(), None).unwrap(), before);
    assert_eq!(computed_hash(tmp.path()).unwrap(), before);
    // An edit after the import is still seen.
    fs::write(tmp.path().join("scripts/hello.sh"), "echo bye\n").unwrap();
    assert_ne!(computed_hash(tmp.path()).unwrap(), before);
}

#[test]
fn git_node_modules_and_links_are_not_hashed() {
    let tmp = folder();
    let before = computed_hash(tmp.path()).unwrap();
    fs::create_dir_all(tmp.path().join(".git")).unwrap();
    fs::write(tmp.path().join(".git/HEAD"), "x").unwrap();
    fs::create_dir_all(tmp.path().join("sub/node_modules/m")).unwrap();
    fs::write(tmp.path().join("sub/node_modules/m/i.js"), "x").unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink("scripts/hello.sh", tmp.path().join("link.sh")).unwrap();
    assert_eq!(computed_hash(tmp.path()).unwrap(), before);
    fs::write(tmp.path().join("sub/x.md"), "x").unwrap();
    assert_ne!(computed_hash(tmp.path()).unwrap(), before);
}

#[test]
fn a_file_past_the_digests_bound_is_not_read() {
    let tmp = folder();
    let file = fs::File::create(tmp.path().join("big.bin")).unwrap();
    file.set_len(crate::limits::DIGEST_FILE_BYTES + 1).unwrap();
    let error = computed_hash(tmp.path()).unwrap_err();
    assert!(error.to_string().contains("big.bin"), "{error}");
}
