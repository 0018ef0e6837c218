//! What must hold for any bytes found as Codex's `config.toml` when skilldeck turns a skill off
//! and on again there: the editor never panics; it refuses, or its result keeps a byte-order
//! mark exactly when the file had one, ends with a newline exactly when the file did, gives
//! every line it adds the file's line ending, and keeps every line of the file byte for byte
//! but the ones it was asked to change — so turning the skill on again gives the file back,
//! byte for byte, whenever toml_edit writes the file's own lines back as they were.

use std::path::Path;

use skilldeck_core::operations::switch::{Turn, codex_config_edit};
use skilldeck_core::settings::edit_text;

/// A skill no input names, so the only entry the edits touch is the one they add.
const SKILL_MD: &str = "/fuzz/\u{1f980}/SKILL.md";
const NAME: &str = "\u{1f980}-fuzz";

pub fn check(data: &[u8]) {
    let file = Path::new("config.toml");
    let edit = |bytes: &[u8], turn| {
        edit_text(file, bytes, |text| {
            codex_config_edit(text, Path::new(SKILL_MD), NAME, turn)
        })
    };
    let Ok(Some(off)) = edit(data, Turn::Off) else {
        return;
    };
    let bom = b"\xef\xbb\xbf";
    assert_eq!(off.starts_with(bom), data.starts_with(bom), "the mark");
    if !data.is_empty() && data != bom {
        assert_eq!(off.ends_with(b"\n"), data.ends_with(b"\n"), "the last line");
    }
    let text = std::str::from_utf8(data).expect("an edited file was text");
    if text.contains("\u{1f980}") {
        // The input names the skill: its own entries are the edit's to change.
        return;
    }
    // Turning a skill off only adds lines: every line ending it adds is the file's own.
    let count =
        |bytes: &[u8], what: &[u8]| bytes.windows(what.len()).filter(|w| *w == what).count();
    let (crlf, newlines) = (count(data, b"\r\n"), count(data, b"\n"));
    let (more_crlf, more_newlines) = (count(&off, b"\r\n") - crlf, count(&off, b"\n") - newlines);
    if crlf > newlines - crlf {
        assert_eq!(more_crlf, more_newlines, "new lines take the file's CRLF");
    } else {
        assert_eq!(more_crlf, 0, "new lines take the file's LF");
    }
    // toml_edit writes a few things otherwise than they were written (space inside a dotted
    // table header, `[a .b]`), in every line it writes back: beyond what the layout keeps.
    let body = text.strip_prefix('\u{feff}').unwrap_or(text);
    let rendered = skilldeck_core::settings::toml::parse(file, body)
        .expect("an edited file parsed")
        .to_string();
    if rendered.trim_end_matches('\n') != body.replace("\r\n", "\n").trim_end_matches('\n') {
        return;
    }
    let on = edit(&off, Turn::On).expect("turning on what was just turned off");
    assert_eq!(
        on.as_deref(),
        Some(data),
        "turning the skill on again did not give the file back"
    );
}
