//! An import into a project folder an agent reads only in a project it trusts (Gemini CLI's
//! `.gemini/skills` and `.agents/skills`), in a project it does not trust, warns once that the
//! agent will not load what was put there, with how to trust the project; a trusted project,
//! a user folder and an agent not installed say nothing.

use crate::common::{Machine, write_skill};

fn bundle(machine: &Machine, names: &[&str]) -> String {
    let bundle = machine.root().join("bundle");
    for name in names {
        write_skill(&bundle.join(name), &[]);
    }
    bundle.to_str().unwrap().to_owned()
}

fn import(machine: &Machine, args: &[&str], vars: &[(&str, &str)]) -> (String, String) {
    let mut command = machine.command(&[&["import"], args].concat());
    for (name, value) in vars {
        command.env(name, value);
    }
    let output = command.output().unwrap();
    assert!(output.status.success(), "{output:?}");
    (
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

const WARNING: &str = "skilldeck: warning: gemini-cli will not load the skills in";
const WHY: &str = "Gemini CLI does not trust this folder (trust it with GEMINI_CLI_TRUST_WORKSPACE=true or a rule in ~/.gemini/trustedFolders.json)";

fn gemini_installed() -> Machine {
    let machine = Machine::new();
    std::fs::create_dir_all(machine.home.join(".gemini")).unwrap();
    machine
}

#[test]
fn importing_into_an_untrusted_project_warns_once_that_gemini_will_not_load_it() {
    let machine = gemini_installed();
    let source = bundle(&machine, &["one", "two", "three"]);
    let (_, stderr) = import(
        &machine,
        &[&source, "--agent", "gemini-cli", "--scope", "project"],
        &[],
    );
    assert_eq!(stderr.matches(WARNING).count(), 1, "{stderr}");
    // Gemini CLI does read that folder, in a trusted project: not "no agent reads".
    assert!(!stderr.contains("no agent reads"), "{stderr}");
    // Gemini CLI's workspace is the folder it starts in.
    let root = machine.start.join(".gemini/skills");
    assert!(
        stderr.contains(&format!("{WARNING} {}: {WHY}", root.display())),
        "{stderr}"
    );
    // The shared folder another agent reads too: the warning is Gemini CLI's all the same.
    let shared = machine.start.join(".agents/skills");
    let (_, stderr) = import(
        &machine,
        &[&source, "--to", shared.to_str().unwrap(), "--dry-run"],
        &[],
    );
    assert!(
        stderr.contains(&format!(
            "skilldeck: warning: gemini-cli would not load the skills in {}",
            shared.display()
        )),
        "{stderr}"
    );
}

#[test]
fn a_trusted_project_a_user_folder_or_no_gemini_says_nothing() {
    let machine = gemini_installed();
    let source = bundle(&machine, &["one"]);
    let project = ["--agent", "gemini-cli", "--scope", "project", "--force"];
    let (_, stderr) = import(
        &machine,
        &[&[source.as_str()][..], &project].concat(),
        &[("GEMINI_CLI_TRUST_WORKSPACE", "true")],
    );
    assert!(!stderr.contains("will not load"), "{stderr}");
    let (_, stderr) = import(&machine, &[&source, "--agent", "gemini-cli"], &[]);
    assert!(!stderr.contains("will not load"), "{stderr}");
    // Gemini CLI not installed here: not judged, unless every agent is asked for.
    let bare = Machine::new();
    let source = bundle(&bare, &["one"]);
    let shared = bare.start.join(".agents/skills");
    let to = shared.to_str().unwrap();
    let (_, stderr) = import(&bare, &[&source, "--to", to, "--dry-run"], &[]);
    assert!(!stderr.contains("will not load"), "{stderr}");
    let (_, stderr) = import(
        &bare,
        &[&source, "--to", to, "--dry-run", "--all-agents"],
        &[],
    );
    assert!(stderr.contains("gemini-cli would not load"), "{stderr}");
}
