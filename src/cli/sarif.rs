//! The one SARIF 2.1.0 writer (locks-audit-and-agent-changes.md §4), for every command that
//! reports findings to code scanning (`verify`, `audit`): a minimal log with skilldeck as
//! the tool, its rules, and one result per finding. `informationUri`, optional in the schema,
//! is left out: the package names no home page to point it at.

use serde_json::json;

/// One finding, where it points.
pub struct Result<'a> {
    pub rule: &'a str,
    /// `error`, `warning` or `note`.
    pub level: &'static str,
    pub message: String,
    pub uri: String,
    /// 1-based; `None` for a finding about a whole file.
    pub line: Option<usize>,
}

/// The log of `results`, under `rules` (each an id and a short description).
pub fn log(rules: &[(&str, &str)], results: &[Result<'_>]) -> serde_json::Value {
    let rules: Vec<serde_json::Value> = rules
        .iter()
        .map(|(id, text)| json!({"id": id, "shortDescription": {"text": text}}))
        .collect();
    let results: Vec<serde_json::Value> = results
        .iter()
        .map(|result| {
            let mut location = json!({"artifactLocation": {"uri": result.uri}});
            if let Some(line) = result.line {
                location["region"] = json!({"startLine": line});
            }
            json!({
                "ruleId": result.rule,
                "level": result.level,
                "message": {"text": result.message},
                "locations": [{"physicalLocation": location}],
            })
        })
        .collect();
    json!({
        "version": "2.1.0",
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "runs": [{
            "tool": {"driver": {
                "name": "skilldeck",
                "version": env!("CARGO_PKG_VERSION"),
                "rules": rules,
            }},
            "results": results,
        }],
    })
}
