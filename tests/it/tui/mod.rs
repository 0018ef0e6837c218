//! The terminal app, driven headless through its real runtime: flows key by key, and the
//! screens as insta snapshots at 80×24 and 120×40 (in `snapshots/`).

mod agents;
mod audit_marks;
mod budget;
mod diff_keys;
mod e2e;
mod flows;
mod frames;
mod history;
mod import_flows;
mod import_git;
mod import_grouped;
mod import_risk;
mod import_screens;
mod list_export;
mod list_snapshots;
mod list_update;
mod live_flows;
mod lock_marker;
mod manage;
mod markers;
mod reading;
mod reading_screens;
mod reports;
mod text_fields;
mod update;
mod update_flows;
mod update_upstream;
mod update_upstream_flows;
