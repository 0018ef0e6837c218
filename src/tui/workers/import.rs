//! One import's worker: it reads the bundle whole, sends the preview and the places the skills
//! can go, then holds the bundle and waits to be told where to install. So what is installed
//! is what was previewed, never a second reading of a file that may have changed since.
//!
//! Asked to install, it judges the destination first: skills there that may only be replaced
//! by force are sent back with the diff of what the replacement would change, and it waits
//! again. The install itself is the import operation the command line runs too (what it
//! replaces is snapshotted first, what it installs is kept as the baseline, the journal
//! hears of it); the worker reports its progress and stops before anything is put in place
//! once the session is cancelled.

use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver, Sender};
use std::time::{Duration, Instant};

use crate::bundle::{Bundle, BundledSkill};
use crate::operations::import::{self, ImportError, Read, Request};
use crate::operations::judged::Judged;
use crate::operations::paths;
use crate::operations::progress::{Cancel, Progress, Step};
use crate::roots::{Machine, RootSet};
use crate::snapshot::diff::before_replacing;
use crate::source::{self, Source};

pub use crate::tui::failed::ImportFailed;

use super::{guard, spawn};
use crate::scan;
use crate::text::sanitize;
use crate::text::{Unsafe, human};
use crate::tui::audit::RiskView;
use crate::tui::diff::{Against, DiffView};
use crate::tui::import::{
    BundleView, ConflictView, DestinationView, ImportedView, RefusalView, Shadowing,
};
use crate::tui::msg::{ImportEvent, Msg};

/// How often the install reports progress at most.
const PROGRESS_EVERY: Duration = Duration::from_millis(50);

/// What the app asks of a session.
enum Command {
    Install { root: PathBuf, request: Request },
}

/// The app's handle on an import's worker.
pub struct ImportSession {
    pub session: u64,
    commands: Option<Sender<Command>>,
    cancel: Cancel,
}

impl ImportSession {
    /// Install what `request` asks for into `root`.
    pub fn install(&self, root: PathBuf, request: Request) {
        if let Some(commands) = &self.commands {
            let _ = commands.send(Command::Install { root, request });
        }
    }

    /// Stop: an install under way stops before anything is put in place (if it still can, and
    /// says so), and the bundle is let go.
    pub fn cancel(&mut self) {
        self.cancel.cancel();
        self.commands = None;
    }
}

impl Drop for ImportSession {
    fn drop(&mut self) {
        self.cancel();
    }
}

/// Start the session `session`: read the bundle at `source` on a new thread.
pub fn spawn_import(
    machine: &Machine,
    tx: Sender<Msg>,
    session: u64,
    source: PathBuf,
) -> ImportSession {
    let (commands, incoming) = mpsc::channel();
    let cancel = Cancel::new();
    let worker = Worker {
        machine: machine.clone(),
        session,
        cancel: cancel.clone(),
    };
    spawn("skilldeck-import", tx, move |tx| {
        let event = guard("The import", || worker.run(&source, &incoming, tx))
            .unwrap_or_else(|stopped| ImportEvent::Done(Err(stopped.into())));
        Msg::Import { session, event }
    });
    ImportSession {
        session,
        commands: Some(commands),
        cancel,
    }
}

struct Worker {
    machine: Machine,
    session: u64,
    cancel: Cancel,
}

impl Worker {
    /// Read, then serve the app's commands; the last event of the session is returned.
    fn run(&self, typed: &Path, commands: &Receiver<Command>, tx: &Sender<Msg>) -> ImportEvent {
        let home = self.machine.home();
        // The one rule of what a source is (`source::parse`): a path on disk, taken from the
        // project folder as the picker shows it, wins over a repository's name.
        let on_disk = paths::typed(&self.machine, typed);
        let parsed = match source::parse(&on_disk, None) {
            Source::Local(_) if !on_disk.exists() => match source::parse(typed, None) {
                Source::Git(spec) => Source::Git(spec),
                Source::Local(_) => Source::Local(on_disk.clone()),
            },
            parsed => parsed,
        };
        // What the preview names: the path, or the repository and ref.
        let shown = match &parsed {
            Source::Git(spec) => PathBuf::from(spec.shown()),
            Source::Local(_) => on_disk.clone(),
        };
        let source = shown.as_path();
        let read = match parsed {
            Source::Local(path) => import::read(&path)
                .map(Read::Local)
                .map_err(|refusal| RefusalView::new(&refusal, source, home)),
            // git's progress is not shown: the screen says what is being read until it is.
            Source::Git(spec) => import::read_git(&spec, &mut |_: Step<'_>| {})
                .map(Read::Git)
                .map_err(|error| RefusalView {
                    source: sanitize::line(&spec.shown()),
                    code: error.code().to_owned(),
                    sentence: sanitize::line(&error.to_string()),
                }),
        };
        let read = match read {
            Ok(read) => read,
            Err(refused) => return ImportEvent::Read(Err(refused)),
        };
        let bundle = read.bundle();
        let preview = BundleView::new(bundle, source, home);
        self.send(
            tx,
            ImportEvent::Read(Ok((Box::new(preview), self.destinations(bundle)))),
        );
        while let Ok(Command::Install { root, request }) = commands.recv() {
            match self.install(&read, &root, &request, tx) {
                Some(last) => return last,
                None => continue,
            }
        }
        ImportEvent::Cancelled
    }

    fn send(&self, tx: &Sender<Msg>, event: ImportEvent) {
        let _ = tx.send(Msg::Import {
            session: self.session,
            event,
        });
    }

    /// Every agent's skills folder at each scope it has one, each with the copies the bundle's
    /// skills would shadow or be shadowed by there (one scan weighs them all), so the choice
    /// is made knowing it.
    fn destinations(&self, bundle: &Bundle) -> Vec<DestinationView> {
        let home = self.machine.home();
        let inventory = scan::scan(&self.machine.env, &self.machine.project, &|_| {});
        let roots = RootSet::resolve(&self.machine.env, &self.machine.project);
        let every: Vec<&BundledSkill> = bundle.skills.iter().collect();
        import::destinations(&self.machine)
            .into_iter()
            .map(|destination| {
                let shadows = import::shadowing_in(
                    &roots,
                    &inventory,
                    &destination.root,
                    &every,
                    &destination.readers,
                    // All weighed here; the view shows those of the agents the app shows.
                    Judged {
                        installed: None,
                        all: true,
                    },
                )
                .iter()
                .map(|(skill, shadow)| Shadowing {
                    skill: skill.name.clone(),
                    agent: shadow.agent,
                    sentence: sanitize::line(&import::shadow_sentence(shadow, true, &|path| {
                        human::path(path, home, Unsafe::Dropped)
                    })),
                })
                .collect();
                DestinationView {
                    agent: destination.agent,
                    scope: destination.scope,
                    shown_root: human::path(&destination.root, home, Unsafe::Dropped),
                    root: destination.root,
                    readers: destination.readers,
                    distrusting: destination.distrusting,
                    shadows,
                }
            })
            .collect()
    }

    /// Install, or send back what would be replaced, or the high findings that need the risk
    /// accepted, and return `None` to wait for the word.
    fn install(
        &self,
        read: &Read,
        root: &Path,
        request: &Request,
        tx: &Sender<Msg>,
    ) -> Option<ImportEvent> {
        if !request.force {
            let chosen = match read.bundle().select(&request.skills) {
                Ok(chosen) => chosen,
                Err(refusal) => return Some(ImportEvent::Done(Err(refusal.into()))),
            };
            if let Some(event) = self.conflicts(&chosen, root) {
                self.send(tx, event);
                return None;
            }
        }
        let mut reporter = Reporter {
            tx,
            session: self.session,
            last: None,
        };
        let result = import::run(
            &self.machine,
            read,
            request,
            root,
            &mut reporter,
            &self.cancel,
        );
        Some(match result {
            Ok(report) => ImportEvent::Done(Ok(ImportedView::of(&report, self.machine.home()))),
            Err(ImportError::Cancelled) => ImportEvent::Cancelled,
            // Nothing was written: the app asks, and the worker waits for its answer.
            Err(ImportError::Risky(risky)) => {
                self.send(
                    tx,
                    ImportEvent::Risky {
                        risk: RiskView::of(&risky),
                        force: request.force,
                        skills: request.skills.clone(),
                    },
                );
                return None;
            }
            Err(error) => ImportEvent::Done(Err(error.into())),
        })
    }

    /// The skills at `root` an install of `chosen` would replace, each with its diff.
    fn conflicts(&self, chosen: &[&BundledSkill], root: &Path) -> Option<ImportEvent> {
        let home = self.machine.home();
        let mut conflicts = Vec::new();
        let mut diff = DiffView::new(
            "",
            root.to_path_buf(),
            human::path(root, home, Unsafe::Dropped),
            Against::Import,
        );
        let found = match import::conflicts(root, chosen) {
            Ok(found) => found,
            Err(refused) => {
                let shown = human::path(&refused.dir, home, Unsafe::Dropped);
                return Some(ImportEvent::DestinationRefused(sanitize::line(&format!(
                    "{shown} {}: choose another destination.",
                    refused.why
                ))));
            }
        };
        for (skill, conflict) in found {
            let shown_dir = human::path(&conflict.dir, home, Unsafe::Dropped);
            let why = sanitize::line(&conflict.why);
            let heading = format!("{}: {shown_dir} {why}", sanitize::name(&skill.name));
            let (row, first_file) = (diff.rows.len(), diff.files.len());
            if !conflict.forcible {
                diff.heading(&heading);
            } else {
                match before_replacing(&conflict.dir, skill) {
                    Ok(changes) => diff.push(Some(&heading), &changes),
                    Err(error) => {
                        diff.heading(&format!("{heading}; its diff cannot be shown: {error}"));
                    }
                }
            }
            conflicts.push(ConflictView {
                skill: skill.name.clone(),
                row,
                files: first_file..diff.files.len(),
                name: sanitize::name(&skill.name),
                shown_dir,
                why,
                forcible: conflict.forcible,
                edited: conflict.edited,
            });
        }
        // Several skills each have a SKILL.md: the diff's file list names each below its skill.
        if conflicts.len() > 1 {
            for conflict in &conflicts {
                for file in &mut diff.files[conflict.files.clone()] {
                    file.path = format!("{}/{}", conflict.name, file.path);
                }
            }
        }
        (!conflicts.is_empty()).then(|| ImportEvent::Conflicts {
            conflicts,
            diff: Box::new(diff),
        })
    }
}

/// The install's progress, sent to the app a few times a second at most.
struct Reporter<'a> {
    tx: &'a Sender<Msg>,
    session: u64,
    last: Option<Instant>,
}

impl Progress for Reporter<'_> {
    fn step(&mut self, step: Step<'_>) {
        let Step::Files { skill, done, total } = step else {
            return;
        };
        if done != total && self.last.is_some_and(|at| at.elapsed() < PROGRESS_EVERY) {
            return;
        }
        self.last = Some(Instant::now());
        let _ = self.tx.send(Msg::Import {
            session: self.session,
            event: ImportEvent::Progress {
                skill: sanitize::line(skill),
                files_done: done,
                files_total: total,
            },
        });
    }
}
