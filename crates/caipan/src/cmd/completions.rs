//! `caipan completions bash|zsh|fish|elvish|powershell` — the shell
//! completion script on stdout (clap_complete), and `caipan man [--out DIR]`
//! — the manual page (clap_mangen): `caipan.1` on stdout, or with `--out`
//! one page per subcommand (`caipan-export.1`, ...) written into DIR.
//!
//! Both read the same clap definition `main.rs` parses with, so they never
//! drift from the real arguments.

use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;

/// Arguments of `caipan completions`.
#[derive(Debug, clap::Args)]
pub struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// Arguments of `caipan man`.
#[derive(Debug, clap::Args)]
pub struct ManArgs {
    /// Write `caipan.1` and one page per subcommand into this folder
    /// instead of `caipan.1` to stdout.
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// Prints the completion script for `cmd`.
pub fn completions(args: CompletionsArgs, mut cmd: clap::Command) -> anyhow::Result<ExitCode> {
    let mut out = std::io::stdout().lock();
    clap_complete::generate(args.shell, &mut cmd, "caipan", &mut out);
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// Prints or writes the manual pages of `cmd`.
pub fn man(args: ManArgs, cmd: clap::Command) -> anyhow::Result<ExitCode> {
    match args.out {
        None => {
            let mut out = std::io::stdout().lock();
            clap_mangen::Man::new(cmd).render(&mut out)?;
            out.flush()?;
        }
        Some(dir) => {
            std::fs::create_dir_all(&dir)
                .with_context(|| format!("creating folder {}", dir.display()))?;
            clap_mangen::generate_to(cmd, &dir)
                .with_context(|| format!("writing man pages to {}", dir.display()))?;
            eprintln!("wrote man pages to {}", dir.display());
        }
    }
    Ok(ExitCode::SUCCESS)
}
