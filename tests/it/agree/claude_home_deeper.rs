//! Skills one folder deeper than usual under `~/.claude/skills` (`synced/NAME/SKILL.md`,
//! `group/NAME/SKILL.md`), and in a project's `.claude/skills`, every agent that reads those
//! folders asked (Codex and Gemini CLI read neither). The agents that read `~/.claude/skills`
//! deeper (OpenCode, Amp) find the skills below `synced` too; Claude Code loads none of them
//! (its synced skills sit at `synced/<org>_<account>/<name>`, asked in agree::claude_code and
//! the generator's `claude-synced` class).

use super::{Agent, Check, Lab, here};

const READERS: &[Agent] = &[
    Agent::ClaudeCode,
    Agent::OpenCode,
    Agent::Copilot,
    Agent::Amp,
];

#[test]
fn every_agent_on_skills_a_level_deeper_in_claude_home() {
    let Some(lab) = Lab::new() else { return };
    lab.warm(READERS);
    let root = lab.home.join(".claude/skills");
    lab.named(&root.join("top-level"));
    lab.named(&root.join("synced/synced-one"));
    lab.named(&root.join("synced/synced-two"));
    lab.named(&root.join("synced/grp/synced-deeper"));
    lab.named(&root.join("group/grouped"));
    lab.named(&lab.project.join(".claude/skills/synced/project-synced"));
    lab.check(Check::new(
        here!(),
        "nested skills (~/.claude/skills/synced)",
        READERS,
        &[&lab.project, &lab.outside],
    ));
}
