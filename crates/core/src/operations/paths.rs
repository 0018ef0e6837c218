//! A path as a person types it into an operation: `~/` is the machine's home folder (the
//! injected one, never the process's), and a relative path is taken from the machine's
//! project folder, where the app and the command line work.

use std::path::{Path, PathBuf};

use crate::roots::Machine;

/// `typed` as the path it names on `machine`.
pub fn typed(machine: &Machine, typed: &Path) -> PathBuf {
    if let Ok(rest) = typed.strip_prefix("~") {
        return machine.home().join(rest);
    }
    machine.project.join(typed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tilde_is_the_machines_home_and_a_relative_path_its_project() {
        let machine = Machine::sandbox(
            Path::new("/m/home"),
            Path::new("/m/sys"),
            Path::new("/m/home/work"),
        );
        assert_eq!(
            typed(&machine, Path::new("~/out/a.tar.gz")),
            PathBuf::from("/m/home/out/a.tar.gz")
        );
        assert_eq!(typed(&machine, Path::new("~")), PathBuf::from("/m/home"));
        assert_eq!(
            typed(&machine, Path::new("a.tar.gz")),
            PathBuf::from("/m/home/work/a.tar.gz")
        );
        assert_eq!(
            typed(&machine, Path::new("/abs/a.tar.gz")),
            PathBuf::from("/abs/a.tar.gz")
        );
        // A folder named `~x` is not the home folder.
        assert_eq!(
            typed(&machine, Path::new("~x/a")),
            PathBuf::from("/m/home/work/~x/a")
        );
    }
}
