//! An import that stops leaves the folders as it found them: a cancel removes the skills
//! folder (and the folders above it) that the import itself made and left empty, never one
//! that was there before; and a destination that cannot hold a skill (a file where the skills
//! folder, or a folder above it, should be) is refused once, naming that path, not once for
//! each skill as if each were there already.

use std::fs;
use std::path::Path;

use crate::common::{Machine, snapshot, write_files, write_skill};
use skilldeck::bundle;
use skilldeck::install::{self, InstallError, Watch};
use skilldeck::operations::import;

/// Says go on `go_on` times, then stop: 1 stops once every skill is staged, under the lock.
struct Stopping {
    go_on: usize,
}

impl Watch for Stopping {
    fn carry_on(&mut self) -> bool {
        let go = self.go_on > 0;
        self.go_on = self.go_on.saturating_sub(1);
        go
    }
}

fn bundle_of(machine: &Machine, names: &[&str]) -> std::path::PathBuf {
    let source = machine.root().join("bundle");
    for name in names {
        write_skill(&source.join(name), &[("notes.md", "notes")]);
    }
    source
}

#[test]
fn a_cancel_removes_the_folders_the_import_made_and_left_empty() {
    let machine = Machine::new();
    let source = bundle_of(&machine, &["alpha", "beta"]);
    let bundle = bundle::read(&source).unwrap();
    let skills = bundle.select(&[]).unwrap();

    // The skills folder alone was missing.
    let agent = machine.root().join("agent");
    fs::create_dir_all(&agent).unwrap();
    let root = agent.join("skills");
    let error = install::install(&root, &skills, false, &mut Stopping { go_on: 1 }).unwrap_err();
    assert!(matches!(error, InstallError::Cancelled), "{error}");
    assert!(!root.exists(), "the skills folder it made is left behind");
    assert!(agent.is_dir(), "the folder that was there is kept");

    // Three folders were missing: all three go, and what was there stays.
    let deep = machine.root().join("a/b/skills");
    let error = install::install(&deep, &skills, false, &mut Stopping { go_on: 1 }).unwrap_err();
    assert!(matches!(error, InstallError::Cancelled), "{error}");
    assert!(!machine.root().join("a").exists());
    assert!(machine.root().is_dir());

    // The skills folder was there, empty: it stays, empty.
    let empty = machine.root().join("empty/skills");
    fs::create_dir_all(&empty).unwrap();
    let error = install::install(&empty, &skills, false, &mut Stopping { go_on: 1 }).unwrap_err();
    assert!(matches!(error, InstallError::Cancelled), "{error}");
    assert!(empty.is_dir());
    assert_eq!(fs::read_dir(&empty).unwrap().count(), 0);

    // Through the operation the app and the command line call: the same.
    let via = machine.root().join("via/skills");
    let error = import::install(
        &skilldeck::roots::Machine::new(machine.env(), &machine.start),
        &via,
        &skills,
        false,
        &mut Stopping { go_on: 1 },
    )
    .unwrap_err();
    assert!(matches!(error, InstallError::Cancelled), "{error}");
    assert!(!machine.root().join("via").exists());

    // An install that goes through keeps the folders it made.
    let kept = machine.root().join("kept/skills");
    install::install(&kept, &skills, false, &mut ()).unwrap();
    assert!(kept.join("alpha/SKILL.md").is_file());
}

#[test]
fn a_folder_made_but_not_left_empty_is_kept() {
    let machine = Machine::new();
    let source = bundle_of(&machine, &["alpha"]);
    let bundle = bundle::read(&source).unwrap();
    let skills = bundle.select(&[]).unwrap();
    let root = machine.root().join("made/skills");
    // Someone puts a file in the folder while the import is under way: the watch stands in.
    struct Meanwhile<'a>(&'a Path, usize);
    impl Watch for Meanwhile<'_> {
        fn carry_on(&mut self) -> bool {
            self.1 += 1;
            if self.1 == 2 {
                fs::write(self.0.join("theirs.txt"), "theirs").unwrap();
                return false;
            }
            true
        }
    }
    let error = install::install(&root, &skills, false, &mut Meanwhile(&root, 0)).unwrap_err();
    assert!(matches!(error, InstallError::Cancelled), "{error}");
    assert_eq!(
        fs::read_to_string(root.join("theirs.txt")).unwrap(),
        "theirs"
    );
    assert!(!root.join("alpha").exists());
}

/// A file where the skills folder is, and a file where a folder above it is.
fn in_the_way(machine: &Machine) -> [(std::path::PathBuf, std::path::PathBuf); 2] {
    let file_root = machine.root().join("one/skills");
    write_files(&machine.root().join("one"), &[("skills", "a file")]);
    let file_parent = machine.root().join("two/agent/skills");
    write_files(&machine.root().join("two"), &[("agent", "a file")]);
    [
        (file_root.clone(), file_root),
        (file_parent, machine.root().join("two/agent")),
    ]
}

#[test]
fn a_file_in_the_way_of_the_skills_folder_is_refused_once_naming_it() {
    let machine = Machine::new();
    let names = ["a", "b", "c", "d"];
    let source = bundle_of(&machine, &names);
    let bundle = bundle::read(&source).unwrap();
    let skills = bundle.select(&[]).unwrap();
    for (root, file) in in_the_way(&machine) {
        // What the app asks before it installs: one refusal, not four conflicts.
        let refused = import::conflicts(&root, &skills).unwrap_err();
        assert_eq!(refused.dir, file);
        assert!(!refused.forcible);
        assert_eq!(
            refused.why,
            "is not a folder, so no skill can be installed below it"
        );

        // The command line: one sentence naming the path, nothing written, forced or not.
        let before = snapshot(&machine.root());
        for force in [false, true] {
            let mut args = vec![
                "import",
                source.to_str().unwrap(),
                "--to",
                root.to_str().unwrap(),
            ];
            if force {
                args.push("--force");
            }
            let output = machine.run(&args);
            assert_eq!(output.status.code(), Some(1));
            let stderr = String::from_utf8_lossy(&output.stderr);
            assert_eq!(stderr.lines().count(), 1, "{stderr}");
            assert!(
                stderr.contains(&format!("{} is not a folder", file.display())),
                "{stderr}"
            );
            for name in names {
                assert!(!stderr.contains(&format!("/{name} ")), "{stderr}");
            }
        }
        assert_eq!(snapshot(&machine.root()), before);
    }
}
