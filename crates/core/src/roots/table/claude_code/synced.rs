//! Which folder of `skills/synced` Claude Code 2.1.332 loads the skills synced from claude.ai
//! from: `synced/<org>_<account>` (each a lower-case UUID, or `unbound` for the account), one
//! folder, the current identity's, and only when a `synced/.bucket-<org>_<account>` marker file
//! stands beside it. Skills right below `synced` are never loaded.
//!
//! Read in the 2.1.332 binary's bundled JS (its skill loader; names as minified there):
//! - the loader reads `SK(join(userSkills, "synced", bucket), "userSettings", "syncedSkills")`
//!   only when `iTo()` (sync is on: `CLAUDE_CODE_SYNC_SKILLS`, `CLAUDE_CODE_SYNC_SESSION_REFS`,
//!   or the session signed in to claude.ai, `Va().source === "claude.ai"`), when `Tj()` gives a
//!   bucket and when `vut(synced, bucket)` finds the marker file `.bucket-<bucket>`;
//! - `Tj()`: the organization is `CLAUDE_CODE_ORGANIZATION_UUID`, else `oauthAccount
//!   .organizationUuid` of the global config (`Xe()`); none, or not a UUID, and nothing loads.
//!   With a token signed in and kept by Claude Code (`Ry() === "store"`) the account is
//!   `oauthAccount.accountUuid` (`S3n()`, none loads without it); with no OAuth token, or one
//!   from `CLAUDE_CODE_OAUTH_TOKEN`, it is `CLAUDE_CODE_ACCOUNT_UUID`, else `unbound`
//!   (`a9n(org, account ?? "unbound")`, both lower-cased);
//! - `Va()`: the source is claude.ai when neither `ANTHROPIC_AUTH_TOKEN` nor
//!   `CLAUDE_CODE_OAUTH_TOKEN` is set and the stored OAuth token (`.credentials.json` in
//!   `CLAUDE_SECURESTORAGE_CONFIG_DIR`, else the config folder) has the `user:inference` scope.
//!
//! Asked of the agent (agree::claude_code, agree::generate class `claude-synced`): signed in
//! with a stored token, or signed out with `CLAUDE_CODE_SYNC_SKILLS` and the account variable
//! or none. Its skills are listed as `anthropic-skills:<folder>` (`S5e`), beside a personal
//! skill of the same folder name. Not modelled: a token from a file descriptor, an
//! `apiKeyHelper`, and macOS, where the token is in the keychain rather than the file.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::super::Environment;

/// The variables the choice reads.
pub(in crate::roots) const VARIABLES: &[&str] = &[
    "CLAUDE_CODE_SYNC_SKILLS",
    "CLAUDE_CODE_SYNC_SESSION_REFS",
    "CLAUDE_CODE_ORGANIZATION_UUID",
    "CLAUDE_CODE_ACCOUNT_UUID",
    "CLAUDE_CODE_OAUTH_TOKEN",
    "ANTHROPIC_AUTH_TOKEN",
    "CLAUDE_SECURESTORAGE_CONFIG_DIR",
    "CLAUDE_CONFIG_DIR",
];

/// The prefix of every synced skill's listed name.
pub(super) const QUALIFIER: &str = "anthropic-skills";

/// The account folder that stands for no account (`C` in the binary).
const UNBOUND: &str = "unbound";

/// Where the signed-in token comes from, as `Op()` and `Ry()` tell it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Token {
    /// `CLAUDE_CODE_OAUTH_TOKEN`.
    Variable,
    /// The token Claude Code stored when it signed in; `inference` when it may be used for
    /// the model (then the session is claude.ai's).
    Stored {
        inference: bool,
    },
    None,
}

/// The folder below `synced` Claude Code loads in `env`, if it loads one.
pub(in crate::roots) fn loaded(env: &Environment, synced: &Path) -> Option<PathBuf> {
    let config = json(&global_config(env));
    let account = config.as_ref().and_then(|c| c.get("oauthAccount"));
    let token = token(env, &secure_storage(env).join(".credentials.json"));
    let folder = bucket(env, account, token)?;
    let claude_ai = matches!(token, Token::Stored { inference: true })
        && env.var("ANTHROPIC_AUTH_TOKEN").is_none();
    let sync_on = env.flag("CLAUDE_CODE_SYNC_SKILLS")
        || env.flag("CLAUDE_CODE_SYNC_SESSION_REFS")
        || claude_ai;
    let marked = synced.join(format!(".bucket-{folder}")).is_file();
    (sync_on && marked).then(|| synced.join(folder))
}

/// `<org>_<account>` as `Tj()` makes it, or none.
fn bucket(env: &Environment, account: Option<&Value>, token: Token) -> Option<String> {
    let field = |key: &str| account.and_then(|a| a.get(key)).and_then(Value::as_str);
    // The variable wins when set, even when it is no UUID (then nothing loads).
    let org = match env.var("CLAUDE_CODE_ORGANIZATION_UUID") {
        Some(value) => uuid(value.to_str()?)?,
        None => uuid(field("organizationUuid")?)?,
    };
    let account = match token {
        Token::Stored { .. } => uuid(field("accountUuid")?)?,
        Token::Variable | Token::None => env
            .var("CLAUDE_CODE_ACCOUNT_UUID")
            .and_then(|value| uuid(value.to_str()?))
            .unwrap_or_else(|| UNBOUND.to_owned()),
    };
    Some(format!("{org}_{account}"))
}

/// The global config that holds `oauthAccount`: `.claude.json` in `CLAUDE_CONFIG_DIR`, else
/// in the home directory.
fn global_config(env: &Environment) -> PathBuf {
    env.var("CLAUDE_CONFIG_DIR")
        .map_or_else(|| env.home().to_path_buf(), PathBuf::from)
        .join(".claude.json")
}

/// The folder of the stored OAuth token (`I6()`): `CLAUDE_SECURESTORAGE_CONFIG_DIR`, else the
/// config folder (`CLAUDE_CONFIG_DIR`, else `~/.claude`).
fn secure_storage(env: &Environment) -> PathBuf {
    env.var("CLAUDE_SECURESTORAGE_CONFIG_DIR")
        .or_else(|| env.var("CLAUDE_CONFIG_DIR"))
        .map_or_else(|| env.home().join(".claude"), PathBuf::from)
}

fn token(env: &Environment, credentials: &Path) -> Token {
    if env.var("CLAUDE_CODE_OAUTH_TOKEN").is_some() {
        return Token::Variable;
    }
    let stored = json(credentials).and_then(|c| c.get("claudeAiOauth").cloned());
    let Some(stored) = stored else {
        return Token::None;
    };
    let has_token = stored
        .get("accessToken")
        .and_then(Value::as_str)
        .is_some_and(|t| !t.is_empty());
    if !has_token {
        return Token::None;
    }
    let inference = stored
        .get("scopes")
        .and_then(Value::as_array)
        .is_some_and(|scopes| scopes.iter().any(|s| s.as_str() == Some("user:inference")));
    Token::Stored { inference }
}

/// `text` lower-cased when it is a UUID (`BYt()`: 8-4-4-4-12 hexadecimal digits, any case).
fn uuid(text: &str) -> Option<String> {
    let groups: Vec<&str> = text.split('-').collect();
    let shape = [8, 4, 4, 4, 12];
    let fits = groups.len() == shape.len()
        && groups
            .iter()
            .zip(shape)
            .all(|(g, n)| g.len() == n && g.bytes().all(|b| b.is_ascii_hexdigit()));
    fits.then(|| text.to_ascii_lowercase())
}

/// A small JSON file of Claude Code's, or none when it is missing, too large or unreadable.
fn json(path: &Path) -> Option<Value> {
    let bytes = crate::fs::read_bounded(
        path,
        crate::fs::Links::Follow,
        crate::limits::USAGE.counters_bytes,
    )
    .ok()?;
    serde_json::from_slice(&bytes).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    const ORG: &str = "0F8C3A52-1111-4222-8333-444455556666";
    const ACCOUNT: &str = "9a7b1c2d-5555-4666-8777-888899990000";

    struct Home {
        dir: tempfile::TempDir,
    }

    impl Home {
        fn new() -> Self {
            let dir = tempfile::tempdir().unwrap();
            std::fs::create_dir_all(dir.path().join(".claude/skills/synced")).unwrap();
            Self { dir }
        }
        fn synced(&self) -> PathBuf {
            self.dir.path().join(".claude/skills/synced")
        }
        fn env(&self) -> Environment {
            Environment::new(self.dir.path())
        }
        fn account(&self, org: &str, account: &str) {
            let text = format!(
                r#"{{"oauthAccount": {{"organizationUuid": "{org}", "accountUuid": "{account}"}}}}"#
            );
            std::fs::write(self.dir.path().join(".claude.json"), text).unwrap();
        }
        fn signed_in(&self, scopes: &str) {
            let text =
                format!(r#"{{"claudeAiOauth": {{"accessToken": "t", "scopes": [{scopes}]}}}}"#);
            std::fs::write(self.dir.path().join(".claude/.credentials.json"), text).unwrap();
        }
        fn mark(&self, folder: &str) {
            std::fs::write(self.synced().join(format!(".bucket-{folder}")), "").unwrap();
        }
        fn loaded(&self, env: &Environment) -> Option<String> {
            loaded(env, &self.synced()).map(|p| p.file_name().unwrap().to_string_lossy().into())
        }
    }

    fn lower(folder: &str) -> String {
        folder.to_ascii_lowercase()
    }

    #[test]
    fn signed_in_it_loads_the_accounts_marked_folder_only() {
        let home = Home::new();
        home.account(ORG, ACCOUNT);
        home.signed_in(r#""user:inference""#);
        let mine = lower(&format!("{ORG}_{ACCOUNT}"));
        assert_eq!(home.loaded(&home.env()), None, "no marker, no folder");
        home.mark(&lower(&format!("{ORG}_unbound")));
        assert_eq!(home.loaded(&home.env()), None, "another bucket's marker");
        home.mark(&mine);
        assert_eq!(home.loaded(&home.env()), Some(mine.clone()));
        // The organization variable moves it; the account variable does not, signed in.
        let other = "11111111-2222-4333-8444-555555555555";
        let env = home
            .env()
            .with_var("CLAUDE_CODE_ORGANIZATION_UUID", other)
            .with_var("CLAUDE_CODE_ACCOUNT_UUID", other);
        assert_eq!(home.loaded(&env), None);
        home.mark(&format!("{other}_{ACCOUNT}"));
        assert_eq!(home.loaded(&env), Some(format!("{other}_{ACCOUNT}")));
    }

    #[test]
    fn a_token_without_inference_or_beside_an_auth_token_needs_the_sync_switch() {
        let home = Home::new();
        home.account(ORG, ACCOUNT);
        let mine = lower(&format!("{ORG}_{ACCOUNT}"));
        home.mark(&mine);
        home.signed_in(r#""user:profile""#);
        assert_eq!(home.loaded(&home.env()), None);
        let env = home.env().with_var("CLAUDE_CODE_SYNC_SKILLS", "1");
        assert_eq!(home.loaded(&env), Some(mine.clone()));
        home.signed_in(r#""user:inference""#);
        let env = home.env().with_var("ANTHROPIC_AUTH_TOKEN", "x");
        assert_eq!(home.loaded(&env), None);
    }

    #[test]
    fn signed_out_the_switch_loads_the_unbound_or_the_variables_account() {
        let home = Home::new();
        home.account(ORG, ACCOUNT);
        let unbound = lower(&format!("{ORG}_unbound"));
        home.mark(&unbound);
        home.mark(&lower(&format!("{ORG}_{ACCOUNT}")));
        assert_eq!(home.loaded(&home.env()), None, "sync is off signed out");
        let on = home.env().with_var("CLAUDE_CODE_SYNC_SESSION_REFS", "1");
        assert_eq!(home.loaded(&on), Some(unbound.clone()));
        let env = on.clone().with_var("CLAUDE_CODE_ACCOUNT_UUID", ACCOUNT);
        assert_eq!(home.loaded(&env), Some(lower(&format!("{ORG}_{ACCOUNT}"))));
        // A token in the variable counts as no stored one: still the variable's account.
        let env = on.clone().with_var("CLAUDE_CODE_OAUTH_TOKEN", "t");
        home.signed_in(r#""user:inference""#);
        assert_eq!(home.loaded(&env), Some(unbound));
        // An account variable that is no UUID is no account.
        let env = on.with_var("CLAUDE_CODE_ACCOUNT_UUID", "me");
        assert_eq!(
            bucket(&env, None, Token::None),
            None,
            "no organization, no folder"
        );
    }

    #[test]
    fn an_organization_that_is_no_uuid_loads_nothing() {
        let home = Home::new();
        home.account("acme", ACCOUNT);
        home.signed_in(r#""user:inference""#);
        home.mark(&format!("acme_{ACCOUNT}"));
        assert_eq!(home.loaded(&home.env()), None);
        home.account(ORG, ACCOUNT);
        let env = home.env().with_var("CLAUDE_CODE_ORGANIZATION_UUID", "acme");
        home.mark(&lower(&format!("{ORG}_{ACCOUNT}")));
        assert_eq!(home.loaded(&env), None, "a bad variable is not passed over");
        assert_eq!(uuid("0f8c3a52-1111-4222-8333-44445555666"), None);
        assert_eq!(uuid("0f8c3a52-1111-4222-8333-44445555666g"), None);
    }
}
