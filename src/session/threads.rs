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
//!
//! **Waiting for the next command.** On its own thread, a logged-in connection waits for the
//! client's next command in `recv(2)` itself ([`SocketReader`]), not in the runtime's
//! `epoll_wait(2)`: one system call per command instead of two, and no readiness event to
//! dispatch (measured at 64 threads on 2 cores, alternating pairs: 3.7 % more point selects
//! per CPU second, 1.5 % more durable oltp_write_only transactions; README, Options). What
//! the runtime did for that wait is done otherwise:
//! - KILL CONNECTION and the `wait_timeout` reaper shut the socket's reading side down,
//!   which ends the wait ([`crate::server::SessionShared::kill`]);
//! - after a commit whose OK the journal writer sends, the session waits in `poll(2)` on
//!   the socket and an eventfd the writer signals when the session must act
//!   (`journal::ack::AckState::wait_blocking`); only without an eventfd does it wait in the
//!   runtime, reading without blocking meanwhile;
//! - the socket is blocking from then on, so writes block the thread as well, which is all
//!   a connection's own thread would do while it awaited them.
//!
//! Logging in still awaits readiness in the runtime (for `connect_timeout`), as does every
//! read on the shared pool.

use crate::config::vars;
use crate::server::Server;
use crate::session::conn::serve;
use crate::wire::auth::PeerInfo;
use parking_lot::{Condvar, Mutex};
use std::collections::VecDeque;
use std::io::{self, Write};
use std::net::IpAddr;
use std::os::fd::{AsFd, AsRawFd, RawFd};
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, Interest};

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
                    serve(SocketReader::new(rd), wr, PeerInfo::Tcp(ip), server).await
                }
                Err(e) => eprintln!("quire: [Warning] cannot register a connection: {e}"),
            },
            Accepted::Unix(s) => match tokio::net::UnixStream::from_std(s) {
                Ok(s) => {
                    let (rd, wr) = s.into_split();
                    serve(SocketReader::new(rd), wr, PeerInfo::Unix, server).await
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

/// A blocking duplicate of a socket: the flag lives on the shared file description, so if
/// the socket is non-blocking it is switched off for the write and back on afterwards.
fn write_dup_blocking<S>(s: S, buf: &[u8], timeout: Duration) -> io::Result<()>
where
    S: BlockingSocket + std::os::fd::AsRawFd,
{
    let was_nonblocking = nonblocking(s.as_raw_fd())?;
    if was_nonblocking {
        s.set_nonblocking(false)?;
    }
    let r = s
        .set_write_timeout(Some(timeout))
        .and_then(|_| s.write_all_ref(buf));
    let _ = s.set_write_timeout(None);
    if was_nonblocking {
        s.set_nonblocking(true)?;
    }
    r
}

/// Whether `O_NONBLOCK` is set on the descriptor's file description.
fn nonblocking(fd: RawFd) -> io::Result<bool> {
    // SAFETY: F_GETFL only reads the flags of a descriptor the caller keeps open.
    let flags = unsafe { libc::fcntl(fd, libc::F_GETFL) };
    if flags < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(flags & libc::O_NONBLOCK != 0)
}

/// Clears `O_NONBLOCK` on the descriptor's file description.
fn set_blocking(fd: RawFd) -> io::Result<()> {
    // SAFETY: F_GETFL/F_SETFL on a descriptor the caller keeps open; only O_NONBLOCK changes.
    let flags = unsafe { libc::fcntl(fd, libc::F_GETFL) };
    if flags < 0 || unsafe { libc::fcntl(fd, libc::F_SETFL, flags & !libc::O_NONBLOCK) } < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// The read half of a client socket.
pub trait ConnReader: AsyncRead + Unpin + Send {
    /// Makes reads block the thread in `recv(2)` (`true`) or await readiness in the runtime
    /// (`false`); returns whether they block now. Only on a connection's own thread can they.
    fn set_blocking(&mut self, on: bool) -> bool;
}

/// The read half of a client socket, reading with `recv(2)` itself: blocking the thread
/// when [`ConnReader::set_blocking`] asked for it (the socket's `O_NONBLOCK` is cleared the
/// first time), else as tokio's own halves do (`MSG_DONTWAIT`, and on `EAGAIN` wait for
/// readiness in the runtime). See the module doc.
pub struct SocketReader<H> {
    half: H,
    fd: RawFd,
    /// On a connection's own thread (not the shared pool): may block.
    may_block: bool,
    blocking: bool,
}

impl<H: ReadHalf> SocketReader<H> {
    fn new(half: H) -> SocketReader<H> {
        SocketReader {
            fd: half.raw_fd(),
            half,
            may_block: !on_shared_pool(),
            blocking: false,
        }
    }
}

/// `recv(2)` into the unfilled part of `buf`.
fn recv_into(fd: RawFd, buf: &mut tokio::io::ReadBuf<'_>, flags: libc::c_int) -> io::Result<()> {
    // SAFETY: recv writes at most `dst.len()` bytes into the unfilled (possibly
    // uninitialized) part of the buffer; exactly the `n` bytes it wrote are then marked
    // initialized and filled.
    unsafe {
        let dst = buf.unfilled_mut();
        let n = libc::recv(fd, dst.as_mut_ptr().cast(), dst.len(), flags);
        if n < 0 {
            return Err(io::Error::last_os_error());
        }
        buf.assume_init(n as usize);
        buf.advance(n as usize);
    }
    Ok(())
}

impl<H: ReadHalf> AsyncRead for SocketReader<H> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut tokio::io::ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let me = self.get_mut();
        if me.blocking {
            loop {
                match recv_into(me.fd, buf, 0) {
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                    // Non-blocking again (not by us): wait for readiness below.
                    Err(e) if e.kind() == io::ErrorKind::WouldBlock => break,
                    r => return Poll::Ready(r),
                }
            }
        }
        loop {
            std::task::ready!(me.half.poll_read_ready(cx))?;
            // `try_io` clears the runtime's readiness when the read finds nothing.
            match me
                .half
                .try_read_io(|| recv_into(me.fd, buf, libc::MSG_DONTWAIT))
            {
                Err(e)
                    if matches!(
                        e.kind(),
                        io::ErrorKind::WouldBlock | io::ErrorKind::Interrupted
                    ) => {}
                r => return Poll::Ready(r),
            }
        }
    }
}

impl<H: ReadHalf> ConnReader for SocketReader<H> {
    fn set_blocking(&mut self, on: bool) -> bool {
        if on && !self.blocking && (!self.may_block || set_blocking(self.fd).is_err()) {
            return false;
        }
        self.blocking = on;
        on
    }
}

/// What [`SocketReader`] needs of tokio's read halves.
pub trait ReadHalf: Unpin + Send {
    fn raw_fd(&self) -> RawFd;
    fn poll_read_ready(&self, cx: &mut Context<'_>) -> Poll<io::Result<()>>;
    fn try_read_io(&self, f: impl FnOnce() -> io::Result<()>) -> io::Result<()>;
}

/// [`ReadHalf`] for a tokio read half that derefs (`AsRef`) to its stream.
macro_rules! read_half {
    ($half:ty, $stream:ty) => {
        impl ReadHalf for $half {
            fn raw_fd(&self) -> RawFd {
                AsRef::<$stream>::as_ref(self).as_raw_fd()
            }
            fn poll_read_ready(&self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
                AsRef::<$stream>::as_ref(self).poll_read_ready(cx)
            }
            fn try_read_io(&self, f: impl FnOnce() -> io::Result<()>) -> io::Result<()> {
                AsRef::<$stream>::as_ref(self).try_io(Interest::READABLE, f)
            }
        }
    };
}
read_half!(tokio::net::tcp::OwnedReadHalf, tokio::net::TcpStream);
read_half!(tokio::net::unix::OwnedReadHalf, tokio::net::UnixStream);

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

    /// Reads `n` bytes through `r`, in as many reads as it takes.
    async fn read_n(r: &mut SocketReader<tokio::net::tcp::OwnedReadHalf>, n: usize) -> Vec<u8> {
        let mut got = Vec::new();
        let mut buf = [0u8; 64];
        while got.len() < n {
            let k = tokio::io::AsyncReadExt::read(r, &mut buf).await.unwrap();
            assert!(k > 0, "EOF after {got:?}");
            got.extend_from_slice(&buf[..k]);
        }
        got
    }

    /// A TCP connection to a client that `client` plays on a thread of its own: our end's
    /// reader and write half, and the client's thread.
    async fn with_client<T: Send + 'static>(
        client: impl FnOnce(std::net::TcpStream) -> T + Send + 'static,
    ) -> (
        SocketReader<tokio::net::tcp::OwnedReadHalf>,
        tokio::net::tcp::OwnedWriteHalf,
        std::thread::JoinHandle<T>,
    ) {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = l.local_addr().unwrap();
        let client = std::thread::spawn(move || client(l.accept().unwrap().0));
        let s = tokio::net::TcpStream::connect(addr).await.unwrap();
        let (rd, wr) = s.into_split();
        (SocketReader::new(rd), wr, client)
    }

    /// On a connection's own thread the reader waits in recv(2) (data that arrives later is
    /// still read), a blocking write keeps the socket blocking, and switched back it awaits
    /// readiness in the runtime again.
    #[tokio::test(flavor = "current_thread")]
    async fn socket_reader_blocks_on_a_connection_thread() {
        let (mut r, mut wr, client) = with_client(|mut s| {
            s.write_all(b"one").unwrap();
            std::thread::sleep(Duration::from_millis(50));
            s.write_all(b"two").unwrap();
            let mut back = [0u8; 4];
            s.read_exact(&mut back).unwrap();
            std::thread::sleep(Duration::from_millis(50));
            s.write_all(b"three").unwrap();
            back
        })
        .await;
        assert!(r.set_blocking(true));
        assert!(!nonblocking(r.fd).unwrap());
        assert_eq!(read_n(&mut r, 6).await, b"onetwo");
        wr.write_all_blocking(b"back", Duration::from_secs(5))
            .unwrap();
        assert!(
            !nonblocking(r.fd).unwrap(),
            "the write kept the socket blocking"
        );
        assert!(!r.set_blocking(false));
        assert_eq!(read_n(&mut r, 5).await, b"three");
        assert_eq!(&client.join().unwrap(), b"back");
    }

    /// A worker of the shared pool must not block: its reader stays non-blocking.
    #[tokio::test(flavor = "multi_thread", worker_threads = 1)]
    async fn socket_reader_never_blocks_a_shared_pool_worker() {
        let (mut r, _wr, client) = with_client(|mut s| {
            std::thread::sleep(Duration::from_millis(50));
            s.write_all(b"late").unwrap();
            s
        })
        .await;
        assert!(!r.set_blocking(true));
        assert!(nonblocking(r.fd).unwrap());
        assert_eq!(read_n(&mut r, 4).await, b"late");
        drop(client.join().unwrap());
    }
}
