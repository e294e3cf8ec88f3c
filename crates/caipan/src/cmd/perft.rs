//! `caipan perft` — counts the leaf nodes of the legal move tree (perft) from the start
//! position or a FEN: the node count alone on stdout, elapsed time and nodes/s on stderr.
//! A bad FEN is an error naming the field (exit code 2).

use anyhow::Context;
use std::process::ExitCode;
use std::time::Instant;
use xiangqi::{perft_divide, perft_parallel, Position};

/// Arguments of `caipan perft`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Depth in plies.
    #[arg(long, short)]
    depth: u32,
    /// Position as a Xiangqi FEN (default: the start position).
    #[arg(long)]
    fen: Option<String>,
    /// Worker threads sharing the root moves (default: available cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Also print each root move with its count (ICCS) on stdout, before the total
    /// (runs on one thread).
    #[arg(long)]
    divide: bool,
}

/// Runs `caipan perft`.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let pos = match &args.fen {
        Some(fen) => Position::from_fen(fen).with_context(|| format!("bad FEN {fen:?}"))?,
        None => Position::new(),
    };
    let threads = if args.divide {
        1
    } else {
        args.threads.unwrap_or_else(|| {
            std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(1)
        })
    };
    let started = Instant::now();
    let nodes = if args.divide {
        let parts = perft_divide(&pos, args.depth);
        for (m, n) in &parts {
            println!("{m} {n}");
        }
        parts.iter().map(|(_, n)| n).sum()
    } else {
        perft_parallel(&pos, args.depth, threads)
    };
    let secs = started.elapsed().as_secs_f64();
    println!("{nodes}");
    eprintln!(
        "perft({}) = {nodes} in {secs:.3} s, {:.1} M nodes/s ({threads} thread{})",
        args.depth,
        nodes as f64 / secs.max(1e-9) / 1e6,
        if threads == 1 { "" } else { "s" }
    );
    Ok(ExitCode::SUCCESS)
}
