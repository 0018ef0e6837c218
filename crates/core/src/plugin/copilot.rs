//! GitHub Copilot CLI 1.0.102's plugin records (/work/probe/copilot/FINDINGS.md, facts 27–32):
//! what loads comes from the records beside `installed-plugins`, not from the folders in it.
//!
//! - `config.json` (JSON with `//` comments) `installedPlugins[]`: `{name, marketplace, enabled,
//!   cache_path, installed_at}`; a marketplace's plugin whose `enabled` is true, and a direct
//!   install (empty `marketplace`) whether `enabled` is true or false, loads from `cache_path`,
//!   an absolute path or one relative to the folder Copilot was started in; without one, a
//!   marketplace's from `installed-plugins/<marketplace>/<plugin>`, a direct install from
//!   nowhere. Once `settings.json` holds `enabledPlugins` as an object, it decides for a
//!   marketplace's plugins: `"<plugin>@<marketplace>": true` loads it even when its record is
//!   off, `false` or no key at all (an empty object too) leaves it out, another value leaves
//!   it to the record; no key reaches a direct install (`<plugin>@` and `<plugin>` change
//!   nothing). One record Copilot cannot read (no `installed_at`, say) voids the whole list:
//!   it then loads no installed plugin at all (generated class `copilot-plugins`, seeds 0..16,
//!   each rule probed in `copilot skill list --json` 1.0.102).
//! - `settings.json` `extraKnownMarketplaces.<M>.source = {source: "directory", path}` with
//!   `enabledPlugins["<plugin>@<M>"] = true`: nothing is copied; the plugin is read in place,
//!   from the marketplace entry's `source` folder.
//!
//! Skills: the manifest's `skills` paths (`plugin.json`, `.github/plugin/` or `.claude-plugin/`;
//! a single path as text too), else `skills/`, walked to any depth but not into a skill's own
//! folder; a `SKILL.md` in the plugin folder is its one skill only when it has neither (an
//! empty `skills/` is enough to pass the root over). Names are bare
//! (the skill's own name). Repository settings' plugins (trusted folders only) are left out.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::{
    Context, Descent, Listing, Naming, Plugin, folder_name, read_record, skills_below, subfolders,
};
use crate::skill::SKILL_FILE;

/// Copilot's walk: no limit was found (30 folders loaded), and it stops at a skill.
const DESCENT: Descent = Descent {
    depth: 30,
    into_skills: false,
};

/// The marketplace files Copilot reads in a local marketplace folder, in the order asked.
const MARKETPLACE_FILES: [&str; 2] = [".github/plugin/marketplace.json", super::MARKETPLACE_FILE];

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Config {
    /// Each read on its own, so one record Copilot would refuse does not hide the others.
    #[serde(default)]
    installed_plugins: Vec<serde_json::Value>,
}

/// One `installedPlugins` record. `name`, `marketplace` (text) and `enabled` (`true` or
/// `false`) are required as `installed_at` is: a record without one, or with another type,
/// voids the whole list (1.0.102, probed one key at a time beside a valid record).
#[derive(Debug, Deserialize)]
struct Installed {
    name: String,
    marketplace: String,
    version: Option<String>,
    enabled: bool,
    cache_path: Option<String>,
    /// Required by Copilot; only its presence matters here.
    installed_at: serde_json::Value,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Settings {
    /// An object of switches, or anything else (then the records alone decide).
    #[serde(default)]
    enabled_plugins: serde_json::Value,
    #[serde(default)]
    extra_known_marketplaces: BTreeMap<String, serde_json::Value>,
}

pub(super) fn listing(installed_dir: &Path, context: &Context<'_>) -> Listing {
    let start = context.project.start();
    let ignored = crate::roots::copilot_ignored::locations(context.env, context.project);
    let mut out = Listing::default();
    let Some(home) = installed_dir.parent() else {
        return out;
    };
    let config: Config = read_jsonc(&home.join("config.json"), &mut out.notes);
    let settings: Settings = read_jsonc(&home.join("settings.json"), &mut out.notes);
    let switch = |key: &str| {
        settings
            .enabled_plugins
            .get(key)
            .and_then(serde_json::Value::as_bool)
    };

    let mut records = Vec::new();
    for value in config.installed_plugins {
        match serde_json::from_value::<Installed>(value.clone()) {
            Ok(record) if !record.installed_at.is_null() => records.push(record),
            _ => {
                let name = value.get("name").and_then(serde_json::Value::as_str);
                out.notes.push(format!(
                    "{}: the installedPlugins entry {:?} is not a record Copilot reads \
                     (it needs name, marketplace, enabled and installed_at), so Copilot loads \
                     none of the installed plugins",
                    home.join("config.json").display(),
                    name.unwrap_or("(no name)")
                ));
                records.clear();
                break;
            }
        }
    }
    for record in &records {
        let key = format!("{}@{}", record.name, record.marketplace);
        let dir = match record.cache_path.as_deref() {
            Some(path) => Some(start.join(path)),
            None if record.marketplace.is_empty() => None,
            None => Some(installed_dir.join(&record.marketplace).join(&record.name)),
        };
        let Some(dir) = dir else {
            out.notes.push(format!(
                "{}: the direct install {:?} gives no cache_path, so Copilot loads it from nowhere",
                home.join("config.json").display(),
                record.name
            ));
            continue;
        };
        // Once `enabledPlugins` is an object it decides for a marketplace's plugins: `true`
        // on (whatever the record says), `false` or no key off, another value leaves it to the
        // record. A direct install with a folder loads whatever its record's `enabled` says
        // (1.0.102 lists a direct install's skills with `"enabled": false` as with `true`;
        // case copilot-direct-install-off.txt, found by seed 323 of the sweep).
        let loaded = if record.marketplace.is_empty() {
            true
        } else {
            match settings.enabled_plugins.as_object() {
                Some(switches) => match switches.get(&key) {
                    Some(serde_json::Value::Bool(on)) => *on,
                    Some(_) => record.enabled,
                    None => false,
                },
                None => record.enabled,
            }
        };
        let version = record.version.clone();
        plugins_at(&mut out, &record.name, dir, version, loaded, &ignored);
    }
    for (marketplace, entry) in &settings.extra_known_marketplaces {
        let Some(folder) = directory_source(entry) else {
            continue;
        };
        let listing = MARKETPLACE_FILES
            .iter()
            .find_map(
                |file| match super::read_listing_at(Path::new(folder), file) {
                    Ok(listing) => listing,
                    Err(problem) => {
                        out.notes.push(problem.to_string());
                        None
                    }
                },
            )
            .unwrap_or_default();
        for listed in listing {
            let key = format!("{}@{marketplace}", listed.name);
            if switch(&key) != Some(true) {
                continue;
            }
            let Some(dir) = listed.dir else { continue };
            plugins_at(&mut out, &listed.name, dir, listed.version, true, &ignored);
        }
    }
    // Folders no record names are on disk but not loaded (an old direct install, say).
    for marketplace in subfolders(installed_dir) {
        for dir in subfolders(&marketplace) {
            if !out.plugins.iter().any(|p| p.dir == dir) {
                let name = folder_name(&dir);
                plugins_at(&mut out, &name, dir, None, false, &[]);
            }
        }
    }
    out
}

/// The folder of a marketplace whose source is a local directory.
fn directory_source(entry: &serde_json::Value) -> Option<&str> {
    let source = entry.get("source")?;
    (source.get("source")?.as_str()? == "directory")
        .then(|| source.get("path")?.as_str())
        .flatten()
}

/// The plugin in `dir`: its skills, those in a folder `ignored` names apart, not loaded
/// (`ignoredSkillsLocations` drops a folder a plugin's skills are looked for in as it drops a
/// skills root: at or below an entry, never for an entry inside it; agree::generate, case
/// copilot-plugin-ignored-location.txt).
fn plugins_at(
    out: &mut Listing,
    name: &str,
    dir: PathBuf,
    version: Option<String>,
    loaded: bool,
    ignored: &[PathBuf],
) {
    let manifest = super::read_manifest(&dir)
        .ok()
        .flatten()
        .unwrap_or_default();
    let (read, passed_over): (Vec<PathBuf>, Vec<PathBuf>) = containers(&dir, &manifest.skills)
        .into_iter()
        .partition(|container| {
            let container = crate::fs::lexical(container);
            !ignored
                .iter()
                .any(|location| container.starts_with(location))
        });
    let plugin = |skills, loaded| Plugin {
        name: name.to_owned(),
        skills,
        version: version.clone().or(manifest.version.clone()),
        dir: dir.clone(),
        loaded,
        naming: Naming::Bare,
        order: 0,
        hydration: None,
        entries: Vec::new(),
    };
    if !passed_over.is_empty() && loaded {
        for container in &passed_over {
            out.notes.push(format!(
                "ignoredSkillsLocations in Copilot's settings.json names {} or a folder above it, \
                 so Copilot reads none of the plugin {name}'s skills there",
                container.display()
            ));
        }
        out.plugins.push(plugin(skills_in(&passed_over), false));
        out.plugins.push(plugin(skills_in(&read), true));
    } else {
        let all: Vec<PathBuf> = read.into_iter().chain(passed_over).collect();
        out.plugins.push(plugin(skills_in(&all), loaded));
    }
}

/// The folders Copilot looks for a plugin's skills in: the manifest's `skills` paths, else
/// `skills/`, else the plugin's own folder when it holds a `SKILL.md`.
fn containers(dir: &Path, listed: &[String]) -> Vec<PathBuf> {
    if listed.is_empty() && !dir.join("skills").is_dir() && dir.join(SKILL_FILE).is_file() {
        return vec![dir.to_path_buf()];
    }
    if listed.is_empty() {
        vec![dir.join("skills")]
    } else {
        listed
            .iter()
            .filter_map(|relative| super::inside(dir, relative))
            .collect()
    }
}

/// The skills in those folders by Copilot's rules: one that is a skill is that one skill.
fn skills_in(containers: &[PathBuf]) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for container in containers {
        if container.join(SKILL_FILE).is_file() {
            found.push(container.clone());
        } else {
            found.extend(skills_below(container, DESCENT));
        }
    }
    found.sort();
    found.dedup();
    found
}

/// A Copilot JSON file, which may hold `//` and `/* */` comments; a missing or unusable one
/// reads as empty, noted.
fn read_jsonc<T: for<'de> Deserialize<'de> + Default>(path: &Path, notes: &mut Vec<String>) -> T {
    let bytes = match read_record(path) {
        Ok(Some(bytes)) => bytes,
        Ok(None) => return T::default(),
        Err(note) => {
            notes.push(note.to_string());
            return T::default();
        }
    };
    let text = String::from_utf8_lossy(&bytes);
    serde_json::from_str(&strip_comments(&text)).unwrap_or_else(|error| {
        notes.push(format!(
            "{} is not the JSON Copilot writes there: {error}",
            path.display()
        ));
        T::default()
    })
}

/// `text` with its comments replaced by spaces (line breaks kept, so serde_json's line numbers
/// stay true), leaving everything inside strings alone: `"http://…"` is no comment.
///
/// Written here rather than taken from a crate: the files are Copilot's own, with comments
/// only, and this is the whole of what reading them needs. Its plugin records and its
/// ownership records are both read through it.
pub fn strip_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' => {
                out.push(c);
                while let Some(c) = chars.next() {
                    out.push(c);
                    match c {
                        '\\' => out.extend(chars.next()),
                        '"' => break,
                        _ => {}
                    }
                }
            }
            '/' if chars.peek() == Some(&'/') => {
                while chars.peek().is_some_and(|&c| c != '\n') {
                    chars.next();
                }
                out.push(' ');
            }
            '/' if chars.peek() == Some(&'*') => {
                chars.next();
                let mut last = ' ';
                for c in chars.by_ref() {
                    if last == '*' && c == '/' {
                        break;
                    }
                    out.push(if c == '\n' { '\n' } else { ' ' });
                    last = c;
                }
                out.push(' ');
            }
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plugin::tests::skill;
    use crate::roots::{Environment, Project};
    use std::fs;

    fn skills(dir: &Path, listed: &[String]) -> Vec<PathBuf> {
        skills_in(&containers(dir, listed))
    }

    /// The listing of `installed` (Copilot's home its parent), started in `start`.
    fn listed(installed: &Path, start: &Path) -> Listing {
        let home = installed.parent().unwrap();
        let env = Environment::new(home.parent().unwrap()).with_var("COPILOT_HOME", home);
        let context = Context {
            env: &env,
            project: &Project::locate(start),
        };
        super::listing(installed, &context)
    }

    /// `ignoredSkillsLocations` drops a plugin's skills when it names the folder they are
    /// looked for in or one above it, and not for a folder inside it.
    #[test]
    fn an_ignored_location_leaves_out_the_plugins_skills_folder_at_or_below_it() {
        let tmp = tempfile::tempdir().unwrap();
        let home = tmp.path().join("copilot");
        let installed = home.join("installed-plugins");
        let plugin = installed.join("_direct/p");
        skill(&plugin.join("skills/grp/deep"));
        skill(&plugin.join("skills/one"));
        let config = serde_json::json!({"installedPlugins": [{"name": "p", "marketplace": "",
            "enabled": true, "installed_at": "2026-11-01T10:00:00.000Z",
            "cache_path": plugin}]});
        fs::write(home.join("config.json"), config.to_string()).unwrap();
        let loaded_skills = |ignored: &Path| {
            let settings = serde_json::json!({"ignoredSkillsLocations": [ignored]});
            fs::write(home.join("settings.json"), settings.to_string()).unwrap();
            let listed = listed(&installed, tmp.path());
            let mut skills: Vec<PathBuf> = listed
                .plugins
                .iter()
                .filter(|p| p.loaded)
                .flat_map(|p| p.skills.clone())
                .collect();
            skills.sort();
            skills
        };
        let every = [plugin.join("skills/grp/deep"), plugin.join("skills/one")];
        for ignored in [home.clone(), plugin.clone(), plugin.join("skills")] {
            assert!(loaded_skills(&ignored).is_empty(), "{}", ignored.display());
        }
        for ignored in [plugin.join("skills/one"), plugin.join("skills/grp")] {
            assert_eq!(loaded_skills(&ignored), every, "{}", ignored.display());
        }
    }

    #[test]
    fn comments_go_and_strings_stay() {
        let text = "// User settings\n{\"a\": \"//not\", /* x */ \"b\": 1}";
        let value: serde_json::Value = serde_json::from_str(&strip_comments(text)).unwrap();
        assert_eq!(value["a"], "//not");
        assert_eq!(value["b"], 1);
    }

    #[test]
    fn skills_paths_replace_skills_and_a_root_skill_file_counts_only_without_either() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        skill(&dir.join("skills/grp/deep"));
        skill(dir);
        assert_eq!(skills(dir, &[]), [dir.join("skills/grp/deep")]);
        skill(&dir.join("extra/one"));
        assert_eq!(skills(dir, &["extra/".to_owned()]), [dir.join("extra/one")]);
        fs::remove_dir_all(dir.join("skills/grp")).unwrap();
        assert_eq!(
            skills(dir, &[]),
            Vec::<PathBuf>::new(),
            "an empty skills/ passes the root over"
        );
        fs::remove_dir_all(dir.join("skills")).unwrap();
        assert_eq!(skills(dir, &[]), [dir.to_path_buf()]);
    }

    /// Where each record loads from: `cache_path` absolute or from the start folder, else the
    /// marketplace's folder, a direct install without one from nowhere; one record Copilot
    /// cannot read voids them all.
    #[test]
    fn installed_records_as_copilot_reads_them() {
        let tmp = tempfile::tempdir().unwrap();
        let (home, start) = (tmp.path().join("copilot"), tmp.path().join("start"));
        let installed = home.join("installed-plugins");
        for dir in ["mkt/p-mkt", "_direct/p-direct", "_direct/p-abs"] {
            skill(&installed.join(dir).join("skills/s"));
        }
        skill(&start.join("rel/p-rel/skills/s"));
        let record = |name: &str, marketplace: &str, cache: Option<String>| {
            let mut record = serde_json::json!({"name": name, "marketplace": marketplace,
                "enabled": true, "installed_at": "2026-11-01T10:00:00.000Z"});
            if let Some(cache) = cache {
                record["cache_path"] = cache.into();
            }
            record
        };
        let absolute = installed
            .join("_direct/p-abs")
            .to_string_lossy()
            .into_owned();
        let mut records = vec![
            record("p-mkt", "mkt", None),
            record("p-direct", "", None),
            record("p-abs", "", Some(absolute)),
            record("p-rel", "mkt", Some("rel/p-rel".to_owned())),
        ];
        let write = |records: &[serde_json::Value]| {
            let config = serde_json::json!({ "installedPlugins": records });
            fs::write(home.join("config.json"), config.to_string()).unwrap();
        };
        write(&records);
        let loaded = |listing: &Listing| -> Vec<String> {
            let mut names: Vec<String> = listing
                .plugins
                .iter()
                .filter(|p| p.loaded)
                .map(|p| p.name.clone())
                .collect();
            names.sort();
            names
        };
        let listing = listed(&installed, &start);
        assert_eq!(
            loaded(&listing),
            ["p-abs", "p-mkt", "p-rel"],
            "{:?}",
            listing.notes
        );
        // `enabledPlugins` as an object decides for the marketplace's plugins, a key missing
        // is off; no key reaches a direct install.
        let settings = serde_json::json!({"enabledPlugins": {"p-rel@mkt": true, "p-abs@": false, "p-abs": false}});
        fs::write(home.join("settings.json"), settings.to_string()).unwrap();
        let switched = listed(&installed, &start);
        assert_eq!(
            loaded(&switched),
            ["p-abs", "p-rel"],
            "{:?}",
            switched.notes
        );
        records.push(serde_json::json!({"name": "no-time", "marketplace": "mkt", "enabled": true}));
        write(&records);
        let voided = listed(&installed, &start);
        assert_eq!(loaded(&voided), Vec::<String>::new());
        assert!(
            voided
                .notes
                .iter()
                .any(|n| n.contains("none of the installed plugins"))
        );
    }

    #[test]
    fn a_local_marketplace_loads_in_place_with_no_installed_plugins_folder() {
        let tmp = tempfile::tempdir().unwrap();
        let (home, market) = (tmp.path().join("copilot"), tmp.path().join("mkt"));
        fs::create_dir_all(market.join(".github/plugin")).unwrap();
        fs::write(
            market.join(".github/plugin/marketplace.json"),
            r#"{"name":"mymkt","plugins":[{"name":"pa","source":"./plugins/pa"},
                {"name":"off","source":"./plugins/off"}]}"#,
        )
        .unwrap();
        skill(&market.join("plugins/pa/skills/grp/sb"));
        skill(&market.join("plugins/off/skills/so"));
        fs::create_dir_all(&home).unwrap();
        let settings = serde_json::json!({
            "extraKnownMarketplaces": {"mymkt": {"source": {"source": "directory", "path": market}}},
            "enabledPlugins": {"pa@mymkt": true, "off@mymkt": false},
        });
        fs::write(home.join("settings.json"), settings.to_string()).unwrap();
        // What `copilot plugin install pa@mymkt` leaves: no `installed-plugins` folder.
        let installed = home.join("installed-plugins");
        assert!(!installed.exists());
        let listing = listed(&installed, tmp.path());
        assert!(listing.notes.is_empty(), "{:?}", listing.notes);
        let [plugin] = listing.plugins.as_slice() else {
            panic!("{:?}", listing.plugins)
        };
        assert_eq!(plugin.name, "pa");
        assert!(plugin.loaded);
        assert_eq!(plugin.skills, [market.join("plugins/pa/skills/grp/sb")]);
    }
}
