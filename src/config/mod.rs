//! Configuration: the system variables and the start-up options that set them.
//!
//! MySQL's configuration surface is its system variables: `SHOW VARIABLES`, `SELECT @@x`,
//! `SET [GLOBAL] x = …`, and `--x=…` on the command line or in `my.cnf` are four views of the
//! same registry. Quire keeps exactly one registry, with MySQL 8.0's names, scopes, ranges,
//! defaults and error numbers, so clients and tools that read or set variables (drivers at
//! connect, mysqldump, mysqlbinlog output, Workbench) behave as they do against MySQL.
//!
//! Parts:
//! - [`sysvars`]: the registry API: lookup ([`sysvars::find`]), validation
//!   ([`sysvars::check`]), presentation ([`sysvars::display`], [`sysvars::select_value`]),
//!   scope rules, and storage ([`sysvars::GlobalVars`], [`sysvars::SessionVars`]).
//! - `sysvar_defs`: the table itself, one line per variable, and the [`vars`] constants.
//! - `sysvar_check`: validation per kind of variable, MySQL's `do_check` rules.
//! - [`sql_mode`]: the `sql_mode` bit set, its names, aliases and printing.
//! - [`options`]: the command line, turned (with the option files it names) into
//!   validated settings; `option_files` reads `my.cnf` syntax.
//!
//! Start-up: `options::parse(args)` → `GlobalVars::new()` → `ServerOptions::apply` → the
//! server resolves paths (datadir, socket, log files) and stores them back → each connection
//! takes `SessionVars::new(&globals)`.
//!
//! This layer never does I/O after start-up (option files are read once, by `parse`), never
//! panics on client input, and knows nothing about what a variable does: the layers that
//! read `vars::X` give it its meaning.

mod option_files;
pub mod options;
pub mod sql_mode;
mod sysvar_check;
mod sysvar_defs;
pub mod sysvars;

pub use sql_mode::SqlMode;
pub use sysvars::{GlobalVars, SessionVars, VarId, VarScope, vars};

/// A file name option as mysqld reads it: absolute, or with a directory part, as given;
/// a bare name is in the data directory.
pub fn in_datadir(datadir: &std::path::Path, name: &str) -> std::path::PathBuf {
    let p = std::path::PathBuf::from(name);
    if p.is_absolute() || name.contains('/') {
        p
    } else {
        datadir.join(p)
    }
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    #[test]
    fn relative_names_are_in_the_data_directory() {
        let d = Path::new("/data");
        assert_eq!(
            super::in_datadir(d, "slow.log"),
            PathBuf::from("/data/slow.log")
        );
        assert_eq!(
            super::in_datadir(d, "/var/log/x"),
            PathBuf::from("/var/log/x")
        );
        assert_eq!(super::in_datadir(d, "logs/x"), PathBuf::from("logs/x"));
    }
}
