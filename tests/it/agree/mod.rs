//! The agreement suite: the real agents, installed at pinned versions by
//! `scripts/install-agents`, are asked offline which skills they load in a throw-away home and
//! project, and `skilldeck list --json --all-agents`, run with the same home, environment and
//! start folder, must claim exactly that set for each of them.
//!
//! A [`Lab`] is one case: a temporary `HOME`, a project (a real `git init`: some agents ignore a
//! bare `.git` folder), a folder inside it and one outside any project. Each agent is asked with
//! the command the reference names (`agents-as-oracles.md`), under `timeout 60` with stdin
//! closed and nothing of the caller's environment but `PATH`; Claude Code talks to a loopback
//! sink ([`Sink`]) that records what the model would have been sent and answers 400.
//!
//! What is compared, per agent: the set of (name, canonical SKILL.md path), built-ins by name.
//! Built-ins are compared only where a case asks for them ([`Check::builtins`]), so that every
//! other case's diff is about its own class. An agent's listing is what the agent reports:
//! for Codex and Claude Code that is what the model is shown, so skilldeck's `hidden` entries for
//! them are left out of skilldeck's side; for the others (whose listings also show skills the
//! model does not see) they are kept.
//!
//! Without the agents the suite says so loudly and passes; under `CI=true` it fails.

#![allow(dead_code)]

mod amp;
mod claude_code;
mod claude_home_deeper;
mod codex;
mod copilot;
mod frontmatter;
mod gemini_cli;
mod generate;
mod listing_claude_code;
mod listing_codex;
mod manage;
mod opencode;
mod project_links;
mod real_world;
mod switch;

use std::collections::{BTreeMap, BTreeSet};
use std::ffi::{OsStr, OsString};
use std::fs;
use std::io::{Read, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::Value;
use sha2::{Digest, Sha256};

/// The pins `scripts/install-agents` installs, in its order: the default cache folder is keyed
/// by their hash, so the two must list the same packages.
const PACKAGES: &[&str] = &[
    "@anthropic-ai/claude-code@2.1.332",
    "@openai/codex@0.171.0",
    "opencode-ai@1.18.33",
    "@google/gemini-cli@0.61.0",
    "@github/copilot@1.0.102",
    "@ampcode/cli@0.0.1790142911-g7618fb",
    "skills@1.5.26",
];

const INSTALL: &str = "scripts/install-agents";

/// The folder the agents are installed in: `$SKILLDECK_AGENTS`, else the default cache folder.
pub(crate) fn agents_prefix() -> PathBuf {
    if let Some(dir) = std::env::var_os("SKILLDECK_AGENTS").filter(|v| !v.is_empty()) {
        return PathBuf::from(dir);
    }
    let mut hasher = Sha256::new();
    for package in PACKAGES {
        hasher.update(package.as_bytes());
        hasher.update(b"\n");
    }
    let hash = crate::common::hex(&hasher.finalize())[..16].to_owned();
    let cache = std::env::var_os("XDG_CACHE_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(std::env::var_os("HOME").unwrap_or_default()).join(".cache")
        });
    cache.join("skilldeck/agents").join(hash)
}

/// Whether every agent's program is where the install put it.
fn agents_installed(prefix: &Path) -> bool {
    Agent::ALL
        .iter()
        .all(|agent| agent.program(prefix).is_file())
}

/// The installed agents, or `None` (said loudly) when they are missing outside CI.
fn installed() -> Option<PathBuf> {
    let prefix = agents_prefix();
    if agents_installed(&prefix) {
        return Some(prefix);
    }
    let message = format!(
        "agents not installed in {}: run {INSTALL} and set SKILLDECK_AGENTS to the path it prints",
        prefix.display()
    );
    if std::env::var("CI").is_ok_and(|v| v == "true" || v == "1") {
        panic!("{message}");
    }
    crate::common::outside::say_skipped(&format!("{message} — the agreement suite did not run"));
    None
}

#[test]
fn agents_are_installed_or_we_say_so() {
    let prefix = agents_prefix();
    match installed() {
        Some(found) => {
            for agent in Agent::ALL {
                assert!(agent.program(&found).is_file(), "{}", agent.id());
            }
        }
        None => assert!(!agents_installed(&prefix)),
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Agent {
    ClaudeCode,
    Codex,
    OpenCode,
    GeminiCli,
    Copilot,
    Amp,
}

impl Agent {
    pub const ALL: [Agent; 6] = [
        Agent::ClaudeCode,
        Agent::Codex,
        Agent::OpenCode,
        Agent::GeminiCli,
        Agent::Copilot,
        Agent::Amp,
    ];

    /// skilldeck's id for the agent.
    pub fn id(self) -> &'static str {
        match self {
            Agent::ClaudeCode => "claude-code",
            Agent::Codex => "codex",
            Agent::OpenCode => "opencode",
            Agent::GeminiCli => "gemini-cli",
            Agent::Copilot => "copilot",
            Agent::Amp => "amp",
        }
    }

    fn program(self, prefix: &Path) -> PathBuf {
        let modules = prefix.join("node_modules");
        match self {
            // npm 11 skips its postinstall, so the platform binary is called directly.
            Agent::ClaudeCode => modules.join("@anthropic-ai/claude-code-linux-x64/claude"),
            Agent::Codex => modules.join(".bin/codex"),
            Agent::OpenCode => modules.join(".bin/opencode"),
            Agent::GeminiCli => modules.join(".bin/gemini"),
            Agent::Copilot => modules.join(".bin/copilot"),
            Agent::Amp => modules.join(".bin/amp"),
        }
    }

    /// Whether a listing row is one of the agent's built-in skills, by where its file is
    /// (Codex writes its system skills into the home, Copilot and Gemini CLI ship files).
    fn builtin_path(self, path: &Path, lab: &Lab) -> bool {
        let text = path.to_string_lossy();
        match self {
            Agent::Codex => text.contains("/skills/.system/"),
            Agent::Copilot => text.contains("/copilot/pkg/"),
            Agent::GeminiCli => path.starts_with(&lab.prefix) && text.contains("/bundle/builtin/"),
            _ => false,
        }
    }

    /// Whether the agent's listing is what the model is shown (so skills the agent hides from
    /// the model are missing from it), rather than everything it loaded.
    fn lists_what_the_model_sees(self) -> bool {
        matches!(self, Agent::Codex | Agent::ClaudeCode)
    }

    /// Whether the agent's listing says which skills its settings turn off (Copilot's
    /// `enabled: false`): its ask and skilldeck's claims then both name such a skill
    /// [`disabled`], so every comparison covers the switch as well as the loading.
    fn marks_disabled(self) -> bool {
        matches!(self, Agent::Copilot)
    }
}

/// Whether skilldeck's listing (`json`) says a skill may make `agent` list nothing at all
/// (`left_out` effect `breaks-listing`): then an agent that gives no listing agrees with it.
fn listing_may_fail(json: &Value, agent: Agent) -> bool {
    json["skills"]
        .as_array()
        .into_iter()
        .flatten()
        .any(|skill| {
            skill["left_out"].as_array().is_some_and(|entries| {
                entries.iter().any(|e| {
                    e["agent"].as_str() == Some(agent.id())
                        && e["effect"].as_str() == Some("breaks-listing")
                })
            })
        })
}

/// The name a listing that marks disabled skills compares one by.
pub fn disabled(name: &str) -> String {
    format!("{name} (disabled)")
}

/// One skill as an agent lists it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Loaded {
    pub name: String,
    /// Canonicalised; for a built-in without a file, empty.
    pub skill_md: PathBuf,
    pub builtin: bool,
    /// skilldeck's word that the agent picks this copy or another of its name at random.
    pub unsettled: bool,
    /// The other names a listing row may be read as, where its format is ambiguous (Codex's
    /// `- NAME: DESCRIPTION` when `: ` is in the name too); `name` is the first reading.
    pub other_names: Vec<String>,
}

impl Loaded {
    fn key(&self, by_name: bool) -> String {
        if self.builtin {
            format!("{} (built-in)", self.name)
        } else if by_name {
            self.name.clone()
        } else {
            format!("{} @ {}", self.name, self.skill_md.display())
        }
    }
}

/// The canonical form of a skill's file: `DIR/SKILL.md` (or the lower-case `skill.md` an agent
/// may take when that is all there is), links resolved when the file exists.
fn skill_file(path: &Path) -> PathBuf {
    let file = if path.is_dir() {
        let upper = path.join("SKILL.md");
        let lower = path.join("skill.md");
        if !upper.exists() && lower.exists() {
            lower
        } else {
            upper
        }
    } else {
        path.to_path_buf()
    };
    file.canonicalize().unwrap_or(file)
}

/// Status lines for /work/probe/AGREE-STATUS.md: when `SKILLDECK_AGREE_STATUS` names a file,
/// every comparison appends `test|agent|class|pass|diff` to it.
fn record_status(test: &str, agent: Agent, class: &str, diff: Option<&str>) {
    let Some(file) = std::env::var_os("SKILLDECK_AGREE_STATUS") else {
        return;
    };
    static LOCK: Mutex<()> = Mutex::new(());
    let _guard = LOCK
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let line = format!(
        "{test}|{}|{class}|{}|{}\n",
        agent.id(),
        if diff.is_some() { "no" } else { "yes" },
        diff.unwrap_or("").replace(['\n', '|'], " ")
    );
    let mut out = fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(file)
        .expect("status file");
    out.write_all(line.as_bytes()).expect("status line");
}

/// The current test function's name.
macro_rules! here {
    () => {{
        fn f() {}
        let name = std::any::type_name_of_val(&f);
        let name = name.strip_suffix("::f").unwrap_or(name);
        name.rsplit("::").next().unwrap_or(name)
    }};
}
pub(crate) use here;

/// A throw-away machine for one case.
pub struct Lab {
    _tmp: tempfile::TempDir,
    pub prefix: PathBuf,
    /// Holds everything below; nothing of the case is above it.
    pub root: PathBuf,
    pub home: PathBuf,
    /// A `git init` repository.
    pub project: PathBuf,
    /// `project/sub`.
    pub sub: PathBuf,
    /// A folder in no project.
    pub outside: PathBuf,
    vars: BTreeMap<String, Option<OsString>>,
}

/// The quiet variables every run gets (agents-as-oracles.md), and each agent's offline key.
const QUIET: &[(&str, &str)] = &[
    ("DISABLE_TELEMETRY", "1"),
    ("DISABLE_AUTOUPDATER", "1"),
    ("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1"),
    ("DO_NOT_TRACK", "1"),
    ("DISABLE_ERROR_REPORTING", "1"),
    ("NO_COLOR", "1"),
    ("CI", "1"),
    ("TERM", "dumb"),
    ("OPENCODE_DISABLE_AUTOUPDATE", "1"),
    ("OPENCODE_DISABLE_MODELS_FETCH", "1"),
    ("AMP_API_KEY", "x"),
    ("AMP_URL", "http://127.0.0.1:9"),
    ("ANTHROPIC_API_KEY", "dummy"),
    // Claude Code's plugin commands wait ~18 s on the real endpoint offline; a refused port
    // answers at once (`ask` points it at its sink instead).
    ("ANTHROPIC_BASE_URL", "http://127.0.0.1:9"),
    // Gemini CLI skips workspace skills in untrusted folders; cases about trust unset this.
    ("GEMINI_CLI_TRUST_WORKSPACE", "true"),
];

impl Lab {
    /// A fresh lab, or `None` when the agents are not installed (and this is not CI).
    pub fn new() -> Option<Self> {
        let prefix = installed()?;
        let tmp = tempfile::Builder::new()
            .prefix("agree-")
            .tempdir()
            .expect("temp dir");
        let root = tmp.path().canonicalize().expect("canonical temp dir");
        let home = root.join("home");
        let project = root.join("work/proj");
        let sub = project.join("sub");
        let outside = root.join("out");
        for dir in [&home, &sub, &outside] {
            fs::create_dir_all(dir).expect("lab dirs");
        }
        let init = Command::new("git")
            .args(["init", "-q"])
            .current_dir(&project)
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", &home)
            .status()
            .expect("git (needed for real repositories) runs");
        assert!(init.success(), "git init");
        let vars = QUIET
            .iter()
            .map(|(k, v)| ((*k).to_owned(), Some(OsString::from(v))))
            .collect();
        Some(Self {
            _tmp: tmp,
            prefix,
            root,
            home,
            project,
            sub,
            outside,
            vars,
        })
    }

    /// Set a variable for the agents and skilldeck alike.
    pub fn set(&mut self, name: &str, value: impl Into<OsString>) -> &mut Self {
        self.vars.insert(name.to_owned(), Some(value.into()));
        self
    }

    /// Leave a variable out (one of the quiet defaults).
    pub fn unset(&mut self, name: &str) -> &mut Self {
        self.vars.remove(name);
        self
    }

    fn command(&self, program: &Path, cwd: &Path) -> Command {
        let mut command = Command::new("timeout");
        command
            .arg("60")
            .arg(program)
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", &self.home)
            .current_dir(cwd)
            .stdin(Stdio::null());
        for (name, value) in &self.vars {
            if let Some(value) = value {
                command.env(name, value);
            }
        }
        command
    }

    /// Run an agent's own command (an installer, say), insisting that it succeeds.
    pub fn agent(&self, agent: Agent, cwd: &Path, args: &[&str]) -> Output {
        let output = self
            .command(&agent.program(&self.prefix), cwd)
            .args(args)
            .output()
            .expect("run agent");
        assert!(
            output.status.success(),
            "{} {args:?} failed ({}):\nstdout: {}\nstderr: {}",
            agent.id(),
            output.status,
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        output
    }

    /// Run the agents that write into the home at their first start once, so that what they
    /// write is there before skilldeck looks (Codex its `.system` skills, Copilot its package).
    pub fn warm(&self, agents: &[Agent]) {
        self.warm_in(agents, &self.outside);
    }

    /// [`Lab::warm`] started in `cwd`: where a variable names a home relative to the start
    /// folder, each start folder has a home of its own.
    pub fn warm_in(&self, agents: &[Agent], cwd: &Path) {
        for &agent in agents {
            if matches!(agent, Agent::Codex | Agent::Copilot) {
                let _ = self.ask(agent, cwd);
            }
        }
    }

    /// Write a skill: `dir/SKILL.md` naming `name` (no `name:` line when `None`), with a
    /// description.
    pub fn skill(&self, dir: &Path, name: Option<&str>) {
        let name_line = name.map(|n| format!("name: {n}\n")).unwrap_or_default();
        let shown = name.unwrap_or("unnamed");
        self.file(
            &dir.join("SKILL.md"),
            &format!("---\n{name_line}description: The {shown} skill, for the agreement suite.\n---\n# {shown}\n\nBody.\n"),
        );
    }

    /// The links every agent is asked about: a skill folder linked into `skills` from
    /// elsewhere, and a whole root `linked_root` that is a link to a folder of skills.
    #[cfg(unix)]
    pub fn links(&self, skills: &Path, linked_root: &Path) {
        let elsewhere = self.root.join("elsewhere");
        self.skill(&elsewhere.join("linked-target"), Some("u-linked"));
        crate::common::symlink(&elsewhere.join("linked-target"), &skills.join("u-linked"));
        self.named(&self.root.join("linked-root/via-root-link"));
        crate::common::symlink(&self.root.join("linked-root"), linked_root);
    }

    /// Write a skill named after its folder.
    pub fn named(&self, dir: &Path) {
        let name = dir
            .file_name()
            .expect("named")
            .to_string_lossy()
            .into_owned();
        self.skill(dir, Some(&name));
    }

    pub fn file(&self, path: &Path, content: &str) {
        fs::create_dir_all(path.parent().expect("parent")).expect("dirs");
        fs::write(path, content).expect("write");
    }

    /// What `agent` lists, started in `cwd`.
    pub fn ask(&self, agent: Agent, cwd: &Path) -> Vec<Loaded> {
        match agent {
            Agent::ClaudeCode => claude_code::ask(self, cwd),
            Agent::Codex => codex::ask(self, cwd),
            Agent::OpenCode => opencode::ask(self, cwd),
            Agent::GeminiCli => gemini_cli::ask(self, cwd),
            Agent::Copilot => copilot::ask(self, cwd),
            Agent::Amp => amp::ask(self, cwd),
        }
    }

    fn run(&self, agent: Agent, cwd: &Path, args: &[&str]) -> Output {
        // Into a file, not a pipe: OpenCode (a Bun program) exits before a full pipe drains and
        // loses the end of a long listing; a file takes it all at once.
        let out = tempfile::NamedTempFile::new_in(&self.root).expect("output file");
        let mut output = self
            .command(&agent.program(&self.prefix), cwd)
            .args(args)
            .stdout(out.reopen().expect("reopen output file"))
            .output()
            .expect("run agent");
        output.stdout = fs::read(out.path()).expect("read output file");
        output
    }

    /// `skilldeck list --json --all-agents` (or without the flag, while the binary does not
    /// take it) from `cwd`, with the lab's home and environment.
    pub fn skilldeck_json(&self, cwd: &Path) -> Value {
        self.skilldeck_json_in(cwd, &[])
    }

    /// As [`Lab::skilldeck_json`], run from `cwd` with `more` arguments (`--project DIR`).
    pub fn skilldeck_json_in(&self, cwd: &Path, more: &[&OsStr]) -> Value {
        let program = PathBuf::from(env!("CARGO_BIN_EXE_skilldeck"));
        let run = |args: &[&str]| {
            let mut command = self.command(&program, cwd);
            command.args(args).args(more);
            command.output().expect("run skilldeck")
        };
        let mut output = run(&["list", "--json", "--all-agents"]);
        if !output.status.success()
            && String::from_utf8_lossy(&output.stderr).contains("--all-agents")
        {
            output = run(&["list", "--json"]);
        }
        assert!(
            output.status.success(),
            "skilldeck list failed: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        serde_json::from_slice(&output.stdout).expect("list prints JSON")
    }

    /// What skilldeck claims each agent loads, from `cwd`.
    pub fn skilldeck(&self, cwd: &Path) -> BTreeMap<Agent, Vec<Loaded>> {
        claims(self, &self.skilldeck_json(cwd))
    }

    /// Ask each agent from each start folder and compare with skilldeck; panics with every
    /// disagreement of the case at once.
    pub fn check(&self, check: Check<'_>) {
        let mut failures = Vec::new();
        let mut seen: BTreeMap<Agent, usize> = BTreeMap::new();
        for &cwd in check.cwds {
            // Given as `--project`, the folder is named exactly as written, from elsewhere.
            let claimed = if check.project_given {
                let flag = [OsStr::new("--project"), cwd.as_os_str()];
                claims(self, &self.skilldeck_json_in(&self.outside, &flag))
            } else {
                self.skilldeck(cwd)
            };
            for &agent in check.agents {
                let listed = self.ask(agent, cwd);
                *seen.entry(agent).or_default() += listed.iter().filter(|l| !l.builtin).count();
                let said = claimed.get(&agent).cloned().unwrap_or_default();
                let place = self.place(cwd);
                if let Some(diff) = compare(&check, agent, &listed, &said) {
                    failures.push(format!("[{} from {place}] {diff}", agent.id()));
                }
            }
        }
        // Every case lays out skills each asked agent reads: an agent that lists none of them
        // from anywhere means the harness (or the agent's output format) broke, not agreement.
        for &agent in check.agents {
            assert!(
                seen.get(&agent).copied().unwrap_or(0) > 0,
                "case {}: {} listed no skill of the lab at all; is its listing still parsed right?",
                check.test,
                agent.id()
            );
        }
        for &agent in check.agents {
            let mine: Vec<&String> = failures
                .iter()
                .filter(|f| f.starts_with(&format!("[{} ", agent.id())))
                .collect();
            let one_line = (!mine.is_empty()).then(|| {
                mine.iter()
                    .map(|s| s.as_str())
                    .collect::<Vec<_>>()
                    .join("; ")
            });
            record_status(check.test, agent, check.class, one_line.as_deref());
        }
        assert!(
            failures.is_empty(),
            "case {} ({}): the agents and skilldeck disagree\n{}\n(lab: home {}, project {})",
            check.test,
            check.class,
            failures.join("\n"),
            self.home.display(),
            self.project.display()
        );
    }

    fn place(&self, cwd: &Path) -> &'static str {
        if cwd.canonicalize().is_ok_and(|real| real != cwd) {
            "a folder reached through a link"
        } else if cwd == self.project {
            "the project root"
        } else if cwd.starts_with(&self.project) {
            "a subfolder"
        } else if cwd == self.home {
            "HOME"
        } else {
            "outside any project"
        }
    }

    /// Shorten lab paths in messages.
    fn short(&self, text: &str) -> String {
        text.replace(&self.home.to_string_lossy().into_owned(), "~")
            .replace(&self.project.to_string_lossy().into_owned(), "<proj>")
            .replace(&self.root.to_string_lossy().into_owned(), "<lab>")
    }
}

/// One comparison: which agents, from where, and how strictly.
pub struct Check<'a> {
    pub test: &'a str,
    pub class: &'a str,
    pub agents: &'a [Agent],
    pub cwds: &'a [&'a Path],
    /// Compare built-ins too (by name).
    pub builtins: bool,
    /// Compare names only, where the agent itself picks a copy at random.
    pub names_only: bool,
    /// Run skilldeck from the folder outside any project with `--project CWD`, rather than in
    /// CWD (the agents are still started in CWD).
    pub project_given: bool,
}

impl<'a> Check<'a> {
    pub fn new(test: &'a str, class: &'a str, agents: &'a [Agent], cwds: &'a [&'a Path]) -> Self {
        Self {
            test,
            class,
            agents,
            cwds,
            builtins: false,
            names_only: false,
            project_given: false,
        }
    }

    pub fn project_given(mut self) -> Self {
        self.project_given = true;
        self
    }

    pub fn builtins(mut self) -> Self {
        self.builtins = true;
        self
    }

    pub fn names_only(mut self) -> Self {
        self.names_only = true;
        self
    }
}

/// The keys both sides are compared by: built-ins only when `builtins`, by name alone when
/// `by_name`, and a name skilldeck calls unsettled (the agent picks one copy at random) by name
/// alone on both sides, whatever `by_name` says.
pub(crate) fn comparison_keys(
    listed: &[Loaded],
    said: &[Loaded],
    builtins: bool,
    by_name: bool,
) -> (BTreeSet<String>, BTreeSet<String>) {
    let listed = settle_readings(listed, said);
    let unsettled: BTreeSet<&str> = said
        .iter()
        .filter(|row| row.unsettled)
        .map(|row| row.name.as_str())
        .collect();
    let keys = |rows: &[Loaded]| -> BTreeSet<String> {
        rows.iter()
            .filter(|row| builtins || !row.builtin)
            .map(|row| {
                if !row.builtin && unsettled.contains(row.name.as_str()) {
                    format!("{} (one copy, unsettled)", row.name)
                } else {
                    row.key(by_name)
                }
            })
            .collect()
    };
    (keys(&listed), keys(said))
}

/// Each ambiguous listed row read as the name skilldeck gives the same file, where that is one
/// of the row's readings; otherwise as its first reading. (A wrong name skilldeck gave that
/// happens to be another reading of the same row is the one thing this cannot catch.)
fn settle_readings(listed: &[Loaded], said: &[Loaded]) -> Vec<Loaded> {
    listed
        .iter()
        .map(|row| {
            let mut row = row.clone();
            let claimed = said
                .iter()
                .filter(|claim| claim.skill_md == row.skill_md)
                .find(|claim| row.other_names.contains(&claim.name));
            if let Some(claim) = claimed {
                row.name.clone_from(&claim.name);
            }
            row
        })
        .collect()
}

fn compare(check: &Check<'_>, agent: Agent, listed: &[Loaded], said: &[Loaded]) -> Option<String> {
    let (listed, said) = comparison_keys(listed, said, check.builtins, check.names_only);
    if listed == said {
        return None;
    }
    let only_agent: Vec<&String> = listed.difference(&said).collect();
    let only_skilldeck: Vec<&String> = said.difference(&listed).collect();
    let mut diff = String::new();
    if !only_agent.is_empty() {
        diff.push_str(&format!("only the agent lists: {only_agent:?}"));
    }
    if !only_skilldeck.is_empty() {
        if !diff.is_empty() {
            diff.push_str("; ");
        }
        diff.push_str(&format!("only skilldeck lists: {only_skilldeck:?}"));
    }
    let _ = agent;
    Some(diff)
}

/// skilldeck's claims, per agent, from its JSON: a skill is loaded by agent X when X is among
/// its `agents`, no `shadowing` entry names X (Codex keeps every copy, so shadowing is not
/// expected for it), no `left_out` entry says X drops it, and, where X's listing is the
/// model's view, no `left_out` entry (or older `hidden` one) says X keeps it from the model.
/// It is listed by `loaded_as[X]`, else `name`. A skill `unsettled_for` X is one of several
/// same-name copies X picks from at random: compared by name. Built-ins come from the
/// top-level `builtin` array, less those `overridden_by` a skill.
fn claims(lab: &Lab, json: &Value) -> BTreeMap<Agent, Vec<Loaded>> {
    let mut out: BTreeMap<Agent, Vec<Loaded>> = BTreeMap::new();
    let names_agent = |entry: &Value, agent: Agent| {
        entry["agent"].as_str() == Some(agent.id()) || entry.as_str() == Some(agent.id())
    };
    let any = |list: &Value, test: &dyn Fn(&Value) -> bool| {
        list.as_array().is_some_and(|items| items.iter().any(test))
    };
    for skill in json["skills"].as_array().into_iter().flatten() {
        let Some(dir) = skill["dir"].as_str() else {
            continue;
        };
        let file = skill_file(Path::new(dir));
        for agent in Agent::ALL {
            if !any(&skill["agents"], &|id| names_agent(id, agent)) {
                continue;
            }
            if any(&skill["shadowing"], &|e| names_agent(e, agent)) {
                continue;
            }
            // A skill its settings turn off is still in a full listing (Gemini CLI, Copilot),
            // not in the model's view (Codex, Claude Code), as one kept from the model.
            let dropped = any(&skill["left_out"], &|e| {
                names_agent(e, agent) && e["effect"].as_str() == Some("dropped")
            });
            if dropped {
                continue;
            }
            let from_model = any(&skill["left_out"], &|e| {
                names_agent(e, agent)
                    && matches!(e["effect"].as_str(), Some("from-model" | "disabled"))
            }) || any(&skill["hidden"], &|e| names_agent(e, agent));
            if from_model && agent.lists_what_the_model_sees() {
                continue;
            }
            let name = skill["loaded_as"][agent.id()]
                .as_str()
                .or_else(|| skill["name"].as_str())
                .unwrap_or_default()
                .to_owned();
            let switched_off = any(&skill["left_out"], &|e| {
                names_agent(e, agent) && e["effect"].as_str() == Some("disabled")
            });
            let name = if switched_off && agent.marks_disabled() {
                disabled(&name)
            } else {
                name
            };
            let builtin = agent.builtin_path(&file, lab);
            out.entry(agent).or_default().push(Loaded {
                name,
                skill_md: file.clone(),
                builtin,
                unsettled: any(&skill["unsettled_for"], &|e| names_agent(e, agent)),
                other_names: Vec::new(),
            });
        }
    }
    for entry in json["builtin"].as_array().into_iter().flatten() {
        let Some(agent) = Agent::ALL.into_iter().find(|a| names_agent(entry, *a)) else {
            continue;
        };
        if !entry["overridden_by"].is_null() {
            continue;
        }
        let from_model = entry["hidden"].as_bool().unwrap_or(false)
            || entry["left_out"]["effect"].as_str() == Some("from-model");
        if from_model && agent.lists_what_the_model_sees() {
            continue;
        }
        out.entry(agent).or_default().push(Loaded {
            name: entry["name"].as_str().unwrap_or_default().to_owned(),
            skill_md: entry["path"]
                .as_str()
                .map(|p| skill_file(Path::new(p)))
                .unwrap_or_default(),
            builtin: true,
            unsettled: false,
            other_names: Vec::new(),
        });
    }
    out
}

/// A loopback stand-in for a model endpoint: records request bodies and answers 400, bounded
/// in requests and lifetime, on 127.0.0.1 only; stopped when dropped.
pub struct Sink {
    pub port: u16,
    bodies: Arc<Mutex<Vec<String>>>,
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Sink {
    pub fn start() -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind loopback");
        listener.set_nonblocking(true).expect("nonblocking");
        let port = listener.local_addr().expect("addr").port();
        let bodies = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let (b, s) = (Arc::clone(&bodies), Arc::clone(&stop));
        let thread = std::thread::spawn(move || {
            let started = Instant::now();
            let mut served = 0;
            while !s.load(Ordering::Relaxed)
                && served < 200
                && started.elapsed() < Duration::from_secs(120)
            {
                match listener.accept() {
                    Ok((mut stream, _)) => {
                        served += 1;
                        let _ = stream.set_nonblocking(false);
                        let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
                        if let Some(body) = read_request(&mut stream) {
                            b.lock()
                                .unwrap_or_else(std::sync::PoisonError::into_inner)
                                .push(body);
                        }
                        let reply = r#"{"type":"error","error":{"type":"invalid_request_error","message":"sink"}}"#;
                        let _ = write!(
                            stream,
                            "HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{reply}",
                            reply.len()
                        );
                    }
                    Err(_) => std::thread::sleep(Duration::from_millis(5)),
                }
            }
        });
        Self {
            port,
            bodies,
            stop,
            thread: Some(thread),
        }
    }

    pub fn bodies(&self) -> Vec<String> {
        self.bodies
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
    }
}

impl Drop for Sink {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// One HTTP/1.1 request's body (by content-length; chunked bodies are de-chunked).
fn read_request(stream: &mut std::net::TcpStream) -> Option<String> {
    let mut data = Vec::new();
    let mut buf = [0u8; 65536];
    let header_end = loop {
        let n = stream.read(&mut buf).ok()?;
        if n == 0 {
            return None;
        }
        data.extend_from_slice(&buf[..n]);
        if let Some(at) = find(&data, b"\r\n\r\n") {
            break at + 4;
        }
    };
    let head = String::from_utf8_lossy(&data[..header_end]).to_ascii_lowercase();
    let length = head
        .lines()
        .find_map(|l| l.strip_prefix("content-length:"))
        .and_then(|v| v.trim().parse::<usize>().ok());
    let chunked = head.contains("transfer-encoding: chunked");
    loop {
        let body = &data[header_end..];
        let done = match length {
            Some(n) => body.len() >= n,
            None if chunked => find(body, b"0\r\n\r\n").is_some(),
            None => true,
        };
        if done {
            break;
        }
        let n = stream.read(&mut buf).ok()?;
        if n == 0 {
            break;
        }
        data.extend_from_slice(&buf[..n]);
    }
    let body = &data[header_end..];
    let body = if chunked {
        dechunk(body)
    } else {
        body.to_vec()
    };
    Some(String::from_utf8_lossy(&body).into_owned())
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

fn dechunk(mut body: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    while let Some(line_end) = find(body, b"\r\n") {
        let size = usize::from_str_radix(String::from_utf8_lossy(&body[..line_end]).trim(), 16)
            .unwrap_or(0);
        if size == 0 {
            break;
        }
        let start = line_end + 2;
        let end = (start + size).min(body.len());
        out.extend_from_slice(&body[start..end]);
        body = &body[(end + 2).min(body.len())..];
    }
    out
}

/// Every string inside a JSON value.
pub fn strings(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::String(s) => out.push(s.clone()),
        Value::Array(items) => items.iter().for_each(|v| strings(v, out)),
        Value::Object(map) => map.values().for_each(|v| strings(v, out)),
        _ => {}
    }
}

/// Layouts several cases share.
pub mod layout {
    use super::Lab;

    /// Folders below HOME where some agent reads skills, and a few none reads.
    pub const USER_ROOTS: &[&str] = &[
        ".claude/skills",
        ".claude/skill",
        ".agents/skills",
        ".agents/skill",
        ".config/agents/skills",
        ".config/claude/skills",
        ".codex/skills",
        ".opencode/skills",
        ".opencode/skill",
        ".config/opencode/skills",
        ".config/opencode/skill",
        ".gemini/skills",
        ".config/gemini/skills",
        ".copilot/skills",
        ".config/copilot/skills",
        ".github/skills",
        ".config/amp/skills",
    ];

    /// Folders in a project (and its subfolder, and above it) where some agent reads skills.
    pub const PROJECT_ROOTS: &[&str] = &[
        ".claude/skills",
        ".agents/skills",
        ".codex/skills",
        ".opencode/skills",
        ".opencode/skill",
        ".gemini/skills",
        ".github/skills",
        ".copilot/skills",
        ".github/copilot/skills",
        ".amp/skills",
        "skills",
    ];

    fn slug(root: &str) -> String {
        root.trim_start_matches('.').replace(['/', '.'], "-")
    }

    /// One skill in every root of every scope, named by scope and root: `u-…` in the home,
    /// `p-…` at the project root, `s-…` in its subfolder, `a-…` above the project (in no
    /// repository), `o-…` in the folder outside any project and `t-…` in the lab's top folder
    /// (a parent of both).
    pub fn every_root(lab: &Lab) {
        for root in USER_ROOTS {
            lab.named(&lab.home.join(root).join(format!("u-{}", slug(root))));
        }
        for root in PROJECT_ROOTS {
            let s = slug(root);
            lab.named(&lab.project.join(root).join(format!("p-{s}")));
            lab.named(&lab.sub.join(root).join(format!("s-{s}")));
            lab.named(
                &lab.project
                    .parent()
                    .unwrap()
                    .join(root)
                    .join(format!("a-{s}")),
            );
            lab.named(&lab.outside.join(root).join(format!("o-{s}")));
            lab.named(&lab.root.join(root).join(format!("t-{s}")));
        }
    }

    /// Skills nested below `root`: one per depth, 1 (`root/NAME`) to 8, plus a skill inside
    /// another skill's folder.
    pub fn nested(lab: &Lab, root: &std::path::Path, tag: &str) {
        let mut dir = root.to_path_buf();
        for depth in 1..=8 {
            let name = format!("{tag}-depth-{depth}");
            lab.named(&dir.join(&name));
            dir = dir.join(format!("g{depth}"));
        }
        lab.named(
            &root
                .join(format!("{tag}-outer"))
                .join(format!("{tag}-inner")),
        );
    }

    /// A `SKILL.md` straight in `root`, next to an ordinary skill.
    pub fn file_in_root(lab: &Lab, root: &std::path::Path, tag: &str) {
        lab.skill(root, Some(&format!("{tag}-in-root")));
        lab.named(&root.join(format!("{tag}-beside")));
    }

    /// A lower-case `skill.md`, a folder with both spellings, and a hidden folder.
    pub fn spellings(lab: &Lab, root: &std::path::Path, tag: &str) {
        let lower = root.join(format!("{tag}-lower"));
        lab.file(
            &lower.join("skill.md"),
            &format!("---\nname: {tag}-lower\ndescription: lower-case file\n---\nBody.\n"),
        );
        lab.named(&root.join(format!("{tag}-plain")));
        lab.named(&root.join(format!(".{tag}-hidden")));
        lab.named(&root.join(".group").join(format!("{tag}-in-hidden-group")));
    }

    /// Names: a frontmatter name unlike the folder, none at all, no frontmatter, no
    /// description, and names with characters some agents rewrite or refuse.
    pub fn names(lab: &Lab, root: &std::path::Path, tag: &str) {
        lab.skill(
            &root.join(format!("{tag}-folder")),
            Some(&format!("{tag}-frontmatter")),
        );
        lab.skill(&root.join(format!("{tag}-no-name")), None);
        lab.file(
            &root.join(format!("{tag}-no-frontmatter/SKILL.md")),
            "# Just a body\n\nNo frontmatter at all.\n",
        );
        lab.file(
            &root.join(format!("{tag}-no-description/SKILL.md")),
            &format!("---\nname: {tag}-no-description\n---\nFirst paragraph.\n"),
        );
        lab.skill(
            &root.join(format!("{tag}-colon")),
            Some(&format!("{tag}:colon")),
        );
        lab.skill(
            &root.join(format!("{tag}-upper")),
            Some(&format!("{tag}-Upper_Case")),
        );
    }
}
