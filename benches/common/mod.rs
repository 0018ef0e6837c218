//! What the benchmark harnesses share: the figures they are given, the synthetic machine they
//! measure on, and how one command is timed.

#![allow(dead_code)] // each harness uses its part

pub mod args;
pub mod machine;
pub mod text;
pub mod timing;
