//! The runner: writes a machine into a fresh [`Lab`], asks the agents in parallel threads
//! (each with the suite's own `ask`), runs skilldeck after them (Codex and Copilot write into
//! the home at their first start) and compares with the suite's `compare`.

use std::collections::{BTreeMap, BTreeSet};
use std::ffi::OsStr;
use std::path::Path;

use super::super::{Agent, Check, Lab, Loaded, claims, compare};
use super::machine::{Cwd, Item, Machine};

/// One agent's answer: its listing, or why it gave none (its `ask` panicked).
pub type Answer = Result<Vec<Loaded>, String>;

/// One agent's disagreement on one machine.
#[derive(Clone, Debug)]
pub struct Disagreement {
    pub agent: Agent,
    /// The suite's message, lab paths shortened (`~`, `<proj>`, `<lab>`).
    pub diff: String,
    /// The rows only one side lists, `agent: KEY` or `skilldeck: KEY`, paths shortened: the
    /// shrinker keeps a smaller machine only while one of these persists.
    pub rows: BTreeSet<String>,
}

/// What one run of a machine gave.
pub struct Run {
    /// Each agent's listing, shortened and sorted (`error: …` when it gave none).
    pub answers: BTreeMap<Agent, Vec<String>>,
    pub disagreements: Vec<Disagreement>,
}

/// Write `machine` into a fresh lab and compare `agents` with skilldeck; `None` without the
/// agents (said by [`Lab::new`]).
pub fn run(machine: &Machine, agents: &[Agent]) -> Option<Run> {
    let mut lab = Lab::new()?;
    machine.write(&mut lab);
    // A machine with Claude Code's managed settings (`<lab>/sys/etc/claude-code`): Claude Code
    // is started under an overlay of it on `/etc`, skilldeck told of it.
    if lab.root.join("sys/etc/claude-code").is_dir() {
        super::super::claude_code::managed(&mut lab);
    }
    let lab = lab;
    let cwd = machine.cwd.place().path(&lab);
    // skilldeck is asked before the agents are: an agent may write its own files as it starts
    // (Claude Code records an install for a plugin the user's settings enable), and
    // skilldeck's answer is about the machine as the user left it, which each agent found. A
    // machine where the user has run Codex holds the system skills it writes at every start
    // before it lists them; the lab's fresh home gets them the same way (`Lab::warm`).
    lab.warm(agents);
    if machine.items.iter().any(names_a_relative_folder) {
        lab.warm_in(agents, &cwd);
    }
    let json = lab.skilldeck_json(&cwd);
    let claimed = claims(&lab, &json);
    // Started through a link, skilldeck must also agree when given the link as `--project`
    // from elsewhere, resolving it as the agents' working directory is resolved.
    let given = (machine.cwd == Cwd::Linked).then(|| {
        let flag = [OsStr::new("--project"), cwd.as_os_str()];
        claims(&lab, &lab.skilldeck_json_in(&lab.outside, &flag))
    });
    let answers: Vec<(Agent, Answer)> = std::thread::scope(|scope| {
        let asked: Vec<_> = agents
            .iter()
            .map(|&agent| {
                let (lab, cwd) = (&lab, &cwd);
                (agent, scope.spawn(move || lab.ask(agent, cwd)))
            })
            .collect();
        asked
            .into_iter()
            .map(|(agent, handle)| (agent, handle.join().map_err(|e| panic_text(&*e))))
            .collect()
    });
    // An agent that gave no listing is asked once more, alone: a cold start on a loaded
    // machine can pass the suite's 60-second limit (Copilot unpacks itself into each new home).
    let answers: Vec<(Agent, Answer)> = answers
        .into_iter()
        .map(|(agent, answer)| match answer {
            Ok(listed) => (agent, Ok(listed)),
            // skilldeck says a skill there stops the agent's whole listing (Amp's `name` that
            // is not text, which then hangs until the limit): asking again would only wait out
            // the same failure.
            Err(why) if super::super::listing_may_fail(&json, agent) => (agent, Err(why)),
            Err(_) => {
                let again = std::thread::scope(|scope| scope.spawn(|| lab.ask(agent, &cwd)).join());
                (agent, again.map_err(|e| panic_text(&*e)))
            }
        })
        .collect();
    let mut out = Run {
        answers: BTreeMap::new(),
        disagreements: Vec::new(),
    };
    for (agent, answer) in answers {
        let said = claimed.get(&agent).cloned().unwrap_or_default();
        out.answers.insert(agent, listing(&lab, &answer));
        let may_fail = super::super::listing_may_fail(&json, agent);
        if let Some(found) = disagreement(&lab, &cwd, agent, &answer, &said, may_fail) {
            out.disagreements.push(found);
        } else if let Some(given) = &given {
            let said = given.get(&agent).cloned().unwrap_or_default();
            if let Some(mut found) = disagreement(&lab, &cwd, agent, &answer, &said, may_fail) {
                found.diff = format!(
                    "skilldeck given --project {}: {}",
                    lab.short(&cwd.to_string_lossy()),
                    found.diff
                );
                out.disagreements.push(found);
            }
        }
    }
    Some(out)
}

fn disagreement(
    lab: &Lab,
    cwd: &Path,
    agent: Agent,
    answer: &Answer,
    said: &[Loaded],
    may_fail: bool,
) -> Option<Disagreement> {
    let listed = match answer {
        Ok(listed) => listed,
        // skilldeck said a skill there may stop the agent's whole listing.
        Err(_) if may_fail => return None,
        Err(why) => {
            let diff = format!("the agent gave no listing: {}", lab.short(why));
            return Some(Disagreement {
                agent,
                rows: BTreeSet::from([diff.clone()]),
                diff,
            });
        }
    };
    let cwds = [cwd];
    // Built-ins too: which of them an agent loads is what some classes vary (Codex's
    // `[skills.bundled]`, Claude Code's `disableBundledSkills`).
    let check = Check::new("generate", "generated machine", &[], &cwds).builtins();
    let diff = compare(&check, agent, listed, said)?;
    Some(Disagreement {
        agent,
        diff: lab.short(&diff),
        rows: rows(lab, listed, said),
    })
}

/// The rows only one side lists, keyed as `compare` keys them (built-ins included, a name
/// skilldeck calls unsettled by name alone).
fn rows(lab: &Lab, listed: &[Loaded], said: &[Loaded]) -> BTreeSet<String> {
    let (listed, said) = super::super::comparison_keys(listed, said, true, false);
    let (listed, said): (BTreeSet<String>, BTreeSet<String>) = (
        listed.iter().map(|k| lab.short(k)).collect(),
        said.iter().map(|k| lab.short(k)).collect(),
    );
    let agent = listed.difference(&said).map(|k| format!("agent: {k}"));
    let skilldeck = said.difference(&listed).map(|k| format!("skilldeck: {k}"));
    agent.chain(skilldeck).collect()
}

/// An answer as recorded for the drift report: one row per skill, sorted.
fn listing(lab: &Lab, answer: &Answer) -> Vec<String> {
    match answer {
        Ok(listed) => {
            let mut rows: Vec<String> = listed
                .iter()
                .map(|row| lab.short(&row.key(false)))
                .collect();
            rows.sort();
            rows
        }
        Err(why) => vec![format!(
            "error: {}",
            lab.short(why).lines().next().unwrap_or("")
        )],
    }
}

fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| (*s).to_owned()))
        .unwrap_or_else(|| "a panic without a message".to_owned())
}

/// With `SKILLDECK_AGREE_RECORD=DIR`, each agent's answer to case `case` goes to
/// `DIR/CASE/AGENT.txt`, so that two runs (two agent versions, say) can be diffed.
pub fn record(case: &str, run: &Run) {
    let Some(dir) = std::env::var_os("SKILLDECK_AGREE_RECORD").filter(|d| !d.is_empty()) else {
        return;
    };
    let dir = Path::new(&dir).join(case);
    std::fs::create_dir_all(&dir).expect("record folder");
    for (agent, rows) in &run.answers {
        let mut text = rows.join("\n");
        text.push('\n');
        std::fs::write(dir.join(format!("{}.txt", agent.id())), text).expect("record an answer");
    }
}

/// A home variable (`CODEX_HOME`, `OPENCODE_CONFIG_DIR`…) set to a relative path, which the
/// agents read from the folder they start in.
fn names_a_relative_folder(item: &Item) -> bool {
    matches!(item, Item::Env { name, value: Some(value) }
        if (name.ends_with("_HOME") || name.ends_with("_DIR"))
            && !value.is_empty()
            && !value.starts_with(['/', '{']))
}
