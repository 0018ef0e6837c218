//! What must hold for any bytes read as a `SKILL.md` by the strict record parser: no panic;
//! and every value it reads is one the record writer writes back to the same value, so the
//! two halves of the record format agree on everything the parser can return.

use std::path::Path;

use skilldeck_core::record::{self, digest_of, stamp};

pub fn check(data: &[u8]) {
    let Some(found) = record::parse(data) else {
        return;
    };
    let manifest = "---\nname: demo\n---\n";
    let Ok(stamped) = stamp(manifest, &found.installed_by, &found.installed_version) else {
        // The writer may refuse a value it cannot keep (stamp proves its result); it must
        // never write one that reads back otherwise.
        return;
    };
    let sealed = stamped.seal(&digest_of([(Path::new("SKILL.md"), &b""[..])]));
    let again = record::parse(sealed.as_bytes()).expect("a written record reads back");
    assert_eq!(again.installed_by, found.installed_by);
    assert_eq!(again.installed_version, found.installed_version);
}
