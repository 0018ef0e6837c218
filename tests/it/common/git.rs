//! Git repositories built for tests: a fixed identity and none of the caller's configuration,
//! so a commit's content is all that differs between machines.

use std::path::Path;
use std::process::Command;

use super::write_files;

/// Run git in `dir` with a fixed identity and none of the caller's configuration; its output.
pub fn git(dir: &Path, args: &[&str]) -> String {
    let output = Command::new("git")
        .args(["-c", "user.name=Test", "-c", "user.email=test@example.org"])
        .args([
            "-c",
            "init.defaultBranch=main",
            "-c",
            "protocol.file.allow=always",
        ])
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .output()
        .expect("git runs");
    assert!(
        output.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).trim().to_owned()
}

/// Commit everything in `dir` with `message`; the commit's id.
pub fn commit(dir: &Path, message: &str) -> String {
    git(dir, &["add", "-A"]);
    git(dir, &["commit", "--quiet", "-m", message]);
    git(dir, &["rev-parse", "HEAD"])
}

/// A new repository at `dir` holding `files`, committed on `main`; the commit's id.
pub fn repository(dir: &Path, files: &[(&str, &str)]) -> String {
    std::fs::create_dir_all(dir).unwrap();
    git(dir, &["init", "--quiet"]);
    write_files(dir, files);
    commit(dir, "first")
}
