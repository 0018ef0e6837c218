//! Which files merge line by line, and the line merge itself (diff3, by `diffy`).

/// The file as text, when it is text: valid UTF-8 with no NUL byte. Anything else is binary,
/// which no line merge can be trusted with.
pub fn of(bytes: &[u8]) -> Option<&str> {
    if bytes.contains(&0) {
        return None;
    }
    std::str::from_utf8(bytes).ok()
}

/// The line merge of `ours` and `theirs` from `base`: `Ok` with both sides' changes when
/// they touch different lines, `Err` with the overlapping ones between conflict markers
/// (`<<<<<<< ours`, `||||||| original`, `=======`, `>>>>>>> theirs`).
pub fn merge(base: &str, ours: &str, theirs: &str) -> Result<String, String> {
    diffy::merge(base, ours, theirs)
}
