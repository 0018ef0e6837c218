//! Project locks: the skills CLI's `skills-lock.json` read and written exactly as the CLI does
//! ([`file`], on Node-ordered JSON in [`json`]), and a skill folder's `computedHash` as the CLI
//! computes it over what it would install ([`hash`]). `skilldeck lock` writes one from the
//! project's skills and `skilldeck verify` checks a project against one
//! (`operations::lock`, `operations::verify`). Microsoft APM's `apm.lock.yaml` is read too
//! ([`apm`]), for the SHA-256 it records of each skill file it deployed, which `verify` checks.

pub mod apm;
pub mod file;
pub mod hash;
pub mod json;

pub use apm::{APM_LOCK_FILE, ApmEntryProblem, ApmLock, ApmLockError, SkillFile, apm_file_hash};
pub use file::{COMMIT_FIELD, Entry, LOCAL, LOCK_FILE, LockError, Locked, SkillsLock, VERSION};
pub use hash::{HashError, computed_hash};
