//! Direct acknowledgement: the journal writer sends a commit's OK packet itself.
//!
//! A session that waits for the writer's reply to its commit sleeps, is woken by the writer,
//! sends its OK, and sleeps again until the client's next command: two wake-ups per
//! transaction. For a commit that ends its command — a `COMMIT`, or the transaction of an
//! autocommit INSERT/UPDATE/DELETE — the session instead hands the writer its transaction,
//! the statement's encoded OK packet and a duplicate of the socket's descriptor, and goes
//! straight back to reading the socket (the answers of earlier statements of a
//! multi-statement command are sent first, by the session):
//!
//! ```text
//! session: COMMIT → encode events, build the OK → submit_direct → wait for the socket
//! writer:  group written (and synced as the settings ask), published in log order
//!          → finalize (release the row locks) → send(OK, MSG_DONTWAIT) → outcome Sent
//! session: next command (or EOF) → outcome already Sent → go on
//! ```
//!
//! The session is woken by the writer only when it must act ([`AckState::needs_session`]):
//! the commit failed (the writer rolled the transaction back; the session sends the ERR in
//! place of the OK), or the socket did not take the whole OK at once (the session sends the
//! rest). Before it handles anything else — the next command, the end of the connection —
//! the session settles the outcome ([`AckState::settle`]), waiting for it if the client sent
//! something before its OK (a pipelining client). Nothing is acknowledged before it is as
//! durable as the settings promise: the OK leaves only from where the writer's reply would.
//!
//! The descriptor is a `dup()` made once per connection, so it stays valid (and names the
//! same socket) while the writer holds it, even if the session has closed its own.
//!
//! A session whose thread waits for commands in `recv(2)` (`session::threads`) waits for the
//! next command after such a commit in `poll(2)` on its socket and an eventfd of its own
//! ([`AckState::wait_blocking`]), which the writer signals when the session must act.

use crate::error::MyError;
use crate::storage::Storage;
use crate::storage::txn::Txn;
use parking_lot::Mutex;
use std::os::fd::{AsRawFd, OwnedFd, RawFd};
use std::sync::Arc;
use tokio::sync::Notify;

/// What became of a directly acknowledged commit.
#[derive(Debug)]
pub enum Outcome {
    /// The writer has not finished with it.
    Pending,
    /// Committed and the OK sent (or the client is gone: nothing more to send).
    Sent,
    /// Committed; these trailing bytes of the OK could not be sent without blocking.
    Partial(Vec<u8>),
    /// Not committed (rolled back); the session answers with this error.
    Failed(MyError),
}

/// Shared between the session and the writer for one commit.
pub struct AckState {
    state: Mutex<(Outcome, bool)>,
    notify: Notify,
    /// The session's eventfd, signalled when it must act (see [`AckState::wait_blocking`]).
    wake: Option<Arc<OwnedFd>>,
}

impl AckState {
    fn new(wake: Option<Arc<OwnedFd>>) -> Arc<AckState> {
        Arc::new(AckState {
            state: Mutex::new((Outcome::Pending, false)),
            notify: Notify::new(),
            wake,
        })
    }

    /// Set by the writer. The session is woken only if it waits for the outcome or must act.
    fn finish(&self, outcome: Outcome) {
        let (wake, must_act) = {
            let mut st = self.state.lock();
            let must_act = !matches!(outcome, Outcome::Sent);
            st.0 = outcome;
            (must_act || st.1, must_act)
        };
        if must_act && let Some(fd) = &self.wake {
            let one = 1_u64.to_ne_bytes();
            // SAFETY: an 8-byte write to an eventfd the Arc keeps open. It cannot fail but
            // by overflowing the counter, which a set counter wakes the session for anyway.
            unsafe { libc::write(fd.as_raw_fd(), one.as_ptr().cast(), one.len()) };
        }
        if wake {
            self.notify.notify_one();
        }
    }

    /// Blocks the thread until `socket` can be read (a command, EOF, a shut-down reading
    /// side) or the writer needs the session; then [`settle`](Self::settle) as usual.
    /// `false` (at once) if this commit was handed over without an eventfd, or poll(2)
    /// failed: then wait with [`needs_session`](Self::needs_session) in the runtime.
    pub fn wait_blocking(&self, socket: RawFd) -> bool {
        let Some(wake) = &self.wake else {
            return false;
        };
        let mut fds = [
            libc::pollfd {
                fd: socket,
                events: libc::POLLIN,
                revents: 0,
            },
            libc::pollfd {
                fd: wake.as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            },
        ];
        loop {
            // SAFETY: two pollfd entries on the stack, both descriptors open for the call.
            let n = unsafe { libc::poll(fds.as_mut_ptr(), 2, -1) };
            if n < 0 {
                if std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted {
                    continue;
                }
                return false;
            }
            if fds[1].revents != 0 {
                // Reset the counter (the eventfd is non-blocking) for the next commit.
                let mut v = [0_u8; 8];
                // SAFETY: an 8-byte read from the eventfd into a stack buffer.
                unsafe { libc::read(wake.as_raw_fd(), v.as_mut_ptr().cast(), v.len()) };
                if fds[0].revents == 0 && !self.needs_action() {
                    // Left over from an earlier commit the session settled otherwise.
                    fds[1].revents = 0;
                    continue;
                }
            }
            return true;
        }
    }

    fn needs_action(&self) -> bool {
        matches!(
            self.state.lock().0,
            Outcome::Partial(_) | Outcome::Failed(_)
        )
    }

    /// Returns once the session must act (failure or a partial send); never for `Sent`.
    pub async fn needs_session(&self) {
        while !self.needs_action() {
            self.notify.notified().await;
        }
    }

    /// The outcome, waiting for the writer if it has not finished.
    pub async fn settle(&self) -> Outcome {
        loop {
            {
                let mut st = self.state.lock();
                if !matches!(st.0, Outcome::Pending) {
                    st.1 = false;
                    return std::mem::replace(&mut st.0, Outcome::Sent);
                }
                st.1 = true;
            }
            self.notify.notified().await;
        }
    }
}

/// A commit the writer acknowledges itself: the transaction to finalize once published, the
/// OK to send, and where to send it.
pub struct DirectAck {
    txn: Option<Txn>,
    storage: Arc<Storage>,
    fd: Arc<OwnedFd>,
    ok: Vec<u8>,
    state: Arc<AckState>,
}

impl DirectAck {
    pub fn new(
        txn: Txn,
        storage: Arc<Storage>,
        fd: Arc<OwnedFd>,
        ok: Vec<u8>,
        wake: Option<Arc<OwnedFd>>,
    ) -> (DirectAck, Arc<AckState>) {
        let state = AckState::new(wake);
        let d = DirectAck {
            txn: Some(txn),
            storage,
            fd,
            ok,
            state: state.clone(),
        };
        (d, state)
    }

    /// The transaction, to publish.
    pub fn shared(&self) -> Option<&crate::storage::txn::TxnShared> {
        self.txn.as_ref().map(|t| &*t.shared)
    }

    /// Published: release the transaction's locks and send the OK.
    pub fn committed(mut self) {
        if let Some(txn) = self.txn.take() {
            self.storage.finalize(txn);
        }
        let outcome = match send_now(&self.fd, &self.ok) {
            Some(n) if n < self.ok.len() => Outcome::Partial(self.ok.split_off(n)),
            _ => Outcome::Sent,
        };
        self.state.finish(outcome);
    }

    /// Not committed: roll back; the session sends `err`.
    pub fn failed(mut self, err: MyError) {
        if let Some(txn) = self.txn.take() {
            self.storage.rollback(txn);
        }
        self.state.finish(Outcome::Failed(err));
    }
}

impl Drop for DirectAck {
    /// Dropped without an outcome (the writer stopped): rolled back, and the session told.
    fn drop(&mut self) {
        if let Some(txn) = self.txn.take() {
            self.storage.rollback(txn);
            self.state.finish(Outcome::Failed(MyError::internal(
                "the journal writer stopped",
            )));
        }
    }
}

/// Send without blocking: the number of bytes the socket took, or `None` if the client is
/// gone (its session finds out when it next reads).
fn send_now(fd: &OwnedFd, bytes: &[u8]) -> Option<usize> {
    let mut sent = 0;
    while sent < bytes.len() {
        let rest = &bytes[sent..];
        // SAFETY: `fd` is an open descriptor owned by the caller for the call's duration;
        // `rest` is a valid slice. MSG_NOSIGNAL: a closed peer is EPIPE, not SIGPIPE.
        let n = unsafe {
            libc::send(
                fd.as_raw_fd(),
                rest.as_ptr().cast(),
                rest.len(),
                libc::MSG_DONTWAIT | libc::MSG_NOSIGNAL,
            )
        };
        if n > 0 {
            sent += n as usize;
            continue;
        }
        if n == 0 {
            return Some(sent);
        }
        let e = std::io::Error::last_os_error();
        match e.kind() {
            std::io::ErrorKind::Interrupted => continue,
            std::io::ErrorKind::WouldBlock => return Some(sent),
            _ => return None,
        }
    }
    Some(sent)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::txn::Isolation;
    use std::io::Read;
    use std::os::unix::net::UnixStream;

    fn direct(storage: &Arc<Storage>, fd: Arc<OwnedFd>, ok: &[u8]) -> (DirectAck, Arc<AckState>) {
        let txn = storage.begin(Isolation::RepeatableRead, false, true);
        DirectAck::new(txn, storage.clone(), fd, ok.to_vec(), None)
    }

    fn pair() -> (Arc<OwnedFd>, UnixStream) {
        let (a, b) = UnixStream::pair().unwrap();
        (Arc::new(OwnedFd::from(a)), b)
    }

    fn settled(state: &AckState) -> Outcome {
        tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap()
            .block_on(state.settle())
    }

    #[test]
    fn committed_sends_the_ok_without_waking_the_session() {
        let storage = Arc::new(Storage::new());
        let (fd, mut peer) = pair();
        let (d, state) = direct(&storage, fd, b"\x07\0\0\x02\0\0\0\x02\0\0\0");
        assert!(matches!(state.state.lock().0, Outcome::Pending));
        d.committed();
        assert!(
            !state.needs_action(),
            "a sent OK needs nothing of the session"
        );
        assert!(matches!(settled(&state), Outcome::Sent));
        let mut got = [0; 11];
        peer.read_exact(&mut got).unwrap();
        assert_eq!(&got, b"\x07\0\0\x02\0\0\0\x02\0\0\0");
    }

    #[test]
    fn a_full_socket_leaves_the_rest_to_the_session() {
        let storage = Arc::new(Storage::new());
        let (fd, mut peer) = pair();
        // Fill the socket until it would block.
        let filler = vec![0_u8; 1 << 16];
        let mut queued = 0;
        loop {
            match send_now(&fd, &filler) {
                Some(0) => break,
                Some(n) => queued += n,
                None => panic!("the peer is open"),
            }
        }
        let ok: Vec<u8> = (0..100).collect();
        let (d, state) = direct(&storage, fd, &ok);
        d.committed();
        assert!(state.needs_action(), "the session must send the rest");
        let Outcome::Partial(rest) = settled(&state) else {
            panic!("expected a partial send");
        };
        // What the socket took plus the rest is the whole OK, in order.
        let took = ok.len() - rest.len();
        assert_eq!(rest, ok[took..]);
        let mut got = vec![0; queued + took];
        peer.read_exact(&mut got).unwrap();
        assert_eq!(got[queued..], ok[..took]);
    }

    #[test]
    fn a_vanished_client_is_not_an_error() {
        let storage = Arc::new(Storage::new());
        let (fd, peer) = pair();
        drop(peer);
        let (d, state) = direct(&storage, fd, b"\x01\0\0\x01\0");
        d.committed();
        assert!(matches!(settled(&state), Outcome::Sent));
    }

    #[test]
    fn failed_and_dropped_commits_roll_back_and_tell_the_session() {
        let storage = Arc::new(Storage::new());
        let (fd, mut peer) = pair();
        let (d, state) = direct(&storage, fd.clone(), b"ok");
        d.failed(MyError::internal("disk full"));
        assert!(state.needs_action());
        let Outcome::Failed(e) = settled(&state) else {
            panic!("expected the failure");
        };
        assert!(e.message.contains("disk full"), "{}", e.message);

        let (d, state) = direct(&storage, fd, b"ok");
        drop(d);
        let Outcome::Failed(e) = settled(&state) else {
            panic!("expected the failure");
        };
        assert!(e.message.contains("writer stopped"), "{}", e.message);
        // Nothing was sent (the session answers with the error); the socket is closed now
        // that no DirectAck holds it.
        let mut got = Vec::new();
        peer.read_to_end(&mut got).unwrap();
        assert!(got.is_empty(), "{got:?}");
    }

    /// A direct commit whose session waits blocked, woken through `wake`.
    fn direct_waking(
        storage: &Arc<Storage>,
        fd: &Arc<OwnedFd>,
        ok: &[u8],
        wake: &Arc<OwnedFd>,
    ) -> (DirectAck, Arc<AckState>) {
        let txn = storage.begin(Isolation::RepeatableRead, false, true);
        DirectAck::new(
            txn,
            storage.clone(),
            fd.clone(),
            ok.to_vec(),
            Some(wake.clone()),
        )
    }

    fn eventfd() -> Arc<OwnedFd> {
        use std::os::fd::FromRawFd;
        let fd = unsafe { libc::eventfd(0, libc::EFD_CLOEXEC | libc::EFD_NONBLOCK) };
        assert!(fd >= 0, "eventfd");
        Arc::new(unsafe { OwnedFd::from_raw_fd(fd) })
    }

    /// The eventfd's counter (0 if unset), resetting it.
    fn take_count(fd: &OwnedFd) -> u64 {
        let mut v = [0_u8; 8];
        let n = unsafe { libc::read(fd.as_raw_fd(), v.as_mut_ptr().cast(), 8) };
        if n == 8 { u64::from_ne_bytes(v) } else { 0 }
    }

    fn readable_now(fd: &OwnedFd) -> bool {
        let mut b = 0_u8;
        let n = unsafe {
            libc::recv(
                fd.as_raw_fd(),
                (&mut b as *mut u8).cast(),
                1,
                libc::MSG_PEEK | libc::MSG_DONTWAIT,
            )
        };
        n == 1
    }

    #[test]
    fn a_blocked_session_is_woken_by_a_failed_commit() {
        let storage = Arc::new(Storage::new());
        let (fd, _peer) = pair();
        let wake = eventfd();
        let (d, state) = direct_waking(&storage, &fd, b"ok", &wake);
        let writer = std::thread::spawn(move || d.failed(MyError::internal("disk gone")));
        // Nothing ever arrives on the socket: only the eventfd can end the wait.
        assert!(state.wait_blocking(fd.as_raw_fd()));
        writer.join().unwrap();
        assert!(!readable_now(&fd));
        assert_eq!(take_count(&wake), 0, "the wait reset the counter");
        assert!(matches!(settled(&state), Outcome::Failed(_)));
    }

    #[test]
    fn a_sent_ok_leaves_a_blocked_session_waiting_for_its_client() {
        let storage = Arc::new(Storage::new());
        let (fd, mut peer) = pair();
        let wake = eventfd();
        let (d, state) = direct_waking(&storage, &fd, b"\x01\0\0\x02\0", &wake);
        d.committed();
        assert_eq!(
            take_count(&wake),
            0,
            "a sent OK does not signal the session"
        );
        // A signal left over from an earlier commit does not end the wait either: the
        // client's next command does.
        let one = 1_u64.to_ne_bytes();
        assert_eq!(
            unsafe { libc::write(wake.as_raw_fd(), one.as_ptr().cast(), 8) },
            8
        );
        let client = std::thread::spawn(move || {
            let mut ok = [0_u8; 5];
            peer.read_exact(&mut ok).unwrap();
            std::thread::sleep(std::time::Duration::from_millis(50));
            std::io::Write::write_all(&mut peer, b"\x01\0\0\0\x0e").unwrap();
            peer
        });
        assert!(state.wait_blocking(fd.as_raw_fd()));
        assert!(
            readable_now(&fd),
            "the wait ended before the client's command"
        );
        assert_eq!(take_count(&wake), 0, "the leftover signal was reset");
        assert!(matches!(settled(&state), Outcome::Sent));
        drop(client.join().unwrap());
    }

    #[test]
    fn without_an_eventfd_the_session_waits_in_the_runtime() {
        let storage = Arc::new(Storage::new());
        let (fd, _peer) = pair();
        let (d, state) = direct(&storage, fd.clone(), b"ok");
        assert!(!state.wait_blocking(fd.as_raw_fd()), "returns at once");
        d.committed();
    }
}
