//! Claude Code's own usage counters: `skillUsage` in its global config
//! (`$CLAUDE_CONFIG_DIR/.claude.json`, else `~/.claude.json`) maps the name a skill is listed
//! by to `{usageCount, lastUsedAt}` (milliseconds since 1970), counted on every dispatch since
//! install. Claude Code 2.1.332 ranks skills by them when its listing is over budget
//! (`score`), so the listing reads them as well as the usage columns.

use std::path::PathBuf;
use std::time::{Duration, SystemTime};

use serde_json::Value;

use crate::limits;
use crate::roots::{AgentId, Environment};

use super::{Usage, Use};

/// The global config Claude Code keeps its counters in.
pub fn config_file(env: &Environment) -> PathBuf {
    let base = env
        .var("CLAUDE_CONFIG_DIR")
        .filter(|v| !v.is_empty())
        .map_or_else(|| env.home().to_path_buf(), PathBuf::from);
    base.join(".claude.json")
}

/// Claude Code's counters, by listed name; none when the file is missing, too large or does
/// not parse (it is the agent's, and a half-written one is passed over).
pub fn claude_code(env: &Environment) -> Vec<(String, Use)> {
    let Ok(bytes) = crate::fs::read_bounded(
        &config_file(env),
        crate::fs::Links::Follow,
        limits::USAGE.counters_bytes,
    ) else {
        return Vec::new();
    };
    let Ok(Value::Object(config)) = serde_json::from_slice::<Value>(&bytes) else {
        return Vec::new();
    };
    let Some(Value::Object(usage)) = config.get("skillUsage") else {
        return Vec::new();
    };
    usage
        .iter()
        .filter_map(|(name, entry)| {
            let count = entry.get("usageCount")?.as_u64()?;
            let last = entry
                .get("lastUsedAt")
                .and_then(Value::as_u64)
                .map(|ms| SystemTime::UNIX_EPOCH + Duration::from_millis(ms));
            Some((name.clone(), Use { count, last }))
        })
        .collect()
}

/// Adds Claude Code's counters to `usage` as `agent`'s (the agent whose session logs are
/// Claude Code's), and says the file was read.
pub fn add_claude_code(env: &Environment, agent: AgentId, usage: &mut Usage) {
    let counters = claude_code(env);
    if !counters.is_empty() {
        usage.reading.files += 1;
    }
    for (name, uses) in counters {
        usage.add_counter(agent, name, uses);
    }
}

/// Claude Code's rank of a skill when its listing is over budget: the uses, halved for every
/// week since the last, but never below a tenth of them (2.1.332's `usageCount ×
/// max(0.5^(days/7), 0.1)`); 0 for a skill never used.
pub fn score(uses: Use, now: SystemTime) -> f64 {
    let days = uses
        .last
        .and_then(|last| now.duration_since(last).ok())
        .map_or(0.0, |age| age.as_secs_f64() / 86_400.0);
    uses.count as f64 * 0.5_f64.powf(days / 7.0).max(0.1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_week_halves_the_score_and_a_tenth_stays() {
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_000 * 86_400);
        let at = |days: u64| Use {
            count: 8,
            last: Some(now - Duration::from_secs(days * 86_400)),
        };
        assert_eq!(score(at(0), now), 8.0);
        assert_eq!(score(at(7), now), 4.0);
        assert!((score(at(700), now) - 0.8).abs() < 1e-9);
        assert_eq!(
            score(
                Use {
                    count: 0,
                    last: None
                },
                now
            ),
            0.0
        );
    }

    #[test]
    fn counters_are_read_by_name_and_a_broken_file_gives_none() {
        let home = tempfile::tempdir().unwrap();
        let env = Environment::new(home.path());
        std::fs::write(
            home.path().join(".claude.json"),
            r#"{"numStartups": 3, "skillUsage": {"pdf": {"usageCount": 4, "lastUsedAt": 1700000000000}, "bad": {"usageCount": "x"}}}"#,
        )
        .unwrap();
        let found = claude_code(&env);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].0, "pdf");
        assert_eq!(found[0].1.count, 4);
        std::fs::write(home.path().join(".claude.json"), "{\"skillUsage\": {").unwrap();
        assert!(claude_code(&env).is_empty());
    }
}
