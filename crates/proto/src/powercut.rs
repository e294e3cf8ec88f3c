//! A disk that forgets what was not synced (断电模型): the power-cut model
//! shared by the store's fault VFS (crates/store/src/faults.rs) and the
//! table terminal's outbox storage (crates/table/src/outbox).
//!
//! Writes go to the real file at once (so the running process reads what
//! it wrote, as through the page cache), and the model remembers, per file
//! path, every write made since that path's last successful sync, together
//! with the synced content of each sector it touched. A sync of the path —
//! through any handle: fsync works on the file, not on one descriptor —
//! makes them durable and forgets them. At a [`Disk::cut`] every pending
//! write is, independently and from the seed, kept, dropped, or torn (each
//! of its sectors kept or not on its own, so some sectors hold new bytes
//! and some old); the real files are rewritten to that outcome, as the
//! disk would hold it when power returns. Sectors are the unit a disk
//! writes whole (default [`DEFAULT_SECTOR`]).
//!
//! What the model takes as durable at once: a file's creation and removal
//! (the callers fsync the directory) and a truncation. SQLite's test6.c
//! crash VFS and LazyFS (Jepsen) follow the same idea.

use std::collections::{BTreeMap, HashMap};
use std::fs::File;
use std::path::{Path, PathBuf};

/// Sector size unless told otherwise.
pub const DEFAULT_SECTOR: usize = 4096;

/// What a cut did to the pending writes.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct CutReport {
    /// Pending writes that reached the disk whole.
    pub kept: u64,
    /// Pending writes that were lost whole.
    pub dropped: u64,
    /// Pending writes of which some sectors reached the disk and some not.
    pub torn: u64,
    /// Files that had pending writes.
    pub files: u64,
}

impl CutReport {
    /// Adds another report's counts.
    pub fn add(&mut self, o: &CutReport) {
        self.kept += o.kept;
        self.dropped += o.dropped;
        self.torn += o.torn;
        self.files += o.files;
    }
}

/// One file's writes since its last sync.
#[derive(Debug)]
struct Pending {
    /// The file's length at its last sync (as far as the model knows).
    synced_len: u64,
    /// Synced content of every sector a pending write touched (zeros past
    /// the end of the file).
    base: BTreeMap<u64, Vec<u8>>,
    /// The pending writes in order: offset and bytes.
    writes: Vec<(u64, Vec<u8>)>,
    /// A read handle to capture sectors before they are overwritten.
    reader: File,
}

/// Deterministic 64-bit generator (SplitMix64): the cut's choices follow
/// from the seed alone.
#[derive(Debug, Clone)]
pub struct Seeded(u64);

impl Seeded {
    /// A generator from `seed`.
    pub fn new(seed: u64) -> Seeded {
        Seeded(seed)
    }

    /// The next number.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n` > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n.max(1)
    }
}

/// The model (see the module docs).
#[derive(Debug)]
pub struct Disk {
    sector: u64,
    files: HashMap<PathBuf, Pending>,
    rng: Seeded,
    /// Every cut so far, summed.
    total: CutReport,
}

#[cfg(unix)]
fn read_at(f: &File, buf: &mut [u8], off: u64) -> std::io::Result<usize> {
    std::os::unix::fs::FileExt::read_at(f, buf, off)
}

#[cfg(unix)]
fn write_at(f: &File, buf: &[u8], off: u64) -> std::io::Result<()> {
    std::os::unix::fs::FileExt::write_all_at(f, buf, off)
}

#[cfg(not(unix))]
fn read_at(f: &File, buf: &mut [u8], off: u64) -> std::io::Result<usize> {
    std::os::windows::fs::FileExt::seek_read(f, buf, off)
}

#[cfg(not(unix))]
fn write_at(f: &File, mut buf: &[u8], mut off: u64) -> std::io::Result<()> {
    while !buf.is_empty() {
        let n = std::os::windows::fs::FileExt::seek_write(f, buf, off)?;
        buf = &buf[n..];
        off += n as u64;
    }
    Ok(())
}

impl Disk {
    /// A model with `sector`-byte sectors (at least 512) whose cuts follow
    /// from `seed`.
    pub fn new(sector: usize, seed: u64) -> Disk {
        Disk {
            sector: sector.max(512) as u64,
            files: HashMap::new(),
            rng: Seeded::new(seed),
            total: CutReport::default(),
        }
    }

    /// The sector size.
    pub fn sector(&self) -> usize {
        self.sector as usize
    }

    /// Every cut so far, summed.
    pub fn total(&self) -> CutReport {
        self.total
    }

    /// Writes not yet synced, over all files.
    pub fn pending_writes(&self) -> usize {
        self.files.values().map(|p| p.writes.len()).sum()
    }

    /// To be called before `len` bytes are written at `off` of `path`:
    /// keeps the synced content of the sectors the write will change.
    pub fn before_write(&mut self, path: &Path, off: u64, len: usize) -> std::io::Result<()> {
        if len == 0 {
            return Ok(());
        }
        if !self.files.contains_key(path) {
            let reader = File::open(path)?;
            let synced_len = reader.metadata()?.len();
            self.files.insert(
                path.to_path_buf(),
                Pending {
                    synced_len,
                    base: BTreeMap::new(),
                    writes: Vec::new(),
                    reader,
                },
            );
        }
        let s = self.sector;
        let Some(p) = self.files.get_mut(path) else {
            return Ok(());
        };
        let first = off / s;
        let last = (off + len as u64 - 1) / s;
        for sec in first..=last {
            if p.base.contains_key(&sec) {
                continue;
            }
            let mut buf = vec![0u8; s as usize];
            let mut got = 0;
            while got < buf.len() {
                let n = read_at(&p.reader, &mut buf[got..], sec * s + got as u64)?;
                if n == 0 {
                    break;
                }
                got += n;
            }
            p.base.insert(sec, buf);
        }
        Ok(())
    }

    /// To be called after `bytes` were written at `off` of `path` (after a
    /// successful [`Disk::before_write`]).
    pub fn wrote(&mut self, path: &Path, off: u64, bytes: &[u8]) {
        if let Some(p) = self.files.get_mut(path) {
            p.writes.push((off, bytes.to_vec()));
        }
    }

    /// Writes `bytes` at `off` of the open `file` (named `path`) and
    /// records the write as pending: [`Disk::before_write`], the write,
    /// [`Disk::wrote`].
    pub fn write(
        &mut self,
        file: &File,
        path: &Path,
        off: u64,
        bytes: &[u8],
    ) -> std::io::Result<()> {
        self.before_write(path, off, bytes.len())?;
        write_at(file, bytes, off)?;
        self.wrote(path, off, bytes);
        Ok(())
    }

    /// `path` was synced: everything written to it is durable.
    pub fn synced(&mut self, path: &Path) {
        self.files.remove(path);
    }

    /// `path` was truncated (or extended) to `len` (taken as durable).
    pub fn truncated(&mut self, path: &Path, len: u64) {
        let s = self.sector;
        let Some(p) = self.files.get_mut(path) else {
            return;
        };
        p.synced_len = p.synced_len.min(len);
        p.base.retain(|sec, _| sec * s < len);
        if let Some(b) = p.base.get_mut(&(len / s)) {
            let from = (len % s) as usize;
            b[from..].iter_mut().for_each(|x| *x = 0);
        }
        p.writes.retain_mut(|(off, data)| {
            if *off >= len {
                return false;
            }
            data.truncate(usize::try_from(len - *off).unwrap_or(usize::MAX));
            true
        });
    }

    /// `path` was removed (taken as durable): nothing of it is pending.
    pub fn removed(&mut self, path: &Path) {
        self.files.remove(path);
    }

    /// The power goes off for every file: see the module docs.
    pub fn cut(&mut self) -> std::io::Result<CutReport> {
        self.cut_where(|_| true)
    }

    /// The power goes off for the files `which` selects (one terminal's
    /// disk among several modelled in one process); the others keep their
    /// pending writes.
    pub fn cut_where(&mut self, which: impl Fn(&Path) -> bool) -> std::io::Result<CutReport> {
        let mut paths: Vec<PathBuf> = self.files.keys().filter(|p| which(p)).cloned().collect();
        paths.sort();
        let mut report = CutReport::default();
        for path in paths {
            let Some(p) = self.files.remove(&path) else {
                continue;
            };
            let r = self.settle(&path, p)?;
            report.add(&r);
        }
        self.total.add(&report);
        Ok(report)
    }

    /// Decides each pending write of one file and rewrites the file to the
    /// outcome.
    fn settle(&mut self, path: &Path, p: Pending) -> std::io::Result<CutReport> {
        let s = self.sector;
        let mut report = CutReport {
            files: 1,
            ..CutReport::default()
        };
        let mut image = p.base;
        let mut len = p.synced_len;
        for (off, data) in &p.writes {
            if data.is_empty() {
                continue;
            }
            let end = off + data.len() as u64;
            let sectors: Vec<u64> = (off / s..=(end - 1) / s).collect();
            // 0: kept, 1: dropped, 2: torn (needs two sectors at least).
            let mut fate = self.rng.below(3);
            if fate == 2 && sectors.len() < 2 {
                fate = self.rng.below(2);
            }
            let mut keep: Vec<bool> = match fate {
                0 => vec![true; sectors.len()],
                1 => vec![false; sectors.len()],
                _ => sectors.iter().map(|_| self.rng.below(2) == 0).collect(),
            };
            if fate == 2 && keep.iter().all(|&k| k == keep[0]) {
                keep[0] = !keep[0];
            }
            match fate {
                0 => report.kept += 1,
                1 => report.dropped += 1,
                _ => report.torn += 1,
            }
            for (sec, kept) in sectors.iter().zip(keep) {
                if !kept {
                    continue;
                }
                let from = (*off).max(sec * s);
                let to = end.min((sec + 1) * s);
                let buf = image.entry(*sec).or_insert_with(|| vec![0u8; s as usize]);
                let a = (from - sec * s) as usize;
                let b = (to - sec * s) as usize;
                let d = (from - off) as usize;
                buf[a..b].copy_from_slice(&data[d..d + (b - a)]);
                len = len.max(to);
            }
        }
        let file = match std::fs::OpenOptions::new().write(true).open(path) {
            Ok(f) => f,
            // Removed meanwhile: nothing to rewrite.
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(report),
            Err(e) => return Err(e),
        };
        for (sec, buf) in &image {
            let at = sec * s;
            if at >= len {
                continue;
            }
            let n = (len - at).min(s) as usize;
            write_at(&file, &buf[..n], at)?;
        }
        file.set_len(len)?;
        file.sync_all()?;
        Ok(report)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("caipan-powercut-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn synced_writes_survive_and_unsynced_ones_are_kept_dropped_or_torn() {
        let dir = scratch("model");
        let path = dir.join("f");
        std::fs::write(&path, vec![1u8; 4096]).unwrap();
        let f = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(&path)
            .unwrap();
        let mut totals = CutReport::default();
        for seed in 0..40 {
            let mut disk = Disk::new(512, seed);
            std::fs::write(&path, vec![1u8; 4096]).unwrap();
            disk.write(&f, &path, 0, &[2u8; 1024]).unwrap();
            disk.synced(&path);
            // Two sectors over the end of the file, then one inside.
            disk.write(&f, &path, 4096, &[3u8; 1024]).unwrap();
            disk.write(&f, &path, 1024, &[4u8; 512]).unwrap();
            assert_eq!(disk.pending_writes(), 2);
            let r = disk.cut().unwrap();
            totals.add(&r);
            assert_eq!(r.kept + r.dropped + r.torn, 2);
            let after = std::fs::read(&path).unwrap();
            // The synced write is there whatever happened.
            assert!(after[..1024].iter().all(|&b| b == 2), "seed {seed}");
            let tail = &after[4096.min(after.len())..];
            // Each sector past the old end is new or a hole (a torn write
            // whose first sector was lost).
            for sec in tail.chunks(512) {
                assert!(sec.iter().all(|&b| b == 3) || sec.iter().all(|&b| b == 0));
            }
            let mid = &after[1024..1536];
            assert!(mid.iter().all(|&b| b == 4) || mid.iter().all(|&b| b == 1));
            assert!([4096, 4608, 5120].contains(&after.len()), "{}", after.len());
        }
        assert!(
            totals.kept > 0 && totals.dropped > 0 && totals.torn > 0,
            "{totals:?}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_cut_of_one_file_leaves_the_others_pending() {
        let dir = scratch("select");
        let (a, b) = (dir.join("a"), dir.join("b"));
        std::fs::write(&a, b"").unwrap();
        std::fs::write(&b, b"").unwrap();
        let fa = std::fs::OpenOptions::new().write(true).open(&a).unwrap();
        let fb = std::fs::OpenOptions::new().write(true).open(&b).unwrap();
        let mut disk = Disk::new(4096, 7);
        disk.write(&fa, &a, 0, b"aaaa").unwrap();
        disk.write(&fb, &b, 0, b"bbbb").unwrap();
        let r = disk.cut_where(|p| p == a).unwrap();
        assert_eq!(r.files, 1);
        assert_eq!(disk.pending_writes(), 1);
        disk.truncated(&b, 2);
        disk.synced(&b);
        assert_eq!(disk.pending_writes(), 0);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
