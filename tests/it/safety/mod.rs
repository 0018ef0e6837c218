//! What hostile or broken input must never do: crash the app, leave the terminal broken, or
//! reach the terminal unsanitised.

mod bad_input;
mod crash;
mod terminal_injection;
