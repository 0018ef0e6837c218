//! OpenSkills' record (peer-tools.md §4.5): `.openskills.json` inside each skill folder it
//! installs, saying where the skill came from (`source`, `sourceType`, `repoUrl`, `subpath`,
//! `localPath`) and when, but nothing of what its files were: there is nothing to verify.

use serde::Deserialize;

use super::{Attribution, Installer, Owner, Subject, Upstream, Verdict, read_json};

/// The file OpenSkills writes into a skill it installs.
const METADATA_FILE: &str = ".openskills.json";

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Metadata {
    source: Option<String>,
    repo_url: Option<String>,
    subpath: Option<String>,
    local_path: Option<String>,
}

/// OpenSkills' record of `subject`, when it holds one.
pub fn attribute(subject: &Subject<'_>) -> Option<Attribution> {
    if !subject.has_file(METADATA_FILE) {
        return None;
    }
    let path = subject.real_dir.join(METADATA_FILE);
    let owner = Owner::new(Installer::Openskills, path.clone());
    let metadata = match read_json::<Metadata>(&path) {
        Ok(metadata) => metadata?,
        Err(problem) => return Some(Attribution::unreadable_record(owner, problem)),
    };
    let owner = owner.with_upstream(Upstream {
        repository: metadata
            .repo_url
            .or(metadata.local_path)
            .or(metadata.source),
        path: metadata.subpath,
        ..Upstream::default()
    });
    let verdict = Verdict::unverifiable(
        "OpenSkills records where a skill came from, not what its files were",
    );
    Some(verdict.for_owner(owner))
}
