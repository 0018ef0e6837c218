//! Copilot CLI's number grammar in its user `settings.json`, which is looser than any
//! jsonc-parser option set: leading zeros (`01`, `-007`), a point with no digits after it
//! (`1.`), an exponent with no digits (`1e`, `2e-`) and `0x` with no digits are all read,
//! while `.5`, `1.e5`, `1..2`, `0b1` and `1_000` make it ignore the file. Each number Copilot
//! reads is rewritten here, in place and at the same length, into one jsonc-parser reads, so
//! the parse decides the rest as before; a number Copilot refuses is left for jsonc-parser to
//! refuse. Every shape was asked of `copilot skill list --json` 1.0.102 as the value of a key
//! beside `disabledSkills` (`dialect::tests::copilot_user_dialect_as_copilot_read_it` holds
//! each probe and its answer).

use std::borrow::Cow;

/// `text` with each number written the way Copilot reads it rewritten for jsonc-parser, byte
/// offsets unchanged (so a parse error still points into the user's file).
pub fn as_jsonc(text: &str) -> Cow<'_, str> {
    let bytes = text.as_bytes();
    let mut out: Option<Vec<u8>> = None;
    let mut at = 0;
    while at < bytes.len() {
        match bytes[at] {
            quote @ (b'"' | b'\'') => at = past_string(bytes, at, quote),
            b'/' if bytes.get(at + 1) == Some(&b'/') => {
                at = bytes[at..]
                    .iter()
                    .position(|&b| b == b'\n')
                    .map_or(bytes.len(), |n| at + n);
            }
            b'/' if bytes.get(at + 1) == Some(&b'*') => {
                at = bytes[at + 2..]
                    .windows(2)
                    .position(|w| w == b"*/")
                    .map_or(bytes.len(), |n| at + 2 + n + 2);
            }
            b'0'..=b'9' | b'+' | b'-' if !after_a_word(bytes, at) => match number_end(bytes, at) {
                Lexeme::Number(end) => {
                    if let Some(rewritten) = canonical(&bytes[at..end]) {
                        let buffer = out.get_or_insert_with(|| bytes.to_vec());
                        buffer[at..at + rewritten.len()].copy_from_slice(&rewritten);
                        buffer[at + rewritten.len()..end].fill(b' ');
                    }
                    at = end;
                }
                Lexeme::Refused(end) => at = end,
                Lexeme::NotANumber => at += 1,
            },
            _ => at += 1,
        }
    }
    match out {
        // Only ASCII digits, signs, letters of a number and spaces were written over ASCII.
        Some(buffer) => Cow::Owned(String::from_utf8(buffer).unwrap_or_else(|_| text.to_owned())),
        None => Cow::Borrowed(text),
    }
}

/// Past the string opened at `start` (an escape skips the byte after it); an unclosed string
/// runs to the end, where the parse will fail on it.
fn past_string(bytes: &[u8], start: usize, quote: u8) -> usize {
    let mut at = start + 1;
    while at < bytes.len() {
        match bytes[at] {
            b'\\' => at += 2,
            b if b == quote => return at + 1,
            _ => at += 1,
        }
    }
    bytes.len()
}

/// Whether the byte at `at` continues a bare word (`$x_1`, `a2`), where a digit is no number.
fn after_a_word(bytes: &[u8], at: usize) -> bool {
    at > 0 && matches!(bytes[at - 1], b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'_' | b'$')
}

/// What starts at a sign or a digit.
enum Lexeme {
    /// A number Copilot reads, ending there.
    Number(usize),
    /// A number run on into letters, digits or points, a token Copilot refuses, ending there.
    Refused(usize),
    /// A sign with no digit after it.
    NotANumber,
}

/// Where the number starting at `start` ends in Copilot's grammar: `[+-]? ( 0[xX] hex* | digit+ ( '.' ( digit+ exp? )? | exp )? )`, `exp` being
/// `[eE] [+-]? digit*`. A letter, digit or point right after it makes the whole token one
/// Copilot refuses (`1.e5`, `0x1.5`, `1_0`); such a token is left as written, all of it.
fn number_end(bytes: &[u8], start: usize) -> Lexeme {
    let digits = |from: usize| {
        from + bytes[from..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count()
    };
    let mut at = start;
    if matches!(bytes[at], b'+' | b'-') {
        at += 1;
    }
    if !bytes.get(at).is_some_and(u8::is_ascii_digit) {
        return Lexeme::NotANumber;
    }
    if bytes[at] == b'0' && matches!(bytes.get(at + 1), Some(b'x' | b'X')) {
        at += 2;
        at += bytes[at..]
            .iter()
            .take_while(|b| b.is_ascii_hexdigit())
            .count();
    } else {
        at = digits(at);
        let exponent = |at: usize| {
            let mut at = at + 1;
            if matches!(bytes.get(at), Some(b'+' | b'-')) {
                at += 1;
            }
            digits(at)
        };
        match bytes.get(at) {
            Some(b'.') if bytes.get(at + 1).is_some_and(u8::is_ascii_digit) => {
                at = digits(at + 1);
                if matches!(bytes.get(at), Some(b'e' | b'E')) {
                    at = exponent(at);
                }
            }
            Some(b'.') => at += 1,
            Some(b'e' | b'E') => at = exponent(at),
            _ => {}
        }
    }
    let runs_on = |b: &u8| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'$');
    if bytes.get(at).is_some_and(runs_on) {
        Lexeme::Refused(at + bytes[at..].iter().take_while(|b| runs_on(b)).count())
    } else {
        Lexeme::Number(at)
    }
}

/// The number as jsonc-parser reads it, never longer than `lexeme`, or `None` where it reads
/// `lexeme` as it is: leading zeros dropped, a bare point and an empty exponent left out, a
/// `0x` without digits made `0`.
fn canonical(lexeme: &[u8]) -> Option<Vec<u8>> {
    let (sign, body) = match lexeme.first() {
        Some(b'+' | b'-') => lexeme.split_at(1),
        _ => lexeme.split_at(0),
    };
    let mut out = sign.to_vec();
    if let Some(hex) = body
        .strip_prefix(b"0x")
        .or_else(|| body.strip_prefix(b"0X"))
    {
        if hex.is_empty() {
            out.push(b'0');
        } else {
            out.extend_from_slice(body);
        }
    } else {
        let int_end = body.iter().take_while(|b| b.is_ascii_digit()).count();
        let int = &body[..int_end];
        let zeros = int
            .iter()
            .take_while(|&&b| b == b'0')
            .count()
            .min(int.len().saturating_sub(1));
        out.extend_from_slice(&int[zeros..]);
        let mut rest = &body[int_end..];
        if let Some(after_point) = rest.strip_prefix(b".") {
            let frac = after_point
                .iter()
                .take_while(|b| b.is_ascii_digit())
                .count();
            if frac > 0 {
                out.push(b'.');
                out.extend_from_slice(&after_point[..frac]);
            }
            rest = &after_point[frac..];
        }
        if let Some(exponent) = rest.strip_prefix(b"e").or_else(|| rest.strip_prefix(b"E")) {
            let signed = exponent.first().is_some_and(|b| matches!(b, b'+' | b'-'));
            let digits = &exponent[usize::from(signed)..];
            if !digits.is_empty() {
                out.extend_from_slice(&rest[..1 + exponent.len()]);
            }
        }
    }
    (out != lexeme).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_copilot_reads_become_ones_jsonc_reads_at_the_same_offsets() {
        for (written, read) in [
            ("[1.]", "[1 ]"),
            ("[01, -007, +00]", "[1 , -7  , +0 ]"),
            ("[1e, 2e-, 1.5E+]", "[1 , 2  , 1.5  ]"),
            ("[0x, -0X, 0x1e5]", "[0 , -0 , 0x1e5]"),
            ("[01.50e3]", "[1.50e3 ]"),
            ("[0, 10, 1.5, 2e10]", "[0, 10, 1.5, 2e10]"),
        ] {
            assert_eq!(as_jsonc(written), read, "{written}");
        }
    }

    #[test]
    fn strings_comments_and_words_are_not_numbers() {
        for text in [
            "{\"01\": '1.', // 01\n /* 1e */ $x_01: a1e}",
            "{\"a\\\"01\": 1}",
            "['it\\'s 01']",
        ] {
            assert_eq!(as_jsonc(text), text);
        }
    }

    #[test]
    fn numbers_copilot_refuses_are_left_for_the_parse_to_refuse() {
        for text in [
            "[1.e5]", "[1..2]", "[1.5.]", "[0x1.5]", "[1_000]", "[00x1]", "[1ee]", "[.5]", "[0b1]",
        ] {
            assert_eq!(as_jsonc(text), text, "{text}");
        }
    }
}
