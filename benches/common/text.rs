//! The 1 MiB text file the diff benchmarks edit, and the edits they make to it.

/// An edit of one line, by its index.
pub type Edit = fn(usize, &str) -> String;

/// One line in a hundred changed (a word), and every line changed (a word in each).
pub const EDITS: [(&str, Edit); 2] = [
    ("one line in a hundred", |i, l| {
        if i % 100 == 50 {
            l.replace("lazy", "sleepy")
        } else {
            l.to_owned()
        }
    }),
    ("every line", |_, l| l.replace("quick", "slow")),
];

/// About 1 MiB of numbered lines of Markdown-like text.
pub fn one_mib() -> String {
    let line =
        |i: usize| format!("{i:06} The quick brown fox jumps over the lazy dog, line by line.\n");
    let mut text = String::with_capacity((1 << 20) + 128);
    for i in 0.. {
        if text.len() >= 1 << 20 {
            break;
        }
        text.push_str(&line(i));
    }
    text
}

/// `text` with `edit` applied to each of its lines.
pub fn edited(text: &str, edit: Edit) -> String {
    text.lines()
        .enumerate()
        .map(|(i, l)| edit(i, &format!("{l}\n")))
        .collect()
}
