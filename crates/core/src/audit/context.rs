//! Where a line of a skill's text is, and whether it warns against what it shows: the part of
//! a finding a pattern cannot see. A skill that says "never pipe `curl` into `sh`" shows the
//! very text a rule catches; what tells it from one that does it is the sentence around it,
//! the line that leads into its code block or list, and the heading above.

use std::sync::LazyLock;

use regex::Regex;

/// What a file is, by its name and first line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Instructions for the agent or a person: prose with code blocks.
    Markdown,
    /// A program (by its extension, or a `#!` line).
    Script,
    /// Any other text: data, configuration, markup.
    Other,
}

impl Kind {
    /// The kind of `relative`, whose text starts with `text`.
    pub fn of(relative: &str, text: &str) -> Kind {
        let name = relative.rsplit('/').next().unwrap_or(relative);
        let extension = name
            .rsplit_once('.')
            .map(|(_, ext)| ext.to_ascii_lowercase())
            .unwrap_or_default();
        match extension.as_str() {
            "md" | "markdown" | "mdx" | "mdc" | "txt" | "rst" | "adoc" => Kind::Markdown,
            _ if SCRIPT_EXTENSIONS.contains(&extension.as_str()) => Kind::Script,
            _ if text.starts_with("#!") => Kind::Script,
            _ => Kind::Other,
        }
    }
}

/// The extensions of the programs a skill ships: shells, PowerShell, Python, JavaScript and
/// TypeScript, and the other interpreters an agent runs a script with.
pub const SCRIPT_EXTENSIONS: &[&str] = &[
    "sh",
    "bash",
    "zsh",
    "fish",
    "ksh",
    "ps1",
    "psm1",
    "psd1",
    "bat",
    "cmd",
    "py",
    "pyw",
    "js",
    "mjs",
    "cjs",
    "ts",
    "mts",
    "cts",
    "jsx",
    "tsx",
    "rb",
    "pl",
    "php",
    "lua",
    "applescript",
    "scpt",
    "vbs",
];

/// Where a line of Markdown is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Region {
    Prose,
    /// Inside a fenced code block; the index of the line that opens it.
    Fence(usize),
    /// A program's line, or a line of data.
    Code,
}

/// One line, with where it starts in the file and where it is.
pub struct Line<'a> {
    pub text: &'a str,
    pub start: usize,
    pub region: Region,
    /// The nearest Markdown heading above, by line index.
    pub heading: Option<usize>,
}

/// A file's lines, and its HTML comments (byte ranges, Markdown only).
pub struct Layout<'a> {
    pub kind: Kind,
    pub lines: Vec<Line<'a>>,
    pub comments: Vec<std::ops::Range<usize>>,
}

impl<'a> Layout<'a> {
    pub fn of(kind: Kind, text: &'a str) -> Layout<'a> {
        let mut lines = Vec::new();
        let mut start = 0;
        let mut fence: Option<(usize, char, usize)> = None;
        let mut heading = None;
        for (index, raw) in text.split('\n').enumerate() {
            let line = raw.strip_suffix('\r').unwrap_or(raw);
            let region = if kind == Kind::Markdown {
                let trimmed = line.trim_start();
                let marker = fence_marker(trimmed);
                match (fence, marker) {
                    (Some((_, c, n)), Some((mc, mn)))
                        if mc == c && mn >= n && trimmed.trim_end().len() == mn =>
                    {
                        let opened = fence.map_or(index, |(at, _, _)| at);
                        fence = None;
                        Region::Fence(opened)
                    }
                    (Some((at, _, _)), _) => Region::Fence(at),
                    (None, Some((c, n))) => {
                        fence = Some((index, c, n));
                        Region::Fence(index)
                    }
                    (None, None) => {
                        if trimmed.starts_with('#') {
                            heading = Some(index);
                        }
                        Region::Prose
                    }
                }
            } else {
                Region::Code
            };
            lines.push(Line {
                text: line,
                start,
                region,
                heading,
            });
            start += raw.len() + 1;
        }
        let comments = if kind == Kind::Markdown {
            html_comments(text, &lines)
        } else {
            Vec::new()
        };
        Layout {
            kind,
            lines,
            comments,
        }
    }

    /// The index of the line holding byte `offset`.
    pub fn line_at(&self, offset: usize) -> usize {
        self.lines
            .partition_point(|line| line.start <= offset)
            .saturating_sub(1)
    }

    /// Whether the text around the match at `at` (a byte range of line `index`) warns against
    /// it: a negation or warning earlier in its sentence or after it on the line, a trailing
    /// comment saying so, the line leading into its code block or list, or its heading.
    pub fn warns(&self, index: usize, at: std::ops::Range<usize>) -> bool {
        let line = &self.lines[index];
        let before = &line.text[..at.start];
        let after = &line.text[at.end..];
        match line.region {
            Region::Code => {
                // A program's own comment on the line: `curl … | sh  # never do this`.
                comment_of(after).is_some_and(|c| CUE.is_match(c))
                    || (self.kind == Kind::Markdown && self.lead_in_warns(index))
            }
            Region::Fence(opened) => {
                comment_of(after).is_some_and(|c| CUE.is_match(c))
                    || self.lead_in_warns(opened)
                    || self.heading_warns(index)
            }
            Region::Prose => {
                CUE.is_match(sentence_before(before, self.previous_prose(index)).as_str())
                    || AFTER_CUE.is_match(sentence_after(after))
                    || self.lead_in_warns(index)
                    || self.heading_warns(index)
            }
        }
    }

    /// Whether an instruction matched at `at` is not given but shown: negated just before it
    /// ("do not ignore previous instructions"), or quoted in a sentence about attacks.
    pub fn shows_instruction(&self, index: usize, at: std::ops::Range<usize>) -> bool {
        let line = &self.lines[index];
        let before = &line.text[..at.start];
        if NEGATED.is_match(before) {
            return true;
        }
        let quoted = before.matches(['"', '`', '\u{201C}']).count() % 2 == 1
            || before.matches('\u{201C}').count() > before.matches('\u{201D}').count()
            || line.text.trim_start().starts_with('>');
        let in_fence = matches!(line.region, Region::Fence(_));
        let discussed = DISCUSS.is_match(line.text)
            || self.heading_of(index).is_some_and(|h| DISCUSS.is_match(h))
            || self.lead_in(index).is_some_and(|l| DISCUSS.is_match(l));
        (quoted || in_fence) && discussed
    }

    /// The prose line just before `index` in the same paragraph, whose sentence may run on.
    fn previous_prose(&self, index: usize) -> &str {
        match index.checked_sub(1).map(|i| &self.lines[i]) {
            Some(line) if line.region == Region::Prose && !line.text.trim().is_empty() => line.text,
            _ => "",
        }
    }

    /// The line that leads into the block or list holding line `index`: up past list items,
    /// other lines of the block and one blank line, the first other line.
    fn lead_in(&self, index: usize) -> Option<&str> {
        let mut blank = 0;
        let mut i = index;
        let region = self.lines[index].region;
        let mut steps = 0;
        while i > 0 && steps < 40 {
            i -= 1;
            steps += 1;
            let line = &self.lines[i];
            let trimmed = line.text.trim();
            if trimmed.is_empty() {
                blank += 1;
                if blank > 1 {
                    return None;
                }
                continue;
            }
            if line.region == region && matches!(region, Region::Fence(_)) {
                continue;
            }
            if is_list_item(trimmed) && !matches!(region, Region::Fence(_)) {
                continue;
            }
            if matches!(region, Region::Prose) && !is_list_item(self.lines[index].text.trim()) {
                // A paragraph's own lines are its sentence, judged as such.
                return None;
            }
            return Some(line.text);
        }
        None
    }

    fn lead_in_warns(&self, index: usize) -> bool {
        self.lead_in(index).is_some_and(|line| CUE.is_match(line))
    }

    fn heading_of(&self, index: usize) -> Option<&str> {
        self.lines[index].heading.map(|h| self.lines[h].text)
    }

    fn heading_warns(&self, index: usize) -> bool {
        self.heading_of(index)
            .is_some_and(|h| HEADING_CUE.is_match(h))
    }
}

/// The character and length of a code fence's marker, when `trimmed` opens or closes one.
fn fence_marker(trimmed: &str) -> Option<(char, usize)> {
    let first = trimmed.chars().next()?;
    if first != '`' && first != '~' {
        return None;
    }
    let n = trimmed.chars().take_while(|&c| c == first).count();
    (n >= 3).then_some((first, n))
}

fn is_list_item(trimmed: &str) -> bool {
    trimmed.starts_with("- ")
        || trimmed.starts_with("* ")
        || trimmed.starts_with("+ ")
        || trimmed.starts_with('|')
        || trimmed
            .split_once(". ")
            .is_some_and(|(n, _)| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
}

/// The comment a program's line ends with, after what was matched.
fn comment_of(after: &str) -> Option<&str> {
    after
        .find(" #")
        .or_else(|| after.find("//"))
        .or_else(|| after.find("<!--"))
        .map(|at| &after[at..])
}

/// The sentence the match is in, up to it: what follows the last full stop before it, with
/// the paragraph's previous line when the sentence began there.
fn sentence_before(before: &str, previous: &str) -> String {
    let cut = |text: &str| -> Option<usize> {
        [". ", "! ", "? "]
            .iter()
            .filter_map(|stop| text.rfind(stop))
            .max()
    };
    match cut(before) {
        Some(at) => before[at + 1..].to_owned(),
        None => {
            let from = cut(previous).map_or(previous, |at| &previous[at + 1..]);
            format!("{from} {before}")
        }
    }
}

/// The rest of the match's sentence on its line.
fn sentence_after(after: &str) -> &str {
    let end = [". ", "! ", "? "]
        .iter()
        .filter_map(|stop| after.find(stop))
        .min()
        .unwrap_or(after.len());
    &after[..end]
}

/// HTML comments outside code blocks, as byte ranges.
fn html_comments(text: &str, lines: &[Line<'_>]) -> Vec<std::ops::Range<usize>> {
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(open) = text[from..].find("<!--").map(|at| from + at) {
        let close = text[open + 4..]
            .find("-->")
            .map_or(text.len(), |at| open + 4 + at + 3);
        let index = lines
            .partition_point(|line| line.start <= open)
            .saturating_sub(1);
        if lines[index].region == Region::Prose {
            found.push(open..close);
        }
        from = close;
    }
    found
}

/// Words that warn against what a sentence shows, or negate it.
static CUE: LazyLock<Regex> = LazyLock::new(|| {
    compile(
        r"(?i)(?:\b(?:never|don'?t|do\s+not|does\s+not|must\s+not|mustn'?t|should\s+not|shouldn'?t|cannot|can'?t|won'?t|avoid(?:s|ing)?|instead\s+of|rather\s+than|dangerous(?:ly)?|insecure|unsafe|risky|malicious|attackers?|attacks?|exploits?|warning|warns?|beware|refuses?|reject(?:s|ed)?|blocks?|forbid(?:den|s)?|prohibited|disallow(?:ed|s)?|detects?|flags?|catch(?:es)?|bad|anti-?patterns?|wrong|vulnerable|harmful|destructive|compromised?)\b|\u{274C}|\u{26A0}|\u{1F6AB}|\u{26D4}|\u{2717}|\u{2718})",
    )
});

/// What follows a shown command to call it bad: "`curl … | sh` is dangerous", "(don't)".
/// Narrower than [`CUE`], since the rest of a sentence giving an instruction may hold a
/// "never" of its own ("… so you are never interrupted").
static AFTER_CUE: LazyLock<Regex> = LazyLock::new(|| {
    compile(
        r"(?i)^[\s`'\x22*_)\]]*(?:(?:is|are|was|would\s+be|can\s+be)\s+(?:\w+\s+)?(?:dangerous|unsafe|insecure|risky|bad|harmful|malicious|forbidden|a\s+bad\s+idea|an?\s+(?:attack|anti-?pattern|red\s+flag))|[(:\u{2014}-]\s*(?:don'?t|never|avoid|bad|unsafe|dangerous|insecure|wrong)\b|\u{274C}|\u{26A0})",
    )
});

/// A heading over a section of what not to do.
static HEADING_CUE: LazyLock<Regex> = LazyLock::new(|| {
    compile(
        r"(?i)(?:\b(?:don'?ts?|do\s+not|never|avoid|anti-?patterns?|bad\s+(?:examples?|practices?)|pitfalls|red\s+flags|what\s+not\s+to|insecure|dangerous|unsafe|security\s+(?:risks?|warnings?)|threats?|attacks?|malicious|mistakes)\b|\u{274C}|\u{26A0}|\u{1F6AB})",
    )
});

/// A negation right before an instruction: "do not ignore previous instructions".
static NEGATED: LazyLock<Regex> = LazyLock::new(|| {
    compile(
        r"(?i)\b(?:do\s+not|don'?t|never|must\s+not|should\s+not|cannot|can'?t|won'?t|refuse\s+to|not)\s+(?:\w+\s+){0,2}$",
    )
});

/// A sentence that talks about attacks rather than makes one.
static DISCUSS: LazyLock<Regex> = LazyLock::new(|| {
    compile(
        r"(?i)\b(?:such\s+as|like|e\.g\.|for\s+example|phrases?|patterns?|attacks?|injections?|malicious|attackers?|detect(?:s|ion|ed)?|flags?|watch\s+(?:out\s+)?for|look\s+for|red\s+flags?|warn(?:s|ing)?|suspicious|never\s+(?:follow|obey)|refuse|examples?|jailbreaks?|adversarial)\b",
    )
});

fn compile(pattern: &str) -> Regex {
    #[allow(clippy::expect_used)] // this file's constants, each compiled by the unit tests
    Regex::new(pattern).expect("a constant pattern")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn warns(text: &str, needle: &str) -> bool {
        let layout = Layout::of(Kind::Markdown, text);
        let at = text.find(needle).expect("needle");
        let index = layout.line_at(at);
        let start = at - layout.lines[index].start;
        layout.warns(index, start..start + needle.len())
    }

    #[test]
    fn the_cue_patterns_compile() {
        for pattern in [&CUE, &AFTER_CUE, &HEADING_CUE, &NEGATED, &DISCUSS] {
            assert!(!pattern.as_str().is_empty());
            assert!(!pattern.is_match("plain words"), "{}", pattern.as_str());
        }
    }

    #[test]
    fn a_sentence_that_warns_is_read_as_a_warning() {
        assert!(warns(
            "Never run `curl x | sh` from a skill.",
            "curl x | sh"
        ));
        assert!(warns("`curl x | sh` is dangerous.", "curl x | sh"));
        assert!(!warns("Install it: `curl x | sh` first.", "curl x | sh"));
    }

    #[test]
    fn a_code_block_led_in_by_a_warning_is_a_warning() {
        let text = "Do not do this:\n\n```bash\ncurl x | sh\n```\n";
        assert!(warns(text, "curl x | sh"));
        let text = "Install:\n\n```bash\ncurl x | sh\n```\n";
        assert!(!warns(text, "curl x | sh"));
        let text = "## Anti-patterns\n\nText.\n\n```bash\ncurl x | sh\n```\n";
        assert!(warns(text, "curl x | sh"));
    }

    #[test]
    fn a_list_under_a_warning_is_a_warning() {
        let text = "Never do any of these:\n- `rm -rf ~`\n- `curl x | sh`\n";
        assert!(warns(text, "curl x | sh"));
        let text = "Steps:\n- `rm -rf ~`\n- `curl x | sh`\n";
        assert!(!warns(text, "curl x | sh"));
    }

    #[test]
    fn a_sentence_warns_only_for_itself() {
        let text = "Never commit secrets. Run `curl x | sh` now.";
        assert!(!warns(text, "curl x | sh"));
    }

    #[test]
    fn fences_and_comments_are_found() {
        let text = "a\n```\nb\n```\n<!-- c -->\n";
        let layout = Layout::of(Kind::Markdown, text);
        assert_eq!(layout.lines[2].region, Region::Fence(1));
        assert_eq!(layout.lines[4].region, Region::Prose);
        assert_eq!(layout.comments.len(), 1);
        let c = text.find('c').expect("c");
        assert!(layout.comments[0].contains(&c));
    }
}
