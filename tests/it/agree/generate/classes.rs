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
        name: "gemini-settings",
        generate: gemini_settings,
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
fn claude_synced(g: &mut Gen) {
    let synced = Place::new(Base::Home, ".claude/skills/synced");
    let name = g.name();
    // `synced/<name>` (no org folder) is left out until FINDINGS #19 (skilldeck's synced row
    // claims it, Claude Code does not load it) is fixed in the row.
    let dir = match g.rng.below(3) {
        0 => synced
            .join("0f8c3a52-1111-4222-8333-444455556666_unbound")
            .join(&name),
        1 => synced
            .join("0f8c3a52-1111-4222-8333-444455556666_9a7b1c2d-5555-4666-8777-888899990000")
            .join(&name),
        _ => synced,
    };
    let named = if dir.rel.ends_with("/synced") {
        "synced".to_owned()
    } else {
        name
    };
    g.skill(dir, &named);
    // Claude Code names a skill by its folder: a personal copy of the same name.
    if named != "synced" && g.rng.chance(40) {
        let personal = Place::new(Base::Home, ".claude/skills").join(&named);
        g.skill(personal, &named);
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

/// Codex's `project_root_markers` (written before any table of its `config.toml`), with a
/// `package.json` in the project's subfolder for the marker that names it.
fn codex_root_markers(g: &mut Gen) {
    let marker = *g.rng.pick(&[".hg", "package.json", ".git", "sub"]);
    if marker == "package.json" {
        g.file(
            Place::new(Base::Proj, "sub/package.json"),
            "{}\n".to_owned(),
        );
    }
    g.append(
        codex_config(),
        &format!("project_root_markers = [\"{marker}\"]\n"),
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
/// the project's own `.codex/config.toml` (not trusted, so Codex ignores it), and a skill
/// written into `~/.codex/skills/.system`, the folder Codex writes its system skills into.
fn codex_bundled(g: &mut Gen) {
    let table = *g.rng.pick(&[
        "\n[skills.bundled]\nenabled = false\n",
        "\n[skills.bundled]\nenabled = false\n",
        "\n[skills.bundled]\nenabled = true\n",
        "\n[skills.bundled]\n",
    ]);
    let file = if g.rng.chance(75) {
        codex_config()
    } else {
        Place::new(Base::Proj, ".codex/config.toml")
    };
    g.append(file, table);
    if g.rng.chance(30) {
        let name = g.name();
        let dir = Place::new(Base::Home, ".codex/skills/.system").join(&name);
        g.skill(dir, &name);
    }
}

/// Gemini CLI's `skills.disabled` and `skills.enabled`, in the user's or the workspace's file.
fn gemini_settings(g: &mut Gen) {
    let base = if g.rng.chance(50) {
        Base::Home
    } else {
        Base::Proj
    };
    let mut names = Vec::new();
    for _ in 0..1 + g.rng.below(2) {
        let name = g.some_name();
        names.push(json(&if g.rng.chance(20) {
            name.to_uppercase()
        } else {
            name
        }));
    }
    let enabled = if g.rng.chance(20) {
        "\"enabled\": false, "
    } else {
        ""
    };
    g.file(
        Place::new(base, ".gemini/settings.json"),
        format!(
            "{{\"skills\": {{{enabled}\"disabled\": [{}]}}}}\n",
            names.join(", ")
        ),
    );
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
