//! The detail pane: where the selected skill is, where it came from, which agents load it and
//! which copy each of them runs, who installed it and whether its files still match the record,
//! what is wrong with it, what the audit found in it, and its files with sizes and executable
//! bits.
//!
//! Its name, state and problems are held at the top, where a long description cannot push them
//! out of view; the rest scrolls below them, with its position in the title. Paths wrap after a
//! `/`, so no folder's name is split across two lines unless it is wider than the pane.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use crate::operations::lock_state::LockState;
use crate::record::State;
use crate::text::width;
use crate::tui::app::App;
use crate::tui::changes::changed_since_snapshot;
use crate::tui::geometry::{Laid, PaneGeometry};
use crate::tui::keymap::{self, Mode};
use crate::tui::model::{Entry, SkillView, Verdict};
use crate::tui::msg::{Action, Pane};
use crate::tui::theme::{self, Theme};

use super::{has_focus, pane};
use crate::text::human::{ago, size};

/// The width of the labels on the left.
const LABEL: usize = 10;
/// Hex digits of a digest shown; enough to tell two apart at a glance.
const DIGEST_DIGITS: usize = 12;

pub fn draw(frame: &mut Frame, area: Rect, app: &App, laid: &mut Laid) {
    let theme = &app.theme;
    let inner = Rect {
        x: area.x.saturating_add(1),
        y: area.y.saturating_add(1),
        width: area.width.saturating_sub(2),
        height: area.height.saturating_sub(2),
    };
    let mut geometry = PaneGeometry {
        area,
        rows: inner,
        ..PaneGeometry::default()
    };
    let mut title = vec![Span::styled(" Detail ", theme.title)];
    let Some(skill) = app.selected_skill() else {
        laid.panes.detail = Some(geometry);
        frame.render_widget(
            pane(Line::from(title), has_focus(app, Pane::Detail), theme),
            area,
        );
        return;
    };
    let columns = usize::from(inner.width);
    let rows = usize::from(inner.height);
    let (mut held, mut body) = (head(skill, columns, app), lines(skill, columns, app));
    // The held lines take at most three fifths of the pane; what does not fit scrolls, first.
    let room = (rows * 3 / 5).max(1);
    if held.len() > room {
        let rest = held.split_off(room);
        body.splice(0..0, rest);
    }
    let body_rows = rows.saturating_sub(held.len());
    let max = body.len().saturating_sub(body_rows);
    let first = app.detail_scroll.min(max);
    if max > 0 {
        let last = (first + body_rows).min(body.len());
        title.push(Span::styled(
            format!("{}-{last} of {} ", first + 1, body.len()),
            theme.dim,
        ));
    }
    frame.render_widget(
        pane(Line::from(title), has_focus(app, Pane::Detail), theme),
        area,
    );
    let held_rows = u16::try_from(held.len()).unwrap_or(u16::MAX);
    let [top, rest] =
        Layout::vertical([Constraint::Length(held_rows), Constraint::Fill(1)]).areas(inner);
    frame.render_widget(Paragraph::new(held), top);
    geometry.rows = rest;
    geometry.page = body_rows;
    geometry.max = max;
    geometry.offset = first;
    laid.panes.detail = Some(geometry);
    let scroll = u16::try_from(first).unwrap_or(u16::MAX);
    frame.render_widget(Paragraph::new(body).scroll((scroll, 0)), rest);
}

/// Lines of text laid out for a pane `columns` wide.
struct Sheet<'t> {
    lines: Vec<Line<'static>>,
    columns: usize,
    theme: &'t Theme,
}

impl Sheet<'_> {
    /// `label` then `value`, the value wrapped under itself, after a space or a `/`.
    fn field(&mut self, label: &str, value: &str, style: Style) {
        self.field_spans(label, vec![Span::styled(value.to_owned(), style)]);
    }

    /// `label` then spans that fit on one line (cut when they do not), or wrap when there is
    /// one span.
    fn field_spans(&mut self, label: &str, spans: Vec<Span<'static>>) {
        let room = self.columns.saturating_sub(LABEL).max(1);
        let head = Span::styled(width::pad(label, LABEL), self.theme.label);
        if let [only] = spans.as_slice() {
            let style = only.style;
            for (i, part) in wrap_at_separators(&only.content, room)
                .into_iter()
                .enumerate()
            {
                let left = if i == 0 {
                    head.clone()
                } else {
                    Span::raw(" ".repeat(LABEL))
                };
                self.lines
                    .push(Line::from(vec![left, Span::styled(part, style)]));
            }
            return;
        }
        let mut all = vec![head];
        all.extend(spans);
        self.lines.push(Line::from(all));
    }

    fn text(&mut self, text: &str, style: Style) {
        for part in width::wrap(text, self.columns.max(1)) {
            self.lines.push(Line::styled(part, style));
        }
    }
}

fn lines(skill: &SkillView, columns: usize, app: &App) -> Vec<Line<'static>> {
    let theme = &app.theme;
    let mut sheet = Sheet {
        lines: Vec::new(),
        columns,
        theme,
    };
    if let Some(description) = &skill.description {
        sheet.text(description, Style::new());
        sheet.lines.push(Line::raw(""));
    }
    let plain = Style::new();
    sheet.field("Folder", &skill.shown_dir, plain);
    if let Some(real) = &skill.real_dir {
        sheet.field("Link to", real, plain);
    }
    for path in &skill.also_at {
        sheet.field("Also at", path, theme.dim);
    }
    let mut source = vec![Span::styled(
        skill.source.to_string(),
        theme.source(skill.source),
    )];
    if let Some(plugin) = &skill.plugin {
        source.push(Span::styled(format!("  plugin {plugin}"), theme.dim));
    }
    sheet.field_spans("Source", source);
    if let Some(lock) = skill.lock {
        let word = format!("{} {}", theme::lock_marker(lock), lock.word());
        sheet.field("Lock", &word, theme.lock(lock));
        // Under it, wrapped: it names what to run.
        sheet.field("", lock_meaning(lock), theme.dim);
    }
    audit(&mut sheet, skill, app);
    // "Modified" is the state's word; this is only when its files were last written.
    if let Some(age) = skill.age {
        sheet.field("Written", &ago(age), plain);
    }
    agents(&mut sheet, skill, app);
    owner(&mut sheet, skill);
    upstream(&mut sheet, skill, app);
    record(&mut sheet, skill);
    listing(&mut sheet, skill, app);
    files(&mut sheet, skill);
    sheet.lines
}

/// What is held at the top: the name, the state, the problems, and a change since the last
/// snapshot.
fn head(skill: &SkillView, columns: usize, app: &App) -> Vec<Line<'static>> {
    let theme = &app.theme;
    let mut sheet = Sheet {
        lines: Vec::new(),
        columns,
        theme,
    };
    // On one line: the list beside it has the name in full when it is cut here.
    sheet
        .lines
        .push(Line::styled(width::fit(&skill.name, columns), theme.title));
    let state = format!("{} {}", theme::state_marker(skill.state), skill.state);
    let meaning = state_meaning(skill.state);
    if meaning_fits(skill, columns) {
        sheet.field_spans(
            "State",
            vec![
                Span::styled(state, theme.state(skill.state)),
                Span::styled(format!("  {meaning}"), theme.dim),
            ],
        );
    } else {
        // Under the state, once: the held lines' room is three fifths of the pane, and what
        // does not fit there opens what scrolls.
        sheet.field("State", &state, theme.state(skill.state));
        sheet.field("", meaning, theme.dim);
    }
    for (i, problem) in skill.problems.iter().enumerate() {
        let label = if i == 0 { "Problems" } else { "" };
        sheet.field(
            label,
            &format!("{} {problem}", theme::PROBLEM_MARKER),
            theme.warning,
        );
    }
    if changed_since_snapshot(app.changes.shown(), &skill.dir) {
        sheet.field(
            "Snapshot",
            &format!("{} changed since its snapshot", theme::CHANGED_MARKER),
            theme.changed,
        );
    }
    sheet.lines
}

/// `text` in lines of at most `columns`, broken after a space or a `/`: a path wraps between
/// its folders. A part wider than the line (a folder's name longer than the pane) is broken
/// where it must.
fn wrap_at_separators(text: &str, columns: usize) -> Vec<String> {
    width::wrap_after(text, columns, &['/'])
}

/// Whether the state's meaning fits on the state's line.
fn meaning_fits(skill: &SkillView, columns: usize) -> bool {
    let state = width::of(&skill.state.to_string()) + 2;
    LABEL + state + 2 + width::of(state_meaning(skill.state)) <= columns
}

/// What a lock state means, and what to do about it.
fn lock_meaning(lock: LockState) -> &'static str {
    match lock {
        LockState::Locked => "skills-lock.json holds the hash of its files",
        LockState::Differing => {
            "its files differ from the hash in skills-lock.json (`skilldeck verify` names the file)"
        }
        LockState::Unlocked => "not in skills-lock.json (`skilldeck lock` adds it)",
    }
}

/// What `skilldeck audit` finds in it, once the worker has judged it: the count and the most
/// severe, then each finding of medium severity or more with its file and line. Nothing while
/// it is judged, nor when nothing was found.
fn audit(sheet: &mut Sheet, skill: &SkillView, app: &App) {
    let Some(audit) = app.audits.of(&skill.dir) else {
        return;
    };
    if audit.findings.is_empty() {
        return;
    }
    let style = if audit.marked() {
        sheet.theme.warning
    } else {
        Style::new()
    };
    sheet.field("Audit", &audit.summary(), style);
    for finding in audit.listed() {
        sheet.field(
            "",
            &format!("{} {}", theme::AUDIT_MARKER, finding.sentence()),
            style,
        );
    }
}

fn state_meaning(state: State) -> &'static str {
    match state {
        State::Intact => "files match the record",
        State::Modified => "files differ from its record",
        State::Unrecorded => "no installer's record",
        State::Unreadable => "could not be read to tell",
        State::Unverifiable => "the installer's record cannot be checked",
    }
}

/// Per agent that lists it or used it: how its listing shows it, what its line costs, and how
/// often and when last the agent used it (`…` while the uses are read).
fn listing(sheet: &mut Sheet, skill: &SkillView, app: &App) {
    let listed = app.deck.budgets.listed(&skill.dir);
    let uses = app
        .deck
        .usage
        .view()
        .map_or(&[][..], |v| v.uses(&skill.dir));
    let mut agents: Vec<crate::roots::AgentId> = listed
        .iter()
        .map(|l| l.agent)
        .chain(uses.iter().map(|u| u.agent))
        .filter(|a| app.shows_agent(*a))
        .collect();
    agents.sort();
    agents.dedup();
    for (i, agent) in agents.into_iter().enumerate() {
        let mut parts: Vec<String> = Vec::new();
        match listed.iter().find(|l| l.agent == agent) {
            Some(l) => parts.push(format!(
                "{}, {} chars",
                crate::tui::budget::shown_words(l.shown),
                crate::listing::grouped(l.chars as u64)
            )),
            None => parts.push("not listed".to_owned()),
        }
        let used = match (&app.deck.usage, uses.iter().find(|u| u.agent == agent)) {
            (crate::tui::budget::Uses::Read(_), Some(u)) => {
                let times = if u.count == 1 { "use" } else { "uses" };
                let mut text = format!("{} {times}", u.count);
                if let Some(last) = u.last {
                    text.push_str(&format!(", last {}", app.clock.since(last)));
                }
                text.push_str(&format!(" ({})", u.from.as_str()));
                text
            }
            (crate::tui::budget::Uses::Read(_), None) => "never used".to_owned(),
            (crate::tui::budget::Uses::Failed(_), _) => "uses unknown".to_owned(),
            _ => "uses …".to_owned(),
        };
        parts.push(used);
        let label = if i == 0 { "Listing" } else { "" };
        let style = if listed
            .iter()
            .any(|l| l.agent == agent && l.shown != crate::listing::Shown::Full)
        {
            sheet.theme.warning
        } else {
            Style::new()
        };
        sheet.field(
            label,
            &format!("{}: {}", agent.id(), parts.join(" · ")),
            style,
        );
    }
}

/// The agents that load it, grouped by the root each reads it from (the agents wrapped on the
/// label's row: two dozen agents read `~/.agents/skills`; the root under them), then the agents
/// shown that run another copy of its name.
fn agents(sheet: &mut Sheet, skill: &SkillView, app: &App) {
    let theme = sheet.theme;
    if skill.reads.iter().all(|read| read.agents.is_empty()) {
        sheet.field("Agents", "none loads it from here", theme.dim);
        return;
    }
    let hidden_key = keymap::key_for(Mode::Skills, Action::ToggleAllAgents);
    for (i, read) in skill.reads.iter().enumerate() {
        let label = if i == 0 { "Agents" } else { "" };
        let shown = app.shown_of(&read.agents);
        let hidden = read.agents.len() - shown.len();
        let ids: Vec<&str> = shown.iter().map(|a| a.id()).collect();
        let (text, style) = match (ids.is_empty(), hidden) {
            (true, 0) => ("no agent loads it from here".to_owned(), theme.dim),
            (true, n) => (
                format!("{} not installed here ({hidden_key} shows them)", count(n)),
                theme.dim,
            ),
            (false, 0) => (ids.join(", "), theme.label),
            (false, n) => (
                format!("{}, and {} not installed here", ids.join(", "), count(n)),
                theme.label,
            ),
        };
        // The agents on the row the label names, the root they read it from under them.
        sheet.field(label, &text, style);
        sheet.field("", &format!("from {}", read.shown_root), theme.dim);
    }
    let off = off_for(skill, app);
    if !off.is_empty() {
        let on: Vec<&str> = app
            .shown_of(&skill.agents)
            .iter()
            .filter(|a| !skill.disabled_for.contains(a))
            .map(|a| a.id())
            .collect();
        let mut text = format!("off for {}", off.join(", "));
        if !on.is_empty() {
            text.push_str(&format!("; on for {}", on.join(", ")));
        }
        sheet.field("Settings", &text, theme.warning);
    }
    let left_out: Vec<&str> = skill
        .left_out
        .iter()
        .filter(|(agent, _)| app.shows_agent(*agent))
        .map(|(_, line)| line.as_str())
        .collect();
    for (i, line) in left_out.iter().enumerate() {
        let label = if i == 0 { "Left out" } else { "" };
        sheet.field(label, line, theme.warning);
    }
    let unsettled: Vec<&str> = skill
        .unsettled_for
        .iter()
        .filter(|&&agent| app.shows_agent(agent))
        .map(|agent| agent.id())
        .collect();
    if !unsettled.is_empty() {
        let verb = if unsettled.len() == 1 {
            "picks"
        } else {
            "pick"
        };
        sheet.field(
            "Copies",
            &format!(
                "{} {verb} one of its copies, not always the same",
                unsettled.join(", ")
            ),
            theme.warning,
        );
    }
    let runs_another: Vec<&Verdict> = skill
        .verdicts
        .iter()
        .filter(|v| v.winner.is_some() && app.shows_agent(v.agent))
        .collect();
    // One line per winning copy, with every agent that runs it.
    let mut winners: Vec<(&str, Vec<&str>)> = Vec::new();
    for verdict in &runs_another {
        let winner = verdict.winner.as_deref().unwrap_or("");
        match winners.iter_mut().find(|(w, _)| *w == winner) {
            Some((_, agents)) => agents.push(verdict.agent.id()),
            None => winners.push((winner, vec![verdict.agent.id()])),
        }
    }
    for (i, (winner, agents)) in winners.iter().enumerate() {
        let label = if i == 0 { "Shadowed" } else { "" };
        let verb = if agents.len() == 1 { "runs" } else { "run" };
        // The winner's path wraps under the label rather than being cut: it is the answer.
        sheet.field(
            label,
            &format!("{} {verb} {winner}", agents.join(", ")),
            theme.warning,
        );
    }
    if !runs_another.is_empty() {
        let keep: Vec<&str> = skill
            .verdicts
            .iter()
            .filter(|v| v.keeps_all && app.shows_agent(v.agent))
            .map(|v| v.agent.id())
            .collect();
        if !keep.is_empty() {
            sheet.field(
                "",
                &format!("{} run every copy of a name", keep.join(", ")),
                theme.dim,
            );
        }
    }
}

/// `1 agent`, `21 agents`.
/// The agents shown whose own settings turn `skill` off: the state the off and on keys change,
/// said wherever the skill is described.
pub(super) fn off_for(skill: &SkillView, app: &App) -> Vec<&'static str> {
    app.shown_of(&skill.disabled_for)
        .into_iter()
        .map(|agent| agent.id())
        .collect()
}

fn count(n: usize) -> String {
    crate::text::human::count(n, "agent")
}

/// Who installed it, where from, the untouched copy its installer keeps, and what its record
/// cannot tell.
fn owner(sheet: &mut Sheet, skill: &SkillView) {
    let theme = sheet.theme;
    let Some(owner) = &skill.owner else {
        return;
    };
    // An installer's record in the frontmatter names it already, on the Record line.
    let named = skill
        .record
        .as_ref()
        .is_some_and(|r| r.installed_by == owner.installer);
    if !named {
        sheet.field("Installer", &owner.installer, theme.label);
    }
    if let Some(upstream) = &owner.upstream {
        sheet.field("From", upstream, Style::new());
    }
    if let Some(pristine) = &owner.shown_pristine {
        sheet.field("Copy at", pristine, theme.dim);
    }
    if let Some(note) = &owner.note {
        sheet.field("Note", note, theme.dim);
    }
}

/// What the last check of its upstream said, and when: `↑ upstream moved, checked 3 h ago`.
fn upstream(sheet: &mut Sheet, skill: &SkillView, app: &App) {
    let Some(sentence) = app.upstreams.sentence(&skill.dir, app.clock.0) else {
        return;
    };
    let theme = sheet.theme;
    if app.upstreams.moved(&skill.dir) {
        let marked = format!("{} {sentence}", crate::tui::theme::UPSTREAM_MARKER);
        sheet.field("Upstream", &marked, theme.changed);
    } else {
        sheet.field("Upstream", &sentence, theme.dim);
    }
}

fn record(sheet: &mut Sheet, skill: &SkillView) {
    let theme = sheet.theme;
    let Some(record) = &skill.record else {
        if skill.owner.is_some() {
            return;
        }
        let now = skill.digest.as_deref().map_or("-".to_owned(), short_digest);
        sheet.field("Record", "none", theme.dim);
        sheet.field_spans("", vec![Span::styled(format!("now      {now}"), theme.dim)]);
        return;
    };
    sheet.field(
        "Record",
        &format!(
            "installed by {} {}",
            record.installed_by, record.installed_version
        ),
        Style::new(),
    );
    let recorded = short_digest(&record.content_digest);
    sheet.field_spans("", vec![Span::raw(format!("recorded {recorded}"))]);
    let (now, verdict, style) = match skill.digest.as_deref() {
        Some(digest) if digest == record.content_digest => {
            (short_digest(digest), "  matches", theme.intact)
        }
        Some(digest) => (short_digest(digest), "  differs", theme.modified),
        None => ("-".to_owned(), "  cannot be computed", theme.modified),
    };
    sheet.field_spans(
        "",
        vec![
            Span::raw(format!("now      {now}")),
            Span::styled(verdict, style),
        ],
    );
}

/// `sha256:0123456789ab…`
fn short_digest(digest: &str) -> String {
    match digest.split_once(':') {
        Some((algorithm, hex)) if hex.len() > DIGEST_DIGITS => {
            format!("{algorithm}:{}…", &hex[..DIGEST_DIGITS])
        }
        _ => digest.to_owned(),
    }
}

fn files(sheet: &mut Sheet, skill: &SkillView) {
    let theme = sheet.theme;
    let room = sheet.columns.saturating_sub(LABEL);
    // Name, then size and the executable bit on the right.
    let tail = 15;
    let name_room = room.saturating_sub(tail);
    for (i, line) in skill.tree.iter().enumerate() {
        let label = if i == 0 { "Files" } else { "" };
        let indent = "  ".repeat(line.depth);
        let spans = match line.entry {
            Entry::Folder => vec![Span::styled(
                width::fit(&format!("{indent}{}/", line.name), room),
                theme.label,
            )],
            Entry::File {
                size: bytes,
                executable,
            } => vec![
                Span::raw(width::pad(&format!("{indent}{}", line.name), name_room)),
                Span::raw(format!("{:>9}", size(bytes))),
                Span::styled(if executable { "  exec" } else { "" }, theme.warning),
            ],
        };
        sheet.field_spans(label, spans);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_wrap_between_folders_and_a_long_name_where_it_must() {
        assert_eq!(
            wrap_at_separators("~/.claude/skills/brand-guidelines", 20),
            ["~/.claude/skills/", "brand-guidelines"]
        );
        assert_eq!(
            wrap_at_separators("claude-code runs ~/p/skills/x", 18),
            ["claude-code runs", "~/p/skills/x"]
        );
        assert_eq!(wrap_at_separators("/abcdefgh", 4), ["/", "abcd", "efgh"]);
        for line in wrap_at_separators("~/a folder/with spaces/漢字漢字/x", 7) {
            assert!(width::of(&line) <= 7, "{line:?}");
        }
    }

    #[test]
    fn digests_are_shortened_for_the_eye() {
        let digest = format!("sha256:{}", "ab".repeat(32));
        assert_eq!(short_digest(&digest), "sha256:abababababab…");
        assert_eq!(short_digest("sha256:00"), "sha256:00");
    }
}
