//! Where a skill came from, decided as chainloop's `skill.Source` decides it
//! (reference/skill-format-and-roots.md §3.7), with the traps of §3.9 closed.

use std::fmt;
use std::path::{Path, PathBuf};

use serde::Serialize;

/// Which kind of root a skill lives in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    Plugin,
    Organization,
    User,
    Project,
    /// Shipped with an agent, which writes it again: read-only.
    Builtin,
    Unknown,
}

impl Source {
    pub const ALL: [Source; 6] = [
        Source::Plugin,
        Source::Organization,
        Source::User,
        Source::Project,
        Source::Builtin,
        Source::Unknown,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Source::Plugin => "plugin",
            Source::Organization => "organization",
            Source::User => "user",
            Source::Project => "project",
            Source::Builtin => "builtin",
            Source::Unknown => "unknown",
        }
    }
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A root folder, kept both as written and with its links resolved, so that a skill reached
/// through a link (macOS's `/tmp` is one) is still found inside it.
#[derive(Clone, Debug)]
struct Folder {
    written: Prefix,
    resolved: Option<Prefix>,
}

impl Folder {
    fn new(path: PathBuf) -> Self {
        let resolved = crate::fs::canonical(&path)
            .ok()
            .filter(|real| *real != path)
            .map(Prefix::new);
        Self {
            written: Prefix::new(path),
            resolved,
        }
    }

    fn holds(&self, dir: &Candidate<'_>, real_dir: Option<&Candidate<'_>>) -> bool {
        self.written.holds(dir)
            || real_dir.is_some_and(|real| {
                self.written.holds(real) || self.resolved.as_ref().is_some_and(|r| r.holds(real))
            })
    }
}

/// A folder that skills are asked to lie in, with its bytes when they are plain
/// ([`crate::path_prefix::plain`]), compared by bytes then.
#[derive(Clone, Debug)]
struct Prefix {
    path: PathBuf,
    plain: Option<Box<[u8]>>,
}

impl Prefix {
    fn new(path: PathBuf) -> Self {
        let plain = crate::path_prefix::plain(&path).map(Box::from);
        Self { path, plain }
    }

    /// Whether `candidate` lies in this folder (or is it), as [`Path::starts_with`] says.
    fn holds(&self, candidate: &Candidate<'_>) -> bool {
        match (self.plain.as_deref(), candidate.plain) {
            (Some(folder), Some(dir)) => crate::path_prefix::plain_in(dir, folder),
            _ => candidate.path.starts_with(&self.path),
        }
    }
}

/// A skill's folder being classified, its bytes checked for plainness once for every root
/// it is asked about.
struct Candidate<'a> {
    path: &'a Path,
    plain: Option<&'a [u8]>,
}

impl<'a> Candidate<'a> {
    fn new(path: &'a Path) -> Self {
        Self {
            path,
            plain: crate::path_prefix::plain(path),
        }
    }
}

/// The folders that tell where a skill came from, one list per source.
#[derive(Clone, Debug, Default)]
pub struct SourceRoots {
    plugin: Vec<Folder>,
    organization: Vec<Folder>,
    user: Vec<Folder>,
    project: Vec<Folder>,
    /// Folders an agent writes its own skills into (Codex's `skills/.system`). They sit inside
    /// a user root, so they are asked first: such a skill is the agent's, not the user's.
    bundled: Vec<Folder>,
}

impl SourceRoots {
    pub fn add(&mut self, source: Option<Source>, path: PathBuf) {
        let folder = Folder::new(path);
        match source {
            Some(Source::Plugin) => self.plugin.push(folder),
            Some(Source::Organization) => self.organization.push(folder),
            Some(Source::User) => self.user.push(folder),
            Some(Source::Project) => self.project.push(folder),
            Some(Source::Builtin | Source::Unknown) | None => self.bundled.push(folder),
        }
    }

    /// The source of a skill named `name` (if an agent gave one) in `dir`, whose links resolve
    /// to `real_dir`.
    ///
    /// A plugin-qualified name (`plugin:skill`) is a plugin's; Claude Code's directory-qualified
    /// names of nested project skills (`apps/web:deploy`) carry a `/` before the colon and are
    /// not. A skills-directory plugin below a user or project root is found because its folder
    /// is registered as a plugin root by the scan, and plugin roots are asked first.
    pub fn classify(&self, name: Option<&str>, dir: &Path, real_dir: Option<&Path>) -> Source {
        if name.is_some_and(is_plugin_qualified) {
            return Source::Plugin;
        }
        let dir = Candidate::new(dir);
        let real_dir = real_dir.map(Candidate::new);
        let holds = |folders: &[Folder]| folders.iter().any(|f| f.holds(&dir, real_dir.as_ref()));
        if holds(&self.bundled) {
            return Source::Builtin;
        }
        [
            (&self.plugin, Source::Plugin),
            (&self.organization, Source::Organization),
            (&self.user, Source::User),
            (&self.project, Source::Project),
        ]
        .into_iter()
        .find(|(folders, _)| holds(folders))
        .map_or(Source::Unknown, |(_, source)| source)
    }
}

/// `plugin:skill`, where the plugin part is one plain segment.
pub fn is_plugin_qualified(name: &str) -> bool {
    name.split_once(':').is_some_and(|(plugin, skill)| {
        !plugin.is_empty() && !skill.is_empty() && !plugin.contains('/')
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The roots of chainloop's `source_test.go`.
    fn roots() -> SourceRoots {
        let mut roots = SourceRoots::default();
        roots.add(Some(Source::Plugin), "/home/me/.claude/plugins".into());
        roots.add(
            Some(Source::Organization),
            "/etc/claude-code/.claude/skills".into(),
        );
        roots.add(Some(Source::User), "/home/me/.claude/skills".into());
        roots.add(Some(Source::Project), "/home/me/src/repo".into());
        roots
    }

    #[test]
    fn the_reference_table_classifies_as_chainloop_does() {
        let cases = [
            (
                Some("superpowers:brainstorming"),
                "/anywhere/at/all",
                Source::Plugin,
            ),
            (
                None,
                "/home/me/.claude/plugins/cache/x/1.0.0/skills/brainstorming",
                Source::Plugin,
            ),
            (
                None,
                "/etc/claude-code/.claude/skills/policy",
                Source::Organization,
            ),
            (None, "/home/me/.claude/skills/asd-ste100", Source::User),
            (
                None,
                "/home/me/src/repo/.claude/skills/release",
                Source::Project,
            ),
            (
                None,
                "/home/me/src/repo-other/.claude/skills/release",
                Source::Unknown,
            ),
            (None, "/tmp/scratch/skill", Source::Unknown),
        ];
        let roots = roots();
        for (name, dir, expected) in cases {
            assert_eq!(
                roots.classify(name, Path::new(dir), None),
                expected,
                "{name:?} {dir}"
            );
        }
    }

    #[test]
    fn a_nested_project_name_with_a_colon_is_not_a_plugin() {
        let dir = Path::new("/home/me/src/repo/apps/web/.claude/skills/deploy");
        assert_eq!(
            roots().classify(Some("apps/web:deploy"), dir, None),
            Source::Project
        );
    }

    #[test]
    fn a_skills_directory_plugin_under_a_user_root_is_a_plugin() {
        let mut roots = roots();
        roots.add(Some(Source::Plugin), "/home/me/.claude/skills/foo".into());
        let dir = Path::new("/home/me/.claude/skills/foo/skills/bar");
        assert_eq!(roots.classify(None, dir, None), Source::Plugin);
    }

    /// The byte comparison of plain paths says what `Path::starts_with` says, for paths that
    /// are plain and for those that are not (which fall back to it).
    #[test]
    fn a_folder_holds_what_path_starts_with_says() {
        let paths = [
            "/",
            "/home",
            "/home/me",
            "/home/me/",
            "/home/me/.claude/skills",
            "/home/me/.claude/skills/",
            "/home/me/.claude/skills/x",
            "/home/me/.claude/skillsx/x",
            "/home/me/.claude/skills-x",
            "/home/me//.claude/skills/x",
            "/home/me/./.claude/skills/x",
            "/home/me/.claude/skills/.",
            "/home/me/.claude/skills/..",
            "/home/me/.claude/skills/../x",
            "home/me/.claude/skills/x",
            "./home/me",
            "./home/me/x",
            ".",
            "",
        ];
        for folder in paths {
            let prefix = Prefix::new(PathBuf::from(folder));
            for dir in paths {
                let dir = Path::new(dir);
                assert_eq!(
                    prefix.holds(&Candidate::new(dir)),
                    dir.starts_with(folder),
                    "{dir:?} in {folder:?}"
                );
            }
        }
    }

    #[test]
    fn a_skill_reached_through_a_link_is_classified_by_either_path() {
        let roots = roots();
        let link = Path::new("/home/me/elsewhere/tool");
        let real = Path::new("/home/me/.claude/skills/tool");
        assert_eq!(roots.classify(None, link, Some(real)), Source::User);
    }

    #[test]
    fn an_agents_own_skills_are_builtin_though_a_user_root_holds_them() {
        let mut roots = roots();
        roots.add(Some(Source::User), "/home/me/.codex/skills".into());
        roots.add(None, "/home/me/.codex/skills/.system".into());
        let dir = Path::new("/home/me/.codex/skills/.system/skill-creator");
        assert_eq!(roots.classify(None, dir, None), Source::Builtin);
    }

    #[test]
    fn plugin_qualified_names() {
        assert!(is_plugin_qualified("superpowers:brainstorming"));
        assert!(!is_plugin_qualified("apps/web:deploy"));
        assert!(!is_plugin_qualified(":deploy"));
        assert!(!is_plugin_qualified("deploy:"));
        assert!(!is_plugin_qualified("deploy"));
    }
}
