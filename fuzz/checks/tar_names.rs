//! The structure-aware check: an archive built by our own header writer from the fuzzer's
//! bytes ([`tar_writer`]), read by skilldeck; when it is accepted, the independent reader
//! ([`super::tar_oracle`]) and the tar crate must list exactly the files skilldeck installs.

use arbitrary::Unstructured;

use super::{bundle, tar_writer};

/// Build an archive from `data` and check skilldeck's reading of it. Whether it was accepted.
pub fn check(data: &[u8]) -> bool {
    let mut u = Unstructured::new(data);
    let Ok(built) = tar_writer::build(&mut u) else {
        return false;
    };
    bundle::check_one(&built.bytes(), &bundle::limits()).is_some()
}
