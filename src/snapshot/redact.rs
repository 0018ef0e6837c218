//! Removing secrets from a skill's files before they leave the machine in an export.
//!
//! The rules find private keys; AWS, GCP, GitHub, GitLab, Slack, OpenAI and Anthropic tokens;
//! and `password=`-style assignments. They run on bytes, so a binary file is scanned too: a
//! secret in a text file is replaced by `[REDACTED:<rule>]`, and a secret in a binary file, which
//! cannot be edited safely, fails the export. The scan fails closed: whatever cannot be scanned
//! is not exported.

use std::borrow::Cow;
use std::sync::LazyLock;

use regex::bytes::{Captures, Regex};

use crate::skill::manifest_text;

/// One kind of secret and how to find it.
struct Rule {
    name: &'static str,
    pattern: Regex,
    /// Replace only the value of an assignment (capture `value`), keeping its name.
    assignment: bool,
}

/// The rules, most specific first: a token found by its own rule is not then found again by
/// the assignment rule as the value of `api_key=`.
static RULES: LazyLock<Vec<Rule>> = LazyLock::new(|| {
    let rule = |name, pattern: &str, assignment| Rule {
        name,
        // The patterns are constants; the tests compile every one of them.
        pattern: Regex::new(pattern).unwrap_or_else(|e| panic!("rule {name}: {e}")),
        assignment,
    };
    vec![
        rule(
            "private-key",
            r"-----BEGIN[ A-Z0-9]*PRIVATE KEY-----(?s-u:.)*?(?:-----END[ A-Z0-9]*PRIVATE KEY-----|\z)",
            false,
        ),
        rule(
            "aws-access-key",
            r"\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b",
            false,
        ),
        rule("gcp-api-key", r"\bAIza[0-9A-Za-z_\-]{35}", false),
        rule("gcp-oauth-token", r"\bya29\.[0-9A-Za-z_\-]{20,}", false),
        rule(
            "github-token",
            r"\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})",
            false,
        ),
        rule(
            "gitlab-token",
            r"\bgl(?:pat|dt|rt|ptt|soat|cbt|ft|imt)-[0-9A-Za-z_\-]{20,}",
            false,
        ),
        rule(
            "slack-token",
            r"\b(?:xox[abposre]-[0-9A-Za-z\-]{10,}|xapp-\d-[0-9A-Za-z\-]{10,})",
            false,
        ),
        rule(
            "slack-webhook",
            r"https://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9_/]+",
            false,
        ),
        rule("anthropic-key", r"\bsk-ant-[A-Za-z0-9_\-]{20,}", false),
        rule(
            "openai-key",
            r"\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_\-]{20,}",
            false,
        ),
        rule(
            "assignment",
            r#"(?i)\b(?:password|passwd|pwd|secret|client_secret|secret_key|api_key|apikey|api-key|access_token|auth_token|private_key_id|aws_secret_access_key)\b["']?\s*[:=]\s*(?P<value>"[^"\n]*"|'[^'\n]*'|[^\s"',;]+)"#,
            true,
        ),
    ]
});

/// A file's content with its secrets removed, and which kinds were found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Redacted<'a> {
    pub content: Cow<'a, [u8]>,
    /// The rule of every secret replaced, in the order the rules ran.
    pub found: Vec<&'static str>,
}

/// Why a file cannot be exported.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "it is not a text file but holds what looks like a secret ({0}), which cannot be removed from it safely"
)]
pub struct SecretInBinary(pub &'static str);

/// Remove the secrets of one file's content.
///
/// # Errors
/// [`SecretInBinary`] when a file that is not text holds a secret.
pub fn redact(content: &[u8]) -> Result<Redacted<'_>, SecretInBinary> {
    let text = manifest_text(content).is_ok();
    let mut found = Vec::new();
    let mut current: Cow<'_, [u8]> = Cow::Borrowed(content);
    for rule in RULES.iter() {
        let mut hits = 0usize;
        let replaced = rule.pattern.replace_all(&current, |caps: &Captures<'_>| {
            replacement(rule, caps, &mut hits)
        });
        if hits == 0 {
            continue;
        }
        if !text {
            return Err(SecretInBinary(rule.name));
        }
        found.extend(std::iter::repeat_n(rule.name, hits));
        current = Cow::Owned(replaced.into_owned());
    }
    Ok(Redacted {
        content: current,
        found,
    })
}

/// What one match becomes: the whole secret replaced, or an assignment's value, unless that
/// value is a placeholder (`$VAR`, `<your key>`, `{{ secret }}`, already redacted, empty).
fn replacement(rule: &Rule, caps: &Captures<'_>, hits: &mut usize) -> Vec<u8> {
    let whole = caps.get(0).map_or(&[][..], |m| m.as_bytes());
    let marker = format!("[REDACTED:{}]", rule.name).into_bytes();
    if !rule.assignment {
        *hits += 1;
        return marker;
    }
    let Some(value) = caps.name("value") else {
        return whole.to_vec();
    };
    let quoted = matches!(value.as_bytes().first(), Some(b'"' | b'\''));
    let inner = if quoted {
        &value.as_bytes()[1..value.as_bytes().len().saturating_sub(1).max(1)]
    } else {
        value.as_bytes()
    };
    let placeholder = inner.is_empty()
        || matches!(inner.first(), Some(b'$' | b'<' | b'{' | b'%' | b'['))
        || inner.starts_with(b"REDACTED");
    if placeholder {
        return whole.to_vec();
    }
    *hits += 1;
    let start = value.start() - caps.get(0).map_or(0, |m| m.start());
    let mut out = whole[..start].to_vec();
    if quoted {
        out.push(value.as_bytes()[0]);
        out.extend_from_slice(&marker);
        out.push(value.as_bytes()[0]);
    } else {
        out.extend_from_slice(&marker);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clean(text: &str) -> String {
        String::from_utf8(redact(text.as_bytes()).unwrap().content.into_owned()).unwrap()
    }

    fn found(text: &str) -> Vec<&'static str> {
        redact(text.as_bytes()).unwrap().found
    }

    #[test]
    fn every_rule_compiles() {
        assert_eq!(RULES.len(), 11);
    }

    #[test]
    fn each_kind_of_token_is_replaced() {
        let cases = [
            ("AKIAIOSFODNN7EXAMPLE", "aws-access-key"),
            ("AIzaSyA1234567890abcdefghijklmnopqrstuv", "gcp-api-key"),
            ("ya29.a0AfH6SMBx1234567890abcdefghij", "gcp-oauth-token"),
            ("ghp_0123456789abcdefghijklmnopqrstuvwxyz", "github-token"),
            (
                "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz",
                "github-token",
            ),
            ("glpat-abcdefghij0123456789", "gitlab-token"),
            ("xoxb-1234567890-abcdefghij", "slack-token"),
            (
                "https://hooks.slack.com/services/T000/B000/XXXXXXXX",
                "slack-webhook",
            ),
            (
                "sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789",
                "anthropic-key",
            ),
            ("sk-proj-abcdefghijklmnopqrstuvwxyz012345", "openai-key"),
        ];
        for (token, rule) in cases {
            let text = format!("use {token} here\n");
            assert_eq!(
                clean(&text),
                format!("use [REDACTED:{rule}] here\n"),
                "{token}"
            );
            assert_eq!(found(&text), [rule], "{token}");
        }
    }

    #[test]
    fn a_private_key_block_goes_whole_even_unterminated() {
        let text = "before\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3Blbn\nNzaC1\n-----END OPENSSH PRIVATE KEY-----\nafter\n";
        assert_eq!(clean(text), "before\n[REDACTED:private-key]\nafter\n");
        let cut = "x -----BEGIN RSA PRIVATE KEY-----\nMIIE\n";
        assert_eq!(clean(cut), "x [REDACTED:private-key]");
        // A service-account JSON keeps its key escaped on one line.
        let json =
            r#"{"private_key": "-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----\n"}"#;
        assert_eq!(
            clean(json),
            r#"{"private_key": "[REDACTED:private-key]\n"}"#
        );
    }

    #[test]
    fn assignments_lose_their_values_but_placeholders_stay() {
        assert_eq!(
            clean("password=hunter2\nPASSWORD: \"s3cret\"\napi_key = 'abc'\n"),
            "password=[REDACTED:assignment]\nPASSWORD: \"[REDACTED:assignment]\"\napi_key = '[REDACTED:assignment]'\n"
        );
        for kept in [
            "password=$PASSWORD",
            "password: <your password>",
            "password = \"\"",
            "secret: {{ vault.secret }}",
        ] {
            assert_eq!(clean(kept), kept);
            assert!(found(kept).is_empty(), "{kept}");
        }
    }

    #[test]
    fn text_without_secrets_is_borrowed_untouched() {
        let text = b"# A skill\n\nRun `make test`.\n";
        let redacted = redact(text).unwrap();
        assert!(matches!(redacted.content, Cow::Borrowed(_)));
        assert!(redacted.found.is_empty());
    }

    #[test]
    fn a_binary_file_with_a_secret_fails_and_without_one_passes() {
        let mut binary = vec![0u8, 1, 2, 255];
        assert!(redact(&binary).unwrap().found.is_empty());
        binary.extend_from_slice(b"ghp_0123456789abcdefghijklmnopqrstuvwxyz");
        assert_eq!(redact(&binary), Err(SecretInBinary("github-token")));
    }
}
