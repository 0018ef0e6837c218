//! Turning a skill off and on in each agent's own settings file: the edits, the files read
//! as each agent reads them, and the refusals that leave a file untouched.

mod files;
mod switch;
mod switch_parsing;
