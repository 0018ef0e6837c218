//! `skilldeck export` against a skill a user forgot secrets in, as an attacker would plant
//! them: every kind of secret, in text, in UTF-16, in base64, in compressed files and nested
//! archives, and in `.env` files. The archive the real binary writes is unpacked and searched
//! byte by byte for every planted value; what could not be scanned must be listed and absent,
//! and packed only when `--include-unscanned` asks.

use std::collections::BTreeMap;
use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::Output;

use crate::common::archive::{ZipEntry, gzip, zip};
use crate::common::{Machine, write_files, write_skill};

/// A planted secret: the file it is in, and the bytes that must never leave.
struct Planted {
    path: &'static str,
    value: &'static str,
}

/// Text files, each secret cleaned out of the file and the file packed.
const IN_TEXT: &[(&str, &str, &str)] = &[
    // (file, line, the secret in it)
    (
        "scripts/db.sh",
        "export DB_PASSWORD=\"$(echo Pl4nted-Db-Pass-a1)\"\n",
        "Pl4nted-Db-Pass-a1",
    ),
    (
        "scripts/db.sh",
        "export DB_PASSWORD=Pl4ntedPlainPass-a2\n",
        "Pl4ntedPlainPass-a2",
    ),
    (
        "config/app.yaml",
        "APP_SECRET: planted-app-secret-b1\n",
        "planted-app-secret-b1",
    ),
    (
        "config/app.yaml",
        "STRIPE_SECRET_KEY=planted-stripe-shape-b2\n",
        "planted-stripe-shape-b2",
    ),
    (
        "config/app.yaml",
        "password: [planted-bracket-c1]\n",
        "planted-bracket-c1",
    ),
    (
        "config/app.yaml",
        "admin_password: $plantedDollar-c2\n",
        "plantedDollar-c2",
    ),
    (
        "config/app.yaml",
        "PASS=abc;planted-after-semicolon-d1\n",
        "planted-after-semicolon-d1",
    ),
    (
        "config/app.yaml",
        "db_pass = x9;planted-after-semicolon-d2 tail\n",
        "planted-after-semicolon-d2",
    ),
    (
        "keys/rsa.md",
        "-----begin rsa private key-----\nMIIEplantedLowerRsaBodyE1\n-----end rsa private key-----\n",
        "MIIEplantedLowerRsaBodyE1",
    ),
    (
        "keys/rsa.md",
        "-----Begin Private Key-----\nMIIEplantedMixedCaseE2\n",
        "MIIEplantedMixedCaseE2",
    ),
    (
        "keys/pgp.asc.md",
        "-----BEGIN PGP PRIVATE KEY BLOCK-----\n\nlQOYBplantedPgpBodyF1\n=Ab12\n-----END PGP PRIVATE KEY BLOCK-----\n",
        "lQOYBplantedPgpBodyF1",
    ),
    (
        "keys/pgp.asc.md",
        "-----BEGIN PGP PRIVATE KEY BLOCK-----\nVersion: x\n\nlQVYBplantedPgpBodyF2\n",
        "lQVYBplantedPgpBodyF2",
    ),
    (
        "keys/putty.ppk.md",
        "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nPrivate-Lines: 1\nAAAAplantedPuttyPrivG1\nPrivate-MAC: 00ff00ff\n",
        "AAAAplantedPuttyPrivG1",
    ),
    (
        "keys/putty.ppk.md",
        "PuTTY-User-Key-File-2: ssh-rsa\r\nPrivate-Lines: 1\r\nAAAAplantedPuttyPrivG2\r\nPrivate-MAC: 11ee11ee\r\n",
        "AAAAplantedPuttyPrivG2",
    ),
    (
        "refs/http.md",
        "token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJwbGFudGVkIn0.PlantedJwtSignatureH1\n",
        "PlantedJwtSignatureH1",
    ),
    (
        "refs/http.md",
        "jwt=eyJ0eXAiOiJKV1QifQ.eyJwbGFudGVkSDIiOjF9.sigH2planted\n",
        "eyJwbGFudGVkSDIiOjF9",
    ),
    (
        "refs/http.md",
        "curl -H \"Authorization: Bearer PlantedBearerI1x\" https://api\n",
        "PlantedBearerI1x",
    ),
    (
        "refs/http.md",
        "send Bearer Pl4ntedStandaloneBearerI2 along\n",
        "Pl4ntedStandaloneBearerI2",
    ),
    // planted:basicJ1
    (
        "refs/http.md",
        "Authorization: Basic cGxhbnRlZDpiYXNpY0ox\n",
        "cGxhbnRlZDpiYXNpY0ox",
    ),
    // planted:basicJ2
    (
        "refs/http.md",
        "auth = Basic cGxhbnRlZDpiYXNpY0oy\n",
        "cGxhbnRlZDpiYXNpY0oy",
    ),
    (
        "refs/http.md",
        "git clone https://deploy:PlantedUrlPassK1@git.example.com/x.git\n",
        "PlantedUrlPassK1",
    ),
    (
        "refs/http.md",
        "DATABASE=postgres://app:planted%40K2;x@db:5432/app\n",
        "planted%40K2;x",
    ),
    (
        "refs/tokens.md",
        "hf_PlantedHuggingFaceTokenL1abcdefghij\n",
        "hf_PlantedHuggingFaceTokenL1abcdefghij",
    ),
    (
        "refs/tokens.md",
        "HF_TOKEN=hf_PlantedHuggingFaceTokenL2zyxwvutsr\n",
        "hf_PlantedHuggingFaceTokenL2zyxwvutsr",
    ),
    (
        "refs/tokens.md",
        "//registry.npmjs.org/:_authToken=npm_PlantedNpmTokenM1abcdefghijklmnop\n",
        "npm_PlantedNpmTokenM1abcdefghijklmnop",
    ),
    (
        "refs/tokens.md",
        "npm_PlantedNpmTokenM2abcdefghijklmnopqr\n",
        "npm_PlantedNpmTokenM2abcdefghijklmnopqr",
    ),
    (
        "refs/tokens.md",
        "stripe sk_live_PlantedStripeLiveN1\n",
        "sk_live_PlantedStripeLiveN1",
    ),
    (
        "refs/tokens.md",
        "stripe rk_live_PlantedStripeRestrictedN2\n",
        "rk_live_PlantedStripeRestrictedN2",
    ),
    (
        "refs/azure.md",
        "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=PlantedAzureKeyO1+/==;EndpointSuffix=core.windows.net\n",
        "PlantedAzureKeyO1",
    ),
    (
        "refs/azure.md",
        "conn = \"AccountName=a2;AccountKey=PlantedAzureKeyO2abc==\"\n",
        "PlantedAzureKeyO2",
    ),
];

/// The secret that goes into the encoded and compressed files.
const TOKEN: &str = "ghp_PlantedGithubTokenP1abcdefghijklmnopqrstu";
const PASSWORD: &str = "DB_PASSWORD=PlantedPasswordP2";

/// Files left out whatever is said: they hold a secret that cannot be cut out of them.
fn secret_holders() -> Vec<(&'static str, Vec<u8>)> {
    vec![
        (
            "notes/le-bom.txt",
            utf16(&format!("x\r\nGH={TOKEN}\r\n"), true, true),
        ),
        ("notes/le.txt", utf16(&format!("{PASSWORD}\n"), true, false)),
        (
            "notes/be-bom.txt",
            utf16(&format!("{PASSWORD}\n"), false, true),
        ),
        (
            "notes/be.txt",
            utf16(&format!("key {TOKEN}\n"), false, false),
        ),
        (
            "assets/data.bin",
            [b"\x00\x01\xfe".as_slice(), TOKEN.as_bytes(), b"\x00"].concat(),
        ),
    ]
}

/// Files left out unless asked for: they could not be read through.
fn unscannable() -> Vec<(&'static str, Vec<u8>)> {
    let inner_tar = {
        let mut builder = tar::Builder::new(Vec::new());
        let mut header = tar::Header::new_ustar();
        // Compressed before it is stored, so no plain secret shows through the tar.
        let data = gzip(format!("{PASSWORD}\n").as_bytes());
        header.set_size(data.len() as u64);
        header.set_mode(0o644);
        header.set_cksum();
        builder
            .append_data(&mut header, "inner.gz", &data[..])
            .unwrap();
        builder.into_inner().unwrap()
    };
    let zipped = zip(&[ZipEntry::file(
        "creds.txt",
        format!("{PASSWORD}\n{TOKEN}\n").as_bytes(),
    )]);
    vec![
        (
            "assets/logo.png",
            [
                b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR".as_slice(),
                &noise(300),
            ]
            .concat(),
        ),
        ("assets/creds.gz", gzip(format!("GH={TOKEN}\n").as_bytes())),
        ("bundle/inner.zip", zipped.clone()),
        ("bundle/inner.skill", zipped),
        ("bundle/inner.tar", inner_tar),
        (
            "refs/picture.md",
            format!("![x](data:image/png;base64,{})\n", b64(&noise(2000))).into_bytes(),
        ),
    ]
}

/// `.env` files: left out unless asked for, then redacted.
const ENV_FILES: &[&str] = &[".env", ".env.local", "config/prod.env"];
const ENV_SECRET: &str = "PlantedEnvValueQ1";

/// Written as text and redacted: base64 blobs of a secret.
fn base64_blobs() -> Vec<(&'static str, String)> {
    vec![
        (
            "refs/b64.md",
            format!("creds: {}\n", b64(format!("GH={TOKEN}").as_bytes())),
        ),
        (
            "refs/b64.md",
            format!(
                "blob:\n  {}\n",
                b64(format!("{PASSWORD} and padding text").as_bytes())
            ),
        ),
    ]
}

/// Text that looks like a secret and is not one: exported byte for byte.
const NEAR_MISSES: &str = "password_hint=the name of your first pet\n\
cd $HOME/.config/tool\n\
The token is rotated every night, and every password is long.\n\
password = os.environ[\"PDF_PASSWORD\"]\n\
token: ${{ secrets.GITHUB_TOKEN }}\n\
DB_PASSWORD=$DB_PASSWORD\n\
max_tokens: 4096\n\
https://user@example.com/path\n\
Use Bearer authentication.\n\
from huggingface_hub import hf_hub_download\n\
-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE\n-----END PUBLIC KEY-----\n";

/// A skill holding every planted secret, in `machine`'s Claude Code root.
fn plant(machine: &Machine) -> (PathBuf, Vec<Planted>) {
    let dir = machine.home.join(".claude/skills/leaky");
    write_skill(&dir, &[("refs/near-misses.md", NEAR_MISSES)]);
    let mut texts: BTreeMap<&str, String> = BTreeMap::new();
    let mut planted = Vec::new();
    for (path, line, value) in IN_TEXT {
        texts.entry(path).or_default().push_str(line);
        planted.push(Planted { path, value });
    }
    for (path, text) in base64_blobs() {
        texts.entry(path).or_default().push_str(&text);
    }
    for (path, text) in texts {
        write(&dir, path, text.as_bytes());
    }
    for (path, bytes) in secret_holders().into_iter().chain(unscannable()) {
        write(&dir, path, &bytes);
    }
    for path in ENV_FILES {
        write(
            &dir,
            path,
            format!("SECRET_TOKEN={ENV_SECRET}\nHOST=x\n").as_bytes(),
        );
    }
    (dir, planted)
}

fn write(dir: &Path, path: &str, bytes: &[u8]) {
    let path = dir.join(path);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, bytes).unwrap();
}

fn export(machine: &Machine, extra: &[&str]) -> (Output, Vec<u8>) {
    let out = machine.root().join(format!("leaky{}.tar.gz", extra.len()));
    let mut args = vec!["export", "leaky", "-o", out.to_str().unwrap(), "--force"];
    args.extend_from_slice(extra);
    let output = machine.run(&args);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    (output, fs::read(out).unwrap())
}

/// The tar inside the gzip, every byte of it.
fn tar_bytes(archive: &[u8]) -> Vec<u8> {
    let mut tar = Vec::new();
    flate2::read::GzDecoder::new(archive)
        .read_to_end(&mut tar)
        .unwrap();
    tar
}

/// Each file of the archive by its path in the skill: every entry is under one folder, the
/// skill's, which is taken off.
fn entries(archive: &[u8]) -> BTreeMap<String, Vec<u8>> {
    let mut tar = tar::Archive::new(flate2::read::GzDecoder::new(archive));
    let mut tops = std::collections::BTreeSet::new();
    let files = tar
        .entries()
        .unwrap()
        .map(|entry| {
            let mut entry = entry.unwrap();
            let mut bytes = Vec::new();
            entry.read_to_end(&mut bytes).unwrap();
            let path = entry.path().unwrap().to_string_lossy().into_owned();
            let (top, rest) = path.split_once('/').expect("every entry under a folder");
            tops.insert(top.to_owned());
            (rest.to_owned(), bytes)
        })
        .collect();
    assert!(tops.len() <= 1, "one folder: {tops:?}");
    files
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

/// Every form the secret must not leave in: as it is, in UTF-16 both ways, and in base64 at
/// each alignment.
fn forms(secret: &str) -> Vec<Vec<u8>> {
    let mut forms = vec![
        secret.as_bytes().to_vec(),
        utf16(secret, true, false),
        utf16(secret, false, false),
    ];
    for shift in 0..3 {
        let padded = [&b"xyz"[..shift], secret.as_bytes()].concat();
        let encoded = b64(&padded);
        // Only the characters that encode the secret alone, not the shift's padding.
        let skip = if shift == 0 { 0 } else { 4 };
        forms.push(encoded.as_bytes()[skip..encoded.len() - 4].to_vec());
    }
    forms
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn no_planted_secret_leaves_in_any_form() {
    let machine = Machine::new();
    let (_, planted) = plant(&machine);
    let (output, archive) = export(&machine, &[]);
    let tar = tar_bytes(&archive);
    let mut secrets: Vec<&str> = planted.iter().map(|p| p.value).collect();
    secrets.extend([TOKEN, "PlantedPasswordP2", ENV_SECRET]);
    for secret in secrets {
        for form in forms(secret) {
            assert!(
                !contains(&tar, &form),
                "{secret:?} left as {:?}\n{}",
                String::from_utf8_lossy(&form),
                stdout(&output)
            );
        }
    }
    // Each text file with a secret was packed, cleaned, and named in the report.
    let files = entries(&archive);
    let text = stdout(&output);
    for planted in &planted {
        let packed = String::from_utf8(files[planted.path].clone()).unwrap();
        assert!(packed.contains("[REDACTED:"), "{}: {packed}", planted.path);
        assert!(text.contains(&format!("  {}: ", planted.path)), "{text}");
    }
    assert!(
        String::from_utf8_lossy(&files["refs/b64.md"])
            .matches("[REDACTED:")
            .count()
            == 2,
        "{}",
        String::from_utf8_lossy(&files["refs/b64.md"])
    );
}

#[test]
fn near_misses_are_exported_as_they_are() {
    let machine = Machine::new();
    plant(&machine);
    let (_, archive) = export(&machine, &[]);
    assert_eq!(
        String::from_utf8(entries(&archive)["refs/near-misses.md"].clone()).unwrap(),
        NEAR_MISSES
    );
}

#[test]
fn export_leaves_out_unscanned_and_env_files_and_lists_why() {
    let machine = Machine::new();
    plant(&machine);
    let (output, archive) = export(&machine, &[]);
    let files = entries(&archive);
    let text = stdout(&output);
    let left_out = secret_holders().len() + unscannable().len() + ENV_FILES.len();
    assert!(
        text.contains(&format!(
            "{left_out} files left out (--include-unscanned packs"
        )),
        "{text}"
    );
    let reasons = [
        (
            "notes/le-bom.txt",
            "UTF-16 text holding what looks like a secret (github-token)",
        ),
        (
            "notes/le.txt",
            "UTF-16 text holding what looks like a secret (assignment)",
        ),
        (
            "notes/be-bom.txt",
            "UTF-16 text holding what looks like a secret (assignment)",
        ),
        (
            "notes/be.txt",
            "UTF-16 text holding what looks like a secret (github-token)",
        ),
        (
            "assets/data.bin",
            "binary data holding what looks like a secret (github-token)",
        ),
        (
            "assets/logo.png",
            "not text, so it could not be scanned for secrets",
        ),
        (
            "assets/creds.gz",
            "gzip data, whose content could not be scanned",
        ),
        (
            "bundle/inner.zip",
            "zip data, whose content could not be scanned",
        ),
        (
            "bundle/inner.skill",
            "zip data, whose content could not be scanned",
        ),
        (
            "bundle/inner.tar",
            "tar data, whose content could not be scanned",
        ),
        ("refs/picture.md", "it holds a large base64 blob"),
        (".env", "a .env file, which holds secrets by convention"),
        (
            ".env.local",
            "a .env file, which holds secrets by convention",
        ),
        (
            "config/prod.env",
            "a .env file, which holds secrets by convention",
        ),
    ];
    assert_eq!(reasons.len(), left_out);
    for (path, why) in reasons {
        assert!(text.contains(&format!("  {path}: {why}")), "{path}: {text}");
        assert!(!files.contains_key(path), "{path} was packed");
    }
    assert!(files.contains_key("SKILL.md") && files.contains_key("refs/http.md"));
}

#[test]
fn include_unscanned_packs_them_as_they_are_but_never_a_found_secret() {
    let machine = Machine::new();
    plant(&machine);
    let (output, archive) = export(&machine, &["--include-unscanned"]);
    let files = entries(&archive);
    let text = stdout(&output);
    for (path, bytes) in unscannable() {
        assert_eq!(files.get(path), Some(&bytes), "{path}");
    }
    for path in ENV_FILES {
        assert_eq!(
            String::from_utf8(files[*path].clone()).unwrap(),
            "SECRET_TOKEN=[REDACTED:assignment]\nHOST=x\n",
            "{path}"
        );
    }
    for (path, _) in secret_holders() {
        assert!(
            !files.contains_key(path),
            "{path} holds a secret and was packed"
        );
    }
    let asked = unscannable().len() + ENV_FILES.len();
    assert!(
        text.contains(&format!(
            "{asked} files packed as --include-unscanned asked:"
        )),
        "{text}"
    );
    assert!(
        text.contains(&format!("{} files left out:\n", secret_holders().len())),
        "{text}"
    );
    assert!(!contains(&tar_bytes(&archive), ENV_SECRET.as_bytes()));
}

#[test]
fn an_export_with_files_left_out_is_the_same_bytes_each_time_and_imports() {
    let machine = Machine::new();
    plant(&machine);
    let (_, first) = export(&machine, &[]);
    let (_, second) = export(&machine, &[]);
    assert_eq!(first, second, "the same skill exports to the same bytes");
    let path = machine.root().join("leaky0.tar.gz");
    let bundle = skilldeck::bundle::read(&path).unwrap();
    assert_eq!(bundle.skills.len(), 1);
    assert_eq!(bundle.skills[0].name, "leaky");
    assert!(bundle.skills[0].files.iter().all(|f| f.path != ".env"));
    // And the real import installs it on another machine.
    let other = Machine::new();
    let root = other.home.join(".claude/skills");
    fs::create_dir_all(&root).unwrap();
    let output = other.run(&[
        "import",
        path.to_str().unwrap(),
        "--to",
        root.to_str().unwrap(),
    ]);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(root.join("leaky/refs/http.md").is_file());
    assert!(!root.join("leaky/.env").exists());
}

#[test]
fn a_skill_md_that_cannot_be_cleaned_fails_the_export_and_writes_nothing() {
    let machine = Machine::new();
    let dir = machine.home.join(".claude/skills/leaky");
    write_skill(&dir, &[]);
    let mut manifest = fs::read(dir.join("SKILL.md")).unwrap();
    manifest.extend_from_slice(b"\0");
    manifest.extend_from_slice(TOKEN.as_bytes());
    fs::write(dir.join("SKILL.md"), manifest).unwrap();
    let out = machine.root().join("out.tar.gz");
    for extra in [&[][..], &["--include-unscanned"][..]] {
        let mut args = vec!["export", "leaky", "-o", out.to_str().unwrap()];
        args.extend_from_slice(extra);
        let output = machine.run(&args);
        assert_eq!(output.status.code(), Some(1), "{}", stdout(&output));
        assert!(
            String::from_utf8_lossy(&output.stderr).contains("SKILL.md could not be exported"),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        assert!(!out.exists());
    }
}

fn utf16(text: &str, little: bool, bom: bool) -> Vec<u8> {
    let mut out = match (bom, little) {
        (false, _) => Vec::new(),
        (true, true) => vec![0xff, 0xfe],
        (true, false) => vec![0xfe, 0xff],
    };
    for unit in text.encode_utf16() {
        out.extend(if little {
            unit.to_le_bytes()
        } else {
            unit.to_be_bytes()
        });
    }
    out
}

fn b64(bytes: &[u8]) -> String {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// Bytes no rule reads and no compressor shrinks, from a multiplicative hash.
fn noise(len: usize) -> Vec<u8> {
    (0..len as u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect()
}

/// The characters a reader does not see, by the Unicode standard's Default_Ignorable_Code_Point
/// list (DerivedCoreProperties.txt), written out here apart from the code under test.
fn ignorable(c: char) -> bool {
    matches!(
        u32::from(c),
        0x00AD
            | 0x034F
            | 0x061C
            | 0x115F..=0x1160
            | 0x17B4..=0x17B5
            | 0x180B..=0x180F
            | 0x200B..=0x200F
            | 0x202A..=0x202E
            | 0x2060..=0x206F
            | 0x3164
            | 0xFE00..=0xFE0F
            | 0xFEFF
            | 0xFFA0
            | 0xFFF0..=0xFFF8
            | 0x1BCA0..=0x1BCA3
            | 0x1D173..=0x1D17A
            | 0xE0000..=0xE0FFF
    )
}

/// `bytes` as a reader sees them: the hidden characters, and the escapes that write them,
/// dropped.
fn as_seen(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len());
    for chunk in bytes.utf8_chunks() {
        let mut text: String = chunk.valid().chars().filter(|&c| !ignorable(c)).collect();
        for escape in HIDDEN_ESCAPES {
            text = text.replace(escape, "");
        }
        out.extend_from_slice(text.as_bytes());
        out.extend_from_slice(chunk.invalid());
    }
    out
}

/// What splits the secrets below: hidden characters of every family, and escapes of them.
const HIDDEN: &[&str] = &[
    "\u{200b}",
    "\u{200c}",
    "\u{200d}",
    "\u{2060}",
    "\u{feff}",
    "\u{ad}",
    "\u{202e}",
    "\u{2066}",
    "\u{fe0f}",
    "\u{e0041}",
    "\u{e0100}",
    "\u{180e}",
    "\u{3164}",
    "\u{34f}",
    "\u{1d173}",
];
const HIDDEN_ESCAPES: &[&str] = &["&#8203;", "\\u200b", "&zwj;", "\\u{2060}", "%E2%80%8B"];

/// The secrets split below, as (name = value lines or tokens, the secret that must not leave).
const SPLIT: &[(&str, &str)] = &[
    ("AKIAPLANTEDSPLIT0001", "AKIAPLANTEDSPLIT0001"),
    (
        "ghp_PlantedSplitGithubToken0123456789abcd",
        "ghp_PlantedSplitGithubToken0123456789abcd",
    ),
    (
        "sk-ant-api03-PlantedSplitAnthropicKey-0123",
        "sk-ant-api03-PlantedSplitAnthropicKey-0123",
    ),
    (
        "DB_PASSWORD=PlantedSplitPassword99",
        "PlantedSplitPassword99",
    ),
    (
        "\"private_key_id\": \"5e4d3c2b1a09f8e7d6c5b4a3f2e1d0c9b8a7f6e5\"",
        "5e4d3c2b1a09f8e7d6c5b4a3f2e1d0c9b8a7f6e5",
    ),
];

/// `text` with `hidden` after every `every`-th character, starting at `from`.
fn split_by(text: &str, hidden: &str, every: usize, from: usize) -> String {
    let mut out = String::new();
    let count = text.chars().count();
    for (i, c) in text.chars().enumerate() {
        out.push(c);
        if i >= from && (i - from).is_multiple_of(every) && i + 1 < count {
            out.push_str(hidden);
        }
    }
    out
}

/// A skill whose secrets hide from a plain reading: split by hidden characters and their
/// escapes (in its text, its frontmatter and a `.env`), in a service-account key file, and in
/// the names of its files and folders.
fn plant_hidden(machine: &Machine) -> (PathBuf, Vec<String>) {
    let dir = machine.home.join(".claude/skills/hidden");
    let mut secrets: Vec<String> = SPLIT.iter().map(|(_, s)| (*s).to_owned()).collect();
    let mut text =
        String::from("# Split secrets\n\nEmoji \u{1f468}\u{200d}\u{1f469} and 漢字 stay.\n");
    for (n, hidden) in HIDDEN.iter().chain(HIDDEN_ESCAPES).enumerate() {
        for (k, (line, _)) in SPLIT.iter().enumerate() {
            text.push_str(&split_by(line, hidden, 3 + (n + k) % 4, (n * 7 + k) % 9));
            text.push('\n');
        }
    }
    let skill_md = format!(
        "---\nname: hidden\ndescription: Talks to AWS with {}.\nmetadata:\n  deploy_token: \"{}\"\n---\n# hidden\n",
        split_by("AKIAPLANTEDFRONT0002", "\u{200b}", 4, 1),
        split_by("ghp_PlantedFrontmatterToken0123456789abcd", "\u{ad}", 5, 2),
    );
    secrets.extend([
        "AKIAPLANTEDFRONT0002".to_owned(),
        "ghp_PlantedFrontmatterToken0123456789abcd".to_owned(),
    ]);
    let service_account = r#"{
  "type": "service_account",
  "project_id": "planted-project",
  "private_key_id": "0f1e2d3c4b5a69788796a5b4c3d2e1f0aabbccdd",
  "private_key": "-----BEGIN PRIVATE KEY-----\nMIIEvPlantedServiceAccountKeyBody\n-----END PRIVATE KEY-----\n",
  "client_email": "planted@planted-project.iam.gserviceaccount.com",
  "client_id": "100200300400500600700"
}
"#;
    secrets.extend([
        "0f1e2d3c4b5a69788796a5b4c3d2e1f0aabbccdd".to_owned(),
        "MIIEvPlantedServiceAccountKeyBody".to_owned(),
    ]);
    let env = format!(
        "SECRET_TOKEN={}\n",
        split_by("PlantedSplitEnvValue77", "\u{200b}", 2, 0)
    );
    secrets.push("PlantedSplitEnvValue77".to_owned());
    write_files(
        &dir,
        &[
            ("SKILL.md", &skill_md),
            ("refs/hidden.md", &text),
            ("keys/service-account.json", service_account),
            (".env", &env),
        ],
    );
    for (name, secret) in NAMED {
        write(&dir, name, b"a file whose name holds a secret\n");
        secrets.push((*secret).to_owned());
    }
    (dir, secrets)
}

/// Files whose path holds a secret: (the path, the secret, the path it is packed under).
const NAMED: &[(&str, &str)] = &[
    (
        "refs/ghp_PlantedNameToken0123456789abcdefghij.md",
        "ghp_PlantedNameToken0123456789abcdefghij",
    ),
    ("AKIAPLANTEDFOLDER003/notes.md", "AKIAPLANTEDFOLDER003"),
    (
        "AKIAPLANTEDFOLDER003/deeper/more.md",
        "AKIAPLANTEDFOLDER003",
    ),
    (
        "keys/AKIA\u{200b}PLANTEDNAME\u{2060}00004.txt",
        "AKIAPLANTEDNAME00004",
    ),
    (
        "scripts/sk-ant-api03-PlantedNameAnthropic-0123 run.sh",
        "sk-ant-api03-PlantedNameAnthropic-0123",
    ),
    ("config/password=PlantedNamePass55", "PlantedNamePass55"),
];

#[test]
fn no_hidden_split_or_named_secret_leaves_in_any_form() {
    let machine = Machine::new();
    let (_, secrets) = plant_hidden(&machine);
    for extra in [&[][..], &["--include-unscanned"][..]] {
        let out = machine.root().join("hidden.tar.gz");
        let mut args = vec!["export", "hidden", "-o", out.to_str().unwrap(), "--force"];
        args.extend_from_slice(extra);
        let output = machine.run(&args);
        assert_eq!(
            output.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        let archive = fs::read(&out).unwrap();
        // Names and contents alike, as they are and as a reader sees them.
        let tar = tar_bytes(&archive);
        let seen = as_seen(&tar);
        for secret in &secrets {
            for form in forms(secret) {
                for bytes in [&tar, &seen] {
                    assert!(
                        !contains(bytes, &form),
                        "{secret:?} left as {:?}\n{}",
                        String::from_utf8_lossy(&form),
                        stdout(&output)
                    );
                }
            }
        }
        let files = entries(&archive);
        let text = stdout(&output);
        for packed in [
            "refs/[REDACTED-github-token].md",
            "[REDACTED-aws-access-key]/notes.md",
            "[REDACTED-aws-access-key]/deeper/more.md",
            "keys/[REDACTED-aws-access-key-2].txt",
            "scripts/[REDACTED-anthropic-key] run.sh",
            "config/password=[REDACTED-assignment]",
        ] {
            assert_eq!(
                files.get(packed).map(Vec::as_slice),
                Some(&b"a file whose name holds a secret\n"[..]),
                "{packed}: {:?}",
                files.keys()
            );
        }
        assert!(
            text.contains("6 files packed under another name, the secret cut out of it:"),
            "{text}"
        );
        // What is not secret is packed as it was, hidden characters and all.
        let hidden = String::from_utf8(files["refs/hidden.md"].clone()).unwrap();
        assert!(
            hidden.contains("Emoji \u{1f468}\u{200d}\u{1f469} and 漢字 stay.\n"),
            "{hidden}"
        );
        let key_file = String::from_utf8(files["keys/service-account.json"].clone()).unwrap();
        assert!(key_file.contains("planted@planted-project.iam.gserviceaccount.com"));
        if !extra.is_empty() {
            assert!(files.contains_key(".env"), "{:?}", files.keys());
        }
    }
}
