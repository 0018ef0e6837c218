//! The bounds one import accepts, published here for the bundle readers: the numbers
//! themselves live with every other bound in `crate::limits`, so the command line, the app
//! and the tests all accept the same bundles.

pub use crate::limits::{Limits, limits};
