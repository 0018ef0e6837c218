//! Exclusive locks that a crashed holder releases with its process, so a lock never outlives
//! its writer.

use std::fs::File;
use std::io;
use std::path::Path;

/// Wait for the exclusive lock on the folder `dir` itself, held until the handle returned is
/// dropped. It leaves no file behind in the folder.
///
/// # Errors
/// When the folder cannot be opened or locked.
#[cfg(unix)]
pub fn lock_folder(dir: &Path) -> io::Result<File> {
    let handle = super::open_folder(dir)?;
    rustix::fs::flock(&handle, rustix::fs::FlockOperation::LockExclusive)?;
    Ok(handle)
}

/// Wait for the exclusive lock on the file at `path`, made when missing: what stands in for
/// a folder's lock where a folder cannot be locked.
///
/// # Errors
/// When the file cannot be opened or locked.
#[cfg(not(unix))]
pub fn lock_file(path: &Path) -> io::Result<File> {
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(path)?;
    file.lock()?;
    Ok(file)
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::sync::mpsc;
    use std::time::Duration;

    #[test]
    fn a_folder_lock_is_held_until_dropped() {
        let tmp = tempfile::tempdir().unwrap();
        let first = lock_folder(tmp.path()).unwrap();
        let (sender, receiver) = mpsc::channel();
        let dir = tmp.path().to_path_buf();
        let waiter = std::thread::spawn(move || {
            let _second = lock_folder(&dir).unwrap();
            sender.send(()).unwrap();
        });
        assert!(
            receiver.recv_timeout(Duration::from_millis(200)).is_err(),
            "the second holder got the lock while the first held it"
        );
        drop(first);
        receiver.recv_timeout(Duration::from_secs(10)).unwrap();
        waiter.join().unwrap();
        assert_eq!(std::fs::read_dir(tmp.path()).unwrap().count(), 0);
    }
}
