//! The inverse of [`stamp`]: a `SKILL.md` as it was before the record was written into it,
//! which is what another installer (the skills CLI) would have installed from the same
//! upstream, and so what its hashes are computed over.
//!
//! `stamp` rewrites only the frontmatter's `metadata:` block, so the original is found by
//! taking the record's three lines back out, and, when nothing else is left in the block, its
//! `metadata:` line too. A candidate is kept only when stamping it again gives the stamped text
//! byte for byte: the inverse is proved, like the stamp, never trusted.
//!
//! What cannot be told from the stamped text alone, and is therefore not recovered exactly: a
//! byte-order mark the stamp dropped, and metadata values the author wrote in another YAML form
//! (unquoted, single-quoted, with comments inside the block), which the stamp rewrote as
//! double-quoted strings. For those the candidate is the text with the values as the stamp
//! wrote them: it stamps to the same file, but another installer's hash of the upstream
//! differs from its hash.

use super::{blanked, parse, stamp};

/// The lines the record adds to the `metadata:` block, as `stamp` writes them.
const RECORD_LINES: [&str; 3] = [
    "  installed-by: ",
    "  installed-version: ",
    "  content-digest: ",
];

/// `skill_md` without the record `stamp` wrote into it; `None` when it holds no record, or
/// no text that stamps back to it.
pub fn unstamp(skill_md: &str) -> Option<String> {
    let record = parse(skill_md.as_bytes())?;
    let blank = blanked(skill_md.as_bytes());
    let blank = std::str::from_utf8(&blank).ok()?;
    candidates(skill_md).into_iter().find(|candidate| {
        stamp(candidate, &record.installed_by, &record.installed_version)
            .is_ok_and(|stamped| stamped.text() == blank)
    })
}

/// The texts `skill_md` may have been before the stamp: for each place the record's three
/// lines stand together at the end of a `metadata:` block of the frontmatter, those lines taken
/// out, and the `metadata:` line with them when the block is left empty (the author wrote no
/// metadata, the usual case), then with that line kept (the author wrote an empty
/// `metadata:`).
fn candidates(skill_md: &str) -> Vec<String> {
    let lines: Vec<&str> = skill_md.split_inclusive('\n').collect();
    let bare = |line: &str| line.trim_end_matches(['\n', '\r']).to_owned();
    if lines.first().map(|l| bare(l)).as_deref() != Some("---") {
        return Vec::new();
    }
    let Some(close) = lines.iter().skip(1).position(|l| bare(l) == "---") else {
        return Vec::new();
    };
    let close = close + 1;
    let without = |skip: &[usize]| -> String {
        (0..lines.len())
            .filter(|i| !skip.contains(i))
            .map(|i| lines[i])
            .collect()
    };
    let mut out = Vec::new();
    for open in (1..close).filter(|&i| bare(lines[i]) == "metadata:") {
        // The block as the stamp renders it: `  key: "value"` lines, the record's last.
        let mut end = open + 1;
        while end < close && lines[end].starts_with("  ") && !lines[end].starts_with("   ") {
            end += 1;
        }
        if end < open + 4 {
            continue;
        }
        let record = [end - 3, end - 2, end - 1];
        let is_record = record
            .iter()
            .zip(RECORD_LINES)
            .all(|(&i, start)| lines[i].starts_with(start));
        if !is_record {
            continue;
        }
        if end - 3 == open + 1 {
            out.push(without(&[open, record[0], record[1], record[2]]));
        }
        out.push(without(&record));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{digest_of, stamp};

    /// `original` as an import writes it: stamped and sealed with a digest.
    fn stamped(original: &str) -> String {
        let stamped = stamp(original, "skilldeck", "1.2.3").unwrap();
        let digest = digest_of([(std::path::Path::new("SKILL.md"), stamped.text().as_bytes())]);
        stamped.seal(&digest)
    }

    #[test]
    fn the_upstream_text_comes_back_exactly() {
        for original in [
            "---\nname: a\ndescription: b\n---\n# A\n",
            "---\r\nname: a\r\ndescription: b\r\n---\r\nbody\r\n",
            "---\nname: a\nmetadata:\n  author: \"x\"\ndescription: b\n---\n",
            "---\nname: a\ndescription: b\nmetadata:\n  author: \"x\"\n  version: \"2\"\n---\n\nbody\n",
            "---\nname: a\nmetadata:\ndescription: b\n---\n",
            "---\nname: a\ndescription: |\n  installed-by: nobody\n---\n",
        ] {
            let written = stamped(original);
            assert_ne!(written, original);
            assert_eq!(unstamp(&written).as_deref(), Some(original), "{original:?}");
        }
    }

    #[test]
    fn metadata_in_another_form_comes_back_as_the_stamp_wrote_it() {
        let written = stamped("---\nname: a\nmetadata:\n  author: x\ndescription: b\n---\n");
        let back = unstamp(&written).unwrap();
        assert_eq!(
            back,
            "---\nname: a\nmetadata:\n  author: \"x\"\ndescription: b\n---\n"
        );
        assert_eq!(stamped(&back), written);
    }

    #[test]
    fn a_text_without_a_record_has_nothing_to_take_out() {
        assert_eq!(unstamp("---\nname: a\ndescription: b\n---\n"), None);
        assert_eq!(unstamp("no frontmatter"), None);
        // A record written by hand in another shape does not stamp back: left as it is.
        let by_hand = "---\nname: a\nmetadata:\n  installed-by: \"skilldeck\"\n  installed-version: \"1.2.3\"\n  content-digest: \"\"\n  author: \"x\"\n---\n";
        assert_eq!(unstamp(by_hand), None);
    }
}
