//! Push Crate Studio: the rules engine, level packs, analysis and tools for
//! the Push Crate maze game.
//!
//! Layers, each depending only on those before it:
//! [`rules`] ← [`level`] ← [`files`] ← [`diagnostics`] ← [`analysis`] ← [`ai`] ← [`sim`]
//! ← { [`cli`], [`editor`] }. ([`generate`] sits beside [`sim`].)

pub mod ai;
pub mod analysis;
pub mod cli;
pub mod diagnostics;
pub mod editor;
pub mod files;
pub mod generate;
pub mod level;
pub mod rules;
pub mod sim;
