//! Why a bundle was refused: one code from the command-line contract and one sentence that
//! names the member, as seed 000's `message/1` does. A refusal is about the whole bundle, and
//! nothing has been written when one is returned.

use std::fmt;

/// Why a bundle cannot be imported as it is.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    #[error("{path} is {what}, not a folder or an archive (tar, tar.gz, zip)")]
    UnsupportedSource { path: String, what: String },
    #[error(
        "{path} is named as a {named} but holds a {holds}: readers that go by the name would read it otherwise; rename it to match"
    )]
    MisnamedArchive {
        path: String,
        named: String,
        holds: String,
    },
    #[error("{path} could not be read: {error}")]
    UnreadableSource { path: String, error: String },
    #[error("the archive could not be read{}: {why}", at_member(.at.as_deref()))]
    MalformedArchive { at: Option<String>, why: String },
    #[error("{path} cannot be stored: {why}")]
    UnsafePath { path: String, why: PathProblem },
    #[error("{path} is {kind}, not a regular file or a folder")]
    UnsupportedEntry { path: String, kind: EntryKind },
    #[error("{path} is {kind} but is also stored as a folder{}", below_it(.below.as_deref()))]
    EntryAsFolder {
        path: String,
        kind: EntryKind,
        /// A member stored below it, when one is.
        below: Option<String>,
    },
    #[error("{0} appears more than once")]
    DuplicatePath(String),
    #[error("{0} is stored both as a file and as a folder")]
    FileAndFolder(String),
    #[error(
        "{path} and {other} differ only in letter case or Unicode normalisation, so macOS and Windows would store them as one file"
    )]
    Collision { path: String, other: String },
    #[error("the source holds more than {0} entries")]
    TooManyEntries(usize),
    #[error("the source is larger than {0} bytes once expanded")]
    TooLarge(u64),
    #[error("{path} is {size} bytes, more than the {limit} one file may hold")]
    FileTooLarge { path: String, size: u64, limit: u64 },
    #[error(
        "the source holds no skill: no SKILL.md at its root, in a folder at its top, under skills/ or an agent's skills folder (.claude/skills/, .agents/skills/, ...), listed by a plugin or marketplace, or anywhere five folders deep"
    )]
    NoSkills,
    #[error("the source holds no skill named {wanted}; it holds {held}")]
    NoSuchSkill { wanted: String, held: String },
    #[error("{0} has no SKILL.md at its root")]
    MissingManifest(String),
    #[error("{path} {why}")]
    InvalidSkill { path: String, why: String },
    #[error("two skills are named {name}: {first} and {second}")]
    DuplicateSkill {
        name: String,
        first: String,
        second: String,
    },
}

impl Refusal {
    /// The refusal code of the command-line contract (docs/json.md).
    pub fn code(&self) -> &'static str {
        match self {
            Refusal::UnsupportedSource { .. } | Refusal::MisnamedArchive { .. } => {
                "unsupported_source"
            }
            Refusal::UnreadableSource { .. } => "unreadable_source",
            Refusal::MalformedArchive { .. } => "malformed_archive",
            Refusal::UnsafePath { .. } => "unsafe_path",
            Refusal::UnsupportedEntry { .. } | Refusal::EntryAsFolder { .. } => "unsupported_entry",
            Refusal::DuplicatePath(_) => "duplicate_path",
            Refusal::FileAndFolder(_) | Refusal::Collision { .. } => "path_conflict",
            Refusal::TooManyEntries(_) => "too_many_entries",
            Refusal::TooLarge(_) | Refusal::FileTooLarge { .. } => "too_large",
            Refusal::NoSkills | Refusal::NoSuchSkill { .. } => "no_skills",
            Refusal::MissingManifest(_) => "missing_manifest",
            Refusal::InvalidSkill { .. } => "invalid_skill",
            Refusal::DuplicateSkill { .. } => "duplicate_skill",
        }
    }

    pub(super) fn malformed(at: Option<&str>, why: impl Into<String>) -> Self {
        Refusal::MalformedArchive {
            at: at.map(str::to_owned),
            why: why.into(),
        }
    }
}

fn at_member(at: Option<&str>) -> String {
    at.map(|member| format!(" at {member}")).unwrap_or_default()
}

fn below_it(below: Option<&str>) -> String {
    below
        .map(|member| format!(", with {member} below it"))
        .unwrap_or_default()
}

/// What makes a path one skilldeck will not write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PathProblem {
    NotUtf8,
    Empty,
    Absolute,
    ControlCharacter,
    Backslash,
    Traversal,
    EmptySegment,
    DotSegment,
    Separator,
    Invisible(char),
    WindowsCharacter(char),
    TrailingDotOrSpace,
    ReservedName,
    ShortName,
    FileEndsWithSlash,
    NameTooLong(usize),
    PathTooLong(usize),
    TooDeep(usize),
}

impl fmt::Display for PathProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PathProblem::NotUtf8 => f.write_str("the name is not valid UTF-8"),
            PathProblem::Empty => f.write_str("an empty name is not storable"),
            PathProblem::Absolute => f.write_str("an absolute path is not storable"),
            PathProblem::ControlCharacter => f.write_str("control characters are not storable"),
            PathProblem::Backslash => f.write_str("backslashes are not path separators here"),
            PathProblem::Traversal => f.write_str("'..' would leave the skill folder"),
            PathProblem::EmptySegment => f.write_str("an empty segment ('//') is not storable"),
            PathProblem::DotSegment => f.write_str("a '.' segment is not storable"),
            PathProblem::Separator => f.write_str("a name cannot hold '/'"),
            PathProblem::Invisible(c) => write!(
                f,
                "it holds the invisible formatting character U+{:04X}",
                u32::from(*c)
            ),
            PathProblem::WindowsCharacter(c) => {
                write!(f, "Windows cannot store {c:?} in a name")
            }
            PathProblem::TrailingDotOrSpace => {
                f.write_str("Windows cannot store a name that ends in a dot or a space")
            }
            PathProblem::ReservedName => f.write_str("Windows reserves that name for a device"),
            PathProblem::ShortName => f.write_str(
                "it has the shape of a Windows short name (as GIT~1), which can stand for another file there",
            ),
            PathProblem::FileEndsWithSlash => f.write_str("a file's name cannot end with '/'"),
            PathProblem::NameTooLong(limit) => {
                write!(f, "one of its names is longer than {limit} bytes")
            }
            PathProblem::PathTooLong(limit) => write!(f, "it is longer than {limit} bytes"),
            PathProblem::TooDeep(limit) => write!(f, "it is more than {limit} folders deep"),
        }
    }
}

/// Entries a bundle may hold but a skill may not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EntryKind {
    SymbolicLink,
    HardLink,
    Fifo,
    Socket,
    CharacterDevice,
    BlockDevice,
    Sparse,
    Contiguous,
    Encrypted,
    Compressed(u16),
    Special,
    Unknown(u8),
}

impl fmt::Display for EntryKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EntryKind::SymbolicLink => f.write_str("a symbolic link"),
            EntryKind::HardLink => f.write_str("a hard link"),
            EntryKind::Fifo => f.write_str("a FIFO"),
            EntryKind::Socket => f.write_str("a socket"),
            EntryKind::CharacterDevice => f.write_str("a character device"),
            EntryKind::BlockDevice => f.write_str("a block device"),
            EntryKind::Sparse => f.write_str("a sparse file"),
            EntryKind::Contiguous => f.write_str("a contiguous file"),
            EntryKind::Encrypted => f.write_str("an encrypted file"),
            EntryKind::Compressed(method) => {
                write!(f, "a file compressed with zip method {method}")
            }
            EntryKind::Special => f.write_str("a special file"),
            EntryKind::Unknown(flag) => write!(
                f,
                "an entry of tar type {:?}",
                char::from(*flag).escape_default().to_string()
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sentences_name_the_member_and_codes_follow_the_contract() {
        let refusal = Refusal::UnsafePath {
            path: "demo/../x".into(),
            why: PathProblem::Traversal,
        };
        assert_eq!(refusal.code(), "unsafe_path");
        assert_eq!(
            refusal.to_string(),
            "demo/../x cannot be stored: '..' would leave the skill folder"
        );
        let malformed = Refusal::malformed(Some("demo/SKILL.md"), "its data is cut short");
        assert_eq!(
            malformed.to_string(),
            "the archive could not be read at demo/SKILL.md: its data is cut short"
        );
        assert_eq!(
            Refusal::malformed(None, "x").to_string(),
            "the archive could not be read: x"
        );
        let entry = Refusal::UnsupportedEntry {
            path: "demo/link".into(),
            kind: EntryKind::SymbolicLink,
        };
        assert_eq!(entry.code(), "unsupported_entry");
        assert_eq!(
            entry.to_string(),
            "demo/link is a symbolic link, not a regular file or a folder"
        );
    }
}
