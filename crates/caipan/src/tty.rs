//! The screen commands (`caipan table`, `caipan console`, `caipan demo`
//! without `--headless`) draw on a terminal (TTY): started by a script or a
//! service with stdin or stdout redirected they stop at once, before any
//! connection, with exit code 2 and a message saying so, instead of failing
//! later in the middle of a hall's game.

use std::io::IsTerminal;

/// A usage error that `main` turns into exit code 2 (README "Exit codes").
#[derive(Debug)]
pub struct Usage(pub String);

impl std::fmt::Display for Usage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Usage {}

/// Ok when stdin and stdout are both a terminal; else a [`Usage`] error
/// naming `what` and which stream is not.
pub fn require(what: &str) -> anyhow::Result<()> {
    check(
        what,
        std::io::stdin().is_terminal(),
        std::io::stdout().is_terminal(),
    )
}

fn check(what: &str, stdin: bool, stdout: bool) -> anyhow::Result<()> {
    let missing = match (stdin, stdout) {
        (true, true) => return Ok(()),
        (false, true) => "stdin is not a terminal",
        (true, false) => "stdout is not a terminal",
        (false, false) => "stdin and stdout are not a terminal",
    };
    Err(Usage(format!(
        "{what} draws its screen on a terminal, but {missing} (started by a script or a service?): run it in a terminal window"
    ))
    .into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_the_stream_that_is_not_a_terminal() {
        assert!(check("caipan table", true, true).is_ok());
        let e = check("caipan table", false, true).unwrap_err();
        assert!(e.downcast_ref::<Usage>().is_some());
        assert!(e.to_string().contains("stdin is not a terminal"), "{e}");
        let e = check("caipan console", true, false).unwrap_err();
        assert!(e.to_string().starts_with("caipan console"), "{e}");
        assert!(e.to_string().contains("stdout is not"), "{e}");
    }
}
