//! Which files merge line by line, and the line merge itself (diff3, by `diffy`).

/// The file as text, when it is text: valid UTF-8 with no NUL byte. Anything else is binary,
/// which no line merge can be trusted with.
pub fn of(bytes: &[u8]) -> Option<&str> {
    if bytes.contains(&0) {
        return None;
    }
    std::str::from_utf8(bytes).ok()
}

/// What a line merge gives: the text either way, with conflict markers when it is conflicted.
#[derive(Debug, PartialEq, Eq)]
pub enum LineMerge {
    /// Both sides' changes, which touch different lines.
    Clean(String),
    /// The overlapping changes between conflict markers (`<<<<<<< ours`, `||||||| original`,
    /// `=======`, `>>>>>>> theirs`).
    Conflicted(String),
}

/// The line merge of `ours` and `theirs` from `base`.
pub fn merge(base: &str, ours: &str, theirs: &str) -> LineMerge {
    match diffy::merge(base, ours, theirs) {
        Ok(clean) => LineMerge::Clean(clean),
        Err(marked) => LineMerge::Conflicted(marked),
    }
}
