//! Who installed a skill and from where: every installer's record read back (against the
//! installers themselves where they can run), and whether its upstream moved (`outdated`).

mod agents;
mod cross_check;
mod outdated;
mod outdated_records;
mod records;
mod upstream_journal;
