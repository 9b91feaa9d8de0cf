//! `innodb_flush_method=O_DIRECT`: the journal's groups are written past the page cache.
//!
//! Direct I/O needs the file offset, the length and the memory of every write aligned to the
//! device's logical block; [`BLOCK`] (4096) is a multiple of every common one. The journal
//! appends at any byte offset, so [`Direct`] keeps the log's last partial block in memory and
//! writes whole blocks: that block's head, the group's bytes, zeros up to the next block
//! boundary. Past the log's end the file holds the filler — zeros but for its header and
//! patch, part of the group's bytes (see `events`) — so the padding is what the file holds
//! there anyway.
//!
//! A block holding acknowledged bytes is rewritten by the next group, as the page cache
//! would write it back under the other methods: the failure model is the same (see
//! `recover`). A direct write is not durable by itself: a sync follows as with `fsync`.
//! The rare other writes to the file (its header, Rotate or Stop, the in-use flag) go
//! through the ordinary descriptor; the kernel keeps the two coherent.

use std::fs::{File, OpenOptions};
use std::io;
use std::os::unix::fs::{FileExt, OpenOptionsExt};
use std::path::Path;

/// The alignment of direct writes.
pub const BLOCK: u64 = 4096;

pub struct Direct {
    file: File,
    /// The log's bytes from the start of its last partial block to its end.
    tail: Vec<u8>,
    /// Memory for the blocks being written, over-allocated by one block to align them.
    buf: Vec<u8>,
}

impl Direct {
    /// Open `path`, whose log ends at `len`, for direct writes (the partial block at the end
    /// is read through `plain`, an ordinary descriptor of the same file).
    pub fn open(path: &Path, plain: &File, len: u64) -> io::Result<Direct> {
        let file = OpenOptions::new()
            .write(true)
            .custom_flags(libc::O_DIRECT)
            .open(path)?;
        let start = len - len % BLOCK;
        let mut tail = vec![0; (len - start) as usize];
        plain.read_exact_at(&mut tail, start)?;
        Ok(Direct {
            file,
            tail,
            buf: Vec::new(),
        })
    }

    /// Write `bytes` at `at`, the log's end so far: its first `log_len` bytes are log, the
    /// rest the filler's header and patch.
    pub fn write(&mut self, at: u64, bytes: &[u8], log_len: usize) -> io::Result<()> {
        let head = self.tail.len();
        let start = at - head as u64;
        let len = (head + bytes.len()).next_multiple_of(BLOCK as usize);
        let tail = std::mem::take(&mut self.tail);
        let b = blocks(&mut self.buf, len);
        b[..head].copy_from_slice(&tail);
        b[head..head + bytes.len()].copy_from_slice(bytes);
        b[head + bytes.len()..].fill(0);
        // The next write starts over with the log's new partial block.
        let log_end = at + log_len as u64;
        let from = (log_end - log_end % BLOCK - start) as usize;
        let next_tail = b[from..(log_end - start) as usize].to_vec();
        let r = self.file.write_all_at(b, start);
        if r.is_err() {
            self.tail = tail;
            return r;
        }
        self.tail = next_tail;
        Ok(())
    }
}

/// A new file written from start to end past the page cache (checkpoints): bytes are
/// gathered into an aligned buffer and written [`APPEND_CHUNK`] at a time, the last partial
/// block padded with zeros and cut off again by `finish`. A checkpoint is written once and
/// read once, at a recovery: copying it into the page cache first cost its writer thread
/// most of its CPU time, and the cache's memory.
pub struct Appender {
    file: File,
    buf: Vec<u8>,
    /// Bytes gathered in the aligned part of `buf`.
    fill: usize,
    /// File offset of the aligned part's start.
    at: u64,
}

/// Bytes per direct write of an [`Appender`].
pub const APPEND_CHUNK: usize = 1 << 20;

impl Appender {
    /// Create (or truncate) `path` for direct writes; fails where the file system has no
    /// direct I/O, for the caller to write it the ordinary way. Some file systems accept
    /// `O_DIRECT` at open and refuse the writes, so one block of zeros is written first
    /// (and cut off again).
    pub fn create(path: &Path) -> io::Result<Appender> {
        let file = OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .custom_flags(libc::O_DIRECT)
            .open(path)?;
        let mut a = Appender {
            file,
            buf: Vec::new(),
            fill: 0,
            at: 0,
        };
        let probe = blocks(&mut a.buf, APPEND_CHUNK);
        probe[..BLOCK as usize].fill(0);
        a.file.write_all_at(&probe[..BLOCK as usize], 0)?;
        a.file.set_len(0)?;
        Ok(a)
    }

    /// Write the gathered bytes, `len` of them rounded up to whole blocks.
    fn flush_blocks(&mut self) -> io::Result<()> {
        let len = self.fill.next_multiple_of(BLOCK as usize);
        let b = blocks(&mut self.buf, APPEND_CHUNK);
        b[self.fill..len].fill(0);
        self.file.write_all_at(&b[..len], self.at)
    }

    /// Write the rest and cut the padding off; the caller syncs the file.
    pub fn finish(mut self) -> io::Result<File> {
        if self.fill > 0 {
            self.flush_blocks()?;
            self.at += self.fill as u64;
            self.file.set_len(self.at)?;
        }
        Ok(self.file)
    }
}

impl io::Write for Appender {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        let b = blocks(&mut self.buf, APPEND_CHUNK);
        let n = bytes.len().min(APPEND_CHUNK - self.fill);
        b[self.fill..self.fill + n].copy_from_slice(&bytes[..n]);
        self.fill += n;
        if self.fill == APPEND_CHUNK {
            self.flush_blocks()?;
            self.at += APPEND_CHUNK as u64;
            self.fill = 0;
        }
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// `len` bytes of `buf` aligned to [`BLOCK`] (their contents are the caller's to set).
fn blocks(buf: &mut Vec<u8>, len: usize) -> &mut [u8] {
    let need = len + BLOCK as usize;
    if buf.len() < need {
        buf.resize(need, 0);
    }
    let skip = buf.as_ptr().align_offset(BLOCK as usize);
    &mut buf[skip..skip + len]
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn appender_writes_exactly_the_bytes_given() {
        let dir = std::env::temp_dir().join(format!("quire-appender-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("file");
        // Two whole chunks and a partial block, written in odd-sized pieces.
        let data: Vec<u8> = (0..2 * APPEND_CHUNK + 5000)
            .map(|i| (i * 7 % 251) as u8)
            .collect();
        match Appender::create(&path) {
            Ok(mut a) => {
                for piece in data.chunks(3001) {
                    a.write_all(piece).unwrap();
                }
                a.finish().unwrap().sync_all().unwrap();
            }
            // No direct I/O here: the caller writes through the cache; nothing to test.
            Err(_) => {
                let _ = std::fs::remove_dir_all(&dir);
                return;
            }
        }
        assert_eq!(std::fs::read(&path).unwrap(), data);
        // A file that ends on a chunk boundary, and an empty one.
        let mut a = Appender::create(&path).unwrap();
        a.write_all(&data[..APPEND_CHUNK]).unwrap();
        a.finish().unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), &data[..APPEND_CHUNK]);
        Appender::create(&path).unwrap().finish().unwrap();
        assert_eq!(std::fs::metadata(&path).unwrap().len(), 0);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
