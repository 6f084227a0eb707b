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
