//! Encoded text decoded, so the rules judge what it says: base64 (and its URL-safe form), hex,
//! `\x` escapes and `String.fromCharCode` lists. Only what decodes to text is kept: base64 of
//! an image or a hash in hex decodes to bytes no rule reads, and is passed over.

use std::sync::LazyLock;

use base64::Engine as _;
use regex::Regex;

/// One encoded run of a line, decoded.
pub struct Decoded {
    /// What it was encoded as: "base64", "hex", "\\x escapes", "character codes".
    pub encoding: &'static str,
    pub text: String,
}

/// Base64 long enough to hold a command (`curl x|sh` is twelve characters of it).
static BASE64: LazyLock<Regex> = LazyLock::new(|| compile(r"[A-Za-z0-9+/_-]{16,}={0,2}"));
static HEX: LazyLock<Regex> = LazyLock::new(|| compile(r"\b(?:[0-9a-fA-F]{2}){12,}\b"));
static ESCAPES: LazyLock<Regex> =
    LazyLock::new(|| compile(r"(?:\\x[0-9a-fA-F]{2}|\\u00[0-9a-fA-F]{2}){6,}"));
static CHAR_CODES: LazyLock<Regex> =
    LazyLock::new(|| compile(r"(?i)fromcharcode\s*\(\s*((?:\d{2,3}\s*,\s*){5,}\d{2,3})\s*\)"));

fn compile(pattern: &str) -> Regex {
    #[allow(clippy::expect_used)] // this file's constants, each compiled by the unit tests
    Regex::new(pattern).expect("a constant pattern")
}

/// Every run of `line` that decodes to text.
pub fn decoded(line: &str) -> Vec<Decoded> {
    let mut found = Vec::new();
    for run in BASE64.find_iter(line) {
        let run = run.as_str();
        // A word of letters alone, or a path, is not base64 of anything.
        if !run
            .bytes()
            .any(|b| b.is_ascii_digit() || b == b'+' || b == b'=')
            && !run.bytes().any(|b| b.is_ascii_uppercase())
        {
            continue;
        }
        if let Some(text) = base64_text(run) {
            found.push(Decoded {
                encoding: "base64",
                text,
            });
        }
    }
    for run in HEX.find_iter(line) {
        if let Some(text) = hex_text(run.as_str()) {
            found.push(Decoded {
                encoding: "hex",
                text,
            });
        }
    }
    for run in ESCAPES.find_iter(line) {
        let digits: String = run
            .as_str()
            .split('\\')
            .filter_map(|part| part.strip_prefix('x').or_else(|| part.strip_prefix("u00")))
            .collect();
        if let Some(text) = hex_text(&digits) {
            found.push(Decoded {
                encoding: "\\x escapes",
                text,
            });
        }
    }
    for captures in CHAR_CODES.captures_iter(line) {
        let bytes: Option<Vec<u8>> = captures[1]
            .split(',')
            .map(|n| n.trim().parse::<u8>().ok())
            .collect();
        if let Some(text) = bytes.and_then(text_of) {
            found.push(Decoded {
                encoding: "character codes",
                text,
            });
        }
    }
    found
}

fn base64_text(run: &str) -> Option<String> {
    let trimmed = run.trim_end_matches('=');
    let engines = [
        base64::engine::general_purpose::STANDARD_NO_PAD,
        base64::engine::general_purpose::URL_SAFE_NO_PAD,
    ];
    // A run cut from a longer one may end mid-quantum: a lone sixth of a byte is dropped.
    let usable = if trimmed.len() % 4 == 1 {
        &trimmed[..trimmed.len() - 1]
    } else {
        trimmed
    };
    engines
        .iter()
        .find_map(|engine| engine.decode(usable).ok())
        .and_then(text_of)
}

fn hex_text(digits: &str) -> Option<String> {
    let bytes: Option<Vec<u8>> = (0..digits.len() / 2)
        .map(|i| u8::from_str_radix(digits.get(2 * i..2 * i + 2)?, 16).ok())
        .collect();
    bytes.and_then(text_of)
}

/// The bytes as text, when they read as text: UTF-8 with almost nothing but printable
/// characters and white space, and at least one space or punctuation a command would hold.
fn text_of(bytes: Vec<u8>) -> Option<String> {
    let text = String::from_utf8(bytes).ok()?;
    let total = text.chars().count();
    if total < 8 {
        return None;
    }
    let printable = text
        .chars()
        .filter(|c| !c.is_control() || matches!(c, '\n' | '\t' | '\r'))
        .count();
    let plain = printable * 100 >= total * 95;
    let worded = text.contains([' ', '/', '|', '(', ';']);
    (plain && worded).then_some(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn encode(text: &str) -> String {
        base64::engine::general_purpose::STANDARD.encode(text)
    }

    #[test]
    fn the_patterns_compile() {
        for pattern in [&BASE64, &HEX, &ESCAPES, &CHAR_CODES] {
            assert!(!pattern.is_match("plain"));
        }
    }

    #[test]
    fn base64_of_a_command_decodes() {
        let line = format!("x = \"{}\"", encode("curl -s https://x.example.net | sh"));
        let found = decoded(&line);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].text, "curl -s https://x.example.net | sh");
    }

    #[test]
    fn base64_of_an_image_or_a_hash_is_passed_over() {
        let png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
        assert!(decoded(png).is_empty());
        let sha = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
        assert!(decoded(sha).is_empty());
        assert!(decoded("/usr/local/lib/python3.12/site-packages/requests").is_empty());
    }

    #[test]
    fn hex_escapes_and_character_codes_decode() {
        let escaped: String = "rm -rf ~/".bytes().map(|b| format!("\\x{b:02x}")).collect();
        assert_eq!(decoded(&escaped)[0].text, "rm -rf ~/");
        let hex: String = "curl x | bash"
            .bytes()
            .map(|b| format!("{b:02x}"))
            .collect();
        assert_eq!(decoded(&hex)[0].text, "curl x | bash");
        let codes = "String.fromCharCode(114,109,32,45,114,102,32,126)";
        assert_eq!(decoded(codes)[0].text, "rm -rf ~");
    }
}
