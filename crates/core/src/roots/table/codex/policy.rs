//! A Codex skill's own policy file, `agents/openai.yaml`: `policy.allow_implicit_invocation:
//! false` keeps it from the model's listing (it still runs as `$name`), and a
//! `policy.products` list without Codex drops it (both seen in `codex debug prompt-input`).

use std::path::Path;

use serde::Deserialize;

use super::{Effect, Hiding};
use crate::roots::agent::Holds;
use crate::skill::Declared;

pub(in crate::roots) const IMPLICIT_OFF: Hiding = Hiding {
    why: "agents/openai.yaml sets policy.allow_implicit_invocation: false",
    effect: Effect::FromModel,
    applies: implicit_off,
};

pub(in crate::roots) const OTHER_PRODUCTS: Hiding = Hiding {
    why: "agents/openai.yaml lists policy.products without codex",
    effect: Effect::Dropped,
    applies: other_products,
};

#[derive(Default, Deserialize)]
struct File {
    #[serde(default)]
    policy: Policy,
}

#[derive(Default, Deserialize)]
struct Policy {
    allow_implicit_invocation: Option<bool>,
    products: Option<Vec<String>>,
}

const POLICY_FILE: &str = "agents/openai.yaml";

fn read(dir: &Path, holds: Holds<'_>) -> Option<Policy> {
    if !holds(POLICY_FILE) {
        return None;
    }
    let bytes =
        crate::roots::settings::bytes(&dir.join(POLICY_FILE), crate::limits::POLICY_FILE_BYTES)?;
    let text = String::from_utf8(bytes).ok()?;
    serde_saphyr::from_str::<File>(&text)
        .ok()
        .map(|file| file.policy)
}

fn implicit_off(dir: &Path, holds: Holds<'_>, _: &Declared) -> bool {
    read(dir, holds).is_some_and(|policy| policy.allow_implicit_invocation == Some(false))
}

fn other_products(dir: &Path, holds: Holds<'_>, _: &Declared) -> bool {
    read(dir, holds)
        .and_then(|policy| policy.products)
        .is_some_and(|products| !products.iter().any(|p| p.eq_ignore_ascii_case("codex")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn skill(policy: &str) -> tempfile::TempDir {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(tmp.path().join("agents")).unwrap();
        std::fs::write(tmp.path().join("agents/openai.yaml"), policy).unwrap();
        tmp
    }

    fn implicit_off(dir: &Path) -> bool {
        super::implicit_off(dir, &|rel| dir.join(rel).exists(), &Declared::default())
    }

    fn other_products(dir: &Path) -> bool {
        super::other_products(dir, &|rel| dir.join(rel).exists(), &Declared::default())
    }

    #[test]
    fn implicit_invocation_off_hides_and_a_product_list_without_codex_drops() {
        let off = skill("policy:\n  allow_implicit_invocation: false\n");
        assert!(implicit_off(off.path()));
        assert!(!other_products(off.path()));
        let chatgpt = skill("policy:\n  products: [chatgpt]\n");
        assert!(other_products(chatgpt.path()));
        assert!(!implicit_off(chatgpt.path()));
        let both =
            skill("policy:\n  products: [codex, chatgpt]\n  allow_implicit_invocation: true\n");
        assert!(!other_products(both.path()) && !implicit_off(both.path()));
        let none = tempfile::tempdir().unwrap();
        assert!(!implicit_off(none.path()) && !other_products(none.path()));
    }
}
