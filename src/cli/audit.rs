//! `skilldeck audit [SKILL|PATH|SOURCE]...`: what each skill's text and scripts would do
//! before it runs, for people and for CI. Read-only; exit 0 when nothing is at or above
//! `--fail-on`, 1 when something is, 2 when something could not be checked.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::audit::{self, Class, Finding, InMemory, Report, Request, Severity};
use crate::bundle::Bundle;
use crate::operations::import;
use crate::operations::progress::Step;
use crate::roots::Machine;
use crate::source::{self, Source};
use crate::text::human::count;

use super::{Failure, Outcome};

const AFTER_HELP: &str = "\
audit reads each skill's SKILL.md, its other text files and its scripts, and says what they
would make an agent (or your machine) do, one finding a line:

  SEVERITY  SKILL  FILE:LINE  RULE  what the text would do: `the text`

Classes: hidden-text (invisible Unicode, instructions in HTML comments), prompt-injection
(overriding the system or the user, hiding actions, approving everything), remote-exec
(downloads piped into a shell, exec of fetched code, iex), exfiltration (environment, files
or keys sent out, DNS included), credential-access (SSH and cloud keys, .netrc, git
credentials, browser cookies, keychains), obfuscation (encoded payloads decoded and run;
encoded text is decoded and judged again), destructive (deleting the home, wiping disks),
persistence (shell start-up files, cron, git hooks, launch agents, Run keys),
permission-escalation (agents' permission settings, bypass flags, unrestricted
allowed-tools, sudoers), binary (compiled programs shipped in the skill).

A skill that warns against something (\"never pipe curl into sh\"), shows it in a block led in
by a warning, or quotes an attack phrase as an example is judged low, not high. Nothing is run
and nothing is written.

What to audit:
  (nothing)   every skill installed on this machine, as `skilldeck list` finds them
  SKILL       an installed skill, by name (`pdf`, `plugin:skill`)
  PATH        a skill folder (it holds SKILL.md), or a folder of skills; a .tar, .tar.gz, .tgz,
              .zip or .skill archive
  SOURCE      a git repository (URL, or OWNER/REPO on GitHub, optionally @REF), fetched
              shallow with your git into a temporary folder, as `import` fetches it

Exit codes: 0 nothing at or above --fail-on; 1 a finding at or above it; 2 a skill, a file or a
source could not be read (a finding at or above --fail-on still exits 1).

Formats: text (one finding a line, then a summary on standard error); json
({\"findings\": [{\"skill\", \"file\", \"line\", \"rule\", \"class\", \"severity\", \"message\"}]});
sarif (SARIF 2.1.0, for GitHub code scanning: high is error, medium warning, low note).

Examples:
  skilldeck audit                                 every installed skill
  skilldeck audit pdf                             one installed skill
  skilldeck audit ./my-skill --fail-on medium     in an author's CI
  skilldeck audit skills/ --format sarif > audit.sarif
  skilldeck audit anthropics/skills --format json";

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Text,
    Json,
    Sarif,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum FailOn {
    High,
    Medium,
    Low,
}

impl FailOn {
    pub(super) fn severity(self) -> Severity {
        match self {
            FailOn::High => Severity::High,
            FailOn::Medium => Severity::Medium,
            FailOn::Low => Severity::Low,
        }
    }
}

#[derive(Debug, clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct Args {
    /// Installed skills by name, skill folders, folders of skills, archives or git
    /// repositories [default: every installed skill]
    #[arg(value_name = "SKILL|PATH|SOURCE")]
    targets: Vec<String>,
    /// How to report what was found
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// The least severity that makes the exit code 1
    #[arg(long, value_enum, default_value = "high", value_name = "SEVERITY")]
    fail_on: FailOn,
}

/// What is audited: folders on disk, and bundles read from archives and repositories.
#[derive(Default)]
struct Targets {
    folders: Vec<Request>,
    bundles: Vec<Bundle>,
    /// Sources that could not be read, each a sentence.
    unread: Vec<String>,
}

pub fn run(args: &Args, machine: &Machine) -> Result<Outcome, Failure> {
    let targets = targets(args, machine)?;
    let mut report = audit::audit(&targets.folders);
    // Where each skill's files are, for SARIF's locations.
    let mut dirs: BTreeMap<String, String> = targets
        .folders
        .iter()
        .map(|request| (request.skill.clone(), shown_dir(&request.dir)))
        .collect();
    for bundle in &targets.bundles {
        for skill in &bundle.skills {
            let audited = audit::audit_in_memory(
                &skill.name,
                skill.files.iter().map(|file| InMemory {
                    path: &file.path,
                    bytes: &file.content,
                    executable: file.executable,
                }),
            );
            report.findings.extend(audited.findings);
            report.partly.extend(audited.partly);
            dirs.entry(skill.name.clone())
                .or_insert_with(|| skill.origin.clone());
        }
    }
    let skills = targets.folders.len()
        + targets
            .bundles
            .iter()
            .map(|b| b.skills.len())
            .sum::<usize>();
    match args.format {
        Format::Text => super::print(&text(&report))?,
        Format::Json => super::json::print(&as_json(&report))?,
        Format::Sarif => super::json::print(&sarif(&report, &dirs))?,
    }
    let unchecked: Vec<String> = targets
        .unread
        .iter()
        .cloned()
        .chain(report.unreadable.iter().map(ToString::to_string))
        .collect();
    let mut notes = String::new();
    for partly in &report.partly {
        let _ = writeln!(notes, "skilldeck: {partly}");
    }
    let _ = writeln!(notes, "{}", summary(skills, &report));
    super::eprint(&notes)?;
    let failing = report
        .findings
        .iter()
        .any(|finding| finding.severity >= args.fail_on.severity());
    if failing {
        Ok(Outcome::Negative)
    } else if unchecked.is_empty() {
        Ok(Outcome::Done)
    } else {
        Err(Failure::Unchecked(unchecked.join("\n")))
    }
}

/// Every skill the arguments name; every installed skill when there are none.
fn targets(args: &Args, machine: &Machine) -> Result<Targets, Failure> {
    let mut targets = Targets::default();
    let mut inventory = None;
    let mut scanned = || -> crate::scan::Inventory { super::scan(machine) };
    if args.targets.is_empty() {
        let inventory = scanned();
        targets.folders = inventory
            .skills
            .iter()
            .map(|skill| Request {
                skill: skill.name.clone(),
                dir: skill.dir.clone(),
            })
            .collect();
        return Ok(targets);
    }
    for arg in &args.targets {
        let path = Path::new(arg);
        match std::fs::metadata(path) {
            Ok(meta) if meta.is_dir() => {
                for dir in super::lint::skills_at(path)? {
                    targets.folders.push(Request {
                        skill: super::lint::dir_name(&dir),
                        dir,
                    });
                }
                continue;
            }
            Ok(_) => {
                match import::read(path) {
                    Ok(bundle) => targets.bundles.push(bundle),
                    Err(refusal) => targets.unread.push(format!("{arg}: {refusal}")),
                }
                continue;
            }
            Err(_) => {}
        }
        let inventory = inventory.get_or_insert_with(&mut scanned);
        let named = super::target::matching(inventory, arg);
        if !named.is_empty() {
            targets
                .folders
                .extend(named.into_iter().map(|skill| Request {
                    skill: skill.name.clone(),
                    dir: skill.dir.clone(),
                }));
            continue;
        }
        if source::names_repository(arg)
            && let Source::Git(spec) = source::parse(path, None)
        {
            match import::read_git(&spec, &mut |step: Step<'_>| {
                if let Step::Said(said) = step {
                    let _ = super::eprint(&format!("skilldeck: {said}\n"));
                }
            }) {
                Ok(from) => targets.bundles.push(from.bundle),
                Err(error) => targets.unread.push(format!("{arg}: {error}")),
            }
            continue;
        }
        return Err(Failure::Usage(format!(
            "{arg} is no installed skill, no folder and no repository{}",
            super::target::did_you_mean(inventory, arg)
        )));
    }
    Ok(targets)
}

/// A skill's folder as SARIF points at it: relative to the current directory when inside it.
fn shown_dir(dir: &Path) -> String {
    let absolute = std::path::absolute(dir).unwrap_or_else(|_| dir.to_path_buf());
    let relative = std::env::current_dir()
        .ok()
        .and_then(|cwd| absolute.strip_prefix(cwd).ok().map(PathBuf::from));
    relative
        .unwrap_or(absolute)
        .to_string_lossy()
        .replace('\\', "/")
}

fn location(finding: &Finding) -> String {
    if finding.line == 0 {
        finding.file.clone()
    } else {
        format!("{}:{}", finding.file, finding.line)
    }
}

fn text(report: &Report) -> String {
    let mut out = String::new();
    for finding in &report.findings {
        let _ = writeln!(
            out,
            "{:<6}  {}  {}  {}  {}",
            finding.severity,
            finding.skill,
            location(finding),
            finding.rule,
            finding.message
        );
    }
    out
}

/// The last line, on standard error: how many skills, and what was found at each severity.
fn summary(skills: usize, report: &Report) -> String {
    let audited = count(skills, "skill");
    if report.findings.is_empty() {
        return format!("{audited} audited: nothing found.");
    }
    let by: Vec<String> = Severity::ALL
        .iter()
        .rev()
        .map(|severity| {
            let n = report
                .findings
                .iter()
                .filter(|f| f.severity == *severity)
                .count();
            format!("{n} {severity}")
        })
        .collect();
    let with: std::collections::BTreeSet<&str> =
        report.findings.iter().map(|f| f.skill.as_str()).collect();
    format!(
        "{} ({}).",
        super::lint::found_in(
            skills,
            "audited",
            report.findings.len(),
            "finding",
            with.len()
        ),
        by.join(", ")
    )
}

/// One finding as `--format json` gives it, its keys in this order.
#[derive(Serialize)]
struct FindingJson<'a> {
    skill: &'a str,
    file: &'a str,
    line: usize,
    rule: &'a str,
    class: Class,
    severity: Severity,
    message: &'a str,
}

#[derive(Serialize)]
struct AuditJson<'a> {
    findings: Vec<FindingJson<'a>>,
}

fn as_json(report: &Report) -> AuditJson<'_> {
    AuditJson {
        findings: report
            .findings
            .iter()
            .map(|finding| FindingJson {
                skill: &finding.skill,
                file: &finding.file,
                line: finding.line,
                rule: finding.rule,
                class: finding.class,
                severity: finding.severity,
                message: &finding.message,
            })
            .collect(),
    }
}

/// The SARIF level of a finding of `severity` (`verify --fail-on` gives it too).
pub(super) fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::High => "error",
        Severity::Medium => "warning",
        Severity::Low => "note",
    }
}

/// Every rule of the audit, as SARIF's driver names them: its id, and its class, severity and
/// message (`verify --fail-on` adds them to its own).
pub(super) fn sarif_rules() -> Vec<(&'static str, String)> {
    audit::rules::RULES
        .iter()
        .map(|rule| {
            let text = format!("{} ({}): {}", rule.class, rule.severity, rule.message);
            (rule.id, text)
        })
        .collect()
}

fn sarif(report: &Report, dirs: &BTreeMap<String, String>) -> serde_json::Value {
    let described = sarif_rules();
    let rules: Vec<(&str, &str)> = described
        .iter()
        .map(|(id, text)| (*id, text.as_str()))
        .collect();
    let results: Vec<super::sarif::Result<'_>> = report
        .findings
        .iter()
        .map(|finding| {
            let dir = dirs.get(&finding.skill).map_or("", String::as_str);
            let uri = if dir.is_empty() {
                finding.file.clone()
            } else {
                format!("{}/{}", dir.trim_end_matches('/'), finding.file)
            };
            super::sarif::Result {
                rule: finding.rule,
                level: level(finding.severity),
                message: format!("{}: {}", finding.skill, finding.message),
                uri,
                line: (finding.line > 0).then_some(finding.line),
            }
        })
        .collect();
    super::sarif::log(&rules, &results)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_class_is_named_in_the_help() {
        for class in Class::ALL {
            assert!(AFTER_HELP.contains(class.as_str()), "{class}");
        }
    }
}
