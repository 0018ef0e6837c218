//! The rules applied to one file: the patterns (found in one pass by a set, then line by
//! line), each hit judged by where it is; the characters a reader cannot see; the HTML
//! comments a rendered page does not show; what encoded text says once decoded; and what a
//! file that is not text is.

use std::ops::Range;
use std::sync::LazyLock;

use regex::bytes::{Regex, RegexBuilder, RegexSet, RegexSetBuilder};

use super::context::{Kind, Layout};
use super::files::Content;
use super::rules::{Check, Class, Matcher, RULES, Reading, Severity, checked};
use super::{decode, hidden};

/// One finding in a file, before the skill's name is put on it.
pub struct Hit {
    pub line: usize,
    pub rule: &'static str,
    pub class: Class,
    pub severity: Severity,
    pub message: String,
}

/// The patterns, compiled once. Unicode is off: every pattern is ASCII, and a Unicode word
/// boundary would send the set's lazy DFA to a slower engine on any line of CJK or emoji.
struct Compiled {
    set: RegexSet,
    /// The rule each pattern of the set belongs to.
    owner: Vec<usize>,
    /// Per rule: its line pattern (a `Near`'s `then`), its `Near` `first`, its `unless`.
    line: Vec<Option<Regex>>,
    first: Vec<Option<Regex>>,
    unless: Vec<Option<Regex>>,
}

const SIZE_LIMIT: usize = 64 * 1024 * 1024;

fn regex(pattern: &str) -> Result<Regex, regex::Error> {
    RegexBuilder::new(pattern)
        .unicode(false)
        .multi_line(true)
        .size_limit(SIZE_LIMIT)
        .build()
}

fn compile() -> Result<Compiled, regex::Error> {
    let mut patterns = Vec::new();
    let mut owner = Vec::new();
    let mut line = Vec::new();
    let mut first = Vec::new();
    let mut unless = Vec::new();
    for (index, rule) in RULES.iter().enumerate() {
        let (main, before) = match rule.matcher {
            Matcher::Line(pattern) => (Some(pattern), None),
            Matcher::Near { first, then, .. } => (Some(then), Some(first)),
            Matcher::Check(_) => (None, None),
        };
        if let Some(main) = main {
            patterns.push(main);
            owner.push(index);
        }
        line.push(main.map(regex).transpose()?);
        first.push(before.map(regex).transpose()?);
        unless.push(rule.unless.map(regex).transpose()?);
    }
    let set = RegexSetBuilder::new(&patterns)
        .unicode(false)
        .multi_line(true)
        .size_limit(SIZE_LIMIT)
        .dfa_size_limit(SIZE_LIMIT)
        .build()?;
    Ok(Compiled {
        set,
        owner,
        line,
        first,
        unless,
    })
}

static COMPILED: LazyLock<Result<Compiled, regex::Error>> = LazyLock::new(compile);

/// A pattern's hit on one line, judged.
struct LineHit {
    index: usize,
    rule: usize,
    at: Range<usize>,
    severity: Severity,
    shown: bool,
}

/// Every finding in the file `relative`.
pub fn file(relative: &str, content: &Content, executable: bool) -> Vec<Hit> {
    let mut hits = Vec::new();
    let compiled_program = compiled_program(&content.head);
    if let Some(format) = compiled_program {
        hits.push(check_hit(Check::CompiledProgram, 0, format));
    }
    if !content.is_text {
        if executable && compiled_program.is_none() {
            hits.push(check_hit(Check::ExecutableData, 0, ""));
        }
        return hits;
    }
    let text = content.text.as_str();
    let kind = Kind::of(relative, text);
    if executable && kind != Kind::Script {
        hits.push(check_hit(Check::ExecutableText, 0, ""));
    }
    let layout = Layout::of(kind, text);
    let line_hits = lines(&layout, text);
    for hit in &line_hits {
        hits.push(pattern_hit(&layout, hit));
    }
    if kind == Kind::Markdown {
        comments(&layout, text, &line_hits, &mut hits);
    }
    if is_manifest(relative) {
        allowed_tools(&layout, &mut hits);
    }
    if !text.is_ascii() {
        invisible(&layout, &line_hits, &mut hits);
    }
    encoded(&layout, &mut hits);
    tidy(hits)
}

/// The hits of every line pattern on `layout`'s lines, judged by where they are.
fn lines(layout: &Layout<'_>, text: &str) -> Vec<LineHit> {
    let Ok(compiled) = COMPILED.as_ref() else {
        return Vec::new();
    };
    let mut found = Vec::new();
    let candidates = compiled.set.matches(text.as_bytes());
    for pattern in candidates.iter() {
        let index = compiled.owner[pattern];
        let rule = &RULES[index];
        let Some(main) = &compiled.line[index] else {
            continue;
        };
        for (line_index, line) in layout.lines.iter().enumerate() {
            let Some(hit) = main.find(line.text.as_bytes()) else {
                continue;
            };
            if let Matcher::Near { within, .. } = rule.matcher {
                let Some(first) = &compiled.first[index] else {
                    continue;
                };
                let from = line_index.saturating_sub(within);
                let near = layout.lines[from..=line_index]
                    .iter()
                    .any(|l| first.is_match(l.text.as_bytes()));
                if !near {
                    continue;
                }
            }
            if compiled.unless[index]
                .as_ref()
                .is_some_and(|unless| unless.is_match(line.text.as_bytes()))
            {
                continue;
            }
            let at = char_range(line.text, hit.range());
            let shown = match rule.reading {
                Reading::Action => layout.warns(line_index, at.clone()),
                Reading::Instruction => layout.shows_instruction(line_index, at.clone()),
                Reading::Fixed => false,
            };
            found.push(LineHit {
                index: line_index,
                rule: index,
                at,
                severity: if shown { Severity::Low } else { rule.severity },
                shown,
            });
        }
    }
    found
}

/// `range` widened to the characters it cuts into (a pattern on bytes may end mid-character).
fn char_range(text: &str, range: Range<usize>) -> Range<usize> {
    let mut start = range.start.min(text.len());
    while !text.is_char_boundary(start) {
        start -= 1;
    }
    let mut end = range.end.min(text.len());
    while !text.is_char_boundary(end) {
        end += 1;
    }
    start..end
}

fn pattern_hit(layout: &Layout<'_>, hit: &LineHit) -> Hit {
    let rule = &RULES[hit.rule];
    let line = layout.lines[hit.index].text;
    // The text from where the match starts to the end of its line: the command whole, not
    // the few characters a pattern needed.
    let mut message = format!(
        "{}: `{}`",
        capital(rule.message),
        snippet(&line[hit.at.start..])
    );
    if hit.shown {
        message.push_str(match rule.reading {
            Reading::Instruction => " (quoted or negated, not given: judged low)",
            _ => " (shown as something not to do: judged low)",
        });
    }
    Hit {
        line: hit.index + 1,
        rule: rule.id,
        class: rule.class,
        severity: hit.severity,
        message,
    }
}

fn check_hit(check: Check, line: usize, detail: &str) -> Hit {
    let rule = checked(check);
    let message = if detail.is_empty() {
        capital(rule.message)
    } else {
        format!("{} ({detail})", capital(rule.message))
    };
    Hit {
        line,
        rule: rule.id,
        class: rule.class,
        severity: rule.severity,
        message,
    }
}

/// At most a line's worth of what was matched, for the sentence.
fn snippet(text: &str) -> String {
    let text = text.trim();
    let mut cut: String = text.chars().take(100).collect();
    if cut.len() < text.len() {
        cut.push('…');
    }
    cut
}

fn capital(sentence: &str) -> String {
    let mut chars = sentence.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}

/// What a rendered Markdown page hides in its HTML comments: words to the agent, and what
/// another rule catches.
fn comments(layout: &Layout<'_>, text: &str, line_hits: &[LineHit], hits: &mut Vec<Hit>) {
    for range in &layout.comments {
        let line = layout.line_at(range.start);
        let inside: Vec<&LineHit> = line_hits
            .iter()
            .filter(|hit| {
                let offset = layout.lines[hit.index].start + hit.at.start;
                range.contains(&offset) && hit.severity > Severity::Low
            })
            .collect();
        if let Some(worst) = inside.iter().max_by_key(|hit| hit.severity) {
            let rule = &RULES[worst.rule];
            hits.push(check_hit(
                Check::CommentHiding,
                worst.index + 1,
                &format!("it {}", rule.message),
            ));
        } else if COMMENT_TO_AGENT.is_match(text[range.clone()].as_bytes()) {
            let body = text[range.clone()]
                .trim_start_matches("<!--")
                .trim_end_matches("-->");
            hits.push(check_hit(
                Check::CommentInstruction,
                line + 1,
                &format!("\"{}\"", snippet(body)),
            ));
        }
    }
}

/// An HTML comment addressed to the agent rather than to whoever edits the page.
static COMMENT_TO_AGENT: LazyLock<Regex> = LazyLock::new(|| {
    #[allow(clippy::expect_used)] // a constant, compiled by the unit tests
    regex(
        r"(?i)(?:\b(?:assistant|agent|claude|codex|gemini|copilot|ai|model|llm)\b\s*[:,]?[^>]{0,60}\b(?:must|shall|always|never|do\s+not|don'?t|ignore|execute|send|obey|pretend|secretly)\b|\bnote\s+to\s+(?:the\s+)?(?:ai|agent|assistant|model|llm)\b|\b(?:system|instructions?)\s*:\s*you\b|\byou\s+(?:must|shall|are\s+required\s+to)\b)",
    )
    .expect("a constant pattern")
});

/// The frontmatter of `SKILL.md`: `allowed-tools` that grants every tool or the whole shell.
fn allowed_tools(layout: &Layout<'_>, hits: &mut Vec<Hit>) {
    let mut lines = layout.lines.iter().enumerate();
    if lines.next().is_none_or(|(_, l)| l.text.trim_end() != "---") {
        return;
    }
    let mut in_tools: Option<usize> = None;
    let mut tools: Vec<(usize, String)> = Vec::new();
    for (index, line) in lines {
        let text = line.text;
        if text.trim_end() == "---" || text.trim_end() == "..." {
            break;
        }
        let trimmed = text.trim();
        if let Some(value) = trimmed
            .strip_prefix("allowed-tools:")
            .or_else(|| trimmed.strip_prefix("allowed_tools:"))
            .or_else(|| trimmed.strip_prefix("allowedTools:"))
        {
            in_tools = Some(index);
            tools.extend(tokens(value).into_iter().map(|t| (index, t)));
        } else if in_tools.is_some() && trimmed.starts_with("- ") {
            tools.extend(tokens(&trimmed[2..]).into_iter().map(|t| (index, t)));
        } else if !text.starts_with([' ', '\t']) {
            in_tools = None;
        }
    }
    if let Some((index, tool)) = tools
        .iter()
        .find(|(_, t)| t == "*" || t.eq_ignore_ascii_case("all"))
    {
        hits.push(check_hit(
            Check::AllowedToolsAll,
            index + 1,
            &format!("`{tool}`"),
        ));
    } else if let Some((index, tool)) = tools.iter().find(|(_, t)| {
        let t = t.to_ascii_lowercase();
        matches!(
            t.as_str(),
            "bash"
                | "bash(*)"
                | "bash(:*)"
                | "bash(*:*)"
                | "shell"
                | "shell(*)"
                | "run_shell_command"
                | "powershell"
        )
    }) {
        hits.push(check_hit(
            Check::AllowedToolsShell,
            index + 1,
            &format!("`{tool}`"),
        ));
    }
}

/// The tools of an `allowed-tools` value: split at commas and spaces outside parentheses,
/// quotes and brackets taken off.
fn tokens(value: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut current = String::new();
    for c in value.chars() {
        match c {
            '(' => {
                depth += 1;
                current.push(c);
            }
            ')' => {
                depth = depth.saturating_sub(1);
                current.push(c);
            }
            ',' | ' ' | '\t' if depth == 0 => {
                out.push(std::mem::take(&mut current));
            }
            '"' | '\'' | '[' | ']' if depth == 0 => {}
            _ => current.push(c),
        }
    }
    out.push(current);
    out.retain(|t| !t.is_empty());
    out
}

fn is_manifest(relative: &str) -> bool {
    relative == crate::skill::SKILL_FILE || relative == crate::skill::LOWER_SKILL_FILE
}

/// The characters a reader cannot see, line by line; and what a rule catches once the
/// zero-width characters splitting its words are taken out.
fn invisible(layout: &Layout<'_>, line_hits: &[LineHit], hits: &mut Vec<Hit>) {
    for (index, line) in layout.lines.iter().enumerate() {
        if line.text.is_ascii() {
            continue;
        }
        let found = hidden::line(line.text, index == 0);
        let split = found.iter().any(|h| h.check == Check::ZeroWidthSplit);
        for hidden in found {
            hits.push(check_hit(hidden.check, index + 1, &hidden.detail));
        }
        if !split {
            continue;
        }
        let Some(plain) = hidden::unsplit(line.text) else {
            continue;
        };
        let already: Vec<usize> = line_hits
            .iter()
            .filter(|h| h.index == index)
            .map(|h| h.rule)
            .collect();
        let unsplit = Layout::of(Kind::Script, &plain);
        if let Some(worst) = lines(&unsplit, &plain)
            .into_iter()
            .filter(|h| h.severity > Severity::Low && !already.contains(&h.rule))
            .max_by_key(|h| h.severity)
        {
            hits.push(check_hit(
                Check::ZeroWidthHiding,
                index + 1,
                &format!("read without them, it {}", RULES[worst.rule].message),
            ));
        }
    }
}

/// Encoded runs that decode to what a rule catches, two layers deep.
fn encoded(layout: &Layout<'_>, hits: &mut Vec<Hit>) {
    for (index, line) in layout.lines.iter().enumerate() {
        if line.text.len() < 16 {
            continue;
        }
        if let Some((severity, sentence)) = worst_decoded(line.text, 2) {
            let rule = checked(Check::EncodedPayload);
            hits.push(Hit {
                line: index + 1,
                rule: rule.id,
                class: rule.class,
                severity,
                message: format!("Holds {sentence}"),
            });
        }
    }
}

/// The most severe thing the encoded runs of `text` say once decoded, as a phrase.
fn worst_decoded(text: &str, depth: usize) -> Option<(Severity, String)> {
    let mut worst: Option<(Severity, String)> = None;
    for decoded in decode::decoded(text) {
        let layout = Layout::of(Kind::Script, &decoded.text);
        let direct = lines(&layout, &decoded.text)
            .into_iter()
            .max_by_key(|h| h.severity)
            .map(|h| {
                (
                    h.severity,
                    format!(
                        "{} text that, decoded, {}: `{}`",
                        decoded.encoding,
                        RULES[h.rule].message,
                        snippet(&decoded.text)
                    ),
                )
            });
        let deeper = if depth > 1 {
            worst_decoded(&decoded.text, depth - 1).map(|(severity, inner)| {
                (
                    severity,
                    format!("{} text holding {inner}", decoded.encoding),
                )
            })
        } else {
            None
        };
        for candidate in [direct, deeper].into_iter().flatten() {
            if worst.as_ref().is_none_or(|(s, _)| candidate.0 > *s) {
                worst = Some(candidate);
            }
        }
    }
    worst
}

/// ELF, Mach-O (and fat), PE and WebAssembly, by their magic numbers.
fn compiled_program(head: &[u8]) -> Option<&'static str> {
    match head {
        [0x7f, b'E', b'L', b'F', ..] => Some("ELF"),
        [0xfe, 0xed, 0xfa, 0xce | 0xcf, ..] | [0xce | 0xcf, 0xfa, 0xed, 0xfe, ..] => Some("Mach-O"),
        // Java class files share the fat Mach-O magic; either is a compiled program.
        [0xca, 0xfe, 0xba, 0xbe, ..] => Some("Mach-O universal or Java class"),
        [b'M', b'Z', ..] if pe_header(head) => Some("PE, a Windows program"),
        [0x00, b'a', b's', b'm', ..] => Some("WebAssembly"),
        _ => None,
    }
}

/// Whether a file starting `MZ` has the PE signature where its header says: two letters alone
/// start many a text file.
fn pe_header(head: &[u8]) -> bool {
    let Some(offset) = head.get(0x3c..0x40) else {
        return false;
    };
    let offset = u32::from_le_bytes([offset[0], offset[1], offset[2], offset[3]]) as usize;
    head.get(offset..offset + 4) == Some(b"PE\0\0")
}

/// The findings in line order, one per class on a line: the most severe, which says the
/// most (a key read and sent is not also a key named).
fn tidy(mut hits: Vec<Hit>) -> Vec<Hit> {
    hits.sort_by(|a, b| {
        (a.line, a.class, b.severity, a.rule).cmp(&(b.line, b.class, a.severity, b.rule))
    });
    let mut kept: Vec<Hit> = Vec::with_capacity(hits.len());
    for hit in hits {
        let weaker = kept
            .iter()
            .any(|k| k.line == hit.line && k.class == hit.class);
        if !weaker {
            kept.push(hit);
        }
    }
    kept
}

#[cfg(test)]
mod tests;
