//! Managing skills: marks, and the actions that change what the agents load (remove, turn off
//! and on, link, copy, move, undo) and the ones a batch can do on every marked skill (snapshot,
//! accept, export). Each asks one question for all its skills, runs as one batch with one
//! progress, and ends with one summary; the inventory is scanned again after it. The pickers
//! that ask for an agent or a scope, the plan of a link shown before it is confirmed (its
//! shadowing confirmed a second time), and the view of every copy of a name are here too.

use crate::roots::{AgentId, Scope, Source};
use crate::text::sanitize;
use crate::tui::failed::{PlanError, TaskError};

use super::{note, rows_of, start_scan, step, warn};
use crate::tui::app::{App, Confirm, ExportPrompt, Overlay, Scan};
use crate::tui::keymap::{self, Mode};
use crate::tui::line::LineEdit;
use crate::tui::manage::{
    Batch, BatchEvent, Choice, Copies, Destination, How, Job, Pick, PlanView, Running, Summary,
    Target, Then, Value, count, listed, names,
};
use crate::tui::msg::{Action, Effect};
use crate::tui::views::View;

/// A managing action from the skill list, on the marked skills or the one under the cursor;
/// `None` for an action that is not one.
pub(super) fn act(app: &mut App, action: Action) -> Option<Vec<Effect>> {
    let effects = match action {
        Action::ToggleMark => toggle_mark(app),
        Action::ClearMarks => {
            let n = app.marked.len();
            app.marked.clear();
            note(app, &format!("{} unmarked.", count(n)));
            Vec::new()
        }
        Action::ToggleDisabled => {
            app.filter.disabled = !app.filter.disabled;
            app.refresh();
            super::skills::follow_selection(app)
        }
        Action::ShowCopies => open_copies(app),
        Action::Snapshot | Action::Accept | Action::Export if !app.marked.is_empty() => {
            let skills = app.targets();
            match action {
                Action::Snapshot => ask_batch(app, Job::Snapshot, skills),
                Action::Accept => ask_batch(app, Job::Accept, skills),
                _ => ask_export(app, skills),
            }
        }
        Action::Accept => {
            let targets = app.targets();
            match targets.into_iter().next() {
                Some(Target { name, dir, .. }) => {
                    super::start_task(app, Effect::Accept { name, dir })
                }
                None => Vec::new(),
            }
        }
        Action::Remove
        | Action::Disable
        | Action::Enable
        | Action::Link
        | Action::CopyTo
        | Action::MoveTo => {
            let skills = app.targets();
            on_skills(app, action, skills)
        }
        _ => return None,
    };
    Some(effects)
}

/// Remove, turn off or on, link, copy or move `skills`.
pub(super) fn on_skills(app: &mut App, action: Action, skills: Vec<Target>) -> Vec<Effect> {
    if skills.is_empty() {
        return Vec::new();
    }
    match action {
        Action::Remove => ask_batch(app, Job::Remove, skills),
        Action::Disable => pick_agent_to_switch(app, skills, true),
        Action::Enable => pick_agent_to_switch(app, skills, false),
        Action::Link => pick_agent_to_share(app, How::Link, skills),
        Action::CopyTo => pick_agent_to_share(app, How::Copy, skills),
        Action::MoveTo => pick_agent_to_share(app, How::Move, skills),
        _ => Vec::new(),
    }
}

/// Mark the skill under the cursor, or unmark it, and go to the next one (as yazi does), so
/// Space pressed again marks the next.
fn toggle_mark(app: &mut App) -> Vec<Effect> {
    let Some(dir) = app.selected_skill().map(|s| s.dir.clone()) else {
        return Vec::new();
    };
    if !app.marked.remove(&dir) {
        app.marked.insert(dir);
    }
    app.selected = step(app.selected, 1, app.visible.len());
    super::skills::follow_selection(app)
}

/// The question before a batch: how many skills, which, and what the job does to them.
fn ask_batch(app: &mut App, job: Job, skills: Vec<Target>) -> Vec<Effect> {
    let (title, yes, what) = question(&job, skills.len());
    let id = app.next_request();
    let mut lines = listed(&skills);
    if !what.is_empty() {
        lines.push(String::new());
        lines.push(what);
    }
    app.overlay = Overlay::Confirm(Confirm {
        title,
        lines,
        yes,
        effect: Effect::Run(Batch { id, job, skills }),
        then: None,
    });
    Vec::new()
}

/// What the question before `job` on `n` skills says: its title, its yes, and what the job
/// does (nothing for a link, copy or move, whose plan says it).
fn question(job: &Job, n: usize) -> (String, String, String) {
    let undo = keymap::key_for(Mode::Skills, Action::Undo);
    let skills = count(n);
    let (title, yes, what) = match job {
        Job::Remove => (
            format!("Remove {skills}?"),
            "remove",
            format!(
                "Each is snapshotted first and its folder (or only its link) removed; {undo} brings it back."
            ),
        ),
        Job::Snapshot => (
            format!("Snapshot {skills}?"),
            "snapshot",
            "A copy of each is kept in the snapshot store; the skills stay as they are.".to_owned(),
        ),
        Job::Accept => (
            format!("Accept {skills} as they are now?"),
            "accept",
            "What each holds now becomes its new baseline (a snapshot); changes are later diffed against it.".to_owned(),
        ),
        Job::Export { folder } => (
            format!("Export {skills}?"),
            "export",
            format!("One .tar.gz each, named after it, in {folder}; secrets removed; no file is replaced."),
        ),
        Job::Switch { agent, off, scope, whole_plugin } => {
            let mut what = format!(
                "Only {}'s {} settings change; the skills' files stay as they are, and {undo} puts the settings back.",
                agent.display_name(),
                crate::tui::manage::scope_name(*scope)
            );
            if *whole_plugin {
                what.push_str(" A plugin's skill is turned off with its whole plugin: every skill of that plugin goes off too.");
            }
            (
                format!(
                    "Turn {skills} {} for {}?",
                    if *off { "off" } else { "on" },
                    agent.display_name()
                ),
                if *off { "turn off" } else { "turn on" },
                what,
            )
        }
        Job::Share { to, .. } => (
            format!("{} {skills} to {}?", to.how.verb(), to.describe()),
            match to.how {
                How::Link => "link",
                How::Copy => "copy",
                How::Move => "move",
            },
            String::new(),
        ),
    };
    (title, yes.to_owned(), what)
}

/// The export of the marked skills asks for a folder, the one the app works in to begin with.
fn ask_export(app: &mut App, skills: Vec<Target>) -> Vec<Effect> {
    let text = if app.work_dir.is_empty() {
        ".".to_owned()
    } else {
        app.work_dir.clone()
    };
    app.overlay = Overlay::Export(ExportPrompt {
        name: names(&skills),
        dir: std::path::PathBuf::new(),
        text: LineEdit::new(text),
        batch: skills,
    });
    Vec::new()
}

/// The folder typed for the marked skills' archives: one question more, then the batch.
pub(super) fn export_to(app: &mut App, skills: Vec<Target>, folder: String) -> Vec<Effect> {
    ask_batch(app, Job::Export { folder }, skills)
}

/// Which agent to turn `skills` off (or on) for: the agents that read them, an agent with no
/// such setting shown with the sentence that says so and what works instead.
fn pick_agent_to_switch(app: &mut App, skills: Vec<Target>, off: bool) -> Vec<Effect> {
    let mut agents: Vec<AgentId> = Vec::new();
    for target in &skills {
        if let Some(skill) = app.skill_at(&target.dir) {
            let of = skill.agents.iter().chain(&skill.disabled_for);
            agents.extend(of.copied().filter(|a| app.shows_agent(*a)));
        }
    }
    agents.sort();
    agents.dedup();
    if agents.is_empty() {
        warn(
            app,
            &format!(
                "No agent shown loads {}, so there is nothing to turn {}.",
                names(&skills),
                if off { "off" } else { "on" }
            ),
        );
        return Vec::new();
    }
    let choices: Vec<Choice> = agents
        .iter()
        .map(|&agent| Choice {
            label: agent.display_name().to_owned(),
            refused: app.deck.no_switch_for(agent).map(str::to_owned),
            value: Value::Agent(Some(agent)),
        })
        .collect();
    // Turning on starts on an agent whose settings turn one of the skills off.
    let off_for = |agent: AgentId| {
        skills.iter().any(|t| {
            app.skill_at(&t.dir)
                .is_some_and(|s| s.disabled_for.contains(&agent))
        })
    };
    let selected = choices
        .iter()
        .position(|c| {
            c.refused.is_none() && (off || matches!(c.value, Value::Agent(Some(a)) if off_for(a)))
        })
        .or_else(|| choices.iter().position(|c| c.refused.is_none()))
        .unwrap_or(0);
    app.overlay = Overlay::Pick(Pick {
        title: format!(
            "Turn {} {} for which agent?",
            count(skills.len()),
            if off { "off" } else { "on" }
        ),
        lines: listed(&skills),
        choices,
        selected,
        then: Then::Switch { off, skills },
    });
    Vec::new()
}

/// Which agent a link, copy or move goes to: the skill's own agents (another scope), or any
/// agent shown.
fn pick_agent_to_share(app: &mut App, how: How, skills: Vec<Target>) -> Vec<Effect> {
    let mut choices = vec![Choice {
        label: "its own agents (another scope)".to_owned(),
        refused: None,
        value: Value::Agent(None),
    }];
    choices.extend(app.shown_agents().into_iter().map(|agent| Choice {
        label: agent.display_name().to_owned(),
        refused: None,
        value: Value::Agent(Some(agent)),
    }));
    app.overlay = Overlay::Pick(Pick {
        title: format!("{} {} to which agent?", how.verb(), count(skills.len())),
        lines: listed(&skills),
        choices,
        selected: 0,
        then: Then::ShareAgent { how, skills },
    });
    Vec::new()
}

/// A picker: move, choose, or step back.
pub(super) fn pick_act(app: &mut App, action: Action) -> Vec<Effect> {
    let Overlay::Pick(pick) = &mut app.overlay else {
        return Vec::new();
    };
    if let Some(rows) = rows_of(action, pick.choices.len()) {
        pick.selected = step(pick.selected, rows, pick.choices.len());
        return Vec::new();
    }
    match action {
        Action::Back => {
            app.overlay = Overlay::None;
            note(app, "Nothing was changed.");
            Vec::new()
        }
        Action::Choose => {
            let Some(choice) = pick.choices.get(pick.selected).cloned() else {
                return Vec::new();
            };
            if let Some(why) = choice.refused {
                warn(app, &why);
                return Vec::new();
            }
            let Overlay::Pick(pick) = std::mem::take(&mut app.overlay) else {
                return Vec::new();
            };
            chosen(app, pick.then, choice.value)
        }
        _ => Vec::new(),
    }
}

fn chosen(app: &mut App, then: Then, value: Value) -> Vec<Effect> {
    match (then, value) {
        (Then::Switch { off, skills }, Value::Agent(Some(agent))) => {
            // A project's skills are switched in the project's settings unless asked otherwise.
            let project = skills.iter().all(|t| {
                app.skill_at(&t.dir)
                    .is_some_and(|s| s.source == Source::Project)
            });
            let choices = vec![
                Choice {
                    label: "the user's settings (every project)".to_owned(),
                    refused: None,
                    value: Value::Scope(Scope::User),
                },
                Choice {
                    label: "this project's settings".to_owned(),
                    refused: None,
                    value: Value::Scope(Scope::Project),
                },
            ];
            app.overlay = Overlay::Pick(Pick {
                title: format!(
                    "Turn {} {} for {}: in which settings?",
                    count(skills.len()),
                    if off { "off" } else { "on" },
                    agent.display_name()
                ),
                lines: listed(&skills),
                choices,
                selected: usize::from(project),
                then: Then::SwitchScope { agent, off, skills },
            });
            Vec::new()
        }
        (Then::SwitchScope { agent, off, skills }, Value::Scope(scope)) => {
            let whole_plugin = off
                && skills.iter().any(|t| {
                    app.skill_at(&t.dir)
                        .is_some_and(|s| s.source == Source::Plugin)
                });
            let job = Job::Switch {
                agent,
                off,
                scope,
                whole_plugin,
            };
            ask_batch(app, job, skills)
        }
        (Then::ShareAgent { how, skills }, Value::Agent(agent)) => {
            let choices = [Scope::User, Scope::Project]
                .into_iter()
                .map(|scope| Choice {
                    label: format!("{} scope", crate::tui::manage::scope_name(scope)),
                    refused: None,
                    value: Value::Scope(scope),
                })
                .collect();
            let whom = agent.map_or_else(
                || "its own agents".to_owned(),
                |a| a.display_name().to_owned(),
            );
            app.overlay = Overlay::Pick(Pick {
                title: format!(
                    "{} {} to {whom}: which scope?",
                    how.verb(),
                    count(skills.len())
                ),
                lines: listed(&skills),
                choices,
                selected: 0,
                then: Then::ShareScope { how, agent, skills },
            });
            Vec::new()
        }
        (Then::ShareScope { how, agent, skills }, Value::Scope(scope)) => {
            let request = app.next_request();
            app.plan_request = request;
            app.tasks += 1;
            note(
                app,
                "Working out where each would go and what it would shadow…",
            );
            vec![Effect::Plan {
                request,
                to: Destination {
                    how,
                    agent,
                    scope,
                    all_agents: app.all_agents,
                },
                skills,
            }]
        }
        _ => Vec::new(),
    }
}

/// The plans of a link, copy or move: shown before anything is done, with what each would
/// shadow; a plan that shadows is confirmed a second time, as forced.
pub(super) fn planned(
    app: &mut App,
    request: u64,
    to: Destination,
    plans: Vec<(Target, Result<PlanView, PlanError>)>,
) -> Vec<Effect> {
    app.tasks = app.tasks.saturating_sub(1);
    if request != app.plan_request {
        return Vec::new();
    }
    app.status = None;
    let mut lines = Vec::new();
    let mut shadowing = Vec::new();
    let mut skills = Vec::new();
    for (target, plan) in plans {
        match plan {
            Ok(plan) => {
                // In words, not an arrow: a link points from where it is made to the folder,
                // the way the copy and the move go.
                let what = match to.how {
                    How::Link => format!("{} would be a link to {}", plan.to, plan.from),
                    How::Copy => format!("{} copied to {}", plan.from, plan.to),
                    How::Move => format!("{} moved to {}", plan.from, plan.to),
                };
                lines.push(format!("{}: {what}", target.name));
                for line in &plan.shadowing {
                    lines.push(format!("  ◐ {line}"));
                }
                shadowing.extend(
                    plan.shadowing
                        .iter()
                        .map(|l| format!("{}: {l}", target.name)),
                );
                skills.push(target);
            }
            Err(why) => lines.push(sanitize::line(&format!(
                "{}: not possible: {why}",
                target.name
            ))),
        }
    }
    if skills.is_empty() {
        app.overlay = Overlay::Summary(Summary {
            title: format!("Nothing to {}", to.how.verb().to_lowercase()),
            refused: lines,
            ..Summary::default()
        });
        return Vec::new();
    }
    if shadowing.is_empty() {
        lines.push(String::new());
        lines.push("Nothing would shadow or be shadowed.".to_owned());
    }
    let id = app.next_request();
    let batch = |force| Batch {
        id,
        job: Job::Share { to, force },
        skills: skills.clone(),
    };
    let second = (!shadowing.is_empty()).then(|| {
        let mut again = vec![
            "Another copy of the same name would then win, or lose, for these agents:".to_owned(),
        ];
        again.extend(shadowing.iter().cloned());
        again.push(String::new());
        again.push("Do it anyway?".to_owned());
        Box::new(Confirm {
            title: format!("{} would shadow: are you sure?", to.how.verb()),
            lines: again,
            yes: "do it anyway".to_owned(),
            effect: Effect::Run(batch(true)),
            then: None,
        })
    });
    let (title, yes, _) = question(&Job::Share { to, force: false }, skills.len());
    app.overlay = Overlay::Confirm(Confirm {
        title,
        lines,
        yes,
        effect: Effect::Run(batch(false)),
        then: second,
    });
    Vec::new()
}

/// `u`: find what an undo would put back, to ask first.
pub(super) fn ask_undo(app: &mut App) -> Vec<Effect> {
    app.tasks += 1;
    note(app, "Reading the journal…");
    vec![Effect::AskUndo]
}

/// What an undo would revert, as a question; or that there is nothing to undo.
pub(super) fn undo_next(
    app: &mut App,
    next: Result<Option<Vec<String>>, TaskError>,
) -> Vec<Effect> {
    app.tasks = app.tasks.saturating_sub(1);
    app.status = None;
    match next {
        Err(why) => app.messages.push(sanitize::line(&why.to_string())),
        Ok(None) => note(
            app,
            "Nothing to undo: every operation in the journal is undone.",
        ),
        Ok(Some(lines)) => {
            app.overlay = Overlay::Confirm(Confirm {
                title: "Undo the last operation?".to_owned(),
                lines,
                yes: "undo".to_owned(),
                effect: Effect::Undo,
                then: None,
            });
        }
    }
    Vec::new()
}

/// A batch handed to its worker: its progress replaces the keys until it ends.
pub(super) fn start(app: &mut App, batch: &Batch) {
    app.batch = Some(Running {
        id: batch.id,
        doing: batch.job.doing(),
        done: 0,
        total: batch.skills.len(),
        current: batch.skills.first().map(|s| s.name.clone()),
        stopping: false,
    });
}

/// News from a batch: progress, or its summary, after which the marks go and the skills are
/// scanned again.
pub(super) fn batch_event(app: &mut App, id: u64, event: BatchEvent) -> Vec<Effect> {
    let Some(running) = app.batch.as_mut().filter(|r| r.id == id) else {
        return Vec::new();
    };
    match event {
        BatchEvent::Progress { done, current } => {
            running.done = done;
            running.current = Some(current);
            Vec::new()
        }
        BatchEvent::Done(summary) => {
            app.batch = None;
            app.marked.clear();
            app.overlay = Overlay::Summary(summary);
            let mut effects = super::changed::refresh_diff(app);
            if !matches!(app.scan, Scan::Running(_)) {
                let kept = app.status.clone();
                effects.extend(start_scan(app));
                app.status = kept;
            }
            effects
        }
    }
}

/// While a batch runs only stopping it does anything.
pub(super) fn working_act(app: &mut App, action: Action) -> Vec<Effect> {
    let Some(running) = app.batch.as_mut() else {
        return Vec::new();
    };
    if action != Action::Back || running.stopping {
        return Vec::new();
    }
    running.stopping = true;
    let id = running.id;
    note(app, "Stopping after the skill under way…");
    vec![Effect::StopBatch { id }]
}

/// The view of every copy of the selected skill's name, when there is more than one.
fn open_copies(app: &mut App) -> Vec<Effect> {
    let Some(skill) = app.selected_skill() else {
        return Vec::new();
    };
    let (key, name, dir) = (
        skill.search_key.clone(),
        skill.name.clone(),
        skill.dir.clone(),
    );
    let rows: Vec<usize> = (0..app.deck.skills.len())
        .filter(|&i| app.deck.skills[i].search_key == key)
        .collect();
    if rows.len() < 2 {
        note(
            app,
            &format!(
                "{name} is the only copy of its name: nothing shadows it, and it shadows nothing."
            ),
        );
        return Vec::new();
    }
    let selected = rows
        .iter()
        .position(|&i| app.deck.skills[i].dir == dir)
        .unwrap_or(0);
    app.views.open_copies(Copies {
        key,
        name,
        selected,
    });
    Vec::new()
}

/// The copies view: move, act on the copy under the cursor, or close.
pub(super) fn copies_act(app: &mut App, action: Action) -> Vec<Effect> {
    let rows = app.copy_rows().len();
    if let Some(rows_moved) = rows_of(action, rows) {
        if let Some(copies) = app.views.copies_mut() {
            copies.selected = step(copies.selected, rows_moved, rows);
        }
        return Vec::new();
    }
    match action {
        Action::Back => {
            app.views.close(View::Copies);
            Vec::new()
        }
        Action::Remove | Action::Disable | Action::Enable | Action::MoveTo => {
            let skills: Vec<Target> = app
                .selected_copy()
                .map(|s| s.target())
                .into_iter()
                .collect();
            on_skills(app, action, skills)
        }
        _ => super::shared(app, action).unwrap_or_default(),
    }
}

/// The summary: any key that closes it.
/// A summary: closed, or closed for the question the undo of what it says asks.
pub(super) fn summary_act(app: &mut App, action: Action) -> Vec<Effect> {
    match action {
        Action::Back => {
            app.overlay = Overlay::None;
            Vec::new()
        }
        Action::Undo => {
            app.overlay = Overlay::None;
            ask_undo(app)
        }
        _ => Vec::new(),
    }
}

/// The wheel over a picker or the copies: the cursor moves.
pub(super) fn move_by(app: &mut App, rows: i32) -> Vec<Effect> {
    let copies = app.copy_rows().len();
    if let Overlay::Pick(pick) = &mut app.overlay {
        pick.selected = step(pick.selected, rows, pick.choices.len());
    } else if let Some(open) = app.views.copies_mut() {
        open.selected = step(open.selected, rows, copies);
    }
    Vec::new()
}
