//! Secrets in the names of a skill's files and folders. A name leaves in the package as
//! surely as a file's content, so each part of a path is read by the same rules, through the
//! same normalised view, and what they find is cut out of the name: the file is packed, under
//! its name with `[REDACTED-<rule>]` in place of the secret (a `:` is no part of a name a
//! package may hold). Leaving the file out instead would lose its content for the sake of its
//! name.
//!
//! Two names that differ only in their secrets must not become one, or one file would hide
//! the other: each distinct secret of a rule gets its own marker (`[REDACTED-github-token]`,
//! `[REDACTED-github-token-2]`, …), and the same secret the same one, so a folder keeps all
//! its files together. A secret no single part holds, only the path across its folders
//! (`password=/hunter2.txt`), cannot be cut out of one name: the file is left out.

use std::collections::HashMap;

use super::{Withheld, cut, hidden};

/// The names of one package's files, cleaned: the markers given so far.
#[derive(Default)]
pub struct Names {
    /// The marker of each secret met, by rule and secret.
    markers: HashMap<(&'static str, Vec<u8>), String>,
    /// How many distinct secrets each rule found.
    counts: HashMap<&'static str, usize>,
}

/// A path with the secrets of its names cut out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CleanPath {
    /// The path the file is packed under.
    pub path: String,
    /// The rule of every secret cut out of it.
    pub found: Vec<&'static str>,
}

impl Names {
    /// The path `rel` (`/`-separated) is packed under.
    ///
    /// # Errors
    /// [`Withheld::SecretPath`] when a secret runs across its folders, and no single name can
    /// lose it.
    pub fn clean(&mut self, rel: &str) -> Result<CleanPath, Withheld> {
        let mut found = Vec::new();
        let mut parts = Vec::new();
        for part in rel.split('/') {
            let (cleaned, rules) = cut(part.as_bytes(), false, &mut |rule, secret| {
                self.marker(rule, secret).into_bytes()
            })
            .unwrap_or((part.as_bytes().into(), Vec::new()));
            found.extend(rules);
            parts.push(String::from_utf8_lossy(&cleaned).into_owned());
        }
        let path = parts.join("/");
        if let Some(rule) = hidden(path.as_bytes(), 0) {
            return Err(Withheld::SecretPath { rule });
        }
        Ok(CleanPath { path, found })
    }

    fn marker(&mut self, rule: &'static str, secret: &[u8]) -> String {
        let key = (rule, secret.to_vec());
        if let Some(marker) = self.markers.get(&key) {
            return marker.clone();
        }
        let count = self.counts.entry(rule).or_default();
        *count += 1;
        let marker = match *count {
            1 => format!("[REDACTED-{rule}]"),
            n => format!("[REDACTED-{rule}-{n}]"),
        };
        self.markers.insert(key, marker.clone());
        marker
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TOKEN: &str = "ghp_0123456789abcdefghijklmnopqrstuvwxyz";

    fn clean(rel: &str) -> CleanPath {
        Names::default().clean(rel).unwrap()
    }

    #[test]
    fn a_secret_in_a_file_or_folder_name_is_cut_out_and_the_rest_kept() {
        for (rel, path, rule) in [
            (
                format!("refs/{TOKEN}.md"),
                "refs/[REDACTED-github-token].md".to_owned(),
                "github-token",
            ),
            (
                "AKIAIOSFODNN7EXAMPLE/notes.md".to_owned(),
                "[REDACTED-aws-access-key]/notes.md".to_owned(),
                "aws-access-key",
            ),
            (
                "keys/AKIA\u{200b}IOSFODNN7\u{2060}EXAMPLE.txt".to_owned(),
                "keys/[REDACTED-aws-access-key].txt".to_owned(),
                "aws-access-key",
            ),
            (
                "a/password=hunter2hunter2".to_owned(),
                "a/password=[REDACTED-assignment]".to_owned(),
                "assignment",
            ),
            (
                "scripts/sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123 run.sh".to_owned(),
                "scripts/[REDACTED-anthropic-key] run.sh".to_owned(),
                "anthropic-key",
            ),
        ] {
            assert_eq!(
                clean(&rel),
                CleanPath {
                    path,
                    found: vec![rule]
                },
                "{rel:?}"
            );
        }
        for plain in [
            "SKILL.md",
            "refs/翻訳 \u{1f468}\u{200d}\u{1f469}.md",
            "scripts/build_and_test_everything_quickly.sh",
            "assets/0123456789abcdef0123456789abcdef.png",
        ] {
            let cleaned = clean(plain);
            assert_eq!(cleaned.path, plain);
            assert!(cleaned.found.is_empty(), "{plain}: {:?}", cleaned.found);
        }
    }

    #[test]
    fn different_secrets_keep_different_names_and_the_same_secret_one() {
        let mut names = Names::default();
        let other = "ghp_ZYXWVUTSRQPONMLKJIHGFEDCBA9876543210zz";
        let a = names.clean(&format!("{TOKEN}/a.md")).unwrap().path;
        let b = names.clean(&format!("{TOKEN}/b.md")).unwrap().path;
        let c = names.clean(&format!("{other}/a.md")).unwrap().path;
        assert_eq!(a, "[REDACTED-github-token]/a.md");
        assert_eq!(b, "[REDACTED-github-token]/b.md");
        assert_eq!(c, "[REDACTED-github-token-2]/a.md");
    }

    #[test]
    fn a_secret_only_the_whole_path_holds_leaves_the_file_out() {
        // A name in one folder, its value in the next: no one name holds the secret.
        for rel in [
            "config/password=/hunter2hunter2.txt",
            "x/api_token =/s3cret-value/y.md",
        ] {
            assert_eq!(
                Names::default().clean(rel),
                Err(Withheld::SecretPath { rule: "assignment" }),
                "{rel}"
            );
        }
        assert!(!Withheld::SecretPath { rule: "jwt" }.may_be_included());
    }
}
