//! The installed skills' audits, on a thread of their own after the list is shown: auditing
//! every skill on every scan made `list` four times slower, so the app never waits for it.
//! Each skill is read and judged as `skilldeck audit` does; the answer comes back as one
//! message, display-safe.

use std::path::PathBuf;
use std::sync::mpsc::Sender;

use super::{guard, spawn};
use crate::audit;
use crate::tui::audit::AuditView;
use crate::tui::msg::Msg;

/// Audit each skill `(name, folder)`, one after another (the scan's other workers share the
/// cores), and answer `request`. A folder that cannot be read is left out: the scan already
/// names it unreadable.
pub fn spawn_audit(tx: Sender<Msg>, request: u64, skills: Vec<(String, PathBuf)>) {
    spawn("skilldeck-audit", tx, move |tx| {
        let found = guard("Auditing the skills", || {
            skills
                .into_iter()
                .filter_map(|(name, dir)| {
                    let audited = audit::audit_skill(&name, &dir).ok()?;
                    Some((dir, AuditView::of(&audited.findings)))
                })
                .collect()
        })
        // A panic is said; the skills are shown without their audits.
        .unwrap_or_else(|stopped| {
            let _ = tx.send(Msg::Failed(stopped.to_string()));
            Vec::new()
        });
        Msg::Audited { request, found }
    });
}
