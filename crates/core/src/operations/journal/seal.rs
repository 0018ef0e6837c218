//! The journal's seal: every line skilldeck appends ends with an HMAC-SHA256 of the entry's
//! own bytes, under a key made once per installation and kept owner-only beside the journal.
//! `undo` acts only on entries whose seal verifies, so a journal written or edited by anything
//! that does not hold the key (a file planted by a sync, a backup, another program) cannot
//! make it delete, create or link anything.
//!
//! HMAC is written out here (RFC 2104, checked against RFC 4231's vectors below) on the SHA-256
//! the crate already uses, rather than through a crate of its own: it is a dozen lines.

use std::io::{self, Write as _};
use std::path::{Path, PathBuf};

use sha2::{Digest as _, Sha256};

use crate::fs::{Links, create_new, read_bounded, rename_no_replace, set_mode};
use crate::record::lower_hex;

/// The key's file, beside the journal.
pub const KEY_FILE: &str = "journal.key";

const KEY_BYTES: usize = 32;

/// What ends every sealed line: `,"mac":"` and 64 hex digits and `"}`.
const MAC_OPEN: &[u8] = b",\"mac\":\"";
const MAC_HEX: usize = 64;
const MAC_TAIL: usize = MAC_OPEN.len() + MAC_HEX + 2;

/// One installation's key.
pub struct Key([u8; KEY_BYTES]);

impl Key {
    /// The key in the folder `dir`, `None` when there is none (or it is not one: a link, a
    /// file of another size), so that nothing verifies.
    pub fn read(dir: &Path) -> Option<Self> {
        let bytes = read_bounded(&dir.join(KEY_FILE), Links::Refuse, KEY_BYTES as u64).ok()?;
        Some(Self(bytes.try_into().ok()?))
    }

    /// The key in `dir`, made when there is none: written whole to a private file of its
    /// own and renamed in without replacing, so two skilldecks at once agree on one key.
    ///
    /// # Errors
    /// When the key cannot be made, or what is there is not a key.
    pub fn read_or_make(dir: &Path) -> io::Result<Self> {
        if let Some(key) = Self::read(dir) {
            return Ok(key);
        }
        let mut bytes = [0u8; KEY_BYTES];
        getrandom::fill(&mut bytes).map_err(io::Error::other)?;
        let temp = dir.join(format!(".{KEY_FILE}.{}", lower_hex(&bytes[..8])));
        let mut file = create_new(&temp, 0o600)?;
        let written = set_mode(&file, 0o600)
            .and_then(|()| file.write_all(&bytes))
            .and_then(|()| file.sync_all());
        drop(file);
        let placed = written.and_then(|()| rename_no_replace(&temp, &dir.join(KEY_FILE)));
        let _ = std::fs::remove_file(&temp);
        match placed {
            Ok(()) => Ok(Self(bytes)),
            Err(error) if error.kind() == io::ErrorKind::AlreadyExists => {
                Self::read(dir).ok_or_else(|| not_a_key(dir))
            }
            Err(error) => Err(error),
        }
    }

    /// `entry` (one JSON object, no newline) with its seal: `,"mac":"…"` before its last `}`.
    pub fn seal(&self, entry: &[u8]) -> Vec<u8> {
        let mac = lower_hex(&hmac(&self.0, entry));
        let mut line = entry.to_vec();
        line.pop();
        line.extend_from_slice(MAC_OPEN);
        line.extend_from_slice(mac.as_bytes());
        line.extend_from_slice(b"\"}");
        line
    }

    /// Whether `line` ends with the seal of the rest of it under this key.
    pub fn verifies(&self, line: &[u8]) -> bool {
        let Some(split) = line.len().checked_sub(MAC_TAIL) else {
            return false;
        };
        let (body, tail) = line.split_at(split);
        if !tail.starts_with(MAC_OPEN) || !tail.ends_with(b"\"}") {
            return false;
        }
        let given = &tail[MAC_OPEN.len()..MAC_OPEN.len() + MAC_HEX];
        let mut signed = body.to_vec();
        signed.push(b'}');
        let expected = lower_hex(&hmac(&self.0, &signed));
        // Every byte compared, whatever the first difference: the time taken tells nothing.
        expected
            .as_bytes()
            .iter()
            .zip(given)
            .fold(0u8, |diff, (a, b)| diff | (a ^ b))
            == 0
    }
}

fn not_a_key(dir: &Path) -> io::Error {
    let path: PathBuf = dir.join(KEY_FILE);
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!(
            "{} is not a journal key ({KEY_BYTES} bytes in a file of its own)",
            path.display()
        ),
    )
}

/// HMAC-SHA256 (RFC 2104) of `message` under `key`, a key no longer than SHA-256's block.
fn hmac(key: &[u8], message: &[u8]) -> [u8; 32] {
    const BLOCK: usize = 64;
    let mut inner_pad = [0x36u8; BLOCK];
    let mut outer_pad = [0x5cu8; BLOCK];
    for (at, byte) in key.iter().take(BLOCK).enumerate() {
        inner_pad[at] ^= byte;
        outer_pad[at] ^= byte;
    }
    let inner = Sha256::new()
        .chain_update(inner_pad)
        .chain_update(message)
        .finalize();
    Sha256::new()
        .chain_update(outer_pad)
        .chain_update(inner)
        .finalize()
        .into()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(text: &str) -> Vec<u8> {
        (0..text.len())
            .step_by(2)
            .map(|at| u8::from_str_radix(&text[at..at + 2], 16).unwrap())
            .collect()
    }

    #[test]
    fn hmac_matches_rfc_4231() {
        // Test cases 1, 2 and 4 of RFC 4231 (keys up to a block long, as the journal's is).
        let cases: [(Vec<u8>, Vec<u8>, &str); 3] = [
            (
                vec![0x0b; 20],
                b"Hi There".to_vec(),
                "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7",
            ),
            (
                b"Jefe".to_vec(),
                b"what do ya want for nothing?".to_vec(),
                "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
            ),
            (
                hex("0102030405060708090a0b0c0d0e0f10111213141516171819"),
                vec![0xcd; 50],
                "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b",
            ),
        ];
        for (key, message, expected) in cases {
            assert_eq!(lower_hex(&hmac(&key, &message)), expected);
        }
    }

    #[test]
    fn a_sealed_line_verifies_and_any_change_to_it_does_not() {
        let tmp = tempfile::tempdir().unwrap();
        let key = Key::read_or_make(tmp.path()).unwrap();
        let line = key.seal(br#"{"at":"t","operation":"remove","changes":[]}"#);
        assert!(key.verifies(&line));
        let parsed: serde_json::Value = serde_json::from_slice(&line).unwrap();
        assert_eq!(parsed["mac"].as_str().unwrap().len(), MAC_HEX);
        for at in 0..line.len() {
            let mut changed = line.clone();
            changed[at] ^= 0x01;
            assert!(!key.verifies(&changed), "a change at byte {at} verified");
        }
        let other = Key([7; KEY_BYTES]);
        assert!(!other.verifies(&line));
        assert!(!key.verifies(b"{}"));
        assert!(!key.verifies(b""));
    }

    #[cfg(unix)]
    #[test]
    fn the_key_is_made_once_and_owner_only() {
        use std::os::unix::fs::PermissionsExt;
        let tmp = tempfile::tempdir().unwrap();
        let first = Key::read_or_make(tmp.path()).unwrap();
        let again = Key::read_or_make(tmp.path()).unwrap();
        assert_eq!(first.0, again.0);
        let mode = std::fs::metadata(tmp.path().join(KEY_FILE))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
        // Nothing but the key is left beside it.
        assert_eq!(std::fs::read_dir(tmp.path()).unwrap().count(), 1);
    }
}
