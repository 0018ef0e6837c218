//! The watch on the skills' files, and the rescans it asks for. One thread owns the system's
//! watches (inotify, FSEvents, ReadDirectoryChangesW, through `notify`): every skill folder
//! with all below it, the folders whose entries decide which skills there are, and the nearest
//! folder there is above each root not made yet and each settings file that turns skills off.
//! Where the system's limit on watches runs out, the rest are polled instead, and the app is
//! told so. Changes are gathered until the files have been quiet a moment, mapped to the
//! skill folders they lie in, and sent as one [`Msg::Changed`]; the thread blocks while
//! nothing happens, so an idle app costs nothing. What the app itself only reads (a scan, a
//! preview) is no change.
//!
//! The rescan reads again only the skills that changed (`scan::again`), from the inventory the
//! last scan left here, and sends the deck back with the changed screen's rows of those skills.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread;
use std::time::{Duration, Instant, SystemTime};

use notify::event::ModifyKind;
use notify::{ErrorKind, EventKind, PollWatcher, RecommendedWatcher, RecursiveMode, Watcher as _};

use super::pace::Pace;
use super::{deck_of, guarded, spawn, subjects, unreadable};
use crate::roots::Machine;
use crate::scan::{self, Inventory, Skill, Watched};
use crate::snapshot::Store;
use crate::snapshot::changes;
use crate::tui::changes::views;
use crate::tui::live::POLL_EVERY;
use crate::tui::msg::{Msg, Rescan};

/// How long the files must be quiet before what changed is told: an editor's save is a burst
/// of writes and renames, an install a longer one.
const QUIET: Duration = Duration::from_millis(40);
/// The longest a change waits to be told while the files keep changing.
const LONGEST: Duration = Duration::from_millis(250);

/// The watch, as the runtime and the scan workers hold it: the inventory the last scan left,
/// and the way to the watching thread. The thread stops when the last handle is let go.
#[derive(Clone)]
pub struct Watcher {
    shared: Arc<Shared>,
}

struct Shared {
    kept: Mutex<Option<Inventory>>,
    /// When the last rescan ended and how long it took: the next waits after it.
    pace: Mutex<Pace>,
    inputs: Sender<Input>,
}

impl Drop for Shared {
    fn drop(&mut self) {
        let _ = self.inputs.send(Input::Stop);
    }
}

/// What the watching thread is told.
enum Input {
    /// Watch what this inventory needs watched, instead of what the last one did.
    Plan(Watched),
    Event(notify::Result<notify::Event>),
    Stop,
}

impl Watcher {
    /// Start the watching thread; what changes arrives on `tx`.
    ///
    /// # Errors
    /// When the thread cannot be started.
    pub fn start(tx: Sender<Msg>) -> std::io::Result<Self> {
        let (inputs, incoming) = mpsc::channel();
        let feed = inputs.clone();
        thread::Builder::new()
            .name("skilldeck-watch".to_owned())
            .spawn(move || {
                let watches = Watches::new(feed, native);
                watch(&incoming, watches, &tx);
            })?;
        Ok(Self {
            shared: Arc::new(Shared {
                kept: Mutex::new(None),
                pace: Mutex::new(Pace::default()),
                inputs,
            }),
        })
    }

    /// Keep `inventory`, what a scan of `machine` just found: the next rescan starts from it,
    /// and the watch follows it.
    pub fn keep(&self, machine: &Machine, inventory: Inventory) {
        let mut kept = self
            .shared
            .kept
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        self.follow(machine, &inventory);
        *kept = Some(inventory);
    }

    fn follow(&self, machine: &Machine, inventory: &Inventory) {
        let plan = scan::watched(&machine.env, &machine.project, inventory);
        let _ = self.shared.inputs.send(Input::Plan(plan));
    }
}

/// Scan again the skills at `dirs` on a new thread, from the inventory `watcher` keeps (a
/// whole scan when it keeps none); the deck arrives on `tx` as [`Msg::Rescanned`].
pub fn rescan(machine: &Machine, tx: Sender<Msg>, watcher: Option<Watcher>, dirs: Vec<PathBuf>) {
    let machine = machine.clone();
    spawn("skilldeck-rescan", tx, move |_| {
        let result = guarded(|| rescanned(&machine, watcher.as_ref(), &dirs))
            .unwrap_or_else(|panic| Err(format!("Scanning the changed skills stopped: {panic}")));
        Msg::Rescanned { dirs, result }
    });
}

fn rescanned(
    machine: &Machine,
    watcher: Option<&Watcher>,
    dirs: &[PathBuf],
) -> Result<Box<Rescan>, String> {
    let (env, project) = (&machine.env, &machine.project);
    let Some(watcher) = watcher else {
        let inventory = scan::scan(env, project, &|_| {});
        let compared = compare(machine, &inventory, None, dirs)?;
        let deck = deck_of(machine, &inventory);
        return Ok(Box::new(Rescan { deck, compared }));
    };
    // Changes that keep coming wait, gathering, while the last rescan's pace runs.
    let wait = lock(&watcher.shared.pace).wait(Instant::now());
    thread::sleep(wait);
    let started = Instant::now();
    let rescan = rescanned_from_kept(machine, watcher, dirs);
    lock(&watcher.shared.pace).done(started, Instant::now());
    rescan
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

fn rescanned_from_kept(
    machine: &Machine,
    watcher: &Watcher,
    dirs: &[PathBuf],
) -> Result<Box<Rescan>, String> {
    let (env, project) = (&machine.env, &machine.project);
    // Held throughout, so rescans (and a full scan ending) take turns on the inventory.
    let mut kept = watcher
        .shared
        .kept
        .lock()
        .unwrap_or_else(PoisonError::into_inner);
    let inventory = match kept.as_ref() {
        Some(previous) => scan::again(env, project, previous, dirs),
        None => scan::scan(env, project, &|_| {}),
    };
    let compared = compare(machine, &inventory, kept.as_ref(), dirs)?;
    let deck = deck_of(machine, &inventory);
    watcher.follow(machine, &inventory);
    *kept = Some(inventory);
    Ok(Box::new(Rescan { deck, compared }))
}

/// Each skill a path of `dirs` lies in, or that was not there `before`, compared with its
/// snapshots again, and each of those `before` that is gone: the changed screen's rows.
fn compare<'a>(
    machine: &Machine,
    now: &'a Inventory,
    before: Option<&'a Inventory>,
    dirs: &[PathBuf],
) -> Result<Vec<(PathBuf, Option<crate::tui::changes::ChangeView>)>, String> {
    let dirs_of = |inventory: &'a Inventory| -> HashSet<&'a Path> {
        inventory.skills.iter().map(|s| s.dir.as_path()).collect()
    };
    let (there, was) = (dirs_of(now), before.map(dirs_of));
    let touched_now = scan::touched(&now.skills, dirs).skills;
    let rescanned: Vec<&Skill> = now
        .skills
        .iter()
        .zip(touched_now)
        .filter(|(skill, touched)| {
            *touched
                || was
                    .as_ref()
                    .is_some_and(|was| !was.contains(skill.dir.as_path()))
        })
        .map(|(skill, _)| skill)
        .collect();
    let gone: Vec<PathBuf> = before
        .map(|before| {
            let touched_before = scan::touched(&before.skills, dirs).skills;
            before
                .skills
                .iter()
                .zip(touched_before)
                .filter(|(skill, touched)| *touched && !there.contains(skill.dir.as_path()))
                .map(|(skill, _)| skill.dir.clone())
                .collect()
        })
        .unwrap_or_default();
    let store = Store::open(&machine.env);
    let found = changes::changes_among(&store, &subjects(rescanned.iter().copied()), &gone)
        .map_err(unreadable)?;
    let rows = views(
        &found.changed,
        &now.skills,
        machine.home(),
        SystemTime::now(),
    );
    // Each row found by its folder (the first for a folder, as the list has it), not searched
    // for among all of them once per skill.
    let mut by_dir: HashMap<&Path, &crate::tui::changes::ChangeView> = HashMap::new();
    for row in &rows {
        by_dir.entry(row.dir.as_path()).or_insert(row);
    }
    Ok(rescanned
        .iter()
        .map(|skill| &skill.dir)
        .chain(&gone)
        .map(|dir| {
            (
                dir.clone(),
                by_dir.get(dir.as_path()).map(|row| (*row).clone()),
            )
        })
        .collect())
}

/// The watching thread: take each plan and each event, and tell what changed once the files
/// are quiet; block while nothing happens.
fn watch(incoming: &Receiver<Input>, mut watches: Watches, tx: &Sender<Msg>) {
    let mut plan = Watched::default();
    let mut seen: BTreeSet<PathBuf> = BTreeSet::new();
    while let Ok(input) = incoming.recv() {
        if !take(input, &mut watches, &mut plan, &mut seen, tx) {
            return;
        }
        if seen.is_empty() {
            continue;
        }
        // Quiet is measured from the last change that matters: reads, and changes beside the
        // watched paths (a busy /tmp above a project's roots), do not hold the news back.
        let first = Instant::now();
        let mut last = first;
        loop {
            let until = (last + QUIET).min(first + LONGEST);
            let left = until.saturating_duration_since(Instant::now());
            if left.is_zero() {
                break;
            }
            match incoming.recv_timeout(left) {
                Ok(input) => {
                    let before = seen.len();
                    if !take(input, &mut watches, &mut plan, &mut seen, tx) {
                        return;
                    }
                    if seen.len() > before {
                        last = Instant::now();
                    }
                }
                Err(RecvTimeoutError::Timeout) => break,
                Err(RecvTimeoutError::Disconnected) => return,
            }
        }
        let dirs = std::mem::take(&mut seen).into_iter().collect();
        if tx.send(Msg::Changed { dirs }).is_err() {
            return;
        }
    }
}

/// Take one input; whether to go on.
fn take(
    input: Input,
    watches: &mut Watches,
    plan: &mut Watched,
    seen: &mut BTreeSet<PathBuf>,
    tx: &Sender<Msg>,
) -> bool {
    match input {
        Input::Stop => return false,
        Input::Plan(next) => {
            let (told, polled) = watches.place(&next);
            *plan = next;
            return tx.send(Msg::Watched { told, polled }).is_ok();
        }
        // The system dropped events (its queue overflowed): anything may have changed.
        Input::Event(Ok(event)) if event.need_rescan() => {
            seen.extend(plan.skills.iter().chain(&plan.folders).cloned());
        }
        Input::Event(Ok(event)) if is_change(&event.kind) => {
            seen.extend(event.paths.iter().filter_map(|path| affected(plan, path)));
        }
        // A watch the system could not add below a folder made meanwhile: `r` still sees it.
        Input::Event(_) => {}
    }
    true
}

/// Whether an event is a change: reading a file (the app's own scan and preview do) is not,
/// nor is a change of its times or mode alone, which reading may cause.
fn is_change(kind: &EventKind) -> bool {
    !matches!(
        kind,
        EventKind::Access(_) | EventKind::Modify(ModifyKind::Metadata(_))
    )
}

/// What a change at `path` is a change of, by `plan`: the skill folder it lies in; else the
/// path itself, when it is an entry of a folder whose entries decide the skills, or lies on
/// the way to a root or settings file; else nothing that matters.
fn affected(plan: &Watched, path: &Path) -> Option<PathBuf> {
    // The skills are sorted and none lies inside another: the one `path` may lie in is the
    // last that sorts before it.
    let at = plan.skills.partition_point(|dir| dir.as_path() <= path);
    if let Some(dir) = at.checked_sub(1).map(|at| &plan.skills[at])
        && path.starts_with(dir)
    {
        return Some(dir.clone());
    }
    let is_folder = |dir: &Path| {
        plan.folders
            .binary_search_by(|f| f.as_path().cmp(dir))
            .is_ok()
    };
    let matters = is_folder(path)
        || path.parent().is_some_and(is_folder)
        || plan.awaited.iter().any(|awaited| awaited.starts_with(path));
    matters.then(|| path.to_path_buf())
}

/// Which watcher holds a watch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum By {
    System,
    Poll,
}

/// The watches in place, and the watchers holding them.
struct Watches {
    feed: Sender<Input>,
    /// The system's watcher; none when it could not be had at all.
    system: Option<Box<dyn notify::Watcher + Send>>,
    /// Made when the system's watches run out.
    poll: Option<PollWatcher>,
    placed: HashMap<PathBuf, (RecursiveMode, By)>,
    /// The system refused a watch for its limit: the next ones are polled.
    exhausted: bool,
}

/// The system's own watcher, sending its events to `feed`.
fn native(feed: Sender<Input>) -> Option<Box<dyn notify::Watcher + Send>> {
    let watcher = RecommendedWatcher::new(
        move |event| {
            let _ = feed.send(Input::Event(event));
        },
        notify::Config::default(),
    );
    watcher
        .ok()
        .map(|watcher| Box::new(watcher) as Box<dyn notify::Watcher + Send>)
}

impl Watches {
    fn new(
        feed: Sender<Input>,
        system: impl FnOnce(Sender<Input>) -> Option<Box<dyn notify::Watcher + Send>>,
    ) -> Self {
        Self {
            system: system(feed.clone()),
            feed,
            poll: None,
            placed: HashMap::new(),
            exhausted: false,
        }
    }

    /// Watch what `plan` asks, and nothing else: the watches no longer asked for are removed,
    /// the new ones added (the few folders first, then the skills). How many paths the system
    /// watches, and how many are polled.
    fn place(&mut self, plan: &Watched) -> (usize, usize) {
        let mut wanted: HashMap<PathBuf, RecursiveMode> = HashMap::new();
        let nearest = |path: &Path| {
            path.ancestors()
                .skip(1)
                .find(|dir| dir.is_dir())
                .map(Path::to_path_buf)
        };
        let folders = plan
            .folders
            .iter()
            .cloned()
            .chain(plan.awaited.iter().filter_map(|path| nearest(path)));
        for folder in folders {
            wanted.entry(folder).or_insert(RecursiveMode::NonRecursive);
        }
        for skill in &plan.skills {
            wanted.insert(skill.clone(), RecursiveMode::Recursive);
        }
        let unwanted: Vec<PathBuf> = self
            .placed
            .iter()
            .filter(|(path, (mode, _))| wanted.get(*path) != Some(mode))
            .map(|(path, _)| path.clone())
            .collect();
        for path in unwanted {
            if let Some((_, by)) = self.placed.remove(&path) {
                self.unwatch(&path, by);
            }
        }
        let mut adding: Vec<(PathBuf, RecursiveMode)> = wanted
            .into_iter()
            .filter(|(path, _)| !self.placed.contains_key(path))
            .collect();
        adding.sort_by(|a, b| {
            (a.1 == RecursiveMode::Recursive, &a.0).cmp(&(b.1 == RecursiveMode::Recursive, &b.0))
        });
        for (path, mode) in adding {
            if let Some(by) = self.add(&path, mode) {
                self.placed.insert(path, (mode, by));
            }
        }
        let polled = self
            .placed
            .values()
            .filter(|(_, by)| *by == By::Poll)
            .count();
        (self.placed.len() - polled, polled)
    }

    /// Watch `path` by the system while it lets; else poll it. `None` when neither can (the
    /// folder went meanwhile: its removal is seen from the folder above).
    fn add(&mut self, path: &Path, mode: RecursiveMode) -> Option<By> {
        if let Some(system) = self.system.as_mut().filter(|_| !self.exhausted) {
            match system.watch(path, mode) {
                Ok(()) => return Some(By::System),
                Err(error) if matches!(error.kind, ErrorKind::MaxFilesWatch) => {
                    // What it watched below the folder before it ran out is let go.
                    let _ = system.unwatch(path);
                    self.exhausted = true;
                }
                Err(_) => return None,
            }
        }
        if self.poll.is_none() {
            let feed = self.feed.clone();
            let config = notify::Config::default().with_poll_interval(POLL_EVERY);
            self.poll = PollWatcher::new(
                move |event| {
                    let _ = feed.send(Input::Event(event));
                },
                config,
            )
            .ok();
        }
        let poll = self.poll.as_mut()?;
        poll.watch(path, mode).ok().map(|()| By::Poll)
    }

    fn unwatch(&mut self, path: &Path, by: By) {
        let _ = match by {
            By::System => self.system.as_mut().map(|w| w.unwatch(path)),
            By::Poll => self.poll.as_mut().map(|w| w.unwatch(path)),
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A system watcher with room for `room` watches, as inotify's limit leaves.
    struct Limited {
        room: usize,
        watched: Vec<PathBuf>,
    }

    impl notify::Watcher for Limited {
        fn new<F: notify::EventHandler>(_: F, _: notify::Config) -> notify::Result<Self> {
            Ok(Self {
                room: 0,
                watched: Vec::new(),
            })
        }

        fn watch(&mut self, path: &Path, _: RecursiveMode) -> notify::Result<()> {
            if self.watched.len() == self.room {
                return Err(notify::Error::new(ErrorKind::MaxFilesWatch));
            }
            self.watched.push(path.to_path_buf());
            Ok(())
        }

        fn unwatch(&mut self, path: &Path) -> notify::Result<()> {
            self.watched.retain(|watched| watched != path);
            Ok(())
        }

        fn kind() -> notify::WatcherKind {
            notify::WatcherKind::NullWatcher
        }
    }

    fn folders(root: &Path, n: usize) -> Vec<PathBuf> {
        (0..n)
            .map(|i| {
                let dir = root.join(format!("skill-{i}"));
                std::fs::create_dir_all(&dir).unwrap();
                dir
            })
            .collect()
    }

    #[test]
    fn where_the_system_limit_runs_out_the_rest_is_polled() {
        let tmp = tempfile::tempdir().unwrap();
        let (feed, _incoming) = mpsc::channel();
        let mut watches = Watches::new(feed, |_| {
            Some(Box::new(Limited {
                room: 3,
                watched: Vec::new(),
            }) as Box<dyn notify::Watcher + Send>)
        });
        let plan = Watched {
            skills: folders(tmp.path(), 5),
            folders: vec![tmp.path().to_path_buf()],
            awaited: Vec::new(),
        };
        // The root first, then two skills by the system; three skills polled.
        assert_eq!(watches.place(&plan), (3, 3));
        assert_eq!(watches.placed[tmp.path()].1, By::System);
        // The same plan again changes nothing; a smaller one lets the polled ones go.
        assert_eq!(watches.place(&plan), (3, 3));
        let fewer = Watched {
            skills: plan.skills[..2].to_vec(),
            ..plan.clone()
        };
        assert_eq!(watches.place(&fewer), (3, 0));
    }

    #[test]
    fn with_no_system_watcher_everything_is_polled() {
        let tmp = tempfile::tempdir().unwrap();
        let (feed, _incoming) = mpsc::channel();
        let mut watches = Watches::new(feed, |_| None);
        let plan = Watched {
            skills: folders(tmp.path(), 2),
            ..Watched::default()
        };
        assert_eq!(watches.place(&plan), (0, 2));
    }

    #[test]
    fn a_change_is_of_the_skill_it_lies_in_or_of_what_decides_the_skills() {
        let plan = Watched {
            skills: vec![
                PathBuf::from("/r/a"),
                PathBuf::from("/r/a-b"),
                PathBuf::from("/r/c"),
            ],
            folders: vec![PathBuf::from("/p/group"), PathBuf::from("/r")],
            awaited: vec![PathBuf::from("/home/.claude/settings.json")],
        };
        let of = |path: &str| affected(&plan, Path::new(path));
        assert_eq!(of("/r/a/SKILL.md"), Some(PathBuf::from("/r/a")));
        assert_eq!(of("/r/a-b/x/y.md"), Some(PathBuf::from("/r/a-b")));
        assert_eq!(of("/r/a"), Some(PathBuf::from("/r/a")));
        // A folder made in a root, or in a folder between a root and its skills.
        assert_eq!(of("/r/new"), Some(PathBuf::from("/r/new")));
        assert_eq!(of("/p/group/new"), Some(PathBuf::from("/p/group/new")));
        // A settings file, or a folder on the way to it.
        assert_eq!(
            of("/home/.claude/settings.json"),
            Some(PathBuf::from("/home/.claude/settings.json"))
        );
        assert_eq!(of("/home/.claude"), Some(PathBuf::from("/home/.claude")));
        // Another file beside it, or deeper in a folder that is no skill, is nothing.
        assert_eq!(of("/home/.claude/history.jsonl"), None);
        assert_eq!(of("/r/new/deeper/file"), None);
    }

    #[test]
    fn reading_is_no_change() {
        use notify::event::{AccessKind, CreateKind, DataChange, MetadataKind};
        assert!(!is_change(&EventKind::Access(AccessKind::Any)));
        assert!(!is_change(&EventKind::Modify(ModifyKind::Metadata(
            MetadataKind::AccessTime
        ))));
        assert!(is_change(&EventKind::Modify(ModifyKind::Data(
            DataChange::Content
        ))));
        assert!(is_change(&EventKind::Create(CreateKind::Folder)));
    }
}
