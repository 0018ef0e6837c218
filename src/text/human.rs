//! Sizes and ages written for people: `1.2 KiB`, `3 h ago`.

use std::time::Duration;

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

#[cfg(test)]
mod tests {
    use super::*;

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
