//! Accounts on disk: `quire_accounts` in the data directory holds every account, and is
//! replaced at every CREATE USER, ALTER USER, DROP USER and SET PASSWORD before the statement
//! is acknowledged (a temporary file, fsync, rename, fsync of the directory: a crash leaves
//! the old file or the new one). Start-up reads it; without it the server has its initial
//! account (`root@localhost`, no password).
//!
//! Accounts are not in the binary log: MySQL logs account statements with the password's
//! stored hash, and Quire keeps SHA-256 stage-2 hashes for caching_sha2_password that
//! MySQL's `IDENTIFIED WITH … AS` form cannot carry. `mysqlbinlog` replays and checkpoints
//! hold tables only.
//!
//! ## Format
//!
//! A first line `quire accounts 1`, then one line per account, fields separated by one space:
//! the user name and the host in hex (any bytes), the plugin name, the
//! mysql_native_password stage-2 hash in hex, the caching_sha2_password stage-2 hash in hex
//! (`-` for none).

use crate::server::Account;
use crate::wire::auth::{AuthPlugin, Credentials};
use std::path::Path;

pub const FILE: &str = "quire_accounts";
const HEADER: &str = "quire accounts 1";

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn unhex(s: &str) -> Option<Vec<u8>> {
    if !s.len().is_multiple_of(2) {
        return None;
    }
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(s.get(i..i + 2)?, 16).ok())
        .collect()
}

fn hash_field(h: Option<&[u8]>) -> String {
    h.map(hex).unwrap_or_else(|| "-".into())
}

fn parse_hash<const N: usize>(s: &str) -> Option<Option<[u8; N]>> {
    if s == "-" {
        return Some(None);
    }
    unhex(s)?.try_into().ok().map(Some)
}

/// Replace the accounts file with `accounts`, atomically and durably.
pub fn save(dir: &Path, accounts: &[Account]) -> std::io::Result<()> {
    let mut text = format!("{HEADER}\n");
    for a in accounts {
        let c = &a.credentials;
        text.push_str(&format!(
            "{} {} {} {} {}\n",
            hex(a.user.as_bytes()),
            hex(a.host.as_bytes()),
            a.plugin.name(),
            hash_field(c.native_stage2().map(|h| &h[..])),
            hash_field(c.sha2_stage2().map(|h| &h[..])),
        ));
    }
    super::writer::replace_file(dir, &format!("{FILE}.tmp"), FILE, text.as_bytes())
}

/// The accounts saved in `dir` (None: no file yet).
pub fn load(dir: &Path) -> Result<Option<Vec<Account>>, String> {
    let path = dir.join(FILE);
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("cannot read '{}': {e}", path.display())),
    };
    let mut lines = text.lines();
    if lines.next() != Some(HEADER) {
        return Err(format!("'{}' is not an accounts file", path.display()));
    }
    let mut out = Vec::new();
    for (n, line) in lines.enumerate() {
        let bad = || format!("'{}' line {}: malformed", path.display(), n + 2);
        let f: Vec<&str> = line.split(' ').collect();
        let [user, host, plugin, native, sha2] = f[..] else {
            return Err(bad());
        };
        let text = |h: &str| unhex(h).and_then(|b| String::from_utf8(b).ok());
        out.push(Account {
            user: text(user).ok_or_else(bad)?,
            host: text(host).ok_or_else(bad)?,
            plugin: AuthPlugin::from_name(plugin).ok_or_else(bad)?,
            credentials: Credentials::from_stages(
                parse_hash(native).ok_or_else(bad)?,
                parse_hash(sha2).ok_or_else(bad)?,
            ),
        });
    }
    Ok(Some(out))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::auth::credentials_from_password;

    #[test]
    fn accounts_round_trip_through_the_file() {
        let dir = std::env::temp_dir().join(format!("quire-accounts-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        assert!(load(&dir).unwrap().is_none());
        let accounts = vec![
            Account {
                user: "a b\n".into(),
                host: "%".into(),
                plugin: AuthPlugin::CachingSha2Password,
                credentials: credentials_from_password(b"secret"),
            },
            Account {
                user: "".into(),
                host: "localhost".into(),
                plugin: AuthPlugin::NativePassword,
                credentials: Credentials::none(),
            },
        ];
        save(&dir, &accounts).unwrap();
        let back = load(&dir).unwrap().unwrap();
        assert_eq!(back.len(), 2);
        for (a, b) in accounts.iter().zip(&back) {
            assert_eq!((&a.user, &a.host, a.plugin), (&b.user, &b.host, b.plugin));
            assert_eq!(a.credentials.native_stage2(), b.credentials.native_stage2());
            assert_eq!(a.credentials.sha2_stage2(), b.credentials.sha2_stage2());
        }
        std::fs::write(dir.join(FILE), "quire accounts 1\nzz 25 x - -\n").unwrap();
        assert!(load(&dir).unwrap_err().contains("line 2"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
