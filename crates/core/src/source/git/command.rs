//! Every git command skilldeck runs: the user's own `git`, through the child process runner
//! (bounded output, a deadline, stdin closed), in an environment where git cannot prompt,
//! cannot run a program a configuration names, and speaks only the protocols skilldeck reads.
//!
//! What each setting is for (git-config(1), git(1), gitcredentials(7), git 2.47):
//! - `GIT_TERMINAL_PROMPT=0`, `GIT_ASKPASS` and `SSH_ASKPASS` empty, `SSH_ASKPASS_REQUIRE=never`
//!   and ssh's `BatchMode=yes`: git and ssh fail rather than ask for a password, a passphrase
//!   or a host key nobody is there to confirm (an empty askpass is no askpass, prompt.c).
//! - `GIT_CONFIG_NOSYSTEM=1`, `GIT_CONFIG_GLOBAL=/dev/null`: neither the system's nor the
//!   user's configuration is read, so nothing there runs a program (`core.fsmonitor`,
//!   `core.hooksPath`, `credential.helper`, `core.sshCommand`, `core.gitProxy`, `filter.*`,
//!   `url.*.insteadOf` pointing elsewhere); `GIT_CONFIG_PARAMETERS`, `GIT_CONFIG_COUNT` and
//!   `GIT_CONFIG` are cleared for the same reason.
//! - `-c core.fsmonitor=false -c core.hooksPath=/dev/null -c credential.helper=`: the same,
//!   said on the command line, which wins over any repository's own configuration (an empty
//!   `credential.helper` empties the list of helpers, gitcredentials(7)).
//! - `-c protocol.allow=never` and `always` for `https`, `http`, `ssh`, `git` and `file`: the
//!   URLs `source::parse` reads as repositories, and nothing else (`ext::`, `fd::`, a remote
//!   helper), on redirects too. `GIT_ALLOW_PROTOCOL` is cleared (it would replace the list) and
//!   `GIT_PROTOCOL_FROM_USER=0` (a `user` protocol is refused).
//! - `GIT_SSH`, `GIT_SSH_COMMAND`, `GIT_PROXY_COMMAND` are cleared and `core.sshCommand` is
//!   `ssh -o BatchMode=yes`: ssh is the user's own, with their `~/.ssh`, but cannot prompt.
//! - The variables that point git at another repository (`GIT_DIR`, `GIT_WORK_TREE`, ...) and
//!   `GIT_TEMPLATE_DIR` are cleared; every repository is made with `--template=` (no hooks).
//!
//! Without the user's configuration, a credential helper, `http.proxy` or an `insteadOf` set
//! there does not apply: a private repository is reached over ssh (its agent and keys work),
//! a proxy through `https_proxy`/`http_proxy`, which curl reads from the environment.

use std::ffi::OsStr;
use std::io;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

use crate::source::child::{self, Deadline, End, Gathered, Ran, Writes};
use crate::text::sanitize;

use super::FetchError;

/// The settings every git command runs with, as `-c` arguments.
const CONFIG: &[&str] = &[
    "advice.detachedHead=false",
    "core.fsmonitor=false",
    "core.hooksPath=/dev/null",
    "credential.helper=",
    "core.askPass=",
    "core.sshCommand=ssh -o BatchMode=yes",
    "protocol.allow=never",
    "protocol.https.allow=always",
    "protocol.http.allow=always",
    "protocol.ssh.allow=always",
    "protocol.git.allow=always",
    "protocol.file.allow=always",
    "submodule.recurse=false",
    "fetch.recurseSubmodules=false",
];

/// Variables cleared from git's environment.
const CLEARED: &[&str] = &[
    "GIT_DIR",
    "GIT_WORK_TREE",
    "GIT_INDEX_FILE",
    "GIT_OBJECT_DIRECTORY",
    "GIT_ALTERNATE_OBJECT_DIRECTORIES",
    "GIT_NAMESPACE",
    "GIT_CEILING_DIRECTORIES",
    "GIT_CONFIG",
    "GIT_CONFIG_PARAMETERS",
    "GIT_CONFIG_COUNT",
    "GIT_CONFIG_SYSTEM",
    "GIT_ALLOW_PROTOCOL",
    "GIT_SSH",
    "GIT_SSH_COMMAND",
    "GIT_SSH_VARIANT",
    "GIT_PROXY_COMMAND",
    "GIT_TEMPLATE_DIR",
    "GIT_EXTERNAL_DIFF",
];

/// Variables set in git's environment.
const SET: &[(&str, &str)] = &[
    ("GIT_TERMINAL_PROMPT", "0"),
    ("GIT_ASKPASS", ""),
    ("SSH_ASKPASS", ""),
    ("SSH_ASKPASS_REQUIRE", "never"),
    ("GIT_CONFIG_NOSYSTEM", "1"),
    ("GIT_PROTOCOL_FROM_USER", "0"),
    ("GIT_ATTR_NOSYSTEM", "1"),
];

/// The file that stands for no configuration.
#[cfg(unix)]
const NO_FILE: &str = "/dev/null";
#[cfg(not(unix))]
const NO_FILE: &str = "NUL";

/// How long git may print nothing, by default: a server slow to start sending a pack of a
/// large repository takes tens of seconds, and git reports progress while a pack arrives.
const IDLE: Duration = Duration::from_secs(120);

/// How many times the silent time git may run in all: half an hour by default, for a clone
/// a slow link takes that long to bring.
const TOTAL_TIMES_IDLE: u32 = 15;

/// The variable that sets the deadline, in seconds: `IDLE` (then the whole is fifteen times
/// it) or `IDLE,TOTAL`. Longer for a slow link; the tests make it short.
pub const DEADLINE_VARIABLE: &str = "SKILLDECK_GIT_TIMEOUT";

/// The deadline every git command is held to.
pub fn deadline() -> Deadline {
    let given = std::env::var(DEADLINE_VARIABLE).ok();
    deadline_of(given.as_deref())
}

fn deadline_of(given: Option<&str>) -> Deadline {
    let seconds = |text: &str| {
        text.trim()
            .parse::<f64>()
            .ok()
            .filter(|s| s.is_finite() && *s > 0.0 && *s < 1e7)
            .map(Duration::from_secs_f64)
    };
    let (idle, total) = match given.map(|g| g.split_once(',').unwrap_or((g, ""))) {
        Some((idle, total)) => (seconds(idle), seconds(total)),
        None => (None, None),
    };
    let idle = idle.unwrap_or(IDLE);
    Deadline {
        idle,
        total: total.unwrap_or(idle * TOTAL_TIMES_IDLE).max(idle),
    }
}

/// Git, for one repository named `what` in its sentences.
pub struct Git<'a> {
    pub what: &'a str,
    pub deadline: Deadline,
    /// The folder git writes what it fetches into, and the most it may hold.
    pub writes: Option<Writes>,
}

/// The most standard output gathered from a command whose answer is a line or a few: a
/// `rev-parse`, an `ls-remote` for one ref.
pub const SHORT_ANSWER: usize = 1024 * 1024;

impl Git<'_> {
    /// The hardened command for `args` in `cwd`.
    pub fn command(cwd: Option<&Path>, args: &[&OsStr]) -> Command {
        let mut command = Command::new("git");
        for setting in CONFIG {
            command.arg("-c").arg(setting);
        }
        command.args(args);
        for variable in CLEARED {
            command.env_remove(variable);
        }
        command.envs(SET.iter().copied());
        command.env("GIT_CONFIG_GLOBAL", NO_FILE);
        if let Some(cwd) = cwd {
            command.current_dir(cwd);
        }
        command
    }

    /// Run git with `args` in `cwd`, gathering at most [`SHORT_ANSWER`] bytes of its output.
    pub fn run(&self, cwd: Option<&Path>, args: &[&OsStr]) -> Result<String, FetchError> {
        let mut gathered = Gathered::new(SHORT_ANSWER);
        let ran = self.stream(cwd, args, None, &mut |chunk| gathered.take(chunk))?;
        if gathered.over {
            return Err(FetchError::Failed {
                what: self.what.to_owned(),
                message: format!(
                    "git {} printed more than {SHORT_ANSWER} bytes",
                    shown_command(args)
                ),
            });
        }
        self.judge(args, ran)?;
        Ok(String::from_utf8_lossy(&gathered.bytes).into_owned())
    }

    /// Run git with `args` in `cwd` and `input`, handing its output to `out`; the run as it
    /// ended, for [`Git::judge`].
    pub fn stream(
        &self,
        cwd: Option<&Path>,
        args: &[&OsStr],
        input: Option<Vec<u8>>,
        out: &mut dyn FnMut(&[u8]) -> std::ops::ControlFlow<()>,
    ) -> Result<Ran, FetchError> {
        let command = Self::command(cwd, args);
        let writes = self.writes.as_ref();
        child::run_writing(command, input, self.deadline, writes, out).map_err(|error| match error
            .kind()
        {
            io::ErrorKind::NotFound => FetchError::NoGit,
            _ => FetchError::Unrunnable {
                what: self.what.to_owned(),
                error: crate::fs::said(&error).to_string(),
            },
        })
    }

    /// A run that did not exit with success as the sentence that says why.
    pub fn judge(&self, args: &[&OsStr], ran: Ran) -> Result<(), FetchError> {
        let what = self.what.to_owned();
        let said = said(&ran.stderr.text());
        let with_said = |sentence: String| match &said {
            Some(said) => format!("{sentence} (git said: {said})"),
            None => sentence,
        };
        match ran.end {
            End::Exited(status) if status.success() => Ok(()),
            End::Exited(status) => Err(FetchError::Failed {
                what,
                message: said
                    .unwrap_or_else(|| format!("git {} ended with {status}", shown_command(args))),
            }),
            End::Silent(idle) => Err(FetchError::Failed {
                what,
                message: with_said(format!(
                    "the server sent nothing for {} seconds, so git was stopped (set {DEADLINE_VARIABLE} to wait longer)",
                    idle.as_secs_f64()
                )),
            }),
            End::TooLong(total) => Err(FetchError::Failed {
                what,
                message: with_said(format!(
                    "git was still running after {} seconds, so it was stopped (set {DEADLINE_VARIABLE}=IDLE,TOTAL to wait longer)",
                    total.as_secs_f64()
                )),
            }),
            End::Overgrown(most) => Err(FetchError::Failed {
                what,
                message: format!(
                    "what the server sent took more than {} MiB on disk, more than an import may read, so git was stopped",
                    most / (1024 * 1024)
                ),
            }),
            End::Stopped => Err(FetchError::Failed {
                what,
                message: format!("git {} was stopped", shown_command(args)),
            }),
        }
    }
}

/// What git said, for a sentence: its lines made safe for a terminal, without the progress
/// reports (progress.c redraws one ending in `\r`, and ends its last with `, done.`).
fn said(stderr: &str) -> Option<String> {
    let lines: Vec<String> = stderr
        .split('\n')
        .flat_map(|line| line.rsplit('\r').next())
        .filter(|line| !line.trim_end().ends_with(", done."))
        .flat_map(sanitize::lines)
        .map(|line| line.trim().to_owned())
        .filter(|line| !line.is_empty())
        .collect();
    (!lines.is_empty()).then(|| lines.join("; "))
}

fn shown_command(args: &[&OsStr]) -> String {
    args.first()
        .map(|a| a.to_string_lossy().into_owned())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_deadline_is_read_from_its_variable_and_bad_values_are_the_default() {
        assert_eq!(
            deadline_of(None),
            Deadline {
                idle: IDLE,
                total: IDLE * TOTAL_TIMES_IDLE
            }
        );
        let secs = Duration::from_secs;
        assert_eq!(deadline_of(Some("2")).idle, secs(2));
        assert_eq!(deadline_of(Some("2")).total, secs(30));
        assert_eq!(
            deadline_of(Some("2,5")),
            Deadline {
                idle: secs(2),
                total: secs(5)
            }
        );
        // A total shorter than the silence allowed is the silence.
        assert_eq!(deadline_of(Some("9,5")).total, secs(9));
        for bad in ["", "x", "-1", "0", "inf", "NaN", "1e99"] {
            assert_eq!(deadline_of(Some(bad)).idle, IDLE, "{bad}");
        }
    }

    #[test]
    fn a_fetch_whose_pack_outgrows_the_bound_is_stopped_with_a_sentence() {
        let tmp = tempfile::tempdir().unwrap();
        let (upstream, into) = (tmp.path().join("upstream"), tmp.path().join("into"));
        std::fs::create_dir_all(&upstream).unwrap();
        std::fs::create_dir_all(&into).unwrap();
        let setup = |cwd: &Path, words: &[&str]| {
            let status = std::process::Command::new("git")
                .args(["-c", "user.name=t", "-c", "user.email=t@t"])
                .args(words)
                .current_dir(cwd)
                .output()
                .unwrap();
            assert!(status.status.success(), "{status:?}");
        };
        setup(&upstream, &["init", "--quiet"]);
        // Noise does not compress: the pack is as large as the file.
        let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
        let noise: Vec<u8> = (0..2 * 1024 * 1024)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                state.to_le_bytes()[0]
            })
            .collect();
        std::fs::write(upstream.join("noise.bin"), noise).unwrap();
        setup(&upstream, &["add", "noise.bin"]);
        setup(&upstream, &["commit", "--quiet", "-m", "noise"]);
        let url = format!("file://{}", upstream.display());
        let fetch = |most: u64| {
            let git = Git {
                what: "the test repository",
                deadline: deadline_of(None),
                writes: Some(Writes {
                    dir: into.clone(),
                    most,
                }),
            };
            let _ = std::fs::remove_dir_all(&into);
            std::fs::create_dir_all(&into).unwrap();
            let init = ["init", "--quiet", "--bare", "--template="];
            let init: Vec<&OsStr> = init.iter().map(OsStr::new).collect();
            git.run(Some(&into), &init).unwrap();
            let words = ["fetch", "--depth", "1", "--", url.as_str(), "HEAD"];
            let words: Vec<&OsStr> = words.iter().map(OsStr::new).collect();
            git.run(Some(&into), &words)
        };
        match fetch(512 * 1024) {
            Err(FetchError::Failed { message, .. }) => {
                assert!(message.contains("on disk"), "{message}");
            }
            other => panic!("{other:?}"),
        }
        fetch(16 * 1024 * 1024).unwrap();
    }

    #[test]
    fn progress_is_left_out_of_what_git_said() {
        let stderr = "remote: Enumerating objects: 5, done.        \nremote: Counting objects:  20% (1/5)        \rremote: Counting objects: 100% (5/5), done.\nfatal: the remote end hung up\n";
        assert_eq!(said(stderr).unwrap(), "fatal: the remote end hung up");
        assert_eq!(said("\x1b]52;c;evil\x07fatal: x\n").unwrap(), "fatal: x");
        assert_eq!(said("Receiving objects: 1%\r"), None);
        assert_eq!(said(""), None);
    }

    #[test]
    fn the_command_reads_no_configuration_and_allows_only_the_protocols_read() {
        let command = Git::command(None, &[OsStr::new("version")]);
        let args: Vec<String> = command
            .get_args()
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        for setting in [
            "core.fsmonitor=false",
            "core.hooksPath=/dev/null",
            "credential.helper=",
            "protocol.allow=never",
        ] {
            assert!(args.iter().any(|a| a == setting), "{setting}");
        }
        let envs: Vec<(String, Option<String>)> = command
            .get_envs()
            .map(|(k, v)| {
                (
                    k.to_string_lossy().into_owned(),
                    v.map(|v| v.to_string_lossy().into_owned()),
                )
            })
            .collect();
        let value = |name: &str| envs.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone());
        assert_eq!(value("GIT_TERMINAL_PROMPT"), Some(Some("0".into())));
        assert_eq!(value("GIT_CONFIG_GLOBAL"), Some(Some(NO_FILE.into())));
        assert_eq!(value("GIT_SSH_COMMAND"), Some(None));
        assert_eq!(value("GIT_CONFIG_PARAMETERS"), Some(None));
    }
}
