//! Push Crate Studio: the command line and the level editor, and the
//! files they read and write, built on the engine of [`pushcrate_core`].
//!
//! Layers: the engine's modules are `pushcrate-core`'s, re-exported here
//! under the same names ([`rules`] ← [`level`] ← [`analysis`] ← [`ai`] ←
//! [`sim`] ← { [`generate`], [`repair`] } ← [`tune`]); beside them, the
//! files, [`level`] ← [`files`] ← [`diagnostics`]; and the two front ends,
//! [`cli`] and [`editor`], which use both. docs/ARCHITECTURE.md has the
//! table of what each module may import, which `tests/architecture.rs`
//! enforces; the crate boundary keeps the engine free of this package's
//! GUI, command-line and terminal crates.

pub use pushcrate_core::{ai, analysis, generate, level, repair, rules, sim, tune};

pub mod cli;
pub mod diagnostics;
pub mod editor;
pub mod files;
