//! `skilldeck import SOURCE`: read a bundle whole, show what it holds, and install its skills
//! with skilldeck's record — or say in one sentence why not, with nothing written.

use std::fmt::Write as _;
use std::path::PathBuf;

use crate::bundle::{Bundle, BundledSkill};
use crate::install::InstallError;
use crate::operations::import::risk::{self, Risky, Verdict};
use crate::operations::import::{
    self, FromGit, ImportError, Loaders, NoDestination, Preview, Read, Report, Request,
};
use crate::operations::progress::{Cancel, Step};
use crate::operations::shadow::WouldShadow;
use crate::roots::Machine;
use crate::roots::{AgentId, Scope};
use crate::source::{self, Source};

use super::agent_args::{ScopeArg, agent_id};
use super::agents::AllAgents;
use super::json::{self, DestinationJson, ImportedJson, PreviewJson, ShadowJson};
use super::progress::Reporter;
use super::{Failure, Outcome};
use crate::text::human::{self, count};

#[derive(Debug, clap::Args)]
#[command(after_help = SOURCES)]
pub struct Args {
    /// A folder, a .tar, a .tar.gz or .tgz, a .zip or .skill; or a git repository: its URL, a
    /// path to it, or OWNER/REPO on GitHub, each optionally followed by @REF
    source: PathBuf,
    /// The folder of the git repository to import from, relative to its top
    #[arg(long, value_name = "SUB")]
    path: Option<String>,
    /// Install into this skills folder
    #[arg(long, value_name = "DIR", conflicts_with = "agent")]
    to: Option<PathBuf>,
    /// Install into this agent's skills folder: any agent id of `skilldeck list --all-agents`
    /// (claude-code, codex, opencode, gemini-cli, copilot or github-copilot, cursor, goose,
    /// windsurf, amp, cline, ... — the README's agent table lists them all)
    #[arg(long, value_name = "ID", value_parser = agent_id)]
    agent: Option<AgentId>,
    /// With --agent: the agent's folder for this user, or for this project [default: user]
    #[arg(long, value_enum)]
    scope: Option<ScopeArg>,
    /// Import only this skill of the bundle (repeatable) [default: every skill]
    #[arg(long = "skill", value_name = "NAME")]
    skills: Vec<String>,
    /// Read and judge the bundle (and the destination, when given), and write nothing
    #[arg(long)]
    dry_run: bool,
    /// Replace a skill that was edited since skilldeck installed it, or that someone else
    /// installed
    #[arg(long)]
    force: bool,
    /// Install even when `skilldeck audit` finds something of high severity in the bundle
    /// (a download piped into a shell, a key sent out, hidden instructions...); the preview
    /// (--dry-run) shows every finding
    #[arg(long)]
    accept_risk: bool,
    /// Print JSON (the shapes in docs/json.md) instead of sentences
    #[arg(long)]
    json: bool,
    // With --dry-run and a destination: name every agent that would load the skills there.
    #[command(flatten)]
    agents: AllAgents,
}

/// How a source is told apart, after the options in `--help`.
const SOURCES: &str = "\
Sources:
  A path that exists is read as it is on disk, so a folder named like OWNER/REPO beats the
  GitHub shorthand (write ./OWNER/REPO to be plain about it). A folder that is a git
  repository's top is fetched from its commits (uncommitted changes are not imported).
  A URL (https://, ssh://, git://, file://, or user@host:path) is a git repository, and
  OWNER/REPO is https://github.com/OWNER/REPO.git. @REF picks a branch, a tag or a full
  commit id (the default branch otherwise). Repositories are fetched with your own git
  program, shallow, into a temporary folder removed after; where each skill came from is
  recorded, for `outdated` and `update`.";

pub fn run(args: &Args, machine: &Machine) -> Result<Outcome, Failure> {
    let destination = match destination(args, machine) {
        Ok(destination) => destination,
        Err(Failure::Refused(why)) => return refused(args, "destination_conflict", &why),
        Err(failure) => return Err(failure),
    };
    let read = match source::parse(&args.source, args.path.as_deref()) {
        Source::Local(_) if args.path.is_some() => {
            return Err(Failure::Usage(format!(
                "--path picks a folder of a git repository, and {} is not one; name the folder to import instead",
                args.source.display()
            )));
        }
        Source::Local(path) => match import::read(&path) {
            Ok(bundle) => Read::Local(bundle),
            Err(refusal) => return refused(args, refusal.code(), &refusal),
        },
        Source::Git(spec) => match import::read_git(&spec, &mut |step: Step<'_>| {
            if let Step::Said(said) = step {
                let _ = super::eprint(&format!("skilldeck: {said}\n"));
            }
        }) {
            Ok(from) => Read::Git(from),
            Err(error) => return refused(args, error.code(), &error),
        },
    };
    // What each chosen skill would do, judged from the bytes read, for the preview; whether
    // it refuses the install is the import's own rule (`ImportError::Risky`).
    let chosen = read.bundle().select(&args.skills).unwrap_or_default();
    let verdicts = risk::verdicts(&chosen);
    let request = Request {
        skills: args.skills.clone(),
        force: args.force,
        all_agents: args.agents.all_agents,
        accept_risk: args.accept_risk,
    };
    let root = match (destination, args.dry_run) {
        (Some(root), false) => root,
        (root, dry_run) => {
            let preview = match import::preview(machine, read.bundle(), &request, root.as_deref()) {
                Ok(preview) => preview,
                Err(error) => return refused_by(args, error),
            };
            if !dry_run {
                return Err(Failure::Usage(
                    "say where to install: --to DIR, or --agent ID [--scope user|project] (or --dry-run to only look)"
                        .to_owned(),
                ));
            }
            let shadowing = preview.into.as_ref().map(|into| into.shadowing.as_slice());
            warn_of(shadowing.unwrap_or_default(), true)?;
            if let Some(into) = &preview.into {
                warn_distrusting(&into.loaders, true)?;
            }
            return show_preview(args, read.bundle(), &preview, read.from_git(), &verdicts);
        }
    };
    let reporter = Reporter::on_stderr("installing files");
    let mut progress = |step: Step<'_>| {
        if let Step::Files { done, total, .. } = step {
            reporter.update(done, total);
        }
    };
    let result = import::run(
        machine,
        &read,
        &request,
        &root,
        &mut progress,
        &Cancel::new(),
    );
    reporter.finish();
    match result {
        Ok(report) => said(args, &report),
        Err(error) => refused_by(args, error),
    }
}

/// What an import did, in sentences or JSON, then its warnings; an import that could not keep
/// its baselines ends as stopped.
fn said(args: &Args, report: &Report<'_>) -> Result<Outcome, Failure> {
    let outcome = done(args, report)?;
    if let Some(risky) = &report.risk_accepted {
        super::eprint(&format!(
            "skilldeck: warning: installed with the risk accepted: {risky}\n"
        ))?;
    }
    warn_of(&report.shadowing, false)?;
    warn_distrusting(&report.loaders, false)?;
    // Installed where nothing will load it: said, since it is rarely what was meant.
    if report.read_by_none() {
        super::eprint(&format!(
            "skilldeck: no agent reads {}, so no agent will load what was installed there; --agent ID installs into an agent's own folder\n",
            report.loaders.root.display()
        ))?;
    }
    super::warn_unjournalled(report.unjournalled.as_ref())?;
    super::say_lock_upkeep(&report.lock)?;
    for unrecorded in &report.unrecorded {
        super::eprint(&format!("skilldeck: warning: {unrecorded}\n"))?;
    }
    let missed = &report.missed_baselines;
    match missed.first() {
        // Installed, but without the snapshot later diffs and restores start from: the
        // work did not end as it should, so the exit says so.
        Some(first) => Err(Failure::Stopped(format!(
            "installed as listed, but {} could not be kept ({first}); `skilldeck snapshot` takes {} once the data folder can be written",
            human::count(missed.len(), "baseline snapshot"),
            if missed.len() == 1 { "it" } else { "them" },
        ))),
        None => Ok(outcome),
    }
}

/// A refusal with its code, or the failure that stopped the import.
fn refused_by(args: &Args, error: ImportError) -> Result<Outcome, Failure> {
    match error {
        ImportError::Refused(refusal) => refused(args, refusal.code(), &refusal),
        ImportError::Conflict(conflict) => refused(args, conflict.code(), &conflict),
        ImportError::Risky(risky) => refused(
            args,
            risky.code(),
            &format!(
                "{risky}; `--dry-run` shows every finding, `--accept-risk` installs it anyway"
            ),
        ),
        ImportError::Cancelled => Err(Failure::Install(InstallError::Cancelled)),
        ImportError::Install(error) => Err(Failure::Install(error)),
    }
}

/// The root the skills go to, if the arguments name one.
fn destination(args: &Args, machine: &Machine) -> Result<Option<PathBuf>, Failure> {
    if args.scope.is_some() && args.agent.is_none() {
        return Err(Failure::Usage(
            "--scope picks one of an agent's folders: give --agent ID with it".to_owned(),
        ));
    }
    if let Some(dir) = &args.to {
        return std::path::absolute(dir)
            .map(Some)
            .map_err(|error| Failure::Usage(format!("--to {}: {error}", dir.display())));
    }
    let Some(agent) = args.agent else {
        return Ok(None);
    };
    let scope = match args.scope {
        Some(ScopeArg::Project) => Scope::Project,
        Some(ScopeArg::User) | None => Scope::User,
    };
    match import::destination(machine, agent, scope) {
        Ok(root) => Ok(Some(root)),
        Err(error @ NoDestination::None { .. }) => Err(Failure::Usage(error.to_string())),
        Err(error @ NoDestination::OutsideProject { .. }) => {
            Err(Failure::Refused(error.to_string()))
        }
    }
}

/// Each shadowing on stderr, as a warning: what `would` happen on a dry run, what will once
/// installed.
fn warn_of(shadowing: &[(&BundledSkill, WouldShadow)], would: bool) -> Result<(), Failure> {
    for (skill, shadow) in shadowing {
        let sentence = import::shadow_sentence(shadow, would, &|path| path.display().to_string());
        super::eprint(&format!("skilldeck: warning: {}: {sentence}\n", skill.name))?;
    }
    Ok(())
}

/// Once per agent that will not load what goes to the destination because it does not trust
/// the project (Gemini CLI in an untrusted folder), with how to trust it.
fn warn_distrusting(loaders: &Loaders, would: bool) -> Result<(), Failure> {
    for distrusting in loaders.distrusting_judged() {
        let will = if would { "would not" } else { "will not" };
        super::eprint(&format!(
            "skilldeck: warning: {} {will} load the skills in {}: {}\n",
            distrusting.agent,
            loaders.root.display(),
            distrusting.why
        ))?;
    }
    Ok(())
}

fn shadow_json<'a>(shadowing: &'a [(&'a BundledSkill, WouldShadow)]) -> Vec<ShadowJson<'a>> {
    shadowing
        .iter()
        .map(|(skill, shadow)| ShadowJson::new(&skill.name, shadow))
        .collect()
}

fn refused(
    args: &Args,
    code: &'static str,
    why: &dyn std::fmt::Display,
) -> Result<Outcome, Failure> {
    super::refused_as(args.json, code, why)
}

/// `loaded there by codex, cline (21 more read it but are not installed here)`.
pub(super) fn loaded_by(loaders: &Loaders) -> String {
    let shown = loaders.shown();
    let hidden = loaders.readers.len() - shown.len();
    let ids: Vec<&str> = shown.iter().map(|a| a.id()).collect();
    let by = match (ids.is_empty(), loaders.readers.is_empty()) {
        (_, true) if !loaders.distrusting.is_empty() => {
            "no agent loads that folder in this project (see the warning)".to_owned()
        }
        (_, true) => "no agent reads that folder".to_owned(),
        (true, false) => "no agent installed here reads that folder".to_owned(),
        (false, false) => format!("loaded there by {}", ids.join(", ")),
    };
    if hidden == 0 {
        by
    } else {
        format!("{by} ({hidden} more read it, not installed here: --all-agents names them)")
    }
}

fn show_preview(
    args: &Args,
    bundle: &Bundle,
    preview: &Preview<'_>,
    from_git: Option<&FromGit>,
    verdicts: &[Verdict<'_>],
) -> Result<Outcome, Failure> {
    let chosen = preview.chosen.as_slice();
    let steps = preview.into.as_ref().map(|into| into.steps.as_slice());
    let destination = preview.into.as_ref().map(|into| &into.loaders);
    if args.json {
        let mut json = PreviewJson::new(bundle, chosen, steps, verdicts);
        json.upstream = from_git.map(|from| &from.upstream);
        json.shadowing = preview
            .into
            .as_ref()
            .map(|into| shadow_json(&into.shadowing));
        json.destination = destination.map(|d| DestinationJson {
            dir: d.root.to_string_lossy(),
            agents: d.shown(),
            installed_agents: &d.installed,
            all_agents: d.all,
        });
        json::print(&json)?;
        return Ok(Outcome::Done);
    }
    let mut out = String::new();
    if let Some(from) = from_git {
        let upstream = &from.upstream;
        let _ = writeln!(
            out,
            "from {}{}, commit {}{}",
            upstream.repository,
            upstream
                .reference
                .as_ref()
                .map(|r| format!(" at {r}"))
                .unwrap_or_default(),
            upstream.commit,
            if upstream.path.is_empty() {
                String::new()
            } else {
                format!(", folder {}", upstream.path)
            }
        );
    }
    if let Some(destination) = destination {
        let _ = writeln!(
            out,
            "into {}: {}",
            destination.root.display(),
            loaded_by(destination)
        );
    }
    // Grouped by the folder of the bundle each came from, in the bundle's order otherwise.
    let mut grouped: Vec<&BundledSkill> = chosen.to_vec();
    grouped.sort_by(|a, b| a.folder.cmp(&b.folder));
    let mut folder: Option<&str> = None;
    for skill in grouped {
        if folder != Some(skill.folder.as_str()) {
            folder = Some(skill.folder.as_str());
            if skill.folder.is_empty() {
                let _ = writeln!(out, "at the bundle's top:");
            } else {
                let _ = writeln!(out, "in {}/:", skill.folder);
            }
        }
        let _ = write!(
            out,
            "{}  {}, {}",
            skill.name,
            count(skill.files.len(), "file"),
            human::size(skill.size())
        );
        match steps.and_then(|s| s.iter().find(|step| step.skill.name == skill.name)) {
            Some(step) => {
                let _ = writeln!(out, "  would be {} at {}", step.action, step.dir.display());
            }
            None => out.push('\n'),
        }
        for file in &skill.files {
            let mode = if file.executable { "  executable" } else { "" };
            let _ = writeln!(out, "  {:>9}  {}{mode}", file.content.len(), file.path);
        }
        for lint in &skill.declared.lints {
            let _ = writeln!(out, "  ! {lint}");
        }
        if let Some(verdict) = verdicts.iter().find(|v| v.skill.name == skill.name) {
            out.push_str(&verdict_lines(verdict));
        }
    }
    if !bundle.left_out.is_empty() {
        let _ = writeln!(out, "{}", left_out(&bundle.left_out));
    }
    if !bundle.set_aside.is_empty() {
        let _ = writeln!(out, "set aside as metadata: {}", bundle.set_aside.len());
    }
    if !bundle.passed_over.is_empty() {
        let _ = writeln!(out, "{}", passed_over(&bundle.passed_over));
    }
    for note in &bundle.notes {
        let _ = writeln!(out, "note: {note}");
    }
    if let Some(risky) = Risky::of(verdicts) {
        let n = risky.findings.len();
        let _ = writeln!(
            out,
            "Installing would be refused: {} of high severity; --accept-risk installs anyway.",
            count(n, "finding")
        );
    }
    let files: usize = chosen.iter().map(|skill| skill.files.len()).sum();
    let bytes: u64 = chosen.iter().map(|skill| skill.size()).sum();
    let _ = writeln!(
        out,
        "Dry run: {} ({}, {}) {}; nothing was written.",
        count(chosen.len(), "skill"),
        count(files, "file"),
        human::size(bytes),
        match destination {
            Some(destination) => format!("would be installed into {}", destination.root.display()),
            None => "chosen; --to DIR or --agent ID installs them".to_owned(),
        }
    );
    super::print(&out)?;
    Ok(Outcome::Done)
}

/// What `skilldeck audit` says of one skill of the preview: a line, then each finding of
/// medium or high severity (the low ones counted).
fn verdict_lines(verdict: &Verdict<'_>) -> String {
    let mut out = String::new();
    match verdict.highest() {
        None => {
            let _ = writeln!(out, "  audit: nothing found");
        }
        Some(highest) => {
            let _ = writeln!(
                out,
                "  audit: {}, the most severe {highest}",
                count(verdict.findings.len(), "finding")
            );
        }
    }
    for finding in &verdict.findings {
        if finding.severity > crate::audit::Severity::Low {
            let _ = writeln!(
                out,
                "  ! {} {}:{} {}: {}",
                finding.severity, finding.file, finding.line, finding.rule, finding.message
            );
        }
    }
    out
}

/// The bundle's files outside every skill, summarised by the folder they are in (a repository
/// leaves out hundreds: its docs, its tests); `--json` lists each one.
fn left_out(paths: &[String]) -> String {
    const SHOWN: usize = 8;
    // Below the folder they all share (an archive's `repo-main/`), by the folder each is in.
    let shared = paths
        .iter()
        .map(|path| path.rsplit_once('/').map_or("", |(dir, _)| dir))
        .reduce(|a, b| {
            let common = a
                .split('/')
                .zip(b.split('/'))
                .take_while(|(x, y)| x == y)
                .count();
            let end = a
                .split('/')
                .take(common)
                .map(|part| part.len() + 1)
                .sum::<usize>();
            &a[..end.saturating_sub(1).min(a.len())]
        })
        .unwrap_or("");
    // Each group with its first file, which stands for it when it is the only one.
    let mut groups: Vec<(String, usize, &str)> = Vec::new();
    for path in paths {
        let rest = if shared.is_empty() {
            path.as_str()
        } else {
            path.strip_prefix(shared)
                .map_or(path.as_str(), |rest| rest.trim_start_matches('/'))
        };
        let group = match rest.split_once('/') {
            Some((top, _)) if shared.is_empty() => format!("{top}/"),
            Some((top, _)) => format!("{shared}/{top}/"),
            None => path.clone(),
        };
        match groups.iter_mut().find(|(g, _, _)| *g == group) {
            Some((_, n, _)) => *n += 1,
            None => groups.push((group, 1, path)),
        }
    }
    groups.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    let mut shown: Vec<String> = groups
        .iter()
        .take(SHOWN)
        .map(|(group, n, first)| match n {
            1 => (*first).to_owned(),
            n => format!("{group} ({n})"),
        })
        .collect();
    if groups.len() > SHOWN {
        shown.push(format!("and {} more", groups.len() - SHOWN));
    }
    let all = if paths.len() > SHOWN {
        "; --json lists every one"
    } else {
        ""
    };
    format!(
        "left out, outside every skill: {}: {}{all}",
        count(paths.len(), "file"),
        shown.join(", ")
    )
}

/// The `SKILL.md` files not taken as skills, each with why, the first few named.
fn passed_over(passed: &[crate::bundle::PassedOver]) -> String {
    const SHOWN: usize = 8;
    let mut named: Vec<String> = passed
        .iter()
        .take(SHOWN)
        .map(|p| format!("{} ({})", p.path, p.why))
        .collect();
    if passed.len() > SHOWN {
        named.push(format!(
            "and {} more; --json lists every one",
            passed.len() - SHOWN
        ));
    }
    format!(
        "not taken as skills: {}: {}",
        count(passed.len(), "SKILL.md file"),
        named.join("; ")
    )
}

/// What was installed, each skill with the lint problems of its `SKILL.md`, as the dry run
/// shows them: installing does not make them go away.
fn done(args: &Args, report: &Report<'_>) -> Result<Outcome, Failure> {
    let lints = |name: &str| {
        report
            .chosen
            .iter()
            .find(|skill| skill.name == name)
            .map(|skill| {
                skill
                    .declared
                    .lints
                    .iter()
                    .map(ToString::to_string)
                    .collect()
            })
            .unwrap_or_default()
    };
    if args.json {
        let mut imported =
            ImportedJson::new(&report.installed, lints, shadow_json(&report.shadowing));
        for skill in &mut imported.installed {
            skill.upstream = report
                .from_git
                .zip(report.chosen.iter().find(|c| c.name == skill.name))
                .map(|(from, chosen)| from.upstream_of(chosen));
        }
        imported.lock = json::LockKeptJson::of(&report.lock);
        json::print(&imported)?;
    } else {
        let mut out = String::new();
        for skill in &report.installed {
            let _ = writeln!(
                out,
                "{} {} at {}",
                skill.action,
                skill.name,
                skill.dir.display()
            );
            for lint in lints(&skill.name) {
                let _ = writeln!(out, "  ! {lint}");
            }
        }
        super::print(&out)?;
    }
    Ok(Outcome::Done)
}

#[cfg(test)]
mod tests {
    use super::left_out;

    fn paths(list: &[&str]) -> Vec<String> {
        list.iter().map(|p| (*p).to_owned()).collect()
    }

    #[test]
    fn left_out_files_are_summed_up_by_folder_below_the_one_they_share() {
        let said = left_out(&paths(&["repo/b/c.md", "repo/b/d/e.md", "repo/x.md"]));
        assert_eq!(
            said,
            "left out, outside every skill: 3 files: repo/b/ (2), repo/x.md"
        );
        let said = left_out(&paths(&["README.md", "docs/x.md", "docs/y.md"]));
        assert_eq!(
            said,
            "left out, outside every skill: 3 files: docs/ (2), README.md"
        );
        // A folder with one file left out is named by that file.
        let said = left_out(&paths(&[
            "r/.claude-plugin/marketplace.json",
            "r/README.md",
        ]));
        assert_eq!(
            said,
            "left out, outside every skill: 2 files: r/.claude-plugin/marketplace.json, r/README.md"
        );
        let said = left_out(&paths(&["repo/docs/a.md"]));
        assert_eq!(
            said,
            "left out, outside every skill: 1 file: repo/docs/a.md"
        );
    }

    #[test]
    fn many_folders_are_cut_short_and_json_named_for_the_rest() {
        let many: Vec<String> = (0..20).map(|i| format!("r/dir{i:02}/f.md")).collect();
        let said = left_out(&many);
        assert!(
            said.contains("r/dir00/f.md, ")
                && said.ends_with(", and 12 more; --json lists every one"),
            "{said}"
        );
        assert!(said.len() < 200, "{said}");
    }
}
