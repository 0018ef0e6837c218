//! Whether one path lies in another, answered from their bytes where that is exact.
//!
//! [`Path::starts_with`] and [`Path::strip_prefix`] parse both paths into components on every
//! call. A scan asks it of every skill against every source root and every installer's folder
//! (20,000 skills, dozens of folders), where the parse was a measured share of a listing's
//! time. A path whose components are exactly its `/`-separated parts ([`plain`]) lies in
//! another such path exactly when its bytes start with the other's and go on with a `/` or end
//! there; any other path (and every path on Windows, whose prefixes compare by other rules)
//! still goes through `Path`.

use std::path::Path;

/// A path's bytes when its components are exactly its `/`-separated parts: not empty, no
/// `//`, no `.` part but a leading one, no `/` at the end.
pub fn plain(path: &Path) -> Option<&[u8]> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let bytes = path.as_os_str().as_bytes();
        let plain = !bytes.is_empty()
            && !bytes.ends_with(b"/")
            && !bytes.ends_with(b"/.")
            && !bytes.windows(2).any(|pair| pair == b"//")
            && !bytes.windows(3).any(|three| three == b"/./");
        plain.then_some(bytes)
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        None
    }
}

/// Whether the plain path `inner` lies in the plain path `folder` (or is it).
pub fn plain_in(inner: &[u8], folder: &[u8]) -> bool {
    inner.starts_with(folder) && (inner.len() == folder.len() || inner[folder.len()] == b'/')
}

/// [`Path::strip_prefix`]: what of `path` lies below `folder`, when it lies in it.
pub fn below<'a>(path: &'a Path, folder: &Path) -> Option<&'a Path> {
    #[cfg(unix)]
    if let (Some(inner), Some(outer)) = (plain(path), plain(folder)) {
        use std::os::unix::ffi::OsStrExt;
        if !plain_in(inner, outer) {
            return None;
        }
        let rest = inner[outer.len()..].strip_prefix(b"/").unwrap_or_default();
        return Some(Path::new(std::ffi::OsStr::from_bytes(rest)));
    }
    path.strip_prefix(folder).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Paths of every shape a scan meets, and shapes it never makes.
    const PATHS: [&str; 22] = [
        "/", "/a", "/a/", "/a/b", "/a/b/", "/a//b", "/a/./b", "/a/.", "/a/..", "/a/../b", "/ab",
        "/ab/c", "/a/b/c", "/a/bc", "a", "a/b", "./a", "./a/b", "", ".", "/a/b/c/", "//a/b",
    ];

    #[test]
    fn below_says_what_strip_prefix_says() {
        for path in PATHS {
            for folder in PATHS {
                let (path, folder) = (Path::new(path), Path::new(folder));
                assert_eq!(
                    below(path, folder),
                    path.strip_prefix(folder).ok(),
                    "{} below {}",
                    path.display(),
                    folder.display()
                );
            }
        }
    }

    #[test]
    fn only_paths_made_of_their_parts_are_plain() {
        let plain_ones: Vec<&str> = PATHS
            .into_iter()
            .filter(|path| plain(Path::new(path)).is_some())
            .collect();
        if cfg!(unix) {
            assert_eq!(
                plain_ones,
                [
                    "/a", "/a/b", "/a/..", "/a/../b", "/ab", "/ab/c", "/a/b/c", "/a/bc", "a",
                    "a/b", "./a", "./a/b", "."
                ]
            );
        } else {
            assert!(plain_ones.is_empty());
        }
    }
}
