//! The live app's domain and worker (issue 17.1): a scan again reads only the skills a change
//! lies in and decides everything else as a whole scan would; what to watch names the skills,
//! the folders that decide them and the settings files that turn them off; and the real
//! watching thread, on a temporary home, names the skill whose file was edited, says nothing
//! of files only read, and blocks while nothing happens; and the core's rescan reads again only
//! the skills told, from the inventory the watcher keeps, compares only them with their
//! snapshots, and keeps nothing of a rescan that failed.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::mpsc;

use skilldeck::live::{self, LiveError, News, Watcher};
use skilldeck::record::{State, digest_of};
use skilldeck::roots::{Environment, Machine};
use skilldeck::scan::{self, Inventory};
use skilldeck::tui::app::{App, Setup};
use skilldeck::tui::headless::{Headless, PATIENCE, test_terminal};

/// A home with three of Claude Code's skills; `alpha` carries an installer's record that
/// matches its files.
struct Home {
    _tmp: tempfile::TempDir,
    home: PathBuf,
    project: PathBuf,
}

impl Home {
    fn new() -> Self {
        let tmp = tempfile::tempdir().unwrap();
        let home = tmp.path().join("home");
        // Inside the home, so that the walks above the project stop there, and a repository, so
        // that the project's roots stop at it: the folders above the temporary one (a shared
        // /tmp, busy with other tests) are not watched.
        let project = home.join("project");
        fs::create_dir_all(project.join(".git")).unwrap();
        let this = Self {
            _tmp: tmp,
            home,
            project,
        };
        this.recorded("alpha");
        this.plain("beta");
        this.plain("gamma");
        this
    }

    fn root(&self) -> PathBuf {
        self.home.join(".claude/skills")
    }

    fn dir(&self, name: &str) -> PathBuf {
        self.root().join(name)
    }

    fn plain(&self, name: &str) {
        let dir = self.dir(name);
        fs::create_dir_all(&dir).unwrap();
        let text = format!("---\nname: {name}\ndescription: The {name} skill.\n---\nBody.\n");
        fs::write(dir.join("SKILL.md"), text).unwrap();
    }

    fn recorded(&self, name: &str) {
        let dir = self.dir(name);
        fs::create_dir_all(dir.join("references")).unwrap();
        let guide = "A guide.\n";
        let head = format!(
            "---\nname: {name}\ndescription: The {name} skill.\nmetadata:\n  installed-by: \"test\"\n  installed-version: \"1.0.0\"\n  content-digest: \"\"\n---\nBody.\n"
        );
        let digest = digest_of([
            (Path::new("SKILL.md"), head.as_bytes()),
            (Path::new("references/guide.md"), guide.as_bytes()),
        ]);
        let text = head.replacen(
            "content-digest: \"\"",
            &format!("content-digest: \"{digest}\""),
            1,
        );
        fs::write(dir.join("SKILL.md"), text).unwrap();
        fs::write(dir.join("references/guide.md"), guide).unwrap();
    }

    /// The system's folders moved into the temporary one too, so that everything watched is
    /// the test's own, whatever else the machine is doing.
    fn env(&self) -> Environment {
        let system = self.home.parent().map(|tmp| tmp.join("system"));
        Environment::new(&self.home).with_var("SKILLDECK_SYSTEM_ROOT", system.unwrap_or_default())
    }

    fn machine(&self) -> Machine {
        Machine::new(self.env(), &self.project)
    }

    fn scan(&self) -> Inventory {
        scan::scan(&self.env(), &self.project, &|_| {})
    }

    fn again(&self, previous: &Inventory, changed: &[PathBuf]) -> Inventory {
        scan::again(&self.env(), &self.project, previous, changed)
    }
}

fn state_of(inventory: &Inventory, name: &str) -> State {
    inventory
        .skills
        .iter()
        .find(|s| s.name == name)
        .unwrap_or_else(|| panic!("{name} not found"))
        .state
}

fn names(inventory: &Inventory) -> Vec<&str> {
    inventory.skills.iter().map(|s| s.name.as_str()).collect()
}

#[test]
fn a_scan_again_reads_only_the_skills_a_change_lies_in() {
    let home = Home::new();
    let before = home.scan();
    assert_eq!(state_of(&before, "alpha"), State::Intact);
    // Both change; only alpha is said to.
    fs::write(home.dir("alpha").join("references/guide.md"), "Edited.\n").unwrap();
    fs::write(
        home.dir("beta").join("SKILL.md"),
        "---\nname: beta\n---\nEdited.\n",
    )
    .unwrap();
    let alpha = home.dir("alpha").join("references/guide.md");
    let after = home.again(&before, std::slice::from_ref(&alpha));
    assert_eq!(state_of(&after, "alpha"), State::Modified);
    let beta = |inventory: &Inventory| {
        let beta = inventory.skills.iter().find(|s| s.name == "beta").unwrap();
        (beta.digest.clone(), beta.declared.description.clone())
    };
    // beta was not read again: what it held before stands.
    assert_eq!(beta(&after), beta(&before));
    // Told of beta too, the scan again is the whole scan, field for field.
    let told = home.again(&after, &[home.dir("beta")]);
    assert_eq!(format!("{told:?}"), format!("{:?}", home.scan()));
}

#[test]
fn a_scan_again_finds_a_new_skill_and_drops_one_removed() {
    let home = Home::new();
    let before = home.scan();
    home.plain("delta");
    fs::remove_dir_all(home.dir("beta")).unwrap();
    let after = home.again(&before, &[home.dir("delta"), home.dir("beta")]);
    assert_eq!(names(&after), ["alpha", "delta", "gamma"]);
    assert_eq!(format!("{after:?}"), format!("{:?}", home.scan()));
}

#[test]
fn many_skills_made_and_removed_at_once_are_found_as_a_whole_scan_finds_them() {
    let home = Home::new();
    let before = home.scan();
    // Folders made in a burst, some removed again before the rescan, one skill edited, one
    // removed; and the events name the folders, files deep in them, and folders gone.
    let mut changed = Vec::new();
    for i in 0..300 {
        let name = format!("made-{i:03}");
        home.plain(&name);
        changed.push(if i % 2 == 0 {
            home.dir(&name)
        } else {
            home.dir(&name).join("SKILL.md")
        });
        if i % 3 == 0 {
            fs::remove_dir_all(home.dir(&name)).unwrap();
        }
    }
    fs::write(home.dir("alpha").join("references/guide.md"), "Edited.\n").unwrap();
    changed.push(home.dir("alpha").join("references/guide.md"));
    fs::remove_dir_all(home.dir("beta")).unwrap();
    changed.push(home.dir("beta"));
    let after = home.again(&before, &changed);
    assert_eq!(after.skills.len(), 2 + 200, "{:?}", names(&after));
    assert_eq!(state_of(&after, "alpha"), State::Modified);
    assert_eq!(format!("{after:?}"), format!("{:?}", home.scan()));
}

#[test]
fn what_is_watched_is_every_skill_the_folders_that_hold_them_and_the_settings() {
    let home = Home::new();
    let inventory = home.scan();
    let watched = scan::watched(&home.env(), &home.project, &inventory);
    let skills: Vec<PathBuf> = ["alpha", "beta", "gamma"]
        .iter()
        .map(|name| fs::canonicalize(home.dir(name)).unwrap())
        .collect();
    assert_eq!(watched.skills, skills);
    let root = fs::canonicalize(home.root()).unwrap();
    assert!(
        watched
            .folders
            .iter()
            .any(|f| *f == root || *f == home.root()),
        "{watched:?}"
    );
    // Claude Code's settings turn skills off; the file need not exist to be awaited.
    assert!(
        watched
            .awaited
            .contains(&home.home.join(".claude/settings.json")),
        "{watched:?}"
    );
    // A root not made yet is awaited: Codex's, in this home.
    assert!(
        watched
            .awaited
            .iter()
            .any(|path| path.starts_with(home.home.join(".codex"))),
        "{watched:?}"
    );
}

/// The next news the watcher tells that is not about the watch being in place.
fn next_change(rx: &mpsc::Receiver<News>) -> Vec<PathBuf> {
    loop {
        match rx.recv_timeout(PATIENCE).expect("the watcher answers") {
            News::Changed { dirs } => return dirs,
            News::Watched { .. } => {}
        }
    }
}

fn watching(home: &Home) -> (Watcher, mpsc::Receiver<News>) {
    let (tx, rx) = mpsc::channel();
    let watcher = Watcher::start(move |news| tx.send(news).is_ok()).unwrap();
    watcher.keep(&home.machine(), home.scan());
    match rx.recv_timeout(PATIENCE).expect("the watch is placed") {
        News::Watched { told, polled } => assert!(told + polled > 3, "{told} {polled}"),
        other => panic!("unexpected {other:?}"),
    }
    (watcher, rx)
}

#[test]
fn the_watcher_names_the_skill_whose_file_was_edited_and_nothing_only_read() {
    let home = Home::new();
    let (_watcher, rx) = watching(&home);
    let alpha = fs::canonicalize(home.dir("alpha")).unwrap();
    fs::write(alpha.join("references/guide.md"), "Edited.\n").unwrap();
    assert_eq!(next_change(&rx), [alpha.as_path()]);
    // Reading every file, as a scan and a preview do, is no change: the next message is
    // about the next write, and names only gamma.
    let _ = home.scan();
    let _ = fs::read(alpha.join("SKILL.md")).unwrap();
    let gamma = fs::canonicalize(home.dir("gamma")).unwrap();
    fs::write(gamma.join("SKILL.md"), "---\nname: gamma\n---\nEdited.\n").unwrap();
    assert_eq!(next_change(&rx), [gamma]);
    // A skill made in the root is a change of the root's entries.
    home.plain("delta");
    let made = next_change(&rx);
    assert!(made.iter().any(|dir| dir.ends_with("delta")), "{made:?}");
}

#[test]
fn a_settings_file_that_turns_skills_off_is_watched_before_it_exists() {
    let home = Home::new();
    let (_watcher, rx) = watching(&home);
    let settings = home.home.join(".claude/settings.json");
    fs::write(&settings, r#"{"skillOverrides": {"beta": "off"}}"#).unwrap();
    let seen = next_change(&rx);
    assert!(seen.contains(&settings), "{seen:?}");
    let after = home.again(&home.scan(), &seen);
    let beta = after.skills.iter().find(|s| s.name == "beta").unwrap();
    assert!(!beta.disabled_for().is_empty(), "{beta:?}");
}

/// The watching thread's count of voluntary context switches: how often it woke.
#[cfg(target_os = "linux")]
fn watch_thread_wakeups() -> u64 {
    let mut found = None;
    for task in fs::read_dir("/proc/self/task").unwrap().flatten() {
        let comm = fs::read_to_string(task.path().join("comm")).unwrap_or_default();
        if comm.trim() == "skilldeck-watch" {
            let status = fs::read_to_string(task.path().join("status")).unwrap();
            let switches = status
                .lines()
                .find_map(|l| l.strip_prefix("voluntary_ctxt_switches:"))
                .unwrap()
                .trim()
                .parse()
                .unwrap();
            assert!(found.is_none(), "one watching thread in this test");
            found = Some(switches);
        }
    }
    found.expect("the watching thread runs")
}

#[cfg(target_os = "linux")]
#[test]
fn the_watching_thread_blocks_while_nothing_changes() {
    // Alone in its own process's view: other tests' watchers run in threads of the same name,
    // so this one runs its watcher in a child of the test binary.
    if std::env::var_os("SKILLDECK_WATCH_CHILD").is_none() {
        let status = std::process::Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "live::the_watching_thread_blocks_while_nothing_changes",
                "--test-threads=1",
            ])
            .env("SKILLDECK_WATCH_CHILD", "1")
            .status()
            .unwrap();
        assert!(status.success());
        return;
    }
    let home = Home::new();
    let (_watcher, _rx) = watching(&home);
    // What the system tells about the same folders, counted by a watch of the test's own: the
    // walks above the project (Amp's reach every parent) take in a shared /tmp that other tests
    // keep busy, and each of its events may wake the watching thread once.
    let told = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
    let _counting = counting_watch(&home, std::sync::Arc::clone(&told));
    // Placing the watches reads the folders, and the system reports those reads, which the
    // thread takes and drops; then nothing happens.
    let pause = std::time::Duration::from_millis(500);
    std::thread::sleep(pause);
    let before = watch_thread_wakeups();
    let told_before = told.load(std::sync::atomic::Ordering::SeqCst);
    // A second passes. A thread on a timer would wake every tick (a debouncer's, a quarter of
    // its 40 ms timeout: 100 times); this one wakes only for an event.
    std::thread::sleep(pause * 2);
    let woken = watch_thread_wakeups() - before;
    let events = told.load(std::sync::atomic::Ordering::SeqCst) - told_before;
    // Each event may wake it twice: when it comes, and when the quiet after it has lasted.
    assert!(
        woken < 10 + 2 * events,
        "the watching thread woke {woken} times in a second, for {events} events"
    );
}

/// A watch of everything the app's watcher watches, counting the events the system sends.
#[cfg(target_os = "linux")]
fn counting_watch(
    home: &Home,
    told: std::sync::Arc<std::sync::atomic::AtomicU64>,
) -> notify::RecommendedWatcher {
    use notify::Watcher as _;
    let mut watch = notify::recommended_watcher(move |_: notify::Result<notify::Event>| {
        told.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    })
    .unwrap();
    let watched = scan::watched(&home.env(), &home.project, &home.scan());
    for dir in &watched.skills {
        let _ = watch.watch(dir, notify::RecursiveMode::Recursive);
    }
    for path in watched.folders.iter().chain(&watched.awaited) {
        if let Some(existing) = path.ancestors().find(|dir| dir.exists()) {
            let _ = watch.watch(existing, notify::RecursiveMode::NonRecursive);
        }
    }
    watch
}

#[test]
fn the_live_app_shows_an_edit_as_drift_keeping_the_cursor() {
    let home = Home::new();
    let terminal = test_terminal(100, 20);
    let mut app = Headless::new(terminal, App::new(Setup::default()), home.machine())
        .unwrap()
        .live()
        .unwrap();
    app.start().unwrap();
    while app.app().live.watch.is_none() {
        assert!(app.runtime.pump_waiting(PATIENCE), "the watch is placed");
    }
    app.press("j").unwrap();
    let selected = app.app().selected_skill().unwrap().name.clone();
    assert_eq!(selected, "beta");
    fs::write(home.dir("alpha").join("references/guide.md"), "Edited.\n").unwrap();
    let drifted = |app: &Headless| {
        app.app()
            .deck
            .skills
            .iter()
            .any(|s| s.name == "alpha" && s.state == State::Modified)
    };
    while !drifted(&app) {
        assert!(app.runtime.pump_waiting(PATIENCE), "the change arrives");
    }
    app.settle().unwrap();
    assert_eq!(app.app().selected_skill().unwrap().name, "beta");
    let text = app.text();
    let row = text.lines().find(|l| l.contains("alpha")).unwrap();
    assert!(
        row.contains(skilldeck::tui::theme::state_marker(State::Modified)),
        "{text}"
    );
}

/// The last path part of each of `dirs`.
fn last_names(dirs: &[PathBuf]) -> Vec<String> {
    dirs.iter()
        .map(|dir| dir.file_name().unwrap().to_string_lossy().into_owned())
        .collect()
}

/// What a rescan found, as names: the skills there, those read again, those gone, and those
/// changed since their snapshots (or since installed).
type Found = (Vec<String>, Vec<String>, Vec<String>, Vec<String>);

fn found(rescanned: &live::Rescanned) -> Found {
    let changed: Vec<PathBuf> = rescanned
        .found
        .changed
        .iter()
        .map(|c| c.dir.clone())
        .collect();
    (
        names(&rescanned.inventory)
            .into_iter()
            .map(str::to_owned)
            .collect(),
        last_names(&rescanned.rescanned),
        last_names(&rescanned.gone),
        last_names(&changed),
    )
}

fn description(inventory: &Inventory, name: &str) -> Option<String> {
    let skill = inventory.skills.iter().find(|s| s.name == name).unwrap();
    skill.declared.description.clone()
}

#[test]
fn a_rescan_reads_again_only_the_skills_told_from_the_kept_inventory_and_compares_only_them() {
    let home = Home::new();
    let machine = home.machine();
    let watcher = Watcher::start(|_| true).unwrap();
    watcher.keep(&machine, home.scan());
    // alpha drifts from its record, gamma goes, delta comes; beta changes too, untold.
    fs::write(home.dir("alpha").join("references/guide.md"), "Edited.\n").unwrap();
    fs::write(
        home.dir("beta").join("SKILL.md"),
        "---\nname: beta\n---\nEdited.\n",
    )
    .unwrap();
    fs::remove_dir_all(home.dir("gamma")).unwrap();
    home.plain("delta");
    let told = [
        home.dir("alpha").join("references/guide.md"),
        home.dir("gamma"),
        home.dir("delta"),
    ];
    let (rescan, beta) = live::rescan(&machine, Some(&watcher), &told, |r| {
        (found(r), description(&r.inventory, "beta"))
    })
    .unwrap();
    assert_eq!(
        rescan,
        (
            vec!["alpha".into(), "beta".into(), "delta".into()],
            vec!["alpha".into(), "delta".into()],
            vec!["gamma".into()],
            vec!["alpha".into()],
        )
    );
    // beta was not read again: it stands as the kept inventory had it.
    assert_eq!(beta.as_deref(), Some("The beta skill."));
    // The next rescan starts from this one's inventory: told of nothing, it reads nothing.
    let next = live::rescan(&machine, Some(&watcher), &[], found).unwrap();
    assert_eq!(next.0, ["alpha", "beta", "delta"]);
    assert!(next.1.is_empty() && next.2.is_empty(), "{next:?}");
}

#[test]
fn without_a_watcher_a_rescan_scans_everything_and_compares_the_skills_told() {
    let home = Home::new();
    fs::write(home.dir("alpha").join("references/guide.md"), "Edited.\n").unwrap();
    fs::write(
        home.dir("beta").join("SKILL.md"),
        "---\nname: beta\n---\nEdited.\n",
    )
    .unwrap();
    let told = [home.dir("alpha")];
    let (rescan, beta) = live::rescan(&home.machine(), None, &told, |r| {
        (found(r), description(&r.inventory, "beta"))
    })
    .unwrap();
    assert_eq!(rescan.0, ["alpha", "beta", "gamma"]);
    assert_eq!(
        (rescan.1, rescan.3),
        (vec!["alpha".into()], vec!["alpha".into()])
    );
    assert!(rescan.2.is_empty(), "nothing was there before to be gone");
    // A whole scan read beta again.
    assert_eq!(beta, None);
}

#[test]
fn a_rescan_whose_snapshots_cannot_be_read_says_so_and_keeps_the_inventory_it_had() {
    let home = Home::new();
    let machine = home.machine();
    let watcher = Watcher::start(|_| true).unwrap();
    watcher.keep(&machine, home.scan());
    // The snapshot store is a file where its folder belongs.
    let store = home.env().data_dir().join("snapshots");
    fs::create_dir_all(store.parent().unwrap()).unwrap();
    fs::write(&store, "not a folder").unwrap();
    fs::write(
        home.dir("beta").join("SKILL.md"),
        "---\nname: beta\n---\nEdited.\n",
    )
    .unwrap();
    let error = live::rescan(&machine, Some(&watcher), &[home.dir("beta")], |_| ())
        .expect_err("the store cannot be read");
    assert!(matches!(error, LiveError::Snapshots(_)), "{error:?}");
    let sentence = error.to_string();
    assert!(
        sentence.starts_with("The snapshots could not be read: "),
        "{sentence}"
    );
    // Nothing was kept of the failed rescan: the next, told of nothing, still has beta as the
    // scan read it; told of beta again, it reads the edit.
    fs::remove_file(&store).unwrap();
    let beta = |dirs: &[PathBuf]| {
        live::rescan(&machine, Some(&watcher), dirs, |r| {
            description(&r.inventory, "beta")
        })
        .unwrap()
    };
    assert_eq!(beta(&[]).as_deref(), Some("The beta skill."));
    assert_eq!(beta(&[home.dir("beta")]), None);
}
