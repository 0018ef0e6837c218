//! Every bound skilldeck holds what it reads to, in one place: what one import may cost, how
//! much of a skill the content digest reads, and how large each kind of file skilldeck did not
//! write may be before it is refused unread. A number that is not here is not a bound.
//!
//! Sized against the two real skill repositories this was measured on
//! (anthropics/skills: 279 entries, 7.1 MB of files, largest file 191 KB, 6 parts deep;
//! obra/superpowers: 235 entries, 1.6 MB): each bound leaves them ten to eighty-fold room, and
//! stays small enough that a hostile archive or folder cannot cost more than a few hundred
//! megabytes of memory or a second of work.

/// What one import may cost. macOS and file-manager metadata (`._*`, `.DS_Store`, `__MACOSX/`,
/// `Thumbs.db`, a folder's `.git/`) is set aside before it counts against any bound but
/// `stream_bytes`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Files, folders and other entries a bundle may hold.
    pub entries: usize,
    /// The bytes of all the files a bundle holds.
    pub bytes: u64,
    /// The bytes of one file, checked against its declared size before it is read.
    pub file_bytes: u64,
    /// The bytes read from a source in any form: the archive file itself and its expanded
    /// stream, headers and set-aside metadata included. Reading fails past it; nothing is ever
    /// cut short and kept.
    pub stream_bytes: u64,
    /// Parts of one path.
    pub depth: usize,
    /// Bytes of one path.
    pub path_bytes: usize,
    /// Bytes of one part of a path (what every common file system holds).
    pub name_bytes: usize,
}

const KIB: u64 = 1024;
const MIB: u64 = 1024 * KIB;

/// The bounds every import is held to.
pub const fn limits() -> Limits {
    Limits {
        entries: 10_000,
        bytes: 128 * MIB,
        file_bytes: 16 * MIB,
        stream_bytes: 256 * MIB,
        depth: 24,
        path_bytes: 1024,
        name_bytes: 255,
    }
}

/// The largest file the content digest (and every other installer's hash skilldeck
/// recomputes) reads, by the size its metadata gives, checked before a byte is read: a sparse
/// file of terabytes costs nothing to make and hours to hash. Four times the largest file an
/// import accepts, so every skill skilldeck installed can be verified, with room for the
/// fonts and images skills put there by other means carry.
pub const DIGEST_FILE_BYTES: u64 = 64 * MIB;

/// The bytes of all the files of one skill the digest reads, checked as the walk goes, before
/// each file is read. Twice what an import accepts; at the speed of SHA-256 about a second
/// of work, so a scan of many skills stays a scan.
pub const DIGEST_SKILL_BYTES: u64 = 256 * MIB;

/// Folders below a skill's own the content digest walks into. The walk holds one open
/// handle per level, so a hostile folder nested thousands deep costs neither the scan's
/// descriptors nor its stack; four times the depth an import accepts.
pub const DIGEST_DEPTH: usize = 96;

/// The largest `SKILL.md` skilldeck reads. The specification asks for under 500 lines; a file
/// a thousand times that is not instructions an agent can load, and reading it whole would let
/// one file cost a listing its memory bound.
pub const MANIFEST_BYTES: u64 = MIB;

/// The largest plugin manifest (`plugin.json`) or marketplace listing (`marketplace.json`)
/// read; real ones are a few kilobytes.
pub const PLUGIN_MANIFEST_BYTES: u64 = MIB;

/// The largest installer file read: a lock file (the skills CLI's, SkillKit's), Claude Code's
/// `installed_plugins.json` and `known_marketplaces.json`, SkillPort's `origins.json`, a
/// skill's own record file. A lock file for thousands of skills is a few megabytes.
pub const RECORD_FILE_BYTES: u64 = 16 * MIB;

/// The largest agent settings file read to tell what the agent loads: Codex's `config.toml`,
/// Claude Code's, Gemini CLI's and Copilot's `settings.json`, Gemini's `trustedFolders.json`.
/// A person writes these by hand; they run to kilobytes.
pub const SETTINGS_FILE_BYTES: u64 = MIB;

/// The largest file of kept `outdated` answers read back: a few hundred bytes per skill whose
/// upstream is known, so ten thousand skills still fit many times over.
pub const OUTDATED_FILE_BYTES: u64 = 16 * MIB;

/// The largest per-skill policy file read (Codex's `agents/openai.yaml`): a few lines.
pub const POLICY_FILE_BYTES: u64 = 64 * KIB;

/// The largest one-line git file read from a marketplace clone: `HEAD`, a loose ref, a `.git`
/// file naming the real git folder (a path, at most a few kilobytes on every system).
pub const GIT_REF_BYTES: u64 = 8 * KIB;

/// The largest `packed-refs` read from a marketplace clone: a line per branch and tag, so a
/// clone with a hundred thousand tags still fits.
pub const PACKED_REFS_BYTES: u64 = 16 * MIB;

/// The largest `info.json` of a snapshot read back from the store: a digest, a folder, a time
/// and two counts, a few hundred bytes. The store is skilldeck's, but anyone who can write the
/// data directory can put anything there.
pub const SNAPSHOT_INFO_BYTES: u64 = 64 * KIB;

/// The most of a transcript `snapshot --from-transcript` reads. It is streamed a line at a
/// time, so this bounds time, not memory: a long session's transcript is tens of megabytes.
pub const TRANSCRIPT_BYTES: u64 = 1024 * MIB;

/// The most skill folders one session is taken to use: what `snapshot --from-transcript` takes
/// from a transcript (one naming more is refused unread), and what the usage reader counts in
/// one session log (the rest of a log naming more is passed over, the log counted broken). A
/// session loads the few skills its task needs, and an agent lists a few hundred at most; this
/// bounds what one hostile log costs in memory (and what 2,000 of them cost) rather than the
/// bytes read, since a folder's name takes some forty bytes of a log.
pub const SESSION_SKILLS: usize = 10_000;

/// The bytes of one file the app's viewer reads: the first this many are shown, and the rest
/// is said to be left out. Five times the largest file of the skill repositories measured, and
/// a few seconds of scrolling from one end to the other.
pub const VIEW_FILE_BYTES: u64 = MIB;

/// The bounds on reading the agents' session logs for usage: the newest files first, each
/// read up to `file_bytes`, until `files` or `total_bytes` is reached. A heavy user's
/// `~/.claude/projects` holds a few thousand transcripts and a few GiB; a skill's use is
/// written when it starts, so the newest sessions tell what is used now. Which files are
/// taken depends on their sizes and times alone: a file the usage cache holds unchanged is
/// not read again, but counts against the bounds as if it were, so the answer does not change
/// with the cache.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UsageBounds {
    /// Claude Code's global config, which holds its counters and much else.
    pub counters_bytes: u64,
    pub files: usize,
    pub file_bytes: u64,
    pub total_bytes: u64,
    /// skilldeck's own cache of what the logs held: a few hundred bytes per log file.
    pub cache_bytes: u64,
    /// Skill folders counted in one log ([`SESSION_SKILLS`]).
    pub skills_per_file: usize,
}

pub const USAGE: UsageBounds = UsageBounds {
    counters_bytes: 64 * MIB,
    files: 2_000,
    file_bytes: 64 * MIB,
    total_bytes: 2 * 1024 * MIB,
    cache_bytes: 64 * MIB,
    skills_per_file: SESSION_SKILLS,
};

/// The commits of a source's history `sync` examines for a lock entry that names no commit
/// (a lock the skills CLI wrote records only a branch or tag), looking for the one whose skill
/// folder hashes to the entry's `computedHash`: the ref is fetched this deep, and each commit
/// at which the folder changed among them is read. A skill repository's branch moves by tens
/// of commits a month (anthropics/skills, obra/superpowers), so this reaches back years, and
/// the fetch stays under the bytes one import may cost.
pub const HISTORY_COMMITS: usize = 1000;

/// The largest `apm.lock.yaml` read. APM's own lock, recording every file of its skills and
/// instructions, is tens of kilobytes; a project with thousands of deployed files stays under a
/// few megabytes. A YAML file over this is refused rather than parsed.
pub const APM_LOCK_BYTES: u64 = 16 * MIB;

/// What `audit` reads of one skill: its files (`.git/` set aside) up to `files`, each text file
/// judged on its first `file_bytes` (a longer one is said to be read in part), and of a file
/// that is not text only its first bytes, for the magic numbers of a compiled program.
/// anthropics/skills' largest skill holds 80 files and its largest file 191 KB (an XML
/// schema); an import accepts 10,000 entries, so a skill over `files` is one no import took.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AuditBounds {
    pub files: usize,
    pub file_bytes: u64,
    /// Folders below the skill's own the walk goes into (an import accepts 24 parts).
    pub depth: usize,
}

pub const AUDIT: AuditBounds = AuditBounds {
    files: 2_000,
    file_bytes: 4 * MIB,
    depth: 24,
};
