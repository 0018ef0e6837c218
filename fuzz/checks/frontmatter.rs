//! What must hold for any `SKILL.md` text: reading its frontmatter, declared fields and lints
//! never panics (the YAML parser's budget bounds the work); and when skilldeck's record can be
//! stamped into it, the stamped text says what it said before plus the record, the strict
//! record parser reads the record back, and stamping again changes nothing.

use std::path::Path;

use serde_json::Value;
use skilldeck_core::record::{self, digest_of, stamp};
use skilldeck_core::skill::{Declared, Frontmatter};

pub fn check(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let before = Frontmatter::parse(text);
    let _ = Declared::read(text, "demo");
    let Ok(stamped) = stamp(text, "skilldeck", "1.2.3") else {
        return;
    };
    let before = before.expect("a stamped SKILL.md had frontmatter");
    let digest = digest_of([(Path::new("SKILL.md"), stamped.text().as_bytes())]);
    let sealed = stamped.seal(&digest);
    let record = record::parse(sealed.as_bytes()).expect("the strict parser reads the stamp");
    assert_eq!(record.installed_by, "skilldeck");
    assert_eq!(record.installed_version, "1.2.3");
    assert_eq!(record.content_digest, digest.as_str());
    let after = Frontmatter::parse(&sealed).expect("the stamped frontmatter reads");
    for (key, value) in &before.fields {
        if key != "metadata" {
            assert_eq!(after.fields.get(key), Some(value), "stamping changed {key}");
        }
    }
    let metadata = after.fields.get("metadata").and_then(Value::as_object);
    let metadata = metadata.expect("the stamped metadata is a map");
    if let Some(Value::Object(old)) = before.fields.get("metadata") {
        for (key, value) in old {
            if !record::RECORD_KEYS.contains(&key.as_str()) {
                assert_eq!(
                    metadata.get(key),
                    Some(value),
                    "stamping changed metadata {key}"
                );
            }
        }
    }
    let again = stamp(&sealed, "skilldeck", "1.2.3").expect("a stamped SKILL.md stamps again");
    assert_eq!(
        again.seal(&digest),
        sealed,
        "stamping twice differs from once"
    );
}
