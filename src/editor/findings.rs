//! The findings of the current level as the editor lists and draws them:
//! format problems and analysis findings, each once, a cut once.

use super::app::EditorApp;
use crate::analysis::{FindingCode, Severity, Witness};
use crate::rules::{Bitboard, Cell};

/// A finding as the inspector lists it: analysis findings and format
/// problems alike.
#[derive(Clone, Debug)]
pub struct ShownFinding {
    /// `A010`, `E015`…
    pub code: String,
    /// Its severity.
    pub severity: Severity,
    /// The message.
    pub message: String,
    /// Cells to highlight.
    pub cells: Bitboard,
    /// A path to draw.
    pub path: Vec<Cell>,
    /// The wall cells that cut a route: the cut itself, beside the region
    /// it shuts in.
    pub cut: Bitboard,
}

/// Findings of one code whose cut is the same walls are one finding: one
/// wall row that shuts player 1 in cuts both of its routes. The region
/// shown is the smaller one, the side shut in.
fn merge_same_cuts(findings: &mut Vec<ShownFinding>) {
    let mut i = 0;
    while i < findings.len() {
        let mut j = i + 1;
        while j < findings.len() {
            let (a, b) = (&findings[i], &findings[j]);
            if !a.cut.is_empty() && a.cut == b.cut && a.code == b.code {
                let b = findings.remove(j);
                let a = &mut findings[i];
                a.message = format!("{}; the same walls cut: {}", a.message, b.message);
                if b.cells.count() < a.cells.count() {
                    a.cells = b.cells;
                }
            } else {
                j += 1;
            }
        }
        i += 1;
    }
}

impl EditorApp {
    /// The findings of the current level: format problems, then analysis,
    /// each problem once. An analysis finding that says what a format
    /// problem says (A001 beside E024) adds its witness to it instead of a
    /// line of its own, and the routes one wall cuts are one finding.
    pub fn current_findings(&self) -> Vec<ShownFinding> {
        let Some(level) = self.doc().level().cloned() else { return Vec::new() };
        let index = self.doc().current();
        let walls = level.walls & level.board();
        // The walls of a cut: beside the region shut in and beside the floor
        // outside it, not every wall that touches the region.
        let outside = |region: Bitboard| level.floor() - region;
        let cut_of = |region: Bitboard| region.dilate() & walls & outside(region).dilate();
        let mut out: Vec<ShownFinding> = self
            .pack_problems()
            .iter()
            .filter(|p| p.field.level() == Some(index))
            .map(|p| ShownFinding {
                code: p.code.as_str().to_owned(),
                severity: p.severity(),
                message: p.message.clone(),
                cells: p.cells.iter().copied().collect(),
                path: Vec::new(),
                cut: Bitboard::EMPTY,
            })
            .collect();
        let Some(report) = self.analyses().report(&level) else { return out };
        for finding in &report.findings {
            // The format's own problems are listed above already.
            if finding.code == FindingCode::InvalidLevel && !out.is_empty() {
                continue;
            }
            let (mut cells, path, cut) = match &finding.witness {
                Some(Witness::Path { cells }) => (Bitboard::EMPTY, cells.clone(), Bitboard::EMPTY),
                Some(Witness::Cut { region }) => {
                    let region: Bitboard = region.iter().copied().collect();
                    (region, Vec::new(), cut_of(region))
                }
                _ => (Bitboard::EMPTY, Vec::new(), Bitboard::EMPTY),
            };
            cells |= finding.cells.iter().copied().collect::<Bitboard>();
            if let Some(same) = out.iter_mut().find(|f| f.message.eq_ignore_ascii_case(&finding.message)) {
                same.cells |= cells;
                same.cut |= cut;
                if same.path.is_empty() {
                    same.path = path;
                }
                continue;
            }
            out.push(ShownFinding {
                code: finding.code.as_str().to_owned(),
                severity: finding.severity,
                message: finding.message.clone(),
                cells,
                path,
                cut,
            });
        }
        merge_same_cuts(&mut out);
        out.sort_by_key(|f| f.severity);
        out
    }
}
