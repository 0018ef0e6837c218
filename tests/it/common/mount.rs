//! File systems a test mounts for itself (a tmpfs, a bind mount, a devpts instance), which
//! needs root: CI runs as root. Where mounting is impossible the test says so and passes,
//! except under `CI=true`, where it fails.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use super::is_root;

/// A file system mounted for one test, unmounted when dropped.
pub struct Mount {
    pub dir: PathBuf,
    _parent: Option<tempfile::TempDir>,
}

impl Mount {
    /// A tmpfs of `size` in a folder of its own; `None` where that is impossible (not root),
    /// which fails the test under `CI=true`.
    pub fn tmpfs(size: &str) -> Option<Self> {
        let parent = tempfile::tempdir().unwrap();
        let dir = parent.path().join("mnt");
        fs::create_dir(&dir).unwrap();
        let mut mount = Self::on(
            &dir,
            &[
                "-t",
                "tmpfs",
                "-o",
                &format!("size={size},mode=0755"),
                "tmpfs",
            ],
        )?;
        mount._parent = Some(parent);
        Some(mount)
    }

    /// A tmpfs of `size` mounted on the existing folder `dir`.
    pub fn tmpfs_on(dir: &Path, size: &str) -> Option<Self> {
        Self::on(
            dir,
            &[
                "-t",
                "tmpfs",
                "-o",
                &format!("size={size},mode=0755"),
                "tmpfs",
            ],
        )
    }

    /// The folder `from` mounted again on the existing folder `dir`: the same file system and
    /// device, another mount.
    pub fn bind(from: &Path, dir: &Path) -> Option<Self> {
        Self::on(dir, &["--bind", from.to_str().unwrap()])
    }

    /// A devpts instance of its own on `dir`, whose `ptmx` allocates terminals in it alone.
    pub fn devpts(dir: &Path) -> Option<Self> {
        Self::on(
            dir,
            &["-t", "devpts", "-o", "newinstance,ptmxmode=0666", "devpts"],
        )
    }

    fn on(dir: &Path, args: &[&str]) -> Option<Self> {
        let mounted = is_root()
            && Command::new("mount")
                .args(args)
                .arg(dir)
                .status()
                .is_ok_and(|s| s.success());
        if !mounted {
            assert!(
                std::env::var("CI").as_deref() != Ok("true"),
                "CI must be able to mount {args:?} (run the tests as root)"
            );
            eprintln!("cannot mount {args:?} here (not root): this test checks nothing");
            return None;
        }
        Some(Self {
            dir: dir.to_path_buf(),
            _parent: None,
        })
    }

    pub fn remount_read_only(&self) {
        let status = Command::new("mount")
            .args(["-o", "remount,ro"])
            .arg(&self.dir)
            .status()
            .unwrap();
        assert!(status.success());
    }
}

impl Drop for Mount {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.dir).status();
    }
}
