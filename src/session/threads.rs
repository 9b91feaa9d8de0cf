//! How connections get a thread: `thread_handling`.
//!
//! - `one-thread-per-connection` (the default, as in MySQL): each connection runs on its own
//!   OS thread, inside a single-threaded tokio runtime owned by that thread. The socket, the
//!   row-lock waits and the kill notifications are still awaited, but every wake-up lands on
//!   the thread that will run the command — no hand-off between a reactor thread and a
//!   worker, which is what a request/response protocol with many mostly idle clients pays for
//!   in a shared pool (measured: 1.35× the point-select throughput of the pool on 2 cores).
//!   When a connection ends its thread waits for the next one if fewer than
//!   `thread_cache_size` threads are already waiting (`Threads_cached`), and otherwise exits;
//!   `Threads_created` counts threads started. If no thread can be started the connection is
//!   served by the shared pool instead of being refused.
//! - `pool-of-threads`: every connection is a task on one multi-threaded tokio runtime with
//!   one worker per core (MariaDB's name for its thread pool).
//!
//! Code that may block its thread (the large-result flush, `SLEEP()`) goes through
//! [`blocking`], which tells a shared pool worker to hand its other tasks over first and is
//! a plain call on a connection's own thread.

use crate::config::vars;
use crate::server::Server;
use crate::session::conn::serve;
use crate::wire::auth::PeerInfo;
use parking_lot::{Condvar, Mutex};
use std::collections::VecDeque;
use std::io::{self, Write};
use std::net::IpAddr;
use std::os::fd::AsFd;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;
use tokio::io::AsyncWrite;

pub const ONE_THREAD_PER_CONNECTION: &str = "one-thread-per-connection";
pub const POOL_OF_THREADS: &str = "pool-of-threads";

/// `thread_handling` is `pool-of-threads`.
pub fn pooled(server_globals: &crate::config::GlobalVars) -> bool {
    server_globals
        .get_string(vars::THREAD_HANDLING)
        .eq_ignore_ascii_case(POOL_OF_THREADS)
}

/// Runs `f`, which may block the thread: on a shared pool worker the worker's other tasks are
/// handed over first; on a connection's own thread (or outside tokio) it is a plain call.
pub fn blocking<R>(f: impl FnOnce() -> R) -> R {
    if on_shared_pool() {
        tokio::task::block_in_place(f)
    } else {
        f()
    }
}

/// Runs `f` on a thread of its own at a lower priority (see
/// [`crate::journal::writer::lower_priority`]) and waits for it, as blocking work: for the
/// CPU-heavy parts of a large transaction's commit, so that other sessions' small commits
/// keep their share of the CPU. If no thread can be started, `f` runs here.
pub fn bulk<R: Send>(f: impl FnOnce() -> R + Send) -> R {
    let job = parking_lot::Mutex::new(Some(f));
    let out = blocking(|| {
        std::thread::scope(|s| {
            let h = std::thread::Builder::new()
                .name("quire-bulk".into())
                .spawn_scoped(s, || {
                    crate::journal::writer::lower_priority();
                    job.lock().take().map(|f| f())
                })
                .ok()?;
            h.join().unwrap_or_else(|p| std::panic::resume_unwind(p))
        })
    });
    match (out, job.into_inner()) {
        (Some(r), _) => r,
        (None, Some(f)) => f(),
        (None, None) => unreachable!("a bulk job that ran returned its result"),
    }
}

/// Running on a worker of the shared multi-threaded runtime (not a connection's own thread).
pub fn on_shared_pool() -> bool {
    tokio::runtime::Handle::try_current()
        .is_ok_and(|h| h.runtime_flavor() == tokio::runtime::RuntimeFlavor::MultiThread)
}

/// Gives an accepted connection its thread: a task in the shared pool when `pooled`
/// (`thread_handling=pool-of-threads`), else a connection thread.
pub fn start(server: &Arc<Server>, pooled: bool, conn: Accepted) {
    if pooled {
        tokio::spawn(conn.serve(server.clone()));
    } else {
        server.conn_threads.dispatch(server, conn);
    }
}

/// An accepted connection, detached from the runtime that accepted it.
pub enum Accepted {
    Tcp(std::net::TcpStream, IpAddr),
    Unix(std::os::unix::net::UnixStream),
}

impl Accepted {
    /// Serves the connection on the current runtime.
    async fn serve(self, server: Arc<Server>) {
        match self {
            Accepted::Tcp(s, ip) => match tokio::net::TcpStream::from_std(s) {
                Ok(s) => {
                    let (rd, wr) = s.into_split();
                    serve(rd, wr, PeerInfo::Tcp(ip), server).await
                }
                Err(e) => eprintln!("quire: [Warning] cannot register a connection: {e}"),
            },
            Accepted::Unix(s) => match tokio::net::UnixStream::from_std(s) {
                Ok(s) => {
                    let (rd, wr) = s.into_split();
                    serve(rd, wr, PeerInfo::Unix, server).await
                }
                Err(e) => eprintln!("quire: [Warning] cannot register a connection: {e}"),
            },
        }
    }
}

/// The write half of a client socket.
pub trait ConnWriter: AsyncWrite + Unpin + Send {
    /// Writes all of `buf` with the calling thread blocked (bounded by `timeout`). Only for
    /// a connection on its own thread, where nothing else polls the socket meanwhile.
    fn write_all_blocking(&mut self, buf: &[u8], timeout: Duration) -> io::Result<()>;
    /// A duplicate of the socket's descriptor (for the journal writer's direct OK).
    fn dup_fd(&self) -> io::Result<std::os::fd::OwnedFd>;
}

/// A blocking duplicate of a non-blocking socket: the flag lives on the shared file
/// description, so it is switched off for the write and back on afterwards.
fn write_dup_blocking<S>(s: S, buf: &[u8], timeout: Duration) -> io::Result<()>
where
    S: BlockingSocket,
{
    s.set_nonblocking(false)?;
    let r = s
        .set_write_timeout(Some(timeout))
        .and_then(|_| s.write_all_ref(buf));
    let _ = s.set_write_timeout(None);
    s.set_nonblocking(true)?;
    r
}

trait BlockingSocket {
    fn set_nonblocking(&self, on: bool) -> io::Result<()>;
    fn set_write_timeout(&self, t: Option<Duration>) -> io::Result<()>;
    fn write_all_ref(&self, buf: &[u8]) -> io::Result<()>;
}

impl BlockingSocket for std::net::TcpStream {
    fn set_nonblocking(&self, on: bool) -> io::Result<()> {
        std::net::TcpStream::set_nonblocking(self, on)
    }
    fn set_write_timeout(&self, t: Option<Duration>) -> io::Result<()> {
        std::net::TcpStream::set_write_timeout(self, t)
    }
    fn write_all_ref(&self, buf: &[u8]) -> io::Result<()> {
        let mut s = self;
        s.write_all(buf)
    }
}

impl BlockingSocket for std::os::unix::net::UnixStream {
    fn set_nonblocking(&self, on: bool) -> io::Result<()> {
        std::os::unix::net::UnixStream::set_nonblocking(self, on)
    }
    fn set_write_timeout(&self, t: Option<Duration>) -> io::Result<()> {
        std::os::unix::net::UnixStream::set_write_timeout(self, t)
    }
    fn write_all_ref(&self, buf: &[u8]) -> io::Result<()> {
        let mut s = self;
        s.write_all(buf)
    }
}

impl ConnWriter for tokio::net::tcp::OwnedWriteHalf {
    fn write_all_blocking(&mut self, buf: &[u8], timeout: Duration) -> io::Result<()> {
        write_dup_blocking(std::net::TcpStream::from(self.dup_fd()?), buf, timeout)
    }
    fn dup_fd(&self) -> io::Result<std::os::fd::OwnedFd> {
        AsRef::<tokio::net::TcpStream>::as_ref(self)
            .as_fd()
            .try_clone_to_owned()
    }
}

impl ConnWriter for tokio::net::unix::OwnedWriteHalf {
    fn write_all_blocking(&mut self, buf: &[u8], timeout: Duration) -> io::Result<()> {
        write_dup_blocking(
            std::os::unix::net::UnixStream::from(self.dup_fd()?),
            buf,
            timeout,
        )
    }
    fn dup_fd(&self) -> io::Result<std::os::fd::OwnedFd> {
        AsRef::<tokio::net::UnixStream>::as_ref(self)
            .as_fd()
            .try_clone_to_owned()
    }
}

/// Connections waiting for a thread, and threads waiting for a connection.
#[derive(Default)]
pub struct ConnThreads {
    state: Mutex<Waiting>,
    wake: Condvar,
}

#[derive(Default)]
struct Waiting {
    /// Accepted connections no thread has taken yet.
    queue: VecDeque<Accepted>,
    /// Threads parked in the cache.
    idle: usize,
}

impl ConnThreads {
    /// Threads waiting in the cache for a connection (`Threads_cached`).
    pub fn cached(&self) -> usize {
        self.state.lock().idle
    }

    /// Hands `conn` to a cached thread, or starts one. Called on the accepting runtime, which
    /// serves the connection itself if no thread can be started.
    pub fn dispatch(self: &Arc<Self>, server: &Arc<Server>, conn: Accepted) {
        {
            let mut w = self.state.lock();
            w.queue.push_back(conn);
            if w.idle >= w.queue.len() {
                self.wake.notify_one();
                return;
            }
        }
        let me = self.clone();
        let srv = server.clone();
        let stack = server.globals.get_u64(vars::THREAD_STACK) as usize;
        let started = std::thread::Builder::new()
            .name("quire-conn".into())
            .stack_size(stack)
            .spawn(move || me.run(srv));
        match started {
            Ok(_) => {
                server
                    .status
                    .threads_created
                    .fetch_add(1, Ordering::Relaxed);
            }
            Err(e) => {
                eprintln!(
                    "quire: [Warning] cannot start a connection thread ({e}); \
                     serving the connection in the shared pool"
                );
                if let Some(conn) = self.state.lock().queue.pop_back() {
                    tokio::spawn(conn.serve(server.clone()));
                }
            }
        }
    }

    /// A connection thread: serve connections from the queue until the cache is full.
    fn run(self: Arc<Self>, server: Arc<Server>) {
        let rt = match tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
        {
            Ok(rt) => rt,
            Err(e) => {
                eprintln!("quire: [Warning] cannot start a connection runtime: {e}");
                // Its connection is closed rather than left waiting for nobody.
                drop(self.state.lock().queue.pop_front());
                return;
            }
        };
        let mut next = self.state.lock().queue.pop_front();
        while let Some(conn) = next.take() {
            rt.block_on(conn.serve(server.clone()));
            let cache_size = server.globals.get_u64(vars::THREAD_CACHE_SIZE) as usize;
            let mut w = self.state.lock();
            if w.queue.is_empty() && w.idle >= cache_size {
                return;
            }
            w.idle += 1;
            while w.queue.is_empty() {
                self.wake.wait(&mut w);
            }
            w.idle -= 1;
            next = w.queue.pop_front();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    /// The blocking write leaves the socket non-blocking for tokio afterwards, and delivers
    /// more than a socket buffer's worth (the reader drains concurrently).
    #[tokio::test(flavor = "current_thread")]
    async fn blocking_write_restores_non_blocking_mode() {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = l.local_addr().unwrap();
        let reader = std::thread::spawn(move || {
            let (mut s, _) = l.accept().unwrap();
            let mut got = Vec::new();
            s.read_to_end(&mut got).unwrap();
            got.len()
        });
        let s = tokio::net::TcpStream::connect(addr).await.unwrap();
        let (rd, mut wr) = s.into_split();
        let big = vec![7u8; 8 << 20];
        blocking(|| wr.write_all_blocking(&big, Duration::from_secs(30))).unwrap();
        // Still usable as a non-blocking tokio socket.
        let s = rd.reunite(wr).unwrap();
        assert!(matches!(
            s.try_read(&mut [0u8; 16]),
            Err(e) if e.kind() == io::ErrorKind::WouldBlock
        ));
        let mut s = s;
        tokio::io::AsyncWriteExt::write_all(&mut s, b"tail")
            .await
            .unwrap();
        drop(s);
        assert_eq!(reader.join().unwrap(), (8 << 20) + 4);
    }
}
