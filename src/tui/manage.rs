//! The managing flows as the app holds them: the skills an action applies to (the marked ones,
//! else the one under the cursor), what is asked of a worker for all of them at once, the
//! pickers that ask which agent and which scope, the plan of a link, copy or move, and the
//! summary of what was done and what was refused. Plain data, display-safe: the workers fill
//! it in from the operations, `update` and the views only read it.

use std::path::{Path, PathBuf};

use crate::lock::LOCK_FILE;
use crate::operations::export::Exported;
use crate::operations::lock_upkeep::{self, Upkeep};
use crate::operations::remove::Removed;
use crate::operations::share::{Share, Shared};
use crate::operations::switch::{Switched, Turn};
use crate::roots::{AgentId, Scope};
use crate::snapshot::{COPY_BOUND, Taken};
use crate::text::human::count as counted;
use crate::text::{Unsafe, human};

/// A skill an action applies to: its name as shown and its folder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    pub name: String,
    pub dir: PathBuf,
    /// The folder as shown: two copies of a name are told apart by it.
    pub shown_dir: String,
}

/// How a skill is made visible elsewhere.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum How {
    /// A symbolic link to its folder.
    Link,
    /// An independent, recorded copy.
    Copy,
    /// The folder itself, gone from where it was.
    Move,
}

impl How {
    /// The verb, capitalised: `Link`.
    pub fn verb(self) -> &'static str {
        match self {
            How::Link => "Link",
            How::Copy => "Copy",
            How::Move => "Move",
        }
    }
}

/// Where a link, copy or move goes: to `agent`'s root (the skill's own agents when `None`) at
/// `scope`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Destination {
    pub how: How,
    pub agent: Option<AgentId>,
    pub scope: Scope,
    /// Whose shadowing is weighed: every agent's when the app shows all, else the installed.
    pub all_agents: bool,
}

impl Destination {
    /// `its own agents, project scope`, `codex, user scope`.
    pub fn describe(&self) -> String {
        let agent = self.agent.map_or_else(
            || "its own agents".to_owned(),
            |a| a.display_name().to_owned(),
        );
        format!("{agent}, {} scope", scope_name(self.scope))
    }
}

/// `user`, `project`.
pub fn scope_name(scope: Scope) -> &'static str {
    match scope {
        Scope::Plugin => "plugin",
        Scope::Organization => "organization",
        Scope::User => "user",
        Scope::Project => "project",
        Scope::Bundled => "built-in",
    }
}

/// What is done to every skill of a batch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Job {
    Remove,
    /// Turn the skills off (`off`) or on again for `agent`, in its own settings.
    Switch {
        agent: AgentId,
        off: bool,
        /// Which of the agent's settings files: the user's, or the project's.
        scope: Scope,
        /// A plugin's skill goes off only with its whole plugin, and the person was told so.
        whole_plugin: bool,
    },
    Snapshot,
    Accept,
    /// An archive per skill, named after it, in `folder` (as typed).
    Export {
        folder: String,
    },
    Share {
        to: Destination,
        /// Shadowing was shown and confirmed a second time.
        force: bool,
    },
}

impl Job {
    /// What the job does, as the progress says it: `Removing`, `Turning off for Codex`.
    pub fn doing(&self) -> String {
        match self {
            Job::Remove => "Removing".to_owned(),
            Job::Switch { agent, off, .. } => format!(
                "Turning {} for {}",
                if *off { "off" } else { "on" },
                agent.display_name()
            ),
            Job::Snapshot => "Snapshotting".to_owned(),
            Job::Accept => "Accepting".to_owned(),
            Job::Export { .. } => "Exporting".to_owned(),
            Job::Share { to, .. } => match to.how {
                How::Link => "Linking".to_owned(),
                How::Copy => "Copying".to_owned(),
                How::Move => "Moving".to_owned(),
            },
        }
    }
}

/// One job on several skills, asked once and reported once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Batch {
    pub id: u64,
    pub job: Job,
    pub skills: Vec<Target>,
}

/// A batch under way.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Running {
    pub id: u64,
    /// `Removing`, as [`Job::doing`] says it.
    pub doing: String,
    pub done: usize,
    pub total: usize,
    /// The skill being worked on.
    pub current: Option<String>,
    /// Stop was asked for: the batch ends after the skill under way.
    pub stopping: bool,
}

/// What a batch did, for the person to read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    pub title: String,
    /// One line per skill done, and what it says (a snapshot id, the command that undoes it).
    pub done: Vec<String>,
    /// One line per skill skilldeck refused to touch, and why; nothing of it was changed.
    pub refused: Vec<String>,
    /// One line per skill the operation failed on, and why.
    pub failed: Vec<String>,
    /// Skills not started because the batch was stopped.
    pub stopped: Vec<String>,
}

/// What the worker reports of a batch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BatchEvent {
    /// `done` skills are done; `current` is next.
    Progress {
        done: usize,
        current: String,
    },
    Done(Summary),
}

/// One skill's link, copy or move, planned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlanView {
    pub from: String,
    pub to: String,
    /// `Claude Code would run ~/x instead of ~/y`, one per agent whose copy changes.
    pub shadowing: Vec<String>,
}

/// A choice in a picker.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    pub label: String,
    /// Why it cannot be chosen, and what works instead; `None` when it can.
    pub refused: Option<String>,
    pub value: Value,
}

/// What a choice stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    /// An agent; `None` is the skill's own agents.
    Agent(Option<AgentId>),
    Scope(Scope),
}

/// What a picker's choice leads to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Then {
    /// The agent to turn the skills off or on for; the settings file is asked next.
    Switch { off: bool, skills: Vec<Target> },
    /// Which of `agent`'s settings: the user's or the project's.
    SwitchScope {
        agent: AgentId,
        off: bool,
        skills: Vec<Target>,
    },
    /// The agent a link, copy or move goes to; the scope is asked next.
    ShareAgent { how: How, skills: Vec<Target> },
    /// The scope; the plan is made next.
    ShareScope {
        how: How,
        agent: Option<AgentId>,
        skills: Vec<Target>,
    },
}

/// A small list to choose one from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pick {
    pub title: String,
    /// Lines above the choices.
    pub lines: Vec<String>,
    pub choices: Vec<Choice>,
    pub selected: usize,
    pub then: Then,
}

/// The view of every copy of one name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Copies {
    /// The name, lower case, as the copies are found by.
    pub key: String,
    /// The name as shown.
    pub name: String,
    pub selected: usize,
}

/// `alpha, beta and 3 more`: the names of `skills`, a few of them.
pub fn names(skills: &[Target]) -> String {
    const SHOWN: usize = 4;
    let names: Vec<&str> = skills.iter().map(|s| s.name.as_str()).collect();
    match names.len() {
        0 => String::new(),
        1 => names[0].to_owned(),
        n if n <= SHOWN => format!("{} and {}", names[..n - 1].join(", "), names[n - 1]),
        n => format!("{} and {} more", names[..SHOWN].join(", "), n - SHOWN),
    }
}

/// One line per skill, name and folder, the first few of them: what a question lists.
pub fn listed(skills: &[Target]) -> Vec<String> {
    const LISTED: usize = 6;
    let mut lines: Vec<String> = skills
        .iter()
        .take(LISTED)
        .map(|s| format!("{}  {}", s.name, s.shown_dir))
        .collect();
    if skills.len() > LISTED {
        lines.push(format!("and {} more", skills.len() - LISTED));
    }
    lines
}

/// `1 skill`, `3 skills`.
pub fn count(n: usize) -> String {
    crate::text::human::count(n, "skill")
}

/// A removal in one line, every field of its report said: what went, the snapshot that keeps
/// it, the folder left where it is, the canonical copy no link uses, the installers' files
/// that still list it, and the journal when it missed it.
pub fn removed_line(name: &str, removed: &Removed, home: &Path) -> String {
    let shown = |path: &Path| human::path(path, home, Unsafe::Dropped);
    let paths: Vec<String> = removed.removed.iter().map(|p| shown(p)).collect();
    let mut line = format!("{name}: removed {}", paths.join(", "));
    if let Some(kept) = &removed.kept {
        line.push_str(&format!("; kept as snapshot {kept}"));
    }
    line.push('.');
    if let Some(folder) = &removed.left_in_place {
        line.push_str(&format!(
            " The folder the links led to, {}, lies in no root and was left where it is.",
            shown(folder)
        ));
    }
    if let Some(canonical) = &removed.unused_canonical {
        line.push_str(&format!(
            " No link uses its canonical copy {} any more.",
            shown(canonical)
        ));
    }
    for lock in &removed.stale_locks {
        line.push_str(&format!(" {} still lists it.", shown(lock)));
    }
    line.push_str(&lock_note(&removed.lock));
    with_journal(line, removed.unjournalled.as_ref())
}

/// A switch in one line, every field of its report said: for which agent, which way, the
/// settings files written (or that it already was so), the notes, and the journal when it
/// missed it.
pub fn switched_line(name: &str, switched: &Switched, home: &Path) -> String {
    let agent = switched.agent.display_name();
    let word = match switched.turn {
        Turn::Off => "off",
        Turn::On => "on",
    };
    let mut line = if switched.edited.is_empty() {
        format!("{name}: already {word} for {agent}; nothing was changed.")
    } else {
        let files: Vec<String> = switched
            .edited
            .iter()
            .map(|p| human::path(p, home, Unsafe::Dropped))
            .collect();
        format!("{name}: turned {word} for {agent} in {}.", files.join(", "))
    };
    for note in &switched.notes {
        line.push(' ');
        line.push_str(note);
        if !note.ends_with('.') {
            line.push('.');
        }
    }
    with_journal(line, switched.unjournalled.as_ref())
}

/// A link, copy or move in one line, every field of its report said: from where to where
/// (what a link leads to), the agents that load skills from there, the copy each agent whose
/// choice it changed now runs, the baseline snapshot it could not keep, and the journal when
/// it missed it.
pub fn shared_line(name: &str, shared: &Shared, home: &Path) -> String {
    let shown = |path: &Path| human::path(path, home, Unsafe::Dropped);
    let plan = &shared.plan;
    let (from, to) = (shown(&plan.from), shown(&plan.to));
    let folder = format!(
        "{}'s {} folder",
        plan.agent.display_name(),
        scope_name(plan.scope)
    );
    // The folder named beside the path it is: a link is where it is made, pointing to the skill.
    let mut line = match plan.share {
        Share::Link => format!(
            "{name}: {to} ({folder}) is now a link to {}.",
            shown(&plan.real_from)
        ),
        Share::Copy => {
            format!("{name}: copied {from} to {to} ({folder}), with skilldeck's record.")
        }
        Share::Move => format!("{name}: moved {from} to {to} ({folder})."),
    };
    if !plan.loaders.readers.is_empty() {
        let readers: Vec<&str> = plan
            .loaders
            .readers
            .iter()
            .map(|a| a.display_name())
            .collect();
        line.push_str(&format!(
            " Agents that load skills from there: {}.",
            readers.join(", ")
        ));
    }
    for shadow in &plan.shadowing {
        let agent = shadow.agent.display_name();
        let (winner, loser) = (shown(&shadow.winner), shown(&shadow.loser));
        line.push_str(&if shadow.unsettled {
            format!(" {agent} picks either {winner} or {loser}, not always the same.")
        } else {
            format!(" {agent} runs {winner} instead of {loser}.")
        });
    }
    if let Some(missed) = &shared.missed_baseline {
        line.push_str(&format!(
            " Its baseline snapshot could not be kept ({missed}); undo will refuse to remove it until a snapshot is taken."
        ));
    }
    line.push_str(&lock_note(&shared.lock));
    with_journal(line, shared.unjournalled.as_ref())
}

/// What a snapshot taken holds less than the skill, in words (a leading space each), or
/// nothing: a skill over the copy bound keeps only its `SKILL.md`, and links are left out.
pub fn taken_notes(taken: &Taken) -> String {
    let info = &taken.snapshot.info;
    let mut notes = String::new();
    if info.truncated {
        notes.push_str(&format!(
            " Only its SKILL.md was kept: the skill is over {}.",
            human::size(COPY_BOUND)
        ));
    }
    if info.skipped_links > 0 {
        notes.push_str(&format!(
            " {} left out of it.",
            counted(info.skipped_links, "link")
        ));
    }
    notes
}

/// An export in a line and the lines under it, every field of its report said: where it
/// went, how many files and bytes, then each secret removed (the file and the rule), each
/// file packed under another name, each file left out and why, each packed unscanned.
pub fn exported_lines(name: &str, exported: &Exported, home: &Path) -> (String, Vec<String>) {
    let package = &exported.package;
    let secrets = match package.redacted.len() {
        0 => "no secrets found".to_owned(),
        n => format!("{} removed", counted(n, "secret")),
    };
    let head = format!(
        "Exported {name} ({}, {}) to {}; {secrets}.",
        counted(package.files, "file"),
        human::size(package.archive.len() as u64),
        human::path(&exported.path, home, Unsafe::Dropped)
    );
    let mut more = Vec::new();
    for (path, rule) in &package.redacted {
        more.push(format!("secret removed from {path}: {rule}"));
    }
    for (path, packed_as) in &package.renamed {
        more.push(format!(
            "{path} packed as {packed_as}, the secret cut out of its name"
        ));
    }
    for (path, why) in &package.left_out {
        more.push(format!("left out {path}: {why}"));
    }
    for (path, why) in &package.unscanned {
        more.push(format!("packed unscanned {path}: {why}"));
    }
    (head, more)
}

/// What an operation did to the project's `skills-lock.json`, as a sentence after a space;
/// nothing when it had no lock to keep, or kept it as it was.
pub fn lock_note(upkeep: &Upkeep) -> String {
    match upkeep {
        Ok(None) => String::new(),
        Ok(Some(kept)) => format!(" {}.", lock_upkeep::kept_in_words(kept, LOCK_FILE)),
        Err(error) => format!(
            " The project's {LOCK_FILE} was not kept current ({}); `skilldeck lock` writes it again.",
            crate::text::sanitize::line(&error.to_string())
        ),
    }
}

/// `text`, and that the journal missed it when it did.
pub fn with_journal(
    text: String,
    unjournalled: Option<&crate::operations::JournalError>,
) -> String {
    match unjournalled {
        Some(error) => format!("{text} But {error}, so undo will not know of it."),
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn target(name: &str) -> Target {
        Target {
            name: name.to_owned(),
            dir: PathBuf::from(name),
            shown_dir: format!("~/{name}"),
        }
    }

    #[test]
    fn names_are_listed_then_counted() {
        let all: Vec<Target> = ["a", "b", "c", "d", "e", "f"].map(target).to_vec();
        assert_eq!(names(&all[..1]), "a");
        assert_eq!(names(&all[..2]), "a and b");
        assert_eq!(names(&all[..4]), "a, b, c and d");
        assert_eq!(names(&all), "a, b, c, d and 2 more");
        assert_eq!(listed(&all[..2]), ["a  ~/a", "b  ~/b"]);
        assert_eq!(listed(&all).last().unwrap(), "f  ~/f");
        let mut seven = all.clone();
        seven.push(target("g"));
        assert_eq!(listed(&seven).last().unwrap(), "and 1 more");
        assert_eq!(count(1), "1 skill");
        assert_eq!(count(2), "2 skills");
    }
}
