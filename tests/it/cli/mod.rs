//! The command line's contract: every subcommand's text and JSON (validated against
//! docs/schema), its refusals and exit codes, completions, the man page, and the README's
//! tables generated from the same sources.

mod basics;
mod check_named;
mod completions;
mod context;
pub(crate) mod json_schema;
mod lint;
mod list_filters;
mod list_usage;
mod man;
mod plurals;
mod readme_agents;
mod readme_keys;
mod refusal_codes;
mod roots;
