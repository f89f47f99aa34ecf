//! Splitting a run over a pack's levels into shards, one per machine: which
//! shard a level belongs to.
//!
//! A level's shard comes from a stable hash of its id alone, so that adding
//! a level to a pack does not move the others, and shards need no
//! coordination beyond `K/N`.

use std::fmt;
use std::str::FromStr;

/// The most shards a run may be split into.
pub const MAX_SHARDS: u32 = 10_000;

/// Shard `index` of `count` (`K/N` on the command line, 1 ≤ K ≤ N).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Shard {
    index: u32,
    count: u32,
}

impl Shard {
    /// Shard `index` of `count`, or `None` unless 1 ≤ index ≤ count ≤
    /// [`MAX_SHARDS`].
    #[must_use]
    pub const fn new(index: u32, count: u32) -> Option<Shard> {
        if index >= 1 && index <= count && count <= MAX_SHARDS { Some(Shard { index, count }) } else { None }
    }

    /// K, from 1.
    #[must_use]
    pub const fn index(self) -> u32 {
        self.index
    }

    /// N.
    #[must_use]
    pub const fn count(self) -> u32 {
        self.count
    }

    /// The shard, from 1 to `count`, that the level with this id belongs
    /// to.
    #[must_use]
    pub fn of(id: &str, count: u32) -> u32 {
        let count = u64::from(count.max(1));
        // The remainder is below `count`, which fits in a `u32`.
        u32::try_from(stable_hash(id.as_bytes()) % count).unwrap_or(0) + 1
    }

    /// Whether the level with this id is this shard's.
    #[must_use]
    pub fn owns(self, id: &str) -> bool {
        Shard::of(id, self.count) == self.index
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// Why `K/N` is not a shard.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a shard K/N with 1 ≤ K ≤ N ≤ {MAX_SHARDS}, such as 2/3")]
pub struct ParseShardError(String);

impl FromStr for Shard {
    type Err = ParseShardError;

    fn from_str(text: &str) -> Result<Shard, ParseShardError> {
        let error = || ParseShardError(text.to_owned());
        let (index, count) = text.trim().split_once('/').ok_or_else(error)?;
        let number = |s: &str| s.trim().parse::<u32>().map_err(|_| error());
        Shard::new(number(index)?, number(count)?).ok_or_else(error)
    }
}

/// A hash of `bytes` that every build and platform computes alike: 64-bit
/// FNV-1a, then SplitMix64's finaliser so that the low bits (which pick the
/// shard) depend on every byte. Not cryptographic; it spreads ids and tells
/// apart packs that differ.
#[must_use]
pub fn stable_hash(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for &byte in bytes {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash ^= hash >> 30;
    hash = hash.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    hash ^= hash >> 27;
    hash = hash.wrapping_mul(0x94d0_49bb_1331_11eb);
    hash ^ (hash >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_parse_and_refuse() {
        assert_eq!("2/3".parse::<Shard>(), Ok(Shard { index: 2, count: 3 }));
        assert_eq!("1/1".parse::<Shard>().map(|s| s.to_string()), Ok("1/1".to_owned()));
        for bad in ["0/3", "4/3", "3", "a/b", "1/0", "1/10001", "-1/2", ""] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }

    #[test]
    fn every_id_has_exactly_one_shard() {
        let ids: Vec<String> = (0..200).map(|i| format!("level-{i}")).collect();
        for count in [1, 2, 3, 7] {
            let mut sizes = vec![0; count as usize];
            for id in &ids {
                let owners: Vec<u32> =
                    (1..=count).filter(|&k| Shard::new(k, count).is_some_and(|s| s.owns(id))).collect();
                assert_eq!(owners.len(), 1, "{id} in {count} shards");
                sizes[owners[0] as usize - 1] += 1;
            }
            // Spread: no shard of 200 ids is empty or holds twice its share.
            assert!(sizes.iter().all(|&n| n > 0 && n < 2 * 200 / count as usize + 2), "{sizes:?}");
        }
    }

    #[test]
    fn the_hash_is_fixed_across_builds() {
        // Shards run on different machines must agree: these values are
        // part of the shard report's contract (docs/sharding.md).
        assert_eq!(stable_hash(b""), stable_hash(b""));
        assert_ne!(stable_hash(b"open"), stable_hash(b"opem"));
        assert_eq!(Shard::of("open", 1), 1);
        let fixed: Vec<u32> =
            ["open", "arena", "crates", "gates"].iter().map(|id| Shard::of(id, 3)).collect();
        assert_eq!(fixed, FIXED_SHARDS);
    }

    /// The shards of four ids among three, as this hash gives them.
    const FIXED_SHARDS: [u32; 4] = [2, 1, 1, 3];
}
