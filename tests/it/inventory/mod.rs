//! What the scan finds on a machine: every root, plugin and built-in, what each agent leaves
//! out, the file system's odd corners (links, FIFOs, mounts, case), the live watch, and the
//! scan's properties over generated trees.

mod file_system;
mod foreign_reads;
mod installed_agents;
mod left_out;
mod live;
mod platform_roots;
mod plugins;
mod properties;
mod scan;
