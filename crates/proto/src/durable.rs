//! Durable small files (耐断电写入): the one helper every file caipan keeps
//! outside its database is written through — "write a temp file, fsync it,
//! rename it over the old one, fsync the directory" — so that after a crash
//! or a power cut the file is either the old one or the new one, whole, and
//! the new name itself survives (a rename lives in the directory, which
//! needs its own fsync).
//!
//! Plain `std` only (no `net` feature): the export, the TLS identity, the
//! pairings import, the store's lock file and the table terminal use it.

use std::io::Write;
use std::path::{Path, PathBuf};

/// A durable write that failed: the file, the step, the OS error.
#[derive(Debug, thiserror::Error)]
#[error("{path}: {step}: {source}")]
pub struct DurableError {
    /// The file (or directory) the step was on.
    pub path: PathBuf,
    /// What was being done ("writing", "renaming", "syncing the directory", …).
    pub step: &'static str,
    /// The OS error.
    pub source: std::io::Error,
}

fn fail<'a>(
    path: &'a Path,
    step: &'static str,
) -> impl FnOnce(std::io::Error) -> DurableError + 'a {
    move |source| DurableError {
        path: path.to_path_buf(),
        step,
        source,
    }
}

/// The temp file next to `path` that [`write_atomic`] writes first.
pub fn temp_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".tmp");
    path.with_file_name(name)
}

/// The directory holding `path` (`.` for a bare file name).
fn parent_of(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// Writes `bytes` to `path` durably (see the module docs): when this
/// returns `Ok`, a power cut leaves the new content under `path`.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), DurableError> {
    write_atomic_mode(path, bytes, false)
}

/// [`write_atomic`], the file readable by its owner only (mode 0600 on
/// Unix) when `secret` (keys).
pub fn write_atomic_mode(path: &Path, bytes: &[u8], secret: bool) -> Result<(), DurableError> {
    let tmp = temp_path(path);
    let mut opts = std::fs::OpenOptions::new();
    opts.write(true).create(true).truncate(true);
    #[cfg(unix)]
    if secret {
        use std::os::unix::fs::OpenOptionsExt;
        opts.mode(0o600);
    }
    #[cfg(not(unix))]
    let _ = secret;
    let mut f = opts.open(&tmp).map_err(fail(&tmp, "creating"))?;
    let written = f
        .write_all(bytes)
        .map_err(fail(&tmp, "writing"))
        .and_then(|()| f.sync_all().map_err(fail(&tmp, "syncing")));
    drop(f);
    let renamed = written.and_then(|()| {
        std::fs::rename(&tmp, path).map_err(fail(path, "renaming the temp file over"))
    });
    if renamed.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    renamed?;
    sync_dir(parent_of(path))
}

/// fsyncs a directory, so that the names created, renamed or removed in it
/// survive a power cut. A no-op where directories cannot be opened (not
/// Unix).
pub fn sync_dir(dir: &Path) -> Result<(), DurableError> {
    #[cfg(unix)]
    {
        let d = std::fs::File::open(dir).map_err(fail(dir, "opening the directory"))?;
        d.sync_all().map_err(fail(dir, "syncing the directory"))?;
    }
    #[cfg(not(unix))]
    let _ = dir;
    Ok(())
}

/// Creates (or opens) `path` for writing without truncating it and, when
/// it is new, fsyncs its directory so that the name survives a power cut.
pub fn create_durable(path: &Path) -> Result<std::fs::File, DurableError> {
    let existed = path.exists();
    let f = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .map_err(fail(path, "opening"))?;
    if !existed {
        sync_dir(parent_of(path))?;
    }
    Ok(f)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_whole_and_leaves_no_temp() {
        let dir = std::env::temp_dir().join(format!("caipan-durable-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("hall.toml");
        write_atomic(&p, b"first").unwrap();
        write_atomic(&p, b"second, longer").unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"second, longer");
        assert!(!temp_path(&p).exists());
        let err = write_atomic(&dir.join("missing").join("x"), b"x").unwrap_err();
        assert!(err.to_string().contains("creating"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
