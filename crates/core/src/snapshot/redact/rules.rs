//! The kinds of secret an export removes, each as one named rule, and the values that are
//! placeholders and stay. Every rule runs on bytes; the names are what the export reports and
//! what `[REDACTED:<name>]` says.
//!
//! Written here rather than taken from a crate: the crates that carry a rule set are whole
//! scanners (a CLI, git history, SARIF, an MCP server) built to report findings, not to cut a
//! value out and keep the text around it, and none is both small and well kept.

use std::ops::Range;
use std::sync::LazyLock;

use regex::bytes::{Captures, Regex, RegexSet};

/// The words whose assignment holds a secret, as the last part of a name: `password`,
/// `DB_PASSWORD`, `APP_SECRET`, `STRIPE_SECRET_KEY`, `github_token`, `db.pass`. A word that
/// only ends the same (`bypass`, `max_tokens`, `password_hint`) is not one.
///
/// The id of a private or access key (`private_key_id` in a Google service-account key file,
/// `aws_access_key_id`) is one: it names the key that signs, as an AWS access key id does,
/// which the `aws-access-key` rule removes. The account's own names (`client_email`,
/// `client_id`, `project_id`) stay: they name who signs, and are shown wherever the account
/// is granted anything.
const SECRET_NAME: &str = r"(?:[a-z0-9_.\-]*?(?:password|passwd|passphrase|pwd|secret|token|credentials?|(?:private|access)[_\-]?key[_\-]?id|(?:api|access|secret|private|account|auth|master|encryption|signing|client)[_\-]?key|apikey)|(?:[a-z0-9_.\-]*[_.\-])?pass|[a-z0-9_.\-]*[_.\-]auth)";

/// How a rule's match becomes its replacement.
#[derive(Clone, Copy)]
enum Cut {
    /// The whole match is the secret, or its `value` when it has one (a token's pattern
    /// matches the underscore that bounds it, which is no part of the secret).
    Whole,
    /// Only the `value` capture is, unless it is a placeholder; the name before it stays.
    Value,
    /// Only the `value` capture, and only when the check says it is a secret and not prose.
    Checked(fn(&[u8]) -> bool),
}

/// One kind of secret and how to find it.
pub(super) struct Rule {
    pub name: &'static str,
    pub pattern: Regex,
    cut: Cut,
}

/// The rules, most specific first: a token found by its own rule is not then found again by
/// a generic rule as the value of `api_key=` (`[REDACTED:…]` is a placeholder).
pub(super) static RULES: LazyLock<Vec<Rule>> = LazyLock::new(|| {
    PATTERNS
        .iter()
        .map(|(name, pattern, cut)| Rule {
            name,
            // The patterns are constants; the tests compile every one of them.
            pattern: Regex::new(&ascii(pattern)).unwrap_or_else(|e| panic!("rule {name}: {e}")),
            cut: *cut,
        })
        .collect()
});

/// Every rule at once, to find out cheaply whether a piece of decoded data needs a closer look.
static ANY: LazyLock<RegexSet> = LazyLock::new(|| {
    RegexSet::new(PATTERNS.iter().map(|(_, pattern, _)| ascii(pattern)))
        .unwrap_or_else(|e| panic!("rule set: {e}"))
});

/// A pattern read byte by byte: classes, `\s` and `\b` are ASCII, so a rule never stops in the
/// middle of a UTF-8 character and runs as a DFA over binary data too.
fn ascii(pattern: &str) -> String {
    format!("(?-u){pattern}")
}

/// A vendor token's pattern, `body`, as a word of its own: after anything but a letter or a
/// digit, and (when `bounded`) before anything but one. An underscore bounds it too, although
/// `\b` counts it a letter: names join words with it (`backup_AKIA….txt`, `notes_ghp_….md`).
/// The underscore is matched outside the `value`, which is what is cut, so it stays.
fn token(body: &str, bounded: bool) -> String {
    let end = if bounded { r"(?:\b|_)" } else { "" };
    format!(r"(?:\b|_)(?P<value>{body}){end}")
}

static PATTERNS: LazyLock<Vec<(&'static str, String, Cut)>> = LazyLock::new(|| {
    let names = SECRET_NAME;
    vec![
        // PEM (any case, as some tools write it), PGP private key blocks, an unterminated
        // block to the end.
        (
            "private-key",
            r"(?i)-----\s*BEGIN[ A-Z0-9_-]*(?:PRIVATE|SECRET) KEY(?: BLOCK)?\s*-----(?s-u:.)*?(?:-----\s*END[ A-Z0-9_-]*(?:PRIVATE|SECRET) KEY(?: BLOCK)?\s*-----|\z)".to_owned(),
            Cut::Whole,
        ),
        // A PuTTY key file, header to MAC: its private lines sit between them.
        (
            "putty-private-key",
            r"(?i)PuTTY-User-Key-File-\d+[ \t]*:(?s-u:.)*?(?:Private-(?:MAC|Hash)[ \t]*:[^\r\n]*|\z)".to_owned(),
            Cut::Whole,
        ),
        (
            "aws-access-key",
            token(r"(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA)[0-9A-Z]{16}", true),
            Cut::Whole,
        ),
        ("gcp-api-key", token(r"AIza[0-9A-Za-z_\-]{35}", false), Cut::Whole),
        ("gcp-oauth-token", token(r"ya29\.[0-9A-Za-z_\-]{20,}", false), Cut::Whole),
        (
            "github-token",
            token(r"(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})", false),
            Cut::Whole,
        ),
        (
            "gitlab-token",
            token(r"gl(?:pat|dt|rt|ptt|soat|cbt|ft|imt)-[0-9A-Za-z_\-]{20,}", false),
            Cut::Whole,
        ),
        (
            "slack-token",
            token(r"(?:xox[abposre]-[0-9A-Za-z\-]{10,}|xapp-\d-[0-9A-Za-z\-]{10,})", false),
            Cut::Whole,
        ),
        (
            "slack-webhook",
            r"https://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9_/]+".to_owned(),
            Cut::Whole,
        ),
        ("anthropic-key", token(r"sk-ant-[A-Za-z0-9_\-]{20,}", false), Cut::Whole),
        (
            "openai-key",
            token(r"sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_\-]{20,}", false),
            Cut::Whole,
        ),
        (
            "huggingface-token",
            token(r"(?:hf_|api_org_)[A-Za-z0-9]{30,}", true),
            Cut::Whole,
        ),
        ("npm-token", token(r"npm_[A-Za-z0-9]{30,}", true), Cut::Whole),
        (
            "pypi-token",
            token(r"pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_\-]{30,}", false),
            Cut::Whole,
        ),
        // Secret and restricted keys, and webhook signing secrets; a publishable `pk_` key is
        // public by design.
        (
            "stripe-key",
            token(r"(?:(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{10,}|whsec_[0-9A-Za-z]{20,})", true),
            Cut::Whole,
        ),
        (
            "sendgrid-key",
            token(r"SG\.[A-Za-z0-9_\-]{16,32}\.[A-Za-z0-9_\-]{16,64}", false),
            Cut::Whole,
        ),
        // header.payload.signature, base64url; the header is JSON, so it starts `eyJ` (`{"`).
        (
            "jwt",
            token(r"eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-+/=]*", false),
            Cut::Whole,
        ),
        // A storage connection string's key, and a shared access signature in a URL.
        (
            "azure-storage-key",
            r#"(?i)\b(?:AccountKey|SharedAccessKey|SharedAccessSignature)[ \t]*=[ \t]*(?P<value>[^;\s"'<>]+)"#.to_owned(),
            Cut::Value,
        ),
        (
            "azure-sas-signature",
            r"(?i)[?&]sig=(?P<value>[A-Za-z0-9%+/=]{16,})".to_owned(),
            Cut::Value,
        ),
        // `Authorization: Bearer …`, `Basic …`, `token …`, in headers, curl flags, JSON, YAML.
        (
            "authorization-header",
            r#"(?i)\b(?:proxy-)?authorization["']?[ \t]*[:=][ \t]*["']?(?:(?:bearer|basic|token|bot|digest|negotiate|ntlm|apikey|sso-key)[ \t]+)?(?P<value>[^\s"']+)"#.to_owned(),
            Cut::Value,
        ),
        // Outside a header: `Basic` followed by base64 of `user:password`.
        (
            "basic-auth",
            r"\bBasic[ \t]+(?P<value>[A-Za-z0-9+/]{6,}={0,2})".to_owned(),
            Cut::Checked(is_basic_credential),
        ),
        (
            "bearer-token",
            r"(?i)\bbearer[ \t]+(?P<value>[A-Za-z0-9._~+/\-]{16,}=*)".to_owned(),
            Cut::Checked(is_token),
        ),
        // scheme://user:password@host; the password runs to the last `@` before the path.
        (
            "url-password",
            r#"(?i)\b[a-z][a-z0-9+.\-]{1,20}://[^\s:/@"'<>]*:(?P<value>[^\s/"'<>]+)@"#.to_owned(),
            Cut::Value,
        ),
        // <password>…</password>, <ApiKey>…</ApiKey>
        (
            "xml-secret",
            format!(r"(?i)<{names}>(?P<value>[^<]+)</"),
            Cut::Value,
        ),
        // name = value, name: value, name := value, name => value, quoted or not; a quoted
        // value may hold escaped quotes, an unquoted one runs to white space (`;` and `,` are
        // part of it), a YAML block scalar takes its indented lines.
        (
            "assignment",
            format!(
                r#"(?i)\b{names}["']?\]?[ \t]*(?::=|=>|=|:)[ \t]*(?P<value>"(?:[^"\\\r\n]|\\.)*"|'[^'\r\n]*'|[|>][-+0-9]*[ \t]*\r?\n(?:[ \t]+[^\r\n]*(?:\r?\n|\z))+|["'][^\r\n]*|\S+)"#
            ),
            Cut::Value,
        ),
    ]
});

/// The part of `caps` (a match of `rule`) that is a secret, or `None` when it is a
/// placeholder or prose.
pub(super) fn secret(rule: &Rule, caps: &Captures<'_>) -> Option<Range<usize>> {
    let whole = caps.get(0)?;
    let check = match rule.cut {
        Cut::Whole => return Some(caps.name("value").unwrap_or(whole).range()),
        Cut::Value => None,
        Cut::Checked(check) => Some(check),
    };
    let value = caps.name("value")?;
    let bytes = value.as_bytes();
    let (inner, range) = match bytes.first() {
        Some(&quote @ (b'"' | b'\'')) => {
            let end = if bytes.len() > 1 && bytes.last() == Some(&quote) {
                bytes.len() - 1
            } else {
                bytes.len()
            };
            (&bytes[1..end], value.start() + 1..value.start() + end)
        }
        Some(b'|' | b'>') if bytes.contains(&b'\n') => {
            // A YAML block scalar: its lines go, the line break that ends the block stays.
            let end = bytes.iter().rposition(|b| !b.is_ascii_whitespace())? + 1;
            let line = bytes.iter().position(|&b| b == b'\n')? + 1;
            let start = line
                + bytes[line..]
                    .iter()
                    .take_while(|b| matches!(b, b' ' | b'\t'))
                    .count();
            if start >= end {
                return None;
            }
            (
                &bytes[start..end],
                value.start() + start..value.start() + end,
            )
        }
        _ => (bytes, value.range()),
    };
    let quoted = range.start != value.start();
    let kept = match check {
        Some(check) => !check(inner),
        None => placeholder(inner) || (!quoted && reference(inner, caps)),
    };
    (!kept).then_some(range)
}

/// Whether the rules find any secret in `bytes`, and which rule found the first.
pub(super) fn first_hit(bytes: &[u8]) -> Option<&'static str> {
    let candidates = ANY.matches(bytes);
    if !candidates.matched_any() {
        return None;
    }
    candidates.iter().find_map(|index| {
        let rule = &RULES[index];
        rule.pattern
            .captures_iter(bytes)
            .any(|caps| secret(rule, &caps).is_some())
            .then_some(rule.name)
    })
}

/// A value that stands for a secret rather than being one: empty, a variable (`$NAME`,
/// `${NAME}`, `${{ secrets.X }}`, `%NAME%`), a template (`{{ … }}`, `<your key>`), a mask
/// (`****`, `xxxx`), a word no one uses as a secret (`true`, `none`), or one already redacted.
/// A literal that only starts with `$` or `[` (`$ecret`, `[hunter2]`, `$(echo …)`) is a
/// secret.
fn placeholder(value: &[u8]) -> bool {
    static VARIABLE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"^(?:\$[A-Z_][A-Z0-9_]*|\$\{[A-Za-z_][A-Za-z0-9_.]*\}|\$\{\{)(?:/\S*)?")
            .unwrap_or_else(|e| panic!("variable: {e}"))
    });
    static WORDS: [&str; 8] = [
        "true",
        "false",
        "null",
        "none",
        "nil",
        "undefined",
        "required",
        "optional",
    ];
    let value = value.trim_ascii();
    if value.is_empty()
        || value.starts_with(b"[REDACTED")
        || matches!(value.first(), Some(b'<' | b'{' | b'%'))
        || WORDS
            .iter()
            .any(|w| value.eq_ignore_ascii_case(w.as_bytes()))
        || value
            .iter()
            .all(|b| matches!(b, b'*' | b'x' | b'X' | b'.' | b'#'))
    {
        return true;
    }
    VARIABLE
        .find(value)
        .is_some_and(|found| found.end() == value.len() && !value[1..].contains(&b'$'))
}

/// An unquoted value that is code reading the secret from elsewhere, as scripts in a skill do:
/// a call (`getpass()`, `os.getenv("X")`), an index (`os.environ["X"]`), an attribute
/// (`args.token`, `process.env.API_KEY`), or the name itself (`api_key=api_key`).
fn reference(value: &[u8], caps: &Captures<'_>) -> bool {
    static CODE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"^[A-Za-z_][A-Za-z0-9_]*(?:(?:\.[A-Za-z_][A-Za-z0-9_]*)+|(?:\.[A-Za-z_][A-Za-z0-9_]*)*[(\[])")
            .unwrap_or_else(|e| panic!("code: {e}"))
    });
    let value = value.trim_ascii_end();
    let bare = value
        .iter()
        .rposition(|b| !matches!(b, b',' | b';' | b')' | b']' | b'}'))
        .map_or(&value[..0], |end| &value[..=end]);
    let name = caps.get(0).map_or(&b""[..], |m| {
        let text = m.as_bytes();
        let end = text
            .iter()
            .position(|b| !(b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.')))
            .unwrap_or(text.len());
        &text[..end]
    });
    CODE.is_match(bare) || (!bare.is_empty() && bare.eq_ignore_ascii_case(name))
}

/// `Basic` followed by base64 of `user:password`, not the word in prose.
fn is_basic_credential(value: &[u8]) -> bool {
    super::base64::decode(value)
        .is_some_and(|plain| plain.contains(&b':') && std::str::from_utf8(&plain).is_ok())
}

/// A bearer token rather than a word: it holds a digit, or is long and of mixed case.
fn is_token(value: &[u8]) -> bool {
    value.iter().any(u8::is_ascii_digit)
        || (value.len() >= 32
            && value.iter().any(u8::is_ascii_uppercase)
            && value.iter().any(u8::is_ascii_lowercase))
}

#[cfg(test)]
mod tests {
    use super::super::redact;
    use super::*;

    fn clean(text: &str) -> String {
        String::from_utf8(redact(text.as_bytes()).unwrap().content.into_owned()).unwrap()
    }

    fn found(text: &str) -> Vec<&'static str> {
        redact(text.as_bytes()).unwrap().found
    }

    /// Each text loses `secret` (and keeps its other words), found by `rule`.
    fn removed(rule: &str, cases: &[(&str, &str)]) {
        assert!(cases.len() >= 2, "{rule}: more than one case");
        for (text, secret) in cases {
            let out = clean(text);
            assert!(!out.contains(secret), "{rule}: {secret:?} left in {out:?}");
            assert!(
                out.contains(&format!("[REDACTED:{rule}]")),
                "{rule}: {text:?} became {out:?}"
            );
            assert!(found(text).contains(&rule), "{rule}: {:?}", found(text));
        }
    }

    /// Each text comes out as it went in.
    fn kept(cases: &[&str]) {
        for text in cases {
            assert_eq!(clean(text), *text);
            assert!(found(text).is_empty(), "{text:?}: {:?}", found(text));
        }
    }

    #[test]
    fn every_rule_compiles() {
        assert_eq!(RULES.len(), PATTERNS.len());
        assert_eq!(ANY.len(), RULES.len());
    }

    #[test]
    fn vendor_tokens_are_replaced_whole() {
        let cases = [
            ("AKIAIOSFODNN7EXAMPLE", "aws-access-key"),
            ("ASIAY34FZKBOKMUTVV7A", "aws-access-key"),
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
            ("hf_AbCdEfGhIjKlMnOpQrStUvWxYz01234567", "huggingface-token"),
            (
                "api_org_ZyXwVuTsRqPoNmLkJiHgFeDcBa98765432",
                "huggingface-token",
            ),
            ("npm_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8", "npm-token"),
            ("npm_ZZZZ9999yyyy8888XXXX7777wwww6666VVVV", "npm-token"),
            (
                "pypi-AgEIcHlwaS5vcmcCJGI4ZjYxYzQ0LTk0YjctNDc2Zi1hYzE0",
                "pypi-token",
            ),
            (
                "pypi-AgEIcHlwaS5vcmcCJDAwMDAwMDAwLTAwMDAtMDAwMC0wMDAwLTAw",
                "pypi-token",
            ),
            ("sk_live_51HxYzAbCdEfGhIjKlMnOp", "stripe-key"),
            ("rk_live_9f8e7d6c5b4a3210ZYXW", "stripe-key"),
            ("sk_test_4eC39HqLyjWDarjtT1zdp7dc", "stripe-key"),
            ("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "stripe-key"),
            (
                "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",
                "sendgrid-key",
            ),
            (
                "SG.abcdefghijklmnopqrstuv.abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG",
                "sendgrid-key",
            ),
        ];
        for (token, rule) in cases {
            let text = format!("use {token} here\n");
            assert_eq!(
                clean(&text),
                format!("use [REDACTED:{rule}] here\n"),
                "{token}"
            );
            assert_eq!(found(&text), [rule], "{token}");
            // Joined to words by underscores, as in a file name: the underscores stay.
            let joined = format!("backup_{token}_old.txt\n");
            let out = clean(&joined);
            assert!(
                out.starts_with(&format!("backup_[REDACTED:{rule}]")) && !out.contains(token),
                "{joined:?} -> {out:?}"
            );
        }
    }

    #[test]
    fn look_alikes_of_vendor_tokens_stay() {
        kept(&[
            "from huggingface_hub import hf_hub_download\n",
            "npm_config_cache=/tmp/npm\n",
            "Stripe secret keys start with sk_live_ and test keys with sk_test_.\n",
            "pk_live_51HxYzAbCdEfGhIjKlMnOp is the publishable key\n",
            "AKIA is the prefix of an access key id\n",
            "the header starts eyJhbGciOi when it is JSON\n",
            "my_AKIAIOSFODNN7EXAMPLEX is longer than a key\n",
            "is_sk_live_ and rk_test_ are prefixes\n",
        ]);
    }

    #[test]
    fn private_key_blocks_go_whole_in_any_case_even_unterminated() {
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
        removed(
            "private-key",
            &[
                (
                    "-----begin rsa private key-----\nMIIEowIBAAKCAQEAsecretbody\n-----end rsa private key-----\n",
                    "MIIEowIBAAKCAQEAsecretbody",
                ),
                (
                    "-----Begin EC Private Key-----\nMHcCAQEEIlowercasebody\n",
                    "MHcCAQEEIlowercasebody",
                ),
                (
                    "-----BEGIN PGP PRIVATE KEY BLOCK-----\n\nlQOYBGPgpbodyline\n=abcd\n-----END PGP PRIVATE KEY BLOCK-----\n",
                    "lQOYBGPgpbodyline",
                ),
                (
                    "key:\n-----BEGIN ENCRYPTED PRIVATE KEY-----\nMIIFHzBJBgkqhkiG9w0BBQ0w\n-----END ENCRYPTED PRIVATE KEY-----",
                    "MIIFHzBJBgkqhkiG9w0BBQ0w",
                ),
            ],
        );
        kept(&[
            "-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYI\n-----END PUBLIC KEY-----\n",
            "-----BEGIN PGP PUBLIC KEY BLOCK-----\nmQINBF\n-----END PGP PUBLIC KEY BLOCK-----\n",
            "-----BEGIN CERTIFICATE-----\nMIIDdzCCAl+g\n-----END CERTIFICATE-----\n",
        ]);
    }

    #[test]
    fn putty_key_files_go_whole() {
        removed(
            "putty-private-key",
            &[
                (
                    "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: me\nPublic-Lines: 2\nAAAAC3NzaC1lZDI1NTE5\nAAAAIPublicpart\nPrivate-Lines: 1\nAAAAIPrivatePuttyPart3\nPrivate-MAC: 8d1f2e3a4b5c6d7e\n",
                    "AAAAIPrivatePuttyPart3",
                ),
                (
                    "PuTTY-User-Key-File-2: ssh-rsa\r\nEncryption: none\r\nPrivate-Lines: 1\r\nAAABAQPuttyTwoPrivate\r\nPrivate-MAC: 0123abcd\r\n",
                    "AAABAQPuttyTwoPrivate",
                ),
                (
                    "puTTY-user-key-file-3: ecdsa\nPrivate-Lines: 1\nAAAAcutoffPuttyPrivate",
                    "AAAAcutoffPuttyPrivate",
                ),
            ],
        );
        kept(&["Save the key as a PuTTY-User-Key-File-3 file (.ppk).\n"]);
    }

    #[test]
    fn jwts_are_replaced() {
        removed(
            "jwt",
            &[
                (
                    "token: eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U\n",
                    "dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
                ),
                (
                    "curl -H 'X-Id: eyJraWQiOiJrMSJ9.eyJpc3MiOiJtZSJ9.' https://x\n",
                    "eyJpc3MiOiJtZSJ9",
                ),
            ],
        );
    }

    #[test]
    fn authorization_headers_lose_their_credentials() {
        removed(
            "authorization-header",
            &[
                (
                    "curl -H \"Authorization: Bearer abcDEF123456ghiJKL\" https://api\n",
                    "abcDEF123456ghiJKL",
                ),
                (
                    "Authorization: Basic dXNlcjpodW50ZXIy\n",
                    "dXNlcjpodW50ZXIy",
                ),
                (
                    "headers = {\"Authorization\": \"token 0123456789abcdefgh\"}\n",
                    "0123456789abcdefgh",
                ),
                (
                    "Proxy-Authorization: Basic YWxhZGRpbjpvcGVuc2VzYW1l\n",
                    "YWxhZGRpbjpvcGVuc2VzYW1l",
                ),
            ],
        );
        removed(
            "bearer-token",
            &[
                (
                    "-H 'X-Auth: Bearer 7f3a9c2e1b4d8f6a0c5e'\n",
                    "7f3a9c2e1b4d8f6a0c5e",
                ),
                (
                    "send `Bearer s3cr3t-t0ken-value-here` along\n",
                    "s3cr3t-t0ken-value-here",
                ),
            ],
        );
        removed(
            "basic-auth",
            &[
                ("auth = \"Basic dXNlcjpodW50ZXIy\"\n", "dXNlcjpodW50ZXIy"),
                ("login with Basic YWRtaW46czNjcjN0\n", "YWRtaW46czNjcjN0"),
            ],
        );
        kept(&[
            "Authorization: Bearer $API_TOKEN\n",
            "Authorization: Bearer ${{ secrets.TOKEN }}\n",
            "Authorization: Bearer <token>\n",
            "Use Bearer authentication for the API.\n",
            "Basic usage is covered below; Basic configuration too.\n",
        ]);
    }

    #[test]
    fn passwords_in_urls_are_replaced_and_the_user_stays() {
        assert_eq!(
            clean("git clone https://alice:hunter2@example.com/repo.git\n"),
            "git clone https://alice:[REDACTED:url-password]@example.com/repo.git\n"
        );
        removed(
            "url-password",
            &[
                (
                    "DATABASE_URL_X postgres://app:p%40ss;w0rd@db:5432/app",
                    "p%40ss;w0rd",
                ),
                ("redis://:pa@ss@cache:6379/0", "pa@ss"),
                (
                    "mongodb+srv://root:Tr0ub4dor@cluster0.mongodb.net/",
                    "Tr0ub4dor",
                ),
            ],
        );
        kept(&[
            "https://user@example.com/path\n",
            "http://localhost:8080/api/users/@me\n",
            "ssh://git@github.com:22/org/repo\n",
            "postgres://app:${PGPASSWORD}@db/app\n",
            "https://user:<password>@host/\n",
        ]);
    }

    #[test]
    fn azure_keys_lose_their_values() {
        assert_eq!(
            clean(
                "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MA==;EndpointSuffix=core.windows.net\n"
            ),
            "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=[REDACTED:azure-storage-key];EndpointSuffix=core.windows.net\n"
        );
        removed(
            "azure-storage-key",
            &[
                (
                    "Endpoint=sb://ns.servicebus.windows.net/;SharedAccessKeyName=root;SharedAccessKey=a1B2c3D4e5F6g7H8i9J0kLmNoPq=\n",
                    "a1B2c3D4e5F6g7H8i9J0kLmNoPq=",
                ),
                (
                    "\"AccountKey = QmFzZTY0S2V5VmFsdWU+/xyz==\"",
                    "QmFzZTY0S2V5VmFsdWU",
                ),
            ],
        );
        removed(
            "azure-sas-signature",
            &[
                (
                    "https://acct.blob.core.windows.net/c?sv=2022-11-02&sig=abcDEF123%2Bghi456%3D\n",
                    "abcDEF123%2Bghi456%3D",
                ),
                (
                    "?sp=r&sig=ZmFrZXNpZ25hdHVyZWJ5dGVz&se=2030\n",
                    "ZmFrZXNpZ25hdHVyZWJ5dGVz",
                ),
            ],
        );
        kept(&["AccountName=devstoreaccount1;AccountKey=<your key>\n"]);
    }

    #[test]
    fn assignments_to_prefixed_names_lose_their_values() {
        assert_eq!(
            clean("password=hunter2\nPASSWORD: \"s3cret\"\napi_key = 'abc'\n"),
            "password=[REDACTED:assignment]\nPASSWORD: \"[REDACTED:assignment]\"\napi_key = '[REDACTED:assignment]'\n"
        );
        removed(
            "assignment",
            &[
                ("export DB_PASSWORD=Sup3rS3cret\n", "Sup3rS3cret"),
                ("APP_SECRET=0f9e8d7c6b5a\n", "0f9e8d7c6b5a"),
                (
                    "STRIPE_SECRET_KEY = \"not-a-stripe-format\"\n",
                    "not-a-stripe-format",
                ),
                ("github_token: plainvalue42\n", "plainvalue42"),
                ("db.pass=letmein99\n", "letmein99"),
                ("MYSQL_PWD=rootroot\n", "rootroot"),
                ("{\"clientSecret\": \"cs-778899\"}", "cs-778899"),
                ("$config['db_password'] = 'phpsecret';\n", "phpsecret"),
                (
                    "passphrase := \"correct horse battery\"\n",
                    "correct horse battery",
                ),
                ("//registry.npmjs.org/:_auth=dXNlcjpwYXNz\n", "dXNlcjpwYXNz"),
            ],
        );
    }

    #[test]
    fn values_starting_with_a_dollar_or_a_bracket_are_secrets_unless_variables() {
        removed(
            "assignment",
            &[
                (
                    "export DB_PASSWORD=\"$(echo c0rrect-h0rse)\"\n",
                    "c0rrect-h0rse",
                ),
                ("password: [hunter2]\n", "hunter2"),
                ("PASSWORD=$ecretValue!\n", "ecretValue"),
                (
                    "admin_password: \"$2b$12$KIXQ4hashhash\"\n",
                    "KIXQ4hashhash",
                ),
                ("DB_PASSWORD=\"${DB_PASSWORD:-fallbackpw}\"\n", "fallbackpw"),
            ],
        );
        kept(&[
            "password=$PASSWORD",
            "DB_PASSWORD=\"${DB_PASSWORD}\"\n",
            "token: ${{ secrets.GITHUB_TOKEN }}\n",
            "password: <your password>",
            "password = \"\"",
            "secret: {{ vault.secret }}",
            "password: [REDACTED:assignment]\n",
            "password = %DB_PASSWORD%\n",
        ]);
    }

    #[test]
    fn values_run_past_semicolons_and_escaped_quotes() {
        assert_eq!(clean("PASS=abc;next\n"), "PASS=[REDACTED:assignment]\n");
        removed(
            "assignment",
            &[
                ("PASS=abc;next", "next"),
                ("password=p@ss;w0rd,more rest\n", "w0rd,more"),
                (r#"secret = "quote\"d-part""#, "d-part"),
                ("password = \"unterminated value\n", "unterminated value"),
                (
                    "token: |\n  multi-line-secret\n  second-line\nnext: 1\n",
                    "second-line",
                ),
            ],
        );
        assert_eq!(
            clean("token: |\n  line-one\nnext: 1\n"),
            "token: |\n  [REDACTED:assignment]\nnext: 1\n"
        );
    }

    #[test]
    fn the_ids_of_private_and_access_keys_lose_their_values() {
        removed(
            "assignment",
            &[
                (
                    "{\"private_key_id\": \"4c3b2a19f8e7d6c5b4a3928170f6e5d4c3b2a190\"}",
                    "4c3b2a19f8e7d6c5b4a3928170f6e5d4c3b2a190",
                ),
                (
                    "private_key_id = 0a1b2c3d4e5f60718293\n",
                    "0a1b2c3d4e5f60718293",
                ),
                ("privateKeyId: 'kid-778899aabb'\n", "kid-778899aabb"),
                ("aws_access_key_id=NOTAKIAFORMAT123\n", "NOTAKIAFORMAT123"),
                ("ACCESS_KEY_ID: \"custom-id-42\"\n", "custom-id-42"),
            ],
        );
        kept(&[
            "private_key_id: ${{ secrets.KEY_ID }}\n",
            "key_id: 12\n",
            "\"client_email\": \"bot@proj.iam.gserviceaccount.com\"\n",
            "\"client_id\": \"104518592390385739201\"\n",
        ]);
    }

    #[test]
    fn a_service_account_key_file_keeps_only_what_names_the_account() {
        let file = r#"{
  "type": "service_account",
  "project_id": "demo-project",
  "private_key_id": "1f2e3d4c5b6a79880716f5e4d3c2b1a098765432",
  "private_key": "-----BEGIN PRIVATE KEY-----\nMIIEvgIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----\n",
  "client_email": "exporter@demo-project.iam.gserviceaccount.com",
  "client_id": "111122223333444455556",
  "auth_uri": "https://accounts.google.com/o/oauth2/auth",
  "token_uri": "https://oauth2.googleapis.com/token"
}
"#;
        let out = clean(file);
        for secret in [
            "1f2e3d4c5b6a79880716f5e4d3c2b1a098765432",
            "MIIEvgIBADANBgkq",
        ] {
            assert!(!out.contains(secret), "{out}");
        }
        for kept in [
            "\"private_key_id\": \"[REDACTED:assignment]\"",
            "\"private_key\": \"[REDACTED:private-key]\\n\"",
            "exporter@demo-project.iam.gserviceaccount.com",
            "\"token_uri\": \"https://oauth2.googleapis.com/token\"",
        ] {
            assert!(out.contains(kept), "{kept} not in {out}");
        }
    }

    #[test]
    fn xml_elements_holding_secrets_lose_their_text() {
        removed(
            "xml-secret",
            &[
                ("<password>hunter2</password>", "hunter2"),
                ("<ApiKey>a1b2c3d4</ApiKey>", "a1b2c3d4"),
            ],
        );
        kept(&[
            "<password></password>",
            "<passwordPolicy>strict</passwordPolicy>",
        ]);
    }

    #[test]
    fn look_alikes_of_assignments_stay() {
        kept(&[
            "password_hint=your pet's name\n",
            "token_url: https://example.com/oauth/token\n",
            "max_tokens: 4096\n",
            "bypass=true\ncompass: north\n",
            "cd $HOME/.config && ls\n",
            "PASSWORD_FILE=$HOME/.secrets/pw\n",
            "The token is rotated every day.\n",
            "Every password should be long.\n",
            "secret_name: prod-db\n",
            "secrets: inherit\n",
            "password = os.environ[\"PDF_PASSWORD\"]\n",
            "token = os.getenv(\"API_TOKEN\")\n",
            "client = Client(api_key=api_key)\n",
            "key = args.token\n",
            "const token = process.env.API_TOKEN;\n",
            "password = getpass.getpass()\n",
            "require_password: true\n",
            "password: ********\n",
        ]);
    }

    #[test]
    fn first_hit_names_the_rule_and_skips_placeholders() {
        assert_eq!(
            first_hit(b"x AKIAIOSFODNN7EXAMPLE y"),
            Some("aws-access-key")
        );
        assert_eq!(first_hit(b"password=hunter2"), Some("assignment"));
        assert_eq!(first_hit(b"password=$PASSWORD"), None);
        assert_eq!(first_hit(b"nothing here"), None);
    }
}
