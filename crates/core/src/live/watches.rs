//! The watches in place and the watchers holding them: the system's own while its limit on
//! watches lets, then a poller looking every [`POLL_EVERY`] at the rest.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::mpsc::Sender;

use notify::{ErrorKind, PollWatcher, RecommendedWatcher, RecursiveMode, Watcher as _};

use super::{Input, POLL_EVERY};
use crate::scan::Watched;

/// A watcher of the system's, or one standing in for it in a test.
pub(super) type System = Box<dyn notify::Watcher + Send>;

/// Which watcher holds a watch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum By {
    System,
    Poll,
}

/// The watches in place, and the watchers holding them.
pub(super) struct Watches {
    feed: Sender<Input>,
    /// The system's watcher; none when it could not be had at all.
    system: Option<System>,
    /// Made when the system's watches run out.
    poll: Option<PollWatcher>,
    placed: HashMap<PathBuf, (RecursiveMode, By)>,
    /// The system refused a watch for its limit: the next ones are polled.
    exhausted: bool,
}

/// The system's own watcher, sending its events to `feed`.
pub(super) fn native(feed: Sender<Input>) -> Option<System> {
    let watcher = RecommendedWatcher::new(
        move |event| {
            let _ = feed.send(Input::Event(event));
        },
        notify::Config::default(),
    );
    watcher.ok().map(|watcher| Box::new(watcher) as System)
}

impl Watches {
    pub(super) fn new(
        feed: Sender<Input>,
        system: impl FnOnce(Sender<Input>) -> Option<System>,
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
    pub(super) fn place(&mut self, plan: &Watched) -> (usize, usize) {
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
    use std::sync::mpsc;

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
            }) as System)
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
}
