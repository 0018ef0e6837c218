//! The generator: one function per class of what a machine may hold, each adding items to a
//! [`Gen`]. Each class draws from a PRNG stream of its own (derived from the seed and the
//! class's name), so switching one class off leaves the others' choices as they were (only
//! the numbers in the generated names move).

use super::super::layout::{PROJECT_ROOTS, USER_ROOTS};
use super::machine::{Base, Cwd, Item, Machine, Place};

/// SplitMix64: small, deterministic, and the same on every platform.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64, stream: &str) -> Self {
        let mut state = seed ^ 0x9e37_79b9_7f4a_7c15;
        for byte in stream.bytes() {
            state = (state ^ u64::from(byte)).wrapping_mul(0x1000_0000_01b3);
        }
        Self(state)
    }

    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    pub fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// A skill a class wrote, for the classes that name skills (settings, precedence).
#[derive(Clone, Debug)]
pub struct Skill {
    /// The name its frontmatter gives (or its folder's, without one).
    pub name: String,
    pub dir: Place,
}

/// A machine being generated.
pub struct Gen {
    pub rng: Rng,
    pub items: Vec<Item>,
    pub skills: Vec<Skill>,
    /// Roots a class made a link: no other class writes below them.
    linked_roots: Vec<Place>,
    /// JSON settings files several classes add keys to, written last.
    settings: Vec<(Place, serde_json::Value)>,
    count: usize,
}

const WORDS: &[&str] = &[
    "alpha", "bravo", "delta", "echo", "foxtrot", "golf", "hotel", "kilo", "lima", "oscar",
];

impl Gen {
    /// A fresh name, unlike every other of the machine.
    pub fn name(&mut self) -> String {
        self.count += 1;
        format!("{}-{}", self.rng.pick(WORDS), self.count)
    }

    /// A root of any scope: a user root below HOME, or a project root at the project, in its
    /// subfolder, above it, outside any project or at the lab's top.
    pub fn root(&mut self) -> Place {
        loop {
            let place = if self.rng.chance(45) {
                Place::new(Base::Home, *self.rng.pick(USER_ROOTS))
            } else {
                let root = *self.rng.pick(PROJECT_ROOTS);
                let (base, above) = *self.rng.pick(&[
                    (Base::Proj, ""),
                    (Base::Proj, ""),
                    (Base::Proj, "sub"),
                    (Base::Lab, "work"),
                    (Base::Lab, "out"),
                    (Base::Lab, ""),
                ]);
                Place::new(base, above).join(root)
            };
            if !self.linked_roots.contains(&place) {
                return place;
            }
        }
    }

    pub fn file(&mut self, at: Place, content: String) {
        self.items.push(Item::File { at, content });
    }

    /// Set `file`'s `key.entry` to `value` (`entry` `None`: push `value` to the array `key`).
    pub fn setting(
        &mut self,
        file: Place,
        key: &str,
        entry: Option<&str>,
        value: serde_json::Value,
    ) {
        let at = match self.settings.iter().position(|(f, _)| *f == file) {
            Some(at) => at,
            None => {
                self.settings.push((file, serde_json::json!({})));
                self.settings.len() - 1
            }
        };
        let object = &mut self.settings[at].1;
        match entry {
            Some(entry) => object[key][entry] = value,
            None => match object[key].as_array_mut() {
                Some(items) => items.push(value),
                None => object[key] = serde_json::Value::Array(vec![value]),
            },
        }
    }

    /// Set `file`'s value at `path` (objects made on the way, a value that is not one replaced)
    /// to `value`, or push `value` to the list there when `push`.
    pub fn setting_at(&mut self, file: Place, path: &[&str], value: serde_json::Value, push: bool) {
        let at = match self.settings.iter().position(|(f, _)| *f == file) {
            Some(at) => at,
            None => {
                self.settings.push((file, serde_json::json!({})));
                self.settings.len() - 1
            }
        };
        let mut slot = &mut self.settings[at].1;
        for key in path {
            if !slot.is_object() {
                *slot = serde_json::json!({});
            }
            slot = &mut slot[*key];
        }
        match slot.as_array_mut() {
            Some(items) if push => items.push(value),
            _ if push => *slot = serde_json::Value::Array(vec![value]),
            _ => *slot = value,
        }
    }

    /// Set a variable for the agents and skilldeck (`None`: leave one of the lab's out); a
    /// later class's value for the same name replaces an earlier one's.
    pub fn env(&mut self, name: &str, value: Option<&str>) {
        self.items
            .retain(|item| !matches!(item, Item::Env { name: there, .. } if there == name));
        self.items.push(Item::Env {
            name: name.to_owned(),
            value: value.map(str::to_owned),
        });
    }

    /// Add `text` to the end of the file at `at`, written by this class or an earlier one.
    pub fn append(&mut self, at: Place, text: &str) {
        let written = self.items.iter_mut().find_map(|item| match item {
            Item::File { at: there, content } if *there == at => Some(content),
            _ => None,
        });
        match written {
            Some(content) => content.push_str(text),
            None => self.file(at, text.to_owned()),
        }
    }

    /// Add `text` to the start of the file at `at` (a root key of a TOML file before its
    /// tables).
    pub fn prepend(&mut self, at: Place, text: &str) {
        let written = self.items.iter_mut().find_map(|item| match item {
            Item::File { at: there, content } if *there == at => Some(content),
            _ => None,
        });
        match written {
            Some(content) => content.insert_str(0, text),
            None => self.file(at, text.to_owned()),
        }
    }

    pub fn link(&mut self, at: Place, to: Place) {
        self.items.push(Item::Link { at, to });
    }

    /// An ordinary skill `dir/SKILL.md` named `name`.
    pub fn skill(&mut self, dir: Place, name: &str) {
        self.file(dir.join("SKILL.md"), frontmatter(name));
        self.skills.push(Skill {
            name: name.to_owned(),
            dir,
        });
    }

    /// A named skill in a random root; its name.
    pub fn plain(&mut self) -> String {
        let name = self.name();
        let root = self.root();
        self.skill(root.join(&name), &name);
        name
    }

    /// A name of a skill already written, else a new plain skill's.
    pub fn some_name(&mut self) -> String {
        if self.skills.is_empty() || self.rng.chance(10) {
            return self.plain();
        }
        let at = self.rng.below(self.skills.len());
        self.skills[at].name.clone()
    }
}

pub fn frontmatter(name: &str) -> String {
    format!("---\nname: {name}\ndescription: The {name} skill.\n---\n# {name}\n\nBody.\n")
}

/// A class: its name (printed with each case) and its generator.
pub struct Class {
    pub name: &'static str,
    pub generate: fn(&mut Gen),
}

/// Every class, skills first: the settings classes name skills the others wrote.
pub const CLASSES: &[Class] = &[
    Class {
        name: "roots",
        generate: roots,
    },
    Class {
        name: "names",
        generate: names,
    },
    Class {
        name: "names-invalid-yaml",
        generate: names_invalid_yaml,
    },
    Class {
        name: "names-bom",
        generate: names_bom,
    },
    Class {
        name: "names-empty-description",
        generate: names_empty_description,
    },
    Class {
        name: "names-spaces",
        generate: names_spaces,
    },
    Class {
        name: "nesting",
        generate: nesting,
    },
    Class {
        name: "nesting-node-modules",
        generate: nesting_node_modules,
    },
    Class {
        name: "nesting-git",
        generate: nesting_git,
    },
    Class {
        name: "links",
        generate: links,
    },
    Class {
        name: "links-dangling",
        generate: links_dangling,
    },
    Class {
        name: "precedence",
        generate: precedence,
    },
    Class {
        name: "claude-settings",
        generate: claude_settings,
    },
    Class {
        name: "claude-user-invocable-only",
        generate: claude_user_invocable_only,
    },
    // Before every class that adds a table to `config.toml`: its key must come first.
    Class {
        name: "claude-synced",
        generate: claude_synced,
    },
    Class {
        name: "claude-plugins",
        generate: claude_plugins,
    },
    Class {
        name: "codex-root-markers",
        generate: codex_root_markers,
    },
    Class {
        name: "codex-settings",
        generate: codex_settings,
    },
    Class {
        name: "codex-bundled",
        generate: codex_bundled,
    },
    Class {
        name: "codex-trust",
        generate: codex_trust,
    },
    Class {
        name: "codex-mistyped",
        generate: codex_mistyped,
    },
    Class {
        name: "codex-plugins",
        generate: codex_plugins,
    },
    Class {
        name: "gemini-settings",
        generate: gemini_settings,
    },
    Class {
        name: "gemini-trust",
        generate: gemini_trust,
    },
    Class {
        name: "gemini-enabled",
        generate: gemini_enabled,
    },
    Class {
        name: "gemini-env",
        generate: gemini_env,
    },
    Class {
        name: "gemini-line-reader",
        generate: gemini_line_reader,
    },
    Class {
        name: "gemini-extensions",
        generate: gemini_extensions,
    },
    Class {
        name: "opencode-settings",
        generate: opencode_settings,
    },
    Class {
        name: "copilot-settings",
        generate: copilot_settings,
    },
    Class {
        name: "copilot-skill-directories",
        generate: copilot_skill_directories,
    },
    Class {
        name: "copilot-ignored",
        generate: copilot_ignored,
    },
    Class {
        name: "copilot-user-dialect",
        generate: copilot_user_dialect,
    },
    Class {
        name: "copilot-repository",
        generate: copilot_repository,
    },
    Class {
        name: "copilot-names",
        generate: copilot_names,
    },
    Class {
        name: "copilot-plugins",
        generate: copilot_plugins,
    },
    Class {
        name: "amp-names",
        generate: amp_names,
    },
    Class {
        name: "amp-nesting",
        generate: amp_nesting,
    },
    Class {
        name: "env-homes",
        generate: env_homes,
    },
    Class {
        name: "home-moved",
        generate: home_moved,
    },
];

/// The machine of `seed` with the classes `on` (by name): each class joins with a chance,
/// `roots` (and a class asked alone) always, so that every machine has skills; the start folder is any of the four.
pub fn machine(seed: u64, on: &[&str]) -> Machine {
    let mut cwd_rng = Rng::new(seed, "cwd");
    let cwd = *cwd_rng.pick(&Cwd::ALL);
    let mut items = Vec::new();
    let mut skills = Vec::new();
    let mut linked_roots = Vec::new();
    let mut settings = Vec::new();
    let mut count = 0;
    for class in CLASSES.iter().filter(|c| on.contains(&c.name)) {
        let mut g = Gen {
            rng: Rng::new(seed, class.name),
            items,
            skills,
            linked_roots,
            settings,
            count,
        };
        // A class asked alone always joins, so that each of its seeds is a machine of it.
        if class.name == "roots" || on.len() == 1 || g.rng.chance(50) {
            (class.generate)(&mut g);
        }
        (items, skills, linked_roots, settings, count) =
            (g.items, g.skills, g.linked_roots, g.settings, g.count);
    }
    for (at, value) in settings {
        items.push(Item::File {
            at,
            content: format!("{value}\n"),
        });
    }
    Machine { cwd, items }
}

/// Plain skills in roots of every scope.
fn roots(g: &mut Gen) {
    for _ in 0..1 + g.rng.below(4) {
        g.plain();
    }
}

/// Frontmatter quirks: a name unlike the folder, none, no frontmatter, CRLF
/// lines, and names with upper case, non-ASCII, a colon, or more than 64 characters.
fn names(g: &mut Gen) {
    for _ in 0..1 + g.rng.below(2) {
        let folder = g.name();
        let (content, name) = match g.rng.below(8) {
            0 => {
                let other = g.name();
                (frontmatter(&other), other)
            }
            1 => (
                "---\ndescription: No name line.\n---\nBody.\n".to_owned(),
                folder.clone(),
            ),
            2 => (
                "# No frontmatter\n\nJust a body.\n".to_owned(),
                folder.clone(),
            ),
            3 => (frontmatter(&folder).replace('\n', "\r\n"), folder.clone()),
            4 => named(&format!("{folder}-Upper_Case")),
            5 => named(&format!("{folder}-café")),
            6 => {
                let name = format!("{folder}:colon");
                (frontmatter(&format!("\"{name}\"")), name)
            }
            _ => named(&format!("{folder}-{}", "long".repeat(16))),
        };
        quirk(g, &folder, name, content);
    }
}

fn named(name: &str) -> (String, String) {
    (frontmatter(name), name.to_owned())
}

/// A skill in folder `folder` of a random root, with `content`, known as `name`.
fn quirk(g: &mut Gen, folder: &str, name: String, content: String) {
    let dir = g.root().join(folder);
    g.file(dir.join("SKILL.md"), content);
    g.skills.push(Skill { name, dir });
}

/// Frontmatter that is not valid YAML (a colon in an unquoted value).
fn names_invalid_yaml(g: &mut Gen) {
    let name = g.name();
    let content = format!("---\nname: {name}\ndescription: uses: a colon, unquoted\n---\nBody.\n");
    quirk(g, &name.clone(), name, content);
}

/// A byte-order mark before the frontmatter.
fn names_bom(g: &mut Gen) {
    let name = g.name();
    let content = format!("\u{feff}{}", frontmatter(&name));
    quirk(g, &name.clone(), name, content);
}

/// An empty description.
fn names_empty_description(g: &mut Gen) {
    let name = g.name();
    let content = format!("---\nname: {name}\ndescription: \"\"\n---\nBody.\n");
    quirk(g, &name.clone(), name, content);
}

/// A space in the name.
fn names_spaces(g: &mut Gen) {
    let folder = g.name();
    let (content, name) = named(&format!("{folder} spaced"));
    quirk(g, &folder, name, content);
}

/// Depths below a root, a skill inside another skill's folder, a hidden folder and the
/// lower-case `skill.md`.
fn nesting(g: &mut Gen) {
    for _ in 0..1 + g.rng.below(2) {
        let name = g.name();
        let root = g.root();
        match g.rng.below(4) {
            0 => {
                let mut dir = root;
                for depth in 0..1 + g.rng.below(6) {
                    dir = dir.join(&format!("g{depth}"));
                }
                g.skill(dir.join(&name), &name);
            }
            1 => {
                let outer = g.name();
                g.skill(root.join(&outer), &outer);
                g.skill(root.join(&outer).join(&name), &name);
            }
            2 => g.skill(root.join(".hidden").join(&name), &name),
            _ => {
                let dir = root.join(&name);
                g.file(dir.join("skill.md"), frontmatter(&name));
                g.skills.push(Skill { name, dir });
            }
        }
    }
}

/// A skill in a `node_modules` folder below a root.
fn nesting_node_modules(g: &mut Gen) {
    let name = g.name();
    let root = g.root();
    g.skill(root.join("node_modules").join(&name), &name);
}

/// A skill in a `.git` folder below a root.
fn nesting_git(g: &mut Gen) {
    let name = g.name();
    let root = g.root();
    g.skill(root.join(".git").join(&name), &name);
}

/// Links: a linked skill folder, a linked root, a SKILL.md that is a link.
fn links(g: &mut Gen) {
    let name = g.name();
    let elsewhere = Place::new(Base::Lab, "elsewhere");
    match g.rng.below(3) {
        0 => {
            let target = elsewhere.join(&name);
            g.file(target.join("SKILL.md"), frontmatter(&name));
            let at = g.root().join(&name);
            g.link(at.clone(), target);
            g.skills.push(Skill { name, dir: at });
        }
        1 => {
            let target = elsewhere.join(&format!("root-{name}"));
            g.file(target.join(&name).join("SKILL.md"), frontmatter(&name));
            let at = g.root();
            g.link(at.clone(), target);
            g.linked_roots.push(at.clone());
            g.skills.push(Skill {
                name: name.clone(),
                dir: at.join(&name),
            });
        }
        _ => {
            let target = elsewhere.join(&format!("{name}.md"));
            g.file(target.clone(), frontmatter(&name));
            let dir = g.root().join(&name);
            g.link(dir.join("SKILL.md"), target);
            g.skills.push(Skill { name, dir });
        }
    }
}

/// A dangling link where a skill folder would be.
fn links_dangling(g: &mut Gen) {
    let name = g.name();
    let at = g.root().join(&name);
    g.link(at, Place::new(Base::Lab, "nowhere").join(&name));
}

/// One name in two or three roots (which copy wins is each agent's precedence).
fn precedence(g: &mut Gen) {
    let name = g.name();
    for _ in 0..2 + g.rng.below(2) {
        let root = g.root();
        g.skill(root.join(&name), &name);
    }
}

/// One of Claude Code's settings files: the user's, the project's, the project's local one.
fn claude_file(g: &mut Gen) -> Place {
    let (base, rel) = *g.rng.pick(&[
        (Base::Home, ".claude/settings.json"),
        (Base::Proj, ".claude/settings.json"),
        (Base::Proj, ".claude/settings.local.json"),
    ]);
    Place::new(base, rel)
}

/// Claude Code's `skillOverrides` `on`, `name-only` and `off`.
fn claude_settings(g: &mut Gen) {
    for _ in 0..1 + g.rng.below(3) {
        let file = claude_file(g);
        let name = g.some_name();
        let value = *g.rng.pick(&["on", "name-only", "off"]);
        g.setting(file, "skillOverrides", Some(&name), value.into());
    }
}

/// Claude Code's `skillOverrides` `user-invocable-only`.
fn claude_user_invocable_only(g: &mut Gen) {
    let file = claude_file(g);
    let name = g.some_name();
    g.setting(
        file,
        "skillOverrides",
        Some(&name),
        "user-invocable-only".into(),
    );
}

/// Claude Code's folder of skills synced from claude.ai, `~/.claude/skills/synced`: a skill in
/// the layout it syncs (`<org>_<account>/<name>`, the account a UUID or `unbound`), one right
/// below it, or `synced` itself a skill; sometimes with the same name in the personal folder.
/// Organizations and accounts of the synced folders (`<org>_<account>`), in two spellings of
/// case for the first organization: Claude Code lower-cases what it reads.
const ORGS: &[&str] = &[
    "0f8c3a52-1111-4222-8333-444455556666",
    "7d2e9f10-aaaa-4bbb-8ccc-ddddeeeeffff",
];
const ACCOUNTS: &[&str] = &[
    "9a7b1c2d-5555-4666-8777-888899990000",
    "c3d4e5f6-0000-4111-8222-333344445555",
];

/// Claude Code's synced skills: `~/.claude/skills/synced/<org>_<account|unbound>/<name>`
/// folders of several identities, each with its `.bucket-` marker or not, the signed-in
/// identity in `~/.claude.json` (`oauthAccount`) or none, a stored token
/// (`~/.claude/.credentials.json`) that may serve the model or not, and the layouts Claude Code
/// never loads: a skill right below `synced`, and `synced/SKILL.md`. Only the signed-in
/// account's marked folder loads (roots::table::claude_code::synced); the signed-out ones,
/// which need `CLAUDE_CODE_SYNC_SKILLS` in the environment, are asked in agree::claude_code.
fn claude_synced(g: &mut Gen) {
    let synced = Place::new(Base::Home, ".claude/skills/synced");
    // The identity first, so that its own folder is written often enough to be asked about.
    let org = *g.rng.pick(ORGS);
    let account = *g.rng.pick(ACCOUNTS);
    for at in 0..1 + g.rng.below(3) {
        let (org, account) = if at == 0 && g.rng.chance(60) {
            (org, account)
        } else {
            let other = if g.rng.chance(30) {
                "unbound"
            } else {
                *g.rng.pick(ACCOUNTS)
            };
            (*g.rng.pick(ORGS), other)
        };
        let bucket = format!("{org}_{account}");
        // A folder spelt in upper case is not the one Claude Code reads (it lower-cases).
        let folder = if g.rng.chance(15) {
            bucket.to_uppercase()
        } else {
            bucket.clone()
        };
        let name = g.name();
        g.skill(synced.join(&folder).join(&name), &name);
        if g.rng.chance(75) {
            g.file(synced.join(&format!(".bucket-{bucket}")), String::new());
        }
        // Claude Code names a skill by its folder: a personal copy of the same name.
        if g.rng.chance(30) {
            let personal = Place::new(Base::Home, ".claude/skills").join(&name);
            g.skill(personal, &name);
        }
    }
    match g.rng.below(4) {
        0 => {
            let name = g.name();
            g.skill(synced.join(&name), &name);
        }
        1 => g.skill(synced.clone(), "synced"),
        _ => {}
    }
    if g.rng.chance(80) {
        let org = if g.rng.chance(20) {
            org.to_uppercase()
        } else {
            org.to_owned()
        };
        g.file(
            Place::new(Base::Home, ".claude.json"),
            format!(
                "{{\"oauthAccount\": {{\"organizationUuid\": \"{org}\", \"accountUuid\": \"{account}\", \"emailAddress\": \"lab@example.com\"}}}}\n"
            ),
        );
    }
    if g.rng.chance(75) {
        let scopes = if g.rng.chance(80) {
            "\"user:inference\", \"user:profile\""
        } else {
            "\"user:profile\""
        };
        // A token that never expires, so Claude Code does not try to refresh it offline.
        g.file(
            Place::new(Base::Home, ".claude/.credentials.json"),
            format!(
                "{{\"claudeAiOauth\": {{\"accessToken\": \"lab-token\", \"refreshToken\": \"lab-refresh\", \"expiresAt\": 4102444800000, \"scopes\": [{scopes}]}}}}\n"
            ),
        );
    }
}

/// Claude Code's plugins: cached plugins (`~/.claude/plugins/cache/<marketplace>/<plugin>/
/// <version>`) with installs in `installed_plugins.json` at the user, project and local scopes
/// (for this project, its subfolder, or another folder), turned on or off by `enabledPlugins`
/// in the user's, the project's, the local, a subfolder's and the managed settings; manifests
/// whose `skills` lists paths; and plugin-shaped folders inside `~/.claude/skills`.
fn claude_plugins(g: &mut Gen) {
    let market = *g.rng.pick(&["mkt", "market-b"]);
    let cache = Place::new(Base::Home, ".claude/plugins/cache").join(market);
    let mut installed = serde_json::Map::new();
    let mut catalog = Vec::new();
    for _ in 0..1 + g.rng.below(3) {
        let plugin = g.name();
        let key = format!("{plugin}@{market}");
        // The marketplace's catalog (its clone) lists the plugin, mostly.
        if g.rng.chance(85) {
            catalog
                .push(serde_json::json!({"name": plugin, "source": format!("./plugins/{plugin}")}));
        }
        let versions = ["1.0.0", "2.0.0"];
        let version = *g.rng.pick(&versions);
        plugin_folder(g, &cache.join(&plugin).join(version), &plugin);
        // Another version left on disk, which no install names.
        if g.rng.chance(20) {
            let other = versions
                .iter()
                .find(|v| **v != version)
                .copied()
                .unwrap_or("0.1.0");
            plugin_folder(g, &cache.join(&plugin).join(other), &plugin);
        }
        let mut installs = Vec::new();
        for _ in 0..g.rng.below(3) {
            let scope = *g.rng.pick(&["user", "user", "project", "local"]);
            let mut install = serde_json::json!({
                "scope": scope,
                "installPath": absolute(&cache.join(&plugin).join(version)),
                "version": version,
            });
            if scope != "user" {
                let (base, rel) = *g.rng.pick(&[
                    (Base::Proj, ""),
                    (Base::Proj, ""),
                    (Base::Proj, "sub"),
                    (Base::Lab, "out"),
                    (Base::Lab, "other"),
                ]);
                install["projectPath"] = absolute(&Place::new(base, rel)).into();
            }
            installs.push(install);
        }
        if !installs.is_empty() {
            installed.insert(key.clone(), installs.into());
        }
        for _ in 0..g.rng.below(4) {
            let file = plugin_settings_file(g);
            let on = g.rng.chance(70);
            g.setting(file, "enabledPlugins", Some(&key), on.into());
        }
    }
    // A marketplace of a git repository, as `claude plugin marketplace add` records one,
    // mostly; its clone holds the catalog.
    let plugins = Place::new(Base::Home, ".claude/plugins");
    let clone = plugins.join("marketplaces").join(market);
    if g.rng.chance(85) {
        let known = serde_json::json!({market: {
            "source": {"source": "github", "repo": format!("agree/{market}")},
            "installLocation": absolute(&clone),
            "lastUpdated": "2026-12-01T00:00:00.000Z",
        }});
        g.file(
            plugins.join("known_marketplaces.json"),
            format!("{known}\n"),
        );
    }
    let listing =
        serde_json::json!({"name": market, "owner": {"name": "agree"}, "plugins": catalog});
    g.file(
        clone.join(".claude-plugin/marketplace.json"),
        format!("{listing}\n"),
    );
    if !installed.is_empty() {
        g.file(
            Place::new(Base::Home, ".claude/plugins/installed_plugins.json"),
            format!(
                "{}\n",
                serde_json::json!({"version": 2, "plugins": installed})
            ),
        );
    }
    if g.rng.chance(50) {
        let folder = g.name();
        let plugin = g.name();
        plugin_folder(
            g,
            &Place::new(Base::Home, ".claude/skills").join(&folder),
            &plugin,
        );
    }
}

/// The settings files Claude Code reads `enabledPlugins` from: the user's, the project's and
/// its local one, a subfolder's, and the managed file (`/etc/claude-code`, which the lab
/// overlays from `<lab>/sys/etc/claude-code`).
fn plugin_settings_file(g: &mut Gen) -> Place {
    let (base, rel) = *g.rng.pick(&[
        (Base::Home, ".claude/settings.json"),
        (Base::Home, ".claude/settings.json"),
        (Base::Proj, ".claude/settings.json"),
        (Base::Proj, ".claude/settings.local.json"),
        (Base::Proj, "sub/.claude/settings.json"),
        (Base::Proj, "sub/.claude/settings.local.json"),
        (Base::Lab, "sys/etc/claude-code/managed-settings.json"),
    ]);
    Place::new(base, rel)
}

/// A plugin folder: its manifest (named `plugin`, sometimes with `skills` listing paths as a
/// string or an array: a folder of skills, one skill's own folder, a missing path, the plugin
/// folder itself, with or without `./`), skills in `skills/`, named by their folder or by
/// frontmatter unlike it, and sometimes a `SKILL.md` of its own.
fn plugin_folder(g: &mut Gen, dir: &Place, plugin: &str) {
    let mut listed: Vec<String> = Vec::new();
    for _ in 0..g.rng.below(3) {
        let path = match g.rng.below(6) {
            0 => {
                let name = g.name();
                plugin_skill(g, &dir.join("extra").join(&name), &name);
                "./extra".to_owned()
            }
            1 => {
                let name = g.name();
                plugin_skill(g, &dir.join("more").join(&name), &name);
                "more".to_owned()
            }
            2 => {
                let name = g.name();
                plugin_skill(g, &dir.join(&name), &name);
                format!("./{name}")
            }
            3 => "./missing".to_owned(),
            4 => {
                let name = g.name();
                plugin_skill(g, &dir.join("skills").join(&name), &name);
                "./skills".to_owned()
            }
            _ => {
                let name = g.name();
                plugin_skill(g, dir, &name);
                "./".to_owned()
            }
        };
        if !listed.contains(&path) {
            listed.push(path);
        }
    }
    let mut manifest = serde_json::json!({"name": plugin, "version": "1.0.0"});
    match listed.len() {
        0 => {}
        1 if g.rng.chance(50) => manifest["skills"] = listed[0].clone().into(),
        _ => manifest["skills"] = listed.into(),
    }
    g.file(
        dir.join(".claude-plugin/plugin.json"),
        format!("{manifest}\n"),
    );
    for _ in 0..g.rng.below(3) {
        let name = g.name();
        plugin_skill(g, &dir.join("skills").join(&name), &name);
    }
    if g.rng.chance(15)
        && !g
            .items
            .iter()
            .any(|i| matches!(i, Item::File { at, .. } if *at == dir.join("SKILL.md")))
    {
        let name = g.name();
        plugin_skill(g, dir, &name);
    }
}

/// A plugin's skill in `dir`, named `folder`'s name or, sometimes, another in its frontmatter.
fn plugin_skill(g: &mut Gen, dir: &Place, name: &str) {
    let at = dir.join("SKILL.md");
    if g.items
        .iter()
        .any(|i| matches!(i, Item::File { at: there, .. } if *there == at))
    {
        return;
    }
    let declared = if g.rng.chance(30) {
        format!("{name}-declared")
    } else {
        name.to_owned()
    };
    g.file(at, frontmatter(&declared));
}

fn codex_config() -> Place {
    Place::new(Base::Home, ".codex/config.toml")
}

/// Codex's `project_root_markers` (written before any table of its `config.toml`): one name,
/// or an empty list (the start folder alone is the project), with a `package.json` in the
/// project's subfolder for the marker that names it.
fn codex_root_markers(g: &mut Gen) {
    let marker = *g.rng.pick(&[".hg", "package.json", ".git", "sub", ""]);
    if marker == "package.json" {
        g.file(
            Place::new(Base::Proj, "sub/package.json"),
            "{}\n".to_owned(),
        );
    }
    let list = if marker.is_empty() {
        String::new()
    } else {
        json(marker)
    };
    g.append(
        codex_config(),
        &format!("project_root_markers = [{list}]\n"),
    );
}

/// Codex's `[[skills.config]]` entries, by name (padded with spaces, or in upper case) or by
/// path (absolute, from `~`, relative to `~/.codex`, through `..`, or the skill's folder
/// rather than its `SKILL.md`), turning off or on.
fn codex_settings(g: &mut Gen) {
    for _ in 0..1 + g.rng.below(3) {
        let enabled = g.rng.chance(20);
        let selector = if g.rng.chance(50) || g.skills.is_empty() {
            let name = g.some_name();
            let name = match g.rng.below(6) {
                0 => format!("  {name} "),
                1 => name.to_uppercase(),
                _ => name,
            };
            format!("name = {}", json(&name))
        } else {
            let at = g.rng.below(g.skills.len());
            let dir = g.skills[at].dir.clone();
            let skill = dir.join("SKILL.md");
            let path = match (g.rng.below(6), skill.base) {
                (0, Base::Home) => format!("~/{}", skill.rel),
                (1, Base::Home) => format!("../{}", skill.rel),
                (2, _) => {
                    let folder = dir.rel.rsplit('/').next().unwrap_or_default();
                    format!("{}/../{folder}/SKILL.md", absolute(&dir))
                }
                (3, _) => absolute(&dir),
                _ => absolute(&skill),
            };
            format!("path = {}", json(&path))
        };
        g.append(
            codex_config(),
            &format!("\n[[skills.config]]\n{selector}\nenabled = {enabled}\n"),
        );
    }
}

/// Codex's `[skills.bundled]` (`enabled` false, true or left out) in the user's config or in
/// a project's `.codex/config.toml` (read only when `codex-trust` trusts it), and a skill
/// written into `~/.codex/skills/.system`, the folder Codex writes its system skills into.
fn codex_bundled(g: &mut Gen) {
    let table = *g.rng.pick(&[
        "\n[skills.bundled]\nenabled = false\n",
        "\n[skills.bundled]\nenabled = false\n",
        "\n[skills.bundled]\nenabled = true\n",
        "\n[skills.bundled]\n",
    ]);
    let file = if g.rng.chance(60) {
        codex_config()
    } else {
        codex_project_config(g)
    };
    g.append(file, table);
    if g.rng.chance(30) {
        let name = g.name();
        let dir = Place::new(Base::Home, ".codex/skills/.system").join(&name);
        g.skill(dir, &name);
    }
}

/// A project's `.codex/config.toml`: the project's own or its subfolder's.
fn codex_project_config(g: &mut Gen) -> Place {
    let rel = *g.rng.pick(&[
        ".codex/config.toml",
        ".codex/config.toml",
        "sub/.codex/config.toml",
    ]);
    Place::new(Base::Proj, rel)
}

/// Codex's project trust, `[projects."<path>"] trust_level` in the user's config, for the
/// project, its subfolder, the folder above it (a parent: not inherited), the project spelt
/// with a trailing `/`, or a folder outside; then a project's `.codex/config.toml` turning the
/// system skills off or a skill off (`[[skills.config]]`, which Codex reads from the user's
/// config only), or giving `project_root_markers` (read from the user's layers only).
fn codex_trust(g: &mut Gen) {
    for _ in 0..1 + g.rng.below(2) {
        let path = *g.rng.pick(&[
            "{PROJ}",
            "{PROJ}",
            "{PROJ}/sub",
            "{LAB}/work",
            "{PROJ}/",
            "{LAB}/out",
        ]);
        let level = if g.rng.chance(75) {
            "trusted"
        } else {
            "untrusted"
        };
        g.append(
            codex_config(),
            &format!("\n[projects.{}]\ntrust_level = \"{level}\"\n", json(path)),
        );
    }
    let file = codex_project_config(g);
    let text = match g.rng.below(3) {
        0 => "\n[skills.bundled]\nenabled = false\n".to_owned(),
        1 => {
            let name = g.some_name();
            format!(
                "\n[[skills.config]]\nname = {}\nenabled = false\n",
                json(&name)
            )
        }
        _ => "project_root_markers = []\n".to_owned(),
    };
    // A root key goes before any table of a file another class began.
    if text.starts_with('\n') {
        g.append(file, &text);
    } else {
        g.prepend(file, &text);
    }
}

/// A `config.toml` Codex refuses to start with, in the user's config or a project's (which
/// counts only when trusted): text that is not TOML, or a setting skilldeck reads given a
/// wrong type or an unknown variant.
fn codex_mistyped(g: &mut Gen) {
    let file = if g.rng.chance(70) {
        codex_config()
    } else {
        codex_project_config(g)
    };
    let text = *g.rng.pick(&[
        "\n[skills.bundled]\nenabled = \"no\"\n",
        "\n[[skills.config]]\nname = \"x\"\n",
        "\n[[skills.config]]\nname = 3\nenabled = false\n",
        "\n[projects.\"/nowhere\"]\ntrust_level = \"Trusted\"\n",
        "\n[plugins.\"p@m\"]\nenabled = \"yes\"\n",
        "\nnot [toml\n",
        "\n[projects]\nx = 1\n",
    ]);
    g.append(file, text);
}

/// Codex plugins in its cache, `~/.codex/plugins/cache/<marketplace>/<plugin>/<version>`:
/// one or two versions (`local`, semantic ones), a manifest of Codex's, of Claude Code's, none,
/// or one that is not JSON; named, blank-named or unnamed; its `skills` one path, a list of a
/// folder and a skill's folder, an empty list or absent; turned on, off or not named in
/// `[plugins."<plugin>@<marketplace>"]`.
fn codex_plugins(g: &mut Gen) {
    for _ in 0..1 + g.rng.below(2) {
        let plugin = g.name();
        let market = *g.rng.pick(&["mkt", "other-mkt"]);
        let choices: [&[&str]; 4] = [
            &["1.0.0"],
            &["1.0.0", "2.0.0"],
            &["local", "9.0.0"],
            &["beta"],
        ];
        let versions = *g.rng.pick(&choices);
        for version in versions {
            let dir = Place::new(Base::Home, ".codex/plugins/cache")
                .join(market)
                .join(&plugin)
                .join(version);
            let name = match g.rng.below(4) {
                0 => "\"name\": \" \", ".to_owned(),
                1 => String::new(),
                _ => format!("\"name\": {}, ", json(&plugin)),
            };
            let (skills, folders): (&str, &[&str]) = *g.rng.pick(&[
                ("", &["skills/{n}"][..]),
                ("", &["skills/grp/{n}", "skills/{n}-2"]),
                ("\"skills\": \"./custom\"", &["custom/{n}", "skills/{n}-no"]),
                (
                    "\"skills\": [\"./c1\", \"./one\"]",
                    &["c1/{n}", "one", "skills/{n}-no"],
                ),
                ("\"skills\": []", &["skills/{n}"]),
            ]);
            for folder in folders {
                let skill_name = g.name();
                let at = dir.join(&folder.replace("{n}", &skill_name));
                g.file(at.join("SKILL.md"), frontmatter(&skill_name));
            }
            let body = format!("{{{name}{skills}}}").replace(", }", "}");
            match g.rng.below(8) {
                0 => {}
                1 => g.file(
                    dir.join(".codex-plugin/plugin.json"),
                    "not json\n".to_owned(),
                ),
                2 | 3 => g.file(dir.join(".claude-plugin/plugin.json"), format!("{body}\n")),
                _ => g.file(dir.join(".codex-plugin/plugin.json"), format!("{body}\n")),
            }
        }
        match g.rng.below(4) {
            0 => {}
            1 => g.append(
                codex_config(),
                &format!("\n[plugins.\"{plugin}@{market}\"]\nenabled = false\n"),
            ),
            _ => g.append(
                codex_config(),
                &format!("\n[plugins.\"{plugin}@{market}\"]\nenabled = true\n"),
            ),
        }
    }
}

/// Gemini CLI's `skills.disabled` and `skills.enabled`, in the user's or the workspace's file.
fn gemini_settings(g: &mut Gen) {
    let file = gemini_file(g);
    for _ in 0..1 + g.rng.below(2) {
        let name = g.some_name();
        let name = if g.rng.chance(20) {
            name.to_uppercase()
        } else {
            name
        };
        g.setting_at(file.clone(), &["skills", "disabled"], name.into(), true);
    }
    if g.rng.chance(20) {
        g.setting_at(file, &["skills", "enabled"], false.into(), false);
    }
}

/// The user's or the workspace's `.gemini/settings.json`.
fn gemini_file(g: &mut Gen) -> Place {
    let base = if g.rng.chance(50) {
        Base::Home
    } else {
        Base::Proj
    };
    Place::new(base, ".gemini/settings.json")
}

/// Gemini CLI's extensions in `~/.gemini/extensions`: one to three, their manifests' names
/// drawn from two (so two may clash, which stops Gemini CLI) or one it refuses, a version or
/// none, an install record (none, local, a link to a folder elsewhere, git, a GitHub release),
/// skills in `skills/` and `skills/<name>/` (names with a `${key}` it substitutes, `.env` files
/// for the extension and the project), enablement rules for the project, and now and then
/// `security.blockGitExtensions` or `security.allowedExtensions` in the user's settings.
fn gemini_extensions(g: &mut Gen) {
    let extensions = Place::new(Base::Home, ".gemini/extensions");
    let names = [g.name(), g.name()];
    for at in 0..1 + g.rng.below(3) {
        let folder = format!("ext-{}", g.name());
        let name = match g.rng.below(7) {
            0 => "not.a.name".to_owned(),
            1..=3 => names[0].clone(),
            _ => names[1].clone(),
        };
        let version = if g.rng.chance(85) {
            ", \"version\": \"1.0.0\""
        } else {
            ""
        };
        let kind = *g.rng.pick(&["", "local", "link", "git", "github-release"]);
        let dir = if kind == "link" {
            Place::new(Base::Lab, "ext-src").join(&folder)
        } else {
            extensions.join(&folder)
        };
        g.file(
            dir.join("gemini-extension.json"),
            format!("{{\"name\": {}{version}}}\n", json(&name)),
        );
        for _ in 0..1 + g.rng.below(2) {
            let skill = g.name();
            let named = hydrated(g, &skill);
            g.skill(dir.join("skills").join(&skill), &named);
        }
        if g.rng.chance(20) {
            let skill = g.name();
            g.skill(dir.join("skills"), &skill);
        }
        if g.rng.chance(30) {
            let env = extensions.join(&name).join(".env");
            g.file(
                env,
                "HYD=from-user\nexport OTHER = two words # note\n".to_owned(),
            );
        }
        let source = match kind {
            "" => continue,
            "link" => absolute(&dir),
            "local" => absolute(&Place::new(Base::Lab, "src").join(&folder)),
            _ => format!("https://github.com/acme/{folder}"),
        };
        g.file(
            extensions
                .join(&folder)
                .join(".gemini-extension-install.json"),
            format!(
                "{{\"source\": {}, \"type\": {}}}\n",
                json(&source),
                json(kind)
            ),
        );
        if at == 0 && g.rng.chance(30) {
            let rule = if g.rng.chance(50) {
                "!{PROJ}/*"
            } else {
                "{PROJ}/*"
            };
            g.file(
                extensions.join("extension-enablement.json"),
                format!("{{{}: {{\"overrides\": [{}]}}}}\n", json(&name), json(rule)),
            );
        }
    }
    if g.rng.chance(30) {
        g.file(
            Place::new(Base::Proj, ".env"),
            "HYD='from-workspace'\n".to_owned(),
        );
    }
    let user = Place::new(Base::Home, ".gemini/settings.json");
    match g.rng.below(6) {
        0 => g.setting_at(
            user,
            &["security", "blockGitExtensions"],
            serde_json::json!(true),
            false,
        ),
        1 => g.setting_at(
            user,
            &["security", "allowedExtensions"],
            serde_json::json!(["acme/", "ext-src"]),
            false,
        ),
        _ => {}
    }
}

/// Gemini CLI's folder trust, asked without the lab's `GEMINI_CLI_TRUST_WORKSPACE=true`:
/// workspace skills at the start folders, rules in `~/.gemini/trustedFolders.json`
/// (`TRUST_FOLDER`, `TRUST_PARENT`, `DO_NOT_TRUST` on the folders around the project, written
/// absolute, with a trailing `/`, through `..` or relative), `security.folderTrust.enabled` in
/// the user's or the workspace's settings (as a boolean, text, `0` or `null`), sometimes the
/// variable set to something other than `true`, and a workspace file that turns a skill off.
fn gemini_trust(g: &mut Gen) {
    g.env("GEMINI_CLI_TRUST_WORKSPACE", None);
    for _ in 0..1 + g.rng.below(2) {
        let name = g.name();
        let at = *g
            .rng
            .pick(&[(Base::Proj, ""), (Base::Proj, "sub"), (Base::Lab, "out")]);
        let root = *g.rng.pick(&[".gemini/skills", ".agents/skills"]);
        g.skill(Place::new(at.0, at.1).join(root).join(&name), &name);
    }
    let folders = [
        Place::new(Base::Lab, ""),
        Place::new(Base::Lab, "work"),
        Place::new(Base::Proj, ""),
        Place::new(Base::Proj, "sub"),
        Place::new(Base::Proj, "abc"),
        Place::new(Base::Proj, "sub/deeper"),
        Place::new(Base::Lab, "out"),
        Place::new(Base::Home, ""),
    ];
    let rules_file = Place::new(Base::Home, ".gemini/trustedFolders.json");
    for _ in 0..g.rng.below(4) {
        let folder = g.rng.pick(&folders).clone();
        let level = *g
            .rng
            .pick(&["TRUST_FOLDER", "TRUST_PARENT", "DO_NOT_TRUST"]);
        let spelled = match g.rng.below(8) {
            0 => format!("{}/", absolute(&folder)),
            1 if !folder.rel.is_empty() => {
                format!("{}/../{}", absolute(&folder), last(&folder))
            }
            2 => ".".to_owned(),
            3 => "sub".to_owned(),
            _ => absolute(&folder),
        };
        g.setting_at(rules_file.clone(), &[&spelled], level.into(), false);
    }
    if g.rng.chance(40) {
        let file = gemini_file(g);
        let value = g
            .rng
            .pick(&[
                serde_json::json!(false),
                serde_json::json!(false),
                serde_json::json!(true),
                serde_json::json!("false"),
                serde_json::json!(0),
                serde_json::json!(null),
            ])
            .clone();
        g.setting_at(file, &["security", "folderTrust", "enabled"], value, false);
    }
    if g.rng.chance(40) {
        let name = g.some_name();
        let file = Place::new(Base::Proj, ".gemini/settings.json");
        g.setting_at(file, &["skills", "disabled"], name.into(), true);
    }
    if g.rng.chance(15) {
        let value = *g.rng.pick(&["false", "1", "TRUE"]);
        g.env("GEMINI_CLI_TRUST_WORKSPACE", Some(value));
    }
}

/// Gemini CLI's `skills.enabled` as more than a boolean (text, `null`, `0`, an empty text) and
/// `skills` itself not an object, in the user's and the workspace's files.
fn gemini_enabled(g: &mut Gen) {
    for _ in 0..1 + g.rng.below(2) {
        let file = gemini_file(g);
        let value = g
            .rng
            .pick(&[
                serde_json::json!(false),
                serde_json::json!(true),
                serde_json::json!("false"),
                serde_json::json!(null),
                serde_json::json!(0),
                serde_json::json!(""),
                serde_json::json!(1),
            ])
            .clone();
        if g.rng.chance(15) {
            g.setting_at(file, &["skills"], value, false);
        } else {
            g.setting_at(file, &["skills", "enabled"], value, false);
        }
    }
}

/// Variables in Gemini CLI's settings, which it expands in every string (`$NAME`, `${NAME}`,
/// `${NAME:-default}`; a name that is not set stays as written): a `skills.disabled` entry
/// naming a skill through one, `skills.enabled` and `security.folderTrust.enabled` given by
/// one, and a `trustedFolders.json` rule written with `$HOME` (that file is not expanded).
fn gemini_env(g: &mut Gen) {
    let file = gemini_file(g);
    let name = g.some_name();
    let entry = match g.rng.below(6) {
        0 => {
            g.env("GEM_OFF", Some(&name));
            "$GEM_OFF".to_owned()
        }
        1 => {
            g.env("GEM_OFF", Some(&name));
            "${GEM_OFF}".to_owned()
        }
        2 => format!("${{GEM_UNSET:-{name}}}"),
        3 => {
            let (head, tail) = name.split_at(name.len() / 2);
            g.env("GEM_PART", Some(tail));
            format!("{head}$GEM_PART")
        }
        4 => format!("$GEM_UNSET{name}"),
        _ => {
            g.env("GEM_OFF", Some(""));
            format!("${{GEM_OFF:-x}}{name}")
        }
    };
    g.setting_at(file, &["skills", "disabled"], entry.into(), true);
    if g.rng.chance(30) {
        let file = gemini_file(g);
        let (value, var) = *g.rng.pick(&[
            ("${GEM_SKILLS:-}", None),
            ("$GEM_SKILLS", Some("false")),
            ("$GEM_SKILLS", Some("")),
            ("${GEM_SKILLS:-true}", None),
        ]);
        if let Some(var) = var {
            g.env("GEM_SKILLS", Some(var));
        }
        g.setting_at(file, &["skills", "enabled"], value.into(), false);
    }
    if g.rng.chance(30) {
        g.env("GEMINI_CLI_TRUST_WORKSPACE", None);
        let file = Place::new(Base::Home, ".gemini/settings.json");
        let value = *g.rng.pick(&["${GEM_TRUST:-}", "$GEM_TRUST"]);
        g.setting_at(
            file,
            &["security", "folderTrust", "enabled"],
            value.into(),
            false,
        );
        if g.rng.chance(50) {
            let rules = Place::new(Base::Home, ".gemini/trustedFolders.json");
            // The lab's project is `<lab>/work/proj`, its home `<lab>/home`.
            g.setting_at(rules, &["$HOME/../work/proj"], "TRUST_FOLDER".into(), false);
        }
    }
}

/// Frontmatter Gemini CLI reads with its line reader (js-yaml throws, or gives no text `name`
/// and `description`), in the roots only Gemini CLI reads: quotes kept, colons in values,
/// continued descriptions, tabs, a number for a name, a repeated key, a nested `name:` line,
/// an empty or missing `name:`, a folded description.
fn gemini_line_reader(g: &mut Gen) {
    for _ in 0..1 + g.rng.below(2) {
        let folder = g.name();
        let yaml = match g.rng.below(14) {
            0 => format!("name: \"{folder}\"\ndescription: uses: a colon"),
            1 => format!("name: '{folder}'\ndescription: uses: a colon"),
            2 => format!("name: {folder}: more\ndescription: plain"),
            3 => format!("name: {folder}\ndescription: first: line\n  second line\n\tthird"),
            4 => format!("name: {folder}\n\tdescription: tabbed"),
            5 => format!("\tname: {folder}\ndescription: tabbed name"),
            6 => "name: 12345\ndescription: a number".to_owned(),
            7 => format!("name: other\nname: {folder}\ndescription: twice"),
            8 => format!("name: {folder}\ndescription: d: e\nmetadata:\n  name: {folder}-inner"),
            9 => "name:\ndescription: an: empty name".to_owned(),
            10 => "description: no: name line".to_owned(),
            11 => format!("name: {folder}\ndescription: >\n  folded: text\n  more"),
            12 => format!("name: {folder}\ndescription: [a, b"),
            _ => format!("name: {folder}\r\ndescription: crlf: colon\r\n"),
        };
        let content = format!("---\n{yaml}\n---\nBody.\n");
        let root = match g.rng.below(3) {
            0 => Place::new(Base::Home, ".gemini/skills"),
            1 => Place::new(Base::Proj, ".gemini/skills"),
            _ => Place::new(Base::Proj, "sub/.gemini/skills"),
        };
        let dir = root.join(&folder);
        g.file(dir.join("SKILL.md"), content);
        g.skills.push(Skill { name: folder, dir });
    }
}

/// OpenCode's `permission.skill`, in the global or the project's file, by name or wildcard.
fn opencode_settings(g: &mut Gen) {
    let file = *g.rng.pick(&[
        (Base::Home, ".config/opencode/opencode.json"),
        (Base::Home, ".config/opencode/opencode.jsonc"),
        (Base::Proj, "opencode.json"),
        (Base::Proj, ".opencode/opencode.jsonc"),
    ]);
    let mut rules = Vec::new();
    for _ in 0..1 + g.rng.below(3) {
        let name = g.some_name();
        let pattern = if g.rng.chance(30) {
            format!("{}*", &name[..name.len().min(3)])
        } else {
            name
        };
        let action = g.rng.pick(&["deny", "allow", "ask"]);
        rules.push(format!("{}: {}", json(&pattern), json(action)));
    }
    g.file(
        Place::new(file.0, file.1),
        format!(
            "{{\"permission\": {{\"skill\": {{{}}}}}}}\n",
            rules.join(", ")
        ),
    );
}

/// Copilot CLI's `disabledSkills`, in the user's and the repository's settings.
fn copilot_settings(g: &mut Gen) {
    for _ in 0..1 + g.rng.below(2) {
        let file = if g.rng.chance(50) {
            Place::new(Base::Home, ".copilot/settings.json")
        } else {
            Place::new(Base::Proj, ".github/copilot/settings.json")
        };
        let name = g.some_name();
        g.setting(file, "disabledSkills", None, name.into());
    }
}

/// Copilot CLI's `skillDirectories`, in the user's settings: a folder of skills or one skill
/// itself, written absolute, relative (to the start folder, for Copilot), from `~` (which
/// Copilot does not expand), through `..` or with a trailing `/`, or a folder that is missing.
fn copilot_skill_directories(g: &mut Gen) {
    let file = Place::new(Base::Home, ".copilot/settings.json");
    for _ in 0..1 + g.rng.below(2) {
        let name = g.name();
        let (base, rel) = *g.rng.pick(&[
            (Base::Lab, "extra-skills"),
            (Base::Lab, "out/extra"),
            (Base::Home, "my-skills"),
            (Base::Proj, "tools/skills"),
        ]);
        let folder = Place::new(base, rel);
        let (dir, listed) = if g.rng.chance(25) {
            let one = folder.join(&name);
            (one.clone(), one)
        } else {
            (folder.join(&name), folder)
        };
        if !g.rng.chance(15) {
            g.skill(dir, &name);
        }
        let spelled = match (g.rng.below(8), base) {
            (0, Base::Home) => format!("~/{}", listed.rel),
            (1, Base::Proj) => listed.rel.clone(),
            (2, _) => format!("{}/", absolute(&listed)),
            (3, _) => format!("{}/../{}", absolute(&listed), last(&listed)),
            _ => absolute(&listed),
        };
        g.setting(file.clone(), "skillDirectories", None, spelled.into());
    }
}

/// Copilot CLI's `ignoredSkillsLocations`, in the user's settings: a root of skills, a folder
/// above one (the project's `.github`, the home's `.copilot`), a skill's own folder inside a
/// root, or a relative entry; spelt with `~`, a trailing `/`, `..` or spaces around it.
fn copilot_ignored(g: &mut Gen) {
    let file = Place::new(Base::Home, ".copilot/settings.json");
    for _ in 0..1 + g.rng.below(2) {
        let target = match g.rng.below(6) {
            0 => Place::new(Base::Proj, ".github"),
            1 => Place::new(Base::Home, ".copilot"),
            2 if !g.skills.is_empty() => {
                let at = g.rng.below(g.skills.len());
                g.skills[at].dir.clone()
            }
            _ => g.root(),
        };
        let spelled = match (g.rng.below(8), target.base) {
            (0, Base::Home) => format!("~/{}", target.rel),
            (1, Base::Proj) => target.rel.clone(),
            (2, _) => format!("{}/", absolute(&target)),
            (3, _) => format!("{}/../{}", absolute(&target), last(&target)),
            (4, _) => format!("  {} ", absolute(&target)),
            _ => absolute(&target),
        };
        g.setting(file.clone(), "ignoredSkillsLocations", None, spelled.into());
    }
}

/// A place as an absolute path in a file's text (`{HOME}`, `{PROJ}` or `{LAB}` first).
fn absolute(place: &Place) -> String {
    let base = match place.base {
        Base::Home => "{HOME}",
        Base::Proj => "{PROJ}",
        Base::Lab => "{LAB}",
    };
    if place.rel.is_empty() {
        base.to_owned()
    } else {
        format!("{base}/{}", place.rel)
    }
}

/// A place's last folder name.
fn last(place: &Place) -> &str {
    place.rel.rsplit('/').next().unwrap_or_default()
}

/// A JSON (and TOML basic) string.
fn json(text: &str) -> String {
    serde_json::Value::String(text.to_owned()).to_string()
}

/// The roots Copilot CLI reads (besides its settings' folders), its own (no other agent's)
/// first two.
const COPILOT_ROOTS: &[(Base, &str)] = &[
    (Base::Home, ".copilot/skills"),
    (Base::Proj, ".github/skills"),
    (Base::Home, ".agents/skills"),
    (Base::Proj, ".agents/skills"),
    (Base::Proj, ".claude/skills"),
    (Base::Proj, "sub/.github/skills"),
];

/// The roots Amp reads, its own (no other agent's) first two.
const AMP_ROOTS: &[(Base, &str)] = &[
    (Base::Home, ".config/agents/skills"),
    (Base::Home, ".config/amp/skills"),
    (Base::Home, ".agents/skills"),
    (Base::Home, ".claude/skills"),
    (Base::Proj, ".agents/skills"),
    (Base::Proj, ".claude/skills"),
    (Base::Proj, "sub/.claude/skills"),
];

fn one_of(g: &mut Gen, roots: &[(Base, &str)]) -> Place {
    let (base, rel) = *g.rng.pick(roots);
    Place::new(base, rel)
}

/// Copilot CLI's user `settings.json` in one of the spellings its own loader reads or
/// refuses (comments, a trailing or a missing comma, a byte-order mark, hexadecimal and `+`
/// numbers, `01`, `1.`; single quotes, a bare key, a block comment left open, `.5`, `1.e5`), or with a key of the
/// wrong type, which voids the whole file; what it says shows in a `skillDirectories` folder
/// read or not, and an `ignoredSkillsLocations` root dropped or not.
/// Numbers as Copilot's user loader reads them (`01`, `1.`, `1e`, `0x`) or refuses them.
const COPILOT_NUMBERS: &[&str] = &[
    "01", "1.", "-007", "1e", "2e-", "0x", "01.50e3", "1.e5", "1..2", "0b1", "1_000", "00x1",
];

fn copilot_user_dialect(g: &mut Gen) {
    let name = g.name();
    let folder = Place::new(Base::Lab, "dialect-skills");
    g.skill(folder.join(&name), &name);
    let mut keys = vec![format!(
        "\"skillDirectories\": [{}]",
        json(&absolute(&folder))
    )];
    if g.rng.chance(40) {
        let root = one_of(g, COPILOT_ROOTS);
        let other = g.name();
        g.skill(root.join(&other), &other);
        keys.push(format!(
            "\"ignoredSkillsLocations\": [{}]",
            json(&absolute(&root))
        ));
    }
    let body = keys.join(", ");
    let text = match g.rng.below(15) {
        0 => format!("{{{body}}}\n"),
        1 => format!("// mine\n{{{body}, /* two */}}\n"),
        2 => format!("\u{feff}{{{body}}}\n"),
        3 => format!("{{{}}}\n", body.replace('"', "'")),
        4 => format!(
            "{{{}}}\n",
            body.replace("\"skillDirectories\"", "skillDirectories")
        ),
        5 => format!("{{{body}, \"x\": 0x1F}}\n"),
        6 => format!("{{{body} \"x\": +1}}\n"),
        7 => format!("{{{body}}} /* open\n"),
        8 => format!("{{{body}, \"x\": .5}}\n"),
        9 => format!("{{{body}, \"model\": 5}}\n"),
        10 => format!("{{{body}, \"disabledSkills\": [\"a\", 3]}}\n"),
        11 => format!("{{{body}, \"theme\": \"dark\",}}\n"),
        12 => format!("{{{body}, \"x\": Infinity}}\n"),
        13 => format!("{{{body}, \"x\": [{}]}}\n", g.rng.pick(COPILOT_NUMBERS)),
        _ => format!("{{\n\t{body}\n}}\n"),
    };
    g.file(Place::new(Base::Home, ".copilot/settings.json"), text);
}

/// Copilot CLI's installed plugins, as the records in `~/.copilot/config.json`
/// (`installedPlugins`) give them: one or two, enabled or not, with or without `installed_at`
/// (now and then without `enabled` or `marketplace`, or with `enabled` not a boolean),
/// in `installed-plugins/<marketplace>/<plugin>` or `_direct/<plugin>` (a `cache_path` written
/// absolute, relative or left out), turned off or on again by `enabledPlugins` in
/// `~/.copilot/settings.json`; skills below `skills/` (nested too), the manifest's `skills`
/// paths, or the plugin's own `SKILL.md`; now and then a folder no record names.
fn copilot_plugins(g: &mut Gen) {
    let config = Place::new(Base::Home, ".copilot/config.json");
    for _ in 0..1 + g.rng.below(2) {
        let plugin = g.name();
        let marketplace = *g.rng.pick(&["", "mkt", "other-mkt"]);
        let folder = if marketplace.is_empty() {
            "_direct"
        } else {
            marketplace
        };
        let rel = format!(".copilot/installed-plugins/{folder}/{plugin}");
        let dir = Place::new(Base::Home, &rel);
        let mut manifest = format!("\"name\": {}, \"version\": \"1.0.0\"", json(&plugin));
        match g.rng.below(6) {
            0 => {
                let n = g.name();
                g.skill(dir.join("skills").join(&n), &n);
            }
            1 => {
                let (n, m) = (g.name(), g.name());
                g.skill(dir.join("skills/grp").join(&n), &n);
                g.skill(dir.join("skills").join(&m), &m);
            }
            2 => {
                let (n, m) = (g.name(), g.name());
                g.skill(dir.clone(), &n);
                g.skill(dir.join("skills").join(&m), &m);
            }
            3 => {
                let (n, m) = (g.name(), g.name());
                g.skill(dir.join("custom").join(&n), &n);
                g.skill(dir.join("skills").join(&m), &m);
                manifest.push_str(", \"skills\": [\"./custom\"]");
            }
            4 => {
                let (n, m) = (g.name(), g.name());
                g.skill(dir.join("one"), &n);
                g.skill(dir.join("skills").join(&m), &m);
                manifest.push_str(", \"skills\": \"./one\"");
            }
            _ => {
                let n = g.name();
                g.skill(dir.join("skills/a/b").join(&n), &n);
            }
        }
        let manifest_at = *g.rng.pick(&[
            "plugin.json",
            ".github/plugin/plugin.json",
            ".claude-plugin/plugin.json",
        ]);
        g.file(dir.join(manifest_at), format!("{{{manifest}}}\n"));
        if g.rng.chance(10) {
            continue;
        }
        let mut record = serde_json::json!({
            "name": plugin,
            "marketplace": marketplace,
            "enabled": g.rng.chance(80),
        });
        if g.rng.chance(85) {
            record["installed_at"] = serde_json::json!("2026-11-01T10:00:00.000Z");
        }
        // Now and then a record Copilot cannot read for another key: one it requires left
        // out, or of the wrong type.
        match g.rng.below(24) {
            key @ (0 | 1) => {
                if let Some(fields) = record.as_object_mut() {
                    fields.remove(["enabled", "marketplace"][key]);
                }
            }
            2 => record["enabled"] = serde_json::json!(*g.rng.pick(&["yes", "false"])),
            3 => record["enabled"] = serde_json::Value::Null,
            _ => {}
        }
        match g.rng.below(3) {
            0 => record["cache_path"] = serde_json::json!(absolute(&dir)),
            1 => {
                record["cache_path"] =
                    serde_json::json!(format!("installed-plugins/{folder}/{plugin}"))
            }
            _ => {}
        }
        g.setting_at(config.clone(), &["installedPlugins"], record, true);
        if g.rng.chance(30) {
            let key = format!("{plugin}@{marketplace}");
            let on = g.rng.chance(50);
            g.setting_at(
                Place::new(Base::Home, ".copilot/settings.json"),
                &["enabledPlugins", &key],
                serde_json::json!(on),
                false,
            );
        }
    }
}

/// The repository's `.github/copilot/settings.json` and `settings.local.json`, in a folder
/// Copilot trusts or not (`trusted_folders` in `~/.copilot/config.json`: the project, its
/// subfolder, a folder above it, none): `skillDirectories` and `ignoredSkillsLocations` there
/// (which only the user's file gives), `disabledSkills`, plain or spelt as only the user's
/// loader reads it (a byte-order mark, a comment), or with a key of the wrong type.
fn copilot_repository(g: &mut Gen) {
    let trusted = match g.rng.below(5) {
        0 => Some("{PROJ}"),
        1 => Some("{PROJ}/sub"),
        2 => Some("{LAB}"),
        3 => Some("{HOME}/elsewhere"),
        _ => None,
    };
    if let Some(folder) = trusted {
        let comment = if g.rng.chance(30) { "// trust\n" } else { "" };
        g.file(
            Place::new(Base::Home, ".copilot/config.json"),
            format!("{comment}{{\"trusted_folders\": [{}]}}\n", json(folder)),
        );
    }
    for _ in 0..1 + g.rng.below(2) {
        let file = if g.rng.chance(50) {
            ".github/copilot/settings.json"
        } else {
            ".github/copilot/settings.local.json"
        };
        let key = match g.rng.below(3) {
            0 => {
                let folder = Place::new(Base::Lab, "repo-skills");
                let name = g.name();
                g.skill(folder.join(&name), &name);
                format!("\"skillDirectories\": [{}]", json(&absolute(&folder)))
            }
            1 => {
                let root = one_of(g, COPILOT_ROOTS);
                let name = g.name();
                g.skill(root.join(&name), &name);
                format!("\"ignoredSkillsLocations\": [{}]", json(&absolute(&root)))
            }
            _ => {
                let name = g.some_name();
                format!("\"disabledSkills\": [{}]", json(&name))
            }
        };
        let text = match g.rng.below(5) {
            0 => format!("\u{feff}{{{key}}}\n"),
            1 => format!("// mine\n{{{key}}}\n"),
            2 => format!("{{{key}, \"model\": 5}}\n"),
            _ => format!("{{{key}}}\n"),
        };
        let place = Place::new(Base::Proj, file);
        if !g
            .items
            .iter()
            .any(|i| matches!(i, Item::File { at, .. } if *at == place))
        {
            g.file(place, text);
        }
    }
}

/// Names Copilot CLI rewrites or refuses, in its roots: spaces (one run is one `-`), upper
/// case, non-ASCII, marks it allows, a leading mark, 64 and 65 characters, a folder's name
/// when the frontmatter gives none; and a `SKILL.md` that is a dangling link.
fn copilot_names(g: &mut Gen) {
    for _ in 0..1 + g.rng.below(3) {
        let folder = g.name();
        let root = one_of(g, COPILOT_ROOTS);
        let dir = root.join(&folder);
        match g.rng.below(11) {
            // In Copilot's own roots: Codex reads a run of spaces as one (FINDINGS, open).
            0 => {
                let own = one_of(g, &COPILOT_ROOTS[..2]).join(&folder);
                quirk_at(g, own, &format!("{folder} Two  Spaces"));
            }
            1 => quirk_at(g, dir, &format!("{folder}-UPPER")),
            2 => quirk_at(g, dir, &format!("{folder}-naïve")),
            3 => quirk_at(g, dir, &format!("{folder}.v2:tool_x")),
            4 => quirk_at(g, dir, &format!("-{folder}")),
            5 => {
                let name = format!("{folder}-{}", "x".repeat(64));
                quirk_at(g, dir, &name[..64]);
            }
            6 => {
                let name = format!("{folder}-{}", "x".repeat(64));
                quirk_at(g, dir, &name[..65]);
            }
            7 => {
                let odd = root.join(&format!("{folder} Földer"));
                g.file(
                    odd.join("SKILL.md"),
                    "---\ndescription: No name.\n---\nBody.\n".to_owned(),
                );
            }
            8 => {
                let spaced = root.join(&format!("{folder} Folder"));
                g.file(
                    spaced.join("SKILL.md"),
                    "---\ndescription: No name.\n---\nBody.\n".to_owned(),
                );
            }
            9 => g.link(
                dir.join("SKILL.md"),
                Place::new(Base::Lab, "nowhere").join(&format!("{folder}.md")),
            ),
            _ => g.link(dir, Place::new(Base::Lab, "nowhere").join(&folder)),
        }
    }
}

/// A skill at `dir` whose frontmatter names it `name`.
fn quirk_at(g: &mut Gen, dir: Place, name: &str) {
    g.file(dir.join("SKILL.md"), frontmatter(name));
    g.skills.push(Skill {
        name: name.to_owned(),
        dir,
    });
}

/// Frontmatter values Amp reads as JavaScript does, in its roots: a `name` that is a number
/// (`12`, `007`, `0x1f`, `1.5`, `0`), a boolean, `null`, a list (`[one]`, `[a, b]`), a
/// mapping or quoted digits; a `description` that is a number, `0`, `false`, a list or a
/// mapping.
fn amp_names(g: &mut Gen) {
    for _ in 0..1 + g.rng.below(3) {
        let folder = g.name();
        // Amp's own roots: in the roots it shares, Codex reads `name: {alpha: 1}` as text
        // (FINDINGS, open), which is no business of this class.
        let dir = one_of(g, &AMP_ROOTS[..2]).join(&folder);
        let word = folder.split('-').next().unwrap_or("x").to_owned();
        let (name, description) = match g.rng.below(18) {
            0 => ("12".to_owned(), "d".to_owned()),
            1 => ("007".to_owned(), "d".to_owned()),
            2 => ("0x1f".to_owned(), "d".to_owned()),
            3 => ("1.5".to_owned(), "d".to_owned()),
            4 => ("0".to_owned(), "d".to_owned()),
            5 => ("true".to_owned(), "d".to_owned()),
            6 => ("false".to_owned(), "d".to_owned()),
            7 => ("null".to_owned(), "d".to_owned()),
            8 => (format!("[{word}]"), "d".to_owned()),
            9 => (format!("[{word}, b]"), "d".to_owned()),
            10 => (format!("{{{word}: 1}}"), "d".to_owned()),
            11 => ("\"42\"".to_owned(), "d".to_owned()),
            12 => (folder.clone(), "12".to_owned()),
            13 => (folder.clone(), "0".to_owned()),
            14 => (folder.clone(), "false".to_owned()),
            15 => (folder.clone(), "[a, b]".to_owned()),
            16 => (folder.clone(), "{a: 1}".to_owned()),
            _ => (folder.clone(), "null".to_owned()),
        };
        g.file(
            dir.join("SKILL.md"),
            format!("---\nname: {name}\ndescription: {description}\n---\nBody.\n"),
        );
    }
}

/// Amp's walk: hidden folders (a hidden group, a hidden skill folder), `node_modules` and
/// `.git` at some depth, frontmatter that is not YAML, and skills one to six folders below a
/// root, `~/.claude/skills` among them.
fn amp_nesting(g: &mut Gen) {
    for _ in 0..1 + g.rng.below(3) {
        let name = g.name();
        let root = one_of(g, AMP_ROOTS);
        match g.rng.below(6) {
            0 => g.skill(root.join(".group").join(&name), &name),
            1 => g.skill(root.join(&format!(".{name}")), &name),
            2 => {
                let skip = *g.rng.pick(&["node_modules", ".git"]);
                g.skill(root.join("g").join(skip).join(&name), &name);
            }
            3 => {
                let content = format!(
                    "---\nname: {name}\ndescription: uses: a colon, unquoted\n---\nBody.\n"
                );
                g.file(root.join(&name).join("SKILL.md"), content);
            }
            _ => {
                let mut dir = Place::new(Base::Home, ".claude/skills");
                if g.rng.chance(50) {
                    dir = root;
                }
                for depth in 0..1 + g.rng.below(6) {
                    dir = dir.join(&format!("d{depth}"));
                }
                g.skill(dir.join(&name), &name);
            }
        }
    }
}

/// Each variable that moves an agent's home (or the config folder several agents read), with
/// the folder it stands for when unset and the skills roots below it.
const HOMES: &[(&str, &str, &[&str])] = &[
    ("CLAUDE_CONFIG_DIR", ".claude", &["skills"]),
    ("CODEX_HOME", ".codex", &["skills"]),
    ("COPILOT_HOME", ".copilot", &["skills"]),
    ("GEMINI_CLI_HOME", "", &[".gemini/skills", ".agents/skills"]),
    (
        "OPENCODE_CONFIG_DIR",
        ".config/opencode",
        &["skills", "skill"],
    ),
    (
        "XDG_CONFIG_HOME",
        ".config",
        &[
            "opencode/skills",
            "amp/skills",
            "agents/skills",
            "claude/skills",
            "gemini/skills",
            "copilot/skills",
        ],
    ),
];

/// A user who moved an agent's home: the variable set to a folder of the lab, the same with a
/// trailing slash, through a link, to the folder it stands for anyway, relative, empty, or to
/// a folder that does not exist; skills below the moved home where its agent reads, and
/// sometimes at the place the variable moved away from.
fn env_homes(g: &mut Gen) {
    for _ in 0..1 + g.rng.below(2) {
        let (var, default, roots) = *g.rng.pick(HOMES);
        let folder = format!("homes/{}", var.to_lowercase());
        let moved = Place::new(Base::Lab, folder.as_str());
        let (value, home) = match g.rng.below(8) {
            0 | 1 => (format!("{{LAB}}/{folder}"), Some(moved)),
            2 => (format!("{{LAB}}/{folder}/"), Some(moved)),
            3 => {
                let link = Place::new(Base::Lab, format!("{folder}-link"));
                g.link(link.clone(), moved.clone());
                (format!("{{LAB}}/{folder}-link"), Some(moved))
            }
            4 => {
                let rel = if default.is_empty() { "" } else { "/" };
                (
                    format!("{{HOME}}{rel}{default}"),
                    Some(Place::new(Base::Home, default)),
                )
            }
            // Read from the start folder: only a start in the project reaches it.
            5 => (
                format!("rel-{}", var.to_lowercase()),
                Some(Place::new(
                    Base::Proj,
                    format!("rel-{}", var.to_lowercase()),
                )),
            ),
            // Set but empty: most agents read it as unset, Claude Code as the start folder.
            6 => (String::new(), Some(Place::new(Base::Proj, ""))),
            _ => (
                format!("{{LAB}}/homes/missing-{}", var.to_lowercase()),
                None,
            ),
        };
        g.env(var, Some(&value));
        let home = home.unwrap_or(unmoved(default));
        for _ in 0..1 + g.rng.below(2) {
            let root = *g.rng.pick(roots);
            let name = g.name();
            g.skill(home.join(root).join(&name), &name);
        }
        if g.rng.chance(50) {
            let root = *g.rng.pick(roots);
            let name = g.name();
            g.skill(unmoved(default).join(root).join(&name), &name);
        }
    }
}

/// The folder a home variable stands for when it is not set.
fn unmoved(default: &str) -> Place {
    Place::new(Base::Home, default)
}

/// A home as real machines have them: reached through a symbolic link (`/home` a link to
/// another disk), or above the project (`~/work/proj`, the usual place for a repository, where
/// the walks up from the project meet the home). `HOME` is set for the agents and skilldeck
/// alike; a few skills go to the user roots of the home it names, and the other classes' `~/`
/// and `<lab>/work` roots become what that home makes of them.
fn home_moved(g: &mut Gen) {
    let home = if g.rng.chance(50) {
        let link = Place::new(Base::Lab, "homelink");
        g.link(link, Place::new(Base::Home, ""));
        g.env("HOME", Some("{LAB}/homelink"));
        Place::new(Base::Home, "")
    } else {
        g.env("HOME", Some("{LAB}/work"));
        Place::new(Base::Lab, "work")
    };
    for _ in 0..1 + g.rng.below(3) {
        let root = *g.rng.pick(USER_ROOTS);
        let name = g.name();
        g.skill(home.join(root).join(&name), &name);
    }
}

/// `name`, sometimes with a `${key}` Gemini CLI substitutes in an extension's skills: a key of
/// its context, one only a `.env` gives, a member every JavaScript object has, one it does not
/// know, one its sanitizing spoils first (`/`).
fn hydrated(g: &mut Gen, name: &str) -> String {
    if !g.rng.chance(40) {
        return name.to_owned();
    }
    let key = *g.rng.pick(&[
        "extensionPath",
        "workspacePath",
        "pathSeparator",
        "/",
        "HYD",
        "OTHER",
        "valueOf",
        "nope",
    ]);
    format!("{name}-${{{key}}}")
}
