//! Git repositories served over loopback HTTP, for tests of what skilldeck fetches with the
//! user's `git` from a URL: a listener on 127.0.0.1 (a port the system picks) in a thread,
//! each request handed to git's own `git http-backend` as CGI. That program speaks git's smart
//! HTTP protocol (which a shallow fetch needs: git refuses `--depth` over the dumb protocol,
//! "dumb http transport does not support shallow capabilities") and serves the dumb
//! protocol's static files too, which `git update-server-info` keeps current after each push.
//!
//! Bounded as a test server must be: it answers at most [`MOST_REQUESTS`] requests and lives
//! at most [`LIFETIME`], and it stops when dropped.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use super::git::git;

/// The most requests one server answers.
pub const MOST_REQUESTS: usize = 2_000;
/// The longest one server lives.
pub const LIFETIME: Duration = Duration::from_secs(300);
/// The largest request body read (git's requests for a test repository are a few kilobytes).
const MOST_BODY: usize = 16 * 1024 * 1024;

/// A server of the bare repositories in one folder.
pub struct GitServer {
    pub root: PathBuf,
    port: u16,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl GitServer {
    /// Serve the bare repositories below `root` at `http://127.0.0.1:PORT/NAME`.
    pub fn serve(root: &Path) -> Self {
        std::fs::create_dir_all(root).unwrap();
        let listener = TcpListener::bind("127.0.0.1:0").expect("a loopback port");
        let port = listener.local_addr().unwrap().port();
        listener.set_nonblocking(true).unwrap();
        let stop = Arc::new(AtomicBool::new(false));
        let thread = {
            let (stop, root) = (stop.clone(), root.to_path_buf());
            std::thread::spawn(move || accept(&listener, &root, &stop))
        };
        Self {
            root: root.to_path_buf(),
            port,
            stop,
            thread: Some(thread),
        }
    }

    /// The URL of the repository `name` (`skills.git`).
    pub fn url(&self, name: &str) -> String {
        format!("http://127.0.0.1:{}/{name}", self.port)
    }

    /// Publish the work repository `work` as the bare `name` (made on first use), its `main`
    /// pushed and the dumb protocol's files brought up to date; the URL it is served at.
    pub fn publish(&self, work: &Path, name: &str) -> String {
        let bare = self.root.join(name);
        if !bare.exists() {
            git(&self.root, &["init", "--quiet", "--bare", name]);
        }
        let bare_text = bare.to_str().unwrap();
        git(
            work,
            &["push", "--quiet", "--force", bare_text, "main:main"],
        );
        git(&bare, &["symbolic-ref", "HEAD", "refs/heads/main"]);
        git(&bare, &["update-server-info"]);
        self.url(name)
    }
}

impl Drop for GitServer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

fn accept(listener: &TcpListener, root: &Path, stop: &AtomicBool) {
    let started = Instant::now();
    let mut answered = 0;
    while !stop.load(Ordering::SeqCst) && answered < MOST_REQUESTS && started.elapsed() < LIFETIME {
        match listener.accept() {
            Ok((stream, _)) => {
                answered += 1;
                let _ = answer(stream, root);
            }
            Err(error) if error.kind() == std::io::ErrorKind::WouldBlock => {
                std::thread::sleep(Duration::from_millis(5));
            }
            Err(_) => break,
        }
    }
}

/// One request, answered by `git http-backend`, the connection closed after.
fn answer(stream: TcpStream, root: &Path) -> std::io::Result<()> {
    stream.set_nonblocking(false)?;
    stream.set_read_timeout(Some(Duration::from_secs(30)))?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut line = String::new();
    reader.read_line(&mut line)?;
    let mut words = line.split_whitespace();
    let (Some(method), Some(target)) = (words.next(), words.next()) else {
        return Ok(());
    };
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    let mut headers: Vec<(String, String)> = Vec::new();
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header)? == 0 {
            break;
        }
        let header = header.trim_end();
        if header.is_empty() {
            break;
        }
        if let Some((name, value)) = header.split_once(':') {
            headers.push((name.trim().to_ascii_lowercase(), value.trim().to_owned()));
        }
    }
    let header = |name: &str| {
        headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.clone())
    };
    let body = if header("transfer-encoding").is_some_and(|t| t.contains("chunked")) {
        chunked(&mut reader)?
    } else {
        let length: usize = header("content-length")
            .and_then(|l| l.parse().ok())
            .unwrap_or(0);
        let mut body = vec![0; length.min(MOST_BODY)];
        reader.read_exact(&mut body)?;
        body
    };
    let mut command = Command::new("git");
    command
        .arg("http-backend")
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_PROJECT_ROOT", root)
        .env("GIT_HTTP_EXPORT_ALL", "1")
        .env("REQUEST_METHOD", method)
        .env("PATH_INFO", path)
        .env("QUERY_STRING", query)
        .env("REMOTE_ADDR", "127.0.0.1")
        .env("CONTENT_LENGTH", body.len().to_string())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    for (name, variable) in [
        ("content-type", "CONTENT_TYPE"),
        ("content-encoding", "HTTP_CONTENT_ENCODING"),
        ("git-protocol", "GIT_PROTOCOL"),
    ] {
        if let Some(value) = header(name) {
            command.env(variable, value);
        }
    }
    let mut child = command.spawn()?;
    let mut stdin = child.stdin.take().expect("piped");
    let writer = std::thread::spawn(move || stdin.write_all(&body));
    let mut out = Vec::new();
    child.stdout.take().expect("piped").read_to_end(&mut out)?;
    let _ = writer.join();
    child.wait()?;
    respond(stream, &out)
}

/// A chunked request body.
fn chunked(reader: &mut impl BufRead) -> std::io::Result<Vec<u8>> {
    let mut body = Vec::new();
    loop {
        let mut size = String::new();
        reader.read_line(&mut size)?;
        let size = usize::from_str_radix(size.trim().split(';').next().unwrap_or("0"), 16)
            .map_err(std::io::Error::other)?;
        if size == 0 || body.len() + size > MOST_BODY {
            let mut end = String::new();
            reader.read_line(&mut end)?;
            return Ok(body);
        }
        let at = body.len();
        body.resize(at + size, 0);
        reader.read_exact(&mut body[at..])?;
        let mut crlf = [0; 2];
        reader.read_exact(&mut crlf)?;
    }
}

/// The CGI program's output as an HTTP response: its `Status:` (200 when it gives none), its
/// other headers, its body, the connection closed to end it.
fn respond(mut stream: TcpStream, cgi: &[u8]) -> std::io::Result<()> {
    let split = cgi
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .map(|at| (at, 4))
        .or_else(|| cgi.windows(2).position(|w| w == b"\n\n").map(|at| (at, 2)));
    let (head, body) = match split {
        Some((at, gap)) => (&cgi[..at], &cgi[at + gap..]),
        None => (&cgi[..0], cgi),
    };
    let head = String::from_utf8_lossy(head);
    let mut status = "200 OK".to_owned();
    let mut out = Vec::new();
    for line in head.lines() {
        match line.split_once(':') {
            Some((name, value)) if name.eq_ignore_ascii_case("status") => {
                status = value.trim().to_owned();
            }
            Some(_) => {
                out.extend_from_slice(line.as_bytes());
                out.extend_from_slice(b"\r\n");
            }
            None => {}
        }
    }
    let mut response = format!(
        "HTTP/1.1 {status}\r\nConnection: close\r\nContent-Length: {}\r\n",
        body.len()
    )
    .into_bytes();
    response.extend_from_slice(&out);
    response.extend_from_slice(b"\r\n");
    response.extend_from_slice(body);
    stream.write_all(&response)?;
    stream.flush()
}
