//! The server side of `caipan bench powercut` (issue 37): `caipan serve
//! --power-cut-test seed=S,sector=N,report=PATH` (hidden; for the bench
//! only) keeps its SQLite store on the power-cut VFS
//! (`store::faults::arm_power_cut`) and listens on stdin. On a line `cut`
//! the power goes off at a seeded moment — the n-th write from then or the
//! n-th sync (which never happens) — or after 3 s at the latest; the
//! files are left as the disk would hold them (each unsynced write kept,
//! dropped or torn), one line `kept dropped torn` is appended to the
//! report file, and the process ends at once (`_exit`), answering nothing
//! more, as at a power loss.

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{anyhow, Context};
use proto::powercut::Seeded;
use store::faults;

/// A parsed `--power-cut-test` value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Spec {
    /// Seed of the cut's moment and of each write's fate.
    pub seed: u64,
    /// Sector size of the modelled disk.
    pub sector: usize,
    /// Where the cut's counts are appended.
    pub report: PathBuf,
}

impl Spec {
    /// The value for `--power-cut-test`.
    pub fn to_arg(&self) -> String {
        format!(
            "seed={},sector={},report={}",
            self.seed,
            self.sector,
            self.report.display()
        )
    }

    /// Reads `seed=S,sector=N,report=PATH` (the report last: a path may
    /// hold commas).
    pub fn parse(text: &str) -> anyhow::Result<Spec> {
        let bad =
            |why: &str| anyhow!("--power-cut-test {text:?}: {why} (seed=S,sector=N,report=PATH)");
        let (head, report) = text
            .split_once(",report=")
            .ok_or_else(|| bad("no report=PATH at the end"))?;
        let (mut seed, mut sector) = (None, None);
        for part in head.split(',') {
            match part.split_once('=') {
                Some(("seed", v)) => {
                    seed = Some(v.parse().map_err(|_| bad("seed is not a number"))?)
                }
                Some(("sector", v)) => {
                    sector = Some(v.parse().map_err(|_| bad("sector is not a number"))?)
                }
                _ => return Err(bad(&format!("unknown part {part:?}"))),
            }
        }
        let sector: usize = sector.ok_or_else(|| bad("no sector"))?;
        if !(512..=65536).contains(&sector) || !sector.is_power_of_two() {
            return Err(bad("sector must be a power of two from 512 to 65536"));
        }
        Ok(Spec {
            seed: seed.ok_or_else(|| bad("no seed"))?,
            sector,
            report: PathBuf::from(report),
        })
    }
}

/// Arms the power-cut VFS for `data` and the stdin listener; the VFS name
/// to open the store with.
pub fn arm(spec: &str, data: &Path) -> anyhow::Result<String> {
    let spec = Spec::parse(spec)?;
    let plan = faults::arm_power_cut(data, spec.sector, spec.seed)
        .with_context(|| format!("power-cut VFS for {}", data.display()))?;
    let power = plan.clone();
    let report = spec.report.clone();
    power
        .power()
        .ok_or_else(|| anyhow!("the plan has no power model"))?
        .on_cut(Box::new(move |r| {
            let line = format!("{} {} {}\n", r.kept, r.dropped, r.torn);
            let written = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(&report)
                .and_then(|mut f| f.write_all(line.as_bytes()));
            if let Err(e) = written {
                eprintln!("power-cut report {}: {e}", report.display());
            }
            // SAFETY: _exit ends the process without unwinding or running
            // destructors: nothing more reaches the disk or the network.
            unsafe { libc::_exit(137) }
        }));
    let seed = spec.seed;
    std::thread::Builder::new()
        .name("power-cut".into())
        .spawn(move || {
            let mut rng = Seeded::new(seed ^ 0x5EED);
            for line in std::io::stdin().lock().lines() {
                let Ok(line) = line else { break };
                if line.trim() != "cut" {
                    continue;
                }
                let Some(power) = plan.power() else { break };
                if rng.below(2) == 0 {
                    power.cut_at_write(1 + rng.below(64));
                } else {
                    power.cut_at_sync(1 + rng.below(3));
                }
                std::thread::sleep(Duration::from_secs(3));
                if let Err(e) = power.cut_now() {
                    eprintln!("power cut failed: {e}");
                }
            }
        })
        .context("starting the power-cut listener")?;
    Ok(faults::VFS_NAME.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_round_trips_and_bad_ones_are_named() {
        let s = Spec {
            seed: 9,
            sector: 4096,
            report: PathBuf::from("/tmp/a,b/report"),
        };
        assert_eq!(Spec::parse(&s.to_arg()).unwrap(), s);
        let e = Spec::parse("seed=1,sector=1000,report=/x").unwrap_err();
        assert!(e.to_string().contains("power of two"), "{e}");
        let e = Spec::parse("seed=x,sector=512,report=/x").unwrap_err();
        assert!(e.to_string().contains("seed is not a number"), "{e}");
    }
}
