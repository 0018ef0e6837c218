//! The budget view and the list's cost and last-use columns (issue 15): `update` driven by
//! messages alone (opening the view, moving between agents and skills, marking, turning off and
//! removing the marked skills through the managing flow, the uses arriving after the scan, the
//! "not used in N days" filter, the sorts), the view and the list drawn on a `TestBackend` at
//! 60×15, 80×24, 120×40 and 200×50 and recorded with insta, and the real workers on the demo
//! machine: its listings worked out after the scan, Claude Code's counters read after it.

use std::path::PathBuf;
use std::time::{Duration, SystemTime};

use ratatui::Terminal;
use ratatui::backend::TestBackend;

use crate::common::app::{Screen, settings};
use crate::common::deck::{deck, dir, laid, pane};
use skilldeck::demo::Sandbox;
use skilldeck::listing::{Budget, Entry, Listing, Shown, Unit};
use skilldeck::roots::AgentId;
use skilldeck::tui::app::{App, Overlay, Setup};
use skilldeck::tui::budget::{BudgetView, Budgets, UsageView, UseView, Uses};
use skilldeck::tui::geometry::Panes;
use skilldeck::tui::keymap::Mode;
use skilldeck::tui::manage::{Batch, Job, Then};
use skilldeck::tui::model::{Deck, Sort};
use skilldeck::tui::msg::{Action, Changes, Effect, Msg};
use skilldeck::tui::theme::Theme;
use skilldeck::tui::update::update;
use skilldeck::tui::view;
use skilldeck::usage::Evidence;

use Action::*;

const SIZES: [(u16, u16); 4] = [(60, 15), (80, 24), (120, 40), (200, 50)];
const DAY: u64 = 86_400;

/// The clock every test draws against: 2027-01-15T08:00:00Z.
fn now() -> SystemTime {
    SystemTime::UNIX_EPOCH + Duration::from_secs(1_800_000_000)
}

fn entry(name: &str, shown: Shown, chars: usize, description_chars: usize) -> Entry {
    Entry {
        name: name.to_owned(),
        dir: Some(dir(name)),
        read_at: None,
        shown,
        chars,
        description_shown: if shown == Shown::Full {
            description_chars
        } else {
            0
        },
        description_chars,
        description_known: true,
    }
}

/// Claude Code over its budget, two descriptions dropped; Codex within its; OpenCode with
/// none. A built-in `init` in Claude Code's listing.
fn listings() -> Vec<Listing> {
    let mut init = entry("init", Shown::Full, 67, 60);
    init.dir = None;
    vec![
        Listing {
            agent: AgentId::CLAUDE_CODE,
            model: "default model claude-test, 10,000 tokens".to_owned(),
            context_tokens: 10_000,
            budget: Some(Budget {
                limit: 400,
                unit: Unit::Characters,
                from: "1% of a 10,000-token context window, × 4 characters".to_owned(),
            }),
            chars: 429,
            used: 429,
            entries: vec![
                entry("alpha", Shown::Full, 320, 300),
                entry("beta", Shown::NameOnly, 20, 900),
                entry("delta", Shown::NameOnly, 22, 700),
                init,
            ],
            assumptions: Vec::new(),
        },
        Listing {
            agent: AgentId::CODEX,
            model: "default model gpt-test, 100,000 tokens".to_owned(),
            context_tokens: 100_000,
            budget: Some(Budget {
                limit: 2_000,
                unit: Unit::Tokens,
                from: "2% of a 100,000-token context window".to_owned(),
            }),
            chars: 600,
            used: 150,
            entries: vec![
                entry("beta", Shown::Full, 450, 420),
                entry("gamma", Shown::Full, 150, 120),
            ],
            assumptions: Vec::new(),
        },
        Listing {
            agent: AgentId::OPENCODE,
            model: "any model".to_owned(),
            context_tokens: 0,
            budget: None,
            chars: 80,
            used: 80,
            entries: vec![entry("漢字", Shown::Full, 80, 70)],
            assumptions: Vec::new(),
        },
    ]
}

/// Alpha used by Claude Code 3 days ago, beta by Codex 40 days ago; the others never.
fn uses() -> UsageView {
    let used = |agent, count, days: u64, from| UseView {
        agent,
        count,
        last: Some(now() - Duration::from_secs(days * DAY)),
        from,
    };
    UsageView::from_uses(
        vec![
            (
                dir("alpha"),
                vec![used(AgentId::CLAUDE_CODE, 3, 3, Evidence::Counter)],
            ),
            (
                dir("beta"),
                vec![used(AgentId::CODEX, 1, 40, Evidence::Sessions)],
            ),
        ],
        12,
    )
}

/// The small deck with its listings known and its uses being read, as the scan sends it.
fn scanned() -> Deck {
    let mut deck = deck()
        .with_installed(vec![
            AgentId::CLAUDE_CODE,
            AgentId::CODEX,
            AgentId::OPENCODE,
        ])
        .with_budgets(Budgets::of(&listings()));
    deck.set_usage(Uses::Reading);
    deck
}

fn start(deck: Deck) -> App {
    let mut app = App::new(Setup::default());
    update(&mut app, Msg::Started);
    update(&mut app, Msg::ScanDone(Box::new(deck)));
    update(&mut app, Msg::Changes(Ok(Changes::default())));
    update(&mut app, Msg::Tick(now()));
    update(
        &mut app,
        laid(Panes {
            list: pane(4, 0),
            budget: pane(3, 0),
            ..Panes::default()
        }),
    );
    app
}

/// After the scan, the uses not read yet.
fn reading() -> App {
    start(scanned())
}

/// After the scan and the uses.
pub fn budgeted() -> App {
    let mut app = reading();
    update(&mut app, Msg::Usage(Ok(Box::new(uses()))));
    app
}

/// The budget view open, the uses read.
fn open() -> App {
    let mut app = budgeted();
    update(&mut app, Msg::Action(ShowBudget));
    app
}

fn keys(actions: &[Action]) -> Vec<Msg> {
    actions.iter().copied().map(Msg::Action).collect()
}

fn names(app: &App) -> Vec<&str> {
    app.visible
        .iter()
        .map(|&i| app.deck.skills[i].name.as_str())
        .collect()
}

fn selected(app: &App) -> &str {
    app.selected_skill().map_or("", |s| s.name.as_str())
}

fn status(app: &App) -> &str {
    app.status.as_ref().map_or("", |s| s.text.as_str())
}

fn view_of(app: &App) -> BudgetView {
    *app.views.budget().expect("the budget view is open")
}

struct Case {
    name: &'static str,
    start: fn() -> App,
    msgs: fn() -> Vec<Msg>,
    check: fn(&App, &[Effect]),
}

const CASES: &[Case] = &[
    Case {
        name: "an action's answer stays when the uses arrive, even sorted by them; the next key shows them",
        start: || {
            let mut app = reading();
            app.sort = Sort::LastUsed;
            app
        },
        msgs: || {
            let mut msgs = keys(&[ToggleMouse]);
            msgs.push(Msg::Usage(Ok(Box::new(uses()))));
            msgs
        },
        check: |app, _| {
            assert!(status(app).starts_with("Mouse on"), "{}", status(app));
            let waiting = app.notice.as_ref().map(|n| n.text.as_str());
            assert_eq!(waiting, Some("Usage read from 12 session files."));
        },
    },
    Case {
        name: "the notice waiting is shown by the next key that says nothing, the newest one only",
        start: || {
            let mut app = reading();
            update(&mut app, Msg::Action(ShowBudget));
            app
        },
        msgs: || {
            // An answer: the marks cleared, said in the status line.
            let mut msgs = keys(&[ToggleMark, ClearMarks]);
            msgs.push(Msg::Usage(Ok(Box::new(uses()))));
            msgs.push(Msg::Usage(Err(skilldeck::tui::workers::Stopped {
                work: "Reading the skills' uses",
                panic: "boom".to_owned(),
            })));
            msgs.extend(keys(&[Down]));
            msgs
        },
        check: |app, _| {
            let shown = app.status.as_ref().expect("a notice is shown");
            assert!(shown.warning && shown.notice, "{shown:?}");
            assert!(app.notice.is_none());
        },
    },
    Case {
        name: "a scan's summary never takes the place of an answer",
        start: budgeted,
        msgs: || {
            let mut msgs = keys(&[ToggleMouse]);
            msgs.push(Msg::ScanDone(Box::new(scanned())));
            msgs
        },
        check: |app, _| {
            assert!(status(app).starts_with("Mouse on"), "{}", status(app));
            let waiting = app.notice.as_ref().map_or("", |n| n.text.as_str());
            assert!(waiting.starts_with("Found 6 skills"), "{waiting}");
        },
    },
    Case {
        name: "a task's result outlives the rescan it asked for, unless a key was pressed meanwhile",
        start: budgeted,
        msgs: || {
            let done = || Msg::TaskDone {
                result: Ok("Snapshot taken.".to_owned().into()),
                rescan: true,
            };
            let mut msgs = vec![done(), Msg::ScanDone(Box::new(scanned()))];
            msgs.extend([
                done(),
                Msg::Action(Down),
                Msg::ScanDone(Box::new(scanned())),
            ]);
            msgs
        },
        check: |app, _| {
            assert!(status(app).starts_with("Found 6 skills"), "{}", status(app));
            assert!(app.status.as_ref().unwrap().notice);
        },
    },
    Case {
        name: "a scan's summary on a free line is replaced by the uses waited for",
        start: || {
            let mut app = reading();
            app.sort = Sort::LastUsed;
            app
        },
        msgs: || vec![Msg::Usage(Ok(Box::new(uses())))],
        check: |app, _| assert_eq!(status(app), "Usage read from 12 session files."),
    },
    Case {
        name: "B opens the budget view on the first agent, its costliest skill",
        start: budgeted,
        msgs: || keys(&[ShowBudget]),
        check: |app, effects| {
            assert_eq!(app.mode(), Mode::Budget);
            assert_eq!(view_of(app), BudgetView::default());
            let claude = &app.deck.budgets.agents[0];
            assert_eq!(claude.name, "Claude Code");
            let costliest: Vec<&str> = claude.entries.iter().map(|e| e.name.as_str()).collect();
            assert_eq!(costliest, ["alpha", "init", "delta", "beta"]);
            assert_eq!((claude.full, claude.name_only), (2, 2));
            assert!(effects.is_empty());
        },
    },
    Case {
        name: "B with no agent's listing known says so and stays in the list",
        start: || start(deck()),
        msgs: || keys(&[ShowBudget]),
        check: |app, _| {
            assert_eq!(app.mode(), Mode::Skills);
            assert!(
                status(app).contains("No agent installed here"),
                "{}",
                status(app)
            );
        },
    },
    Case {
        name: "Tab goes to the next agent and its first skill, round to the first",
        start: open,
        msgs: || keys(&[Down, NextPane]),
        check: |app, _| {
            assert_eq!(
                view_of(app),
                BudgetView {
                    agent: 1,
                    selected: 0
                }
            )
        },
    },
    Case {
        name: "Shift-Tab from the first agent goes to the last",
        start: open,
        msgs: || keys(&[PreviousPane]),
        check: |app, _| assert_eq!(view_of(app).agent, 2),
    },
    Case {
        name: "the cursor moves among the agent's skills and stops at the last",
        start: open,
        msgs: || keys(&[Down, Down, Down, Down, Down]),
        check: |app, _| assert_eq!(view_of(app).selected, 3),
    },
    Case {
        name: "Space marks the skill under the cursor and goes to the next",
        start: open,
        msgs: || keys(&[ToggleMark]),
        check: |app, _| {
            assert!(app.marked.contains(&dir("alpha")));
            assert_eq!(view_of(app).selected, 1);
        },
    },
    Case {
        name: "a built-in cannot be marked: it has no folder, and the status says so",
        start: open,
        msgs: || keys(&[Down, ToggleMark]),
        check: |app, _| {
            assert!(app.marked.is_empty());
            assert!(
                status(app).contains("init is built into Claude Code"),
                "{}",
                status(app)
            );
        },
    },
    Case {
        name: "off with two marked asks which agent, for the two",
        start: open,
        msgs: || keys(&[ToggleMark, Down, ToggleMark, Disable]),
        check: |app, _| {
            let Overlay::Pick(pick) = &app.overlay else {
                panic!("{:?}", app.overlay);
            };
            let Then::Switch { off, skills } = &pick.then else {
                panic!("{:?}", pick.then);
            };
            assert!(*off);
            let dirs: Vec<&PathBuf> = skills.iter().map(|t| &t.dir).collect();
            assert_eq!(dirs, [&dir("alpha"), &dir("delta")]);
        },
    },
    Case {
        name: "remove with nothing marked asks about the skill under the cursor",
        start: open,
        msgs: || keys(&[Down, Down, Remove]),
        check: |app, _| {
            let Overlay::Confirm(question) = &app.overlay else {
                panic!("{:?}", app.overlay);
            };
            assert_eq!(question.title, "Remove 1 skill?");
            assert!(
                question.lines[0].starts_with("delta"),
                "{:?}",
                question.lines
            );
        },
    },
    Case {
        name: "Esc goes back to the list, the marks kept",
        start: open,
        msgs: || keys(&[ToggleMark, Back]),
        check: |app, _| {
            assert_eq!(app.mode(), Mode::Skills);
            assert!(app.views.budget().is_none());
            assert_eq!(app.marked.len(), 1);
        },
    },
    Case {
        name: "while the uses are read the app waits for them and says nothing of them",
        start: reading,
        msgs: Vec::new,
        check: |app, _| {
            assert!(matches!(app.deck.usage, Uses::Reading));
            assert!(app.waiting());
        },
    },
    Case {
        name: "the uses arriving after the scan fill the list without moving the cursor",
        start: reading,
        msgs: || {
            let mut msgs = keys(&[Down, Down]);
            msgs.push(Msg::Usage(Ok(Box::new(uses()))));
            msgs
        },
        check: |app, _| {
            assert_eq!(selected(app), "delta");
            assert_eq!(app.selected, 2);
            assert!(!app.usage_rereading);
            let view = app.deck.usage.view().unwrap();
            assert_eq!(view.count(&dir("alpha")), 3);
        },
    },
    Case {
        name: "the uses arriving say so where the person waits for them",
        start: || {
            let mut app = reading();
            update(&mut app, Msg::Action(ShowBudget));
            app
        },
        msgs: || vec![Msg::Usage(Ok(Box::new(uses())))],
        check: |app, _| assert_eq!(status(app), "Usage read from 12 session files."),
    },
    Case {
        name: "uses that could not be read leave a warning, and the app waits no more",
        start: reading,
        msgs: || {
            vec![Msg::Usage(Err(skilldeck::tui::workers::Stopped {
                work: "Reading the skills' uses",
                panic: "boom".to_owned(),
            }))]
        },
        check: |app, _| {
            assert!(matches!(app.deck.usage, Uses::Failed(_)));
            assert!(app.status.as_ref().unwrap().warning);
        },
    },
    Case {
        name: "a scan after the uses were read keeps them shown until it reads its own, the view open",
        start: open,
        msgs: || {
            let mut msgs = keys(&[NextPane, NextPane, Down]);
            // Only Codex's listing this time: the view's cursor is kept within it.
            let mut deck = deck().with_budgets(Budgets::of(&listings()[1..2]));
            deck.set_usage(Uses::Reading);
            msgs.push(Msg::ScanDone(Box::new(deck)));
            msgs
        },
        check: |app, _| {
            assert_eq!(
                view_of(app),
                BudgetView {
                    agent: 0,
                    selected: 0
                }
            );
            assert_eq!(app.deck.budgets.agents[0].name, "Codex");
            assert_eq!(app.deck.usage.view().unwrap().count(&dir("alpha")), 3);
            assert!(app.usage_rereading && app.waiting());
        },
    },
    Case {
        name: "n shows the skills not used in 7 days: alpha, used 3 days ago, is left out",
        start: budgeted,
        msgs: || keys(&[CycleUnused]),
        check: |app, _| {
            assert_eq!(app.filter.unused_days, Some(7));
            assert_eq!(names(app), ["beta", "delta", "epsilon", "gamma", "漢字"]);
        },
    },
    Case {
        name: "n three times: not used in 90 days leaves beta out too; a fourth shows all",
        start: budgeted,
        msgs: || keys(&[CycleUnused, CycleUnused, CycleUnused]),
        check: |app, _| {
            assert_eq!(app.filter.unused_days, Some(90));
            assert_eq!(names(app), ["delta", "epsilon", "gamma", "漢字"]);
        },
    },
    Case {
        name: "the unused filter goes round to off",
        start: budgeted,
        msgs: || keys(&[CycleUnused, CycleUnused, CycleUnused, CycleUnused]),
        check: |app, _| {
            assert_eq!(app.filter.unused_days, None);
            assert_eq!(names(app).len(), 6);
        },
    },
    Case {
        name: "Esc clears the unused filter as it clears the others",
        start: budgeted,
        msgs: || keys(&[CycleUnused, Back]),
        check: |app, _| {
            assert_eq!(app.filter.unused_days, None);
            assert_eq!(status(app), "Filters cleared.");
        },
    },
    Case {
        name: "the filter while the uses are read shows every skill, and says why",
        start: reading,
        msgs: || keys(&[CycleUnused]),
        check: |app, _| {
            assert_eq!(names(app).len(), 6);
            assert!(status(app).contains("not read yet"), "{}", status(app));
        },
    },
    Case {
        name: "sorted by cost: the costliest line in any agent's listing first, unlisted last",
        start: budgeted,
        msgs: || keys(&[CycleSort, CycleSort, CycleSort, CycleSort]),
        check: |app, _| {
            assert_eq!(app.sort, Sort::Cost);
            assert_eq!(
                names(app),
                ["beta", "alpha", "gamma", "漢字", "delta", "epsilon"]
            );
        },
    },
    Case {
        name: "sorted by last use: the latest first, never used last (by name)",
        start: budgeted,
        msgs: || keys(&[CycleSort, CycleSort, CycleSort, CycleSort, CycleSort]),
        check: |app, _| {
            assert_eq!(app.sort, Sort::LastUsed);
            assert_eq!(
                names(app),
                ["alpha", "beta", "delta", "epsilon", "gamma", "漢字"]
            );
        },
    },
];

#[test]
fn update_cases() {
    for case in CASES {
        let mut app = (case.start)();
        let mut effects = Vec::new();
        for msg in (case.msgs)() {
            effects.extend(update(&mut app, msg));
        }
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            (case.check)(&app, &effects);
        }));
        assert!(result.is_ok(), "case failed: {}", case.name);
    }
}

/// Two skills marked in the budget view, turned off for Claude Code: the managing flow's own
/// questions, then one batch for both.
#[test]
fn marks_and_off_from_the_budget_view_reach_the_managing_flow() {
    let mut app = open();
    for msg in keys(&[ToggleMark, Down, ToggleMark, Disable]) {
        update(&mut app, msg);
    }
    // Which agent (Claude Code, the first), then which of its settings files.
    let mut effects = Vec::new();
    for _ in 0..4 {
        match &app.overlay {
            Overlay::Pick(_) => effects = update(&mut app, Msg::Action(Choose)),
            Overlay::Confirm(_) => effects = update(&mut app, Msg::Action(Confirm)),
            _ => break,
        }
    }
    let [Effect::Run(Batch { job, skills, .. })] = effects.as_slice() else {
        panic!("{effects:?}");
    };
    assert!(
        matches!(
            job,
            Job::Switch {
                agent: AgentId::CLAUDE_CODE,
                off: true,
                ..
            }
        ),
        "{job:?}"
    );
    let dirs: Vec<PathBuf> = skills.iter().map(|t| t.dir.clone()).collect();
    assert_eq!(dirs, [dir("alpha"), dir("delta")]);
    // The batch runs over the budget view, which is there again when it is done.
    assert_eq!(app.mode(), Mode::Working);
    assert!(app.views.budget().is_some());
}

// --- Drawn ----------------------------------------------------------------------------------

fn drawn(app: &mut App, (width, height): (u16, u16)) -> Terminal<TestBackend> {
    app.theme = Theme::plain();
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    // Twice, as the runtime does: the second frame knows where the first put each pane.
    for _ in 0..2 {
        let mut frame_laid = None;
        terminal
            .draw(|frame| frame_laid = Some(view::draw(frame, app)))
            .unwrap();
        update(app, Msg::Laid(Box::new(frame_laid.unwrap())));
    }
    terminal
}

fn snapshot_each_size(name: &str, make: fn() -> App, check: impl Fn((u16, u16), &str)) {
    for size in SIZES {
        let mut app = make();
        let terminal = drawn(&mut app, size);
        settings().bind(|| {
            insta::assert_snapshot!(format!("{name}_{}x{}", size.0, size.1), terminal.backend());
        });
        check(size, &terminal.backend().to_string());
    }
}

#[test]
fn the_budget_view_over_budget_with_dropped_descriptions() {
    snapshot_each_size("budget_over", open, |size, text| {
        assert!(text.contains("429/400 chars 107%"), "{size:?}: {text}");
        assert!(text.contains("name only"), "{size:?}: {text}");
        assert!(text.contains("no budget: sends every"), "{size:?}: {text}");
        if size.1 >= 24 {
            assert!(text.contains("3 d"), "{size:?}: {text}");
        }
    });
}

#[test]
fn the_budget_view_within_budget() {
    snapshot_each_size(
        "budget_within",
        || {
            let mut app = open();
            update(&mut app, Msg::Action(NextPane));
            app
        },
        |size, text| {
            assert!(text.contains("150/2,000 tokens 7%"), "{size:?}: {text}");
            assert!(text.contains("Codex's listing"), "{size:?}: {text}");
        },
    );
}

#[test]
fn the_budget_view_before_the_uses_are_read() {
    snapshot_each_size(
        "budget_reading",
        || {
            let mut app = reading();
            update(&mut app, Msg::Action(ShowBudget));
            app
        },
        |size, text| {
            if size.0 >= 80 {
                assert!(text.contains('…'), "{size:?}: {text}");
            }
        },
    );
}

#[test]
fn the_list_sorted_by_cost_and_filtered_by_use() {
    snapshot_each_size(
        "list_cost_unused",
        || {
            let mut app = budgeted();
            for msg in keys(&[CycleSort, CycleSort, CycleSort, CycleSort, CycleUnused]) {
                update(&mut app, msg);
            }
            app
        },
        |size, text| {
            assert!(text.contains("not used in 7"), "{size:?}: {text}");
            assert!(text.contains("COST"), "{size:?}: {text}");
            if size.0 >= 200 {
                assert!(text.contains("LAST USED"), "{size:?}: {text}");
            }
            if size.0 >= 120 {
                // The detail says how each agent lists beta and when it was used.
                assert!(text.contains("claude-code: name only"), "{size:?}: {text}");
            }
        },
    );
}

#[test]
fn the_list_sorted_by_last_use_shows_when() {
    snapshot_each_size(
        "list_last_used",
        || {
            let mut app = budgeted();
            for msg in keys(&[CycleSort, CycleSort, CycleSort, CycleSort, CycleSort]) {
                update(&mut app, msg);
            }
            app
        },
        |size, text| {
            assert!(text.contains("LAST USED"), "{size:?}: {text}");
            assert!(text.contains("never"), "{size:?}: {text}");
        },
    );
}

// --- The real workers ---------------------------------------------------------------------

/// The demo machine with Claude Code's counters saying code-review was used 3 times, 3 days
/// ago, and Claude Code's budget cut to `budget` characters by its variable.
fn demo_with_uses(size: (u16, u16), budget: Option<&str>) -> (Sandbox, Screen) {
    let sandbox = Sandbox::create().unwrap();
    let mut machine = sandbox.machine();
    let last = SystemTime::now() - Duration::from_secs(3 * DAY + 600);
    let ms = last
        .duration_since(SystemTime::UNIX_EPOCH)
        .unwrap()
        .as_millis();
    std::fs::write(
        machine.env.home().join(".claude.json"),
        format!(r#"{{"skillUsage": {{"code-review": {{"usageCount": 3, "lastUsedAt": {ms}}}}}}}"#),
    )
    .unwrap();
    if let Some(budget) = budget {
        machine.env = machine
            .env
            .clone()
            .with_var("SLASH_COMMAND_TOOL_CHAR_BUDGET", budget);
    }
    let setup = Setup {
        banner: Some(sandbox.banner()),
        mouse: false,
        theme: Theme::colored(),
        work_dir: "~/src/acme-app".to_owned(),
    };
    let screen = Screen::open(machine, setup, size);
    (sandbox, screen)
}

#[test]
fn the_scan_works_out_the_listings_and_a_worker_reads_the_uses_after_it() {
    let (_sandbox, mut screen) = demo_with_uses((200, 50), None);
    // The driver waits for every worker: the uses are read by now.
    let app = screen.app();
    let view = app.deck.usage.view().expect("the uses were read");
    let review = app
        .deck
        .skills
        .iter()
        .find(|s| s.name == "code-review" && s.shown_dir.starts_with("~/.claude"))
        .unwrap();
    assert_eq!(view.count(&review.dir), 3);
    let text = screen.text();
    assert!(text.contains("LAST USED"), "{text}");
    assert!(text.contains("3 d "), "{text}");
    assert!(text.contains("3 uses, last 3 days ago (counter)"), "{text}");
    screen.press("B");
    let text = screen.text();
    assert!(text.contains("Claude Code's listing"), "{text}");
}

#[test]
fn over_claude_codes_budget_the_view_shows_what_it_drops() {
    let (_sandbox, mut screen) = demo_with_uses((120, 40), Some("3000"));
    screen.press("B");
    let text = screen.text();
    assert!(
        text.contains("SLASH_COMMAND_TOOL_CHAR_BUDGET=3000"),
        "{text}"
    );
    assert!(text.contains("name only"), "{text}");
    let claude = &screen.app().deck.budgets.agents[0];
    assert!(claude.name_only > 0, "{claude:?}");
}
