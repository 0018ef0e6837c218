//! Project locks: `skilldeck lock` and `skilldeck verify`, and skilldeck's `computedHash`
//! against the real skills CLI's.

mod apm;
mod command;
mod skills_cli;
mod state;
pub mod sync;
mod sync_hostile;
mod sync_interrupt;
mod sync_skills_cli;
mod upkeep;
mod verify;
mod verify_audit;
