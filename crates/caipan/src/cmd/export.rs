//! `caipan export` — the chief arbiter's post-round export (赛后导出):
//! results (CSV, JSON), one PGN per game, standings (CSV, JSON), a
//! TRF-16-style report and an HTML standings and crosstable page, read
//! from a hall's data dir (read-only; works while the server runs).
//!
//! Names, pairings and the tournament type come from the config copy the
//! server keeps in the data dir (`hall-config.toml`), or from `--config`.
//! `--out` is a folder for `pgn` (one file per game, `r1-t03.pgn`) and a
//! file for the other formats; without it single-file formats go to stdout.
//!
//! `--store URL --tournament ID` exports one tournament played in several
//! halls that share a PostgreSQL database, as one: every hall's games,
//! one results table, one standings, one TRF (the URL may instead be given
//! in `CAIPAN_STORE_URL`, which keeps a password off the command line).
//!
//! `--bom` puts a UTF-8 byte-order mark before CSV output so that Excel on
//! Chinese Windows reads the names as UTF-8. A TRF report refuses a round
//! with unfinished games (naming the tables) unless `--allow-unfinished`
//! leaves such rounds out. The library side is `::export`
//! (`export::tournament`).
//!
//! `--lang zh-Hans|zh-Hant|en|vi` words the export in that language over
//! the hall's own (`[tournament] language` in the config copy, which
//! `--store` reads from the database's copy as well): the HTML pages'
//! headings and end reasons, the pairings in it with English beside it,
//! the results' `reason_text` CSV column and JSON key. With neither the
//! export is worded as before (Chinese and English side by side). The
//! locale does not choose an export's language: a file's words do not
//! change with who ran the command.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use ::export::{self, Format, RenderOptions, Rendered};
use anyhow::{bail, Context};

/// An export format as clap completes and checks it: the names of
/// [`Format::ALL`], so the library's list is the only one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FormatArg(Format);

static FORMATS: std::sync::LazyLock<Vec<FormatArg>> =
    std::sync::LazyLock::new(|| Format::ALL.iter().map(|(_, f)| FormatArg(*f)).collect());

impl clap::ValueEnum for FormatArg {
    fn value_variants<'a>() -> &'a [Self] {
        &FORMATS
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        Format::ALL
            .iter()
            .find(|(_, f)| *f == self.0)
            .map(|(name, _)| clap::builder::PossibleValue::new(*name))
    }
}

/// The UTF-8 byte-order mark `--bom` writes first.
const BOM: &str = "\u{FEFF}";

/// Arguments of `caipan export`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The hall's data directory (the server's `data_dir`), for a hall on
    /// SQLite.
    #[arg(
        long,
        required_unless_present = "tournament",
        conflicts_with = "tournament"
    )]
    data: Option<PathBuf>,
    /// The PostgreSQL database of the halls (default: CAIPAN_STORE_URL).
    #[arg(long, requires = "tournament")]
    store: Option<String>,
    /// The tournament (its `[store] tournament` id) to export across its
    /// halls in the database.
    #[arg(long)]
    tournament: Option<String>,
    /// Round to export.
    #[arg(long)]
    round: u32,
    /// What to write.
    #[arg(long, value_enum)]
    format: FormatArg,
    /// Output: a folder for pgn, a file for the others (default: stdout).
    #[arg(long)]
    out: Option<PathBuf>,
    /// The hall config, when the data dir has no copy of it.
    #[arg(long)]
    config: Option<PathBuf>,
    /// CSV formats: write a UTF-8 byte-order mark first (Excel on Chinese
    /// Windows then shows the names).
    #[arg(long)]
    bom: bool,
    /// TRF: leave out rounds whose games are not all finished instead of
    /// refusing the export.
    #[arg(long)]
    allow_unfinished: bool,
    /// The export's language: zh-Hans, zh-Hant, en or vi (zh is zh-Hans);
    /// default: the hall's `[tournament] language`, else Chinese and
    /// English as before.
    #[arg(long)]
    lang: Option<i18n::Lang>,
}

/// The environment variable `--tournament` reads the database URL from
/// when `--store` is not given.
pub const STORE_URL_ENV: &str = "CAIPAN_STORE_URL";

/// Runs `caipan export`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let FormatArg(format) = args.format;
    let csv = matches!(format, Format::Csv | Format::StandingsCsv);
    if args.bom && !csv {
        bail!("--bom is for the CSV formats (csv, standings-csv)");
    }
    if args.allow_unfinished && format != Format::Trf {
        bail!("--allow-unfinished is for --format trf");
    }
    let options = RenderOptions {
        allow_unfinished: args.allow_unfinished,
        lang: args.lang,
    };
    if format.is_folder() && args.out.is_none() {
        bail!("--format pgn writes one file per game: give a folder with --out DIR");
    }
    let rendered = match (&args.data, &args.tournament) {
        (Some(data), _) => {
            let config = export::stored::load_hall(data, args.config.as_deref())
                .with_context(|| format!("data dir {}", data.display()))?;
            export::render(data, &config, args.round, format, options)?
        }
        (None, Some(tournament)) => {
            if args.config.is_some() {
                bail!("--config is for --data: the halls' configs are in the database");
            }
            let url = match &args.store {
                Some(u) => u.clone(),
                None => std::env::var(STORE_URL_ENV).map_err(|_| {
                    anyhow::anyhow!("give the database with --store URL or {STORE_URL_ENV}")
                })?,
            };
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .context("tokio runtime")?;
            let halls = rt.block_on(async {
                let db = store::PgDatabase::connect(&url, None).await?;
                export::tournament::load(&db, tournament).await
            })?;
            eprintln!(
                "tournament {tournament}: halls {}",
                halls
                    .iter()
                    .map(|h| h.hall_id.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            export::tournament::render(&halls, args.round, format, options)?
        }
        (None, None) => bail!("give --data DIR, or --store URL --tournament ID"),
    };
    let rendered = match rendered {
        Rendered::Single(text) if args.bom => Rendered::Single(format!("{BOM}{text}")),
        other => other,
    };
    match (rendered, args.out) {
        (Rendered::Single(text), None) => {
            let mut out = std::io::stdout().lock();
            out.write_all(text.as_bytes())?;
            out.flush()?;
        }
        (Rendered::Single(text), Some(path)) => {
            proto::durable::write_atomic(&path, text.as_bytes())
                .with_context(|| format!("writing {}", path.display()))?;
            eprintln!("wrote {}", path.display());
        }
        (Rendered::Files(files), Some(dir)) => {
            std::fs::create_dir_all(&dir)
                .with_context(|| format!("creating folder {}", dir.display()))?;
            for (name, text) in &files {
                let path = dir.join(name);
                proto::durable::write_atomic(&path, text.as_bytes())
                    .with_context(|| format!("writing {}", path.display()))?;
            }
            eprintln!("wrote {} game records to {}", files.len(), dir.display());
        }
        (Rendered::Files(_), None) => {
            bail!("--format pgn writes one file per game: give a folder with --out DIR")
        }
    }
    Ok(ExitCode::SUCCESS)
}
