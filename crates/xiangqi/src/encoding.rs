//! Text encodings of the files a hall is fed (棋谱 archives, pairing lists):
//! UTF-8 with or without a byte-order mark, UTF-16 with a byte-order mark,
//! and GB18030 (a superset of GBK and GB2312: what Chinese Windows and many
//! xqbase archives write).
//!
//! [`decode`] detects the encoding of a file's bytes and returns its text:
//! a byte-order mark decides when there is one; otherwise bytes that are
//! valid UTF-8 are UTF-8, and anything else must decode as GB18030 without
//! a single malformed sequence, else [`DecodeError`] names the line and byte
//! where the text stops being either. Decoding is pure (no I/O); callers read
//! the bytes and name the file in their messages.

use std::borrow::Cow;

/// A file's text and the encoding it was read in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decoded<'a> {
    /// The text, without a byte-order mark.
    pub text: Cow<'a, str>,
    /// The encoding's name: `UTF-8`, `UTF-16LE`, `UTF-16BE` or `gb18030`.
    pub encoding: &'static str,
    /// Whether the file started with a byte-order mark.
    pub bom: bool,
}

/// Bytes that are neither UTF-8 nor GB18030.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: byte {byte} is neither UTF-8 nor GB18030/GBK text")]
pub struct DecodeError {
    /// 1-based line of the first byte that is not valid UTF-8.
    pub line: usize,
    /// 0-based offset of that byte.
    pub byte: usize,
}

/// Detects the encoding of `bytes` and decodes them (see the module doc).
pub fn decode(bytes: &[u8]) -> Result<Decoded<'_>, DecodeError> {
    if let Some((encoding, bom_len)) = encoding_rs::Encoding::for_bom(bytes) {
        let body = &bytes[bom_len..];
        let text = encoding
            .decode_without_bom_handling_and_without_replacement(body)
            .ok_or_else(|| first_bad_utf8(bytes))?;
        return Ok(Decoded {
            text,
            encoding: encoding.name(),
            bom: true,
        });
    }
    if let Ok(text) = std::str::from_utf8(bytes) {
        return Ok(Decoded {
            text: Cow::Borrowed(text),
            encoding: encoding_rs::UTF_8.name(),
            bom: false,
        });
    }
    let text = encoding_rs::GB18030
        .decode_without_bom_handling_and_without_replacement(bytes)
        .ok_or_else(|| first_bad_utf8(bytes))?;
    Ok(Decoded {
        text,
        encoding: encoding_rs::GB18030.name(),
        bom: false,
    })
}

/// Where `bytes` stop being UTF-8.
fn first_bad_utf8(bytes: &[u8]) -> DecodeError {
    let byte = std::str::from_utf8(bytes)
        .err()
        .map_or(bytes.len(), |e| e.valid_up_to());
    let line = bytes[..byte].iter().filter(|&&b| b == b'\n').count() + 1;
    DecodeError { line, byte }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 胡荣华 in GBK.
    const HU_RONGHUA_GBK: &[u8] = &[0xBA, 0xFA, 0xC8, 0xD9, 0xBB, 0xAA];

    #[test]
    fn utf8_with_and_without_bom() {
        let plain = decode("[Red \"胡荣华\"]".as_bytes()).unwrap();
        assert_eq!((plain.encoding, plain.bom), ("UTF-8", false));
        let mut with_bom = vec![0xEF, 0xBB, 0xBF];
        with_bom.extend_from_slice("[Red \"胡荣华\"]".as_bytes());
        let bom = decode(&with_bom).unwrap();
        assert_eq!((bom.encoding, bom.bom), ("UTF-8", true));
        assert_eq!(bom.text, plain.text);
    }

    #[test]
    fn gbk_is_read_as_gb18030() {
        let mut bytes = b"[Red \"".to_vec();
        bytes.extend_from_slice(HU_RONGHUA_GBK);
        bytes.extend_from_slice(b"\"]\n");
        let d = decode(&bytes).unwrap();
        assert_eq!(d.encoding, "gb18030");
        assert_eq!(d.text, "[Red \"胡荣华\"]\n");
    }

    #[test]
    fn utf16_with_bom() {
        let mut bytes = vec![0xFF, 0xFE];
        for u in "炮二平五".encode_utf16() {
            bytes.extend_from_slice(&u.to_le_bytes());
        }
        let d = decode(&bytes).unwrap();
        assert_eq!((d.encoding, d.text.as_ref()), ("UTF-16LE", "炮二平五"));
    }

    #[test]
    fn neither_is_refused_with_the_line() {
        // 0xFF is never part of GB18030 text.
        let e = decode(b"[Event \"x\"]\n[Red \"\xFF\"]\n").unwrap_err();
        assert_eq!((e.line, e.byte), (2, 18));
        assert!(e.to_string().starts_with("line 2: byte 18 "), "{e}");
    }
}
