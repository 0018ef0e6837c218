//! The machine a command or the app works on: the environment that locates every root and
//! skilldeck's own data, and the project whose roots are searched. Every front end, test,
//! bench and example builds one of these and hands it to the operations, so no code reads the
//! process environment or the real home behind their back.

use std::path::{Path, PathBuf};

use super::env::{Environment, NoHome};
use super::{AgentId, Scope, install_root};

/// The environment and the project one run of skilldeck works for.
#[derive(Clone, Debug)]
pub struct Machine {
    pub env: Environment,
    /// Where project roots are searched from (an absolute path).
    pub project: PathBuf,
    /// Operations journalled through this machine belong to one batch (the skills a command
    /// or the app was given at once), which `undo` reverts together.
    pub batch: Option<String>,
}

impl Machine {
    pub fn new(env: Environment, project: impl Into<PathBuf>) -> Self {
        Self {
            env,
            project: project.into(),
            batch: None,
        }
    }

    /// This process's machine: its home and root-moving variables, and `project`.
    ///
    /// # Errors
    /// [`NoHome`] when no home directory can be found.
    pub fn from_process(project: impl Into<PathBuf>) -> Result<Self, NoHome> {
        Ok(Self::new(Environment::from_process()?, project))
    }

    /// A stand-in machine for the demo, tests, benches and screenshots: its home, the folder
    /// that stands in for `/` (so organization-managed roots are its own too), and its project.
    /// Nothing else of the process environment is read, so its data directory, and with it
    /// every snapshot and journal entry, lies under `home` on every platform.
    pub fn sandbox(home: &Path, system_root: &Path, project: &Path) -> Self {
        let env = Environment::new(home).with_var("SKILLDECK_SYSTEM_ROOT", system_root);
        Self::new(env, project)
    }

    pub fn home(&self) -> &Path {
        self.env.home()
    }

    /// This machine, journalling what it does as one new batch.
    pub fn in_a_batch(&self) -> Self {
        let started = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |since| since.as_nanos());
        Self {
            batch: Some(format!("{started:x}-{:x}", std::process::id())),
            ..self.clone()
        }
    }

    /// Where skilldeck keeps its snapshots and its journal.
    pub fn data_dir(&self) -> PathBuf {
        self.env.data_dir()
    }

    /// The skills folder `agent` reads at `scope` on this machine, if it has one.
    pub fn install_root(&self, agent: AgentId, scope: Scope) -> Option<PathBuf> {
        install_root(&self.env, &self.project, agent, scope)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sandbox_keeps_its_data_under_its_home() {
        let machine = Machine::sandbox(
            Path::new("/sand/home"),
            Path::new("/sand/system"),
            Path::new("/sand/home/work"),
        );
        assert!(machine.data_dir().starts_with("/sand/home"));
        assert_eq!(machine.env.system_root(), PathBuf::from("/sand/system"));
        assert_eq!(
            machine.install_root(AgentId::CLAUDE_CODE, Scope::User),
            Some(PathBuf::from("/sand/home/.claude/skills"))
        );
    }
}
