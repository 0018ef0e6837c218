//! A ratatui buffer as an SVG picture: one rectangle per run of background colour, one text
//! element per glyph, cells sized to the shipped font's metrics so box drawing joins up.

use std::fmt::Write as _;

use ratatui::buffer::Buffer;
use ratatui::style::{Color, Modifier};
use skilldeck::text::width;

/// The font the picture is set in, as the rasteriser knows it.
pub const FONT_FAMILY: &str = "DejaVu Sans Mono";
const FONT_SIZE: f64 = 14.0;
/// DejaVu Sans Mono's advance (0.602 em) and line height (ascent 0.928 + descent 0.236 em).
const CELL_WIDTH: f64 = FONT_SIZE * 0.602;
const CELL_HEIGHT: f64 = FONT_SIZE * 1.164;
const BASELINE: f64 = FONT_SIZE * 0.928;
const MARGIN: f64 = 12.0;

const BACKGROUND: &str = "#1b1d23";
const FOREGROUND: &str = "#d4d7dd";

/// The terminal palette the picture is drawn with (a dark theme).
fn rgb(color: Color, default: &'static str) -> String {
    let named = match color {
        Color::Reset => default,
        Color::Black => "#1b1d23",
        Color::Red => "#e06c75",
        Color::Green => "#98c379",
        Color::Yellow => "#e5c07b",
        Color::Blue => "#61afef",
        Color::Magenta => "#c678dd",
        Color::Cyan => "#56b6c2",
        Color::Gray => "#abb2bf",
        Color::DarkGray => "#4b5263",
        Color::LightRed => "#f08c94",
        Color::LightGreen => "#b5e08f",
        Color::LightYellow => "#f2d59b",
        Color::LightBlue => "#8cc8f5",
        Color::LightMagenta => "#d99ae8",
        Color::LightCyan => "#7fd0da",
        Color::White => "#ffffff",
        Color::Rgb(r, g, b) => return format!("#{r:02x}{g:02x}{b:02x}"),
        Color::Indexed(_) => default,
    };
    named.to_owned()
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The whole buffer as an SVG document.
pub fn from_buffer(buffer: &Buffer) -> String {
    let area = buffer.area;
    let width = f64::from(area.width) * CELL_WIDTH + 2.0 * MARGIN;
    let height = f64::from(area.height) * CELL_HEIGHT + 2.0 * MARGIN;
    let mut svg = String::new();
    let _ = write!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.2} {height:.2}"><rect width="100%" height="100%" fill="{BACKGROUND}"/><g font-family="{FONT_FAMILY}" font-size="{FONT_SIZE}">"#
    );
    for y in area.top()..area.bottom() {
        let top = MARGIN + f64::from(y - area.top()) * CELL_HEIGHT;
        // Backgrounds first, a run of equal colour at a time, so no seams show between cells.
        let mut run: Option<(u16, u16, String)> = None;
        let flush = |run: &mut Option<(u16, u16, String)>, svg: &mut String| {
            if let Some((start, end, fill)) = run.take() {
                let x = MARGIN + f64::from(start - area.left()) * CELL_WIDTH;
                let w = f64::from(end - start) * CELL_WIDTH;
                let _ = write!(
                    svg,
                    r#"<rect x="{x:.2}" y="{top:.2}" width="{w:.2}" height="{CELL_HEIGHT:.2}" fill="{fill}" shape-rendering="crispEdges"/>"#
                );
            }
        };
        for x in area.left()..area.right() {
            let (_, bg) = colours(&buffer[(x, y)]);
            match &mut run {
                Some((_, end, fill)) if *fill == bg => *end = x + 1,
                _ => {
                    flush(&mut run, &mut svg);
                    if bg != BACKGROUND {
                        run = Some((x, x + 1, bg));
                    }
                }
            }
        }
        flush(&mut run, &mut svg);

        let mut skip = 0usize;
        for x in area.left()..area.right() {
            let cell = &buffer[(x, y)];
            if skip > 0 {
                skip -= 1;
                continue;
            }
            skip = cell
                .symbol()
                .chars()
                .map(width::of_char)
                .sum::<usize>()
                .saturating_sub(1);
            let symbol = cell.symbol();
            if symbol.trim().is_empty() {
                continue;
            }
            let (fg, _) = colours(cell);
            let left = MARGIN + f64::from(x - area.left()) * CELL_WIDTH;
            let mut attributes = format!(r#"x="{left:.2}" y="{:.2}" fill="{fg}""#, top + BASELINE);
            if cell.modifier.contains(Modifier::BOLD) {
                attributes.push_str(r#" font-weight="bold""#);
            }
            if cell.modifier.contains(Modifier::DIM) {
                attributes.push_str(r#" fill-opacity="0.6""#);
            }
            if cell.modifier.contains(Modifier::UNDERLINED) {
                attributes.push_str(r#" text-decoration="underline""#);
            }
            let _ = write!(svg, "<text {attributes}>{}</text>", escape(symbol));
        }
    }
    svg.push_str("</g></svg>\n");
    svg
}

/// A cell's foreground and background, the terminal's defaults filled in before reversing (a
/// reversed cell with default colours must still show).
fn colours(cell: &ratatui::buffer::Cell) -> (String, String) {
    let fg = rgb(cell.fg, FOREGROUND);
    let bg = rgb(cell.bg, BACKGROUND);
    if cell.modifier.contains(Modifier::REVERSED) {
        (bg, fg)
    } else {
        (fg, bg)
    }
}
