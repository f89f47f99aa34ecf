//! Reading and writing pack and report files: the one place that does it,
//! for the command line and the editor alike.
//!
//! - Reading caps the bytes read, not the size a file reports, so that a
//!   device or a pipe (`/dev/zero`) cannot exhaust memory; text that is not
//!   UTF-8 is a problem (E001) at its byte offset, not a crash.
//! - Writing a regular file is atomic (a temporary file renamed over the
//!   old one), keeps the old file's permissions and never widens them. A
//!   symbolic link is written through to its target, and a device, FIFO or
//!   socket (`/dev/null`) is written straight into: neither is ever
//!   replaced by a regular file. A path naming one of the process's open
//!   descriptors (`/dev/stdout`, `/dev/stderr`, `/dev/fd/N`,
//!   `/proc/self/fd/N`) is written into that descriptor, whatever file it
//!   resolves to. A read-only file, a file the user may not write (checked
//!   by opening it, not by its mode bits) and a directory are refused.
//! - The temporary file has no name while it is written (Linux's
//!   `O_TMPFILE`), so that a process killed mid-work leaves nothing beside
//!   the output. Where the file system cannot do that, it is named
//!   `.NAME.XXXXXX`; such a temporary of the same output left by a killed
//!   process, untouched for [`STALE_TEMPORARY`], is removed by the next
//!   write of that output. A name so long (over 247 bytes) that
//!   `.NAME.XXXXXX` would pass the file system's 255 bytes is written
//!   through a temporary named after as much of NAME as fits.
//!
//! *Architecture Invariant*: only [`crate::cli`] and [`crate::editor`] use
//! this module; the layers below them do no I/O.

use std::fs::{self, File};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use thiserror::Error;

use crate::level::format::{Parsed, parse_pack};
use crate::level::parse_pack_json;
use crate::level::{Code, DEFAULT_PACK_TOML, FLAWED_PACK_TOML, Field, MAX_FILE_BYTES, Problem};

/// The name that stands for the pack built into the binary.
pub const BUNDLED: &str = "@default";
/// The name that stands for the pack of flawed levels built into the binary.
pub const BUNDLED_FLAWED: &str = "@flawed";

/// The text and shown name of a bundled pack's name (`@default`,
/// `@flawed`), or `None` for a path.
#[must_use]
pub fn bundled_text(path: &Path) -> Option<(&'static str, &'static str)> {
    match path.to_str()? {
        BUNDLED => Some((DEFAULT_PACK_TOML, "mazes/default.toml (bundled)")),
        BUNDLED_FLAWED => Some((FLAWED_PACK_TOML, "mazes/flawed.toml (bundled)")),
        _ => None,
    }
}

/// Symbolic links followed before a chain counts as a loop (as Linux does).
const MAX_LINKS: usize = 40;

/// How long a named temporary of an output stays untouched before the next
/// write of that output takes it for one a killed process left.
pub const STALE_TEMPORARY: std::time::Duration = std::time::Duration::from_secs(10 * 60);

/// Why a file could not be read or written. Problems *in* a pack's text are
/// not errors here: they are [`Problem`]s of the [`PackFile`].
#[derive(Debug, Error)]
pub enum FileError {
    /// The file could not be opened or read.
    #[error("cannot read {path}: {cause}")]
    Read {
        /// The file, as named.
        path: String,
        /// What the system said.
        #[source]
        cause: io::Error,
    },
    /// The file could not be written.
    #[error("cannot write {path}: {cause}")]
    Write {
        /// The file, as named.
        path: String,
        /// What the system said.
        #[source]
        cause: io::Error,
    },
    /// The output exists but the user may not write it (as a shell's `>`
    /// would refuse); it is not replaced.
    #[error("cannot write {path}: permission denied (the file is not yours to write)")]
    NotPermitted {
        /// The file, as named.
        path: String,
    },
    /// The folder the output goes in does not let the user create files,
    /// which an atomic replacement needs.
    #[error("cannot write {path}: the folder {folder} is not writable (a new file cannot be made there)")]
    FolderNotWritable {
        /// The file, as named.
        path: String,
        /// Its folder.
        folder: String,
    },
    /// A directory was named where a file was meant.
    #[error("cannot {verb} {path}: it is a directory")]
    Directory {
        /// "read" or "write".
        verb: &'static str,
        /// The path, as named.
        path: String,
    },
    /// The output exists and is read-only; it is not replaced.
    #[error("cannot write {path}: the file is read-only (make it writable, or choose another file)")]
    ReadOnly {
        /// The file, as named.
        path: String,
    },
    /// The folder the output would go in does not exist.
    #[error("cannot write {path}: the folder {folder} does not exist")]
    NoFolder {
        /// The file, as named.
        path: String,
        /// Its folder.
        folder: String,
    },
    /// A FIFO that no process reads: writing would wait forever.
    #[error("cannot write {path}: it is a FIFO that no process is reading")]
    NoReader {
        /// The FIFO, as named.
        path: String,
    },
    /// Symbolic links that never end in a file.
    #[error("cannot write {path}: too many levels of symbolic links")]
    LinkLoop {
        /// The path, as named.
        path: String,
    },
    /// A folder to be written in one piece exists, and holds files that
    /// are not an earlier output of the same kind: they are not replaced.
    #[error(
        "cannot write {path}: the folder holds other files ({what} would replace it whole); choose a new or empty folder"
    )]
    FolderInUse {
        /// The folder, as named.
        path: String,
        /// What was to be written, such as "the conformance suite".
        what: &'static str,
    },
    /// A file was named where a folder was meant.
    #[error("cannot write {path}: it is a file, not a folder")]
    NotFolder {
        /// The path, as named.
        path: String,
    },
}

/// A pack file's text and what reading it gave.
#[derive(Clone, Debug)]
pub struct PackFile {
    /// The name to show for the file.
    pub name: String,
    /// The text as read (invalid UTF-8 shown as U+FFFD; empty when the file
    /// was too large to read).
    pub text: String,
    /// The pack and its problems.
    pub parsed: Parsed,
}

impl PackFile {
    /// Whether the pack can be used: it was read and has no errors.
    #[must_use]
    pub fn is_valid(&self) -> bool {
        self.parsed.pack.is_some() && !self.parsed.has_errors()
    }
}

/// `path` as messages show it: every control character, a newline among
/// them, escaped, so that a file name cannot forge lines of a report.
#[must_use]
pub fn shown(path: &Path) -> String {
    escape_controls(&path.display().to_string(), false).into_owned()
}

/// `text` with its control characters escaped (`\n` as `\\n`), newlines
/// and tabs kept when `keep_lines` is set: the one escaping behind every
/// name and message the tools print.
#[must_use]
pub fn escape_controls(text: &str, keep_lines: bool) -> std::borrow::Cow<'_, str> {
    let escaped = |c: char| c.is_control() && !(keep_lines && (c == '\n' || c == '\t'));
    if !text.chars().any(escaped) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if escaped(c) {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// Whether `path` names a JSON pack (by its extension).
#[must_use]
pub fn is_json(path: &Path) -> bool {
    path.extension().is_some_and(|e| e.eq_ignore_ascii_case("json"))
}

/// Reads a pack file, or a bundled pack for [`BUNDLED`] or
/// [`BUNDLED_FLAWED`]. `Err` only when
/// the file cannot be read at all; anything wrong with its content is a
/// problem of the returned pack. A `.json` file is read as a JSON pack.
///
/// # Errors
/// [`FileError::Read`] or [`FileError::Directory`].
pub fn read_pack(path: &Path) -> Result<PackFile, FileError> {
    if let Some((text, name)) = bundled_text(path) {
        let text = text.to_owned();
        let parsed = parse_pack(&text);
        return Ok(PackFile { name: name.to_owned(), text, parsed });
    }
    if path.to_str().is_some_and(|p| p.starts_with('@')) && !path.exists() {
        // A mistyped bundled name reads as a file that is not there.
        return Err(FileError::Read {
            path: shown(path),
            cause: io::Error::new(
                io::ErrorKind::NotFound,
                format!("no such file, and not a bundled pack (those are {BUNDLED} and {BUNDLED_FLAWED})"),
            ),
        });
    }
    let name = shown(path);
    let bytes = match read_capped(path, MAX_FILE_BYTES)? {
        Capped::Whole(bytes) => bytes,
        Capped::TooLarge { size } => {
            let size = size.map_or_else(|| format!("more than {MAX_FILE_BYTES}"), |s| s.to_string());
            let problem = Problem::new(
                Code::TooLarge,
                Field::Pack,
                format!("the file is {size} bytes; packs are at most {MAX_FILE_BYTES} bytes (4 MiB)"),
            );
            return Ok(PackFile { name, text: String::new(), parsed: Parsed::failed(problem) });
        }
    };
    Ok(pack_from_bytes(name, bytes, is_json(path)))
}

/// Reads a pack from bytes already in memory, named `name`.
#[must_use]
pub fn pack_from_bytes(name: String, bytes: Vec<u8>, json: bool) -> PackFile {
    match String::from_utf8(bytes) {
        Ok(text) => {
            let parsed = match text.strip_prefix('\u{feff}') {
                // A byte-order mark, accepted in JSON as TOML accepts it:
                // read as white space of the same length, so that every
                // place in the file keeps its offset.
                Some(rest) if json => parse_pack_json(&format!("   {rest}")),
                _ if json => parse_pack_json(&text),
                _ => parse_pack(&text),
            };
            PackFile { name, text, parsed }
        }
        Err(error) => {
            let offset = error.utf8_error().valid_up_to();
            let bad = error.as_bytes().get(offset).copied().unwrap_or_default();
            // The lossy text keeps every valid byte in place and puts one
            // U+FFFD at `offset`, so the span stays on character boundaries.
            let text = String::from_utf8_lossy(error.as_bytes()).into_owned();
            let problem = Problem::new(
                Code::Syntax,
                Field::Pack,
                format!(
                    "the file is not UTF-8 text: byte {offset} (0x{bad:02x}) is not part of a UTF-8 character"
                ),
            )
            .at(offset..offset + char::REPLACEMENT_CHARACTER.len_utf8());
            PackFile { name, text, parsed: Parsed::failed(problem) }
        }
    }
}

/// A file read up to a cap.
enum Capped {
    /// The whole file.
    Whole(Vec<u8>),
    /// More than the cap; its size when the file reports one.
    TooLarge { size: Option<u64> },
}

/// Reads at most `cap` bytes of `path`, whatever size it reports.
fn read_capped(path: &Path, cap: usize) -> Result<Capped, FileError> {
    let name = || shown(path);
    let file = File::open(path).map_err(|cause| FileError::Read { path: name(), cause })?;
    let metadata = file.metadata().map_err(|cause| FileError::Read { path: name(), cause })?;
    if metadata.is_dir() {
        return Err(FileError::Directory { verb: "read", path: name() });
    }
    if metadata.is_file() && metadata.len() > cap as u64 {
        return Ok(Capped::TooLarge { size: Some(metadata.len()) });
    }
    let mut bytes = Vec::new();
    file.take(cap as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|cause| FileError::Read { path: name(), cause })?;
    if bytes.len() > cap {
        let size = metadata.is_file().then_some(metadata.len()).filter(|&n| n > cap as u64);
        return Ok(Capped::TooLarge { size });
    }
    Ok(Capped::Whole(bytes))
}

/// Reads a small text file (a game record, preferences) of at most `cap`
/// bytes.
///
/// # Errors
/// When the file cannot be read, is larger than `cap`, or is not UTF-8.
pub fn read_text(path: &Path, cap: usize) -> Result<String, FileError> {
    let name = || shown(path);
    match read_capped(path, cap)? {
        Capped::Whole(bytes) => String::from_utf8(bytes).map_err(|e| FileError::Read {
            path: name(),
            cause: io::Error::new(
                io::ErrorKind::InvalidData,
                format!("not UTF-8 text at byte {}", e.utf8_error().valid_up_to()),
            ),
        }),
        Capped::TooLarge { .. } => Err(FileError::Read {
            path: name(),
            cause: io::Error::new(io::ErrorKind::FileTooLarge, format!("larger than {cap} bytes")),
        }),
    }
}

/// Whether two paths name the same existing file (after every link).
#[must_use]
pub fn same_file(a: &Path, b: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt as _;
        match (fs::metadata(a), fs::metadata(b)) {
            (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        matches!((fs::canonicalize(a), fs::canonicalize(b)), (Ok(a), Ok(b)) if a == b)
    }
}

/// An output opened before the work that fills it, so that an unwritable
/// destination fails at once, and committed in one piece after.
pub struct Output {
    name: String,
    target: Target,
}

enum Target {
    /// A regular file, new or replaced, written atomically.
    Atomic(atomic_write_file::AtomicWriteFile),
    /// A regular file whose name is too long for the temporary's naming
    /// (`.NAME.XXXXXX`), written atomically through a shortened one.
    LongName(LongName),
    /// A device, FIFO or socket, or an inherited descriptor's file, written
    /// straight into.
    Through(File),
    /// The process's own standard output or error, written into at its
    /// current place (`/dev/stdout >> log` appends, as a shell's `>>` does).
    Stdout,
    /// Standard error.
    Stderr,
}

/// What a path that names one of the process's open descriptors
/// (`/dev/stdout`, `/dev/stderr`, `/dev/fd/N`, `/proc/self/fd/N`) stands
/// for: decided by the path as written, not by the file it resolves to,
/// which may be a regular file that must be written into, never replaced.
enum Descriptor {
    Stdout,
    Stderr,
    Other,
}

fn descriptor(path: &Path) -> Option<Descriptor> {
    let text = path.to_str()?;
    let number = match text {
        "/dev/stdout" => return Some(Descriptor::Stdout),
        "/dev/stderr" => return Some(Descriptor::Stderr),
        _ => text.strip_prefix("/dev/fd/").or_else(|| text.strip_prefix("/proc/self/fd/"))?,
    };
    match number.parse::<u32>().ok()? {
        1 => Some(Descriptor::Stdout),
        2 => Some(Descriptor::Stderr),
        _ => Some(Descriptor::Other),
    }
}

impl Output {
    /// Opens `path` for writing as the module documents: nothing visible
    /// changes until [`Output::commit`].
    ///
    /// # Errors
    /// When the destination is a directory, read-only, in a missing folder,
    /// a loop of links, or cannot be opened.
    pub fn create(path: &Path) -> Result<Output, FileError> {
        let name = shown(path);
        let write_error = |cause| FileError::Write { path: name.clone(), cause };
        match descriptor(path) {
            Some(Descriptor::Stdout) => return Ok(Output { name, target: Target::Stdout }),
            Some(Descriptor::Stderr) => return Ok(Output { name, target: Target::Stderr }),
            Some(Descriptor::Other) => {
                // Another inherited descriptor: reopened through the path,
                // appending where it is a regular file, so that what the
                // file held before is kept.
                let metadata = fs::metadata(path).map_err(write_error)?;
                let file = fs::OpenOptions::new()
                    .write(true)
                    .append(metadata.is_file())
                    .open(path)
                    .map_err(write_error)?;
                return Ok(Output { name, target: Target::Through(file) });
            }
            None => {}
        }
        let target = match fs::metadata(path) {
            Ok(metadata) if metadata.is_dir() => {
                return Err(FileError::Directory { verb: "write", path: name });
            }
            Ok(metadata) if !metadata.is_file() => {
                // Opened through the path itself: the kernel resolves links
                // such as /proc/self/fd/1 that name no file.
                // A FIFO's probe stays open until the real open has
                // returned: closing it first would be the last writer
                // leaving, and a reader would take that for the end.
                let probe = if is_fifo(&metadata) {
                    match fifo_probe(path) {
                        Some(probe) => Some(probe),
                        None => return Err(FileError::NoReader { path: name }),
                    }
                } else {
                    None
                };
                let file = fs::OpenOptions::new().write(true).open(path).map_err(write_error)?;
                drop(probe);
                Target::Through(file)
            }
            Ok(metadata) => {
                if metadata.permissions().readonly() {
                    return Err(FileError::ReadOnly { path: name });
                }
                // Write access as the user has it, not as the mode bits say:
                // opening for writing truncates nothing.
                if let Err(error) = fs::OpenOptions::new().write(true).open(path) {
                    return Err(if error.kind() == io::ErrorKind::PermissionDenied {
                        FileError::NotPermitted { path: name }
                    } else {
                        write_error(error)
                    });
                }
                let real = fs::canonicalize(path).map_err(write_error)?;
                open_atomic(&real).map_err(|e| folder_error(&name, &real, e))?
            }
            Err(error) if error.kind() == io::ErrorKind::NotFound => {
                // A new file, or the missing target of a dangling link,
                // which is created as a shell's `>` would.
                let real = resolve_links(path).ok_or_else(|| FileError::LinkLoop { path: name.clone() })?;
                let folder = match real.parent() {
                    Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
                    _ => PathBuf::from("."),
                };
                if !folder.is_dir() {
                    return Err(FileError::NoFolder { path: name, folder: shown(&folder) });
                }
                open_atomic(&real).map_err(|e| folder_error(&name, &real, e))?
            }
            Err(error) => return Err(write_error(error)),
        };
        Ok(Output { name, target })
    }

    /// The process's standard output, written into at its current place.
    #[must_use]
    pub fn stdout() -> Output {
        Output { name: "standard output".to_owned(), target: Target::Stdout }
    }

    /// The output as named, for messages (control characters escaped).
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Writes `bytes` and makes them the file's content.
    ///
    /// # Errors
    /// When writing fails; a replaced regular file is then left as it was.
    pub fn commit(self, bytes: &[u8]) -> Result<(), FileError> {
        self.commit_until(bytes, &AtomicBool::new(false)).map(|_| ())
    }

    /// [`Output::commit`], stopping once `stop` is raised (by a signal): a
    /// regular file is then not replaced, and a stream (a FIFO, a device,
    /// standard output) that got part of `bytes` ends with [`INCOMPLETE`],
    /// so that its reader cannot take it for a whole pack.
    ///
    /// # Errors
    /// As [`Output::commit`].
    pub fn commit_until(self, bytes: &[u8], stop: &AtomicBool) -> Result<Committed, FileError> {
        let Output { name, target } = self;
        let write_error = |cause| FileError::Write { path: name.clone(), cause };
        let whole = |()| Committed::Whole;
        match target {
            Target::Atomic(_) | Target::LongName(_) if stop.load(Ordering::Relaxed) => {
                Ok(Committed::Unchanged)
            }
            Target::Atomic(mut file) => {
                file.write_all(bytes).map_err(write_error)?;
                file.commit().map(whole).map_err(write_error)
            }
            Target::LongName(file) => file.commit(bytes).map(whole).map_err(write_error),
            Target::Through(file) => put_until(file, bytes, stop).map_err(write_error),
            Target::Stdout => put_until(io::stdout().lock(), bytes, stop).map_err(write_error),
            Target::Stderr => put_until(io::stderr().lock(), bytes, stop).map_err(write_error),
        }
    }
}

/// How much of an output [`Output::commit_until`] wrote.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Committed {
    /// All of it.
    Whole,
    /// Stopped before a regular file was replaced: it is as it was.
    Unchanged,
    /// Stopped: `written` bytes went to a stream, which then got
    /// [`INCOMPLETE`].
    Cut {
        /// The bytes of the output written before the stop.
        written: usize,
    },
}

/// The last line of a stream cut short by a signal: no TOML or JSON reader
/// takes it (nor a text after it) for the end of a whole pack, and it says
/// why.
pub const INCOMPLETE: &str = "\n!!! pushcrate was interrupted: this output is incomplete !!!\n";

/// How much a stream is written at a time between looks at the stop flag:
/// a pipe's atomic write size.
const STREAM_PIECE: usize = 4096;

/// Writes `bytes` into `out` piece by piece, flushing at the end; once
/// `stop` is raised, writes [`INCOMPLETE`] instead of the rest.
fn put_until(mut out: impl Write, bytes: &[u8], stop: &AtomicBool) -> io::Result<Committed> {
    for (i, piece) in bytes.chunks(STREAM_PIECE).enumerate() {
        if stop.load(Ordering::Relaxed) {
            out.write_all(INCOMPLETE.as_bytes())?;
            out.flush()?;
            return Ok(Committed::Cut { written: i * STREAM_PIECE });
        }
        out.write_all(piece)?;
    }
    out.flush()?;
    Ok(Committed::Whole)
}

/// The error of making the temporary file an atomic write needs beside
/// `real`: a folder the user may not write is named as such.
fn folder_error(name: &str, real: &Path, error: io::Error) -> FileError {
    if error.kind() == io::ErrorKind::PermissionDenied {
        let folder = real.parent().map_or_else(|| ".".to_owned(), shown);
        FileError::FolderNotWritable { path: name.to_owned(), folder }
    } else {
        FileError::Write { path: name.to_owned(), cause: error }
    }
}

#[cfg(unix)]
fn is_fifo(metadata: &fs::Metadata) -> bool {
    use std::os::unix::fs::FileTypeExt as _;
    metadata.file_type().is_fifo()
}

#[cfg(not(unix))]
fn is_fifo(_: &fs::Metadata) -> bool {
    false
}

/// The FIFO at `path` opened for writing without blocking, when a
/// process has it open for reading (else a write would wait for one
/// forever): `None` when none does. Keep it open until the real open has
/// returned.
#[cfg(unix)]
fn fifo_probe(path: &Path) -> Option<File> {
    use std::os::unix::fs::OpenOptionsExt as _;
    // Opening for writing without blocking fails (ENXIO) when no process
    // reads; the blocking open that follows then returns at once.
    fs::OpenOptions::new().write(true).custom_flags(libc::O_NONBLOCK).open(path).ok()
}

#[cfg(not(unix))]
fn fifo_probe(path: &Path) -> Option<File> {
    fs::OpenOptions::new().write(true).open(path).ok()
}

fn open_atomic(path: &Path) -> io::Result<Target> {
    remove_stale_temporaries(path);
    let name = path.file_name().unwrap_or_default();
    if name.len() > temporary_stem(name).len() {
        return LongName::open(path).map(Target::LongName);
    }
    // The default options keep the replaced file's mode and owner.
    atomic_write_file::AtomicWriteFile::options().open(path).map(Target::Atomic)
}

/// The longest name a file system takes (Linux's `NAME_MAX`, in bytes).
const NAME_MAX: usize = 255;

/// What a temporary of `target` is named after: the whole name, or as many
/// of its first bytes (whole characters) as leave room in [`NAME_MAX`] for
/// the dots and the six random characters around it.
fn temporary_stem(target: &std::ffi::OsStr) -> &std::ffi::OsStr {
    let room = NAME_MAX - ".".len() - ".XXXXXX".len();
    let bytes = target.as_encoded_bytes();
    if bytes.len() <= room {
        return target;
    }
    let cut = match target.to_str() {
        Some(text) => (0..=room).rev().find(|&i| text.is_char_boundary(i)).unwrap_or(0),
        None => room,
    };
    // Cut at a character boundary of valid UTF-8, or anywhere in bytes
    // that are not: `from_encoded_bytes_unchecked` would need `unsafe`.
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt as _;
        std::ffi::OsStr::from_bytes(&bytes[..cut])
    }
    #[cfg(not(unix))]
    {
        target.to_str().and_then(|t| t.get(..cut)).map_or(target, std::ffi::OsStr::new)
    }
}

/// An atomic write of a file whose name is too long for the temporary's
/// usual naming: the temporary is `.STEM.XXXXXX` beside it ([`temporary_stem`]),
/// renamed over the file once written and synced, with the replaced file's
/// permissions (and, where the process may, its owner).
struct LongName {
    temporary: tempfile::NamedTempFile,
    path: PathBuf,
}

impl LongName {
    fn open(path: &Path) -> io::Result<LongName> {
        let folder = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        let mut prefix = std::ffi::OsString::from(".");
        prefix.push(temporary_stem(path.file_name().unwrap_or_default()));
        prefix.push(".");
        let mut builder = tempfile::Builder::new();
        builder.prefix(&prefix).rand_bytes(6);
        // A new file gets the mode any new file gets (0666 less the umask,
        // which `open` applies), as atomic-write-file gives it.
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            builder.permissions(fs::Permissions::from_mode(0o666));
        }
        let temporary = builder.tempfile_in(folder)?;
        Ok(LongName { temporary, path: path.to_path_buf() })
    }

    fn commit(mut self, bytes: &[u8]) -> io::Result<()> {
        self.temporary.write_all(bytes)?;
        if let Ok(old) = fs::metadata(&self.path) {
            self.temporary.as_file().set_permissions(old.permissions())?;
            #[cfg(unix)]
            {
                use std::os::unix::fs::MetadataExt as _;
                // Only a privileged process may give a file away; anyone
                // else keeps the file as theirs, as atomic-write-file does.
                std::os::unix::fs::fchown(self.temporary.as_file(), Some(old.uid()), Some(old.gid())).ok();
            }
        }
        self.temporary.as_file().sync_all()?;
        self.temporary.persist(&self.path).map_err(|e| e.error)?;
        if let Some(folder) = self.path.parent().filter(|p| !p.as_os_str().is_empty()) {
            // Best effort, as for any rename: the data itself is synced.
            File::open(folder).and_then(|f| f.sync_all()).ok();
        }
        Ok(())
    }
}

/// Whether `entry` is named as the atomic write of `target` names its
/// temporary: `.` + the target's name (or its [`temporary_stem`]) + `.` +
/// six ASCII letters or digits.
fn is_temporary_of(entry: &std::ffi::OsStr, target: &std::ffi::OsStr) -> bool {
    let (Some(entry), Some(target)) = (entry.to_str(), temporary_stem(target).to_str()) else { return false };
    entry
        .strip_prefix('.')
        .and_then(|rest| rest.strip_prefix(target))
        .and_then(|rest| rest.strip_prefix('.'))
        .is_some_and(|suffix| suffix.len() == 6 && suffix.bytes().all(|b| b.is_ascii_alphanumeric()))
}

/// Removes the named temporaries of `target` that a killed process left:
/// regular files of the temporary's naming, untouched for
/// [`STALE_TEMPORARY`]. Best effort: what cannot be listed or removed stays.
fn remove_stale_temporaries(target: &Path) {
    let Some(name) = target.file_name() else { return };
    let folder = match target.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let Ok(entries) = fs::read_dir(folder) else { return };
    for entry in entries.flatten() {
        if !is_temporary_of(&entry.file_name(), name) {
            continue;
        }
        let Ok(metadata) = entry.path().symlink_metadata() else { continue };
        let stale = metadata
            .modified()
            .ok()
            .and_then(|time| time.elapsed().ok())
            .is_some_and(|age| age >= STALE_TEMPORARY);
        if metadata.is_file() && stale {
            // Best effort: a leftover that cannot be removed is tried again
            // at the next write.
            fs::remove_file(entry.path()).ok();
        }
    }
}

/// Follows symbolic links from `path` to the path they end at (which need
/// not exist); `None` for a loop.
fn resolve_links(path: &Path) -> Option<PathBuf> {
    let mut current = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match fs::symlink_metadata(&current) {
            Ok(m) if m.file_type().is_symlink() => {
                let target = fs::read_link(&current).ok()?;
                current = match current.parent() {
                    Some(parent) if target.is_relative() => parent.join(target),
                    _ => target,
                };
            }
            _ => return Some(current),
        }
    }
    None
}

/// Writes `bytes` to `path` as [`Output`] does, in one call.
///
/// # Errors
/// As [`Output::create`] and [`Output::commit`].
pub fn write_file(path: &Path, bytes: &[u8]) -> Result<(), FileError> {
    Output::create(path)?.commit(bytes)
}

/// Writes a folder of files in one piece: into a hidden folder beside
/// `path` (`.NAME.partial-PID`), which then takes `path`'s place, so that an
/// interrupted run leaves the old folder, or none, never a part of the new.
/// `files` are paths relative to the folder, with their bytes.
///
/// An existing folder is replaced whole when it is empty or when
/// `replaceable` says it is an earlier output of the same kind (`what`);
/// else it is refused. Hidden folders of this naming that a killed process
/// left are removed first.
///
/// # Errors
/// When `path` is a file, its folder is missing, it holds other files, or a
/// write or a rename fails (the old folder is then left as it was).
pub fn write_folder(
    path: &Path,
    files: &[(String, Vec<u8>)],
    what: &'static str,
    replaceable: impl Fn(&Path) -> bool,
) -> Result<(), FileError> {
    let name = shown(path);
    let write_error = |cause| FileError::Write { path: name.clone(), cause };
    let exists = match fs::metadata(path) {
        Ok(m) if m.is_dir() => true,
        Ok(_) => return Err(FileError::NotFolder { path: name }),
        Err(e) if e.kind() == io::ErrorKind::NotFound => false,
        Err(e) => return Err(write_error(e)),
    };
    let Some(base) = path.file_name() else {
        return Err(write_error(io::Error::new(io::ErrorKind::InvalidInput, "the path names no folder")));
    };
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    if !parent.is_dir() {
        return Err(FileError::NoFolder { path: name, folder: shown(&parent) });
    }
    if exists {
        let empty = fs::read_dir(path).map_err(write_error)?.next().is_none();
        if !empty && !replaceable(path) {
            return Err(FileError::FolderInUse { path: name, what });
        }
    }
    let hidden = |kind: &str, pid: u32| {
        let mut hidden = std::ffi::OsString::from(".");
        hidden.push(base);
        hidden.push(format!(".{kind}-{pid}"));
        parent.join(hidden)
    };
    remove_abandoned_folders(&parent, base);
    let staging = hidden("partial", std::process::id());
    // A staging folder of this process id can only be a dead run's.
    fs::remove_dir_all(&staging).ok();
    let staged = (|| -> io::Result<()> {
        fs::create_dir(&staging)?;
        for (file, bytes) in files {
            let target = staging.join(file);
            if let Some(folder) = target.parent() {
                fs::create_dir_all(folder)?;
            }
            fs::write(&target, bytes)?;
        }
        Ok(())
    })();
    let swapped = staged.and_then(|()| {
        if exists {
            replace_folder(&staging, path, &hidden("old", std::process::id()))
        } else {
            fs::rename(&staging, path)
        }
    });
    if let Err(error) = swapped {
        // The error to report is the swap's; the staging folder is only
        // tidied up.
        fs::remove_dir_all(&staging).ok();
        return Err(if error.kind() == io::ErrorKind::PermissionDenied {
            FileError::FolderNotWritable { path: name, folder: shown(&parent) }
        } else {
            write_error(error)
        });
    }
    Ok(())
}

/// Puts the folder `new` in the place of the folder `path`, and removes the
/// old one, which has the name `old` between the two renames.
fn replace_folder(new: &Path, path: &Path, old: &Path) -> io::Result<()> {
    fs::rename(path, old)?;
    if let Err(error) = fs::rename(new, path) {
        // Put the old folder back; the error to report is the first one.
        fs::rename(old, path).ok();
        return Err(error);
    }
    // The new folder is in place; the old one left behind is the next
    // run's to remove, as an abandoned folder.
    fs::remove_dir_all(old).ok();
    Ok(())
}

/// Removes the hidden `.BASE.partial-PID` folders in `parent` whose process
/// is gone: what a killed [`write_folder`] left.
fn remove_abandoned_folders(parent: &Path, base: &std::ffi::OsStr) {
    let (Some(base), Ok(entries)) = (base.to_str(), fs::read_dir(parent)) else { return };
    let prefix = format!(".{base}.partial-");
    for entry in entries.flatten() {
        let file_name = entry.file_name();
        let Some(pid) =
            file_name.to_str().and_then(|n| n.strip_prefix(&prefix)).and_then(|p| p.parse::<u32>().ok())
        else {
            continue;
        };
        if pid != std::process::id() && !process_lives(pid) {
            // Best effort, as for temporaries.
            fs::remove_dir_all(entry.path()).ok();
        }
    }
}

/// Whether a process `pid` exists (where the system cannot tell, it is
/// taken to, so that nothing of it is removed).
fn process_lives(pid: u32) -> bool {
    if cfg!(target_os = "linux") { Path::new(&format!("/proc/{pid}")).exists() } else { true }
}

#[cfg(test)]
mod tests {
    use super::is_temporary_of;
    use std::ffi::OsStr;

    #[test]
    fn temporaries_are_known_by_their_naming_only() {
        let of = |entry: &str| is_temporary_of(OsStr::new(entry), OsStr::new("X.toml"));
        assert!(of(".X.toml.aB3xYz"));
        assert!(!of("X.toml"));
        assert!(!of(".X.toml.aB3xY"), "five characters");
        assert!(!of(".X.toml.aB3xYzz"), "seven characters");
        assert!(!of(".X.toml.aB-xYz"), "not alphanumeric");
        assert!(!of(".Y.toml.aB3xYz"), "another output's");
        assert!(!of(".X.toml"));
    }

    #[test]
    fn a_long_names_temporary_is_named_after_as_much_of_it_as_fits() {
        let long = format!("{}.toml", "é".repeat(124));
        assert_eq!(long.len(), 253);
        let stem = super::temporary_stem(OsStr::new(&long)).to_str().unwrap();
        assert_eq!(stem.len(), 246, "a whole number of two-byte characters within 247 bytes");
        assert!(long.starts_with(stem));
        let temporary = format!(".{stem}.aB3xYz");
        assert!(temporary.len() <= 255);
        assert!(is_temporary_of(OsStr::new(&temporary), OsStr::new(&long)));
        assert_eq!(super::temporary_stem(OsStr::new("X.toml")), OsStr::new("X.toml"));
    }
}
