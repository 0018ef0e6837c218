//! A progress bar with its label beside it, never over it: a label drawn inside the bar splits
//! it where the label is ("███54% ██"), and reads as two bars.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::Span;

use crate::text::width;

/// The blocks that fill a cell by eighths, from one eighth to seven.
const EIGHTHS: [char; 7] = ['▏', '▎', '▍', '▌', '▋', '▊', '▉'];

/// `ratio` of a bar across `area`, then a space and `label` at its right end.
pub fn draw(frame: &mut Frame, area: Rect, ratio: f64, label: &str, style: Style) {
    let label_width = u16::try_from(width::of(label) + 1).unwrap_or(u16::MAX);
    let [bar, text] =
        Layout::horizontal([Constraint::Fill(1), Constraint::Length(label_width)]).areas(area);
    frame.render_widget(
        Span::styled(blocks(ratio, usize::from(bar.width)), style),
        bar,
    );
    frame.render_widget(Span::raw(format!(" {label}")), text);
}

/// `ratio` of `columns` as whole blocks then the eighth block of what is left: one piece.
/// (ratatui's `Gauge` blanks the cell where its label goes even with an empty label.)
fn blocks(ratio: f64, columns: usize) -> String {
    let eighths = (ratio.clamp(0.0, 1.0) * (columns * 8) as f64).floor() as usize;
    let mut bar = "█".repeat(eighths / 8);
    if let Some(&part) = (eighths % 8).checked_sub(1).and_then(|i| EIGHTHS.get(i)) {
        bar.push(part);
    }
    bar
}

/// `done` of `total` as a whole percentage, for a label: `54%`.
pub fn percent(done: usize, total: usize) -> String {
    if total == 0 {
        return "0%".to_owned();
    }
    format!("{}%", done * 100 / total)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;

    #[test]
    fn the_label_is_beside_the_bar_which_stays_whole() {
        for (ratio, columns) in [(0.54, 20), (0.6, 80), (0.5, 31), (1.0, 60), (0.0, 40)] {
            let mut terminal = Terminal::new(TestBackend::new(columns, 1)).unwrap();
            terminal
                .draw(|frame| draw(frame, frame.area(), ratio, "54%", Style::new()))
                .unwrap();
            let row: String = terminal
                .backend()
                .buffer()
                .content()
                .iter()
                .map(|cell| cell.symbol())
                .collect();
            assert!(row.ends_with(" 54%"), "{row:?}");
            let bar = row.trim_end_matches(" 54%").trim_end();
            // The filled part is one piece: no blank inside it.
            assert!(!bar.contains(' '), "{ratio} at {columns}: {row:?}");
            let full = bar.chars().filter(|&c| c == '█').count();
            let room = f64::from(columns - 4);
            assert_eq!(full, (ratio * room).floor() as usize, "{row:?}");
        }
        assert_eq!(percent(27, 50), "54%");
        assert_eq!(percent(0, 0), "0%");
    }
}
