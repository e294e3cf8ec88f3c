//! The console's export command (控制台导出): when the chief arbiter sends
//! `ExportRound`, the server renders every [`Format`] of the current round
//! into `<data_dir>/exports/round-<N>/` and answers with the folder (an
//! absolute path, whatever the server's working directory) and the number
//! of files, and a warning when the TRF report leaves a round out (a game
//! of it not finished). The round is read from the hall's record: the SQLite
//! store in the data dir, or, for a hall on PostgreSQL (`[store]`), this
//! hall's rows and round starts in the database (the whole tournament
//! across its halls is `caipan export --store URL --tournament ID`).
//!
//! The command is stored and audited like every other command first (the
//! pipeline applies it to the hall); only once it is committed does
//! [`after_commit`] run the export, on a blocking thread (off the hall lock
//! and off the async runtime). Every file is written to a temp name,
//! fsynced and renamed, so a crash never leaves a half file; a second
//! export overwrites the first. A failure (render, disk full) is an error
//! reply naming what failed; it never stops the server.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use proto::{refusals, ErrorCode};
use tokio::sync::oneshot;

use super::tournament::{self, HallRecord};
use super::{render, ExportError, Format, RenderOptions, Rendered};
use crate::submit::Reply;
use config::HallConfig;

/// Folder under the data dir that holds the console's exports.
pub const EXPORTS_DIR: &str = "exports";

/// What the server exports from: its data dir and its config (whose
/// `[store]`, when set, names the database holding the hall's record).
#[derive(Debug)]
pub struct Source {
    data_dir: PathBuf,
    /// The config with the rounds published so far (the current round is
    /// the hall's).
    config: Mutex<HallConfig>,
    /// One export at a time (two would race on the same temp files).
    busy: Mutex<()>,
}

impl Source {
    /// The export source of a server with `config` and its store in `data_dir`.
    pub fn new(data_dir: &Path, config: HallConfig) -> Source {
        Source {
            data_dir: data_dir.to_path_buf(),
            config: Mutex::new(config),
            busy: Mutex::new(()),
        }
    }

    /// The data dir.
    pub fn data_dir(&self) -> &Path {
        &self.data_dir
    }

    /// The config as it stands (the rounds published so far included).
    pub fn config(&self) -> HallConfig {
        self.config
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    /// Adds a round published from the console; returns the config with it.
    pub fn published(&self, p: crate::export::published::Published) -> HallConfig {
        let mut c = self.config.lock().unwrap_or_else(|p| p.into_inner());
        crate::export::published::apply(&mut c, &[p]);
        c.clone()
    }

    /// Adds stored entries and withdrawals of players.
    pub fn players(&self, commands: &[proto::Command]) {
        let mut c = self.config.lock().unwrap_or_else(|p| p.into_inner());
        crate::export::published::apply_players(&mut c, commands);
    }

    /// Takes the withdrawn round `round` out again; returns the config
    /// without it (the round before is the current round).
    pub fn withdrawn(&self, round: u32) -> HallConfig {
        let mut c = self.config.lock().unwrap_or_else(|p| p.into_inner());
        crate::export::published::withdraw(&mut c, round);
        c.clone()
    }

    /// The folder round `round` is exported to.
    pub fn folder(&self, round: u32) -> PathBuf {
        round_folder(&self.data_dir, round)
    }

    /// The hall's record read from PostgreSQL when the hall is there
    /// (`None`: the record is the SQLite store in the data dir).
    pub async fn load_record(&self) -> Result<Option<HallRecord>, ExportError> {
        let config = self.config();
        let Some(sc) = &config.store else {
            return Ok(None);
        };
        let db = store::PgDatabase::connect(sc.url.expose(), sc.ca_file.as_deref()).await?;
        let record = tournament::hall_record(&db, sc.hall.clone(), config.clone()).await?;
        Ok(Some(record))
    }

    /// Renders every format of the current round into its folder, from
    /// `record` (see [`Source::load_record`]) or else the data dir.
    pub fn export_current_round(
        &self,
        record: Option<&HallRecord>,
    ) -> Result<Exported, ExportError> {
        let _one = self.busy.lock().unwrap_or_else(|p| p.into_inner());
        let config = self.config();
        let round = config.tournament.current_round;
        let dir = self.folder(round);
        let dir = std::path::absolute(&dir).unwrap_or(dir);
        let render_as = |format: Format, allow_unfinished: bool| {
            let options = RenderOptions {
                allow_unfinished,
                ..RenderOptions::default()
            };
            match record {
                Some(hall) => {
                    tournament::render(std::slice::from_ref(hall), round, format, options)
                }
                None => render(&self.data_dir, &config, round, format, options),
            }
        };
        // The rounds the TRF report leaves out (a game not finished).
        let left_out = match render_as(Format::Trf, false) {
            Err(ExportError::Unfinished(rounds)) => rounds,
            _ => Vec::new(),
        };
        let mut files = Vec::new();
        for (name, format) in Format::ALL {
            // The round may still be in play: its TRF leaves unfinished
            // rounds out rather than failing the whole export.
            let rendered = render_as(*format, true)
                .map_err(|e| ExportError::Io(format!("rendering {name}: {e}")))?;
            match rendered {
                Rendered::Single(text) => files.push((file_name(*format).to_string(), text)),
                Rendered::Files(many) => files.extend(many),
            }
        }
        std::fs::create_dir_all(&dir).map_err(|e| io_err(&dir, "creating", e))?;
        for (name, text) in &files {
            write_atomic(&dir, name, text.as_bytes())?;
        }
        Ok(Exported {
            folder: dir,
            files: files.len(),
            left_out,
        })
    }
}

/// What an export wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Exported {
    /// The folder (absolute).
    pub folder: PathBuf,
    /// Files written.
    pub files: usize,
    /// Rounds the TRF report leaves out, each with its unfinished tables.
    pub left_out: Vec<(u32, Vec<u32>)>,
}

impl Exported {
    /// The reply's words: the files and the folder, and a warning for
    /// every round the report leaves out.
    pub fn note(&self) -> String {
        let mut note = format!("exported {} files to {}", self.files, self.folder.display());
        for (round, tables) in &self.left_out {
            let tables: Vec<String> = tables.iter().map(u32::to_string).collect();
            note.push_str(&format!(
                "; warning: {} leaves out round {round} (tables {} not finished)",
                file_name(Format::Trf),
                tables.join(", ")
            ));
        }
        note
    }
}

/// `<data_dir>/exports/round-<N>`.
pub fn round_folder(data_dir: &Path, round: u32) -> PathBuf {
    data_dir.join(EXPORTS_DIR).join(format!("round-{round}"))
}

/// The file name of a single-document format in the export folder (PGN is
/// one file per game, named by [`super::pgn::file_name`]).
pub fn file_name(format: Format) -> &'static str {
    match format {
        Format::Csv => "results.csv",
        Format::Json => "results.json",
        Format::Pgn => "games.pgn",
        Format::Trf => "report.trf",
        Format::Html => "standings.html",
        Format::StandingsCsv => "standings.csv",
        Format::StandingsJson => "standings.json",
        Format::PairingsHtml => "pairings.html",
    }
}

fn io_err(path: &Path, doing: &str, e: std::io::Error) -> ExportError {
    ExportError::Io(format!("{doing} {}: {e}", path.display()))
}

/// Writes `dir/name` durably (temp file, fsync, rename, fsync of the
/// folder: proto::durable).
fn write_atomic(dir: &Path, name: &str, bytes: &[u8]) -> Result<(), ExportError> {
    // Names come from the renderer; refuse anything that would leave the folder.
    if name.is_empty() || name.contains(['/', '\\']) || name.starts_with('.') {
        return Err(ExportError::Io(format!("bad export file name {name:?}")));
    }
    proto::durable::write_atomic(&dir.join(name), bytes).map_err(|e| ExportError::Io(e.to_string()))
}

/// The reply of an export: the folder and the number of files, or the error.
pub fn export_reply(source: &Source, record: Option<&HallRecord>) -> Reply {
    match source.export_current_round(record) {
        Ok(done) => {
            let folder = done.folder.display();
            tracing::info!(%folder, files = done.files, left_out = ?done.left_out, "round exported");
            Reply::Done(Ok(done.note()))
        }
        Err(e) => {
            tracing::warn!(error = %e, "export failed");
            Reply::Done(Err((
                ErrorCode::Internal,
                refusals::export_failed(&e.to_string()),
            )))
        }
    }
}

/// Runs the export once the `ExportRound` command is committed (`committed`
/// is the pipeline's reply), and returns the receiver of the reply to send:
/// the pipeline's own reply if the command was refused or not stored.
pub fn after_commit(
    source: Arc<Source>,
    committed: oneshot::Receiver<Reply>,
) -> oneshot::Receiver<Reply> {
    let (tx, rx) = oneshot::channel();
    tokio::spawn(async move {
        let reply = match committed.await {
            Ok(Reply::Done(Ok(_))) => match source.load_record().await {
                Ok(record) => {
                    let done =
                        tokio::task::spawn_blocking(move || export_reply(&source, record.as_ref()))
                            .await;
                    match done {
                        Ok(reply) => reply,
                        Err(_) => Reply::Done(Err((
                            ErrorCode::Internal,
                            refusals::export_failed("the export task stopped"),
                        ))),
                    }
                }
                Err(e) => {
                    tracing::warn!(error = %e, "export failed: the hall's record not read");
                    Reply::Done(Err((
                        ErrorCode::Internal,
                        refusals::export_failed(&format!("reading the hall's record: {e}")),
                    )))
                }
            },
            Ok(other) => other,
            Err(_) => Reply::Done(Err((
                ErrorCode::Unavailable,
                refusals::stopped_before_storing(),
            ))),
        };
        let _ = tx.send(reply);
    });
    rx
}

#[cfg(test)]
mod tests {
    use super::*;

    const CONFIG: &str = r#"
[tournament]
name = "t"
date = "2026-11-29"
kind = "swiss"
[credentials]
table_secret = "the-table-secret-0123456789"
[credentials.chief]
name = "王志明"
token = "the-real-chief-token-0123456789"
[[round]]
number = 1
[[round.table]]
table = 1
red = "R"
black = "B"
"#;

    #[test]
    fn the_note_warns_of_every_round_left_out() {
        let mut done = Exported {
            folder: PathBuf::from("/data/exports/round-2"),
            files: 10,
            left_out: Vec::new(),
        };
        assert_eq!(done.note(), "exported 10 files to /data/exports/round-2");
        done.left_out = vec![(1, vec![4]), (2, vec![1, 3])];
        assert_eq!(
            done.note(),
            "exported 10 files to /data/exports/round-2; \
             warning: report.trf leaves out round 1 (tables 4 not finished); \
             warning: report.trf leaves out round 2 (tables 1, 3 not finished)"
        );
    }

    #[test]
    fn writes_replace_files_and_leave_no_temp() {
        let dir = tempfile::tempdir().unwrap();
        write_atomic(dir.path(), "a.csv", b"first").unwrap();
        write_atomic(dir.path(), "a.csv", b"second").unwrap();
        assert_eq!(
            std::fs::read_to_string(dir.path().join("a.csv")).unwrap(),
            "second"
        );
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from("a.csv")]);
        for bad in ["", "../x", "a/b", ".hidden"] {
            assert!(write_atomic(dir.path(), bad, b"x").is_err(), "{bad:?}");
        }
    }

    #[test]
    fn a_failed_export_is_an_error_reply_and_writes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let config = HallConfig::from_toml_str(CONFIG, dir.path(), &|_| None).unwrap();
        // No event store in this data dir: rendering fails.
        let source = Source::new(dir.path(), config);
        match export_reply(&source, None) {
            Reply::Done(Err((ErrorCode::Internal, why))) => {
                let why = i18n::texts::english(&why);
                assert!(why.starts_with("export failed: rendering csv"), "{why}");
            }
            other => panic!("{other:?}"),
        }
        assert!(!source.folder(1).exists());
        assert_eq!(source.folder(1), dir.path().join("exports").join("round-1"));
    }
}
