use super::*;

const PATH: &str = "/p/skills-lock.json";

fn parse(text: &str) -> Result<SkillsLock, LockError> {
    SkillsLock::parse(text.as_bytes(), Path::new(PATH))
}

const HASH: &str = "4a797f1fbd4982503fec7b1a51faba8b178364622c848d39e5ad92036b7cceb3";

/// A lock as skills 1.7.4 writes it (`writeLocalLock`), with an unknown field of another
/// writer in one entry, nested.
fn as_the_cli_writes_it() -> String {
    format!(
        r#"{{
  "version": 1,
  "skills": {{
    "beta": {{
      "source": "owner/repo",
      "ref": "main",
      "sourceType": "github",
      "skillPath": "skills/beta/SKILL.md",
      "computedHash": "{HASH}",
      "via": {{
        "z": [],
        "a": [
          1,
          "x"
        ]
      }},
      "subagents": []
    }},
    "greet": {{
      "source": "./demo-skills",
      "sourceType": "local",
      "computedHash": "{HASH}"
    }},
    "remote": {{
      "source": "https://git.example.org/team/skills.git",
      "sourceUrl": "https://git.example.org/team/skills.git",
      "sourceType": "git",
      "skillPath": "remote/SKILL.md",
      "computedHash": "{HASH}",
      "commit": "0123456789abcdef0123456789abcdef01234567"
    }}
  }}
}}
"#
    )
}

#[test]
fn a_lock_the_cli_wrote_is_written_back_byte_for_byte() {
    let text = as_the_cli_writes_it();
    let lock = parse(&text).unwrap();
    assert_eq!(lock.render(), text);
    assert_eq!(parse(&lock.render()).unwrap(), lock);
    let remote = lock.skills["remote"].locked();
    assert_eq!(remote.source_type, "git");
    assert_eq!(
        remote.commit.as_deref(),
        Some("0123456789abcdef0123456789abcdef01234567")
    );
    assert_eq!(
        lock.skills["beta"].locked().reference.as_deref(),
        Some("main")
    );
}

#[test]
fn a_lock_skilldeck_makes_reads_back_identical() {
    let mut lock = SkillsLock::default();
    for (name, reference, commit) in [
        ("zeta", None, None),
        (
            "Alpha",
            Some("v1"),
            Some("0123456789abcdef0123456789abcdef01234567"),
        ),
        ("_x", None, None),
        ("ä", None, None),
        ("10", None, None),
        ("2", None, None),
        ("b-c", None, None),
        ("b_c", None, None),
        ("B", None, None),
    ] {
        let locked = Locked {
            source: if reference.is_some() {
                "https://example.org/r.git".into()
            } else {
                "./.agents/skills".into()
            },
            source_type: if reference.is_some() {
                "git".into()
            } else {
                LOCAL.into()
            },
            source_url: reference.map(|_| "https://example.org/r.git".into()),
            reference: reference.map(str::to_owned),
            skill_path: Some(format!("{name}/SKILL.md")),
            computed_hash: HASH.into(),
            commit: commit.map(str::to_owned),
        };
        lock.skills.insert(name.to_owned(), Entry::new(&locked));
        assert_eq!(lock.skills[name].locked(), locked);
    }
    let text = lock.render();
    let again = parse(&text).unwrap();
    assert_eq!(again, lock);
    assert_eq!(again.render(), text);
    // Node 20: `Object.keys(x).sort()` put back in an object, array-index keys first.
    let order: Vec<usize> = [
        "\"2\"",
        "\"10\"",
        "\"Alpha\"",
        "\"B\"",
        "\"_x\"",
        "\"b-c\"",
        "\"b_c\"",
        "\"zeta\"",
        "\"ä\"",
    ]
    .iter()
    .map(|name| text.find(&format!("    {name}: {{")).unwrap())
    .collect();
    assert!(order.windows(2).all(|w| w[0] < w[1]), "{text}");
    assert!(text.ends_with("}\n") && !text.ends_with("\n\n"));
    assert!(text.contains(
        "    \"Alpha\": {\n      \"source\": \"https://example.org/r.git\",\n      \"sourceUrl\": \"https://example.org/r.git\",\n      \"ref\": \"v1\",\n      \"sourceType\": \"git\",\n      \"skillPath\": \"Alpha/SKILL.md\",\n      \"computedHash\""
    ));
}

#[test]
fn local_sources_are_written_as_the_cli_writes_them() {
    for (given, written) in [
        ("skills", "./skills"),
        ("./a/../b/", "./b"),
        (".", "."),
        ("../x", "../x"),
        ("a/../../x", "../x"),
    ] {
        let text = format!(
            r#"{{"version":1,"skills":{{"s":{{"source":"{given}","sourceType":"local","computedHash":"{HASH}"}}}}}}"#
        );
        let rendered = parse(&text).unwrap().render();
        assert!(
            rendered.contains(&format!("\"source\": \"{written}\"")),
            "{given}: {rendered}"
        );
    }
}

/// Every refusal names the file, the skill and what is wrong with it.
#[test]
fn a_hostile_lock_is_refused_with_a_sentence() {
    let entry =
        |name: &str, fields: &str| format!(r#"{{"version":1,"skills":{{"{name}":{{{fields}}}}}}}"#);
    let good = format!(r#""source":"o/r","sourceType":"github","computedHash":"{HASH}""#);
    let cases = [
        (entry("../../etc", &good), "leads out"),
        (entry("a/b", &good), "leads out"),
        (entry("..", &good), "leads out"),
        (entry("-rf", &good), "option"),
        (entry("", &good), "empty"),
        (
            entry(
                "s",
                &format!(
                    r#""source":"--upload-pack=x","sourceType":"git","computedHash":"{HASH}""#
                ),
            ),
            "option",
        ),
        (
            entry(
                "s",
                &format!(
                    r#""source":"o/r","ref":"-x","sourceType":"github","computedHash":"{HASH}""#
                ),
            ),
            "option",
        ),
        (
            entry(
                "s",
                &format!(
                    r#""source":"o/r","sourceUrl":"-c","sourceType":"git","computedHash":"{HASH}""#
                ),
            ),
            "option",
        ),
        (
            entry(
                "s",
                &format!(r#""source":"/etc","sourceType":"local","computedHash":"{HASH}""#),
            ),
            "absolute",
        ),
        (
            entry(
                "s",
                &format!(r#""source":"C:\\x","sourceType":"local","computedHash":"{HASH}""#),
            ),
            "absolute",
        ),
        (
            entry(
                "s",
                &format!(
                    r#""source":"o/r","sourceType":"github","skillPath":"/x/SKILL.md","computedHash":"{HASH}""#
                ),
            ),
            "absolute",
        ),
        (
            entry(
                "s",
                &format!(
                    r#""source":"o/r","sourceType":"github","skillPath":"../x/SKILL.md","computedHash":"{HASH}""#
                ),
            ),
            "climbs",
        ),
        (
            entry(
                "s",
                r#""source":"o/r","sourceType":"github","computedHash":"abc""#,
            ),
            "SHA-256",
        ),
        (
            entry("s", r#""source":"o/r","sourceType":"github""#),
            "no \"computedHash\"",
        ),
        (
            entry(
                "s",
                &format!(r#""source":1,"sourceType":"github","computedHash":"{HASH}""#),
            ),
            "not text",
        ),
        (
            entry(
                "s",
                &format!(
                    r#""source":"o/r","sourceType":"github","computedHash":"{HASH}","commit":"main""#
                ),
            ),
            "commit id",
        ),
        (r#"{"version":2,"skills":{}}"#.to_owned(), "version 2"),
        (r#"{"version":0,"skills":{}}"#.to_owned(), "version 0"),
        (r#"{"version":"1","skills":{}}"#.to_owned(), "numeric"),
        (r#"{"version":1}"#.to_owned(), "no \"skills\""),
        (
            r#"{"version":1,"skills":{"s":[]}}"#.to_owned(),
            "not an object",
        ),
        (r#"[1]"#.to_owned(), "not a JSON object"),
        ("{\"version\":1,".to_owned(), "not JSON"),
    ];
    for (text, says) in cases {
        let error = parse(&text).unwrap_err().to_string();
        assert!(error.starts_with(PATH), "{text}: {error}");
        assert!(error.contains(says), "{text}: {error}");
    }
}

#[test]
fn a_huge_lock_is_refused_unread() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join(LOCK_FILE);
    let file = std::fs::File::create(&path).unwrap();
    file.set_len(RECORD_FILE_BYTES + 1).unwrap();
    let error = SkillsLock::read(&path).unwrap_err();
    assert!(matches!(error, LockError::Read { .. }), "{error}");
    assert!(error.to_string().contains(LOCK_FILE));
    assert_eq!(
        SkillsLock::read(&tmp.path().join("none.json")).unwrap(),
        None
    );
}

#[test]
fn an_update_rewrites_the_known_fields_and_keeps_the_others_in_place() {
    let text = format!(
        r#"{{"version":1,"skills":{{"s":{{"source":"o/r","ref":"main","via":"x","sourceType":"github","computedHash":"{HASH}","subagents":[]}}}}}}"#
    );
    let lock = parse(&text).unwrap();
    let locked = Locked {
        source: "https://example.org/r.git".into(),
        source_type: "git".into(),
        source_url: Some("https://example.org/r.git".into()),
        reference: None,
        skill_path: Some("s/SKILL.md".into()),
        computed_hash: HASH.replace('4', "5"),
        commit: Some("ab".repeat(20)),
    };
    let mut updated = SkillsLock::default();
    updated
        .skills
        .insert("s".into(), lock.skills["s"].updated(&locked));
    assert_eq!(updated.skills["s"].locked(), locked);
    let rendered = updated.render();
    let order: Vec<usize> = [
        "\"source\"",
        "\"via\"",
        "\"sourceType\"",
        "\"computedHash\"",
        "\"subagents\"",
        "\"sourceUrl\"",
        "\"skillPath\"",
        "\"commit\"",
    ]
    .iter()
    .map(|key| rendered.find(key).unwrap())
    .collect();
    assert!(order.windows(2).all(|w| w[0] < w[1]), "{rendered}");
    assert!(!rendered.contains("\"ref\""), "{rendered}");
}
