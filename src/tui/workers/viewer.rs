//! Reading one file of a skill for the viewer, on its own thread: the domain reads at most its
//! bound ([`crate::operations::peek`]), and the text is made safe to show here, so the UI
//! thread only draws lines.

use std::path::PathBuf;
use std::sync::mpsc::Sender;

use crate::operations::peek::{self, Content};
use crate::text::sanitize;
use crate::tui::msg::Msg;
use crate::tui::viewer::{Body, FileText};

pub use crate::tui::failed::ReadFailed;

use super::{guard, spawn};

/// Read `file` of the skill at `dir`; the answer comes as [`Msg::FileRead`] for `request`.
pub fn read(tx: Sender<Msg>, request: u64, dir: PathBuf, file: PathBuf) {
    spawn("skilldeck-viewer", tx, move |_| {
        let file = guard("Reading the file", || shown(&dir, &file))
            .unwrap_or_else(|stopped| Err(stopped.into()));
        Msg::FileRead { request, file }
    });
}

fn shown(dir: &std::path::Path, file: &std::path::Path) -> Result<FileText, ReadFailed> {
    let peek = peek::peek(dir, file)?;
    let body = match peek.content {
        Content::Binary => Body::Binary,
        Content::Text { text, cut } => Body::Text {
            lines: sanitize::lines(&text),
            cut,
        },
    };
    Ok(FileText {
        size: peek.size,
        body,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_never_reach_the_lines() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::write(tmp.path().join("a.sh"), "echo \u{1b}[2Jhi\n\u{7}bell\n").unwrap();
        let text = shown(tmp.path(), std::path::Path::new("a.sh")).unwrap();
        let Body::Text { lines, cut } = text.body else {
            panic!("not text: {text:?}");
        };
        assert!(!cut);
        for line in &lines {
            assert!(!line.chars().any(char::is_control), "{line:?}");
        }
    }
}
