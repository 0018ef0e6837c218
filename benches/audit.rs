//! `skilldeck audit --format json` of every installed skill (issue 33: under a second for
//! 2,000), on a machine of N skills written like real ones: a `SKILL.md` of about 4 KiB
//! (frontmatter, headings, prose, lists, a table, bash and Python blocks, an API call with
//! curl, a line of CJK and an emoji), a reference of about 3 KiB, and a Python script of
//! about 2 KiB. Beside it, in the same run on the same tree: `skilldeck list`, the table,
//! which is the scan both start with and nothing more (so the audit's own cost is the
//! difference), and `skilldeck list --json`, which carries each skill's audit summary.
//!
//! Run: `cargo bench --bench audit -- 2000` (sizes optional; default 2000). Needs GNU time at
//! /usr/bin/time. One warm-up each, then 7 alternating runs; medians, as Markdown rows.

mod common;

use std::fs;
use std::path::Path;

use common::machine::ROOTS;
use common::timing::{medians, mib, ms, timed};

const RUNS: usize = 7;

fn main() {
    let sizes = common::args::numbers_or(&[2000]);
    println!(
        "| skills | files | bytes | skilldeck audit --format json (median) | peak RSS | skilldeck list (median) | skilldeck list --json (median) | peak RSS |"
    );
    println!("|---:|---:|---:|---:|---:|---:|---:|---:|");
    for n in sizes {
        let tmp = tempfile::tempdir().expect("temp dir");
        let home = tmp.path().join("home");
        let (files, bytes) = generate(&home, n);
        let project = tmp.path().join("project");
        fs::create_dir_all(&project).expect("project dir");
        let command = |args: &[&str]| -> Vec<String> {
            let mut argv = vec![env!("CARGO_BIN_EXE_skilldeck").to_owned()];
            argv.extend(args.iter().map(|a| (*a).to_owned()));
            argv.extend(["--project".to_owned(), project.display().to_string()]);
            argv
        };
        let audit = command(&["audit", "--format", "json"]);
        let table = command(&["list", "--no-usage"]);
        let list = command(&["list", "--json", "--no-usage"]);
        let env = [("HOME", home.as_path())];
        timed(&audit, &env);
        timed(&table, &env);
        timed(&list, &env);
        let mut audits = Vec::new();
        let mut tables = Vec::new();
        let mut lists = Vec::new();
        for _ in 0..RUNS {
            audits.push(timed(&audit, &env));
            tables.push(timed(&table, &env));
            lists.push(timed(&list, &env));
        }
        let (audit_time, audit_rss) = medians(&audits);
        let (table_time, _) = medians(&tables);
        let (list_time, list_rss) = medians(&lists);
        println!(
            "| {n} | {files} | {:.1} MiB | {:.1} ms | {:.1} MiB | {:.1} ms | {:.1} ms | {:.1} MiB |",
            bytes as f64 / 1024.0 / 1024.0,
            ms(audit_time),
            mib(audit_rss),
            ms(table_time),
            ms(list_time),
            mib(list_rss),
        );
    }
}

/// `n` skills over the roots people fill; the files and bytes written.
fn generate(home: &Path, n: usize) -> (usize, usize) {
    let mut files = 0;
    let mut bytes = 0;
    for i in 0..n {
        let name = format!("skill-{i:05}");
        let dir = home.join(ROOTS[i % ROOTS.len()]).join(&name);
        for (path, text) in [
            ("SKILL.md", manifest(&name, i)),
            ("references/guide.md", guide(i)),
            ("scripts/process.py", script(i)),
        ] {
            let path = dir.join(path);
            fs::create_dir_all(path.parent().expect("a folder")).expect("folder");
            fs::write(&path, &text).expect("write");
            files += 1;
            bytes += text.len();
        }
    }
    (files, bytes)
}

fn manifest(name: &str, i: usize) -> String {
    let mut text = format!(
        "---\nname: {name}\ndescription: Processes report files (item {i}) into summaries, tables and charts. Use when the user asks to summarise, convert or chart a report.\nallowed-tools: Bash(python3:*) Read Write\n---\n\n# Report processing {i}\n\n"
    );
    text.push_str(
        "## Overview\n\nThis skill reads a report, extracts its sections and writes a summary the user can \
         paste into a document. It keeps headings and lists, converts tables to Markdown, and \
         draws a chart when the report holds numbers over time.\n\n",
    );
    for step in 1..=6 {
        text.push_str(&format!(
            "{step}. Read the section {step} of the report and note its heading, its key figures and any \
             dates it names; keep the wording of quotations exact.\n"
        ));
    }
    text.push_str(
        "\n## Quick start\n\n```bash\npython3 scripts/process.py report.pdf --out summary.md\n\
         curl -s https://api.example.com/v1/reports -H \"Authorization: Bearer $API_TOKEN\" | jq '.items[]'\n\
         rm -rf ./tmp && mkdir -p ./tmp\n```\n\n```python\nimport json\n\nwith open('summary.json') as f:\n    data = json.load(f)\nprint(data['title'])\n```\n\n",
    );
    text.push_str("| Field | Meaning | Example |\n|---|---|---|\n");
    for row in 0..12 {
        text.push_str(&format!(
            "| field_{row} | The value of column {row} in the source table | {} |\n",
            row * i
        ));
    }
    text.push_str(
        "\n## Notes\n\n- Never pipe downloaded scripts into a shell; download, read, then run.\n\
         - Answer in the user's language: 用中文回答，日本語でも答えます。 ✅\n\
         - Large reports are split into parts of 50 pages.\n\n",
    );
    text.push_str(&"Keep summaries short, factual and in the order of the report. ".repeat(12));
    text.push('\n');
    text
}

fn guide(i: usize) -> String {
    let mut text = format!("# Reference for item {i}\n\n");
    for section in 0..8 {
        text.push_str(&format!(
            "## Section {section}\n\nThe report's section {section} holds a table of figures by month. Read \
             each row, keep its units, and compare it with the previous year where the report gives \
             one. Round to two decimals; never invent a figure the report does not hold.\n\n"
        ));
    }
    text
}

fn script(i: usize) -> String {
    format!(
        "#!/usr/bin/env python3\n\"\"\"Summarise a report (item {i}).\"\"\"\n\nimport argparse\nimport json\nimport os\nimport subprocess\nimport sys\n\nimport requests\n\nAPI = 'https://api.example.com/v1/summaries'\n\n\ndef extract(path):\n    out = subprocess.run(['pdftotext', path, '-'], capture_output=True, text=True, check=True)\n    return out.stdout.split('\\f')\n\n\ndef summarise(pages):\n    token = os.environ.get('API_TOKEN', '')\n    resp = requests.post(API, json={{'pages': pages[:50]}}, headers={{'Authorization': f'Bearer {{token}}'}}, timeout=60)\n    resp.raise_for_status()\n    return resp.json()\n\n\ndef main():\n    parser = argparse.ArgumentParser(description=__doc__)\n    parser.add_argument('report')\n    parser.add_argument('--out', default='summary.md')\n    args = parser.parse_args()\n    pages = extract(args.report)\n    summary = summarise(pages)\n    with open(args.out, 'w') as f:\n        f.write(summary['markdown'])\n    json.dump(summary, sys.stdout)\n\n\nif __name__ == '__main__':\n    main()\n"
    )
}
