//! A small inventory as the app's model holds it, for the tests that drive `update` with no
//! terminal, no threads and no files.

use std::path::PathBuf;
use std::time::{Duration, SystemTime};

use skilldeck::record::State;
use skilldeck::roots::{AgentId, Scope, Source};
use skilldeck::tui::geometry::{Laid, PaneGeometry, Panes};
use skilldeck::tui::model::{Deck, Presence, Read, RootView, SkillView, Verdict};
use skilldeck::tui::msg::{Action, Msg};
use strum::IntoEnumIterator;

pub fn skill(
    name: &str,
    source: Source,
    state: State,
    agents: &[AgentId],
    hours_ago: u64,
) -> SkillView {
    let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_000_000);
    let age = Duration::from_secs(hours_ago * 3600);
    SkillView {
        name: name.to_owned(),
        search_key: name.to_lowercase(),
        description: None,
        version: None,
        dir: PathBuf::from(format!("/skills/{name}")),
        shown_dir: format!("~/skills/{name}"),
        real_dir: None,
        also_at: Vec::new(),
        source,
        plugin: None,
        agents: agents.to_vec(),
        reads: vec![Read {
            shown_root: "~/skills".to_owned(),
            agents: agents.to_vec(),
        }],
        verdicts: agents
            .iter()
            .map(|&agent| Verdict {
                agent,
                winner: None,
                keeps_all: false,
            })
            .collect(),
        left_out: Vec::new(),
        unsettled_for: Vec::new(),
        disabled_for: Vec::new(),
        state,
        record: None,
        owner: None,
        digest: None,
        problems: Vec::new(),
        tree: Vec::new(),
        modified: Some(now - age),
        age: Some(age),
        lock: None,
    }
}

pub fn root(path: &str, skills: usize) -> RootView {
    RootView {
        shown_path: path.to_owned(),
        label: "a root".to_owned(),
        scope: Scope::User,
        agents: vec![AgentId::CLAUDE_CODE],
        owners: vec![AgentId::CLAUDE_CODE],
        presence: Presence::Exists,
        skills,
        notes: Vec::new(),
    }
}

/// Six skills, sorted by name as the scan gives them.
pub fn deck() -> Deck {
    const CLAUDE: AgentId = AgentId::CLAUDE_CODE;
    const CODEX: AgentId = AgentId::CODEX;
    const OPENCODE: AgentId = AgentId::OPENCODE;
    Deck::from_views(
        vec![
            skill("alpha", Source::User, State::Intact, &[CLAUDE], 240),
            skill(
                "beta",
                Source::Project,
                State::Modified,
                &[CLAUDE, CODEX],
                1,
            ),
            skill("delta", Source::Organization, State::Intact, &[CLAUDE], 48),
            skill("epsilon", Source::User, State::Unreadable, &[], 500),
            skill("gamma", Source::Plugin, State::Unrecorded, &[CODEX], 5),
            skill("漢字", Source::User, State::Unrecorded, &[OPENCODE], 30),
        ],
        vec![
            root("~/.claude/skills", 3),
            root("~/.agents/skills", 2),
            root("/etc/x", 0),
        ],
    )
}

/// [`deck`] with a second copy of alpha, in a project, that wins over the first for Claude
/// Code, and beta turned off for Codex by its settings; Cursor has no setting to turn one
/// skill off.
pub fn managed_deck() -> Deck {
    let mut skills: Vec<SkillView> = deck().skills;
    let mut project = skill(
        "alpha",
        Source::Project,
        State::Intact,
        &[AgentId::CLAUDE_CODE, AgentId::CURSOR],
        2,
    );
    project.dir = PathBuf::from("/project/skills/alpha");
    project.shown_dir = "~/project/skills/alpha".to_owned();
    skills[0].verdicts[0].winner = Some(project.shown_dir.clone());
    skills.insert(1, project);
    let beta = skills.iter_mut().find(|s| s.name == "beta").unwrap();
    beta.agents.retain(|a| *a != AgentId::CODEX);
    beta.verdicts.retain(|v| v.agent != AgentId::CODEX);
    beta.disabled_for = vec![AgentId::CODEX];
    beta.left_out = vec![(
        AgentId::CODEX,
        "codex has it turned off: [[skills.config]] in Codex's config.toml".to_owned(),
    )];
    Deck::from_views(skills, deck().roots).with_no_switch(vec![(
        AgentId::CURSOR,
        "Cursor has no setting that turns one skill off; remove it or move it out of Cursor's roots instead".to_owned(),
    )])
}

pub fn dir(name: &str) -> PathBuf {
    PathBuf::from(format!("/skills/{name}"))
}

/// A pane as a drawn frame reports it: `page` rows shown, scrolling at most to `max`.
pub fn pane(page: usize, max: usize) -> Option<PaneGeometry> {
    Some(PaneGeometry {
        page,
        max,
        ..PaneGeometry::default()
    })
}

/// The message a drawn frame sends with these panes, as `update` takes it in.
pub fn laid(panes: Panes<Option<PaneGeometry>>) -> Msg {
    Msg::Laid(Box::new(Laid {
        panes,
        wrapped: None,
    }))
}

/// Every action there is, from the enum itself so a new one cannot be left out; `Type` types an
/// `x`.
pub fn every_action() -> Vec<Action> {
    Action::iter()
        .map(|action| match action {
            Action::Type(_) => Action::Type('x'),
            action => action,
        })
        .collect()
}
