//! `skilldeck audit`: the corpus of risky and benign skills in tests/fixtures/audit, compiled
//! programs shipped in a skill, the installed skills of a machine, the exit codes and formats,
//! and the real repositories of `shared/real-world`.

mod corpus;
mod real_world;
mod verdicts;
