//! Reading the text files users hand to subcommands (PGN archives): UTF-8
//! with or without a byte-order mark, or GB18030/GBK, detected by
//! `xiangqi::encoding`; an error names the file and the line.

use anyhow::Context as _;
use std::path::Path;

/// The text of `path`, decoded from whichever of the supported encodings it is in.
pub fn read_text(path: &Path) -> anyhow::Result<String> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    let decoded =
        xiangqi::encoding::decode(&bytes).with_context(|| format!("{}", path.display()))?;
    tracing::debug!(file = %path.display(), encoding = decoded.encoding, "decoded");
    Ok(decoded.text.into_owned())
}
