//! A loopback smart-HTTP git server for the tests, honest or hostile. It listens on
//! 127.0.0.1 only, answers at most [`MOST_REQUESTS`] connections, and stops when dropped or
//! after [`LIFETIME`], whichever comes first; every endless answer ends with it.
//!
//! An honest answer is `git http-backend`'s, run as CGI on the bare repositories below a
//! folder. The hostile plays start from it, so git on the other end gets a real protocol
//! exchange up to the point the play takes over.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The most connections one server answers.
pub const MOST_REQUESTS: usize = 200;

/// The longest a server, or any one of its answers, lives.
pub const LIFETIME: Duration = Duration::from_secs(90);

/// What the server does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Play {
    /// `git http-backend`'s answers.
    Honest,
    /// The pack's answer, but where the pack should start, progress and error text on the
    /// side band, without end.
    EndlessProgress,
    /// The ref advertisement never answered: the connection is held open, silent.
    StallRefs,
    /// The pack's answer up to where the pack starts, then silence, the connection open.
    StallMidFetch,
    /// A ref advertisement that never ends.
    EndlessRefs,
    /// Every request asks for a password (401), which only a credential helper or a prompt
    /// could give.
    Unauthorized,
}

pub struct Server {
    port: u16,
    play: Arc<Mutex<Play>>,
    stop: Arc<AtomicBool>,
}

impl Server {
    /// Serve the bare repositories below `root`, playing `play`.
    pub fn start(root: &Path, play: Play) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        listener.set_nonblocking(true).unwrap();
        let port = listener.local_addr().unwrap().port();
        let play = Arc::new(Mutex::new(play));
        let stop = Arc::new(AtomicBool::new(false));
        let root = root.to_path_buf();
        let (shared, stopped) = (play.clone(), stop.clone());
        let counted = AtomicUsize::new(0);
        std::thread::spawn(move || {
            let started = Instant::now();
            while !stopped.load(Ordering::Relaxed) && started.elapsed() < LIFETIME {
                match listener.accept() {
                    Ok((stream, _)) => {
                        if counted.fetch_add(1, Ordering::Relaxed) >= MOST_REQUESTS {
                            break;
                        }
                        let _ = stream.set_nonblocking(false);
                        let play = *shared.lock().unwrap();
                        let (root, stopped) = (root.clone(), stopped.clone());
                        std::thread::spawn(move || serve(stream, &root, play, &stopped));
                    }
                    Err(_) => std::thread::sleep(Duration::from_millis(5)),
                }
            }
        });
        Self { port, play, stop }
    }

    /// Play `play` from the next connection on.
    pub fn play(&self, play: Play) {
        *self.play.lock().unwrap() = play;
    }

    pub fn url(&self, repository: &str) -> String {
        format!("http://127.0.0.1:{}/{repository}", self.port)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// One request as read off the connection.
struct Request {
    method: String,
    target: String,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Request {
    fn header(&self, name: &str) -> Option<String> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.clone())
    }
}

fn read_request(stream: &TcpStream) -> Option<Request> {
    let mut reader = BufReader::new(stream.try_clone().ok()?);
    let mut line = String::new();
    reader.read_line(&mut line).ok()?;
    let mut parts = line.split_whitespace();
    let method = parts.next()?.to_owned();
    let target = parts.next()?.to_owned();
    let mut headers = Vec::new();
    loop {
        let mut line = String::new();
        reader.read_line(&mut line).ok()?;
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some((name, value)) = line.split_once(':') {
            headers.push((name.trim().to_ascii_lowercase(), value.trim().to_owned()));
        }
    }
    let mut request = Request {
        method,
        target,
        headers,
        body: Vec::new(),
    };
    if request.header("transfer-encoding").as_deref() == Some("chunked") {
        loop {
            let mut size = String::new();
            reader.read_line(&mut size).ok()?;
            let size = usize::from_str_radix(size.trim(), 16).ok()?;
            let mut chunk = vec![0; size + 2];
            reader.read_exact(&mut chunk).ok()?;
            if size == 0 {
                break;
            }
            request.body.extend_from_slice(&chunk[..size]);
        }
    } else if let Some(length) = request.header("content-length") {
        request.body.resize(length.parse().ok()?, 0);
        reader.read_exact(&mut request.body).ok()?;
    }
    Some(request)
}

fn serve(mut stream: TcpStream, root: &Path, play: Play, stop: &AtomicBool) {
    let Some(request) = read_request(&stream) else {
        return;
    };
    let started = Instant::now();
    let alive = || !stop.load(Ordering::Relaxed) && started.elapsed() < LIFETIME;
    let refs = request.target.contains("/info/refs");
    match play {
        Play::Unauthorized => {
            let _ = stream.write_all(
                b"HTTP/1.1 401 Unauthorized\r\nWWW-Authenticate: Basic realm=\"git\"\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
            );
            return;
        }
        Play::StallRefs if refs => {
            while alive() {
                std::thread::sleep(Duration::from_millis(50));
            }
            return;
        }
        Play::EndlessRefs if refs => {
            let _ = stream.write_all(
                b"HTTP/1.1 200 OK\r\nContent-Type: application/x-git-upload-pack-advertisement\r\nCache-Control: no-cache\r\nConnection: close\r\n\r\n",
            );
            let _ = stream.write_all(&pkt(b"# service=git-upload-pack\n"));
            let _ = stream.write_all(b"0000");
            let id = "1".repeat(40);
            let _ = stream.write_all(&pkt(
                format!("{id} HEAD\0side-band-64k shallow\n").as_bytes()
            ));
            let mut n = 0u64;
            while alive() {
                n += 1;
                let line = pkt(format!("{id} refs/heads/branch-{n:020}\n").as_bytes());
                if stream.write_all(&line.repeat(100)).is_err() {
                    return;
                }
            }
            return;
        }
        _ => {}
    }
    let Some((status, headers, body)) = http_backend(&request, root) else {
        return;
    };
    let cut = match play {
        Play::EndlessProgress | Play::StallMidFetch if !refs => pack_start(&body),
        _ => None,
    };
    let Some(cut) = cut else {
        let _ = write!(
            stream,
            "HTTP/1.1 {status}\r\n{headers}Content-Length: {}\r\nConnection: close\r\n\r\n",
            body.len()
        );
        let _ = stream.write_all(&body);
        return;
    };
    // No length: the answer runs until the connection closes.
    let _ = write!(
        stream,
        "HTTP/1.1 {status}\r\n{headers}Connection: close\r\n\r\n"
    );
    let _ = stream.write_all(&body[..cut]);
    let _ = stream.flush();
    if play == Play::StallMidFetch {
        while alive() {
            std::thread::sleep(Duration::from_millis(50));
        }
        return;
    }
    let progress = pkt(&[
        b"\x02".as_slice(),
        &b"Counting objects: 50% (1/2)   \r".repeat(400),
    ]
    .concat());
    let error = pkt(&[
        b"\x02".as_slice(),
        &b"error: something went wrong, again\n".repeat(400),
    ]
    .concat());
    while alive() {
        if stream.write_all(&progress).is_err() || stream.write_all(&error).is_err() {
            return;
        }
    }
}

/// `payload` as one pkt-line.
fn pkt(payload: &[u8]) -> Vec<u8> {
    let mut line = format!("{:04x}", payload.len() + 4).into_bytes();
    line.extend_from_slice(payload);
    line
}

/// Where the side band starts in an upload-pack answer (protocol v0 or v2): the first
/// pkt-line whose payload is on band 1, 2 or 3.
fn pack_start(body: &[u8]) -> Option<usize> {
    let mut at = 0;
    while at + 4 <= body.len() {
        let length =
            usize::from_str_radix(std::str::from_utf8(&body[at..at + 4]).ok()?, 16).ok()?;
        if length < 4 {
            at += 4;
            continue;
        }
        if matches!(body.get(at + 4), Some(1..=3)) {
            return Some(at);
        }
        at += length;
    }
    None
}

/// `git http-backend`'s answer to `request`: the status, the other headers (each ending in
/// CRLF) and the body.
fn http_backend(request: &Request, root: &Path) -> Option<(String, String, Vec<u8>)> {
    let (path, query) = request
        .target
        .split_once('?')
        .unwrap_or((&request.target, ""));
    let mut cgi = Command::new("git");
    cgi.arg("http-backend")
        .env("GIT_PROJECT_ROOT", root)
        .env("GIT_HTTP_EXPORT_ALL", "1")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("REQUEST_METHOD", &request.method)
        .env("PATH_INFO", path)
        .env("QUERY_STRING", query)
        .env("CONTENT_LENGTH", request.body.len().to_string())
        .env("REMOTE_ADDR", "127.0.0.1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    if let Some(kind) = request.header("content-type") {
        cgi.env("CONTENT_TYPE", kind);
    }
    if let Some(protocol) = request.header("git-protocol") {
        cgi.env("GIT_PROTOCOL", protocol);
    }
    if let Some(encoding) = request.header("content-encoding") {
        cgi.env("HTTP_CONTENT_ENCODING", encoding);
    }
    let mut child = cgi.spawn().ok()?;
    child.stdin.take()?.write_all(&request.body).ok()?;
    let output = child.wait_with_output().ok()?;
    // The CGI answer: headers (a `Status:` among them, else 200), a blank line, the body.
    let out = &output.stdout;
    let (at, gap) = out
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .map(|at| (at, 4))
        .or_else(|| out.windows(2).position(|w| w == b"\n\n").map(|at| (at, 2)))?;
    let head = String::from_utf8_lossy(&out[..at]).into_owned();
    let mut status = "200 OK".to_owned();
    let mut kept = String::new();
    for line in head.lines() {
        match line.strip_prefix("Status:") {
            Some(value) => status = value.trim().to_owned(),
            None => kept.push_str(&format!("{line}\r\n")),
        }
    }
    Some((status, kept, out[at + gap..].to_vec()))
}

/// A bare copy of the repository `from` below `root`, named `name`, for the server.
pub fn served(root: &Path, from: &Path, name: &str) -> PathBuf {
    std::fs::create_dir_all(root).unwrap();
    crate::common::git::git(
        root,
        &["clone", "--quiet", "--bare", from.to_str().unwrap(), name],
    );
    root.join(name)
}
