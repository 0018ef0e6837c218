//! OpenCode's configuration as OpenCode merges it: which files it reads, in which order, each
//! parsed as JSONC and merged deeply into the ones before, with JavaScript's key order kept,
//! because the order of its permission rules decides which one wins (OpenCode 1.18.33,
//! `Config.loadInstanceState` and `ConfigPaths` in its bundle).

use std::path::{Path, PathBuf};

use jsonc_parser::ast;

use crate::roots::dialect::{Syntax, opencode_options, past_the_mark};
use jsonc_parser::CollectOptions;

use super::{Environment, OPENCODE_CONFIG_DIR, XDG_CONFIG};
use crate::roots::SystemPath;
use crate::roots::{Beyond, Project, Walk};

/// OpenCode's managed config folder on each platform: `managedConfigDir` in the opencode 1.18.33
/// bundle the agreement suite runs switches on the platform to `/Library/Application
/// Support/opencode` (darwin), `%ProgramData%\opencode` (win32, `C:\ProgramData` when unset)
/// and `/etc/opencode` (the rest).
const MANAGED: SystemPath = SystemPath {
    linux: "etc/opencode",
    macos: "Library/Application Support/opencode",
    windows: "ProgramData/opencode",
};

/// A JSON value as OpenCode holds it after `JSON.parse`: objects keep JavaScript's key order.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Json {
    Object(Object),
    String(String),
    Bool(bool),
    /// Numbers, arrays and `null`: nothing this reader needs looks inside them.
    Other,
}

/// An object's entries in JavaScript's order: keys that are array indices first, ascending,
/// then the others in the order they were first set; setting a key again keeps its place.
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct Object(Vec<(String, Json)>);

impl Object {
    pub(super) fn get(&self, key: &str) -> Option<&Json> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    pub(super) fn entries(&self) -> impl Iterator<Item = (&str, &Json)> {
        self.0.iter().map(|(k, v)| (k.as_str(), v))
    }

    /// Set `key` as JavaScript's `object[key] = value` does.
    pub(super) fn set(&mut self, key: String, value: Json) {
        if let Some(slot) = self.0.iter_mut().find(|(k, _)| *k == key) {
            slot.1 = value;
            return;
        }
        let at = if array_index(&key).is_some() {
            let index = array_index(&key);
            self.0
                .iter()
                .position(|(k, _)| array_index(k).is_none_or(|other| Some(other) > index))
                .unwrap_or(self.0.len())
        } else {
            self.0.len()
        };
        self.0.insert(at, (key, value));
    }

    pub(super) fn from_entries(entries: impl IntoIterator<Item = (String, Json)>) -> Self {
        let mut object = Object::default();
        for (key, value) in entries {
            object.set(key, value);
        }
        object
    }
}

/// The key as an array index (a canonical decimal below 2³² − 1), which JavaScript orders
/// before every other key.
fn array_index(key: &str) -> Option<u32> {
    let index: u32 = key.parse().ok()?;
    (index != u32::MAX && index.to_string() == key).then_some(index)
}

/// remeda's `mergeDeep`, which OpenCode merges its files with: `{...base, ...over}`, and the
/// objects both hold under one key merged the same way.
pub(super) fn merge(base: Object, over: Object) -> Object {
    let mut merged = base;
    for (key, value) in over.0 {
        let value = match (merged.get(&key), value) {
            (Some(Json::Object(old)), Json::Object(new)) => Json::Object(merge(old.clone(), new)),
            (_, value) => value,
        };
        merged.set(key, value);
    }
    merged
}

/// What one file says.
pub(super) enum Read {
    /// Missing, empty, or not readable within bounds: nothing.
    Nothing,
    Parsed(Object),
    /// Not JSONC, or not an object: OpenCode refuses it.
    Broken,
}

/// A configuration file, read within bounds and parsed as OpenCode parses it (Microsoft's
/// jsonc-parser with trailing commas allowed: comments and trailing commas, nothing looser).
pub(super) fn read(path: &Path) -> Read {
    match crate::roots::settings::bytes(path, crate::limits::SETTINGS_FILE_BYTES) {
        None => Read::Nothing,
        Some(bytes) => match String::from_utf8(bytes) {
            Ok(text) if text.is_empty() => Read::Nothing,
            Ok(text) => {
                parse(past_the_mark(&text, Syntax::Jsonc), true).map_or(Read::Broken, Read::Parsed)
            }
            Err(_) => Read::Broken,
        },
    }
}

/// `text` as an object: JSONC when `jsonc`, else strict JSON (as `JSON.parse` reads a variable).
pub(super) fn parse(text: &str, jsonc: bool) -> Option<Object> {
    let options = opencode_options(jsonc);
    let parsed = jsonc_parser::parse_to_ast(text, &CollectOptions::default(), &options).ok()?;
    match parsed.value.map(value)? {
        Json::Object(object) => Some(object),
        _ => None,
    }
}

fn value(value: ast::Value<'_>) -> Json {
    match value {
        ast::Value::Object(object) => Json::Object(Object::from_entries(
            object
                .properties
                .into_iter()
                .map(|prop| (prop.name.into_string(), self::value(prop.value))),
        )),
        ast::Value::StringLit(text) => Json::String(text.value.into_owned()),
        ast::Value::BooleanLit(flag) => Json::Bool(flag.value),
        _ => Json::Other,
    }
}

/// One step of OpenCode's merge.
pub(super) enum Layer {
    /// Files merged one after another. The global folder's are loaded as one (`all_or_none`):
    /// when one of them is broken OpenCode uses none of them ("failed to load global config,
    /// using defaults"). Any other broken file stops OpenCode, so it says nothing here.
    Files {
        files: Vec<PathBuf>,
        all_or_none: bool,
    },
    /// The configuration in the variable `OPENCODE_CONFIG_CONTENT`.
    Content,
}

/// What OpenCode merges, lowest precedence first: the global folder's `config.json`,
/// `opencode.json`, `opencode.jsonc`; `$OPENCODE_CONFIG`; the project's `opencode.json` and
/// `opencode.jsonc` from the farthest folder of the walk to the start folder (`.jsonc` over
/// `.json` in one folder); `opencode.json` and `opencode.jsonc` in each project `.opencode`
/// folder nearest first, then `~/.opencode` and `$OPENCODE_CONFIG_DIR`;
/// `OPENCODE_CONFIG_CONTENT`; last the managed folder's files ([`MANAGED`]). The project's files drop
/// out with `OPENCODE_DISABLE_PROJECT_CONFIG`. A file may come twice, where OpenCode reads it
/// twice (`OPENCODE_CONFIG_DIR` naming the global folder).
pub(super) fn layers(env: &Environment, project: &Project) -> Vec<Layer> {
    let global = XDG_CONFIG
        .resolve(env, project)
        .into_iter()
        .next()
        .map(|config| config.path.join("opencode"));
    let files = |files: Vec<PathBuf>| Layer::Files {
        files,
        all_or_none: false,
    };
    let mut layers = vec![Layer::Files {
        files: global
            .iter()
            .flat_map(|dir| ["config.json", "opencode.json", "opencode.jsonc"].map(|f| dir.join(f)))
            .collect(),
        all_or_none: true,
    }];
    if let Some(file) = env.var("OPENCODE_CONFIG") {
        layers.push(files(vec![project.start().join(file)]));
    }
    let own_project = !env.flag("OPENCODE_DISABLE_PROJECT_CONFIG");
    let levels: Vec<PathBuf> = project
        .levels(Walk::UpToRepositoryElse(Beyond::ToRoot), env)
        .into_iter()
        .map(|(dir, _)| dir)
        .collect();
    if own_project {
        layers.push(files(
            levels
                .iter()
                .rev()
                .flat_map(|dir| [dir.join("opencode.json"), dir.join("opencode.jsonc")])
                .collect(),
        ));
    }
    let config_dir = OPENCODE_CONFIG_DIR
        .resolve(env, project)
        .into_iter()
        .next()
        .map(|dir| dir.path);
    let mut dirs: Vec<PathBuf> = global.into_iter().collect();
    if own_project {
        dirs.extend(levels.iter().map(|dir| dir.join(".opencode")));
    }
    dirs.push(env.home().join(".opencode"));
    dirs.extend(config_dir.clone());
    let mut unique: Vec<PathBuf> = Vec::new();
    for dir in dirs {
        if !unique.contains(&dir) {
            unique.push(dir);
        }
    }
    layers.push(files(
        unique
            .into_iter()
            .filter(|dir| {
                dir.to_string_lossy().ends_with(".opencode") || Some(dir) == config_dir.as_ref()
            })
            .flat_map(|dir| [dir.join("opencode.json"), dir.join("opencode.jsonc")])
            .collect(),
    ));
    layers.push(Layer::Content);
    let managed = MANAGED.resolve(env);
    layers.push(files(vec![
        managed.join("opencode.json"),
        managed.join("opencode.jsonc"),
    ]));
    layers
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::roots::Platform;

    #[test]
    fn the_managed_files_are_the_last_layer_in_the_platforms_folder() {
        let project = Project::locate(Path::new("/work"));
        let expected = [
            (Platform::Xdg, "/sys/etc/opencode"),
            (Platform::MacOs, "/sys/Library/Application Support/opencode"),
            (Platform::Windows, "/sys/ProgramData/opencode"),
        ];
        for (platform, dir) in expected {
            let env = Environment::new("/me")
                .with_platform(platform)
                .with_var("SKILLDECK_SYSTEM_ROOT", "/sys");
            let Some(Layer::Files { files, .. }) = layers(&env, &project).pop() else {
                panic!("the last layer is not the managed files");
            };
            let dir = Path::new(dir);
            assert_eq!(
                files,
                [dir.join("opencode.json"), dir.join("opencode.jsonc")]
            );
        }
    }
}
