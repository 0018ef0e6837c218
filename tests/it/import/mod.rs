//! Importing bundles: every source (folder, archive, git), layout and reader, hostile input
//! refused with nothing written, cancellation, replacement, shadowing, the snapshots taken and
//! the agents that will not load a project folder they do not trust.

mod cancel_and_refuse;
mod corpus;
mod destination;
mod folder;
mod git;
mod git_hostile;
mod hostile;
mod install;
mod layouts;
mod outcomes;
mod readers;
mod real_world;
mod replace;
mod shadowing;
mod snapshots;
mod trust;
