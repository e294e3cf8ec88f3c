//! The command-line conventions of the `caipan` binary (issue 13), run as a
//! user runs them: input files in the encodings real archives and
//! spreadsheets use.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn caipan(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_caipan"))
        .args(args)
        .output()
        .expect("run caipan")
}

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/data/encoding")
        .join(name)
}

fn path_str(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

#[test]
fn a_gbk_pairings_csv_imports_equal_to_its_utf8_twin() {
    let import = |name: &str| {
        let out = caipan(&["pairings", "import", path_str(&fixture(name))]);
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        assert_eq!(out.status.code(), Some(0), "{name}: {stderr}");
        String::from_utf8(out.stdout).expect("TOML on stdout is UTF-8")
    };
    let utf8 = import("pairings-utf8.csv");
    let gbk = import("pairings-gbk.csv");
    assert_eq!(gbk, utf8);
    assert!(utf8.contains("胡荣华") && utf8.contains("赵鑫鑫"), "{utf8}");
    assert!(utf8.contains("许银川"), "{utf8}");
    // The same with a UTF-8 byte-order mark.
    let dir = tempfile::tempdir().unwrap();
    let bom = dir.path().join("bom.csv");
    let mut bytes = vec![0xEF, 0xBB, 0xBF];
    bytes.extend(std::fs::read(fixture("pairings-utf8.csv")).unwrap());
    std::fs::write(&bom, bytes).unwrap();
    let out = caipan(&["pairings", "import", path_str(&bom)]);
    assert_eq!(String::from_utf8(out.stdout).unwrap(), utf8);
}
