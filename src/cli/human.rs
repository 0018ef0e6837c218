//! How the command line writes for people: paths under the home directory as `~/...`, and
//! columns padded to their widest cell.

use std::fmt::Write as _;
use std::path::Path;

/// `path` with the home directory written `~`.
pub fn tilde(path: &Path, home: &Path) -> String {
    match path.strip_prefix(home) {
        Ok(rest) if rest.as_os_str().is_empty() => "~".to_owned(),
        Ok(rest) => format!("~/{}", rest.display()),
        Err(_) => path.display().to_string(),
    }
}

/// `n` things, singular or plural.
pub fn count(n: usize, thing: &str) -> String {
    if n == 1 {
        format!("1 {thing}")
    } else {
        format!("{n} {thing}s")
    }
}

/// Rows of cells as aligned columns; the last column is never padded.
pub fn table(header: &[&str], rows: &[Vec<String>]) -> String {
    let columns = header.len();
    let mut widths: Vec<usize> = header.iter().map(|h| h.chars().count()).collect();
    for row in rows {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.chars().count());
        }
    }
    let mut out = String::new();
    let header: Vec<String> = header.iter().map(|h| (*h).to_owned()).collect();
    for row in std::iter::once(&header).chain(rows) {
        let mut line = String::new();
        for (index, cell) in row.iter().enumerate() {
            if index + 1 == columns {
                line.push_str(cell);
            } else {
                let _ = write!(line, "{cell:<width$}  ", width = widths[index]);
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
        assert_eq!(
            tilde(Path::new("/home/me/.claude/skills"), home),
            "~/.claude/skills"
        );
        assert_eq!(tilde(Path::new("/home/me"), home), "~");
        assert_eq!(tilde(Path::new("/home/meme/x"), home), "/home/meme/x");
    }

    #[test]
    fn counts_are_singular_or_plural() {
        assert_eq!(count(1, "skill"), "1 skill");
        assert_eq!(count(0, "skill"), "0 skills");
        assert_eq!(count(2, "recorded skill"), "2 recorded skills");
    }

    #[test]
    fn columns_line_up() {
        let out = table(
            &["A", "BB", "C"],
            &[vec!["long".into(), "x".into(), "last".into()]],
        );
        assert_eq!(out, "A     BB  C\nlong  x   last\n");
    }
}
