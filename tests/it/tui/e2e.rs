//! The real binary in a real terminal: tmux runs `skilldeck` on a fixture machine, keys are
//! typed into it, and the screen is read back. Every wait is for something to appear on the
//! screen, with a deadline; nothing sleeps for a fixed time. After quitting, the terminal must
//! be as it was: the alternate screen left, the mouse off, the shell's text back and the tty
//! settings unchanged.
//!
//! Also: an import driven through the picker, the preview and the destination to the result,
//! with Esc at each step writing nothing; a skill imported from a git repository and updated
//! with `U` after upstream moved; and SIGTERM, SIGHUP and a panic inside the app
//! leaving the terminal restored (the panic through a debug build's
//! `SKILLDECK_DEBUG_PANIC_KEY`), and the demo's sandbox deleted on a signal.
//!
//! Needs tmux (`.ci/run` installs it), so Unix.
#![cfg(unix)]

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use crate::common::{Machine, write_files};
use skilldeck::record::digest_of;

const DEADLINE: Duration = Duration::from_secs(30);
const POLL: Duration = Duration::from_millis(40);

/// A tmux server of our own (its own socket), killed when dropped.
struct Tmux {
    socket: PathBuf,
}

impl Tmux {
    /// Start `command` (run by `sh -c`) in a detached session of `width`×`height` in `dir`.
    fn start(socket: PathBuf, dir: &Path, width: u16, height: u16, command: &str) -> Self {
        let tmux = Self { socket };
        let output = tmux.run(&[
            "-f",
            "/dev/null",
            "new-session",
            "-d",
            "-x",
            &width.to_string(),
            "-y",
            &height.to_string(),
            "-c",
            &dir.display().to_string(),
            command,
        ]);
        assert!(output.status.success(), "tmux did not start: {output:?}");
        tmux
    }

    fn run(&self, args: &[&str]) -> Output {
        Command::new("tmux")
            .arg("-S")
            .arg(&self.socket)
            .args(args)
            .output()
            .unwrap_or_else(|error| {
                panic!("tmux could not be run ({error}); install it: apt-get install -y tmux")
            })
    }

    fn screen(&self) -> String {
        let output = self.run(&["capture-pane", "-p", "-t", "0"]);
        String::from_utf8_lossy(&output.stdout).into_owned()
    }

    /// The screen with its attributes as escape sequences.
    fn styled_screen(&self) -> String {
        let output = self.run(&["capture-pane", "-p", "-e", "-t", "0"]);
        String::from_utf8_lossy(&output.stdout).into_owned()
    }

    /// A value of the pane, such as `#{alternate_on}`.
    fn pane(&self, format: &str) -> String {
        let output = self.run(&["display-message", "-p", "-t", "0", format]);
        String::from_utf8_lossy(&output.stdout).trim().to_owned()
    }

    fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", "0"];
        args.extend_from_slice(keys);
        assert!(self.run(&args).status.success());
    }

    /// Wait until the screen satisfies `ready`, and return it.
    fn wait_for(&self, what: &str, ready: impl Fn(&str) -> bool) -> String {
        let started = Instant::now();
        loop {
            let screen = self.screen();
            if ready(&screen) {
                return screen;
            }
            assert!(
                started.elapsed() < DEADLINE,
                "waited {DEADLINE:?} for {what}; the screen is:\n{screen}"
            );
            std::thread::sleep(POLL);
        }
    }

    /// Wait until a pane value is `want`.
    fn wait_pane(&self, format: &str, want: &str) {
        let started = Instant::now();
        while self.pane(format) != want {
            assert!(
                started.elapsed() < DEADLINE,
                "waited {DEADLINE:?} for {format} to be {want}; the screen is:\n{}",
                self.screen()
            );
            std::thread::sleep(POLL);
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.run(&["kill-server"]);
    }
}

/// A `SKILL.md` with an installer's record sealed over `files` (digest filled in).
fn sealed_skill(dir: &Path, name: &str, extra: &[(&str, &str)]) {
    let manifest = format!(
        "---\nname: \"{name}\"\ndescription: \"The {name} skill.\"\nmetadata:\n  installed-by: \"e2e\"\n  installed-version: \"1.0.0\"\n  content-digest: \"\"\n---\n# {name}\n"
    );
    let mut files: Vec<(&Path, &[u8])> = vec![(Path::new("SKILL.md"), manifest.as_bytes())];
    files.extend(extra.iter().map(|(p, c)| (Path::new(*p), c.as_bytes())));
    let digest = digest_of(files);
    let manifest = manifest.replacen(
        "content-digest: \"\"",
        &format!("content-digest: \"{digest}\""),
        1,
    );
    write_files(dir, &[("SKILL.md", &manifest)]);
    write_files(dir, extra);
}

/// Three skills: one intact, one drifted, one without a record.
fn fixture() -> Machine {
    let machine = Machine::new();
    let skills = machine.home.join(".claude/skills");
    crate::common::write_skill(&skills.join("alpha-notes"), &[]);
    sealed_skill(&skills.join("bravo-intact"), "bravo-intact", &[]);
    sealed_skill(
        &skills.join("charlie-drifted"),
        "charlie-drifted",
        &[("notes.md", "as installed\n")],
    );
    fs::write(skills.join("charlie-drifted/notes.md"), "edited since\n").unwrap();
    machine
}

/// The shell line that runs skilldeck on `machine` with `args`, keeping the tty settings from
/// before and after in files and printing a marker on each side.
/// skilldeck with `args` and the variables `env` on `machine`, in a 100×30 tmux session.
fn open_on(machine: &Machine, env: &str, args: &str) -> Tmux {
    let socket = machine.root().join("tmux.sock");
    // A session before on the same machine has quit; its server goes with the old `Tmux`.
    let _ = fs::remove_file(&socket);
    let command = session_command(machine, env, args);
    Tmux::start(socket, &machine.start, 100, 30, &command)
}

fn session_command(machine: &Machine, env: &str, args: &str) -> String {
    let root = machine.root();
    format!(
        "env -i {env} HOME='{home}' SKILLDECK_SYSTEM_ROOT='{system}' PATH='{path}' TERM=tmux-256color \
         sh -c 'stty -g > {root}/stty-before; echo SHELL-BEFORE-THE-APP; \
         {bin} {args}; echo \"APP-EXITED=$?\"; stty -g > {root}/stty-after; exec sleep 600'",
        home = machine.home.display(),
        system = machine.system.display(),
        path = std::env::var("PATH").unwrap_or_default(),
        root = root.display(),
        bin = env!("CARGO_BIN_EXE_skilldeck"),
    )
}

fn assert_restored(tmux: &Tmux, root: &Path) {
    assert_restored_after(tmux, root, 0);
}

/// The app exited with `code`, and the terminal is as it was before it started.
fn assert_restored_after(tmux: &Tmux, root: &Path, code: i32) -> String {
    let screen = tmux.wait_for("the app to exit", |s| s.contains("APP-EXITED="));
    assert!(screen.contains(&format!("APP-EXITED={code}")), "{screen}");
    assert_eq!(
        tmux.pane("#{alternate_on}"),
        "0",
        "still on the alternate screen"
    );
    assert_eq!(
        tmux.pane("#{mouse_any_flag}"),
        "0",
        "mouse reporting left on"
    );
    assert_eq!(
        tmux.pane("#{cursor_flag}"),
        "1",
        "the cursor is still hidden"
    );
    // The shell's text from before the app is on the screen again.
    assert!(screen.contains("SHELL-BEFORE-THE-APP"), "{screen}");
    // The shell makes the file before `stty -g` writes its line into it: wait for the line.
    tmux.wait_for("the tty settings to be saved", |_| {
        fs::read_to_string(root.join("stty-after")).is_ok_and(|s| s.ends_with('\n'))
    });
    let before = fs::read_to_string(root.join("stty-before")).unwrap();
    let after = fs::read_to_string(root.join("stty-after")).unwrap();
    assert_eq!(
        before, after,
        "the tty settings changed (raw mode left on?)"
    );
    screen
}

#[test]
fn browse_filter_help_quit_and_the_terminal_is_restored() {
    let machine = fixture();
    let tmux = open_on(&machine, "", "");

    // The list, once the scan is done.
    let screen = tmux.wait_for("the skill list", |s| {
        s.contains("Skills 3/3") && s.contains("Found 3 skills")
    });
    assert!(screen.contains("alpha-notes") && screen.contains("charlie-drifted"));
    assert_eq!(tmux.pane("#{alternate_on}"), "1");
    assert_eq!(
        tmux.pane("#{mouse_any_flag}"),
        "0",
        "the mouse is off by default"
    );
    tmux.wait_for("alpha's detail", |s| {
        s.contains("The alpha-notes skill, for tests.")
    });

    // Move: the detail follows the cursor.
    tmux.keys(&["j"]);
    tmux.wait_for("bravo's detail", |s| {
        s.contains("The bravo-intact skill.") && s.contains("files match the record")
    });

    // Only the modified skills.
    tmux.keys(&["d"]);
    let screen = tmux.wait_for("the modified filter", |s| {
        s.contains("Skills 1/3 · modified") && s.contains("files differ from its record")
    });
    assert!(!screen.contains("alpha-notes"), "{screen}");
    assert!(screen.contains("charlie-drifted"), "{screen}");

    // Help, then back.
    tmux.keys(&["?"]);
    tmux.wait_for("the help screen", |s| s.contains("Help: keys and markers"));
    tmux.keys(&["Escape"]);
    tmux.wait_for("the help to close", |s| {
        !s.contains("Help: keys and markers") && s.contains("Skills 1/3")
    });

    tmux.keys(&["q"]);
    assert_restored(&tmux, &machine.root());
}

/// `E` hands the terminal to `$EDITOR` and takes it back, as lazygit does: the editor runs
/// on the main screen in cooked mode (it reads a line typed with Enter), the app comes back on
/// its alternate screen and scans again, so the edit shows as drift; an editor that does not
/// start is a sentence, and the terminal is the app's again either way.
#[test]
fn the_editor_gets_the_terminal_and_the_app_takes_it_back() {
    let machine = fixture();
    let root = machine.root();
    let editor = root.join("editor.sh");
    fs::write(
        &editor,
        format!(
            "#!/bin/sh\n\
             if [ -e '{root}/fail' ]; then exit 127; fi\n\
             printf '\\nedited by the test\\n' >> \"$1\"\n\
             echo \"EDITOR-WAITING $(basename \"$(dirname \"$1\")\")\"\n\
             read answer\n\
             echo \"$answer\" > '{root}/answer'\n",
            root = root.display()
        ),
    )
    .unwrap();
    let mut permissions = fs::metadata(&editor).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut permissions, 0o755);
    fs::set_permissions(&editor, permissions).unwrap();
    let tmux = open_on(&machine, &format!("EDITOR='{}'", editor.display()), "");
    tmux.wait_for("the skill list", |s| s.contains("Found 3 skills"));
    tmux.keys(&["j"]);
    tmux.wait_for("bravo's detail", |s| s.contains("files match the record"));

    tmux.keys(&["E"]);
    tmux.wait_for("the editor", |s| s.contains("EDITOR-WAITING bravo-intact"));
    assert_eq!(
        tmux.pane("#{alternate_on}"),
        "0",
        "the editor is not on the main screen"
    );
    tmux.keys(&["ok", "Enter"]);
    let screen = tmux.wait_for("the app back, the edit seen as drift", |s| {
        s.contains("Back from the editor") && s.contains("files differ from its record")
    });
    assert!(screen.contains("bravo-intact"), "{screen}");
    assert_eq!(tmux.pane("#{alternate_on}"), "1");
    // The editor read its line as a shell would give it: the terminal was not raw.
    assert_eq!(fs::read_to_string(root.join("answer")).unwrap(), "ok\n");
    let manifest =
        fs::read_to_string(machine.home.join(".claude/skills/bravo-intact/SKILL.md")).unwrap();
    assert!(manifest.ends_with("edited by the test\n"), "{manifest}");

    // An editor that cannot start: a sentence, over the app, on its own screen.
    fs::write(root.join("fail"), "").unwrap();
    tmux.keys(&["E"]);
    tmux.wait_for("the sentence", |s| s.contains("could not be started"));
    assert_eq!(tmux.pane("#{alternate_on}"), "1");
    tmux.keys(&["Escape"]);
    tmux.wait_for("the message to close", |s| {
        !s.contains("could not be started")
    });
    tmux.keys(&["q"]);
    assert_restored(&tmux, &root);
}

#[test]
fn the_mouse_flag_and_key_switch_reporting_and_quitting_turns_it_off() {
    let machine = fixture();
    let tmux = open_on(&machine, "", "--mouse");
    tmux.wait_for("the skill list", |s| s.contains("Found 3 skills"));
    tmux.wait_pane("#{mouse_any_flag}", "1");
    tmux.keys(&["m"]);
    tmux.wait_for("the mouse-off note", |s| s.contains("Mouse off"));
    tmux.wait_pane("#{mouse_any_flag}", "0");
    tmux.keys(&["m"]);
    tmux.wait_for("the mouse-on note", |s| s.contains("Mouse on"));
    tmux.wait_pane("#{mouse_any_flag}", "1");
    // Ctrl-C quits from the search line, where q would be typed.
    tmux.keys(&["/", "q"]);
    tmux.wait_for("q typed into the search", |s| s.contains("/q"));
    tmux.keys(&["C-c"]);
    assert_restored(&tmux, &machine.root());
}

/// The SGR attributes captured text sets, each colour (`38;5;n`, `48;2;r;g;b`) as its
/// leading 38 or 48.
fn sgr_params(styled: &str) -> Vec<u16> {
    let mut out = Vec::new();
    for sequence in styled.split("\u{1b}[").skip(1) {
        let params: Vec<u16> = sequence
            .split('m')
            .next()
            .unwrap_or("")
            .split(';')
            .filter_map(|p| p.parse().ok())
            .collect();
        let mut i = 0;
        while i < params.len() {
            out.push(params[i]);
            i += match (params[i], params.get(i + 1)) {
                (38 | 48, Some(5)) => 3,
                (38 | 48, Some(2)) => 5,
                _ => 1,
            };
        }
    }
    out
}

/// Whether captured text sets a foreground or background colour (SGR 30-38, 40-48, 90-97,
/// 100-107).
fn has_colour(styled: &str) -> bool {
    sgr_params(styled)
        .into_iter()
        .any(|p| matches!(p, 30..=38 | 40..=48 | 90..=97 | 100..=107))
}

#[test]
fn no_color_is_respected() {
    let machine = fixture();
    for (env, coloured) in [("", true), ("NO_COLOR=1", false)] {
        let _ = fs::remove_file(machine.root().join("stty-after"));
        let tmux = open_on(&machine, env, "");
        tmux.wait_for("the skill list", |s| s.contains("Found 3 skills"));
        let styled = tmux.styled_screen();
        assert_eq!(has_colour(&styled), coloured, "{env:?}:\n{styled}");
        // The state markers say the same without colour, and the selected row (the first
        // skill) stands out in reverse video rather than by a background colour.
        assert!(styled.contains('▲') && styled.contains('●') && styled.contains('○'));
        let selected_row = styled
            .lines()
            .find(|l| l.contains("alpha-notes") && l.contains("user"))
            .unwrap();
        assert_eq!(
            sgr_params(selected_row).contains(&7),
            !coloured,
            "{env:?}: {selected_row:?}"
        );
        tmux.keys(&["q"]);
        assert_restored(&tmux, &machine.root());
    }
}

#[test]
fn the_demo_runs_from_any_directory_and_is_deleted_on_exit() {
    let (machine, temp, tmux) = demo_from_root();
    let screen = tmux.wait_for("the demo's skills", |s| {
        s.contains("Found 15 skills") && s.contains("release-notes")
    });
    assert!(screen.contains("demo sandbox"), "{screen}");
    let sandboxes: Vec<_> = fs::read_dir(&temp).unwrap().collect();
    assert_eq!(sandboxes.len(), 1, "one sandbox while the demo runs");
    tmux.keys(&["q"]);
    let screen = tmux.wait_for("the demo to exit", |s| s.contains("APP-EXITED="));
    assert!(screen.contains("APP-EXITED=0"), "{screen}");
    assert_eq!(
        fs::read_dir(&temp).unwrap().count(),
        0,
        "the sandbox was left behind"
    );
    drop(machine);
}

/// `skilldeck --demo` started from `/` on a machine whose temporary directory is its `tmp`
/// (returned, to count the sandboxes in), in a 120×40 session.
fn demo_from_root() -> (Machine, PathBuf, Tmux) {
    let machine = Machine::new();
    let temp = machine.root().join("tmp");
    fs::create_dir_all(&temp).unwrap();
    let command = format!(
        "env -i HOME='{home}' TMPDIR='{temp}' PATH='{path}' TERM=tmux-256color \
         sh -c 'echo SHELL-BEFORE-THE-APP; {bin} --demo; echo \"APP-EXITED=$?\"; exec sleep 600'",
        home = machine.home.display(),
        temp = temp.display(),
        path = std::env::var("PATH").unwrap_or_default(),
        bin = env!("CARGO_BIN_EXE_skilldeck"),
    );
    let tmux = Tmux::start(
        machine.root().join("tmux.sock"),
        Path::new("/"),
        120,
        40,
        &command,
    );
    (machine, temp, tmux)
}

#[test]
fn without_a_terminal_the_app_says_what_to_use_instead() {
    let machine = fixture();
    let output = machine.run(&[]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("needs a terminal"), "{stderr}");
    assert!(stderr.contains("skilldeck list"), "{stderr}");
}

#[test]
fn app_options_with_a_subcommand_or_a_project_are_refused() {
    let machine = fixture();
    for args in [
        &["--demo", "list"][..],
        &["--mouse", "check"],
        &["--demo", "--project", "."],
    ] {
        let output = machine.run(args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            stderr.contains("--demo") || stderr.contains("--mouse"),
            "{stderr}"
        );
    }
}

/// The process id of the app: the one child of the pane's shell.
fn app_pid(tmux: &Tmux) -> String {
    let shell = tmux.pane("#{pane_pid}");
    let started = Instant::now();
    loop {
        let children =
            fs::read_to_string(format!("/proc/{shell}/task/{shell}/children")).unwrap_or_default();
        if let Some(pid) = children.split_whitespace().next() {
            return pid.to_owned();
        }
        assert!(
            started.elapsed() < DEADLINE,
            "the app's process was not found"
        );
        std::thread::sleep(POLL);
    }
}

fn kill(signal: &str, pid: &str) {
    let status = Command::new("sh")
        .args(["-c", &format!("kill -{signal} {pid}")])
        .status()
        .unwrap();
    assert!(status.success(), "kill -{signal} {pid}");
}

#[test]
fn sigterm_and_sighup_leave_the_terminal_restored() {
    let machine = fixture();
    for (signal, code) in [("TERM", 143), ("HUP", 129)] {
        let _ = fs::remove_file(machine.root().join("stty-after"));
        let tmux = open_on(&machine, "", "--mouse");
        tmux.wait_for("the skill list", |s| s.contains("Found 3 skills"));
        tmux.wait_pane("#{mouse_any_flag}", "1");
        kill(signal, &app_pid(&tmux));
        assert_restored_after(&tmux, &machine.root(), code);
    }
}

/// A terminal that goes away (its tmux server killed) hangs up on the app, whose input wait
/// then never returns (crossterm#793): the app must still end, not spin on the dead terminal.
#[test]
fn the_app_ends_when_its_terminal_goes_away() {
    let machine = fixture();
    let tmux = open_on(&machine, "", "");
    tmux.wait_for("the skill list", |s| s.contains("Found 3 skills"));
    let pid = app_pid(&tmux);
    let _ = tmux.run(&["kill-server"]);
    let proc_dir = PathBuf::from(format!("/proc/{pid}"));
    let started = std::time::Instant::now();
    while proc_dir.exists() && !is_zombie(&proc_dir) {
        if started.elapsed() > DEADLINE {
            kill("KILL", &pid);
            panic!("the app was still running {DEADLINE:?} after its terminal went away");
        }
        std::thread::sleep(POLL);
    }
}

/// Whether the process at `/proc/<pid>` has ended and only waits to be reaped.
fn is_zombie(proc_dir: &Path) -> bool {
    fs::read_to_string(proc_dir.join("stat")).is_ok_and(|stat| {
        stat.rsplit_once(") ")
            .is_some_and(|(_, rest)| rest.starts_with('Z'))
    })
}

#[test]
fn a_panic_inside_the_app_leaves_the_terminal_restored() {
    let machine = fixture();
    let tmux = open_on(&machine, "SKILLDECK_DEBUG_PANIC_KEY=%", "--mouse");
    tmux.wait_for("the skill list", |s| s.contains("Found 3 skills"));
    tmux.wait_pane("#{mouse_any_flag}", "1");
    tmux.keys(&["%"]);
    let screen = assert_restored_after(&tmux, &machine.root(), 101);
    // The panic is told after the terminal is back, where it can be read.
    assert!(
        screen.contains("the panic asked for by SKILLDECK_DEBUG_PANIC_KEY"),
        "{screen}"
    );
}

#[test]
fn the_demo_sandbox_is_deleted_on_sigterm() {
    let (_machine, temp, tmux) = demo_from_root();
    tmux.wait_for("the demo's skills", |s| s.contains("release-notes"));
    assert_eq!(fs::read_dir(&temp).unwrap().count(), 1);
    kill("TERM", &app_pid(&tmux));
    let screen = tmux.wait_for("the demo to exit", |s| s.contains("APP-EXITED="));
    assert!(screen.contains("APP-EXITED=143"), "{screen}");
    assert_eq!(
        fs::read_dir(&temp).unwrap().count(),
        0,
        "the sandbox was left behind"
    );
}

/// A machine with an archive of two skills in `~/Downloads`.
fn with_an_archive() -> Machine {
    let machine = fixture();
    let archive = crate::common::archive::Tar::new()
        .file("pack/README.md", "left out\n")
        .skill("pack/skills/alpha-import")
        .skill("pack/skills/bravo-import")
        .executable("pack/skills/bravo-import/scripts/run.sh", "#!/bin/sh\n")
        .end()
        .gz();
    let downloads = machine.home.join("Downloads");
    fs::create_dir_all(&downloads).unwrap();
    fs::write(downloads.join("pack.tar.gz"), archive).unwrap();
    machine
}

#[test]
fn import_pick_preview_install_and_cancel_at_each_step() {
    let machine = with_an_archive();
    let skills = machine.home.join(".claude/skills");
    let before = crate::common::snapshot(&machine.home);
    let tmux = open_on(&machine, "", "");
    tmux.wait_for("the skill list", |s| s.contains("Found 3 skills"));
    let cancelled = |step: &str| {
        tmux.keys(&["Escape"]);
        tmux.wait_for(step, |s| {
            s.contains("Import cancelled; nothing was written.")
        });
        assert_eq!(
            crate::common::snapshot(&machine.home),
            before,
            "{step} wrote something"
        );
    };

    // The picker opens in ~/Downloads.
    tmux.keys(&["i"]);
    tmux.wait_for("the picker", |s| {
        s.contains("~/Downloads") && s.contains("pack.tar.gz")
    });
    cancelled("cancel in the picker");

    // The preview: both skills, their files, what is left out.
    tmux.keys(&["i"]);
    tmux.wait_for("the picker", |s| s.contains("pack.tar.gz"));
    tmux.keys(&["p", "a", "c", "k", "Enter"]);
    tmux.wait_for("the preview", |s| {
        s.contains("alpha-import")
            && s.contains("bravo-import")
            && s.contains("executable")
            && s.contains("pack/README.md")
    });
    cancelled("cancel in the preview");

    // The destination.
    tmux.keys(&["i"]);
    tmux.wait_for("the picker", |s| s.contains("pack.tar.gz"));
    tmux.keys(&["p", "a", "c", "k", "Enter"]);
    tmux.wait_for("the preview", |s| s.contains("alpha-import"));
    tmux.keys(&["Enter"]);
    tmux.wait_for("the destinations", |s| {
        s.contains("SKILLS FOLDER") && s.contains("~/.claude/skills")
    });
    cancelled("cancel at the destination");

    // All the way: installed into Claude Code's folder for this user.
    tmux.keys(&["i"]);
    tmux.wait_for("the picker", |s| s.contains("pack.tar.gz"));
    tmux.keys(&["p", "a", "c", "k", "Enter"]);
    tmux.wait_for("the preview", |s| s.contains("alpha-import"));
    tmux.keys(&["Enter"]);
    tmux.wait_for("the destinations", |s| s.contains("SKILLS FOLDER"));
    tmux.keys(&["Enter"]);
    tmux.wait_for("the result", |s| {
        s.contains("installed") && s.contains("alpha-import at ~/.claude/skills/alpha-import")
    });
    for name in ["alpha-import", "bravo-import"] {
        let manifest = fs::read_to_string(skills.join(name).join("SKILL.md")).unwrap();
        assert!(
            manifest.contains("installed-by: \"skilldeck\""),
            "{manifest}"
        );
    }
    tmux.keys(&["Enter"]);
    tmux.wait_for("the list scanned again", |s| s.contains("Found 5 skills"));
    tmux.keys(&["q"]);
    assert_restored(&tmux, &machine.root());
}

/// The batch path end to end: two skills marked with Space, snapshotted with one question and
/// one progress, the summary read, both snapshots in the store; then the copies of a shadowed
/// name (the user's alpha-notes wins over a project copy for Claude Code).
#[test]
fn mark_two_snapshot_both_at_once_and_open_the_copies_of_a_shadowed_name() {
    let machine = fixture();
    let project_copy = machine.repo.join(".claude/skills/alpha-notes");
    crate::common::write_skill(&project_copy, &[]);
    let tmux = open_on(&machine, "", "");
    tmux.wait_for("the skill list", |s| s.contains("Found 4 skills"));
    tmux.keys(&["Space", "Space"]);
    tmux.wait_for("two skills marked", |s| s.contains("2 marked"));
    tmux.keys(&["s"]);
    tmux.wait_for("the one question", |s| s.contains("Snapshot 2 skills?"));
    tmux.keys(&["y"]);
    let summary = tmux.wait_for("the summary", |s| {
        s.contains("Snapshotting: 2 of 2 done") && s.contains("Found 4 skills")
    });
    assert_eq!(summary.matches("kept as snapshot").count(), 2, "{summary}");
    let store = skilldeck::snapshot::Store::open(&machine.env());
    let user_copy = machine.home.join(".claude/skills/alpha-notes");
    for dir in [&user_copy, &project_copy] {
        assert!(
            store.latest(dir).unwrap().is_some(),
            "no snapshot of {}",
            dir.display()
        );
    }
    tmux.keys(&["Enter"]);
    tmux.wait_for("the marks gone", |s| {
        !s.contains("2 marked") && !s.contains("Snapshotting")
    });
    tmux.keys(&["g", "S"]);
    // A capture can land while a frame is being written: wait for the whole view, the copy
    // that loses included, before asserting on it.
    let copies = tmux.wait_for("the copies of alpha-notes", |s| {
        s.contains("Copies of alpha-notes: 2") && s.contains("loses for")
    });
    assert!(copies.contains("loses for"), "{copies}");
    // Esc and q sent together would read as Alt-q.
    tmux.keys(&["Escape"]);
    tmux.wait_for("the copies to close", |s| !s.contains("Copies of"));
    tmux.keys(&["q"]);
    assert_restored(&tmux, &machine.root());
}

/// Issue 14's acceptance: in the history view an older snapshot is chosen and restored (after
/// the question), the result names the snapshot that now holds what it replaced, the folder on
/// disk holds the older content; then undo (after its question) puts the newer content back.
#[test]
fn an_older_snapshot_restored_from_the_history_and_undone() {
    use skilldeck::snapshot::Store;

    let machine = Machine::new();
    let skill = machine.home.join(".claude/skills/notes");
    crate::common::write_skill(&skill, &[("notes.md", "the first version\n")]);
    let store = Store::open(&machine.env());
    // Two snapshots of different content: the older one is what gets restored.
    let older = store
        .take(&skill, skilldeck::snapshot::Reason::Manual)
        .unwrap()
        .snapshot;
    fs::write(skill.join("notes.md"), "the second version\n").unwrap();
    let newer = store
        .take(&skill, skilldeck::snapshot::Reason::Manual)
        .unwrap()
        .snapshot;
    assert_ne!(older.info.digest, newer.info.digest);

    let socket = machine.root().join("tmux.sock");
    let command = session_command(&machine, "", "");
    // Wide enough for the whole result line, which names two snapshots.
    let tmux = Tmux::start(socket, &machine.start, 160, 30, &command);
    tmux.wait_for("the skill list", |s| s.contains("Found 1 skill"));
    tmux.keys(&["h"]);
    tmux.wait_for("the history", |s| {
        s.contains("History of notes") && s.contains("2 snapshots")
    });
    // Newest first: the older one is the second row.
    tmux.keys(&["j"]);
    tmux.wait_for("the older one selected", |s| {
        s.contains(&format!("{}:", older.id))
    });
    tmux.keys(&["R"]);
    // Whole, not half-drawn: the question ends with what is snapshotted first.
    let question = tmux.wait_for("the restore question", |s| {
        s.contains("Restore notes to snapshot") && s.contains("snapshotted first")
    });
    assert!(question.contains(&older.id), "{question}");
    assert!(question.contains("snapshotted first"), "{question}");
    tmux.keys(&["y"]);
    let screen = tmux.wait_for("the restore's result", |s| {
        s.contains("is back to snapshot")
    });
    // What the folder held (the newer content) is the newer snapshot, named in the result.
    assert!(
        screen.contains(&format!("kept as snapshot {}", newer.id)),
        "{screen}"
    );
    assert_eq!(
        fs::read_to_string(skill.join("notes.md")).unwrap(),
        "the first version\n"
    );
    tmux.keys(&["u"]);
    tmux.wait_for("the undo question", |s| {
        s.contains("Undo the last operation?")
    });
    tmux.keys(&["y"]);
    // Every change it put back is listed under what it undid.
    tmux.wait_for("the undo's result", |s| {
        s.contains("Undone:") && s.contains("restored ~/.claude/skills/notes")
    });
    assert_eq!(
        fs::read_to_string(skill.join("notes.md")).unwrap(),
        "the second version\n"
    );
    // q closes the undo's result, q again the history, and q again quits.
    tmux.keys(&["q"]);
    tmux.wait_for("the undo's result to close", |s| !s.contains("Undone:"));
    tmux.keys(&["q"]);
    tmux.wait_for("the history to close", |s| !s.contains("History of notes"));
    tmux.keys(&["q"]);
    assert_restored(&tmux, &machine.root());
}

/// An update end to end: a skill imported through the picker from a local git repository,
/// upstream commits a change, `U` shows what the update does, `y` writes it: the new file is
/// on disk, the local edit kept, and the status line says what was done and that undo puts it
/// back.
#[test]
fn a_skill_imported_from_a_repository_is_updated_with_u() {
    use crate::common::git::{commit, repository};
    let machine = Machine::new();
    fs::create_dir_all(machine.home.join(".claude")).unwrap();
    let repo = machine.root().join("upstream");
    let manifest = |body: &str| {
        format!("---\nname: alpha\ndescription: The alpha skill, for tests.\n---\n{body}\n")
    };
    repository(
        &repo,
        &[
            ("skills/alpha/SKILL.md", &manifest("first")),
            ("skills/alpha/guide.md", "one\ntwo\nthree\n"),
        ],
    );
    let url = format!("file://{}", repo.display());
    let tmux = open_on(&machine, "", "");
    tmux.wait_for("the skill list", |s| s.contains("Found 0 skills"));
    tmux.keys(&["i"]);
    // Typed once the picker is drawn, as a person would (what is typed sooner is kept too:
    // tui::text_fields).
    tmux.wait_for("the picker", |s| s.contains("Pick a folder or archive"));
    tmux.keys(&["-l", &url]);
    tmux.wait_for("the repository typed", |s| {
        s.contains("fetches this repository with your git")
    });
    tmux.keys(&["Enter"]);
    tmux.wait_for("the preview", |s| {
        s.contains("alpha") && s.contains("in skills/")
    });
    tmux.keys(&["Enter"]);
    tmux.wait_for("the destinations", |s| s.contains("SKILLS FOLDER"));
    tmux.keys(&["Enter"]);
    tmux.wait_for("the result", |s| {
        s.contains("alpha at ~/.claude/skills/alpha")
    });
    tmux.keys(&["Enter"]);
    tmux.wait_for("the list scanned again", |s| s.contains("Found 1 skill"));

    // Upstream changes SKILL.md; the guide is edited here.
    let skill = machine.home.join(".claude/skills/alpha");
    fs::write(skill.join("guide.md"), "one\ntwo\nthree, mine\n").unwrap();
    write_files(&repo, &[("skills/alpha/SKILL.md", &manifest("second"))]);
    commit(&repo, "second");

    tmux.keys(&["U"]);
    tmux.wait_for("the question", |s| {
        s.contains("Update alpha from upstream?")
            && s.contains("SKILL.md  took theirs")
            && s.contains("guide.md  kept ours")
    });
    tmux.keys(&["y"]);
    let screen = tmux.wait_for("the update done", |s| {
        s.contains("Updated alpha: 1 file took theirs, 1 kept ours. u puts it back.")
    });
    let written = fs::read_to_string(skill.join("SKILL.md")).unwrap();
    assert!(written.contains("second"), "{written}\n{screen}");
    assert_eq!(
        fs::read_to_string(skill.join("guide.md")).unwrap(),
        "one\ntwo\nthree, mine\n"
    );
    tmux.keys(&["q"]);
    assert_restored(&tmux, &machine.root());
}

#[test]
fn an_edit_from_outside_shows_as_drift_while_the_app_runs() {
    let machine = fixture();
    let tmux = open_on(&machine, "", "");
    tmux.wait_for("the skill list", |s| s.contains("Found 3 skills"));
    let drifted = |s: &str| {
        s.lines().any(|line| {
            line.find("bravo-intact")
                .is_some_and(|at| line[..at].contains('▲'))
        })
    };
    assert!(!drifted(&tmux.screen()));
    // The watch is placed just after the scan, unseen: the file is written until the app shows
    // the change, every write after that a change of its own.
    let notes = machine.home.join(".claude/skills/bravo-intact/notes.md");
    let started = Instant::now();
    let mut edit = 0;
    while !drifted(&tmux.screen()) {
        assert!(
            started.elapsed() < DEADLINE,
            "the edit never showed:\n{}",
            tmux.screen()
        );
        edit += 1;
        fs::write(&notes, format!("edited from outside, {edit}\n")).unwrap();
        std::thread::sleep(POLL * 5);
    }
    tmux.keys(&["q"]);
    assert_restored(&tmux, &machine.root());
}
