//! The names closest to one that was misspelt (`pdff` for `pdf`): the one rule every lookup
//! of a skill by name suggests by, so `remove`, `disable`, `enable`, `diff`, `export` and the
//! rest offer the same names for the same typo.

/// How alike two names must be to be offered: clap's own rule for suggesting a subcommand, a
/// Jaro similarity over 0.8.
const CLOSE: f64 = 0.8;

/// How many names a suggestion offers at most.
const AT_MOST: usize = 3;

/// Among `names`, the few closest to `typed`, the likeliest first (each once); none when none
/// is close, or when `typed` is one of them.
pub fn closest<'a>(names: impl IntoIterator<Item = &'a str>, typed: &str) -> Vec<&'a str> {
    let mut close: Vec<(f64, &str)> = names
        .into_iter()
        .map(|name| (strsim::jaro(typed, name), name))
        .filter(|(score, _)| *score > CLOSE)
        .collect();
    if close.iter().any(|(_, name)| *name == typed) {
        return Vec::new();
    }
    close.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(b.1)));
    close.dedup_by(|a, b| a.1 == b.1);
    close.into_iter().take(AT_MOST).map(|(_, n)| n).collect()
}

/// [`closest`] as the end of a sentence that says `typed` names nothing: `; did you mean pdf?`,
/// `; did you mean a, b or c?`, or nothing when none is close.
pub fn did_you_mean<'a>(names: impl IntoIterator<Item = &'a str>, typed: &str) -> String {
    match closest(names, typed).as_slice() {
        [] => String::new(),
        [one] => format!("; did you mean {one}?"),
        [rest @ .., last] => format!("; did you mean {} or {last}?", rest.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_typo_is_offered_the_closest_names_and_a_stranger_none() {
        let names = ["pdf", "pptx", "brand-guidelines", "xlsx", "pdf"];
        assert_eq!(closest(names, "pdff"), ["pdf"]);
        assert_eq!(did_you_mean(names, "pdff"), "; did you mean pdf?");
        assert_eq!(closest(names, "brand-guideline"), ["brand-guidelines"]);
        assert_eq!(did_you_mean(names, "kubernetes"), "");
        assert_eq!(closest(names, "pdf"), Vec::<&str>::new());
        assert_eq!(
            did_you_mean(["demo-a", "demo-b", "demo-c", "demo-d"], "demo"),
            "; did you mean demo-a, demo-b or demo-c?"
        );
    }
}
