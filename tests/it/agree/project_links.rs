//! A project reached through a symbolic link, every agent asked. Started in a linked folder,
//! each agent sees the folder the link leads to (the working directory the system gives it is
//! the real one, whatever `PWD` a shell set), so it walks the real parents and finds the real
//! repository. skilldeck run in that folder sees the same; given the linked path as `--project`
//! it must resolve the link as the agents do, not walk the link's own parents.
//!
//! The links: `linkdir` to the folder holding the project (so `linkdir/proj` is the project),
//! `projlink` to the project itself (whose own parent is not the project's), `sublink` to its
//! subfolder (no `.git` above it on the link's side) and `outlink` to the folder outside any
//! project.

use std::path::PathBuf;

use super::layout;
use super::{Agent, Check, Lab, here};

// The links are Unix links.
#[cfg(unix)]
fn lab() -> Option<(Lab, Vec<PathBuf>)> {
    let lab = Lab::new()?;
    lab.warm(&Agent::ALL);
    layout::every_root(&lab);
    let work = lab
        .project
        .parent()
        .expect("the project has a parent")
        .to_path_buf();
    let links = [
        ("linkdir", work),
        ("projlink", lab.project.clone()),
        ("sublink", lab.sub.clone()),
        ("outlink", lab.outside.clone()),
    ];
    for (name, target) in &links {
        crate::common::symlink(target, &lab.root.join(name));
    }
    let starts = vec![
        lab.root.join("linkdir/proj"),
        lab.root.join("projlink"),
        lab.root.join("sublink"),
        lab.root.join("outlink"),
    ];
    Some((lab, starts))
}

/// Started in each linked folder, skilldeck run there too.
#[cfg(unix)]
#[test]
fn every_agent_started_in_a_linked_folder() {
    let Some((lab, starts)) = lab() else { return };
    let starts: Vec<&std::path::Path> = starts.iter().map(PathBuf::as_path).collect();
    lab.check(Check::new(
        here!(),
        "project through a link (started there)",
        &Agent::ALL,
        &starts,
    ));
}

/// As a shell leaves it: `PWD` names the linked path.
#[cfg(unix)]
#[test]
fn every_agent_started_in_a_linked_folder_with_pwd_set() {
    let Some((mut lab, starts)) = lab() else {
        return;
    };
    for start in &starts {
        lab.set("PWD", start);
        lab.check(Check::new(
            here!(),
            "project through a link (PWD the link)",
            &Agent::ALL,
            &[start],
        ));
    }
}

/// skilldeck given the linked folder as `--project`, from elsewhere.
#[cfg(unix)]
#[test]
fn every_agent_against_project_given_through_a_link() {
    let Some((lab, starts)) = lab() else { return };
    let starts: Vec<&std::path::Path> = starts.iter().map(PathBuf::as_path).collect();
    lab.check(
        Check::new(
            here!(),
            "project through a link (--project)",
            &Agent::ALL,
            &starts,
        )
        .project_given(),
    );
}
