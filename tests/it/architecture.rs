//! The crate's layering, checked on its source so that it cannot drift: the modules form no
//! cycle, each uses only modules below it, the domain never names the terminal libraries, the
//! files of one module form no cycle through `super::`, and no code outside `roots` names a
//! particular agent (each agent's rules are its `AgentRules` answers, in `roots`).
//!
//! Every file under `src/` is read as text. Comments, string literals and items under
//! `#[cfg(test)]` are left out (a test may reach anywhere), then every path that starts with
//! `crate::`, `super::` or `self::` is resolved to the module it names.

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::path::Path;

/// The top-level modules, bottom to top. A module may use only modules of tiers below its own,
/// and the modules of one tier do not use each other. A new module goes into the tier it
/// belongs to: the test fails for a module this list does not name.
const LAYERS: &[&[&str]] = &[
    // Display-safe text, the system calls under every write and untrusted read, the bounds
    // every read is held to, and which path lies in which folder.
    &["text", "fs", "limits", "path_prefix"],
    // The three-way merge of a skill's files, on bytes alone.
    &["merge"],
    // The skill model, then the ownership record and content digest written into it.
    &["skill"],
    // What a skill's text and scripts would do: findings from its files alone.
    &["audit"],
    &["record"],
    // Agents, scopes and where each reads skills.
    &["roots"],
    // The plugin and marketplace layouts that ownership, scan and bundle all read.
    &["plugin"],
    &["ownership"],
    // Project locks (the skills CLI's `skills-lock.json`) and the hash they record.
    &["lock"],
    &["scan"],
    // How often each skill was used, from the agents' counters and session logs.
    &["usage"],
    // What each agent's skill listing costs its model's context, from the scan.
    &["listing"],
    &["bundle"],
    // The git repositories an import fetches, with the user's own git.
    &["source"],
    &["install"],
    &["snapshot"],
    // The live engine: the watch on the skills' files, and the rescan of only those that
    // change, compared with their snapshots again.
    &["live"],
    &["demo"],
    // The agents' settings files, edited in place and put back.
    &["settings"],
    // The operations the command line and the app share.
    &["operations"],
    // The two front ends, which know nothing of each other.
    &["tui", "cli"],
    // What the binary starts when no subcommand is given: the app, on the command line's
    // grammar and exit codes.
    &["launch"],
];

/// The modules that may name the terminal libraries.
const TERMINAL: &[&str] = &["tui", "cli"];

/// The terminal libraries the domain knows nothing of.
const TERMINAL_CRATES: &[&str] = &["ratatui", "crossterm"];

/// The module that alone may name a particular agent: the one holding every agent's rules.
const AGENTS_MODULE: &str = "roots";

/// File cycles known and being removed by a change on its way: a folder under `src/` and the
/// files of the cycle. One that is gone fails the test, so the list empties as they go.
const KNOWN_FILE_CYCLES: &[(&str, &[&str])] = &[];

/// Who uses whom: each module (or file) with the ones it uses and the files where it does.
type Graph = BTreeMap<String, BTreeMap<String, BTreeSet<String>>>;

/// One file of the crate, read for the paths it uses.
struct Source {
    /// Where it is, as the failures name it: `src/snapshot/diff/rows.rs`.
    file: String,
    /// Its module: `snapshot::diff::rows`; a `mod.rs` is its folder's module.
    module: Vec<String>,
    is_hub: bool,
    /// What it uses, outside its tests, as absolute module paths.
    uses: Vec<Vec<String>>,
    /// In a `mod.rs`: each name it brings in from a file of its folder, and that file.
    imports: BTreeMap<String, String>,
    /// Whether it names a terminal library outside comments and strings.
    terminal: Option<&'static str>,
    /// Where, outside its tests, it names a particular agent: an `AgentId` constant, an
    /// identifier written out for `AgentId::from_id`, or one an `id()` is compared with.
    agent_names: Vec<String>,
}

/// What is wrong with a tree, by kind.
#[derive(Debug, Default)]
struct Findings {
    module_cycles: Vec<String>,
    layering: Vec<String>,
    terminal: Vec<String>,
    file_cycles: Vec<String>,
    agent_names: Vec<String>,
}

fn check(files: &[(String, String)], known_file_cycles: &[(&str, &[&str])]) -> Findings {
    let sources: Vec<Source> = files
        .iter()
        .filter(|(path, _)| {
            let (_, module_path) = in_crate(path);
            module_path != "lib.rs" && module_path != "main.rs"
        })
        .map(|(path, text)| read_source(path, text))
        .collect();
    let mut findings = Findings::default();

    let mut modules = Graph::new();
    for source in &sources {
        let top = &source.module[0];
        modules.entry(top.clone()).or_default();
        for used in &source.uses {
            if let Some(target) = used.first()
                && target != top
            {
                modules
                    .entry(top.clone())
                    .or_default()
                    .entry(target.clone())
                    .or_default()
                    .insert(source.file.clone());
            }
        }
    }
    for source in &sources {
        if source.module[0] != AGENTS_MODULE {
            findings
                .agent_names
                .extend(source.agent_names.iter().map(|named| {
                    format!(
                        "{}: names a particular agent: {named}; branch on its `AgentRules` \
                         answer instead (src/roots/table/agent_rules.rs)",
                        source.file
                    )
                }));
        }
    }
    findings.module_cycles = cycles(&modules)
        .into_iter()
        .map(|(_, cycle)| format!("the modules form a cycle: {}", describe(&cycle, &modules)))
        .collect();

    let tier = |module: &str| LAYERS.iter().position(|tier| tier.contains(&module));
    for (module, targets) in &modules {
        let Some(own) = tier(module) else {
            findings.layering.push(format!(
                "src/{module} is a module LAYERS does not name: add it to LAYERS in \
                 tests/it/architecture.rs, in the tier it belongs to (bottom to top; a module \
                 may use only the tiers below its own)"
            ));
            continue;
        };
        for (target, files) in targets {
            match tier(target) {
                Some(theirs) if theirs < own => {}
                Some(_) => {
                    for file in files {
                        findings.layering.push(format!(
                            "{file}: `{module}` uses `{target}`, which is not below it in LAYERS \
                             (tests/it/architecture.rs)"
                        ));
                    }
                }
                None if modules.contains_key(target) => {}
                None => {
                    for file in files {
                        findings.layering.push(format!(
                            "{file}: `{module}` uses `crate::{target}`, which is no module under src/"
                        ));
                    }
                }
            }
        }
    }

    for source in &sources {
        if let Some(name) = source.terminal
            && !TERMINAL.contains(&source.module[0].as_str())
        {
            findings.terminal.push(format!(
                "{} names {name}: only {} may use the terminal libraries",
                source.file,
                TERMINAL.join(" and ")
            ));
        }
    }

    findings.file_cycles = file_cycles(&sources, known_file_cycles);
    findings
}

/// The cycles among the files of each folder. A file's edge goes to the file of its folder
/// that a path names, directly (`super::walk::Entry`) or through the folder's `mod.rs`
/// (`super::Entry` where `mod.rs` has `pub use walk::Entry`); a subfolder counts as one file
/// of its parent. `mod.rs` itself is the hub the files hang from, not one of them.
fn file_cycles(sources: &[Source], known: &[(&str, &[&str])]) -> Vec<String> {
    let mut units: BTreeMap<Vec<String>, BTreeSet<String>> = BTreeMap::new();
    for source in sources {
        for level in 1..source.module.len() {
            units
                .entry(source.module[..level].to_vec())
                .or_default()
                .insert(source.module[level].clone());
        }
    }
    let hubs: BTreeMap<&[String], &Source> = sources
        .iter()
        .filter(|s| s.is_hub)
        .map(|s| (s.module.as_slice(), s))
        .collect();
    let mut graphs: BTreeMap<Vec<String>, Graph> = BTreeMap::new();
    for source in sources {
        for level in 1..source.module.len() {
            let folder = &source.module[..level];
            let unit = &source.module[level];
            let Some(siblings) = units.get(folder) else {
                continue;
            };
            for used in &source.uses {
                if used.len() <= level || used[..level] != *folder {
                    continue;
                }
                let name = &used[level];
                let target = if siblings.contains(name) {
                    Some(name.clone())
                } else {
                    hubs.get(folder)
                        .and_then(|hub| hub.imports.get(name))
                        .filter(|file| siblings.contains(*file))
                        .cloned()
                };
                if let Some(target) = target.filter(|t| t != unit) {
                    graphs
                        .entry(folder.to_vec())
                        .or_default()
                        .entry(unit.clone())
                        .or_default()
                        .entry(target)
                        .or_default()
                        .insert(source.file.clone());
                }
            }
        }
    }
    let mut found = Vec::new();
    let mut seen_known = BTreeSet::new();
    for (folder, graph) in &graphs {
        let folder = folder.join("/");
        for (members, cycle) in cycles(graph) {
            let is_known = known.iter().any(|(f, files)| {
                *f == folder && files.iter().copied().collect::<BTreeSet<_>>() == members
            });
            if is_known {
                seen_known.insert(folder.clone());
            } else {
                found.push(format!(
                    "the files of src/{folder}/ form a cycle: {}",
                    describe(&cycle, graph)
                ));
            }
        }
    }
    for (folder, files) in known {
        if !seen_known.contains(*folder) {
            found.push(format!(
                "the known cycle of src/{folder}/ through {} is gone: remove it from \
                 KNOWN_FILE_CYCLES in tests/it/architecture.rs",
                files.join(", ")
            ));
        }
    }
    found
}

/// Each group of nodes that reach one another, with one cycle through its first node.
fn cycles(graph: &Graph) -> Vec<(BTreeSet<&str>, Vec<&str>)> {
    let reach = |from: &str| {
        let mut seen = BTreeSet::new();
        let mut queue: VecDeque<&str> = VecDeque::from([from]);
        while let Some(node) = queue.pop_front() {
            for next in graph.get(node).into_iter().flat_map(BTreeMap::keys) {
                if seen.insert(next.as_str()) {
                    queue.push_back(next);
                }
            }
        }
        seen
    };
    let reaches: BTreeMap<&str, BTreeSet<&str>> =
        graph.keys().map(|n| (n.as_str(), reach(n))).collect();
    let mut grouped: BTreeSet<&str> = BTreeSet::new();
    let mut out = Vec::new();
    for (&node, reached) in &reaches {
        if grouped.contains(node) || !reached.contains(node) {
            continue;
        }
        let members: BTreeSet<&str> = reached
            .iter()
            .copied()
            .filter(|other| reaches.get(other).is_some_and(|r| r.contains(node)))
            .collect();
        grouped.extend(&members);
        out.push((members.clone(), shortest_cycle(graph, node, &members)));
    }
    out
}

/// The shortest way from `start` back to itself inside `members`.
fn shortest_cycle<'a>(graph: &'a Graph, start: &'a str, members: &BTreeSet<&str>) -> Vec<&'a str> {
    let mut came_from: BTreeMap<&str, &str> = BTreeMap::new();
    let mut queue = VecDeque::from([start]);
    while let Some(node) = queue.pop_front() {
        for next in graph.get(node).into_iter().flat_map(BTreeMap::keys) {
            let next = next.as_str();
            if next == start {
                // Back from `node` to `start`, which alone has no predecessor.
                let mut path = vec![node];
                let mut at = node;
                while let Some(&before) = came_from.get(at) {
                    path.push(before);
                    at = before;
                }
                path.reverse();
                path.push(start);
                return path;
            }
            if members.contains(next) && !came_from.contains_key(next) && next != start {
                came_from.insert(next, node);
                queue.push_back(next);
            }
        }
    }
    vec![start]
}

/// `a -> b -> a (a -> b in src/a.rs; b -> a in src/b.rs)`.
fn describe(cycle: &[&str], graph: &Graph) -> String {
    let steps: Vec<String> = cycle
        .windows(2)
        .map(|pair| {
            let files = graph
                .get(pair[0])
                .and_then(|targets| targets.get(pair[1]))
                .map(|files| files.iter().cloned().collect::<Vec<_>>().join(", "))
                .unwrap_or_default();
            format!("{} -> {} in {files}", pair[0], pair[1])
        })
        .collect();
    format!("{} ({})", cycle.join(" -> "), steps.join("; "))
}

/// A file's path as the failures name it, and its path inside its crate's `src/`: the core's
/// files are read with their crate folder (`crates/core/src/scan/mod.rs`), the front ends'
/// with `src/`, and a made-up tree's without either (`scan/mod.rs`, named `src/scan/mod.rs`).
fn in_crate(path: &str) -> (String, &str) {
    match path.split_once("src/") {
        Some((_, inside)) => (path.to_owned(), inside),
        None => (format!("src/{path}"), path),
    }
}

fn read_source(path: &str, text: &str) -> Source {
    let (file, path) = in_crate(path);
    let mut module: Vec<String> = path
        .trim_end_matches(".rs")
        .split('/')
        .map(str::to_owned)
        .collect();
    let is_hub = module.last().is_some_and(|last| last == "mod");
    if is_hub {
        module.pop();
    }
    let code = without_tests(&without_comments_and_strings(text));
    let tokens = tokens(&code);
    let mut uses = Vec::new();
    let mut imports = BTreeMap::new();
    // Paths inside an inline `mod name { ... }` start from that module: the brace depth each
    // open one ends at, and the module the paths are in.
    let mut depth = 0usize;
    let mut inline: Vec<usize> = Vec::new();
    let mut scope = module.clone();
    for (at, token) in tokens.iter().enumerate() {
        match token.as_str() {
            "{" => depth += 1,
            "}" => {
                if inline.last() == Some(&depth) {
                    inline.pop();
                    scope.pop();
                }
                depth = depth.saturating_sub(1);
            }
            "mod" if tokens.get(at + 2).is_some_and(|t| t == "{") => {
                inline.push(depth + 1);
                scope.push(tokens[at + 1].clone());
            }
            _ => {}
        }
        let starts_path = matches!(token.as_str(), "crate" | "super" | "self")
            && tokens.get(at + 1).is_some_and(|t| t == "::")
            && (at == 0 || tokens[at - 1] != "::");
        if starts_path {
            for path in tree(&tokens, at).0 {
                if let Some(absolute) = resolve(&scope, &path.segments) {
                    uses.push(absolute);
                }
            }
        }
        if is_hub && inline.is_empty() && token == "use" {
            for path in tree(&tokens, at + 1).0 {
                let relative = match path.segments.first().map(String::as_str) {
                    Some("self") => &path.segments[1..],
                    _ => &path.segments[..],
                };
                let name = path.alias.as_ref().or(relative.last());
                if let (Some(file), Some(name)) = (relative.first(), name)
                    && name != "self"
                    && name != "*"
                {
                    imports.insert(name.clone(), file.clone());
                }
            }
        }
    }
    let terminal = TERMINAL_CRATES
        .iter()
        .copied()
        .find(|name| tokens.iter().any(|t| t == name));
    Source {
        file,
        module,
        is_hub,
        uses,
        imports,
        terminal,
        agent_names: agent_names(&tokens),
    }
}

/// Each place the tokens name a particular agent: `AgentId::CODEX`, `from_id("codex")`, or
/// `.id() == "codex"` (strings are blanked to `""` by then, so any written identifier counts).
fn agent_names(tokens: &[String]) -> Vec<String> {
    let at = |index: usize| tokens.get(index).map_or("", String::as_str);
    let is_constant = |token: &str| {
        is_ident(token)
            && token
                .chars()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
    };
    let mut found = Vec::new();
    for index in 0..tokens.len() {
        if at(index) == "AgentId" && at(index + 1) == "::" && is_constant(at(index + 2)) {
            found.push(format!("AgentId::{}", at(index + 2)));
        }
        if at(index) == "from_id" && at(index + 1) == "(" && at(index + 2) == "\"" {
            found.push("`from_id` of a written identifier".to_owned());
        }
        // `==` and `!=` are two tokens each.
        let compared = matches!(at(index + 3), "=" | "!") && at(index + 4) == "=";
        if at(index) == "id"
            && at(index + 1) == "("
            && at(index + 2) == ")"
            && compared
            && at(index + 5) == "\""
        {
            found.push("`id` compared with a written identifier".to_owned());
        }
    }
    found
}

/// `super::super::store` in `snapshot::diff::rows` is `snapshot::store`. `None` for a path
/// that leaves the crate.
fn resolve(module: &[String], segments: &[String]) -> Option<Vec<String>> {
    let mut base: Vec<String> = module.to_vec();
    let mut rest = segments;
    match rest.first().map(String::as_str) {
        Some("crate") => {
            base.clear();
            rest = &rest[1..];
        }
        Some("self") => rest = &rest[1..],
        _ => {}
    }
    while rest.first().is_some_and(|s| s == "super") {
        base.pop()?;
        rest = &rest[1..];
    }
    base.extend(
        rest.iter()
            .take_while(|s| *s != "*" && *s != "self")
            .cloned(),
    );
    Some(base)
}

/// One path of a use tree, and the name it is brought in as.
struct UsePath {
    segments: Vec<String>,
    alias: Option<String>,
}

/// The paths of the use tree (or plain path) starting at `tokens[at]`, and where it ends.
fn tree(tokens: &[String], mut at: usize) -> (Vec<UsePath>, usize) {
    let mut segments = Vec::new();
    while let Some(token) = tokens.get(at) {
        if token == "{" {
            let mut paths = Vec::new();
            at += 1;
            while tokens.get(at).is_some_and(|t| t != "}") {
                let (inner, next) = tree(tokens, at);
                paths.extend(inner.into_iter().map(|path| UsePath {
                    segments: [segments.clone(), path.segments].concat(),
                    alias: path.alias,
                }));
                at = next;
                if tokens.get(at).is_some_and(|t| t == ",") {
                    at += 1;
                } else if tokens.get(at).is_some_and(|t| t != "}") {
                    break;
                }
            }
            return (paths, at + 1);
        }
        if token == "*" {
            segments.push(token.clone());
            return (
                vec![UsePath {
                    segments,
                    alias: None,
                }],
                at + 1,
            );
        }
        if !is_ident(token) {
            break;
        }
        segments.push(token.clone());
        at += 1;
        if tokens.get(at).is_some_and(|t| t == "::") {
            at += 1;
        } else {
            break;
        }
    }
    let mut alias = None;
    if tokens.get(at).is_some_and(|t| t == "as")
        && let Some(name) = tokens.get(at + 1).filter(|t| is_ident(t))
    {
        alias = Some(name.clone());
        at += 2;
    }
    if segments.is_empty() {
        return (Vec::new(), at);
    }
    (vec![UsePath { segments, alias }], at)
}

fn is_ident(token: &str) -> bool {
    token
        .chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_')
}

/// Identifiers, `::`, and every other character that is not white space on its own.
fn tokens(code: &str) -> Vec<String> {
    let chars: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    let mut at = 0;
    while at < chars.len() {
        let c = chars[at];
        if c.is_alphanumeric() || c == '_' {
            let start = at;
            while at < chars.len() && (chars[at].is_alphanumeric() || chars[at] == '_') {
                at += 1;
            }
            out.push(chars[start..at].iter().collect());
        } else if c == ':' && chars.get(at + 1) == Some(&':') {
            out.push("::".to_owned());
            at += 2;
        } else {
            if !c.is_whitespace() {
                out.push(c.to_string());
            }
            at += 1;
        }
    }
    out
}

/// The code with comments, strings and character literals blanked, so that a path in a doc
/// comment or a message is not taken for a use.
fn without_comments_and_strings(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let is_ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    while at < chars.len() {
        let c = chars[at];
        let next = chars.get(at + 1).copied();
        let before = at.checked_sub(1).map(|b| chars[b]);
        if c == '/' && next == Some('/') {
            while at < chars.len() && chars[at] != '\n' {
                at += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while at < chars.len() {
                if chars[at] == '/' && chars.get(at + 1) == Some(&'*') {
                    depth += 1;
                    at += 2;
                } else if chars[at] == '*' && chars.get(at + 1) == Some(&'/') {
                    depth -= 1;
                    at += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    at += 1;
                }
            }
            out.push(' ');
        } else if c == 'r'
            && !before.is_some_and(|b| is_ident(b) && b != 'b')
            && matches!(next, Some('"' | '#'))
            && raw_string_end(&chars, at + 1).is_some()
        {
            at = raw_string_end(&chars, at + 1).unwrap_or(chars.len());
            out.push_str("\"\"");
        } else if c == '"' {
            at += 1;
            while at < chars.len() && chars[at] != '"' {
                at += if chars[at] == '\\' { 2 } else { 1 };
            }
            at += 1;
            out.push_str("\"\"");
        } else if c == '\'' && next == Some('\\') {
            at += 3;
            while at < chars.len() && chars[at] != '\'' {
                at += 1;
            }
            at += 1;
            out.push_str("' '");
        } else if c == '\'' && chars.get(at + 2) == Some(&'\'') {
            at += 3;
            out.push_str("' '");
        } else {
            out.push(c);
            at += 1;
        }
    }
    out
}

/// Where a raw string whose hashes start at `at` (`#"..."#`, or `"..."`) ends.
fn raw_string_end(chars: &[char], mut at: usize) -> Option<usize> {
    let mut hashes = 0;
    while chars.get(at) == Some(&'#') {
        hashes += 1;
        at += 1;
    }
    if chars.get(at) != Some(&'"') {
        return None;
    }
    at += 1;
    while at < chars.len() {
        if chars[at] == '"' && (1..=hashes).all(|k| chars.get(at + k) == Some(&'#')) {
            return Some(at + 1 + hashes);
        }
        at += 1;
    }
    Some(chars.len())
}

/// The code without the items under `#[cfg(test)]` or `#[cfg(all(test, ...))]`.
fn without_tests(code: &str) -> String {
    let chars: Vec<char> = code.chars().collect();
    let mut out = String::with_capacity(code.len());
    let mut at = 0;
    while at < chars.len() {
        if let Some(end) = test_attribute_end(&chars, at) {
            at = item_end(&chars, end);
            out.push(' ');
        } else {
            out.push(chars[at]);
            at += 1;
        }
    }
    out
}

/// Where a `#[cfg(...)]` attribute at `at` whose condition holds only under test ends.
fn test_attribute_end(chars: &[char], at: usize) -> Option<usize> {
    let start: String = chars.get(at..at + 6)?.iter().collect();
    if start != "#[cfg(" {
        return None;
    }
    let end = matching(chars, at + 1, '[', ']')?;
    let condition: String = chars[at + 6..end - 1]
        .iter()
        .filter(|c| !c.is_whitespace())
        .collect();
    let under_test = condition == "test"
        || condition
            .strip_prefix("all(")
            .is_some_and(|inner| inner.split([',', ')']).any(|part| part == "test"));
    under_test.then_some(end + 1)
}

/// Past the item that starts at `at` (after its other attributes): its `;` or its block.
fn item_end(chars: &[char], mut at: usize) -> usize {
    let mut depth = 0i32;
    while at < chars.len() {
        match chars[at] {
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            ';' if depth == 0 => return at + 1,
            '{' if depth == 0 => {
                return matching(chars, at, '{', '}').map_or(chars.len(), |e| e + 1);
            }
            _ => {}
        }
        at += 1;
    }
    at
}

/// The index of the `close` that matches the `open` at `at`.
fn matching(chars: &[char], at: usize, open: char, close: char) -> Option<usize> {
    let mut depth = 0;
    for (index, &c) in chars.iter().enumerate().skip(at) {
        if c == open {
            depth += 1;
        } else if c == close {
            depth -= 1;
            if depth == 0 {
                return Some(index);
            }
        }
    }
    None
}

/// The crates whose modules form one layering: the core, and the front ends over it (whose
/// `lib.rs` re-exports the core's modules under their own names, so `crate::scan` means the
/// same module in both).
const CRATES: &[&str] = &["crates/core", "."];

/// Every `.rs` file under each crate's `src/`, by its path from the repository's top.
fn crate_sources() -> Vec<(String, String)> {
    fn walk(dir: &Path, top: &Path, out: &mut Vec<(String, String)>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, top, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let relative = path.strip_prefix(top).unwrap();
                let relative = relative.to_string_lossy().replace('\\', "/");
                out.push((relative, std::fs::read_to_string(&path).unwrap()));
            }
        }
    }
    let top = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = Vec::new();
    for krate in CRATES {
        let src = top.join(krate).join("src");
        // The published crate holds its own sources only; in the repository a missing crate
        // fails below.
        if published() && !src.is_dir() {
            continue;
        }
        walk(&src, top, &mut out);
    }
    out.sort();
    out
}

/// Whether this is the published `skilldeck` crate (`cargo package` marks it with its
/// Cargo.toml.orig), which holds the front ends' sources but not the core's: those are checked
/// in the repository.
fn published() -> bool {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("Cargo.toml.orig")
        .is_file()
}

fn assert_none(what: &str, findings: &[String]) {
    assert!(findings.is_empty(), "{what}:\n  {}", findings.join("\n  "));
}

#[test]
fn the_modules_form_no_cycle() {
    let findings = check(&crate_sources(), KNOWN_FILE_CYCLES);
    assert_none("a module depends on itself", &findings.module_cycles);
}

#[test]
fn every_module_uses_only_the_layers_below_it() {
    let findings = check(&crate_sources(), KNOWN_FILE_CYCLES);
    assert_none("an arrow runs up the layering", &findings.layering);
}

#[test]
fn the_domain_never_names_the_terminal_libraries() {
    let findings = check(&crate_sources(), KNOWN_FILE_CYCLES);
    assert_none("the domain names the terminal", &findings.terminal);
}

#[test]
fn only_roots_names_a_particular_agent() {
    let findings = check(&crate_sources(), KNOWN_FILE_CYCLES);
    assert_none("code outside roots names an agent", &findings.agent_names);
}

#[test]
fn the_files_of_a_module_form_no_cycle() {
    let findings = check(&crate_sources(), KNOWN_FILE_CYCLES);
    assert_none(
        "files of a module depend on each other",
        &findings.file_cycles,
    );
}

/// The modules of the `skilldeck` crate itself: the front ends. Every other module is the
/// core's, whose manifest names no terminal library and no argument parser, so the compiler
/// holds the layering between the two crates.
const FRONT_ENDS: &[&str] = &["tui", "cli", "launch"];

/// What the core crate may not depend on.
const NOT_IN_THE_CORE: &[&str] = &["ratatui", "crossterm", "clap", "anstream", "anstyle"];

#[test]
fn the_core_crate_holds_everything_below_the_front_ends_and_no_terminal() {
    if published() {
        eprintln!("the core's sources are not in the published crate: checked in the repository");
        return;
    }
    let sources = crate_sources();
    let read = |root: &str| {
        sources
            .iter()
            .filter(|(path, _)| path.starts_with(root))
            .count()
    };
    assert!(read("crates/core/src/") > 100 && read("src/tui/") > 20);
    let mut misplaced = Vec::new();
    for (path, text) in &sources {
        let source = read_source(path, text);
        let Some(top) = source
            .module
            .first()
            .filter(|top| *top != "lib" && *top != "main")
        else {
            continue;
        };
        let in_core = path.starts_with("crates/core/");
        if in_core == FRONT_ENDS.contains(&top.as_str()) {
            misplaced.push(format!(
                "{path}: `{top}` belongs in {}",
                if in_core {
                    "the skilldeck crate's src/"
                } else {
                    "crates/core/src/"
                }
            ));
        }
    }
    assert_none("a module is in the wrong crate", &misplaced);
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/core/Cargo.toml");
    let manifest: toml::Table = std::fs::read_to_string(manifest).unwrap().parse().unwrap();
    let named: Vec<String> = dependency_names(&manifest);
    assert!(named.iter().any(|name| name == "serde"), "{named:?}");
    let terminal: Vec<String> = named
        .into_iter()
        .filter(|name| NOT_IN_THE_CORE.contains(&name.as_str()))
        .collect();
    assert_none("the core crate's manifest names", &terminal);
}

/// Every dependency a manifest names, of any kind and for any target.
fn dependency_names(manifest: &toml::Table) -> Vec<String> {
    let kinds = ["dependencies", "dev-dependencies", "build-dependencies"];
    let tables = kinds.iter().filter_map(|kind| manifest.get(*kind));
    let targets = manifest
        .get("target")
        .and_then(toml::Value::as_table)
        .into_iter()
        .flat_map(|targets| targets.values())
        .flat_map(|target| kinds.iter().filter_map(move |kind| target.get(*kind)));
    tables
        .chain(targets)
        .filter_map(toml::Value::as_table)
        .flat_map(|table| table.keys().cloned())
        .collect()
}

/// The checks on made-up trees, so that each can be seen to fail.
mod checker {
    use super::*;

    fn tree(files: &[(&str, &str)]) -> Vec<(String, String)> {
        files
            .iter()
            .map(|(path, text)| ((*path).to_owned(), (*text).to_owned()))
            .collect()
    }

    #[test]
    fn an_upward_use_is_found_and_its_file_named() {
        let findings = check(
            &tree(&[
                ("scan/mod.rs", "mod discover;"),
                (
                    "scan/discover.rs",
                    "use crate::{roots::Root, bundle::Bundle};",
                ),
                ("bundle/mod.rs", "use crate::scan::Inventory;"),
                ("roots/mod.rs", ""),
            ]),
            &[],
        );
        assert_eq!(
            findings.layering,
            [
                "src/scan/discover.rs: `scan` uses `bundle`, which is not below it in LAYERS \
              (tests/it/architecture.rs)"
            ]
        );
        assert_eq!(
            findings.module_cycles,
            [
                "the modules form a cycle: bundle -> scan -> bundle (bundle -> scan in \
              src/bundle/mod.rs; scan -> bundle in src/scan/discover.rs)"
            ]
        );
    }

    #[test]
    fn a_use_through_super_reaching_the_crate_root_counts() {
        let findings = check(
            &tree(&[
                ("roots/mod.rs", "use super::scan::Inventory;"),
                ("scan/mod.rs", ""),
            ]),
            &[],
        );
        assert_eq!(findings.layering.len(), 1, "{:?}", findings.layering);
        assert!(findings.layering[0].starts_with("src/roots/mod.rs: `roots` uses `scan`"));
    }

    #[test]
    fn tests_comments_and_strings_are_left_out() {
        let findings = check(
            &tree(&[
                (
                    "roots/mod.rs",
                    "//! See crate::scan.\n\
                     /* crate::scan::x /* nested */ crate::scan */\n\
                     const A: &str = \"crate::scan::Inventory\";\n\
                     const B: &str = r#\"crate::scan \"quoted\"\"#;\n\
                     const C: char = '\"';\n\
                     fn f<'a>(x: &'a str) -> &'a str { x }\n\
                     #[cfg(test)]\n\
                     mod tests { use crate::scan::Inventory; fn g() { let _ = \"}\"; } }\n\
                     #[cfg(all(test, unix))]\n\
                     use crate::scan::Other;\n\
                     #[cfg(not(test))]\n\
                     use crate::skill::Kept;",
                ),
                ("scan/mod.rs", "use ratatui::text::Line; // crossterm"),
                ("skill/mod.rs", ""),
            ]),
            &[],
        );
        assert!(findings.layering.is_empty(), "{:?}", findings.layering);
        assert!(findings.module_cycles.is_empty());
        // The use kept under `not(test)` runs down, so it is no finding; the terminal library
        // outside a comment is one.
        assert_eq!(
            findings.terminal,
            ["src/scan/mod.rs names ratatui: only tui and cli may use the terminal libraries"]
        );
    }

    #[test]
    fn a_path_in_an_inline_module_starts_from_it() {
        let findings = check(
            &tree(&[
                (
                    "tui/mod.rs",
                    "mod runtime;\nmod inner { use super::runtime::Runtime; }",
                ),
                (
                    "tui/runtime.rs",
                    "mod deeper { use super::super::super::cli::Args; }",
                ),
                ("cli/mod.rs", ""),
            ]),
            &[],
        );
        assert_eq!(
            findings.layering,
            [
                "src/tui/runtime.rs: `tui` uses `cli`, which is not below it in LAYERS \
              (tests/it/architecture.rs)"
            ]
        );
    }

    #[test]
    fn a_use_kept_outside_tests_is_seen() {
        let findings = check(
            &tree(&[
                ("skill/mod.rs", "#[cfg(not(test))]\nuse crate::roots::Root;"),
                ("roots/mod.rs", ""),
            ]),
            &[],
        );
        assert_eq!(findings.layering.len(), 1, "{:?}", findings.layering);
    }

    #[test]
    fn a_module_the_layers_do_not_name_fails_loudly() {
        let findings = check(&tree(&[("ops/mod.rs", "use crate::scan::Inventory;")]), &[]);
        assert_eq!(findings.layering.len(), 1);
        assert!(
            findings.layering[0].starts_with("src/ops is a module LAYERS does not name: add it")
        );
    }

    #[test]
    fn a_file_cycle_through_a_reexport_is_found() {
        let files = tree(&[
            (
                "install/mod.rs",
                "mod a;\nmod b;\nmod c;\npub use b::{Thing as Other, more};",
            ),
            ("install/a.rs", "use super::Other;\nuse super::c::C;"),
            ("install/b.rs", "use super::{a::f, Error};"),
            ("install/c.rs", "use crate::install::a::f;"),
        ]);
        let findings = check(&files, &[]);
        assert_eq!(
            findings.file_cycles,
            [
                "the files of src/install/ form a cycle: a -> b -> a (a -> b in src/install/a.rs; \
              b -> a in src/install/b.rs)"
            ]
        );
        assert!(findings.module_cycles.is_empty());
        let known = check(&files, &[("install", &["a", "b", "c"])]);
        assert!(known.file_cycles.is_empty(), "{:?}", known.file_cycles);
    }

    #[test]
    fn a_subfolder_counts_as_one_file_of_its_parent() {
        let findings = check(
            &tree(&[
                ("snapshot/mod.rs", "mod diff;\nmod store;"),
                ("snapshot/store.rs", "use super::diff::Diff;"),
                ("snapshot/diff/mod.rs", "mod rows;"),
                ("snapshot/diff/rows.rs", "use super::super::store::Store;"),
            ]),
            &[],
        );
        assert_eq!(findings.file_cycles.len(), 1, "{:?}", findings.file_cycles);
        assert!(findings.file_cycles[0].contains("diff -> store in src/snapshot/diff/rows.rs"));
    }

    #[test]
    fn an_agent_named_outside_roots_is_found_but_not_in_tests_comments_or_strings() {
        let findings = check(
            &tree(&[
                ("roots/mod.rs", "pub const A: AgentId = AgentId::CODEX;"),
                (
                    "listing/mod.rs",
                    "// AgentId::CODEX in a comment\n\
                     const S: &str = \"AgentId::CODEX\";\n\
                     fn f(a: AgentId) -> bool { a == AgentId::CODEX }\n\
                     fn g(a: AgentId) -> u8 { match a { AgentId::CLAUDE_CODE => 1, _ => 0 } }\n\
                     fn h(a: AgentId) -> bool { a.id() == \"codex\" || a.id()!=\"amp\" }\n\
                     fn k() -> Option<AgentId> { AgentId::from_id(\"goose\") }\n\
                     fn ok(a: AgentId) -> bool { AgentId::all().any(|b| b == a) && a.id() == a.id() }\n\
                     #[cfg(test)]\n\
                     mod tests { const T: AgentId = AgentId::AMP; }",
                ),
            ]),
            &[],
        );
        let named: Vec<&str> = findings
            .agent_names
            .iter()
            .map(|finding| {
                let (_, named) = finding.split_once("names a particular agent: ").unwrap();
                named.split(';').next().unwrap()
            })
            .collect();
        assert_eq!(
            named,
            [
                "AgentId::CODEX",
                "AgentId::CLAUDE_CODE",
                "`id` compared with a written identifier",
                "`id` compared with a written identifier",
                "`from_id` of a written identifier",
            ]
        );
        assert!(
            findings
                .agent_names
                .iter()
                .all(|f| f.starts_with("src/listing/mod.rs: ")),
            "{:?}",
            findings.agent_names
        );
    }

    #[test]
    fn a_known_cycle_that_is_gone_must_leave_the_list() {
        let findings = check(
            &tree(&[("bundle/path.rs", ""), ("bundle/mod.rs", "")]),
            &[("bundle", &["path", "refusal"])],
        );
        assert_eq!(
            findings.file_cycles,
            [
                "the known cycle of src/bundle/ through path, refusal is gone: remove it from \
              KNOWN_FILE_CYCLES in tests/it/architecture.rs"
            ]
        );
    }
}
