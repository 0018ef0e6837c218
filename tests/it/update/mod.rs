//! Updating a skill from its upstream: the three-way merge, git sources, and the journal of
//! what was written.

mod cli;
mod git;
mod git_cases;
