use super::*;

fn text(s: &str) -> File {
    File::new(s.as_bytes().to_vec(), false)
}

fn files(pairs: &[(&str, File)]) -> Files {
    pairs
        .iter()
        .map(|(path, file)| ((*path).to_owned(), file.clone()))
        .collect()
}

fn one(merge: &Merge, path: &str) -> Merged {
    merge.files.iter().find(|f| f.path == path).unwrap().clone()
}

const BASE: &str = "one\ntwo\nthree\nfour\nfive\nsix\nseven\n";

#[test]
fn a_file_neither_side_changed_is_unchanged() {
    let base = files(&[("a.md", text(BASE))]);
    let merge = merge(&base, &base, &base);
    assert_eq!(one(&merge, "a.md").summary, Summary::Unchanged);
    assert!(merge.is_clean() && !merge.changes_ours());
    assert_eq!(merge.result(|_| None).unwrap(), base);
}

#[test]
fn a_file_changed_upstream_only_takes_theirs() {
    let base = files(&[("a.md", text(BASE))]);
    let theirs = files(&[("a.md", text("new\n"))]);
    let merge = merge(&base, &base, &theirs);
    assert_eq!(one(&merge, "a.md").summary, Summary::TookTheirs);
    assert_eq!(merge.result(|_| None).unwrap(), theirs);
    assert!(merge.changes_ours());
}

#[test]
fn a_file_changed_locally_only_keeps_ours() {
    let base = files(&[("a.md", text(BASE))]);
    let ours = files(&[("a.md", text("mine\n"))]);
    let merge = merge(&base, &ours, &base);
    assert_eq!(one(&merge, "a.md").summary, Summary::KeptOurs);
    assert_eq!(merge.result(|_| None).unwrap(), ours);
    assert!(!merge.changes_ours());
}

#[test]
fn a_change_made_alike_on_both_sides_is_clean() {
    let base = files(&[("a.md", text(BASE))]);
    let both = files(&[("a.md", text("same\n"))]);
    let merge = merge(&base, &both, &both);
    assert_eq!(one(&merge, "a.md").summary, Summary::Merged);
    assert_eq!(merge.result(|_| None).unwrap(), both);
}

#[test]
fn text_changed_on_both_sides_in_lines_apart_merges() {
    let base = files(&[("a.md", text(BASE))]);
    let ours = files(&[("a.md", text(&BASE.replace("one", "ONE")))]);
    let theirs = files(&[("a.md", text(&BASE.replace("seven", "SEVEN")))]);
    let merge = merge(&base, &ours, &theirs);
    assert_eq!(one(&merge, "a.md").summary, Summary::Merged);
    let result = merge.result(|_| None).unwrap();
    assert_eq!(
        result["a.md"].bytes,
        BASE.replace("one", "ONE")
            .replace("seven", "SEVEN")
            .into_bytes()
    );
}

#[test]
fn overlapping_text_changes_conflict_and_keep_every_side() {
    let base = files(&[("a.md", text(BASE))]);
    let ours = files(&[("a.md", text(&BASE.replace("four", "ours")))]);
    let theirs = files(&[("a.md", text(&BASE.replace("four", "theirs")))]);
    let merge = merge(&base, &ours, &theirs);
    let merged = one(&merge, "a.md");
    assert_eq!(merged.summary, Summary::Conflict);
    let conflict = merged.conflict.unwrap();
    assert_eq!(conflict.clash, Clash::Overlapping);
    assert_eq!(conflict.base.as_ref(), base.get("a.md"));
    assert_eq!(conflict.ours.as_ref(), ours.get("a.md"));
    assert_eq!(conflict.theirs.as_ref(), theirs.get("a.md"));
    assert_eq!(merge.result(|_| None).unwrap_err(), vec!["a.md".to_owned()]);
    let take = |how| merge.result(move |_| Some(how)).unwrap();
    assert_eq!(take(Resolution::Theirs), theirs);
    assert_eq!(take(Resolution::Ours), ours);
    let both = String::from_utf8(take(Resolution::Both)["a.md"].bytes.clone()).unwrap();
    assert!(both.contains("<<<<<<<") && both.contains("ours\n") && both.contains("theirs\n"));
    assert!(both.starts_with("one\ntwo\nthree\n") && both.ends_with("five\nsix\nseven\n"));
}

#[test]
fn an_upstream_deletion_of_a_locally_edited_file_conflicts() {
    let base = files(&[("a.md", text(BASE)), ("b.md", text("b\n"))]);
    let ours = files(&[("a.md", text("edited\n")), ("b.md", text("b\n"))]);
    let theirs = files(&[("b.md", text("b\n"))]);
    let merge = merge(&base, &ours, &theirs);
    let conflict = one(&merge, "a.md").conflict.unwrap();
    assert_eq!(conflict.clash, Clash::DeletedUpstream);
    assert!(
        !merge
            .result(|_| Some(Resolution::Theirs))
            .unwrap()
            .contains_key("a.md")
    );
    assert_eq!(merge.result(|_| Some(Resolution::Ours)).unwrap(), ours);
    assert_eq!(merge.result(|_| Some(Resolution::Both)).unwrap(), ours);
}

#[test]
fn an_upstream_deletion_of_an_unedited_file_deletes_it() {
    let base = files(&[("a.md", text(BASE)), ("b.md", text("b\n"))]);
    let theirs = files(&[("b.md", text("b\n"))]);
    let merge = merge(&base, &base, &theirs);
    assert_eq!(one(&merge, "a.md").summary, Summary::TookTheirs);
    assert_eq!(merge.result(|_| None).unwrap(), theirs);
}

#[test]
fn a_local_deletion_of_an_upstream_changed_file_conflicts() {
    let base = files(&[("a.md", text(BASE))]);
    let theirs = files(&[("a.md", text("upstream\n"))]);
    let merge = merge(&base, &Files::new(), &theirs);
    assert_eq!(
        one(&merge, "a.md").conflict.unwrap().clash,
        Clash::DeletedLocally
    );
    assert_eq!(merge.result(|_| Some(Resolution::Both)).unwrap(), theirs);
    assert!(merge.result(|_| Some(Resolution::Ours)).unwrap().is_empty());
}

#[test]
fn a_local_deletion_of_a_file_upstream_left_alone_stays_deleted() {
    let base = files(&[("a.md", text(BASE))]);
    let merge = merge(&base, &Files::new(), &base);
    assert_eq!(one(&merge, "a.md").summary, Summary::KeptOurs);
    assert!(merge.result(|_| None).unwrap().is_empty());
}

#[test]
fn an_upstream_added_file_is_taken() {
    let base = files(&[("a.md", text(BASE))]);
    let theirs = files(&[("a.md", text(BASE)), ("new.md", text("new\n"))]);
    let merge = merge(&base, &base, &theirs);
    assert_eq!(one(&merge, "new.md").summary, Summary::TookTheirs);
    assert_eq!(merge.result(|_| None).unwrap(), theirs);
}

#[test]
fn a_file_added_on_both_sides_differently_conflicts() {
    let base = Files::new();
    let ours = files(&[("n.md", text("mine\n"))]);
    let theirs = files(&[("n.md", text("theirs\n"))]);
    let merge = merge(&base, &ours, &theirs);
    assert_eq!(
        one(&merge, "n.md").conflict.unwrap().clash,
        Clash::AddedOnBoth
    );
    let both = merge.result(|_| Some(Resolution::Both)).unwrap();
    let both = String::from_utf8(both["n.md"].bytes.clone()).unwrap();
    assert!(both.contains("mine\n") && both.contains("theirs\n"));
    // Added alike on both: clean.
    let merge = super::merge(&base, &ours, &ours);
    assert!(merge.is_clean());
}

#[test]
fn binary_files_changed_on_both_sides_conflict_and_cannot_keep_both() {
    let bin = |b: &[u8]| File::new(b.to_vec(), false);
    let base = files(&[("i.png", bin(b"\x89PNG\0base"))]);
    let ours = files(&[("i.png", bin(b"\x89PNG\0ours"))]);
    let theirs = files(&[("i.png", bin(b"\x89PNG\0theirs"))]);
    let merge = merge(&base, &ours, &theirs);
    assert_eq!(one(&merge, "i.png").conflict.unwrap().clash, Clash::Binary);
    assert!(merge.result(|_| Some(Resolution::Both)).is_err());
    assert_eq!(merge.result(|_| Some(Resolution::Theirs)).unwrap(), theirs);
    // Text that is not UTF-8 is binary too.
    let latin = |b: &[u8]| File::new(b.to_vec(), false);
    let base = files(&[("l.txt", latin(b"caf\xe9\n1\n2\n3\n"))]);
    let ours = files(&[("l.txt", latin(b"caf\xe9\n1\n2\nX\n"))]);
    let theirs = files(&[("l.txt", latin(b"Caf\xe9\n1\n2\n3\n"))]);
    let merge = super::merge(&base, &ours, &theirs);
    assert_eq!(one(&merge, "l.txt").conflict.unwrap().clash, Clash::Binary);
}

#[test]
fn a_binary_file_changed_on_one_side_is_clean() {
    let bin = |b: &[u8]| File::new(b.to_vec(), false);
    let base = files(&[("i.png", bin(b"\0base"))]);
    let theirs = files(&[("i.png", bin(b"\0theirs"))]);
    let merge = merge(&base, &base, &theirs);
    assert_eq!(one(&merge, "i.png").summary, Summary::TookTheirs);
    let merge = super::merge(&base, &theirs, &base);
    assert_eq!(one(&merge, "i.png").summary, Summary::KeptOurs);
}

#[test]
fn the_executable_bit_merges_on_its_own() {
    let base = files(&[("run.sh", text(BASE))]);
    let mut ours = base.clone();
    ours.get_mut("run.sh").unwrap().executable = true;
    let theirs = files(&[("run.sh", text(&BASE.replace("seven", "SEVEN")))]);
    let merge = merge(&base, &ours, &theirs);
    let result = merge.result(|_| None).unwrap();
    assert!(result["run.sh"].executable);
    assert_eq!(result["run.sh"].bytes, theirs["run.sh"].bytes);
    assert_eq!(one(&merge, "run.sh").summary, Summary::Merged);
}

#[test]
fn a_file_where_the_other_side_has_a_folder_is_a_conflict_on_every_path_of_the_clash() {
    let guide = text(BASE);
    // (case, base, ours, theirs, the paths that must conflict)
    let cases: [(&str, Files, Files, Files, &[&str]); 4] = [
        (
            "upstream made a folder a file; a file was added here inside it",
            files(&[("docs/guide.md", guide.clone())]),
            files(&[
                ("docs/guide.md", guide.clone()),
                ("docs/mine.md", text("mine")),
            ]),
            files(&[("docs", text("now a file"))]),
            &["docs", "docs/mine.md"],
        ),
        (
            "upstream made a folder a file; the file inside was edited here",
            files(&[("docs/guide.md", guide.clone())]),
            files(&[("docs/guide.md", text("edited"))]),
            files(&[("docs", text("now a file"))]),
            &["docs", "docs/guide.md"],
        ),
        (
            "upstream made a file a folder; the file was edited here",
            files(&[("notes", guide.clone())]),
            files(&[("notes", text("edited"))]),
            files(&[("notes/a.md", text("a"))]),
            &["notes", "notes/a.md"],
        ),
        (
            "a file made a folder here, and changed upstream, deeper",
            files(&[("a/b", guide.clone())]),
            files(&[("a/b/c.md", text("mine"))]),
            files(&[("a/b", text("changed"))]),
            &["a/b", "a/b/c.md"],
        ),
    ];
    for (case, base, ours, theirs, clashing) in cases {
        let merge = merge(&base, &ours, &theirs);
        let conflicted: Vec<&str> = merge.conflicts().map(|f| f.path.as_str()).collect();
        assert_eq!(conflicted, clashing, "{case}");
        // Unsettled, nothing is a result; every side kept, the clash is still no result.
        assert!(merge.result(|_| None).is_err(), "{case}");
        let all_theirs = merge.result(|_| Some(Resolution::Theirs));
        assert_eq!(all_theirs.as_ref().ok(), Some(&theirs), "{case}");
        assert!(merge.result(|_| Some(Resolution::Ours)).is_ok(), "{case}");
        // One side of the clash ours and the other theirs: a file and a folder at once.
        for (first, rest) in [
            (Resolution::Ours, Resolution::Theirs),
            (Resolution::Theirs, Resolution::Ours),
        ] {
            let mixed = merge.result(|path| Some(if path == clashing[0] { first } else { rest }));
            let file_at_top = match first {
                Resolution::Ours => ours.contains_key(clashing[0]),
                _ => theirs.contains_key(clashing[0]),
            };
            let below = match rest {
                Resolution::Ours => ours.contains_key(clashing[1]),
                _ => theirs.contains_key(clashing[1]),
            };
            if file_at_top && below {
                assert_eq!(mixed.unwrap_err(), clashing, "{case}");
            } else {
                assert!(mixed.is_ok(), "{case}");
            }
        }
    }
}
