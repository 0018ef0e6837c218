//! The previous bytes of every settings file skilldeck edits, kept privately under its data
//! directory (`settings-backups/<id>`) so `undo` can put them back.

use std::fs;
use std::io::{self, Write as _};
use std::path::PathBuf;
use std::time::{SystemTime, UNIX_EPOCH};

use sha2::{Digest as _, Sha256};

use crate::record::lower_hex;
use crate::roots::Machine;

/// The folder of the backups, in the data directory.
pub const BACKUPS_DIR: &str = "settings-backups";

/// Only the user reads the backups: settings files may hold tokens.
const DIR_MODE: u32 = 0o700;
const FILE_MODE: u32 = 0o600;

fn dir(machine: &Machine) -> PathBuf {
    machine.data_dir().join(BACKUPS_DIR)
}

/// `sha256:` and the hex digest of `bytes`: what a settings change records a file left as,
/// and what names its backup.
pub(crate) fn sha256(bytes: &[u8]) -> String {
    format!("sha256:{}", lower_hex(&Sha256::digest(bytes)))
}

/// Keep `bytes`; the id they are kept under.
pub(crate) fn keep(machine: &Machine, bytes: &[u8]) -> io::Result<String> {
    let dir = dir(machine);
    crate::fs::dir_builder(DIR_MODE)
        .recursive(true)
        .create(&dir)?;
    crate::fs::set_path_mode(&dir, DIR_MODE)?;
    let millis = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis());
    let digest = sha256(bytes);
    let hex = digest.trim_start_matches("sha256:");
    for attempt in 0..1000u32 {
        let id = format!("{millis}-{}-{attempt}", &hex[..16]);
        let path = dir.join(&id);
        let mut out = match crate::fs::create_new(&path, FILE_MODE) {
            Ok(out) => out,
            Err(error) if error.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(error) => return Err(error),
        };
        let written = out.write_all(bytes).and_then(|()| out.sync_all());
        if let Err(error) = written {
            let _ = fs::remove_file(&path);
            return Err(error);
        }
        return Ok(id);
    }
    Err(io::Error::new(
        io::ErrorKind::AlreadyExists,
        "no free name for a settings backup",
    ))
}

/// Forget the bytes kept under `id`, which no change ended up needing (an edit made again
/// on what another program wrote meanwhile keeps those bytes instead).
pub(crate) fn discard(machine: &Machine, id: &str) {
    if valid(id) {
        let _ = fs::remove_file(dir(machine).join(id));
    }
}

/// An id from the journal names a file in the backups folder and nothing else.
fn valid(id: &str) -> bool {
    !(id.is_empty() || id.contains(['/', '\\']) || id.starts_with('.'))
}

/// The bytes kept under `id`.
pub(crate) fn kept(machine: &Machine, id: &str) -> io::Result<Vec<u8>> {
    if !valid(id) {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{id:?} is not a settings backup's id"),
        ));
    }
    crate::fs::read_bounded(
        &dir(machine).join(id),
        crate::fs::Links::Refuse,
        crate::limits::SETTINGS_FILE_BYTES,
    )
}
