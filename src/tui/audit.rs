//! What `skilldeck audit` found in a skill, ready to show: in an import's preview (the bundle's
//! bytes, judged by the import's worker), in the question before a risky install, and in the
//! list and detail of installed skills ([`Audits`], judged by a worker after the inventory is
//! shown: auditing on every scan would make the list wait). Every text from disk in it (a
//! file's path, a message quoting the file) is sanitised here, once.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::audit::{Finding, Severity};
use crate::operations::import::risk::Risky;
use crate::text::human::count;
use crate::text::sanitize;

/// One finding, display-safe.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FindingView {
    pub skill: String,
    pub file: String,
    pub line: usize,
    pub rule: &'static str,
    pub severity: Severity,
    pub message: String,
}

impl FindingView {
    pub fn of(finding: &Finding) -> Self {
        Self {
            skill: sanitize::name(&finding.skill),
            file: sanitize::name(&finding.file),
            line: finding.line,
            rule: finding.rule,
            severity: finding.severity,
            message: sanitize::line(&finding.message),
        }
    }

    /// `high run.sh:2 remote-pipe-to-shell: a download piped into a shell`.
    pub fn sentence(&self) -> String {
        format!(
            "{} {}:{} {}: {}",
            self.severity, self.file, self.line, self.rule, self.message
        )
    }
}

/// One skill's findings, the most severe first.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AuditView {
    pub findings: Vec<FindingView>,
}

impl AuditView {
    pub fn of(findings: &[Finding]) -> Self {
        let mut findings: Vec<FindingView> = findings.iter().map(FindingView::of).collect();
        // Stable: within a severity, in the file and line order the audit gave.
        findings.sort_by_key(|f| std::cmp::Reverse(f.severity));
        Self { findings }
    }

    pub fn highest(&self) -> Option<Severity> {
        self.findings.iter().map(|f| f.severity).max()
    }

    /// Whether the skill is marked in a list: a finding of medium severity or more (the low
    /// ones are too common to mark a skill by).
    pub fn marked(&self) -> bool {
        self.highest().is_some_and(|h| h >= Severity::Medium)
    }

    /// `nothing found`, or `3 findings, the most severe high`.
    pub fn summary(&self) -> String {
        match self.highest() {
            None => "nothing found".to_owned(),
            Some(highest) => format!(
                "{}, the most severe {highest}",
                count(self.findings.len(), "finding")
            ),
        }
    }

    /// The findings listed where a skill is described: those of medium severity or more, as
    /// the command line's preview lists them (the low ones are counted in the summary).
    pub fn listed(&self) -> impl Iterator<Item = &FindingView> {
        self.findings.iter().filter(|f| f.severity > Severity::Low)
    }
}

/// The installed skills' audits, by folder, as the worker answered, each with the digest of
/// the files it judged; a skill not yet audited (or whose folder could not be read) has none,
/// and is shown without.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Audits {
    by_dir: HashMap<PathBuf, (Option<String>, AuditView)>,
    /// The audits asked for and not answered yet, each with the digest of each skill asked.
    pending: Vec<(u64, HashMap<PathBuf, Option<String>>)>,
}

impl Audits {
    /// The audit of the skill at `dir`, once it is known.
    pub fn of(&self, dir: &Path) -> Option<&AuditView> {
        self.by_dir.get(dir).map(|(_, view)| view)
    }

    /// Whether the skill at `dir` was judged with its files as they are now (`digest`, the
    /// scan's): it need not be judged again. A skill without a digest always is.
    pub fn fresh(&self, dir: &Path, digest: Option<&str>) -> bool {
        digest.is_some()
            && self
                .by_dir
                .get(dir)
                .is_some_and(|(judged, _)| judged.as_deref() == digest)
    }

    /// The skill at `dir` has a finding of medium severity or more: the list marks it.
    pub fn marked(&self, dir: &Path) -> bool {
        self.of(dir).is_some_and(AuditView::marked)
    }

    /// The audit `request` of the skills `(folder, digest)` is under way.
    pub fn asked(
        &mut self,
        request: u64,
        skills: impl IntoIterator<Item = (PathBuf, Option<String>)>,
    ) {
        self.pending.push((request, skills.into_iter().collect()));
    }

    /// The answer to `request`: each skill's audit, replacing what was known of it. An answer
    /// not asked for (or already had) is dropped.
    pub fn answered(&mut self, request: u64, found: Vec<(PathBuf, AuditView)>) {
        let Some(at) = self.pending.iter().position(|(r, _)| *r == request) else {
            return;
        };
        let (_, digests) = self.pending.remove(at);
        for (dir, view) in found {
            let digest = digests.get(&dir).cloned().flatten();
            self.by_dir.insert(dir, (digest, view));
        }
    }

    /// Some audit asked for is not answered yet.
    pub fn waiting(&self) -> bool {
        !self.pending.is_empty()
    }
}

/// Why an install waits for the risk to be accepted: the import's own refusal, said.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RiskView {
    /// The high findings, in the order the refusal gives them.
    pub findings: Vec<FindingView>,
    /// The skills they are in, each once, in that order.
    pub skills: Vec<String>,
    /// The rules they break, each once, in that order.
    pub rules: Vec<&'static str>,
}

impl RiskView {
    pub fn of(risky: &Risky) -> Self {
        let findings: Vec<FindingView> = risky.findings.iter().map(FindingView::of).collect();
        let mut skills: Vec<String> = Vec::new();
        let mut rules: Vec<&'static str> = Vec::new();
        for finding in &findings {
            if !skills.contains(&finding.skill) {
                skills.push(finding.skill.clone());
            }
            if !rules.contains(&finding.rule) {
                rules.push(finding.rule);
            }
        }
        Self {
            findings,
            skills,
            rules,
        }
    }

    /// `2 high findings in fetcher, helper (remote-pipe-to-shell, env-to-webhook)`.
    pub fn sentence(&self) -> String {
        format!(
            "{} in {} ({})",
            count(self.findings.len(), "high finding"),
            self.skills.join(", "),
            self.rules.join(", ")
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::Class;

    fn finding(skill: &str, rule: &'static str, severity: Severity) -> Finding {
        Finding {
            skill: skill.to_owned(),
            file: "run\u{1b}[31m.sh".to_owned(),
            line: 2,
            rule,
            class: Class::RemoteExec,
            severity,
            message: "pipes\u{7} a download".to_owned(),
        }
    }

    #[test]
    fn a_skill_is_summed_up_most_severe_first_and_display_safe() {
        let view = AuditView::of(&[
            finding("a", "low-rule", Severity::Low),
            finding("a", "high-rule", Severity::High),
        ]);
        assert_eq!(view.summary(), "2 findings, the most severe high");
        assert_eq!(view.findings[0].rule, "high-rule");
        assert!(view.marked());
        assert_eq!(view.listed().count(), 1);
        assert!(!view.findings[0].file.contains('\u{1b}'));
        assert!(!view.findings[0].message.contains('\u{7}'));
        let low = AuditView::of(&[finding("a", "low-rule", Severity::Low)]);
        assert!(!low.marked());
        assert_eq!(AuditView::default().summary(), "nothing found");
    }

    #[test]
    fn audits_take_the_answers_asked_for_and_drop_the_rest() {
        let mut audits = Audits::default();
        let dir = PathBuf::from("/s/a");
        let risky = AuditView::of(&[finding("a", "r", Severity::Medium)]);
        audits.answered(7, vec![(dir.clone(), risky.clone())]);
        assert!(audits.of(&dir).is_none());
        audits.asked(8, [(dir.clone(), Some("d1".to_owned()))]);
        assert!(audits.waiting());
        assert!(!audits.fresh(&dir, Some("d1")));
        audits.answered(8, vec![(dir.clone(), risky)]);
        assert!(!audits.waiting());
        assert!(audits.marked(&dir));
        // Judged with these files: not again, unless they changed or have no digest.
        assert!(audits.fresh(&dir, Some("d1")));
        assert!(!audits.fresh(&dir, Some("d2")));
        assert!(!audits.fresh(&dir, None));
        // Asked again after the files changed: the newer answer replaces it.
        audits.asked(9, [(dir.clone(), Some("d2".to_owned()))]);
        audits.answered(9, vec![(dir.clone(), AuditView::default())]);
        assert!(!audits.marked(&dir));
        assert!(audits.fresh(&dir, Some("d2")));
    }

    #[test]
    fn a_risk_names_each_skill_and_rule_once() {
        let risky = Risky {
            findings: vec![
                finding("a", "r1", Severity::High),
                finding("b", "r1", Severity::High),
                finding("a", "r2", Severity::High),
            ],
        };
        let view = RiskView::of(&risky);
        assert_eq!(view.sentence(), "3 high findings in a, b (r1, r2)");
    }
}
