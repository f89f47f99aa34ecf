//! The editor's storage: dialogs behind a trait, saving with a backup, exports, saved
//! preferences and the crash-recovery file.

use std::path::{Path, PathBuf};

use anyhow::Context;
use serde::{Deserialize, Serialize};

use crate::level::Pack;
use crate::level::format::write_pack;
use crate::level::preserve::update_pack_text;
use crate::rules::Symmetry;

/// File dialogs. The editor asks through this trait so that tests can
/// answer without a desktop.
pub trait FileDialogs {
    /// Whether dialogs can be shown at all. When they cannot, the editor
    /// asks for the path in a field of its own.
    fn available(&self) -> bool {
        true
    }
    /// Why dialogs cannot be shown, for the field that asks for the path
    /// instead.
    fn unavailable_because(&self) -> &'static str {
        "this desktop offers no file dialog"
    }
    /// A pack file to open, or `None` when cancelled.
    fn open(&mut self) -> Option<PathBuf>;
    /// Where to save, suggesting `name`, or `None` when cancelled.
    fn save(&mut self, name: &str, extension: &str) -> Option<PathBuf>;
}

/// The desktop's own dialogs (rfd).
pub struct NativeDialogs;

impl FileDialogs for NativeDialogs {
    /// On Linux the dialogs go through the desktop portal on the session
    /// bus; without a session bus (a bare X server, some window managers)
    /// they would return at once as if cancelled.
    fn available(&self) -> bool {
        !cfg!(target_os = "linux")
            || std::env::var_os("DBUS_SESSION_BUS_ADDRESS").is_some_and(|v| !v.is_empty())
    }

    fn unavailable_because(&self) -> &'static str {
        "the desktop's file dialogs come through its portal on the session bus, and DBUS_SESSION_BUS_ADDRESS names none"
    }

    fn open(&mut self) -> Option<PathBuf> {
        rfd::FileDialog::new()
            .add_filter("Push Crate pack", &["toml"])
            .add_filter("Any file", &["*"])
            .pick_file()
    }

    fn save(&mut self, name: &str, extension: &str) -> Option<PathBuf> {
        rfd::FileDialog::new()
            .add_filter(extension.to_uppercase(), &[extension])
            .set_file_name(name)
            .save_file()
    }
}

/// Preferences kept between runs. Missing fields take their defaults, so
/// an old or damaged file never stops the editor.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
#[serde(default)]
pub struct Prefs {
    /// Recently opened or saved packs, newest first.
    pub recent: Vec<PathBuf>,
    /// The mirror painting mode: a symmetry, or none. Stored by the names
    /// of earlier versions (`Off`, `HalfTurn`, `LeftRight`, `TopBottom`).
    #[serde(with = "mirror_name")]
    pub mirror: Option<Symmetry>,
    /// Whether the sole-path overlay is on.
    pub show_sole_path: bool,
    /// Whether the routes overlay is on.
    pub show_routes: bool,
    /// Whether the distance heat map is on.
    pub show_distances: bool,
}

impl Default for Prefs {
    fn default() -> Prefs {
        Prefs {
            recent: Vec::new(),
            mirror: None,
            show_sole_path: true,
            show_routes: false,
            show_distances: false,
        }
    }
}

/// The mirror painting mode as the preferences file names it.
mod mirror_name {
    use serde::{Deserialize, Deserializer, Serializer};

    use crate::rules::Symmetry;

    pub fn serialize<S: Serializer>(mirror: &Option<Symmetry>, out: S) -> Result<S::Ok, S::Error> {
        out.serialize_str(match mirror {
            None => "Off",
            Some(Symmetry::HalfTurn) => "HalfTurn",
            Some(Symmetry::MirrorFiles) => "LeftRight",
            Some(Symmetry::MirrorRanks) => "TopBottom",
        })
    }

    /// An unknown name is no mirror: a damaged file never stops the editor.
    pub fn deserialize<'de, D: Deserializer<'de>>(input: D) -> Result<Option<Symmetry>, D::Error> {
        Ok(match String::deserialize(input)?.as_str() {
            "HalfTurn" => Some(Symmetry::HalfTurn),
            "LeftRight" => Some(Symmetry::MirrorFiles),
            "TopBottom" => Some(Symmetry::MirrorRanks),
            _ => None,
        })
    }
}

/// Recent files kept.
const RECENT_LIMIT: usize = 10;

impl Prefs {
    /// Puts `path` first among the recent files.
    pub fn remember(&mut self, path: &Path) {
        self.recent.retain(|p| p != path);
        self.recent.insert(0, path.to_path_buf());
        self.recent.truncate(RECENT_LIMIT);
    }
}

/// Where the editor keeps its own files.
#[derive(Clone, Debug)]
pub struct AppPaths {
    /// The folder for preferences and the recovery file.
    pub dir: PathBuf,
}

impl AppPaths {
    /// `$PUSHCRATE_CONFIG_DIR`, else `$XDG_CONFIG_HOME/pushcrate`, else
    /// `~/.config/pushcrate`, else a folder in the temporary directory.
    #[must_use]
    pub fn from_env() -> AppPaths {
        let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty()).map(PathBuf::from);
        let dir = var("PUSHCRATE_CONFIG_DIR")
            .or_else(|| var("XDG_CONFIG_HOME").map(|d| d.join("pushcrate")))
            .or_else(|| var("HOME").map(|d| d.join(".config").join("pushcrate")))
            .unwrap_or_else(|| std::env::temp_dir().join("pushcrate"));
        AppPaths { dir }
    }

    fn prefs(&self) -> PathBuf {
        self.dir.join("prefs.json")
    }

    fn recovery(&self) -> PathBuf {
        self.dir.join("recovery.json")
    }

    /// The saved preferences, or the defaults.
    #[must_use]
    pub fn load_prefs(&self) -> Prefs {
        std::fs::read_to_string(self.prefs())
            .ok()
            .and_then(|t| serde_json::from_str(&t).ok())
            .unwrap_or_default()
    }

    /// Saves the preferences.
    pub fn save_prefs(&self, prefs: &Prefs) -> anyhow::Result<()> {
        std::fs::create_dir_all(&self.dir)?;
        write_atomic(&self.prefs(), &serde_json::to_string_pretty(prefs)?)
    }

    /// Writes unsaved work to the recovery file.
    pub fn write_recovery(&self, recovery: &Recovery) -> anyhow::Result<()> {
        std::fs::create_dir_all(&self.dir)?;
        write_atomic(&self.recovery(), &serde_json::to_string(recovery)?)
    }

    /// Unsaved work left by a run that did not end cleanly.
    #[must_use]
    pub fn read_recovery(&self) -> Option<Recovery> {
        std::fs::read_to_string(self.recovery()).ok().and_then(|t| serde_json::from_str(&t).ok())
    }

    /// Removes the recovery file (after a save, or a clean exit).
    pub fn clear_recovery(&self) {
        // Gone already is what is wanted; a file that cannot be removed is
        // offered again at the next start, which loses nothing.
        std::fs::remove_file(self.recovery()).ok();
    }
}

/// Unsaved work, as autosaved.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Recovery {
    /// The file the work belongs to, if it had one.
    pub path: Option<PathBuf>,
    /// The pack as TOML.
    pub text: String,
    /// When it was written, seconds since the Unix epoch.
    pub saved_at: u64,
}

/// Writes `text` to `path` atomically, as [`crate::files`] writes every
/// file: a failed write leaves the old file as it was.
pub fn write_atomic(path: &Path, text: &str) -> anyhow::Result<()> {
    Ok(crate::files::write_file(path, text.as_bytes())?)
}

/// The backup kept beside a saved file: `name.toml.bak`.
#[must_use]
pub fn backup_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".bak");
    PathBuf::from(name)
}

/// Saves `pack` to `path` by the output rules of [`crate::files`]: the old
/// file (if any) is kept as a backup beside it, the new text is written atomically and keeps the comments and order
/// of `source`. Returns the text written.
pub fn save_pack(path: &Path, pack: &Pack, source: Option<&str>) -> anyhow::Result<String> {
    let text = match source {
        Some(original) => update_pack_text(original, pack),
        None => write_pack(pack),
    };
    // Opened first, so that a file that cannot be written is refused before
    // a backup of it is made.
    let output = crate::files::Output::create(path)?;
    if path.is_file() {
        std::fs::copy(path, backup_path(path))
            .with_context(|| format!("cannot keep a backup of {}", path.display()))?;
    }
    output.commit(text.as_bytes())?;
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The mirror mode is stored by the names earlier versions wrote, and
    /// a name no version wrote is no mirror rather than a lost file.
    #[test]
    fn the_mirror_mode_keeps_its_stored_names() {
        for (name, mirror) in [
            ("Off", None),
            ("HalfTurn", Some(Symmetry::HalfTurn)),
            ("LeftRight", Some(Symmetry::MirrorFiles)),
            ("TopBottom", Some(Symmetry::MirrorRanks)),
        ] {
            let prefs = Prefs { mirror, ..Prefs::default() };
            let text = serde_json::to_string(&prefs).unwrap();
            assert!(text.contains(&format!("\"mirror\":\"{name}\"")), "{text}");
            assert_eq!(serde_json::from_str::<Prefs>(&text).unwrap(), prefs);
        }
        let odd: Prefs = serde_json::from_str(r#"{"recent": ["a.toml"], "mirror": "Diagonal"}"#).unwrap();
        assert_eq!((odd.mirror, odd.recent.len()), (None, 1));
    }
}
