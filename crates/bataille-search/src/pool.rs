//! The workspace's one way to run work on several threads: a [`Pool`] of rayon workers.
//!
//! Every search of the workspace (the deal harness of this crate, the cycle census, the aligned
//! blocks, record hunting) splits its work into numbered *units* whose results depend only on
//! the unit, and runs them through a `Pool`: [`Pool::map_prefix`] runs a slice of units in
//! parallel and hands their results back in unit order, so the caller reduces them in a fixed
//! order and its result does not depend on the number of threads. A unit may give up when the
//! caller's stop request is set (returning `None`); the units after the first that gave up are
//! dropped with it, so the results handed back are always a whole prefix of the slice, which
//! the caller marks done and saves.
//!
//! ```
//! use bataille_search::pool::Pool;
//!
//! let pool = Pool::new(2).unwrap();
//! let squares = pool.map_prefix(&[1, 2, 3, 4], |u| Some(u * u));
//! assert_eq!(squares, vec![1, 4, 9, 16]);
//! // Unit 3 gives up: units 1 and 2 are kept, 3 and 4 are left to do.
//! let kept = pool.map_prefix(&[1, 2, 3, 4], |u| (u != 3).then_some(u));
//! assert_eq!(kept, vec![1, 2]);
//! ```

use std::sync::atomic::{AtomicUsize, Ordering};

use rayon::prelude::*;

/// Why a pool could not be built.
#[derive(Debug, thiserror::Error)]
#[error("cannot start {threads} worker threads: {message}")]
pub struct PoolError {
    /// Threads asked for.
    pub threads: usize,
    /// rayon's message.
    pub message: String,
}

/// Worker threads for the units of a search.
#[derive(Debug)]
pub struct Pool {
    pool: rayon::ThreadPool,
}

impl Pool {
    /// A pool of `threads` workers (0: one per core), with the default stack.
    pub fn new(threads: usize) -> Result<Pool, PoolError> {
        Pool::with_stack(threads, 0)
    }

    /// A pool whose workers have stacks of `stack_bytes` (0: rayon's default), for deep
    /// recursive searches.
    pub fn with_stack(threads: usize, stack_bytes: usize) -> Result<Pool, PoolError> {
        let mut builder = rayon::ThreadPoolBuilder::new().num_threads(threads);
        if stack_bytes > 0 {
            builder = builder.stack_size(stack_bytes);
        }
        let pool = builder.build().map_err(|e| PoolError { threads, message: e.to_string() })?;
        Ok(Pool { pool })
    }

    /// The number of workers.
    pub fn threads(&self) -> usize {
        self.pool.current_num_threads()
    }

    /// Runs `op` on the pool's workers (what it starts with rayon runs there).
    pub fn install<R: Send>(&self, op: impl FnOnce() -> R + Send) -> R {
        self.pool.install(op)
    }

    /// Runs `work` on every item of `items` in parallel, each item once (the items are
    /// independent pieces of work that keep their own state, such as the chains of a search).
    pub fn for_each_mut<T: Send>(&self, items: &mut [T], work: impl Fn(&mut T) + Sync) {
        self.pool.install(|| items.par_iter_mut().with_max_len(1).for_each(&work));
    }

    /// Runs `work` on every item of `items` in parallel, the workers taking the items in the
    /// order of the slice: each free worker starts the first item no worker has started. Put
    /// the longest items first and the last of them to end ends soon after the others (a list
    /// scheduler), where [`Pool::for_each_mut`] lets rayon split the slice in halves, each
    /// worker going through its own half. A panic in `work` is raised again here once every
    /// worker has ended, the others having gone on through the items left.
    pub fn for_each_in_order<T: Sync>(&self, items: &[T], work: impl Fn(&T) + Sync) {
        let next = AtomicUsize::new(0);
        self.pool.broadcast(|_| {
            while let Some(item) = items.get(next.fetch_add(1, Ordering::Relaxed)) {
                work(item);
            }
        });
    }

    /// Runs `work` on every unit of `units` in parallel and returns the results in the order of
    /// `units`, up to (not including) the first unit whose `work` returned `None`.
    pub fn map_prefix<T: Send>(
        &self,
        units: &[u64],
        work: impl Fn(u64) -> Option<T> + Sync,
    ) -> Vec<T> {
        let results: Vec<Option<T>> =
            self.pool.install(|| units.par_iter().with_max_len(1).map(|&u| work(u)).collect());
        results.into_iter().map_while(|r| r).collect()
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::Pool;

    #[test]
    fn in_order_runs_each_item_once() {
        let items: Vec<usize> = (0..100).collect();
        let runs: Vec<AtomicUsize> = (0..100).map(|_| AtomicUsize::new(0)).collect();
        Pool::new(3).unwrap().for_each_in_order(&items, |&i| {
            runs[i].fetch_add(1, Ordering::Relaxed);
        });
        assert!(runs.iter().all(|r| r.load(Ordering::Relaxed) == 1));
    }

    #[test]
    fn in_order_starts_the_items_in_their_order() {
        // One worker goes through the slice from its start.
        let started = Mutex::new(Vec::new());
        Pool::new(1).unwrap().for_each_in_order(&[5, 1, 4, 2], |&i| {
            started.lock().unwrap().push(i);
        });
        assert_eq!(started.into_inner().unwrap(), vec![5, 1, 4, 2]);
        // Two workers: while the first item holds one of them, the other takes every later
        // item in its turn (a split of the slice in halves would run 2 and 3 before 1).
        let later = Mutex::new(Vec::new());
        let wake = std::sync::Condvar::new();
        Pool::new(2).unwrap().for_each_in_order(&[0, 1, 2, 3], |&i| {
            if i == 0 {
                // (Bounded: the other worker could be stuck behind this one.)
                let seen = later.lock().unwrap();
                let wait = std::time::Duration::from_secs(10);
                let (seen, _) = wake.wait_timeout_while(seen, wait, |s| s.len() < 3).unwrap();
                assert_eq!(*seen, vec![1, 2, 3], "the other worker did not take 1, 2, 3");
            } else {
                later.lock().unwrap().push(i);
                wake.notify_all();
            }
        });
        assert_eq!(later.into_inner().unwrap(), vec![1, 2, 3]);
    }
}
