//! The budget view: moving between the agents and the skills in the listing of the one under
//! the cursor, marking skills, and the list's own turn off, turn on and remove on the marked
//! skills (or the one under the cursor), which go through the managing flow as from the list.
//! The skills' uses arriving from their worker are taken in here too.

use super::{manage, notify, rows_of, shared, step, warn};
use crate::tui::app::App;
use crate::tui::budget::{BudgetView, UsageView, Uses};
use crate::tui::keymap::{self, Mode};
use crate::tui::manage::Target;
use crate::tui::model::SkillView;
use crate::tui::msg::{Action, Effect};
use crate::tui::views::View;
use crate::tui::workers::Stopped;

/// Whether the skill list's `action` is one of the budget's: opening it, or the filter by use.
pub(super) fn from_list(action: Action) -> bool {
    matches!(action, Action::ShowBudget | Action::CycleUnused)
}

/// The budget's actions from the skill list.
pub(super) fn list_act(app: &mut App, action: Action) -> Vec<Effect> {
    if action == Action::CycleUnused {
        cycle_unused(app);
        app.refresh();
        return super::skills::follow_selection(app);
    }
    open(app)
}

/// Open the budget view on the first agent with a listing.
fn open(app: &mut App) -> Vec<Effect> {
    if app.deck.budgets.is_empty() {
        warn(
            app,
            "No agent installed here has a listing skilldeck can tell (Claude Code, Codex, Gemini CLI, OpenCode).",
        );
        return Vec::new();
    }
    app.views.open_budget(BudgetView::default());
    Vec::new()
}

pub(super) fn act(app: &mut App, action: Action) -> Vec<Effect> {
    let Some(&view) = app.views.budget() else {
        return Vec::new();
    };
    let agents = app.deck.budgets.agents.len();
    let rows = rows_of_agent(app, view.agent);
    if let Some(by) = rows_of(action, app.panes.budget.page) {
        return move_by(app, by);
    }
    match action {
        Action::Back | Action::ShowBudget => {
            app.views.close(View::Budget);
            Vec::new()
        }
        Action::NextPane => {
            set(app, (view.agent + 1) % agents.max(1), 0);
            Vec::new()
        }
        Action::PreviousPane => {
            set(app, (view.agent + agents.max(1) - 1) % agents.max(1), 0);
            Vec::new()
        }
        Action::ToggleMark => {
            if let Some(target) = under_cursor(app) {
                if !app.marked.remove(&target.dir) {
                    app.marked.insert(target.dir);
                }
                set(app, view.agent, step(view.selected, 1, rows));
            }
            Vec::new()
        }
        Action::ClearMarks => manage::act(app, action).unwrap_or_default(),
        Action::Remove | Action::Disable | Action::Enable => {
            let skills = if app.marked.is_empty() {
                under_cursor(app).into_iter().collect()
            } else {
                app.targets()
            };
            manage::on_skills(app, action, skills)
        }
        _ => shared(app, action).unwrap_or_default(),
    }
}

/// Move the cursor among the agent's skills by `by` rows (the wheel, a key).
pub(super) fn move_by(app: &mut App, by: i32) -> Vec<Effect> {
    if let Some(&view) = app.views.budget() {
        let rows = rows_of_agent(app, view.agent);
        set(app, view.agent, step(view.selected, by, rows));
    }
    Vec::new()
}

fn rows_of_agent(app: &App, agent: usize) -> usize {
    app.deck
        .budgets
        .agents
        .get(agent)
        .map_or(0, |a| a.entries.len())
}

fn set(app: &mut App, agent: usize, selected: usize) {
    if let Some(view) = app.views.budget_mut() {
        *view = BudgetView { agent, selected };
    }
}

/// The skill under the budget view's cursor, as an action's target; a built-in shipped inside
/// the agent is none, said in the status line.
fn under_cursor(app: &mut App) -> Option<Target> {
    let view = app.views.budget().copied()?;
    let agent = app.deck.budgets.agents.get(view.agent)?;
    let entry = agent.entries.get(view.selected)?;
    let Some(dir) = &entry.dir else {
        let text = format!(
            "{} is built into {}: it has no folder to turn off or remove.",
            entry.name, agent.name
        );
        warn(app, &text);
        return None;
    };
    app.skill_at(dir).map(SkillView::target)
}

/// The skills' uses, read after the scan: the list's column and order follow, the cursor stays
/// on the skill it was on.
pub(super) fn usage_arrived(app: &mut App, result: Result<Box<UsageView>, Stopped>) -> Vec<Effect> {
    app.usage_rereading = false;
    match result {
        Ok(view) => {
            let mut text = format!(
                "Usage read from {}",
                crate::text::human::count(view.files, "session file")
            );
            if view.unread > 0 {
                text.push_str(&format!(
                    "; {} older ones left unread (bounds)",
                    view.unread
                ));
            }
            text.push('.');
            app.deck.set_usage(Uses::Read(*view));
            // Said where the person waits for the uses; elsewhere the list's column shows them
            // arrive, and the scan's summary stays in the status line. A notice either way:
            // the answer to what the person just did stays until they do something else.
            if app.status.is_none() || waits_for_uses(app) {
                notify(app, &text, false);
            }
        }
        Err(stopped) => {
            let why = stopped.to_string();
            app.deck.set_usage(Uses::Failed(why.clone()));
            notify(app, &why, true);
        }
    }
    app.refresh();
    super::skills::follow_selection(app)
}

/// Whether what is on screen is waiting for the uses: the budget view, the list filtered or
/// sorted by them.
fn waits_for_uses(app: &App) -> bool {
    app.views.budget().is_some()
        || app.filter.unused_days.is_some()
        || app.sort == crate::tui::model::Sort::LastUsed
}

/// The "not used in N days" filter, on to its next span or off.
fn cycle_unused(app: &mut App) {
    app.filter.unused_days = super::cycle(app.filter.unused_days.as_ref(), &UNUSED_DAYS, true);
    if app.filter.unused_days.is_some() && app.deck.usage.view().is_none() {
        let budget = keymap::key_for(Mode::Skills, Action::ShowBudget);
        let text = format!(
            "The uses are not read yet: every skill is shown until they are ({budget} shows what each costs meanwhile)."
        );
        warn(app, &text);
    }
}

/// The spans the filter cycles through, in days.
const UNUSED_DAYS: [u64; 3] = [7, 30, 90];
