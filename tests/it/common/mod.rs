//! Fixture builders shared by the integration tests: a temporary machine (home, managed
//! directory, project), skills written into it, the real binary run against it, and an
//! independent implementation of the installer's digest to check skilldeck against.

#![allow(dead_code)]

pub mod app;
pub mod archive;
pub mod deck;
pub mod git;
#[cfg(unix)]
pub mod http;
#[cfg(target_os = "linux")]
pub mod mount;
pub mod outside;
pub mod plugins;
#[cfg(unix)]
pub mod pty;
pub mod sessions;
pub mod store;

use std::collections::BTreeMap;
use std::fs;
use std::path::{Component, Path, PathBuf};
use std::process::{Command, Output};

use sha2::{Digest, Sha256};

/// A throw-away machine: `home`, a system root standing in for `/`, and a repository whose
/// `app` folder is where the tool is started.
pub struct Machine {
    pub tmp: tempfile::TempDir,
    pub home: PathBuf,
    pub system: PathBuf,
    pub repo: PathBuf,
    pub start: PathBuf,
}

impl Machine {
    pub fn new() -> Self {
        Self::in_dir(&std::env::temp_dir())
    }

    /// A machine whose folders are all below `base` (on the file system `base` is on).
    pub fn in_dir(base: &Path) -> Self {
        let tmp = tempfile::tempdir_in(base).expect("temp dir");
        let root = tmp.path().canonicalize().expect("canonical temp dir");
        let home = root.join("home");
        let system = root.join("system");
        let repo = root.join("work/repo");
        let start = repo.join("app");
        for dir in [&home, &system, &start, &repo.join(".git")] {
            fs::create_dir_all(dir).expect("machine dirs");
        }
        Self {
            tmp,
            home,
            system,
            repo,
            start,
        }
    }

    pub fn root(&self) -> PathBuf {
        self.home.parent().expect("home has a parent").to_path_buf()
    }

    /// The environment skilldeck's library reads for this machine.
    pub fn env(&self) -> skilldeck::roots::Environment {
        skilldeck::roots::Environment::new(&self.home)
            .with_var("SKILLDECK_SYSTEM_ROOT", &self.system)
    }

    /// Run the real binary on this machine, with nothing of the caller's environment.
    pub fn run(&self, args: &[&str]) -> Output {
        self.command(args).output().expect("run skilldeck")
    }

    /// Run and insist on an exit code, showing both streams when it differs.
    pub fn run_expecting(&self, args: &[&str], code: i32) -> Output {
        let output = self.run(args);
        assert_eq!(
            output.status.code(),
            Some(code),
            "{args:?}\nstdout: {}\nstderr: {}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        output
    }

    /// `skilldeck import SOURCE --to ROOT`, which must succeed.
    pub fn import_to(&self, source: impl AsRef<Path>, root: impl AsRef<Path>) -> Output {
        let arg = |path: &Path| path.to_str().expect("a UTF-8 path").to_owned();
        let (source, root) = (arg(source.as_ref()), arg(root.as_ref()));
        self.run_expecting(&["import", &source, "--to", &root], 0)
    }

    pub fn command(&self, args: &[&str]) -> Command {
        let mut command = Command::new(env!("CARGO_BIN_EXE_skilldeck"));
        command
            .args(args)
            .env_clear()
            .env("HOME", &self.home)
            .env("SKILLDECK_SYSTEM_ROOT", &self.system)
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .current_dir(&self.start);
        command
    }

    /// Run the real binary as a user permissions apply to: the current one, or `nobody`
    /// (through setpriv, util-linux) when the tests run as root, which reads and writes
    /// everything regardless. The machine's folders are opened to `nobody` to reach.
    #[cfg(unix)]
    pub fn run_unprivileged(&self, args: &[&str]) -> Output {
        self.unprivileged(args)
            .output()
            .expect("setpriv (util-linux) runs the binary as nobody")
    }

    /// The command [`Machine::run_unprivileged`] runs.
    #[cfg(unix)]
    pub fn unprivileged(&self, args: &[&str]) -> Command {
        use std::os::unix::fs::PermissionsExt;
        let command = self.command(args);
        if !is_root() {
            return command;
        }
        for dir in self.root().ancestors().take(3) {
            let mode = fs::metadata(dir).expect("stat").permissions().mode();
            fs::set_permissions(dir, fs::Permissions::from_mode(mode | 0o755)).expect("chmod");
        }
        let mut wrapped = Command::new("setpriv");
        wrapped
            .args(["--reuid=65534", "--regid=65534", "--clear-groups", "--"])
            .arg(command.get_program())
            .args(args)
            .env_clear()
            .envs(command.get_envs().filter_map(|(k, v)| Some((k, v?))))
            .current_dir(&self.start);
        wrapped
    }

    /// Run, insist on the exit code, and parse what was printed as JSON, showing both streams
    /// when it is not JSON.
    pub fn run_json(&self, args: &[&str], code: i32) -> serde_json::Value {
        let output = self.run_expecting(args, code);
        serde_json::from_slice(&output.stdout).unwrap_or_else(|_| {
            panic!(
                "{args:?} printed no JSON: {}\nstderr: {}",
                String::from_utf8_lossy(&output.stdout),
                String::from_utf8_lossy(&output.stderr)
            )
        })
    }

    /// `skilldeck list --json`, parsed; panics unless it exits 0.
    pub fn list_json(&self) -> serde_json::Value {
        let output = self.run(&["list", "--json"]);
        assert!(
            output.status.success(),
            "list failed: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        serde_json::from_slice(&output.stdout).expect("list prints JSON")
    }
}

/// The skill named `name` in a `list --json` listing; panics when it is not listed.
pub fn listed<'a>(listing: &'a serde_json::Value, name: &str) -> &'a serde_json::Value {
    listing["skills"]
        .as_array()
        .expect("a listing has skills")
        .iter()
        .find(|s| s["name"] == name)
        .unwrap_or_else(|| panic!("{name} is not listed: {listing:#}"))
}

/// Whether the tests run as root, for whom permissions do not apply.
#[cfg(unix)]
pub fn is_root() -> bool {
    fs::metadata("/proc/self").is_ok_and(|m| std::os::unix::fs::MetadataExt::uid(&m) == 0)
}

/// Write a skill folder with a frontmatter naming it after its folder, and extra files.
pub fn write_skill(dir: &Path, extra: &[(&str, &str)]) {
    let name = dir.file_name().expect("named").to_string_lossy();
    let skill_md =
        format!("---\nname: {name}\ndescription: The {name} skill, for tests.\n---\n# {name}\n");
    write_files(dir, &[("SKILL.md", &skill_md)]);
    write_files(dir, extra);
}

pub fn write_files(dir: &Path, files: &[(&str, &str)]) {
    for (path, content) in files {
        let path = dir.join(path);
        fs::create_dir_all(path.parent().expect("parent")).expect("dirs");
        fs::write(path, content).expect("write");
    }
}

#[cfg(unix)]
pub fn symlink(target: &Path, link: &Path) {
    fs::create_dir_all(link.parent().expect("parent")).expect("dirs");
    std::os::unix::fs::symlink(target, link).expect("symlink");
}

/// A FIFO at `path`: what would block a reader that opens it as a file.
/// rustix has no `mknodat` on Apple's systems, so the POSIX `mkfifo` utility makes it there.
#[cfg(unix)]
pub fn fifo(path: &Path) {
    #[cfg(not(target_vendor = "apple"))]
    rustix::fs::mknodat(
        rustix::fs::CWD,
        path,
        rustix::fs::FileType::Fifo,
        rustix::fs::Mode::from_raw_mode(0o600),
        0,
    )
    .expect("mkfifo");
    #[cfg(target_vendor = "apple")]
    assert!(
        Command::new("mkfifo")
            .arg(path)
            .status()
            .expect("mkfifo runs")
            .success()
    );
}

/// The installer's content digest, written independently of skilldeck from the description
/// in ownership-record-and-digest.md §2, for checking what skilldeck reports.
pub fn oracle_digest(dir: &Path) -> String {
    fn walk(dir: &Path, prefix: &[String], out: &mut BTreeMap<Vec<String>, Vec<u8>>) {
        for entry in fs::read_dir(dir).expect("read dir") {
            let entry = entry.expect("entry");
            let name = entry.file_name().to_string_lossy().into_owned();
            if name == ".DS_Store" || name == "Thumbs.db" {
                continue;
            }
            let mut path = prefix.to_vec();
            path.push(name);
            let kind = entry.file_type().expect("type");
            if kind.is_dir() {
                walk(&entry.path(), &path, out);
            } else {
                assert!(kind.is_file(), "the oracle digests regular files only");
                out.insert(path, fs::read(entry.path()).expect("read"));
            }
        }
    }
    let mut files = BTreeMap::new();
    walk(dir, &[], &mut files);
    let mut hasher = Sha256::new();
    for (parts, content) in files {
        let path = parts.join("/");
        let content = if path == "SKILL.md" {
            blank_digest_lines(&content)
        } else {
            content
        };
        hasher.update(path.as_bytes());
        hasher.update([0u8]);
        hasher.update((content.len() as u64).to_be_bytes());
        hasher.update(&content);
    }
    format!("sha256:{}", hex(&hasher.finalize()))
}

/// Bytes as lower-case hexadecimal.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn blank_digest_lines(content: &[u8]) -> Vec<u8> {
    let Ok(text) = std::str::from_utf8(content) else {
        return content.to_vec();
    };
    let mut open = false;
    let mut out = String::new();
    for (index, line) in text.split_inclusive('\n').enumerate() {
        let ending_at = line.trim_end_matches(['\r', '\n']).len();
        let (bare, ending) = line.split_at(ending_at);
        if bare == "---" {
            open = index == 0;
        }
        if open && bare.starts_with("  content-digest: ") {
            out.push_str("  content-digest: \"\"");
            out.push_str(ending);
        } else {
            out.push_str(line);
        }
    }
    out.into_bytes()
}

/// A path relative to `base`, `/`-separated, for readable expectations.
pub fn relative(path: &Path, base: &Path) -> String {
    path.strip_prefix(base)
        .unwrap_or(path)
        .components()
        .filter_map(|c| match c {
            Component::Normal(part) => Some(part.to_string_lossy().into_owned()),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// agent-skill-installer 0.2.1, the installer whose record skilldeck reads, driven as a test
/// oracle: it installs skills into `~/.claude/skills` of a machine and gives its own verdict.
pub struct Installer {
    catalog: agent_skill_installer::Catalog,
    env: agent_skill_installer::Environment,
    program: agent_skill_installer::Program,
}

impl Installer {
    /// The installer of `program` at `version`, seeing only Claude Code's personal root.
    pub fn for_claude(home: &Path, program: &str, version: &str) -> Self {
        use agent_skill_installer::{Catalog, Location, SkillDir, Tool};
        fs::create_dir_all(home.join(".claude")).expect("claude home");
        let mut catalog = Catalog::empty();
        catalog
            .add_dir(
                SkillDir::new("claude", Location::home(".claude/skills"))
                    .requires(Location::home(".claude")),
            )
            .expect("dir");
        catalog
            .add_tool(
                Tool::new("claude-code", "Claude Code", Location::home(".claude"))
                    .reads(["claude"]),
            )
            .expect("tool");
        Self {
            catalog,
            env: agent_skill_installer::Environment::new(home),
            program: agent_skill_installer::Program::new(program, version).expect("program"),
        }
    }

    fn installer<'a>(
        &'a self,
        skill: &'a agent_skill_installer::Skill,
    ) -> agent_skill_installer::Installer<'a> {
        agent_skill_installer::Installer::new(&self.catalog, &self.env, skill, &self.program)
    }

    /// Install `skill` (or update it), returning its folder.
    pub fn install(&self, skill: &agent_skill_installer::Skill) -> PathBuf {
        use agent_skill_installer::{Approval, Consent, Done};
        let installer = self.installer(skill);
        let consent = Consent::load(self.env.home().join("consent")).expect("consent");
        let assessment = installer.assess(&consent).expect("assess");
        let places = assessment.awaiting_approval().map(|s| s.place.clone());
        let outcomes = installer.apply(&assessment, &Approval::install(places));
        assert!(
            outcomes
                .iter()
                .all(|o| matches!(o.done, Done::Installed | Done::Updated { .. })),
            "{outcomes:?}"
        );
        self.env.home().join(".claude/skills").join(skill.name())
    }

    /// Update every unchanged copy to this installer's version.
    pub fn update(&self, skill: &agent_skill_installer::Skill) {
        let outcomes = self.installer(skill).update().expect("update");
        assert!(!outcomes.is_empty(), "nothing was updated");
    }

    /// What the installer finds in the skill's folder.
    pub fn found(&self, skill: &agent_skill_installer::Skill) -> agent_skill_installer::Found {
        use agent_skill_installer::Consent;
        let consent = Consent::load(self.env.home().join("consent")).expect("consent");
        let assessment = self.installer(skill).assess(&consent).expect("assess");
        let dir = self.env.home().join(".claude/skills").join(skill.name());
        let step = assessment
            .steps
            .into_iter()
            .find(|step| step.skill_dir == dir)
            .expect("a step for the skill");
        step.found
    }
}

/// Copy a folder tree, keeping links as links and the executable bit.
pub fn copy_tree(from: &Path, to: &Path) {
    fs::create_dir_all(to).expect("dirs");
    for entry in fs::read_dir(from).expect("read dir") {
        let entry = entry.expect("entry");
        let target = to.join(entry.file_name());
        let kind = entry.file_type().expect("type");
        if kind.is_symlink() {
            #[cfg(unix)]
            std::os::unix::fs::symlink(fs::read_link(entry.path()).expect("link"), &target)
                .expect("symlink");
        } else if kind.is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            fs::copy(entry.path(), &target).expect("copy");
        }
    }
}

/// Set the modification time of a folder and everything in it (links not followed).
pub fn set_modified(dir: &Path, when: std::time::SystemTime) {
    for entry in walkdir::WalkDir::new(dir).follow_links(false) {
        let entry = entry.expect("entry");
        if entry.path_is_symlink() {
            continue;
        }
        fs::File::open(entry.path())
            .and_then(|file| file.set_modified(when))
            .expect("set modified");
    }
}

/// Everything below `dir` as it is now: each entry's kind, mode and content (a link's target),
/// by path, so two snapshots are equal only if nothing was added, removed or changed.
pub fn snapshot(dir: &Path) -> BTreeMap<String, (String, u32, Vec<u8>)> {
    let mut found = BTreeMap::new();
    for entry in walkdir::WalkDir::new(dir).min_depth(1).sort_by_file_name() {
        let entry = entry.expect("walk");
        let meta = entry.path().symlink_metadata().expect("lstat");
        let kind = meta.file_type();
        let (what, content) = if kind.is_symlink() {
            let target = fs::read_link(entry.path()).expect("readlink");
            ("link", target.to_string_lossy().as_bytes().to_vec())
        } else if kind.is_file() {
            ("file", fs::read(entry.path()).expect("read"))
        } else if kind.is_dir() {
            ("dir", Vec::new())
        } else {
            ("other", Vec::new())
        };
        #[cfg(unix)]
        let mode = std::os::unix::fs::PermissionsExt::mode(&meta.permissions());
        #[cfg(not(unix))]
        let mode = 0;
        found.insert(
            relative(entry.path(), dir),
            (what.to_owned(), mode, content),
        );
    }
    found
}

/// Copy the committed audit corpus's skill `kind/name` (`tests/fixtures/audit/risky/...` or
/// `benign/...`) into the folder `to`.
pub fn copy_corpus(kind: &str, name: &str, to: &Path) {
    let from = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/audit")
        .join(kind)
        .join(name);
    let mut stack = vec![from.clone()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let target = to.join(path.strip_prefix(&from).unwrap());
            if path.is_dir() {
                std::fs::create_dir_all(&target).unwrap();
                stack.push(path);
            } else {
                std::fs::create_dir_all(target.parent().unwrap()).unwrap();
                std::fs::copy(&path, &target).unwrap();
            }
        }
    }
}
