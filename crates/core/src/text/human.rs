//! What both front ends write for people: paths under the home directory as `~/…`, counts,
//! sizes and ages (`3 skills`, `1.2 KiB`, `3 h ago`), and columns padded to their widest cell.

use std::path::Path;
use std::time::{Duration, SystemTime};

use super::{Unsafe, width};

/// `path` with the home directory written `~`, its unsafe characters treated as `unsafe_chars`
/// says: the app drops them, the command line (for now) keeps them.
pub fn path(path: &Path, home: &Path, unsafe_chars: Unsafe) -> String {
    let text = match path.strip_prefix(home) {
        Ok(rest) if rest.as_os_str().is_empty() => "~".to_owned(),
        Ok(rest) => format!("~/{}", rest.display()),
        Err(_) => path.display().to_string(),
    };
    unsafe_chars.apply(&text)
}

/// `n` things, singular or plural: the one place a count meets its noun ("1 file", "2 files",
/// "3 entries", "2 matches"), so no output says "1 files".
pub fn count(n: usize, thing: &str) -> String {
    if n == 1 {
        format!("1 {thing}")
    } else {
        format!("{n} {}", plural(thing))
    }
}

/// The English plural of a noun skilldeck counts (the last word of `thing` takes it):
/// `entry` → `entries`, `match` → `matches`, `skill` → `skills`.
pub fn plural(thing: &str) -> String {
    let consonant_y = thing.len() >= 2
        && thing.ends_with('y')
        && !thing[..thing.len() - 1].ends_with(['a', 'e', 'i', 'o', 'u']);
    if consonant_y {
        format!("{}ies", &thing[..thing.len() - 1])
    } else if ["s", "x", "z", "ch", "sh"]
        .iter()
        .any(|end| thing.ends_with(end))
    {
        format!("{thing}es")
    } else {
        format!("{thing}s")
    }
}

/// `bytes` for people: `812 B`, `1.2 KiB`, `3.4 MiB`.
pub fn size(bytes: u64) -> String {
    const UNITS: [&str; 4] = ["KiB", "MiB", "GiB", "TiB"];
    if bytes < 1024 {
        return format!("{bytes} B");
    }
    let mut value = bytes as f64 / 1024.0;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    format!("{value:.1} {}", UNITS[unit])
}

/// A time span for people: `just now`, `5 min ago`, `3 h ago`, `12 days ago`.
pub fn ago(span: Duration) -> String {
    let seconds = span.as_secs();
    match seconds {
        0..60 => "just now".to_owned(),
        60..3_600 => format!("{} min ago", seconds / 60),
        3_600..86_400 => format!("{} h ago", seconds / 3_600),
        86_400..172_800 => "yesterday".to_owned(),
        _ => format!("{} days ago", seconds / 86_400),
    }
}

/// When something happened, for people, as seen at `now`: how long ago within a week
/// (`5 min ago`, `yesterday`), else the day (`on 2026-11-02`, UTC); a time after `now` (a
/// clock set back) is its day too, unless it is less than a minute after: that is something
/// done since `now` was read (the app reads its clock once a frame), `just now`.
pub fn moment(at: SystemTime, now: SystemTime) -> String {
    const WEEK: Duration = Duration::from_secs(7 * 86_400);
    match now.duration_since(at) {
        Ok(span) if span < WEEK => ago(span),
        Err(ahead) if ahead.duration() < Duration::from_secs(60) => ago(Duration::ZERO),
        _ => {
            let stamp = humantime::format_rfc3339_seconds(at).to_string();
            format!("on {}", stamp.get(..10).unwrap_or(&stamp))
        }
    }
}

/// A time as a record holds it (RFC 3339, `2026-11-02T10:00:00.000Z`) said as [`moment`]
/// says it; one that does not read as RFC 3339 is given as it is, so nothing is hidden.
pub fn moment_of(stamp: &str, now: SystemTime) -> String {
    humantime::parse_rfc3339_weak(stamp).map_or_else(|_| stamp.to_owned(), |at| moment(at, now))
}

/// A length of time for people, in its largest whole unit: `30 days`, `12 h`, `5 min`, `40 s`.
pub fn span(span: Duration) -> String {
    let seconds = span.as_secs();
    match seconds {
        s if s >= 86_400 && s % 86_400 == 0 => count((s / 86_400) as usize, "day"),
        s if s >= 3_600 && s % 3_600 == 0 => format!("{} h", s / 3_600),
        s if s >= 60 && s % 60 == 0 => format!("{} min", s / 60),
        s => format!("{s} s"),
    }
}

/// Rows of cells as columns lined up in display columns (a CJK character takes two, a
/// combining mark none); the last column is never padded.
pub fn table(header: &[&str], rows: &[Vec<String>]) -> String {
    // Escaped before they are measured, so the columns line up as the terminal shows them.
    let rows: Vec<Vec<String>> = rows
        .iter()
        .map(|row| row.iter().map(|cell| super::escape::line(cell)).collect())
        .collect();
    let columns = header.len();
    let mut widths: Vec<usize> = header.iter().map(|h| width::of(h)).collect();
    for row in &rows {
        for (widest, cell) in widths.iter_mut().zip(row) {
            *widest = (*widest).max(width::of(cell));
        }
    }
    let mut out = String::new();
    let header: Vec<String> = header.iter().map(|h| (*h).to_owned()).collect();
    for row in std::iter::once(&header).chain(&rows) {
        let mut line = String::new();
        for (index, cell) in row.iter().enumerate() {
            if index + 1 == columns {
                line.push_str(cell);
            } else {
                line.push_str(&width::pad(cell, widths[index]));
                line.push_str("  ");
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_under_home_read_with_a_tilde() {
        let home = Path::new("/home/me");
        for unsafe_chars in [Unsafe::Dropped, Unsafe::Escaped] {
            assert_eq!(
                path(Path::new("/home/me/.claude/skills/x"), home, unsafe_chars),
                "~/.claude/skills/x"
            );
            assert_eq!(path(Path::new("/home/me"), home, unsafe_chars), "~");
            assert_eq!(
                path(Path::new("/home/meme/x"), home, unsafe_chars),
                "/home/meme/x"
            );
        }
    }

    #[test]
    fn a_path_drops_or_escapes_what_a_terminal_acts_on() {
        let home = Path::new("/home/me");
        let hostile = Path::new("/home/me/x\u{1b}[2Jy");
        assert_eq!(path(hostile, home, Unsafe::Dropped), "~/xy");
        assert_eq!(path(hostile, home, Unsafe::Escaped), "~/x\\u{1b}[2Jy");
        assert_eq!(
            path(Path::new("/etc/x\u{1b}[2Jy"), home, Unsafe::Dropped),
            "/etc/xy"
        );
    }

    #[test]
    fn spans_are_said_in_their_largest_whole_unit() {
        let cases = [
            (30 * 86_400, "30 days"),
            (86_400, "1 day"),
            (36 * 3_600, "36 h"),
            (90 * 60, "90 min"),
            (61, "61 s"),
            (0, "0 s"),
        ];
        for (seconds, want) in cases {
            assert_eq!(span(Duration::from_secs(seconds)), want);
        }
    }

    #[test]
    fn a_moment_is_how_long_ago_within_a_week_then_its_day() {
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_800_000_000);
        let before = |s: u64| now - Duration::from_secs(s);
        assert_eq!(moment(before(5 * 60), now), "5 min ago");
        assert_eq!(moment(before(3 * 3_600), now), "3 h ago");
        assert_eq!(moment(before(6 * 86_400), now), "6 days ago");
        assert_eq!(moment(before(8 * 86_400), now), "on 2027-01-07");
        assert_eq!(moment(now + Duration::from_secs(60), now), "on 2027-01-15");
        // Done since the clock was read, not a clock set back.
        assert_eq!(moment(now + Duration::from_millis(400), now), "just now");
        assert_eq!(moment(now + Duration::from_secs(59), now), "just now");
    }

    #[test]
    fn a_recorded_time_is_a_moment_or_kept_as_it_is() {
        let now = humantime::parse_rfc3339("2027-01-15T08:00:00Z").unwrap();
        assert_eq!(moment_of("2027-01-15T07:55:00.000Z", now), "5 min ago");
        assert_eq!(moment_of("2026-11-02T10:00:00Z", now), "on 2026-11-02");
        assert_eq!(moment_of("last tuesday", now), "last tuesday");
    }

    #[test]
    fn counts_are_singular_or_plural() {
        assert_eq!(count(1, "skill"), "1 skill");
        assert_eq!(count(0, "skill"), "0 skills");
        assert_eq!(count(2, "recorded skill"), "2 recorded skills");
        assert_eq!(count(1, "file"), "1 file");
        assert_eq!(count(3, "entry"), "3 entries");
        assert_eq!(count(2, "copy"), "2 copies");
        assert_eq!(count(2, "day"), "2 days");
        assert_eq!(count(2, "match"), "2 matches");
        assert_eq!(count(0, "root"), "0 roots");
    }

    #[test]
    fn columns_line_up() {
        let out = table(
            &["A", "BB", "C"],
            &[vec!["long".into(), "x".into(), "last".into()]],
        );
        assert_eq!(out, "A     BB  C\nlong  x   last\n");
    }

    #[test]
    fn columns_line_up_in_display_columns_with_wide_and_combining_characters() {
        let out = table(
            &["NAME", "AGENT", "DIR"],
            &[
                vec!["翻訳".into(), "claude".into(), "~/a".into()],
                vec!["cafe\u{301}-notes".into(), "漢".into(), "~/b".into()],
                vec!["plain".into(), "x".into(), "~/c".into()],
            ],
        );
        assert_eq!(
            out,
            "NAME        AGENT   DIR\n\
             翻訳        claude  ~/a\n\
             cafe\u{301}-notes  漢      ~/b\n\
             plain       x       ~/c\n"
        );
        // Every row's last column starts at the same display column.
        for line in out.lines() {
            let start = line.rfind("  ").map(|at| width::of(&line[..at + 2]));
            assert_eq!(start, Some(20), "{line:?}");
        }
    }

    #[test]
    fn sizes_and_ages_read_for_people() {
        assert_eq!(size(812), "812 B");
        assert_eq!(size(1024), "1.0 KiB");
        assert_eq!(size(1_258_291), "1.2 MiB");
        assert_eq!(ago(Duration::from_secs(30)), "just now");
        assert_eq!(ago(Duration::from_secs(5 * 60 + 3)), "5 min ago");
        assert_eq!(ago(Duration::from_secs(2 * 3_600 + 10)), "2 h ago");
        assert_eq!(ago(Duration::from_secs(86_400 + 5)), "yesterday");
        assert_eq!(ago(Duration::from_secs(12 * 86_400)), "12 days ago");
    }
}
