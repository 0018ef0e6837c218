//! gh skill's provenance (peer-tools.md §4.2), which it writes into the skill's own `SKILL.md`
//! frontmatter, under `metadata`: `github-repo`, `github-ref`, `github-tree-sha`,
//! `github-path`, `github-pinned`, or `local-path` for a skill installed from a folder.
//!
//! The tree id is the upstream folder's. gh rewrites `SKILL.md` as it installs (re-serialising
//! the frontmatter with its metadata added), so the installed folder's tree id never equals
//! it: the check that remains is whether anything changed after the install, which the global
//! lock entry gh writes beside its record dates.

use super::skills_cli::Locks;
use super::walk;
use super::{Attribution, Installer, Method, Owner, Subject, Upstream, Verdict, git};
use crate::skill::SKILL_FILE;

/// gh skill's record of `subject`, when its frontmatter carries one.
pub fn attribute(subject: &Subject<'_>, locks: &Locks) -> Option<Attribution> {
    let meta = |key: &str| subject.declared.metadata(key).map(str::to_owned);
    let owner = Owner::new(Installer::GhSkill, subject.real_dir.join(SKILL_FILE));
    if let Some(local) = meta("local-path") {
        let owner = owner.with_upstream(Upstream {
            repository: Some(local),
            ..Upstream::default()
        });
        let verdict = Verdict::unverifiable(
            "gh skill records no hash for a skill installed from a local folder",
        );
        return Some(verdict.for_owner(owner));
    }
    let tree = meta("github-tree-sha");
    let repository = meta("github-repo");
    if tree.is_none() && repository.is_none() {
        return None;
    }
    let owner = owner
        .with_upstream(Upstream {
            repository,
            reference: meta("github-pinned").or_else(|| meta("github-ref")),
            path: meta("github-path"),
            commit: None,
        })
        .with_hash(tree.as_deref().unwrap_or(""));
    let Some(tree) = tree.filter(|tree| git::is_object_id(tree)) else {
        let verdict =
            Verdict::unverifiable("its github-tree-sha is missing or not a git object id");
        return Some(verdict.for_owner(owner));
    };
    let entries = match walk::list(subject.real_dir) {
        Ok(entries) => entries,
        Err(error) => return Some(Verdict::failed(&error).for_owner(owner)),
    };
    let verdict = match git::tree_id(&entries) {
        Ok(now) if now.eq_ignore_ascii_case(&tree) => Verdict::intact(Method::GitTree),
        Ok(_) => super::changed_since(
            subject.real_dir,
            &entries,
            locks.global_install_time(subject.dir_name(), &tree),
            "gh skill rewrote SKILL.md as it installed the skill (adding its github-* metadata), so the tree id it recorded, the upstream folder's, cannot be recomputed from this copy".into(),
        ),
        Err(error) => Verdict::failed(&error),
    };
    Some(verdict.for_owner(owner))
}
