//! Plugins as their agents record them, for the tests that need one installed.

use std::path::Path;

use super::write_files;

/// A Claude Code plugins folder: `installed_plugins.json` with these `(key, scope, path)`
/// installs, paths relative to the home, and each marketplace recorded in
/// `known_marketplaces.json` with a clone whose catalog lists its plugins (Claude Code loads
/// no plugin of a marketplace it does not know).
pub fn claude_plugin_installs(home: &Path, installs: &[(&str, &str, &str)]) {
    let mut plugins = serde_json::Map::new();
    let mut known = serde_json::Map::new();
    let mut catalogs: std::collections::BTreeMap<&str, Vec<serde_json::Value>> =
        std::collections::BTreeMap::new();
    for (key, _, _) in installs {
        let (plugin, marketplace) = key.rsplit_once('@').unwrap();
        let clone = home.join(".claude/plugins/marketplaces").join(marketplace);
        known.insert(
            marketplace.to_owned(),
            serde_json::json!({"source": {"source": "github", "repo": "a/b"}, "installLocation": clone}),
        );
        catalogs
            .entry(marketplace)
            .or_default()
            .push(serde_json::json!({"name": plugin, "source": format!("./{plugin}")}));
    }
    for (marketplace, entries) in catalogs {
        let catalog = serde_json::json!({"name": marketplace, "plugins": entries});
        write_files(
            &home.join(".claude/plugins/marketplaces").join(marketplace),
            &[(".claude-plugin/marketplace.json", &catalog.to_string())],
        );
    }
    write_files(
        &home.join(".claude/plugins"),
        &[(
            "known_marketplaces.json",
            &serde_json::Value::Object(known).to_string(),
        )],
    );
    for (key, scope, path) in installs {
        let install = serde_json::json!([{
            "scope": scope,
            "installPath": home.join(path),
            "version": "1.0.0",
        }]);
        plugins.insert((*key).to_owned(), install);
    }
    let file = serde_json::json!({ "version": 2, "plugins": plugins });
    write_files(
        &home.join(".claude/plugins"),
        &[("installed_plugins.json", &file.to_string())],
    );
}
