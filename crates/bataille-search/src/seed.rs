//! Seeds: the one mixing function from which every seeded random stream of the workspace is
//! derived (the work units of a search, the chains of a record search, the position hunts),
//! so that a stream depends only on the seed and the numbers that name it.

/// The SplitMix64 output function: a bijection of `u64` that spreads any set of inputs
/// uniformly. Streams are seeded with it from `(seed, unit)`, and it never changes: a change
/// would change every seeded result.
///
/// ```
/// use bataille_search::seed::splitmix64;
/// assert_eq!(splitmix64(0), 0xe220_a839_7b1d_cdaf);
/// ```
pub fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}
