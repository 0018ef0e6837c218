//! A reader that fails, rather than stops, once a source has given more than it may: a
//! decompression bomb is refused, never silently cut short and kept (`Read::take` would
//! truncate). The error is recognisable, so a reader can tell the bound from a corrupt stream.

use std::io::{self, Read};

/// Wraps `inner`, allowing at most `left` more bytes.
pub struct Bounded<R> {
    inner: R,
    left: u64,
}

impl<R: Read> Bounded<R> {
    pub fn new(inner: R, left: u64) -> Self {
        Self { inner, left }
    }
}

impl<R: Read> Read for Bounded<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        // Ask for one byte more than allowed: getting it proves the source is too large.
        let wanted = usize::try_from(self.left.saturating_add(1))
            .unwrap_or(usize::MAX)
            .min(buf.len());
        let read = self.inner.read(&mut buf[..wanted])?;
        if read as u64 > self.left {
            return Err(io::Error::other(PastTheBound));
        }
        self.left -= read as u64;
        Ok(read)
    }
}

/// The error a [`Bounded`] reader gives past its bound.
#[derive(Debug, thiserror::Error)]
#[error("the stream is larger than it may be")]
pub struct PastTheBound;

/// Whether `error` is a [`Bounded`] reader's bound being passed.
pub fn is_past_the_bound(error: &io::Error) -> bool {
    error
        .get_ref()
        .is_some_and(|inner| inner.is::<PastTheBound>())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_source_within_the_bound_reads_whole() {
        let mut out = Vec::new();
        Bounded::new(&b"12345"[..], 5)
            .read_to_end(&mut out)
            .unwrap();
        assert_eq!(out, b"12345");
    }

    #[test]
    fn a_source_past_the_bound_fails_instead_of_stopping() {
        let mut out = Vec::new();
        let error = Bounded::new(&b"123456"[..], 5)
            .read_to_end(&mut out)
            .unwrap_err();
        assert!(is_past_the_bound(&error));
        assert!(!is_past_the_bound(&io::Error::other("other")));
    }
}
