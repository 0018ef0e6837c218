//! Which skills the agents used: session logs read, and the cache kept of them.

mod cache;
mod sessions;
