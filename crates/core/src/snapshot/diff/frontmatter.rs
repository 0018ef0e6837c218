//! Which frontmatter keys of `SKILL.md` changed: what an agent reads first (name,
//! description, allowed tools) deserves a line of its own above the text diff.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::skill::Frontmatter;

/// The frontmatter keys that differ, dotted for nested maps (`metadata.installed-version`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FrontmatterChange {
    pub added: Vec<String>,
    pub removed: Vec<String>,
    pub changed: Vec<String>,
    /// Why one side's frontmatter could not be compared, when it could not.
    pub unreadable: Option<String>,
}

impl FrontmatterChange {
    /// Compare the frontmatters of two `SKILL.md` texts (`None`: not text). The sides are
    /// named old and new, as the diff's `a/` and `b/` are: a snapshot and the folder now, two
    /// snapshots, an installer's copy and the folder, or the folder and what an import writes.
    pub fn between(old: Option<&str>, new: Option<&str>) -> Self {
        let parse = |side: &str, text: Option<&str>| match text {
            None => Err(format!("the {side} SKILL.md is not text")),
            Some(text) => Frontmatter::parse(text).map_err(|e| format!("{side}: {e}")),
        };
        match (parse("old", old), parse("new", new)) {
            (Ok(old), Ok(new)) => {
                let mut change = Self::default();
                compare_maps("", &old.fields, &new.fields, &mut change);
                change
            }
            (Err(why), _) | (_, Err(why)) => Self {
                unreadable: Some(why),
                ..Self::default()
            },
        }
    }

    pub fn is_empty(&self) -> bool {
        self.added.is_empty()
            && self.removed.is_empty()
            && self.changed.is_empty()
            && self.unreadable.is_none()
    }
}

fn compare_maps(
    prefix: &str,
    old: &BTreeMap<String, Value>,
    new: &BTreeMap<String, Value>,
    change: &mut FrontmatterChange,
) {
    let key = |k: &str| format!("{prefix}{k}");
    for (name, before) in old {
        match new.get(name) {
            None => change.removed.push(key(name)),
            Some(after) if after == before => {}
            Some(Value::Object(after)) if before.is_object() => {
                let before: BTreeMap<String, Value> = before
                    .as_object()
                    .map(|m| m.clone().into_iter().collect())
                    .unwrap_or_default();
                let after: BTreeMap<String, Value> = after.clone().into_iter().collect();
                compare_maps(&format!("{}.", key(name)), &before, &after, change);
            }
            Some(_) => change.changed.push(key(name)),
        }
    }
    for name in new.keys().filter(|name| !old.contains_key(*name)) {
        change.added.push(key(name));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn added_removed_changed_and_nested_keys_are_named() {
        let old = "---\nname: a\ndescription: old\nlicense: MIT\nmetadata:\n  installed-version: \"1.0.0\"\n  kept: x\n---\nbody\n";
        let new = "---\nname: a\ndescription: new\ncompatibility: any\nmetadata:\n  installed-version: \"1.1.0\"\n  kept: x\n---\nother body\n";
        let change = FrontmatterChange::between(Some(old), Some(new));
        assert_eq!(change.added, ["compatibility"]);
        assert_eq!(change.removed, ["license"]);
        assert_eq!(
            change.changed,
            ["description", "metadata.installed-version"]
        );
        assert_eq!(change.unreadable, None);
    }

    #[test]
    fn a_body_only_change_changes_no_key() {
        let change = FrontmatterChange::between(
            Some("---\nname: a\n---\nx\n"),
            Some("---\nname: a\n---\ny\n"),
        );
        assert!(change.is_empty());
    }

    #[test]
    fn an_unreadable_side_is_said() {
        let change = FrontmatterChange::between(Some("---\nname: a\n---\n"), Some("no fences"));
        assert!(change.unreadable.unwrap().starts_with("new: "));
        let binary = FrontmatterChange::between(None, Some("---\n---\n"));
        assert!(binary.unreadable.is_some());
    }
}
