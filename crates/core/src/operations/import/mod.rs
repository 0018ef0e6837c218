//! Import: read a bundle whole, say where its skills can go and what installing them there
//! would do, and install them with skilldeck's record, keeping a snapshot of whatever they
//! replace and a baseline of what they put in place. The command line calls these in one go;
//! the app reads first, shows the preview, and installs the bundle it read (never a second
//! reading of a file that may have changed since).

use std::path::{Path, PathBuf};

use crate::bundle::{self, Bundle, BundledSkill, Refusal};
use crate::install::{self, Action, Conflict, InstallError, Installed, Step, Watch};
use crate::record::upstream::{self, Upstream};
use crate::roots::{AgentId, Machine, Project, RootSet, Scope};
use crate::snapshot::losses::{WouldLose, nothing_lost};
use crate::snapshot::{Reason, SnapshotError, Store};
use crate::source::git::{self, FetchError, ReadError, Spec};

use super::journal::{Entry, JournalError, Operation};
use super::judged::Judged;
use super::keeping::Keeping;
use super::lock_upkeep::{self, Upkeep};
use super::progress::{self, Progress};
use super::shadow::{NewCopy, WouldShadow, would_shadow};
use super::upstream_record;
use crate::scan::{self, Inventory, own_name_for};

mod case;
pub mod risk;
pub use case::{ImportError, Loaders, Planned, Preview, Report, Request, preview, run};

/// Read the bundle at `source` (a folder or an archive) whole, judging every member.
///
/// # Errors
/// The [`Refusal`] that says why it cannot be imported as it is; nothing was written.
pub fn read(source: &Path) -> Result<Bundle, Refusal> {
    bundle::read(source)
}

/// A bundle read from a git repository, and where it came from.
#[derive(Debug)]
pub struct FromGit {
    pub bundle: Bundle,
    /// The repository, ref and commit, with the path of the folder read (each skill's own
    /// path is this one's joined with its origin: [`FromGit::upstream_of`]).
    pub upstream: Upstream,
}

impl FromGit {
    /// Where `skill` (one of the bundle's) sits upstream.
    pub fn upstream_of(&self, skill: &BundledSkill) -> Upstream {
        let path = match (self.upstream.path.as_str(), skill.origin.as_str()) {
            ("", origin) => origin.to_owned(),
            (base, "") => base.to_owned(),
            (base, origin) => format!("{base}/{origin}"),
        };
        Upstream {
            path,
            ..self.upstream.clone()
        }
    }
}

/// What reading a source gave: a bundle read from disk, or one fetched with where it came from.
pub enum Read {
    Local(Bundle),
    Git(FromGit),
}

impl Read {
    pub fn bundle(&self) -> &Bundle {
        match self {
            Read::Local(bundle) => bundle,
            Read::Git(from) => &from.bundle,
        }
    }

    /// Where the bundle was fetched from, when it came from a repository.
    pub fn from_git(&self) -> Option<&FromGit> {
        match self {
            Read::Local(_) => None,
            Read::Git(from) => Some(from),
        }
    }
}

/// Why a git repository could not be imported from.
#[derive(Debug, thiserror::Error)]
pub enum GitImportError {
    #[error(transparent)]
    Fetch(#[from] FetchError),
    #[error("--path {path}: {why}")]
    Path { path: String, why: String },
    #[error(transparent)]
    Refused(#[from] Refusal),
}

impl GitImportError {
    /// The code `--json` gives the refusal.
    pub fn code(&self) -> &'static str {
        match self {
            GitImportError::Fetch(FetchError::NoGit) => "git_missing",
            GitImportError::Fetch(_) => "fetch_failed",
            GitImportError::Path { .. } => "no_such_path",
            GitImportError::Refused(refusal) => refusal.code(),
        }
    }
}

/// Fetch the repository `spec` names (shallow, into a temporary folder removed before this
/// returns, on error too) and read the bundle at its `--path` from git's objects, the listing
/// judged against the import bounds before any file is read, then every member as any
/// bundle's; no file of the repository is written anywhere.
///
/// # Errors
/// [`GitImportError`]: the fetch failed (git's own message), the path is not a folder of the
/// repository, or the bundle's [`Refusal`].
pub fn read_git(spec: &Spec, progress: &mut dyn Progress) -> Result<FromGit, GitImportError> {
    let sub = spec.path.as_deref().unwrap_or_default();
    let path_error = |why: &str| GitImportError::Path {
        path: sub.to_owned(),
        why: why.to_owned(),
    };
    let parts: Vec<&str> = sub
        .split('/')
        .filter(|p| !p.is_empty() && *p != ".")
        .collect();
    if sub.starts_with('/') || sub.contains('\\') || parts.contains(&"..") {
        return Err(path_error(
            "must be a folder inside the repository, written with /",
        ));
    }
    let fetched = git::fetch(spec, &mut |said: &str| {
        progress.step(progress::Step::Said(said))
    })?;
    let bundle = fetched
        .read(&parts, &bundle::limits())
        .map_err(|error| match error {
            ReadError::Git(error) => GitImportError::Fetch(error),
            ReadError::Refused(refusal) => GitImportError::Refused(refusal),
            no_such @ ReadError::NoSuchFolder(_) => path_error(&no_such.to_string()),
        })?;
    Ok(FromGit {
        bundle,
        upstream: Upstream {
            repository: spec.repository.clone(),
            reference: spec.reference.clone(),
            commit: fetched.commit.clone(),
            path: parts.join("/"),
        },
    })
}

/// A skills folder an import can install into.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Destination {
    pub agent: AgentId,
    pub scope: Scope,
    pub root: PathBuf,
    /// Every agent that loads skills from `root`, in table order: who will see what is
    /// installed there (about two dozen agents read `~/.agents/skills`).
    pub readers: Vec<AgentId>,
    /// The agents that would read `root` in a project they trust and do not trust this one
    /// (see [`Readers::distrusting`]): what goes there will not reach them.
    pub distrusting: Vec<Distrusting>,
}

/// Every agent's skills folder at each scope it has one, on `machine`; a project folder that
/// leads out of the project is left out (see [`destination`]).
pub fn destinations(machine: &Machine) -> Vec<Destination> {
    let readers = Readers::new(machine);
    AgentId::all()
        .flat_map(|agent| [Scope::User, Scope::Project].map(|scope| (agent, scope)))
        .filter_map(|(agent, scope)| {
            destination(machine, agent, scope)
                .ok()
                .map(|root| Destination {
                    agent,
                    scope,
                    readers: readers.of_root(&root),
                    distrusting: readers.distrusting(&root),
                    root,
                })
        })
        .collect()
}

/// The agents installed on `machine` (one of their config folders exists), in table order.
pub fn installed_agents(machine: &Machine) -> Vec<AgentId> {
    let project = Project::locate(&machine.project);
    AgentId::all()
        .filter(|agent| agent.agent().is_installed(&machine.env, &project))
        .collect()
}

/// Which agents read each root of a machine, by the folder the root resolves to: a destination
/// is judged as its links resolve, so it is matched the same way.
pub struct Readers {
    roots: Vec<(PathBuf, Vec<AgentId>, Vec<Distrusting>)>,
}

/// An agent that reads a folder only where it trusts the project, and does not trust this one
/// (Gemini CLI's workspace folders in an untrusted folder): it will not load what goes there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Distrusting {
    pub agent: AgentId,
    /// Why, and how to trust the folder: the agent's own rule's sentence.
    pub why: &'static str,
}

impl Readers {
    pub fn new(machine: &Machine) -> Self {
        let set = RootSet::resolve(&machine.env, &machine.project);
        let roots = set
            .roots
            .iter()
            .map(|root| {
                let path = resolved(&root.path).unwrap_or_else(|| root.path.clone());
                let distrusting = root
                    .uses
                    .iter()
                    .filter(|u| u.rule.layout.loaded())
                    .filter_map(|u| {
                        u.distrusted.map(|trust| Distrusting {
                            agent: u.rule.agent,
                            why: trust.why,
                        })
                    })
                    .collect();
                (path, root.agents(), distrusting)
            })
            .collect();
        Self { roots }
    }

    /// The agents that would read the folder `root` in a project they trust and do not trust
    /// this one, each once, in table order; none of them is among [`Readers::of_root`]'s.
    pub fn distrusting(&self, root: &Path) -> Vec<Distrusting> {
        let readers = self.of_root(root);
        let mut found: Vec<Distrusting> = self
            .roots
            .iter()
            .filter(|(path, ..)| path == root)
            .flat_map(|(_, _, distrusting)| distrusting.iter().cloned())
            .filter(|d| !readers.contains(&d.agent))
            .collect();
        found.sort_by_key(|d| d.agent);
        found.dedup_by_key(|d| d.agent);
        found
    }

    /// Every agent that loads skills from the folder `root` (as [`destination`] gives it), in
    /// table order; none for a folder no agent reads (`--to` anywhere else).
    pub fn of_root(&self, root: &Path) -> Vec<AgentId> {
        let mut agents: Vec<AgentId> = self
            .roots
            .iter()
            .filter(|(path, ..)| path == root)
            .flat_map(|(_, agents, _)| agents.iter().copied())
            .collect();
        agents.sort();
        agents.dedup();
        agents
    }
}

/// Why an agent's skills folder cannot be installed into.
#[derive(Debug, thiserror::Error)]
pub enum NoDestination {
    #[error("{agent} has no skills folder for that scope")]
    None { agent: AgentId },
    #[error(
        "{agent}'s project skills folder {} leads out of the project, to {}; the project's own files decide where such a link points, so skilldeck does not install there (give --to with the folder you mean)",
        .root.display(),
        .resolved.display()
    )]
    OutsideProject {
        agent: AgentId,
        root: PathBuf,
        resolved: PathBuf,
    },
}

/// The skills folder of `agent` at `scope`, with every link on the way resolved: what is
/// judged, previewed and written is the folder the files will really land in. A project
/// folder must resolve inside the project, since the project's files (a link committed to a
/// cloned repository) decide where it leads.
///
/// # Errors
/// [`NoDestination`] when the agent has none there, or a project folder leads out of the
/// project.
pub fn destination(
    machine: &Machine,
    agent: AgentId,
    scope: Scope,
) -> Result<PathBuf, NoDestination> {
    let root = machine
        .install_root(agent, scope)
        .ok_or(NoDestination::None { agent })?;
    let resolved = resolved(&root);
    if scope == Scope::Project {
        let project = Project::locate(&machine.project);
        let top = crate::fs::canonical(project.top()).unwrap_or_else(|_| project.top().into());
        match resolved {
            Some(inside) if inside.starts_with(&top) => return Ok(inside),
            outside => {
                let resolved = outside
                    .or_else(|| dangling_target(&root))
                    .unwrap_or_else(|| root.clone());
                return Err(NoDestination::OutsideProject {
                    agent,
                    root,
                    resolved,
                });
            }
        }
    }
    // A user folder may lead anywhere its user linked it; a dangling one is judged by the
    // install, which refuses what is not a folder.
    Ok(resolved.unwrap_or(root))
}

/// `path` with the links of its nearest existing ancestor resolved, and the rest as it is;
/// `None` when that ancestor is a link that leads nowhere.
fn dangling_target(path: &Path) -> Option<PathBuf> {
    path.ancestors()
        .find_map(|p| std::fs::read_link(p).ok().map(|to| p.with_file_name(to)))
}

fn resolved(path: &Path) -> Option<PathBuf> {
    let Some(existing) = path.ancestors().find(|p| p.symlink_metadata().is_ok()) else {
        return Some(path.to_path_buf());
    };
    let real = crate::fs::canonical(existing).ok()?;
    match path.strip_prefix(existing) {
        Ok(rest) if !rest.as_os_str().is_empty() => Some(real.join(rest)),
        _ => Some(real),
    }
}

/// What installing `chosen` into `root` would do, reading only. A skill it would update or
/// replace must hold nothing a snapshot would not keep (a `.git` folder, a link out, a FIFO):
/// such a folder is never replaced, forced or not.
///
/// # Errors
/// The first skill the root holds in a form this import may not replace.
pub fn plan<'b>(
    root: &Path,
    chosen: &[&'b BundledSkill],
    force: bool,
) -> Result<Vec<Step<'b>>, Conflict> {
    // What may never be replaced is refused first, so no refusal offers --force in vain.
    if let Some(conflict) = first_loss(root, chosen, |_| true)? {
        return Err(conflict);
    }
    install::plan(root, chosen, force)
}

/// The first folder of `root` that installing `chosen` would update or replace (forced or
/// not) and that holds what no snapshot keeps, as the conflict that refuses it; only the
/// losses `counts` accepts count.
///
/// # Errors
/// The conflict a forced install itself would meet (a file in the way, a dangling link).
fn first_loss(
    root: &Path,
    chosen: &[&BundledSkill],
    counts: impl Fn(&WouldLose) -> bool,
) -> Result<Option<Conflict>, Conflict> {
    for step in install::plan(root, chosen, true)? {
        if matches!(step.action, Action::Install | Action::Unchanged) {
            continue;
        }
        if let Err(loss) = nothing_lost(REPLACING, &step.dir)
            && counts(&loss)
        {
            return Ok(Some(unreplaceable(&step.dir, &loss)));
        }
    }
    Ok(None)
}

/// Each skill of `chosen` that `root` holds in a form only `--force` (or nothing) may
/// replace, with why: what the app asks about before it installs.
///
/// # Errors
/// A root that cannot hold any skill (a file where it, or a folder on the way to it, should
/// be): said once, of that path, rather than once for each skill as if each were there.
pub fn conflicts<'b>(
    root: &Path,
    chosen: &[&'b BundledSkill],
) -> Result<Vec<(&'b BundledSkill, Conflict)>, Conflict> {
    install::a_folder_on_the_way(root)?;
    Ok(chosen
        .iter()
        .filter_map(|skill| {
            plan(root, &[*skill], false)
                .err()
                .map(|conflict| (*skill, conflict))
        })
        .collect())
}

/// The verb of the sentence that refuses a replacement that would lose files.
const REPLACING: &str = "replacing";

/// A folder that cannot be replaced because a snapshot would not keep all it holds.
fn unreplaceable(dir: &Path, loss: &WouldLose) -> Conflict {
    let why = match loss {
        WouldLose::LeftOut { left_out, .. } => format!(
            "holds what no snapshot of it keeps ({}), so it is never replaced; move those out of the folder first",
            left_out
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
        WouldLose::TooLarge { .. } | WouldLose::Unreadable(_) => {
            format!("cannot be kept whole by a snapshot ({loss}), so it is never replaced")
        }
    };
    Conflict {
        dir: dir.to_path_buf(),
        why,
        forcible: false,
        edited: false,
    }
}

/// For each skill of `chosen` to be installed into `loaders.root`, each agent judged that
/// reads it and would then run it instead of another copy of its name, or go on running the
/// other copy instead of it. The copy it updates or replaces, at the same place, is no rival.
pub fn shadowing<'b>(
    machine: &Machine,
    chosen: &[&'b BundledSkill],
    loaders: &Loaders,
) -> Vec<(&'b BundledSkill, WouldShadow)> {
    let inventory = scan::scan(&machine.env, &machine.project, &|_| {});
    let roots = RootSet::resolve(&machine.env, &machine.project);
    shadowing_in(
        &roots,
        &inventory,
        &loaders.root,
        chosen,
        &loaders.readers,
        loaders.judged(),
    )
}

/// [`shadowing`] against the machine's roots and an inventory already taken, for weighing
/// many destinations at once: the shadowing of each of `readers` that `judged` keeps.
pub fn shadowing_in<'b>(
    roots: &RootSet,
    inventory: &Inventory,
    root: &Path,
    chosen: &[&'b BundledSkill],
    readers: &[AgentId],
    judged: Judged<'_>,
) -> Vec<(&'b BundledSkill, WouldShadow)> {
    let mut found = Vec::new();
    for skill in chosen {
        let to = root.join(&skill.name);
        let declared = &skill.declared;
        let copy = NewCopy {
            root,
            to: &to,
            name_for: &|agent| own_name_for(agent, &skill.name, declared).into_owned(),
            rival: &|other| other.dir != to && other.real_dir != to,
        };
        found.extend(
            would_shadow(roots, inventory, &copy, readers, judged)
                .into_iter()
                .map(|shadow| (*skill, shadow)),
        );
    }
    found
}

/// What a shadowing means, in one sentence both front ends say, with paths as `shown` gives
/// them: what the agent `would` do, before the install, or will do.
pub fn shadow_sentence(
    shadow: &WouldShadow,
    would: bool,
    shown: &dyn Fn(&Path) -> String,
) -> String {
    format!(
        "{} {} run {} instead of {}{}",
        shadow.agent.display_name(),
        if would { "would" } else { "will" },
        shown(&shadow.winner),
        shown(&shadow.loser),
        if shadow.unsettled {
            " (it picks one of the two, not always the same one)"
        } else {
            ""
        }
    )
}

/// A skill installed whose upstream could not be recorded.
#[derive(Debug, thiserror::Error)]
#[error("{skill}: where it came from could not be recorded in {}: {}", .folder.display(), crate::fs::said(.error))]
pub struct Unrecorded {
    pub skill: String,
    /// The folder of the records that could not be written.
    pub folder: PathBuf,
    pub error: std::io::Error,
}

/// What an import did.
#[derive(Debug)]
pub struct Imported {
    pub installed: Vec<Installed>,
    /// Baselines that could not be taken: those skills are installed, without their first
    /// snapshot.
    pub missed_baselines: Vec<SnapshotError>,
    /// The journal could not be told, so `undo` will not know of this import.
    pub unjournalled: Option<JournalError>,
    /// The skills whose upstream could not be recorded (or an old record forgotten):
    /// installed, but `outdated` and `update` will not know where from.
    pub unrecorded: Vec<Unrecorded>,
    /// The project's `skills-lock.json` kept current with what was installed, when it has one.
    pub lock: Upkeep,
}

/// Install `chosen` into `root` (created when missing) with skilldeck's record.
///
/// Every skill it updates or replaces is snapshotted first, every skill it puts in place is
/// snapshotted after as its baseline, and the journal records which snapshot holds what each
/// folder held before. `watch` hears the progress and may cancel before anything is in place.
///
/// # Errors
/// A conflict, found before anything is written; a cancel; or the write that failed (each
/// skill already in place stays, whole, and is journalled).
pub fn install(
    machine: &Machine,
    root: &Path,
    chosen: &[&BundledSkill],
    force: bool,
    watch: &mut dyn Watch,
) -> Result<Imported, InstallError> {
    install_from(machine, root, chosen, force, watch, None)
}

/// [`install`], recording for each skill put in place where it came from when it came from
/// a git repository (`from`), and forgetting an older record of a folder it replaces from
/// elsewhere: the record always says where the files now there came from.
///
/// # Errors
/// As [`install`].
pub fn install_from(
    machine: &Machine,
    root: &Path,
    chosen: &[&BundledSkill],
    force: bool,
    watch: &mut dyn Watch,
    from: Option<&FromGit>,
) -> Result<Imported, InstallError> {
    // Read before the root is locked, only to give the plan's sentence rather than --force's
    // offer (a folder unreadable for the moment is left to the judgement under the lock).
    let unreadable = |loss: &WouldLose| matches!(loss, WouldLose::Unreadable(_));
    if let Ok(Some(conflict)) = first_loss(root, chosen, |loss| !unreadable(loss)) {
        return Err(InstallError::Conflict(conflict));
    }
    let store = Store::open(&machine.env);
    let mut keeping =
        Keeping::new(&store, watch, Reason::Installed).write_ahead(machine, Operation::Import);
    let result = install::install(root, chosen, force, &mut keeping);
    let mut entry = Entry::now(Operation::Import, std::mem::take(&mut keeping.changes));
    // Where each skill put in place came from, in the same entry, so undo forgets it with
    // the skill (and remembers the record a replaced folder had).
    let mut unrecorded = Vec::new();
    if let Ok(installed) = &result {
        for done in installed {
            let Some(skill) = chosen.iter().find(|s| s.name == done.name) else {
                continue;
            };
            let now = from.map(|from| from.upstream_of(skill));
            match upstream_record::set(machine, &done.dir, now.as_ref()) {
                Ok(change) => entry.upstream.extend(change),
                Err(error) => unrecorded.push(Unrecorded {
                    skill: done.name.clone(),
                    folder: machine.data_dir().join(upstream::FOLDER),
                    error,
                }),
            }
        }
    }
    let lock = lock_upkeep::keep_current(machine, &mut entry);
    let unjournalled = keeping.done(entry);
    let installed = result.map_err(|error| match error {
        // Found under the lock: the same refusal the plan gives.
        InstallError::BeforeReplace { dir, source } => {
            match source.get_ref().and_then(|e| e.downcast_ref::<WouldLose>()) {
                Some(loss) => InstallError::Conflict(unreplaceable(&dir, loss)),
                None => InstallError::BeforeReplace { dir, source },
            }
        }
        other => other,
    })?;
    let mut missed_baselines = keeping.missed_baselines;
    // A skill left as it was still has its baseline: the copy of it already kept (the store
    // makes none twice), or the one an import stopped before could not take. Nothing changed,
    // so the journal hears nothing of it.
    for skill in installed.iter().filter(|s| s.action == Action::Unchanged) {
        if let Err(error) = store.take(&skill.dir, Reason::Installed) {
            missed_baselines.push(error);
        }
    }
    Ok(Imported {
        installed,
        missed_baselines,
        unjournalled,
        unrecorded,
        lock,
    })
}
