//! [`Rings`]: the breadth-first search of the crate, over bitboards.
//! Distances, shortest paths and the analysis's lower bounds are read from
//! its rings; what varies is where it starts, which cells it may enter
//! (the `grow` step) and when the caller stops reading. Two searches are
//! kept apart on purpose: `path::reference_region`, a plain queue, the
//! oracle the fast code is tested against, and the evaluation's two loops
//! (`ai::eval`), which run at every leaf of every search and are measured
//! faster written out (docs/performance.md, "One distance search").

use super::bitboard::Bitboard;
use super::types::Cell;

/// The cells by their steps from a seed, as an iterator of the rings
/// around it: the first item is the cells one step away, each next one
/// the cells first reached one step later, until no new cell is reached
/// (the seed itself, at no step, is [`Rings::seed`]). `grow` gives the
/// cells a ring may step to (a ring's neighbours within the open cells, or
/// a narrow board's faster equivalent).
#[derive(Clone, Copy, Debug)]
pub struct Rings<G> {
    seed: Bitboard,
    /// The last ring given, or the seed before the first.
    ring: Bitboard,
    seen: Bitboard,
    grow: G,
}

impl<G: Fn(Bitboard) -> Bitboard> Rings<G> {
    /// The rings from `seed`, each next one `grow(ring)` less the cells
    /// already reached. `seed` is the first ring as it is: a caller that
    /// wants it within the open cells masks it.
    #[inline(always)]
    pub fn new(seed: Bitboard, grow: G) -> Rings<G> {
        Rings { seed, ring: seed, seen: seed, grow }
    }

    /// The seed: the cells at no step.
    #[inline(always)]
    pub fn seed(&self) -> Bitboard {
        self.seed
    }

    /// Every ring with its steps, the seed's (0) first.
    pub fn with_steps(self) -> impl Iterator<Item = (u32, Bitboard)> {
        let seed = self.seed;
        std::iter::once(seed).filter(|s| s.any()).chain(self).zip(0..).map(|(ring, d)| (d, ring))
    }

    /// Steps to the nearest cell of `to`, or `None` where there is no way.
    #[inline(always)]
    pub fn steps_to(self, to: Bitboard) -> Option<u32> {
        if (self.seed & to).any() {
            return Some(0);
        }
        self.into_iter().position(|ring| (ring & to).any()).map(|d| d as u32 + 1)
    }

    /// Steps to every cell reached, `None` elsewhere.
    #[must_use]
    pub fn distances(self) -> [Option<u16>; Cell::COUNT] {
        let mut out = [None; Cell::COUNT];
        for (d, ring) in self.with_steps() {
            for cell in ring {
                out[cell.index()] = Some(d as u16);
            }
        }
        out
    }

    /// One shortest path from the seed to a cell of `to`: the cells
    /// stepped onto, in order, the seed's not included (empty when the
    /// seed holds a cell of `to`). Where several are shortest, each step
    /// back takes the lowest cell.
    #[must_use]
    pub fn path_to(self, to: Bitboard) -> Option<Vec<Cell>> {
        let mut rings = Vec::new();
        for (_, ring) in self.with_steps() {
            rings.push(ring);
            if (ring & to).any() {
                break;
            }
        }
        let last = *rings.last()?;
        let mut cell = (last & to).first()?;
        if rings.len() == 1 {
            return Some(Vec::new());
        }
        let mut path = vec![cell];
        for ring in rings[1..rings.len() - 1].iter().rev() {
            cell = (Bitboard::from_cell(cell).dilate() & *ring).first()?;
            path.push(cell);
        }
        path.reverse();
        Some(path)
    }
}

impl<G: Fn(Bitboard) -> Bitboard> Iterator for Rings<G> {
    type Item = Bitboard;

    #[inline(always)]
    fn next(&mut self) -> Option<Bitboard> {
        // Each ring is grown only when it is asked for.
        self.ring = (self.grow)(self.ring) - self.seen;
        self.seen |= self.ring;
        (!self.ring.is_empty()).then_some(self.ring)
    }
}

impl Bitboard {
    /// The rings of cells by orthogonal steps from this set over `open`
    /// ([`Rings`]); the set itself is the first ring.
    #[inline(always)]
    pub fn rings(self, open: Bitboard) -> Rings<impl Fn(Bitboard) -> Bitboard> {
        Rings::new(self, move |ring: Bitboard| ring.dilate() & open)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(name: &str) -> Cell {
        name.parse().unwrap()
    }

    /// A board of 3 × 3 floor cells with a wall on b2 (within the grid's
    /// first three files and ranks).
    fn ring_board() -> Bitboard {
        let mut open: Bitboard =
            ["a1", "b1", "c1", "a2", "c2", "a3", "b3", "c3"].iter().map(|n| c(n)).collect();
        open.remove(c("b2"));
        open
    }

    #[test]
    fn rings_step_around_a_wall() {
        let open = ring_board();
        let rings: Vec<Bitboard> =
            Bitboard::from_cell(c("a1")).rings(open).with_steps().map(|(_, r)| r).collect();
        let names = |b: &Bitboard| b.iter().map(|c| c.to_string()).collect::<Vec<_>>();
        assert_eq!(
            rings.iter().map(names).collect::<Vec<_>>(),
            [vec!["a1"], vec!["b1", "a2"], vec!["c1", "a3"], vec!["c2", "b3"], vec!["c3"]]
        );
        let d = Bitboard::from_cell(c("a1")).rings(open).distances();
        assert_eq!((d[c("c3").index()], d[c("b2").index()]), (Some(4), None));
        assert_eq!(Bitboard::from_cell(c("a1")).rings(open).steps_to(Bitboard::from_cell(c("c2"))), Some(3));
        assert_eq!(Bitboard::from_cell(c("a1")).rings(open).steps_to(Bitboard::from_cell(c("e5"))), None);
    }

    #[test]
    fn a_path_steps_one_cell_at_a_time_to_the_target() {
        let open = ring_board();
        let path = Bitboard::from_cell(c("a1")).rings(open).path_to(Bitboard::from_cell(c("c3"))).unwrap();
        assert_eq!(path.len(), 4);
        assert_eq!(path.last(), Some(&c("c3")));
        let mut at = c("a1");
        for &next in &path {
            assert!(open.has(next) && Bitboard::from_cell(at).dilate().has(next), "{at} to {next}");
            at = next;
        }
        assert_eq!(
            Bitboard::from_cell(c("a1")).rings(open).path_to(Bitboard::from_cell(c("a1"))),
            Some(vec![])
        );
        assert_eq!(Bitboard::from_cell(c("a1")).rings(open).path_to(Bitboard::from_cell(c("e5"))), None);
    }

    /// The narrow board's step gives the same rings as the plain one.
    #[test]
    fn a_grow_step_is_a_parameter() {
        let open = ring_board();
        let plain: Vec<Bitboard> = Bitboard::from_cell(c("a1")).rings(open).collect();
        let narrow: Vec<Bitboard> =
            Rings::new(Bitboard::from_cell(c("a1")), |ring: Bitboard| ring.dilate_narrow(open)).collect();
        assert_eq!(plain, narrow);
    }
}
