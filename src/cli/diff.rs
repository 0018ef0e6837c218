//! `skilldeck diff`: what changed in a skill since a snapshot, or from one snapshot to a later
//! one (`--to`), as a unified diff — coloured on a terminal, plain when piped or when
//! `NO_COLOR` is set.

use std::fmt::Write as _;
use std::io::Write as _;

use anstyle::{AnsiColor, Effects, Style};

use crate::roots::Machine;
use crate::snapshot::Store;
use crate::snapshot::diff::{self, LineKind, Row};
use crate::text::escape;

use super::{Failure, Outcome, target};
use crate::text::{Unsafe, human};

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    of: target::SnapshotOf,

    /// Compare with this snapshot, by id or the start of one, instead of the files now
    #[arg(long, value_name = "ID", requires = "snapshot")]
    to: Option<String>,
}

pub fn run(args: &Args, machine: &Machine) -> Result<Outcome, Failure> {
    let store = Store::open(&machine.env);
    let (dir, snapshot) = args.of.resolve(machine, &store)?;
    let home = machine.env.home();
    let taken_at = humantime::format_rfc3339_seconds(snapshot.info.taken_at);
    let old = format!("snapshot {} ({taken_at})", snapshot.id);
    let (diff, new) = match &args.to {
        Some(to) => {
            let later = store.find(&dir, Some(to))?;
            let diff = diff::between_snapshots(&snapshot, &later, &dir)?;
            let taken_at = humantime::format_rfc3339_seconds(later.info.taken_at);
            (diff, format!("snapshot {} ({taken_at})", later.id))
        }
        None => (
            diff::diff(&snapshot, &dir)?,
            format!("{} now", human::path(&dir, home, Unsafe::Escaped)),
        ),
    };
    if diff.is_empty() {
        let mut text = match &args.to {
            Some(_) => format!("{new} holds what {old} holds.\n"),
            None => format!(
                "{} matches {old}.\n",
                human::path(&dir, home, Unsafe::Escaped)
            ),
        };
        // Said even when nothing else changed: check may see these where diff cannot.
        for row in diff::rows(&diff) {
            text.push_str(&row.text());
            text.push('\n');
        }
        super::print(&text)?;
        return Ok(Outcome::Done);
    }
    let (added, removed) = diff.counts();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{}{old} -> {new}: {} changed, +{added} -{removed}{}",
        HEADER.render(),
        human::count(diff.files.len(), "file"),
        HEADER.render_reset()
    );
    for row in diff::rows(&diff) {
        paint(&mut out, &row);
        out.push('\n');
    }
    let mut stdout = anstream::stdout().lock();
    stdout
        .write_all(out.as_bytes())
        .and_then(|()| stdout.flush())
        .map_err(Failure::Output)?;
    Ok(Outcome::Negative)
}

const HEADER: Style = Style::new().effects(Effects::BOLD);
const NOTE: Style = Style::new().fg_color(Some(anstyle::Color::Ansi(AnsiColor::Yellow)));
const SUMMARY: Style = Style::new().fg_color(Some(anstyle::Color::Ansi(AnsiColor::Cyan)));
const HUNK: Style = SUMMARY;
const REMOVED: Style = Style::new().fg_color(Some(anstyle::Color::Ansi(AnsiColor::Red)));
const ADDED: Style = Style::new().fg_color(Some(anstyle::Color::Ansi(AnsiColor::Green)));
const FAINT: Style = Style::new().effects(Effects::DIMMED);

/// One row with its style; the changed words of a changed line stand out in reverse video.
/// Every piece of text from disk is escaped before the styles go round it, so a line that
/// moves the cursor or erases shows those sequences instead of hiding another line.
fn paint(out: &mut String, row: &Row<'_>) {
    let style = match row {
        Row::Note(_) => NOTE,
        Row::OldFile(_) | Row::NewFile(_) => HEADER,
        Row::Summary(_) => SUMMARY,
        Row::Hunk(_) => HUNK,
        Row::NoNewline => FAINT,
        Row::Line(line) => match line.kind {
            LineKind::Context => Style::new(),
            LineKind::Removed => REMOVED,
            LineKind::Added => ADDED,
        },
    };
    let Row::Line(line) = row else {
        let _ = write!(
            out,
            "{}{}{}",
            style.render(),
            escape::line(&row.text()),
            style.render_reset()
        );
        return;
    };
    let strong = style.effects(Effects::INVERT);
    let _ = write!(out, "{}{}", style.render(), line.kind.sign());
    let mut at = 0;
    for range in &line.changed {
        let _ = write!(
            out,
            "{}{}{}{}{}",
            escape::line(&line.text[at..range.start]),
            strong.render(),
            escape::line(&line.text[range.clone()]),
            strong.render_reset(),
            style.render()
        );
        at = range.end;
    }
    let _ = write!(
        out,
        "{}{}",
        escape::line(&line.text[at..]),
        style.render_reset()
    );
}
