//! Push Crate Studio: the rules engine, level packs, analysis and tools for
//! the Push Crate maze game.
//!
//! Layers: the engine and its analysis, [`rules`] ← [`level`] ← [`analysis`]
//! ← [`ai`] ← [`sim`] ← { [`generate`], [`repair`] }; the files beside them,
//! [`level`] ← [`files`] ← [`diagnostics`]; and the two front ends, [`cli`]
//! and [`editor`], which use both. docs/ARCHITECTURE.md has the table of
//! what each module may import, which `tests/architecture.rs` enforces.

pub mod ai;
pub mod analysis;
pub mod cli;
pub mod diagnostics;
pub mod editor;
pub mod files;
pub mod generate;
pub mod level;
pub mod repair;
pub mod rules;
pub mod sim;
pub mod tune;
