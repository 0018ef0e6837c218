//! One rule for replacing a skill folder, forced or as an update, on the command line and in
//! the app: what a snapshot of it would not keep (version-control data, links out, FIFOs) is
//! never deleted, and a refusal says `--force` replaces only what `--force` then does replace.

use std::fs;
#[cfg(unix)]
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};

use skilldeck::operations::import;

#[cfg(unix)]
use crate::common::fifo;
use crate::common::{Machine, snapshot, write_files, write_skill};

struct Setup {
    machine: Machine,
    source: String,
    root: PathBuf,
}

impl Setup {
    /// A bundle with the skill `demo`, imported once.
    fn imported() -> Self {
        let machine = Machine::new();
        let bundle = machine.root().join("bundle/demo");
        write_skill(&bundle, &[("notes.md", "as shipped\n")]);
        let root = machine.home.join(".claude/skills");
        let setup = Self {
            source: bundle.to_str().unwrap().to_owned(),
            machine,
            root,
        };
        let output = setup.import(&[]);
        assert!(output.status.success(), "{output:?}");
        setup
    }

    fn dir(&self) -> PathBuf {
        self.root.join("demo")
    }

    fn import(&self, extra: &[&str]) -> std::process::Output {
        let mut args = vec!["import", &self.source, "--to", self.root.to_str().unwrap()];
        args.extend_from_slice(extra);
        self.machine.run(&args)
    }

    /// Every way of asking: dry run, update, forced, forced dry run; each refused, with
    /// `needle` in its sentence, and the folder left byte for byte as it was.
    fn refused_every_way(&self, case: &str, needle: &str) {
        let before = snapshot(&self.dir());
        for extra in [
            &["--dry-run"][..],
            &[],
            &["--force"],
            &["--force", "--dry-run"],
        ] {
            let output = self.import(extra);
            let stderr = String::from_utf8_lossy(&output.stderr);
            assert_eq!(output.status.code(), Some(1), "{case} {extra:?}: {stderr}");
            assert!(stderr.contains(needle), "{case} {extra:?}: {stderr}");
            assert!(
                !stderr.contains("--force replaces it"),
                "{case} {extra:?}: {stderr}"
            );
            assert_eq!(snapshot(&self.dir()), before, "{case} {extra:?} changed it");
        }
    }
}

#[test]
fn what_no_snapshot_keeps_is_never_replaced() {
    type Plant<'a> = &'a dyn Fn(&Path);
    #[cfg_attr(not(unix), allow(unused_mut))]
    let mut cases: Vec<(&str, Plant)> = vec![
        (".git", &|dir| {
            write_files(dir, &[(".git/config", "[core]\n"), (".git/HEAD", "ref\n")])
        }),
        (".hg", &|dir| write_files(dir, &[(".hg/hgrc", "[paths]\n")])),
        (".svn", &|dir| write_files(dir, &[(".svn/wc.db", "x")])),
    ];
    // Links out and FIFOs are Unix file kinds.
    #[cfg(unix)]
    cases.extend::<Vec<(&str, Plant)>>(vec![
        ("out", &|dir| symlink("/etc", dir.join("out")).unwrap()),
        ("pipe", &|dir| fifo(&dir.join("pipe"))),
    ]);
    for (name, plant) in cases {
        // Planted in an intact copy (an update would replace it) and in an edited one (only
        // --force would).
        for edited in [false, true] {
            let setup = Setup::imported();
            plant(&setup.dir());
            if edited {
                fs::write(setup.dir().join("notes.md"), "my edit\n").unwrap();
            }
            setup.refused_every_way(name, name);
            // The app asks the same operation, and is told it cannot be forced.
            let bundle = skilldeck::bundle::read(Path::new(&setup.source)).unwrap();
            let chosen: Vec<_> = bundle.skills.iter().collect();
            let conflicts = import::conflicts(&setup.root, &chosen).unwrap();
            assert_eq!(conflicts.len(), 1, "{name}");
            assert!(!conflicts[0].1.forcible, "{name}: {:?}", conflicts[0].1);
        }
    }
}

// Every case is a link.
#[cfg(unix)]
#[test]
fn what_force_cannot_replace_is_not_offered_to_force() {
    type Plant<'a> = &'a dyn Fn(&Path, &Path);
    let cases: [(&str, Plant); 4] = [
        ("dangling link", &|dir, _| {
            symlink("/nowhere/at/all", dir).unwrap()
        }),
        ("link to a file", &|dir, spare| {
            fs::write(spare, "a file").unwrap();
            symlink(spare, dir).unwrap();
        }),
        ("link to a plain folder", &|dir, spare| {
            write_files(spare, &[("notes.md", "not a skill\n")]);
            symlink(spare, dir).unwrap();
        }),
        ("folder without SKILL.md", &|dir, _| {
            write_files(dir, &[("notes.md", "mine\n")]);
        }),
    ];
    for (case, plant) in cases {
        let setup = Setup::imported();
        fs::remove_dir_all(setup.dir()).unwrap();
        let spare = setup.machine.root().join("spare");
        plant(&setup.dir(), &spare);
        let before_spare = fs::symlink_metadata(&spare).is_ok().then(|| {
            if spare.is_dir() {
                snapshot(&spare)
            } else {
                Default::default()
            }
        });
        for extra in [&[][..], &["--force"], &["--dry-run", "--force"]] {
            let output = setup.import(extra);
            let stderr = String::from_utf8_lossy(&output.stderr);
            assert_eq!(output.status.code(), Some(1), "{case} {extra:?}: {stderr}");
            assert!(
                !stderr.contains("--force replaces it"),
                "{case} {extra:?}: {stderr}"
            );
            assert!(
                stderr.contains("first"),
                "says what to do: {case}: {stderr}"
            );
        }
        assert!(
            fs::symlink_metadata(setup.dir()).is_ok(),
            "{case} was removed"
        );
        if let Some(before) = before_spare {
            let after = if spare.is_dir() {
                snapshot(&spare)
            } else {
                Default::default()
            };
            assert_eq!(after, before, "{case}: the link's target was touched");
        }
    }
}

#[cfg(unix)]
#[test]
fn a_link_to_a_skill_is_still_replaced_as_a_link_when_forced() {
    let setup = Setup::imported();
    let elsewhere = setup.machine.root().join("elsewhere/demo");
    write_skill(&elsewhere, &[("mine.md", "kept where it is\n")]);
    fs::remove_dir_all(setup.dir()).unwrap();
    symlink(&elsewhere, setup.dir()).unwrap();
    let refused = setup.import(&[]);
    assert_eq!(refused.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("--force replaces it"));
    let before = snapshot(&elsewhere);
    let forced = setup.import(&["--force"]);
    assert!(
        forced.status.success(),
        "{}",
        String::from_utf8_lossy(&forced.stderr)
    );
    assert!(
        !fs::symlink_metadata(setup.dir())
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(
        snapshot(&elsewhere),
        before,
        "the folder a link points at is never touched"
    );
}
