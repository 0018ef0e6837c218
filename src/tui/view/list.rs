//! The skill list: one row per skill shown, with its state marker, the changed-since-snapshot,
//! problem and shadowed markers, name, source badge, modified time, installer and agents, each
//! column as wide as what it holds. Only the rows on screen are built, and the widths are
//! measured without building any, so a list of twenty thousand costs what a list of forty does.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};

use crate::record::State;
use crate::roots::AgentId;
use crate::text::{sanitize, width};
use crate::tui::app::{App, By, Filter, Scan};
use crate::tui::budget::{Cost, Uses};
use crate::tui::changes::changed_since_snapshot;
use crate::tui::geometry::{Laid, PaneGeometry, keep_in_view};
use crate::tui::keymap::{self, Mode};
use crate::tui::model::SkillView;
use crate::tui::model::Sort;
use crate::tui::msg::{Action, Pane};
use crate::tui::theme::{self, Theme};

use super::{has_focus, pane, search};

/// Columns before the name: mark (or upstream moved), state marker, changed-since-snapshot
/// marker, problem marker (or the audit's), shadowed marker, space; and the lock marker after the state's, where a project has a lock.
const MARKS: usize = 6;
const BADGE: usize = 7;

pub fn draw(frame: &mut Frame, area: Rect, app: &App, laid: &mut Laid) {
    let theme = &app.theme;
    let focused = has_focus(app, Pane::List);
    let block = pane(title(app), focused, theme);
    let inner = block.inner(area);
    frame.render_widget(block, area);

    let searching = app.search.typing || !app.search.query.is_empty();
    let [head, rows_area, search_area] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Fill(1),
        Constraint::Length(u16::from(searching)),
    ])
    .areas(inner);
    // The cost and the last use where the deck knows them, for skills there are.
    let some = !app.deck.skills.is_empty();
    let extra = Extra {
        cost: some && !app.deck.budgets.is_empty(),
        used: some && !matches!(app.deck.usage, Uses::Unknown),
        lock: app.deck.lock_column,
    };
    let columns = Columns::for_width(usize::from(inner.width), &Widest::of(app), app.sort, extra);
    frame.render_widget(columns.head(theme), head);
    search::draw(frame, search_area, app);

    let rows = usize::from(rows_area.height);
    let mut geometry = PaneGeometry {
        area,
        rows: rows_area,
        page: rows,
        offset: app.panes.list.offset,
        max: 0,
    };
    if app.visible.is_empty() {
        laid.panes.list = Some(geometry);
        let note = match app.scan {
            Scan::Running(_) | Scan::NotStarted => "Reading skills…".to_owned(),
            Scan::Done if app.deck.skills.is_empty() => format!(
                "No skills found in any root ({} shows them).",
                keymap::key_for(Mode::Skills, Action::ShowRoots)
            ),
            Scan::Done => format!(
                "No skill matches ({} clears the search and filters).",
                keymap::key_for(Mode::Skills, Action::ClearFilters)
            ),
        };
        let note = ratatui::widgets::Paragraph::new(Line::styled(note, theme.dim))
            .wrap(ratatui::widgets::Wrap { trim: true })
            .block(
                ratatui::widgets::Block::new().padding(ratatui::widgets::Padding::horizontal(1)),
            );
        frame.render_widget(note, rows_area);
        return;
    }
    geometry.offset = keep_in_view(geometry.offset, app.selected, rows);
    laid.panes.list = Some(geometry);
    let shown = app
        .visible
        .iter()
        .enumerate()
        .skip(geometry.offset)
        .take(rows);
    for (y, (position, &index)) in (rows_area.y..).zip(shown) {
        let selected = position == app.selected;
        let style = match (selected, focused) {
            (false, _) => ratatui::style::Style::new(),
            (true, true) => theme.selected,
            (true, false) => theme.selected_idle,
        };
        let skill = &app.deck.skills[index];
        let shown = Shown {
            agents: app.shown_of(&skill.agents),
            shadowed: skill
                .verdicts
                .iter()
                .any(|v| v.winner.is_some() && app.shows_agent(v.agent)),
            marked: app.marked.contains(&skill.dir),
            audited: app.audits.marked(&skill.dir),
            moved: app.upstreams.moved(&skill.dir),
            changed: changed_since_snapshot(app.changes.shown(), &skill.dir),
            cost: app.deck.budgets.cost(&skill.dir),
            last_used: last_used(app, &skill.dir),
        };
        let line = columns.row(skill, &shown, theme, selected).style(style);
        frame.render_widget(line, Rect::new(rows_area.x, y, rows_area.width, 1));
    }
}

/// ` Skills 3/12 · drifted · sort: state `
fn title(app: &App) -> Line<'static> {
    let theme = &app.theme;
    let mut spans = vec![Span::styled(
        format!(" Skills {}/{} ", app.visible.len(), app.deck.skills.len()),
        theme.title,
    )];
    let Filter {
        source,
        agent,
        state,
        installer,
        disabled,
        unused_days,
    } = &app.filter;
    let mut notes: Vec<String> = Vec::new();
    if !app.search.query.is_empty() {
        // Typed text, shown but never raw.
        let query = sanitize::line(app.search.query.text());
        notes.push(format!("\u{201c}{}\u{201d}", width::fit(&query, 24)));
    }
    match state {
        Some(State::Modified) => notes.push("modified".to_owned()),
        Some(state) => notes.push(format!("state: {state}")),
        None => {}
    }
    if let Some(source) = source {
        notes.push(format!("source: {source}"));
    }
    if let Some(agent) = agent {
        notes.push(format!("agent: {agent}"));
    }
    if app.all_agents {
        notes.push("every agent".to_owned());
    }
    match installer {
        Some(By::Installer(name)) => notes.push(format!("by {name}")),
        Some(By::Nobody) => notes.push("no installer".to_owned()),
        None => {}
    }
    if *disabled {
        notes.push("turned off".to_owned());
    }
    if let Some(days) = unused_days {
        notes.push(format!("not used in {days} d"));
    }
    if app.sort != Sort::Name {
        notes.push(format!("sort: {}", app.sort.label()));
    }
    if !app.marked.is_empty() {
        notes.push(format!("{} marked", app.marked.len()));
    }
    for note in notes {
        spans.push(Span::styled(format!("· {note} "), theme.warning));
    }
    Line::from(spans)
}

/// What a row shows of a skill's agents: those shown (installed here, or every one), and
/// whether one of them runs another copy of its name.
struct Shown {
    agents: Vec<AgentId>,
    shadowed: bool,
    marked: bool,
    /// The audit found something of medium or high severity in it.
    audited: bool,
    /// Its upstream moved past it, as the last check said.
    moved: bool,
    /// Its files differ from its latest snapshot, as the changed screen found.
    changed: bool,
    cost: Option<Cost>,
    /// `3 d`, `never`, `…` while the uses are read.
    last_used: String,
}

/// The last use of the skill in `dir`, in a few columns: how long ago, `never`, `…` while the
/// uses are read, `?` when they could not be.
pub(super) fn last_used(app: &App, dir: &std::path::Path) -> String {
    match &app.deck.usage {
        Uses::Unknown | Uses::Reading => "…".to_owned(),
        Uses::Failed(_) => "?".to_owned(),
        Uses::Read(view) => match view.last(dir) {
            Some(at) => short_age(app.clock.0.duration_since(at).unwrap_or_default()),
            None if view.count(dir) > 0 => "used".to_owned(),
            None => "never".to_owned(),
        },
    }
}

/// A skill's cost in its column: `1,234`, and a mark when some agent shortens or drops its
/// description.
pub(super) fn cost_cell(cost: Option<Cost>) -> String {
    match cost {
        None => "-".to_owned(),
        Some(Cost { chars, cut }) => {
            let mut text = crate::listing::grouped(chars as u64);
            if cut {
                text.push_str(theme::CUT_MARKER);
            }
            text
        }
    }
}

/// `text` right-aligned in `columns`, as numbers are.
pub(super) fn pad_left(text: &str, columns: usize) -> String {
    format!(
        "{}{text}",
        " ".repeat(columns.saturating_sub(width::of(text)))
    )
}

/// The optional columns the deck has data for.
#[derive(Clone, Copy, Debug, Default)]
struct Extra {
    cost: bool,
    used: bool,
    /// A column for the project skills' lock states.
    lock: bool,
}

/// How many agent ids the column names before it counts the rest.
const IDS: usize = 3;

/// The agents column: a few ids that fit in `room`, then how many more (`codex,cline +21`);
/// `-` when no agent loads the skill, and a short note when only agents not installed do.
pub(super) fn agents_cell(shown: &[AgentId], loaded_by: usize, room: usize) -> String {
    if loaded_by == 0 {
        return "-".to_owned();
    }
    if shown.is_empty() {
        return width::fit("none installed", room);
    }
    let ids: Vec<&str> = shown.iter().map(|a| a.id()).collect();
    for named in (1..=ids.len().min(IDS)).rev() {
        let rest = ids.len() - named;
        let mut text = ids[..named].join(",");
        if rest > 0 {
            text.push_str(&format!(" +{rest}"));
        }
        if width::of(&text) <= room {
            return text;
        }
    }
    // Too narrow for one whole id and the count: cut the id, keep the count.
    let count = format!(" +{}", ids.len() - 1);
    if ids.len() == 1 || room <= width::of(&count) + 1 {
        return width::fit(ids[0], room);
    }
    format!("{}{count}", width::fit(ids[0], room - width::of(&count)))
}

/// How wide [`agents_cell`] is with all the room it wants, worked out without building it.
fn agents_natural(app: &App, agents: &[AgentId]) -> usize {
    if agents.is_empty() {
        return 1;
    }
    let mut shown = agents.iter().filter(|a| app.shows_agent(**a));
    let named: Vec<usize> = shown.by_ref().take(IDS).map(|a| a.id().len()).collect();
    if named.is_empty() {
        return width::of("none installed");
    }
    let rest = shown.count();
    let ids = named.iter().sum::<usize>() + named.len() - 1;
    if rest == 0 {
        ids
    } else {
        ids + 2 + rest.to_string().len()
    }
}

/// How wide each column is: worked out from what the skills shown hold, so no column is
/// wider than its widest value and the name gets what is left.
struct Columns {
    name: usize,
    /// The source badge; dropped (0) where the name would be cut with it.
    source: usize,
    /// Who installed it, and where from when there is room.
    by: usize,
    agents: usize,
    /// How long ago its newest file was modified.
    modified: usize,
    /// The characters of its line in the agents' listings.
    cost: usize,
    /// How long ago it was last used.
    used: usize,
    /// The lock marker's column, after the state's.
    lock: bool,
}

/// How wide the widest value of each column is, among the skills shown.
#[derive(Debug, Default)]
struct Widest {
    name: usize,
    installer: usize,
    /// The installer and the repository after it.
    by: usize,
    agents: usize,
}

impl Widest {
    /// Measured once for the skills shown, then read from `app.list_widths` until they change.
    fn of(app: &App) -> Self {
        if let Some([name, installer, by, agents]) = app.list_widths.get() {
            return Widest {
                name,
                installer,
                by,
                agents,
            };
        }
        let widest = Self::measure(app);
        app.list_widths.set(Some([
            widest.name,
            widest.installer,
            widest.by,
            widest.agents,
        ]));
        widest
    }

    fn measure(app: &App) -> Self {
        let mut widest = Widest::default();
        for &index in &app.visible {
            let skill = &app.deck.skills[index];
            widest.name = widest.name.max(width::of(&skill.name));
            widest.agents = widest.agents.max(agents_natural(app, &skill.agents));
            if let Some(owner) = &skill.owner {
                let installer = width::of(&owner.installer);
                widest.installer = widest.installer.max(installer);
                let from = owner.repository.as_deref().map_or(0, |r| 1 + width::of(r));
                widest.by = widest.by.max(installer + from);
            }
        }
        widest
    }
}

/// The room a name always has before the other columns are shown, when it needs it.
const NAME_FLOOR: usize = 12;
/// How wide the name grows before the agents do, at least (or two fifths of the pane).
const NAME_SHARE: usize = 32;
/// The narrowest an optional column is shown at.
const MIN_COLUMN: usize = 8;
/// The widest installer name (`claude-plugin`), and the header's width.
const INSTALLER: usize = 13;
const INSTALLED_BY: usize = 12;
/// The widest the agents column grows (three ids and a count).
const AGENTS_CAP: usize = 40;
/// The widest the installer column grows, with the repository.
const BY_CAP: usize = 38;
/// The modified column: its header, wider than any age in it (`59 min`).
const MODIFIED: usize = 8;
/// The cost column: wider than any cost in it (`12,345*`).
const COST: usize = 7;
/// The last use column: its header.
const LAST_USED: usize = 9;

impl Columns {
    /// The name first, up to [`NAME_FLOOR`]; then the modified time, when the list is sorted
    /// by it; then the source badge and the agents; then the name whole (up to its share); then who installed
    /// it, and the modified time; then where it came from. Each column is as wide as its
    /// widest value (up to a cap); what is left widens the name.
    /// The cost and the last use come after who installed it (before the modified time), or
    /// first when the list is sorted by them.
    fn for_width(total: usize, widest: &Widest, sort: Sort, extra: Extra) -> Self {
        let by_recent = sort == Sort::Recent;
        let marks = MARKS + usize::from(extra.lock);
        let mut left = total.saturating_sub(marks);
        let name_natural = widest.name.max(width::of("NAME"));
        let mut columns = Columns {
            name: name_natural.min(NAME_FLOOR).min(left),
            source: 0,
            by: 0,
            agents: 0,
            modified: 0,
            cost: 0,
            used: 0,
            lock: extra.lock,
        };
        left -= columns.name;
        // A column is shown at its narrowest when there is room for it and the space before it.
        let take = |want: usize, left: &mut usize| -> usize {
            if *left > want {
                *left -= want + 1;
                want
            } else {
                0
            }
        };
        // Sorted by it, the modified time comes first: it is what the order is by.
        if by_recent {
            columns.modified = take(MODIFIED, &mut left);
        }
        if extra.cost && sort == Sort::Cost {
            columns.cost = take(COST, &mut left);
        }
        if extra.used && sort == Sort::LastUsed {
            columns.used = take(LAST_USED, &mut left);
        }
        columns.source = take(BADGE, &mut left);
        let agents_natural = widest.agents.clamp(width::of("AGENTS"), AGENTS_CAP);
        columns.agents = take(agents_natural.min(MIN_COLUMN), &mut left);
        let grow = |column: &mut usize, to: usize, left: &mut usize| {
            let more = to.saturating_sub(*column).min(*left);
            *column += more;
            *left -= more;
        };
        // The name whole, unless one name far longer than the rest would take every column.
        let name_share = NAME_SHARE.max(total.saturating_sub(marks) * 2 / 5);
        let name_wanted = name_natural.min(name_share);
        grow(&mut columns.name, name_wanted, &mut left);
        // Where the name would still be cut, the source gives up its column first: the detail
        // says it, and the name is what tells one skill from another.
        if columns.name < name_wanted && columns.source > 0 {
            left += columns.source + 1;
            columns.source = 0;
            grow(&mut columns.name, name_wanted, &mut left);
        }
        if columns.agents > 0 {
            grow(&mut columns.agents, agents_natural, &mut left);
        }
        let installer = widest.installer.clamp(INSTALLED_BY, INSTALLER);
        columns.by = take(installer, &mut left);
        if extra.cost && columns.cost == 0 {
            columns.cost = take(COST, &mut left);
        }
        if extra.used && columns.used == 0 {
            columns.used = take(LAST_USED, &mut left);
        }
        if !by_recent {
            columns.modified = take(MODIFIED, &mut left);
        }
        if columns.by > 0 {
            let by_natural = widest.by.min(BY_CAP);
            // The repository is shown only where it gets a column's narrowest.
            if by_natural >= columns.by + 1 + MIN_COLUMN && left > MIN_COLUMN {
                grow(&mut columns.by, by_natural, &mut left);
            }
        }
        // What is left: the longest names whole, then the padding after them.
        columns.name += left;
        columns
    }

    fn head(&self, theme: &Theme) -> Line<'static> {
        let marks = MARKS + usize::from(self.lock);
        let mut text = format!("{}{}", " ".repeat(marks), width::pad("NAME", self.name));
        if self.source > 0 {
            text.push(' ');
            text.push_str(&width::pad("SOURCE", self.source));
        }
        if self.modified > 0 {
            text.push(' ');
            text.push_str(&width::pad("MODIFIED", self.modified));
        }
        if self.cost > 0 {
            text.push(' ');
            text.push_str(&pad_left("COST", self.cost));
        }
        if self.used > 0 {
            text.push(' ');
            text.push_str(&width::pad("LAST USED", self.used));
        }
        if self.by > 0 {
            text.push(' ');
            text.push_str(&width::pad("INSTALLED BY", self.by));
        }
        if self.agents > 0 {
            text.push(' ');
            text.push_str("AGENTS");
        }
        Line::styled(text, theme.dim)
    }

    fn row(
        &self,
        skill: &SkillView,
        shown: &Shown,
        theme: &Theme,
        selected: bool,
    ) -> Line<'static> {
        // Dim text would vanish on the selected row's background.
        let quiet = if selected {
            ratatui::style::Style::new()
        } else {
            theme.dim
        };
        let problem = if shown.audited {
            theme::AUDIT_MARKER
        } else if skill.problems.is_empty() {
            " "
        } else {
            theme::PROBLEM_MARKER
        };
        let shadowed = if shown.shadowed {
            theme::SHADOWED_MARKER
        } else {
            " "
        };
        // A mark is for the moment, so it is the one shown where both would be.
        let mark = if shown.marked {
            Span::styled(theme::MARKED_MARKER, theme.key)
        } else if shown.moved {
            Span::styled(theme::UPSTREAM_MARKER, theme.changed)
        } else {
            Span::raw(" ")
        };
        let changed = if shown.changed {
            Span::styled(theme::CHANGED_MARKER, theme.changed)
        } else {
            Span::raw(" ")
        };
        let mut spans = vec![
            mark,
            Span::styled(theme::state_marker(skill.state), theme.state(skill.state)),
        ];
        if self.lock {
            spans.push(match skill.lock {
                Some(lock) => Span::styled(theme::lock_marker(lock), theme.lock(lock)),
                None => Span::raw(" "),
            });
        }
        spans.extend([
            changed,
            Span::styled(problem, theme.warning),
            Span::styled(shadowed, quiet),
            Span::raw(" "),
            Span::raw(width::pad(
                &width::fit_middle(&skill.name, self.name),
                self.name,
            )),
        ]);
        if self.source > 0 {
            spans.push(Span::raw(" "));
            spans.push(Span::styled(
                theme::source_badge(skill.source),
                theme.source(skill.source),
            ));
        }
        if self.modified > 0 {
            let age = skill.age.map_or_else(|| "-".to_owned(), short_age);
            spans.push(Span::raw(" "));
            spans.push(Span::styled(width::pad(&age, self.modified), quiet));
        }
        if self.cost > 0 {
            let cell = cost_cell(shown.cost);
            let style = if shown.cost.is_some_and(|c| c.cut) {
                theme.warning
            } else {
                quiet
            };
            spans.push(Span::raw(" "));
            spans.push(Span::styled(pad_left(&cell, self.cost), style));
        }
        if self.used > 0 {
            spans.push(Span::raw(" "));
            spans.push(Span::styled(width::pad(&shown.last_used, self.used), quiet));
        }
        if self.by > 0 {
            spans.push(Span::raw(" "));
            spans.extend(self.by_spans(skill, quiet));
        }
        if self.agents > 0 {
            let agents = agents_cell(&shown.agents, skill.agents.len(), self.agents);
            spans.push(Span::raw(" "));
            spans.push(Span::styled(agents, quiet));
        }
        Line::from(spans)
    }

    /// `claude-plugin acme/claude-plugins`, padded to the column.
    fn by_spans(&self, skill: &SkillView, quiet: ratatui::style::Style) -> [Span<'static>; 2] {
        let Some(owner) = &skill.owner else {
            return [Span::styled(width::pad("-", self.by), quiet), Span::raw("")];
        };
        let installer = width::fit(&owner.installer, self.by);
        let room = self.by.saturating_sub(width::of(&installer) + 1);
        let from = match &owner.repository {
            Some(repository) if room >= MIN_COLUMN => {
                format!(" {}", width::fit(repository, room))
            }
            _ => String::new(),
        };
        let used = width::of(&installer) + width::of(&from);
        [
            Span::raw(installer),
            Span::styled(
                format!("{from}{}", " ".repeat(self.by.saturating_sub(used))),
                quiet,
            ),
        ]
    }
}

/// How long ago, in a few columns: `now`, `12 min`, `5 h`, `3 d`.
fn short_age(age: std::time::Duration) -> String {
    let seconds = age.as_secs();
    match seconds {
        0..60 => "now".to_owned(),
        60..3_600 => format!("{} min", seconds / 60),
        3_600..86_400 => format!("{} h", seconds / 3_600),
        _ => format!("{} d", seconds / 86_400),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ages_read_short() {
        use std::time::Duration;
        assert_eq!(short_age(Duration::from_secs(5)), "now");
        assert_eq!(short_age(Duration::from_secs(59 * 60)), "59 min");
        assert_eq!(short_age(Duration::from_secs(5 * 3_600)), "5 h");
        assert_eq!(short_age(Duration::from_secs(3 * 86_400 + 5)), "3 d");
    }

    fn widest(name: usize, agents: usize, installer: usize, by: usize) -> Widest {
        Widest {
            name,
            installer,
            by,
            agents,
        }
    }

    #[test]
    fn columns_are_as_wide_as_what_they_hold_and_the_name_gets_the_rest() {
        // Narrow: the name alone, whole up to its floor.
        let narrow = Columns::for_width(22, &widest(25, 20, 13, 30), Sort::Name, Extra::default());
        assert_eq!((narrow.name, narrow.source, narrow.agents), (16, 0, 0));
        // The source badge next, given up where the name would be cut with it.
        let small = Columns::for_width(30, &widest(25, 20, 13, 30), Sort::Name, Extra::default());
        assert_eq!((small.name, small.source, small.agents), (24, 0, 0));
        let roomy = Columns::for_width(40, &widest(25, 20, 13, 30), Sort::Name, Extra::default());
        assert_eq!((roomy.name, roomy.source, roomy.agents), (25, 0, 8));
        for total in 20..200 {
            let columns =
                Columns::for_width(total, &widest(25, 20, 13, 30), Sort::Name, Extra::default());
            assert!(
                columns.source == 0 || columns.name >= 25,
                "{total}: the source is shown while the name is cut"
            );
        }
        let medium = Columns::for_width(58, &widest(25, 29, 13, 30), Sort::Name, Extra::default());
        assert_eq!((medium.name, medium.source), (25, 7));
        assert_eq!(medium.agents, 58 - MARKS - 25 - 8 - 1);
        assert_eq!(medium.by, 0);
        // Wide: every column at its widest, the agents whole, the rest to the name.
        let wide = Columns::for_width(98, &widest(25, 29, 13, 30), Sort::Name, Extra::default());
        assert_eq!(wide.agents, 29);
        assert_eq!(wide.by, 13);
        assert_eq!(wide.modified, MODIFIED);
        assert_eq!(
            MARKS + wide.name + 1 + wide.source + 1 + wide.modified + 1 + wide.by + 1 + wide.agents,
            98
        );
        // Short names leave the room to the others, the installer's repository included.
        let short = Columns::for_width(120, &widest(10, 29, 13, 35), Sort::Name, Extra::default());
        assert_eq!(short.by, 35);
        // Sorted by modified: the modified column comes before the agents.
        let recent =
            Columns::for_width(58, &widest(25, 29, 13, 30), Sort::Recent, Extra::default());
        assert_eq!(recent.modified, MODIFIED);
    }

    #[test]
    fn the_agents_natural_width_is_the_cells_with_all_the_room_it_wants() {
        let app = App::default();
        let all: Vec<AgentId> = AgentId::all().collect();
        for n in 0..all.len() {
            let agents = &all[..n];
            let cell = agents_cell(agents, n, usize::MAX);
            assert_eq!(agents_natural(&app, agents), width::of(&cell), "{cell}");
        }
    }

    #[test]
    fn the_agents_column_names_what_fits_and_counts_the_rest() {
        let six: Vec<AgentId> = AgentId::all().take(6).collect();
        assert_eq!(agents_cell(&six, 6, 40), "claude-code,codex,opencode +3");
        assert_eq!(agents_cell(&six, 6, 20), "claude-code,codex +4");
        assert_eq!(agents_cell(&six, 6, 16), "claude-code +5");
        assert_eq!(agents_cell(&six, 6, 12), "claude-c… +5");
        assert_eq!(agents_cell(&six[1..2], 6, 16), "codex");
        assert_eq!(agents_cell(&[], 6, 16), "none installed");
        assert_eq!(agents_cell(&[], 0, 16), "-");
    }
}
