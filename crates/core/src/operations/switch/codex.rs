//! Codex: `[[skills.config]]` entries of `$CODEX_HOME/config.toml`, the only layer Codex reads
//! them from (a project's `.codex/config.toml` is ignored, openai/codex#20210). Codex keeps the
//! last entry of each selector and applies them in order, a `path` entry to one `SKILL.md`, a
//! `name` entry to every skill of that name (codex-rs/core-skills `config_rules.rs`). So this
//! writes a `path` entry at the end, which nothing before it can overrule; to enable, it drops
//! its own entries for the path and, when a `name` entry still turns the skill off, adds a
//! `path` entry with `enabled = true` after it.

use std::path::{Path, PathBuf};

use toml_edit::{ArrayOfTables, DocumentMut, Item, Table, value};

use super::plan::{Asked, Edit, Plan, Step, after, text};
use super::{SwitchError, Turn};
use crate::roots::Scope;
use crate::roots::switch_files::codex as files;
use crate::settings::{EditError, toml};

const RESTART: &str =
    "Codex reads config.toml when it starts: restart a running session to see the change";

pub(super) fn plan(asked: Asked<'_>) -> Result<Plan, SwitchError> {
    let (machine, request, turn, project, name) = asked.parts();
    if request.scope.is_some_and(|scope| scope != Scope::User) {
        return Err(SwitchError::Scope {
            reason: "Codex reads [[skills.config]] only from $CODEX_HOME/config.toml, not from a project's .codex/config.toml (openai/codex#20210); disable it for the user instead".into(),
        });
    }
    let file = files::config_file(&machine.env, &project).ok_or(SwitchError::NoFile {
        agent: request.agent,
        scope: "user",
    })?;
    let skill_md = request.skill.dir.join("SKILL.md");
    let home = machine.env.home().to_path_buf();
    let now = text(&file)?;
    toml::parse(&file, &now)?;
    if files::turns_off(&now, &file, &home, &skill_md, &name) == (turn == Turn::Off) {
        return Ok(Plan::nothing());
    }
    let edit = edit(skill_md.clone(), name.clone(), home.clone(), turn);
    let then = after(&file, &edit)?;
    let off_then = files::turns_off(&then, &file, &home, &skill_md, &name);
    if off_then != (turn == Turn::Off) {
        return Err(SwitchError::Overruled {
            reason: format!(
                "{} would still leave {name} {} for Codex; its [[skills.config]] entries need a hand",
                file.display(),
                if off_then { "off" } else { "on" }
            ),
        });
    }
    Ok(Plan {
        steps: vec![Step { file, edit }],
        notes: vec![RESTART.into()],
    })
}

/// The same file, whatever way the two paths spell it.
fn same_file(a: &Path, b: &Path) -> bool {
    let real = |p: &Path| crate::fs::canonical(p).unwrap_or_else(|_| p.to_path_buf());
    a == b || real(a) == real(b)
}

pub(super) fn edit(skill_md: PathBuf, name: String, home: PathBuf, turn: Turn) -> Edit {
    Box::new(move |file, text| {
        let mut doc = toml::parse(file, text)?;
        let before = doc.to_string();
        remove_path_entries(&mut doc, file, &skill_md)?;
        let still_off = || files::turns_off(&doc.to_string(), file, &home, &skill_md, &name);
        let add = match turn {
            Turn::Off => Some(false),
            Turn::On if still_off() => Some(true),
            Turn::On => None,
        };
        if let Some(enabled) = add {
            entries(&mut doc, file)?.push(entry(&skill_md, enabled));
        }
        let after = doc.to_string();
        Ok((after != before).then_some(after))
    })
}

fn entry(skill_md: &Path, enabled: bool) -> Table {
    let mut table = Table::new();
    table.insert("path", value(skill_md.to_string_lossy().into_owned()));
    table.insert("enabled", value(enabled));
    table
}

/// `[[skills.config]]`, made when missing.
fn entries<'d>(doc: &'d mut DocumentMut, file: &Path) -> Result<&'d mut ArrayOfTables, EditError> {
    let shape = |key: &str, expected| EditError::Shape {
        file: file.to_path_buf(),
        key: key.into(),
        expected,
    };
    let skills = doc
        .entry("skills")
        .or_insert_with(|| {
            let mut table = Table::new();
            table.set_implicit(true);
            Item::Table(table)
        })
        .as_table_mut()
        .ok_or_else(|| shape("skills", "a table"))?;
    skills
        .entry("config")
        .or_insert_with(|| Item::ArrayOfTables(ArrayOfTables::new()))
        .as_array_of_tables_mut()
        .ok_or_else(|| shape("skills.config", "an array of [[skills.config]] tables"))
}

/// Take out every `path` entry (no `name`) for `skill_md`: the entry written next replaces them.
fn remove_path_entries(
    doc: &mut DocumentMut,
    file: &Path,
    skill_md: &Path,
) -> Result<(), EditError> {
    let ours = |table: &dyn toml_edit::TableLike| {
        table.get("name").is_none()
            && table
                .get("path")
                .and_then(Item::as_str)
                .is_some_and(|path| same_file(Path::new(path), skill_md))
    };
    let Some(config) = doc
        .get_mut("skills")
        .and_then(|skills| skills.get_mut("config"))
    else {
        return Ok(());
    };
    if let Some(tables) = config.as_array_of_tables_mut() {
        tables.retain(|table| !ours(table));
    } else if let Some(array) = config.as_array_mut() {
        array.retain(|v| !v.as_inline_table().is_some_and(|t| ours(t)));
    } else {
        return Err(EditError::Shape {
            file: file.to_path_buf(),
            key: "skills.config".into(),
            expected: "an array of [[skills.config]] tables",
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const MD: &str = "/s/pdf/SKILL.md";

    fn run(text: &str, turn: Turn) -> Option<String> {
        edit(PathBuf::from(MD), "pdf".into(), PathBuf::from("/h"), turn)(
            Path::new("config.toml"),
            text,
        )
        .unwrap()
    }

    fn is_off(text: &str) -> bool {
        files::turns_off(
            text,
            Path::new("/c/config.toml"),
            Path::new("/h"),
            Path::new(MD),
            "pdf",
        )
    }

    #[test]
    fn disabling_appends_one_entry_and_keeps_every_other_byte() {
        let text = "# my codex\nmodel = \"o3\"  # fast\n\n[profiles.x]\nmodel = { name = \"a\", effort = \"high\" }\n\n[[skills.config]]\nname = \"other\"\nenabled = false\n";
        let out = run(text, Turn::Off).unwrap();
        assert_eq!(
            out,
            format!("{text}\n[[skills.config]]\npath = \"{MD}\"\nenabled = false\n")
        );
        assert!(is_off(&out));
        assert_eq!(run(&out, Turn::On).unwrap(), text);
    }

    #[test]
    fn an_entry_spelt_with_a_tilde_or_relative_is_seen_as_codex_sees_it() {
        // The listing's rule: `~` is the home, a relative path is read from the config's
        // folder, links and `..` resolved; a path is not trimmed.
        let tmp = tempfile::tempdir().unwrap();
        let home = tmp.path().canonicalize().unwrap();
        let md = home.join("s/pdf/SKILL.md");
        std::fs::create_dir_all(md.parent().unwrap()).unwrap();
        std::fs::write(&md, "x").unwrap();
        std::fs::create_dir_all(home.join("c")).unwrap();
        let config = home.join("c/config.toml");
        let off = |text: &str| files::turns_off(text, &config, &home, &md, "pdf");
        for (spelt, names_it) in [
            ("~/s/pdf/SKILL.md", true),
            ("../s/pdf/SKILL.md", true),
            (" ~/s/pdf/SKILL.md", false),
        ] {
            let text = format!("[[skills.config]]\npath = \"{spelt}\"\nenabled = false\n");
            assert_eq!(off(&text), names_it, "{spelt}");
            if !names_it {
                continue;
            }
            let on = edit(md.clone(), "pdf".into(), home.clone(), Turn::On)(&config, &text)
                .unwrap()
                .expect("enabling changes the file");
            assert!(!off(&on), "{spelt}: {on}");
        }
    }

    #[test]
    fn enabling_what_a_name_entry_turns_off_adds_a_path_entry_after_it() {
        let text = "[[skills.config]]\nname = \"pdf\" # all of them\nenabled = false\n";
        assert!(is_off(text));
        let out = run(text, Turn::On).unwrap();
        assert!(!is_off(&out), "{out}");
        assert!(out.starts_with(text));
        assert!(out.ends_with(&format!("path = \"{MD}\"\nenabled = true\n")));
    }

    #[test]
    fn a_later_name_entry_overrules_an_earlier_path_entry() {
        let text = format!(
            "[[skills.config]]\npath = \"{MD}\"\nenabled = false\n[[skills.config]]\nname = \"pdf\"\nenabled = true\n"
        );
        assert!(!is_off(&text));
        // Disabling moves the path entry last, where it wins.
        let out = run(&text, Turn::Off).unwrap();
        assert!(is_off(&out), "{out}");
        assert_eq!(out.matches("path =").count(), 1);
    }

    #[test]
    fn inline_entries_are_read_and_an_entry_with_two_selectors_is_ignored() {
        let text = format!("skills = {{ config = [ {{ path = \"{MD}\", enabled = false }} ] }}\n");
        assert!(is_off(&text));
        let both = format!("[[skills.config]]\nname = \"pdf\"\npath = \"{MD}\"\nenabled = false\n");
        assert!(!is_off(&both));
    }
}
