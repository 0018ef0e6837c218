//! What the benchmark harnesses share: the synthetic machine they measure on, and how one
//! command is timed.

#![allow(dead_code)] // each harness uses its part

pub mod machine;
pub mod text;
pub mod timing;
