//! The machine model: plain data (files with their content, links, a start folder) that is
//! written into a [`Lab`], printed as a case anyone can rebuild, and read back from that print.
//!
//! Paths are relative to one of the lab's places, spelled as in the printed case: `~/` the
//! home, `<proj>/` the project (a git repository), `<lab>/` the lab's top folder (above the
//! project: `<lab>/work` holds it, `<lab>/out` is in no project). Contents may name those
//! places too (a Codex `path` selector, say): `{HOME}`, `{PROJ}` and `{LAB}` are replaced by
//! the absolute folders when the file is written.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use super::super::Lab;

/// The folder a path is relative to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Base {
    Home,
    Proj,
    Lab,
}

impl Base {
    fn prefix(self) -> &'static str {
        match self {
            Base::Home => "~/",
            Base::Proj => "<proj>/",
            Base::Lab => "<lab>/",
        }
    }

    fn dir(self, lab: &Lab) -> &Path {
        match self {
            Base::Home => &lab.home,
            Base::Proj => &lab.project,
            Base::Lab => &lab.root,
        }
    }
}

/// A place in the lab: a base and a relative path (`""` for the base itself).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Place {
    pub base: Base,
    pub rel: String,
}

impl Place {
    pub fn new(base: Base, rel: impl Into<String>) -> Self {
        Self {
            base,
            rel: rel.into(),
        }
    }

    pub fn join(&self, more: &str) -> Self {
        let rel = if self.rel.is_empty() {
            more.to_owned()
        } else {
            format!("{}/{more}", self.rel)
        };
        Self::new(self.base, rel)
    }

    pub fn path(&self, lab: &Lab) -> PathBuf {
        let dir = self.base.dir(lab);
        if self.rel.is_empty() {
            dir.to_path_buf()
        } else {
            dir.join(&self.rel)
        }
    }

    fn parse(text: &str) -> Option<Self> {
        [Base::Home, Base::Proj, Base::Lab]
            .into_iter()
            .find_map(|base| {
                let rest = text
                    .strip_prefix(base.prefix())
                    .or_else(|| (text == base.prefix().trim_end_matches('/')).then_some(""))?;
                Some(Self::new(base, rest))
            })
    }
}

impl std::fmt::Display for Place {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.rel.is_empty() {
            f.write_str(self.base.prefix().trim_end_matches('/'))
        } else {
            write!(f, "{}{}", self.base.prefix(), self.rel)
        }
    }
}

/// One generated item; removing any one still leaves a machine that can be written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Item {
    File {
        at: Place,
        content: String,
    },
    /// A symbolic link at `at` pointing to `to` (which may not exist: a dangling link).
    Link {
        at: Place,
        to: Place,
    },
    /// A variable set (`Some`, `{HOME}`, `{PROJ}`, `{LAB}` replaced) or left out (`None`: one
    /// of the lab's quiet defaults, such as `GEMINI_CLI_TRUST_WORKSPACE`) for the agents and
    /// skilldeck alike.
    Env {
        name: String,
        value: Option<String>,
    },
}

/// The start folders a machine is asked from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cwd {
    Project,
    Sub,
    Outside,
    Home,
    /// Two folders below the project, `<proj>/sub/deeper`.
    Deeper,
    /// The project reached through a symbolic link, `<lab>/projlink` (the agents see the real
    /// folder; skilldeck is asked there and given the link as `--project`).
    Linked,
    /// A git repository of its own inside the project, `<proj>/sub/inner`, where the
    /// project walks that stop at a repository stop.
    Nested,
}

impl Cwd {
    pub const ALL: [Cwd; 7] = [
        Cwd::Project,
        Cwd::Sub,
        Cwd::Outside,
        Cwd::Home,
        Cwd::Deeper,
        Cwd::Linked,
        Cwd::Nested,
    ];

    pub fn place(self) -> Place {
        match self {
            Cwd::Project => Place::new(Base::Proj, ""),
            Cwd::Sub => Place::new(Base::Proj, "sub"),
            Cwd::Outside => Place::new(Base::Lab, "out"),
            Cwd::Home => Place::new(Base::Home, ""),
            Cwd::Deeper => Place::new(Base::Proj, "sub/deeper"),
            Cwd::Linked => Place::new(Base::Lab, "projlink"),
            Cwd::Nested => Place::new(Base::Proj, "sub/inner"),
        }
    }

    /// Make the start folder where the lab does not already have it.
    fn make(self, lab: &Lab) {
        let path = self.place().path(lab);
        match self {
            Cwd::Project | Cwd::Sub | Cwd::Outside | Cwd::Home => {}
            Cwd::Deeper => std::fs::create_dir_all(&path).expect("the deeper start folder"),
            Cwd::Linked => crate::common::symlink(&lab.project, &path),
            Cwd::Nested => {
                std::fs::create_dir_all(&path).expect("the nested repository");
                let init = std::process::Command::new("git")
                    .args(["init", "-q"])
                    .current_dir(&path)
                    .env_clear()
                    .env("PATH", std::env::var_os("PATH").unwrap_or_default())
                    .env("HOME", &lab.home)
                    .status()
                    .expect("git runs");
                assert!(init.success(), "git init of the nested repository");
            }
        }
    }
}

/// A machine: what is on disk and where the agents start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Machine {
    pub cwd: Cwd,
    pub items: Vec<Item>,
}

impl Machine {
    /// Write every item into `lab` (links after files, so a link's target is there), make
    /// its start folder and set its variables.
    pub fn write(&self, lab: &mut Lab) {
        self.cwd.make(lab);
        let expand = |text: &str| {
            text.replace("{HOME}", &lab.home.to_string_lossy())
                .replace("{PROJ}", &lab.project.to_string_lossy())
                .replace("{LAB}", &lab.root.to_string_lossy())
        };
        for item in &self.items {
            if let Item::File { at, content } = item {
                let path = at.path(lab);
                std::fs::create_dir_all(path.parent().expect("parent")).expect("dirs");
                // A generated link may already stand where a file goes (a SKILL.md that is a
                // link): the link wins, the file is skipped.
                if path.symlink_metadata().is_err() {
                    std::fs::write(&path, expand(content)).expect("write");
                }
            }
        }
        for item in &self.items {
            if let Item::Link { at, to } = item {
                let path = at.path(lab);
                std::fs::create_dir_all(path.parent().expect("parent")).expect("dirs");
                if path.symlink_metadata().is_err() {
                    crate::common::symlink(&to.path(lab), &path);
                }
            }
        }
        let vars: Vec<(&str, Option<String>)> = self
            .items
            .iter()
            .filter_map(|item| match item {
                Item::Env { name, value } => Some((name.as_str(), value.as_deref().map(expand))),
                _ => None,
            })
            .collect();
        for (name, value) in vars {
            match value {
                Some(value) => lab.set(name, value),
                None => lab.unset(name),
            };
        }
    }

    /// The printed form: `cwd PLACE`, then `file PLACE` followed by its content, one `| `
    /// line each (`\\`, `\t`, `\r` and a byte-order mark escaped; `\ no newline at end` when
    /// the content does not end with one), `link PLACE -> PLACE`, `env NAME=VALUE` and
    /// `unset NAME`.
    pub fn print(&self) -> String {
        let mut out = format!("cwd {}\n", self.cwd.place());
        for item in &self.items {
            match item {
                Item::File { at, content } => {
                    let _ = writeln!(out, "file {at}");
                    let escaped = content
                        .replace('\\', "\\\\")
                        .replace('\t', "\\t")
                        .replace('\r', "\\r")
                        .replace('\u{feff}', "\\u{feff}");
                    let body = escaped.strip_suffix('\n');
                    for line in body.unwrap_or(&escaped).split('\n') {
                        let _ = writeln!(out, "| {line}");
                    }
                    if body.is_none() {
                        out.push_str("\\ no newline at end\n");
                    }
                }
                Item::Link { at, to } => {
                    let _ = writeln!(out, "link {at} -> {to}");
                }
                Item::Env {
                    name,
                    value: Some(value),
                } => {
                    let _ = writeln!(out, "env {name}={value}");
                }
                Item::Env { name, value: None } => {
                    let _ = writeln!(out, "unset {name}");
                }
            }
        }
        out
    }

    /// Read a printed machine back (panicking on a line it cannot read); lines starting with
    /// `#` are comments.
    pub fn parse(text: &str) -> Self {
        let mut cwd = None;
        let mut items: Vec<Item> = Vec::new();
        let mut lines: Vec<String> = Vec::new();
        let mut open: Option<(Place, bool)> = None;
        let unescape = |line: &str| {
            let mut out = String::new();
            let mut rest = line;
            while let Some(at) = rest.find('\\') {
                out.push_str(&rest[..at]);
                let tail = &rest[at + 1..];
                let (text, skip) = if tail.starts_with("u{feff}") {
                    ("\u{feff}", 7)
                } else if tail.starts_with('t') {
                    ("\t", 1)
                } else if tail.starts_with('r') {
                    ("\r", 1)
                } else {
                    ("\\", 1)
                };
                out.push_str(text);
                rest = &tail[skip.min(tail.len())..];
            }
            out.push_str(rest);
            out
        };
        let close =
            |open: &mut Option<(Place, bool)>, lines: &mut Vec<String>, items: &mut Vec<Item>| {
                if let Some((at, newline)) = open.take() {
                    let mut content = lines.join("\n");
                    if newline {
                        content.push('\n');
                    }
                    items.push(Item::File { at, content });
                    lines.clear();
                }
            };
        for line in text.lines() {
            if let Some(body) = line.strip_prefix("| ").or((line == "|").then_some("")) {
                lines.push(unescape(body));
                continue;
            }
            if line == "\\ no newline at end" {
                if let Some((_, newline)) = open.as_mut() {
                    *newline = false;
                }
                continue;
            }
            close(&mut open, &mut lines, &mut items);
            if line.starts_with('#') || line.trim().is_empty() {
                continue;
            }
            fn unreadable<T>(line: &str) -> T {
                panic!("cannot read the case line {line:?}")
            }
            if let Some(rest) = line.strip_prefix("cwd ") {
                let place = Place::parse(rest).unwrap_or_else(|| unreadable(line));
                cwd = Some(
                    Cwd::ALL
                        .into_iter()
                        .find(|c| c.place() == place)
                        .unwrap_or_else(|| unreadable(line)),
                );
            } else if let Some(rest) = line.strip_prefix("file ") {
                open = Some((Place::parse(rest).unwrap_or_else(|| unreadable(line)), true));
            } else if let Some(rest) = line.strip_prefix("link ") {
                let (at, to) = rest.split_once(" -> ").unwrap_or_else(|| unreadable(line));
                items.push(Item::Link {
                    at: Place::parse(at).unwrap_or_else(|| unreadable(line)),
                    to: Place::parse(to).unwrap_or_else(|| unreadable(line)),
                });
            } else if let Some(rest) = line.strip_prefix("env ") {
                let (name, value) = rest.split_once('=').unwrap_or_else(|| unreadable(line));
                items.push(Item::Env {
                    name: name.to_owned(),
                    value: Some(value.to_owned()),
                });
            } else if let Some(name) = line.strip_prefix("unset ") {
                items.push(Item::Env {
                    name: name.trim().to_owned(),
                    value: None,
                });
            } else {
                unreadable::<()>(line);
            }
        }
        close(&mut open, &mut lines, &mut items);
        Self {
            cwd: cwd.expect("a case names its start folder on a `cwd` line"),
            items,
        }
    }
}
