//! The editors keep every byte they were not asked to change; the file primitive leaves a file
//! it cannot parse, or that changed under it, as it was; a revert puts the bytes back only
//! while the file holds what the change left.

use std::fs;
use std::path::{Path, PathBuf};

use super::*;
use crate::roots::Machine;

const LOOSE: dialect::Dialect = dialect::Dialect {
    agent: "an agent",
    syntax: dialect::Syntax::CopilotUser,
};

fn set_off(text: &str) -> String {
    let file = Path::new("settings.json");
    let root = json::parse(file, text, LOOSE).unwrap();
    let overrides = json::object_at(&root, file, &["skillOverrides"]).unwrap();
    json::set_string(&overrides, "pdf", "off");
    root.to_string()
}

fn push(text: &str, name: &str) -> String {
    let file = Path::new("settings.json");
    let root = json::parse(file, text, LOOSE).unwrap();
    let object = json::object_at(&root, file, &["skills"]).unwrap();
    let array = json::array_in(&object, file, "skills.disabled", "disabled").unwrap();
    json::push_string(&array, name);
    root.to_string()
}

fn sandbox() -> (tempfile::TempDir, Machine) {
    sandbox_in(&std::env::temp_dir())
}

fn sandbox_in(base: &Path) -> (tempfile::TempDir, Machine) {
    let tmp = tempfile::tempdir_in(base).unwrap();
    let home = tmp.path().join("home");
    fs::create_dir_all(home.join("work")).unwrap();
    let machine = Machine::sandbox(&home, &tmp.path().join("sys"), &home.join("work"));
    (tmp, machine)
}

/// An edit that sets `skillOverrides.pdf` to "off".
fn off(file: &Path, text: &str) -> Result<Option<String>, EditError> {
    let root = json::parse(file, text, LOOSE)?;
    let overrides = json::object_at(&root, file, &["skillOverrides"])?;
    json::set_string(&overrides, "pdf", "off");
    Ok(Some(root.to_string()))
}

#[test]
fn comments_trailing_commas_tabs_and_crlf_are_kept() {
    let text = "{\r\n\t\"b\": 1, // keep\r\n\t/* and this */\r\n\t\"a\": [1,2,],\r\n}\r\n";
    assert_eq!(
        set_off(text),
        "{\r\n\t\"b\": 1, // keep\r\n\t/* and this */\r\n\t\"a\": [1,2,],\r\n\t\"skillOverrides\": {\r\n\t\t\"pdf\": \"off\"\r\n\t},\r\n}\r\n"
    );
}

#[test]
fn odd_indentation_and_keys_in_unusual_order_are_kept() {
    let text = "{\n   \"zeta\":   true,\n   /* block */\n   \"skills\": {\n      \"disabled\": [\n         \"a\", // one\n      ],\n      \"enabled\": true\n   },\n   \"alpha\": {\"x\": 1}\n}\n";
    assert_eq!(
        push(text, "pdf"),
        "{\n   \"zeta\":   true,\n   /* block */\n   \"skills\": {\n      \"disabled\": [\n         \"a\", // one\n         \"pdf\",\n      ],\n      \"enabled\": true\n   },\n   \"alpha\": {\"x\": 1}\n}\n"
    );
}

#[test]
fn an_existing_entry_keeps_its_place() {
    let text =
        "{\"skillOverrides\": {\"a\": \"on\", \"pdf\": \"name-only\", \"z\": \"off\"}, \"x\": 1}";
    assert_eq!(
        set_off(text),
        "{\"skillOverrides\": {\"a\": \"on\", \"pdf\": \"off\", \"z\": \"off\"}, \"x\": 1}"
    );
}

#[test]
fn taking_a_name_out_keeps_the_rest_and_drops_a_container_it_emptied() {
    let file = Path::new("s.json");
    let text = "{\n  // mine\n  \"skills\": {\"disabled\": [\"PDF\"]},\n  \"theme\": \"dark\"\n}\n";
    let root = json::parse(file, text, LOOSE).unwrap();
    let array = json::find_object(&root, &["skills"])
        .and_then(|o| o.array_value("disabled"))
        .unwrap();
    assert_eq!(
        json::remove_strings(&array, |s| s.eq_ignore_ascii_case("pdf")),
        1
    );
    json::prune_empty(&root, &["skills", "disabled"]);
    assert_eq!(root.to_string(), "{\n  // mine\n  \"theme\": \"dark\"\n}\n");
}

#[test]
fn a_value_of_another_shape_is_refused_naming_the_key() {
    let file = Path::new("s.json");
    let root = json::parse(file, r#"{"skillOverrides": "off"}"#, LOOSE).unwrap();
    let error = json::object_at(&root, file, &["skillOverrides"]).unwrap_err();
    assert!(error.is_refusal());
    assert!(error.to_string().contains("skillOverrides"), "{error}");
}

#[test]
fn an_unparsable_file_is_left_untouched_with_where_it_fails() {
    let (_tmp, machine) = sandbox();
    let file = machine.home().join("settings.json");
    let text = "{\n  \"a\": 1,\n  \"b\": [1 2 }\n";
    fs::write(&file, text).unwrap();
    let error = edit(&machine, &file, |t| off(&file, t)).unwrap_err();
    assert!(error.is_refusal());
    let EditError::AgentCannotRead { line, .. } = &error else {
        panic!("{error}")
    };
    assert_eq!(*line, 3, "{error}");
    assert!(error.to_string().contains("line 3, column"), "{error}");
    assert_eq!(fs::read_to_string(&file).unwrap(), text);
    assert!(!machine.data_dir().join(BACKUPS_DIR).exists());
}

#[test]
fn an_unparsable_toml_file_says_where() {
    let error = toml::parse(Path::new("config.toml"), "a = 1\n[skills\nb = 2\n").unwrap_err();
    let EditError::Unparsable(where_) = &error else {
        panic!("{error}")
    };
    assert_eq!((where_.line, where_.column), (2, 8), "{error}");
}

/// The files skilldeck left beside `dir`'s files: none, after any edit.
fn leftovers(dir: &Path) -> Vec<PathBuf> {
    fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .contains("skilldeck")
        })
        .collect()
}

#[test]
fn an_edit_is_made_again_on_what_another_program_wrote_meanwhile() {
    // Written by rename and in place, once each, while skilldeck edits.
    for in_place in [false, true] {
        let (_tmp, machine) = sandbox();
        let file = machine.home().join("settings.json");
        fs::write(&file, "{}").unwrap();
        let calls = std::cell::Cell::new(0);
        let change = edit(&machine, &file, |text| {
            calls.set(calls.get() + 1);
            if calls.get() == 1 {
                let theirs = "{\"theirs\": true}";
                if in_place {
                    fs::write(&file, theirs).unwrap();
                } else {
                    let temp = machine.home().join("agent.tmp");
                    fs::write(&temp, theirs).unwrap();
                    fs::rename(&temp, &file).unwrap();
                }
            }
            off(&file, text)
        })
        .unwrap()
        .unwrap();
        assert_eq!(calls.get(), 2);
        assert_eq!(
            fs::read_to_string(&file).unwrap(),
            "{\n  \"theirs\": true,\n  \"skillOverrides\": {\n    \"pdf\": \"off\"\n  }\n}"
        );
        // What the undo puts back is what the other program wrote, not what skilldeck read
        // first.
        revert(&machine, &change).unwrap();
        assert_eq!(fs::read_to_string(&file).unwrap(), "{\"theirs\": true}");
        assert!(leftovers(machine.home()).is_empty());
    }
}

#[test]
fn a_file_that_keeps_changing_is_left_as_the_other_program_last_wrote_it() {
    for in_place in [false, true] {
        let (_tmp, machine) = sandbox();
        let file = machine.home().join("settings.json");
        fs::write(&file, "{}").unwrap();
        let calls = std::cell::Cell::new(0);
        let error = edit(&machine, &file, |text| {
            calls.set(calls.get() + 1);
            let theirs = format!("{{\"n\": {}}}", calls.get());
            if in_place {
                fs::write(&file, &theirs).unwrap();
            } else {
                let temp = machine.home().join("agent.tmp");
                fs::write(&temp, &theirs).unwrap();
                fs::rename(&temp, &file).unwrap();
            }
            off(&file, text)
        })
        .unwrap_err();
        assert!(error.is_refusal(), "{error}");
        assert!(error.to_string().contains("changed while"), "{error}");
        assert_eq!(
            fs::read_to_string(&file).unwrap(),
            format!("{{\"n\": {}}}", calls.get())
        );
        assert!(leftovers(machine.home()).is_empty());
        // No backup is left for an edit that never landed.
        let backups = machine.data_dir().join(BACKUPS_DIR);
        assert_eq!(fs::read_dir(&backups).map_or(0, Iterator::count), 0);
    }
}

/// Another program (the agent) rewriting the file over and over, by rename or in place, while
/// skilldeck edits it: after each round, the file holds the other program's last write —
/// with skilldeck's change when its edit was the later one — and never loses it.
#[test]
fn a_concurrent_writer_never_loses_a_write() {
    use std::sync::{Arc, Barrier};
    // In memory where the system has such a folder: syncs to a disk would make the rounds
    // slow, and are not what is tested.
    let shm = Path::new("/dev/shm");
    let base = if shm.is_dir() {
        shm.to_path_buf()
    } else {
        std::env::temp_dir()
    };
    let (_tmp, machine) = sandbox_in(&base);
    let file = machine.home().join("settings.json");
    fs::write(&file, "{\"w\": 0}").unwrap();
    for round in 1..=300u32 {
        let go = Arc::new(Barrier::new(2));
        let writer = {
            let (go, file, temp) = (go.clone(), file.clone(), machine.home().join("agent.tmp"));
            std::thread::spawn(move || {
                go.wait();
                // A few writes, by rename and in place by turns, spread over the edit.
                let writes = 1 + round % 4;
                for n in 1..=writes {
                    for _ in 0..(round * 7919 + n * 104_729) % 20_000 {
                        std::hint::spin_loop();
                    }
                    let theirs = format!("{{\"w\": {}}}", round * 10 + n);
                    if (round + n) % 2 == 0 {
                        fs::write(&file, &theirs).unwrap();
                    } else {
                        fs::write(&temp, &theirs).unwrap();
                        fs::rename(&temp, &file).unwrap();
                    }
                }
                round * 10 + writes
            })
        };
        go.wait();
        let key = format!("r{round}");
        let edited = edit(&machine, &file, |text| {
            let root = json::parse(&file, text, LOOSE)?;
            let overrides = json::object_at(&root, &file, &["skillOverrides"])?;
            json::set_string(&overrides, &key, "off");
            Ok(Some(root.to_string()))
        });
        let last = writer.join().unwrap();
        let now: serde_json::Value = serde_json::from_slice(&fs::read(&file).unwrap())
            .unwrap_or_else(|error| {
                panic!("round {round}: {error}: {:?}", fs::read_to_string(&file))
            });
        assert_eq!(now["w"], last, "round {round}: a write was lost: {now}");
        match edited {
            Ok(_) => {
                if now.get("skillOverrides").is_some() {
                    assert_eq!(now["skillOverrides"][&key], "off", "round {round}: {now}");
                }
            }
            Err(error) => assert!(error.is_refusal(), "round {round}: {error}"),
        }
        assert!(leftovers(machine.home()).is_empty(), "round {round}");
    }
}

#[cfg(unix)]
#[test]
fn the_mode_and_a_link_to_the_file_are_kept() {
    use std::os::unix::fs::PermissionsExt;
    let (_tmp, machine) = sandbox();
    let real = machine.home().join("dotfiles/settings.json");
    fs::create_dir_all(real.parent().unwrap()).unwrap();
    fs::write(&real, "{}\n").unwrap();
    fs::set_permissions(&real, fs::Permissions::from_mode(0o640)).unwrap();
    let link = machine.home().join("settings.json");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let change = edit(&machine, &link, |t| off(&link, t)).unwrap().unwrap();
    assert_eq!(change.file, link);
    assert!(
        fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert!(
        fs::read_to_string(&real)
            .unwrap()
            .contains("\"pdf\": \"off\"")
    );
    assert_eq!(
        fs::metadata(&real).unwrap().permissions().mode() & 0o777,
        0o640
    );
    let backups = machine.data_dir().join(BACKUPS_DIR);
    assert_eq!(
        fs::metadata(&backups).unwrap().permissions().mode() & 0o777,
        0o700
    );
}

#[test]
fn a_revert_puts_the_bytes_back_and_a_second_edit_is_kept_first() {
    let (_tmp, machine) = sandbox();
    let file = machine.home().join("settings.json");
    let before = "{\n  // mine\n  \"x\": 1,\n}\n";
    fs::write(&file, before).unwrap();
    let change = edit(&machine, &file, |t| off(&file, t)).unwrap().unwrap();
    let edited = fs::read(&file).unwrap();
    assert_eq!(change.after, sha256(&edited));
    let back = revert(&machine, &change).unwrap();
    assert_eq!(fs::read_to_string(&file).unwrap(), before);
    // The revert is itself revertible: it kept what the file held.
    revert(&machine, &back).unwrap();
    assert_eq!(fs::read(&file).unwrap(), edited);
}

#[test]
fn a_revert_removes_a_file_the_change_created() {
    let (_tmp, machine) = sandbox();
    let file = machine.home().join("new/settings.json");
    let change = edit(&machine, &file, |t| off(&file, t)).unwrap().unwrap();
    assert_eq!(change.was, SettingsWas::Absent);
    revert(&machine, &change).unwrap();
    assert!(!file.exists());
}

#[test]
fn a_revert_refuses_after_a_later_edit_and_leaves_it() {
    let (_tmp, machine) = sandbox();
    let file = machine.home().join("settings.json");
    fs::write(&file, "{}").unwrap();
    let change = edit(&machine, &file, |t| off(&file, t)).unwrap().unwrap();
    fs::write(&file, "{\"later\": 1}").unwrap();
    let error = revert(&machine, &change).unwrap_err();
    assert!(error.is_refusal());
    assert!(matches!(error, RevertError::ChangedSince { .. }), "{error}");
    assert_eq!(fs::read_to_string(&file).unwrap(), "{\"later\": 1}");
}

#[test]
fn nothing_to_change_writes_nothing() {
    let (_tmp, machine) = sandbox();
    let file = machine.home().join("settings.json");
    fs::write(&file, "{\"skillOverrides\": {\"pdf\": \"off\"}}").unwrap();
    assert!(edit(&machine, &file, |t| off(&file, t)).unwrap().is_none());
    assert!(!machine.data_dir().join(BACKUPS_DIR).exists());
}

#[test]
fn taking_the_first_of_a_one_line_list_out_leaves_no_space() {
    let file = Path::new("s.json");
    let root = json::parse(file, r#"{"d": ["a", "b", "c"]}"#, LOOSE).unwrap();
    let array = json::find_object(&root, &[])
        .unwrap()
        .array_value("d")
        .unwrap();
    json::remove_strings(&array, |s| s == "a");
    assert_eq!(root.to_string(), r#"{"d": ["b", "c"]}"#);
    json::remove_strings(&array, |s| s == "c");
    assert_eq!(root.to_string(), r#"{"d": ["b"]}"#);
}

/// Adding a name to a list and taking it out again gives back the bytes the file held, for
/// files where the list, its object or both were not there before, and leaves alone a list that
/// still holds other names and a comment inside an emptied object.
#[test]
fn a_name_added_then_taken_out_leaves_the_file_as_it_was() {
    let file = Path::new("settings.json");
    let same = |a: &str, b: &str| a == b;
    let keys = &["skills", "disabled"];
    let round_trip = |before: &str| {
        let added = json::edit_list(file, before, LOOSE, keys, "pdf", true, &same)
            .unwrap()
            .unwrap();
        assert_ne!(added, before);
        json::edit_list(file, &added, LOOSE, keys, "pdf", false, &same)
            .unwrap()
            .unwrap()
    };
    for before in [
        "{\n  \"ui\": {}\n}\n",
        "{\n  // mine\n  \"skills\": {\n    \"enabled\": true\n  }\n}\n",
        "{}\n",
    ] {
        assert_eq!(round_trip(before), before, "{before:?}");
    }
    let others = "{\n  \"skills\": {\n    \"disabled\": [\"docx\"]\n  }\n}\n";
    assert_eq!(round_trip(others), others);
    let commented = "{\n  \"skills\": {\n    // keep me\n  }\n}\n";
    assert_eq!(round_trip(commented), commented);
}

/// A key Copilot's user settings loader passes over (spelt loosely) is refused, not edited: the
/// change would never reach Copilot. A loose key elsewhere does not stand in the way.
#[test]
fn a_key_copilot_passes_over_is_not_edited() {
    let file = Path::new("settings.json");
    for text in [
        "{disabledSkills: [\"a\"]}",
        "{'disabledSkills': [\"a\"]}",
        "{\"disabledSkills\": ['a']}",
    ] {
        let root = json::parse(file, text, LOOSE).unwrap();
        let refused = json::unique(&root, file, LOOSE, &["disabledSkills"]);
        assert!(
            matches!(refused, Err(EditError::Unseen { .. })),
            "{text}: {refused:?}"
        );
    }
    let text = "{x: 1, \"disabledSkills\": [\"a\"]}";
    let root = json::parse(file, text, LOOSE).unwrap();
    assert!(json::unique(&root, file, LOOSE, &["disabledSkills"]).is_ok());
}
