//! Frontmatter and file quirks, asked of every agent at once: YAML that does not parse, a
//! byte-order mark and CRLF line ends, empty and multi-line descriptions, and a `SKILL.md` that
//! is a symbolic link. Each case is written twice, into the project's `.claude/skills` (the
//! only project folder Claude Code reads) and its `.agents/skills` (Codex's and Gemini CLI's),
//! tagged `c` and `a` so that no two copies share a folder or a name. Every folder is named
//! `<tag>-<case>-dir` and every frontmatter name `<tag>-<case>`, so the listing tells which of
//! the two an agent used.

use std::path::Path;

use super::{Agent, Check, Lab, here};

/// A case: its name, and its `SKILL.md` for a tag (`{n}` stands for the frontmatter name).
type Case<'a> = (&'a str, &'a str);

fn lab() -> Option<Lab> {
    Lab::new()
}

/// Write each case into both project roots.
fn lay_out(lab: &Lab, cases: &[Case<'_>]) {
    for tag in ["c", "a"] {
        let root = if tag == "c" {
            lab.project.join(".claude/skills")
        } else {
            lab.project.join(".agents/skills")
        };
        for (case, text) in cases {
            let name = format!("{tag}-{case}");
            lab.file(
                &root.join(format!("{name}-dir/SKILL.md")),
                &text.replace("{n}", &name),
            );
        }
    }
    // One plain skill per root, so that an agent that drops every quirk still lists something.
    lab.skill(&lab.project.join(".claude/skills/c-plain"), Some("c-plain"));
    lab.skill(&lab.project.join(".agents/skills/a-plain"), Some("a-plain"));
}

fn ask_all(lab: &Lab, test: &str, class: &str) {
    lab.check(Check::new(test, class, &Agent::ALL, &[&lab.project]));
}

/// YAML that does not parse: an unclosed quote, a tab before a key, a bare `: ` inside a plain
/// description (the commonest slip in real skills), a stray indented line.
#[test]
fn frontmatter_invalid_yaml_syntax() {
    let Some(lab) = lab() else { return };
    lay_out(
        &lab,
        &[
            (
                "quote-description",
                "---\nname: {n}\ndescription: \"Unclosed quote in the description\n---\nBody.\n",
            ),
            (
                "quote-name",
                "---\nname: \"{n}\ndescription: The name's quote is never closed.\n---\nBody.\n",
            ),
            (
                "tab-key",
                "---\nname: {n}\n\tdescription: A tab before the key.\n---\nBody.\n",
            ),
            (
                "tab-value",
                "---\nname: {n}\ndescription:\n\tA tab-indented value.\n---\nBody.\n",
            ),
            (
                "bare-colon",
                "---\nname: {n}\ndescription: Use when: the user asks for it.\n---\nBody.\n",
            ),
            (
                "bare-colon-name",
                "---\nname: {n}\ndescription: Does things. Triggers: a, b: c.\nlicense: MIT\n---\nBody.\n",
            ),
            (
                "colon-first",
                "---\ndescription: Use when: asked.\nname: {n}\n---\nBody.\n",
            ),
        ],
    );
    ask_all(&lab, here!(), "invalid YAML syntax");
}

/// Keys that repeat.
#[test]
fn frontmatter_duplicate_keys() {
    let Some(lab) = lab() else { return };
    lay_out(
        &lab,
        &[
            (
                "dup-name",
                "---\nname: {n}-first\nname: {n}\ndescription: Two names.\n---\nBody.\n",
            ),
            (
                "dup-description",
                "---\nname: {n}\ndescription: One.\ndescription: Two.\n---\nBody.\n",
            ),
            (
                "dup-other",
                "---\nname: {n}\nlicense: MIT\ndescription: Other keys twice.\nlicense: MIT\n---\nBody.\n",
            ),
        ],
    );
    ask_all(&lab, here!(), "duplicate keys");
}

/// Names and descriptions that are not strings. Amp is left out: a name that is not a string
/// makes `amp skill list` fail outright (`n.name.localeCompare is not a function`, Amp
/// 0.0.1790142911), so there is no listing to compare.
#[test]
fn frontmatter_non_string_values() {
    let Some(lab) = lab() else { return };
    lay_out(
        &lab,
        &[
            (
                "number-name",
                "---\nname: 123\ndescription: A number for a name.\n---\nBody.\n",
            ),
            (
                "list-name",
                "---\nname: [a]\ndescription: A list for a name.\n---\nBody.\n",
            ),
            (
                "bool-name",
                "---\nname: true\ndescription: A boolean for a name.\n---\nBody.\n",
            ),
            (
                "number-description",
                "---\nname: {n}\ndescription: 42\n---\nBody.\n",
            ),
            (
                "list-description",
                "---\nname: {n}\ndescription:\n  - a\n  - b\n---\nBody.\n",
            ),
        ],
    );
    let agents = [
        Agent::ClaudeCode,
        Agent::Codex,
        Agent::OpenCode,
        Agent::GeminiCli,
        Agent::Copilot,
    ];
    lab.check(Check::new(
        here!(),
        "non-string values",
        &agents,
        &[&lab.project],
    ));
}

/// Flow lists and mappings as values, with and without a `: ` inside: Codex retries a value
/// it cannot take as text with the `: ` quoted (FINDINGS #25), the others read them their own
/// ways. Amp is left out for the reason above.
#[test]
fn frontmatter_lists_and_mappings_as_values() {
    let Some(lab) = lab() else { return };
    lay_out(
        &lab,
        &[
            (
                "map",
                "---\nname: {{n}: 1}\ndescription: A mapping.\n---\nBody.\n",
            ),
            (
                "map-two",
                "---\nname: {{n}: y, z: w}\ndescription: Two pairs.\n---\nBody.\n",
            ),
            (
                "map-tab",
                "---\nname: {{n}:\tb}\ndescription: A tab.\n---\nBody.\n",
            ),
            (
                "map-tight",
                "---\nname: {{n}:b}\ndescription: No space.\n---\nBody.\n",
            ),
            (
                "word",
                "---\nname: {{n}}\ndescription: Braces.\n---\nBody.\n",
            ),
            (
                "list-colon",
                "---\nname: [{n}: b]\ndescription: A pair.\n---\nBody.\n",
            ),
            (
                "trailing",
                "---\nname: {n}:\ndescription: Ends in a colon.\n---\nBody.\n",
            ),
            (
                "nested",
                "---\nname:\n  {n}: 1\ndescription: Below the key.\n---\nBody.\n",
            ),
            (
                "desc-map",
                "---\nname: {n}\ndescription: {k: v}\n---\nBody.\n",
            ),
            (
                "desc-tight",
                "---\nname: {n}\ndescription: {k:v}\n---\nBody.\n",
            ),
            (
                "quoted-name",
                "---\nname: \"{{n}: q}\"\ndescription: {k: v}\nother: {c:d}\n---\nBody.\n",
            ),
        ],
    );
    let agents = [
        Agent::ClaudeCode,
        Agent::Codex,
        Agent::OpenCode,
        Agent::GeminiCli,
        Agent::Copilot,
    ];
    lab.check(Check::new(
        here!(),
        "lists and mappings as values",
        &agents,
        &[&lab.project],
    ));
}

/// A frontmatter that opens and never closes, and one that is not a mapping.
#[test]
fn frontmatter_never_closed_or_not_a_mapping() {
    let Some(lab) = lab() else { return };
    lay_out(
        &lab,
        &[
            (
                "unclosed",
                "---\nname: {n}\ndescription: Never closed.\n\n# Body\n",
            ),
            (
                "unclosed-bare",
                "---\nname: {n}\ndescription: Never closed.\n",
            ),
            (
                "unclosed-prose",
                "---\nname: {n}\ndescription: Never closed.\n\nA body in prose, not YAML.\n",
            ),
            (
                "dots-close",
                "---\nname: {n}\ndescription: Closed with dots.\n...\n# Body\n",
            ),
            ("list", "---\n- {n}\n- a list\n---\nBody.\n"),
            (
                "indented-fence",
                "---\nname: {n}\ndescription: Closing fence indented.\n ---\nBody.\n",
            ),
        ],
    );
    ask_all(&lab, here!(), "never closed, not a mapping");
}

/// A byte-order mark before the fence, CRLF line ends, and both.
#[test]
fn frontmatter_byte_order_mark_and_crlf() {
    let Some(lab) = lab() else { return };
    lay_out(
        &lab,
        &[
            (
                "bom",
                "\u{feff}---\nname: {n}\ndescription: A byte-order mark first.\n---\nBody.\n",
            ),
            (
                "crlf",
                "---\r\nname: {n}\r\ndescription: CRLF line ends.\r\n---\r\nBody.\r\n",
            ),
            (
                "bom-crlf",
                "\u{feff}---\r\nname: {n}\r\ndescription: Both.\r\n---\r\nBody.\r\n",
            ),
            (
                "cr-only",
                "---\rname: {n}\rdescription: Old Mac line ends.\r---\rBody.\r",
            ),
            (
                "trailing-space-fence",
                "--- \nname: {n}\ndescription: A space after the fence.\n--- \nBody.\n",
            ),
        ],
    );
    ask_all(&lab, here!(), "byte-order mark, CRLF");
}

/// Descriptions that are empty, only whitespace, or span several lines.
#[test]
fn frontmatter_empty_blank_and_multi_line_descriptions() {
    let Some(lab) = lab() else { return };
    lay_out(
        &lab,
        &[
            ("empty", "---\nname: {n}\ndescription:\n---\nBody.\n"),
            (
                "empty-quoted",
                "---\nname: {n}\ndescription: \"\"\n---\nBody.\n",
            ),
            (
                "blank",
                "---\nname: {n}\ndescription: \"   \"\n---\nBody.\n",
            ),
            ("null", "---\nname: {n}\ndescription: null\n---\nBody.\n"),
            (
                "folded",
                "---\nname: {n}\ndescription: >\n  Folded over\n  two lines.\n---\nBody.\n",
            ),
            (
                "literal",
                "---\nname: {n}\ndescription: |\n  Literal over\n  two lines.\n---\nBody.\n",
            ),
            (
                "plain-multi",
                "---\nname: {n}\ndescription: A plain scalar\n  that continues.\n---\nBody.\n",
            ),
            (
                "empty-name",
                "---\nname: \"\"\ndescription: An empty name.\n---\nBody.\n",
            ),
        ],
    );
    ask_all(&lab, here!(), "empty and multi-line descriptions");
}

/// A `SKILL.md` that is a link: to a file in its folder, to one elsewhere, to nothing.
#[cfg(unix)]
#[test]
fn frontmatter_skill_md_is_a_link() {
    let Some(lab) = lab() else { return };
    lay_out(&lab, &[]);
    let elsewhere = lab.root.join("elsewhere");
    for (tag, root) in [("c", ".claude/skills"), ("a", ".agents/skills")] {
        let root = lab.project.join(root);
        let text = |case: &str| {
            format!("---\nname: {tag}-{case}\ndescription: Reached through a link.\n---\nBody.\n")
        };
        let here_dir = root.join(format!("{tag}-link-here-dir"));
        lab.file(&here_dir.join("REAL.md"), &text("link-here"));
        crate::common::symlink(Path::new("REAL.md"), &here_dir.join("SKILL.md"));

        let far = elsewhere.join(format!("{tag}-far.md"));
        lab.file(&far, &text("link-far"));
        crate::common::symlink(&far, &root.join(format!("{tag}-link-far-dir/SKILL.md")));

        crate::common::symlink(
            &elsewhere.join("missing.md"),
            &root.join(format!("{tag}-link-dangling-dir/SKILL.md")),
        );
        // A link to a link.
        let chain_dir = root.join(format!("{tag}-link-chain-dir"));
        lab.file(&chain_dir.join("REAL.md"), &text("link-chain"));
        crate::common::symlink(Path::new("REAL.md"), &chain_dir.join("MID.md"));
        crate::common::symlink(Path::new("MID.md"), &chain_dir.join("SKILL.md"));
    }
    ask_all(&lab, here!(), "SKILL.md is a link");
}

/// White space inside a name or a description, and lengths at the bounds before and after
/// runs of white space are counted once: Codex folds every run into one space
/// (`sanitize_single_line`, codex-rs/core-skills/src/loader.rs) before it checks a name against
/// 64 characters, and lists what it folded. A line break in a name is asked in
/// [`frontmatter_line_break_in_a_name`].
#[test]
fn frontmatter_white_space_runs_and_lengths() {
    let Some(lab) = lab() else { return };
    // 300 × "ab   ": 1,500 characters as written, 899 once each run is one space.
    let folding = "ab   ".repeat(300);
    let over = "d".repeat(1025);
    let at = "e".repeat(1024);
    // `{n}` is 18 characters here (`a-long-spaced-name`): 65 as written, 64 folded.
    let long_name = format!("{{n}}  {}", "y".repeat(45));
    let spaced = "---\nname: {n} Two  Spaces\ndescription: Runs of spaces.\n---\nBody.\n";
    let tab = "---\nname: \"{n}\\tTab\"\ndescription: A tab in the name.\n---\nBody.\n";
    let folded = format!("---\nname: {{n}}\ndescription: \"{folding}\"\n---\nBody.\n");
    let long = format!("---\nname: {{n}}\ndescription: {over}\n---\nBody.\n");
    let longest = format!("---\nname: {{n}}\ndescription: {at}\n---\nBody.\n");
    let long_spaced = format!("---\nname: {long_name}\ndescription: A long name.\n---\nBody.\n");
    lay_out(
        &lab,
        &[
            ("spaced-name", spaced),
            ("tab-name", tab),
            ("folded-description", &folded),
            ("description-1025", &long),
            ("description-1024", &longest),
            ("long-spaced-name", &long_spaced),
        ],
    );
    ask_all(&lab, here!(), "white space runs and lengths");
}

/// A line break inside a quoted name. Gemini CLI is left out: `gemini skills list` prints one
/// skill a line, so a name holding a line break cannot be read back from it.
#[test]
fn frontmatter_line_break_in_a_name() {
    let Some(lab) = lab() else { return };
    lay_out(
        &lab,
        &[(
            "newline-name",
            "---\nname: \"{n}\\nLine\"\ndescription: A line break in the name.\n---\nBody.\n",
        )],
    );
    let agents: Vec<Agent> = Agent::ALL
        .iter()
        .copied()
        .filter(|agent| *agent != Agent::GeminiCli)
        .collect();
    lab.check(Check::new(
        here!(),
        "line break in a name",
        &agents,
        &[&lab.project],
    ));
}
