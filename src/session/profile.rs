//! `SET profiling=1`, `SHOW PROFILES`, `SHOW PROFILE`: where a session's statements spent
//! their time, stage by stage, with MySQL's stage names.
//!
//! While `profiling` is on, a statement records a *mark* each time it enters a stage: the
//! stage, the clock (the statement record's clock, so the first mark is the statement's
//! start), the thread's resource usage (`getrusage(RUSAGE_THREAD)`: CPU user and system,
//! block I/O, context switches, page faults, swaps, IPC) and where in Quire's source the
//! stage began. A stage lasts until the next mark; the last mark, `cleaning up`, ends when
//! the statement's record is closed. So the stages add up to the statement's duration
//! exactly (`SHOW PROFILES`' `Duration` is their sum). With profiling off a mark is one
//! branch.
//!
//! The stages Quire goes through, in order (a statement shows those it entered):
//!
//! | stage | from |
//! |---|---|
//! | `starting` | the statement's first byte: lexing, normalising, the digest |
//! | `checking permissions` | the account's rights (every account may do everything yet) |
//! | `Opening tables` | the plan cache lookup |
//! | `optimizing` | planning, when the plan was not in the cache |
//! | `System lock` | a commit left by the statement before, the kill check |
//! | `executing` | running the plan: read view, row locks, the change, a result's first rows |
//! | `Sending data` | a result, streamed row by row to the client |
//! | `end` | the statement's work is done |
//! | `waiting for handler commit` | an autocommit write's commit: the journal and the group's fsync |
//! | `query end` | the reply is written |
//! | `freeing items` | the statement record handed to the digests and the logs |
//! | `cleaning up` | until the profile is closed |
//!
//! An autocommit write's commit normally ends after the reply is handed to the journal
//! writer, which sends it once the group is durable; a profiled session waits for the
//! journal itself instead, so that the commit wait is its own stage.
//!
//! `profiling_history_size` (default 15, at most 100) profiles are kept per session, oldest
//! dropped first. SHOW PROFILE and SHOW PROFILES are not kept themselves (as in MariaDB).
//! Under `thread_handling=pool-of-threads` a statement may move between worker threads at a
//! wait; its CPU figures are then those of the threads it was on at each mark (differences
//! below zero are shown as 0).

use std::collections::VecDeque;
use std::panic::Location;

/// A stage, named as MySQL names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    Starting,
    CheckingPermissions,
    OpeningTables,
    Optimizing,
    SystemLock,
    Executing,
    SendingData,
    End,
    WaitingForHandlerCommit,
    QueryEnd,
    FreeingItems,
    CleaningUp,
}

impl Stage {
    pub fn name(self) -> &'static str {
        match self {
            Stage::Starting => "starting",
            Stage::CheckingPermissions => "checking permissions",
            Stage::OpeningTables => "Opening tables",
            Stage::Optimizing => "optimizing",
            Stage::SystemLock => "System lock",
            Stage::Executing => "executing",
            Stage::SendingData => "Sending data",
            Stage::End => "end",
            Stage::WaitingForHandlerCommit => "waiting for handler commit",
            Stage::QueryEnd => "query end",
            Stage::FreeingItems => "freeing items",
            Stage::CleaningUp => "cleaning up",
        }
    }
}

/// The thread's resource usage at a mark.
#[derive(Clone, Copy, Debug, Default)]
pub struct Usage {
    pub user_us: i64,
    pub system_us: i64,
    pub voluntary: i64,
    pub involuntary: i64,
    pub block_in: i64,
    pub block_out: i64,
    pub msg_sent: i64,
    pub msg_received: i64,
    pub faults_major: i64,
    pub faults_minor: i64,
    pub swaps: i64,
}

impl Usage {
    pub fn now() -> Usage {
        // SAFETY: getrusage fills the struct it is given; RUSAGE_THREAD is valid on Linux.
        let mut r: libc::rusage = unsafe { std::mem::zeroed() };
        if unsafe { libc::getrusage(libc::RUSAGE_THREAD, &mut r) } != 0 {
            return Usage::default();
        }
        let us = |t: libc::timeval| t.tv_sec * 1_000_000 + t.tv_usec;
        Usage {
            user_us: us(r.ru_utime),
            system_us: us(r.ru_stime),
            voluntary: r.ru_nvcsw,
            involuntary: r.ru_nivcsw,
            block_in: r.ru_inblock,
            block_out: r.ru_oublock,
            msg_sent: r.ru_msgsnd,
            msg_received: r.ru_msgrcv,
            faults_major: r.ru_majflt,
            faults_minor: r.ru_minflt,
            swaps: r.ru_nswap,
        }
    }
}

#[derive(Clone, Debug)]
pub struct Mark {
    pub stage: Stage,
    /// Unix nanoseconds.
    pub at_ns: i64,
    pub usage: Usage,
    pub source: &'static Location<'static>,
}

/// One statement's profile.
#[derive(Clone, Debug)]
pub struct Profile {
    pub id: u64,
    pub query: String,
    pub marks: Vec<Mark>,
    /// When the last stage ended.
    pub end_ns: i64,
    pub end_usage: Usage,
}

impl Profile {
    /// The statement's duration in nanoseconds (the stages' sum).
    pub fn duration_ns(&self) -> i64 {
        self.marks
            .first()
            .map_or(0, |m| (self.end_ns - m.at_ns).max(0))
    }

    /// Each stage with its duration and the usage it took.
    pub fn stages(&self) -> impl Iterator<Item = (&Mark, i64, Usage)> {
        self.marks.iter().enumerate().map(|(i, m)| {
            let (end, end_usage) = match self.marks.get(i + 1) {
                Some(n) => (n.at_ns, n.usage),
                None => (self.end_ns, self.end_usage),
            };
            let d = |a: i64, b: i64| (a - b).max(0);
            let u = &m.usage;
            let took = Usage {
                user_us: d(end_usage.user_us, u.user_us),
                system_us: d(end_usage.system_us, u.system_us),
                voluntary: d(end_usage.voluntary, u.voluntary),
                involuntary: d(end_usage.involuntary, u.involuntary),
                block_in: d(end_usage.block_in, u.block_in),
                block_out: d(end_usage.block_out, u.block_out),
                msg_sent: d(end_usage.msg_sent, u.msg_sent),
                msg_received: d(end_usage.msg_received, u.msg_received),
                faults_major: d(end_usage.faults_major, u.faults_major),
                faults_minor: d(end_usage.faults_minor, u.faults_minor),
                swaps: d(end_usage.swaps, u.swaps),
            };
            (m, (end - m.at_ns).max(0), took)
        })
    }
}

impl Profile {
    /// [`Profile::stages`] with each duration in µs as the difference of the stage's ends in
    /// µs since the start, so that the durations shown add up to the statement's (truncating
    /// each one would lose up to 1 µs a stage).
    pub fn stage_micros(&self) -> impl Iterator<Item = (&Mark, i64, Usage)> {
        let first = self.marks.first().map_or(0, |m| m.at_ns);
        let rel_us = move |ns: i64| (ns - first).max(0) / 1000;
        self.stages()
            .map(move |(m, ns, used)| (m, rel_us(m.at_ns + ns) - rel_us(m.at_ns), used))
    }
}

/// A session's profiling state.
#[derive(Default)]
pub struct Profiler {
    /// The statement being profiled (None: profiling off, or not profiled).
    pub current: Option<Profile>,
    pub history: VecDeque<Profile>,
    next_id: u64,
}

impl Profiler {
    /// Starts a profile for a statement that began at `start_ns`.
    #[track_caller]
    pub fn begin(&mut self, start_ns: i64) {
        self.next_id += 1;
        self.current = Some(Profile {
            id: self.next_id,
            query: String::new(),
            marks: vec![Mark {
                stage: Stage::Starting,
                at_ns: start_ns,
                usage: Usage::now(),
                source: Location::caller(),
            }],
            end_ns: start_ns,
            end_usage: Usage::default(),
        });
    }

    /// The statement enters `stage` now (nothing if it is not profiled, or is there
    /// already).
    #[track_caller]
    pub fn mark(&mut self, stage: Stage) {
        if let Some(p) = &mut self.current
            && p.marks.last().is_none_or(|m| m.stage != stage)
        {
            p.marks.push(Mark {
                stage,
                at_ns: crate::observe::now_ns(),
                usage: Usage::now(),
                source: Location::caller(),
            });
        }
    }

    /// The statement ended at `end_ns`: keep its profile (at most `keep`), unless it is
    /// one not to keep (SHOW PROFILE[S]).
    pub fn end(&mut self, end_ns: i64, query: &[u8], kept: bool, keep: usize) {
        let Some(mut p) = self.current.take() else {
            return;
        };
        if !kept || keep == 0 {
            // Its number is given back: MySQL numbers only the statements it keeps.
            self.next_id -= 1;
            return;
        }
        p.end_ns = end_ns.max(p.marks.last().map_or(end_ns, |m| m.at_ns));
        p.end_usage = Usage::now();
        p.query = String::from_utf8_lossy(query).into_owned();
        self.history.push_back(p);
        while self.history.len() > keep {
            self.history.pop_front();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stages_add_up_to_the_statement_and_history_is_bounded() {
        let mut p = Profiler::default();
        for n in 0..5 {
            let start = crate::observe::now_ns();
            p.begin(start);
            p.mark(Stage::OpeningTables);
            p.mark(Stage::OpeningTables);
            p.mark(Stage::Executing);
            std::thread::sleep(std::time::Duration::from_millis(2));
            p.mark(Stage::End);
            let end = crate::observe::now_ns();
            p.end(end, format!("SELECT {n}").as_bytes(), n != 3, 3);
        }
        // Statement 3 was not kept and gave its number back; 5 made, 4 kept, 3 remain.
        let ids: Vec<u64> = p.history.iter().map(|x| x.id).collect();
        assert_eq!(ids, vec![2, 3, 4]);
        let last = p.history.back().unwrap();
        assert_eq!(last.query, "SELECT 4");
        let names: Vec<&str> = last.stages().map(|(m, _, _)| m.stage.name()).collect();
        assert_eq!(names, ["starting", "Opening tables", "executing", "end"]);
        let sum: i64 = last.stages().map(|(_, d, _)| d).sum();
        assert_eq!(sum, last.duration_ns());
        let executing = last.stages().nth(2).unwrap().1;
        assert!(
            executing >= 2_000_000,
            "the sleep is in executing: {executing}"
        );
    }
}
