//! `caipan paths [--hall ID] [--table N]` — where the table terminal and
//! the console keep their files on this machine: the data directory with
//! the outboxes (one folder per hall id and table), and the state
//! directory with the logs. The hall id is the one `caipan check` prints
//! and the server announces; without `--hall`/`--table` the path shows
//! the placeholders.

use std::process::ExitCode;

use table::paths;

/// Arguments of `caipan paths`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The hall id (16 hex digits, as `caipan check` prints it).
    #[arg(long)]
    pub hall: Option<String>,
    /// A table number.
    #[arg(long)]
    pub table: Option<u16>,
}

/// Runs `caipan paths`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let data = paths::data_root()?;
    let state = paths::state_root()?;
    let outbox = match (&args.hall, args.table) {
        (Some(h), Some(t)) => paths::outbox_dir(&data, h, t)?.display().to_string(),
        (Some(h), None) => {
            paths::check_hall_id(h)?;
            format!("{}/table-<N>", data.join("outbox").join(h).display())
        }
        (None, t) => format!(
            "{}/<hall-id>/table-{}",
            data.join("outbox").display(),
            t.map_or("<N>".to_string(), |t| t.to_string())
        ),
    };
    let table_log = match args.table {
        Some(t) => paths::table_log(&state, t).display().to_string(),
        None => format!("{}/table-<N>.log", state.display()),
    };
    println!("data     {}", data.display());
    println!("outbox   {outbox}");
    println!("state    {}", state.display());
    println!("logs     {table_log}");
    println!("         {}", state.join("console.log").display());
    Ok(ExitCode::SUCCESS)
}
