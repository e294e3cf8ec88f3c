//! Writing HTML safely (转义): every text that came from a peer or the
//! config (names, teams, the tournament's name) goes through [`esc`] in
//! text and attributes alike, and data for the page's script goes into a
//! `<script type="application/json">` through [`json_in_script`], which
//! cannot end the element.

/// `text` with `& < > " '` escaped, for element text and quoted
/// attribute values alike (the export's escaping: the same rules serve
/// the results page).
pub use export::html::escape as esc;

/// JSON text safe inside `<script type="application/json">`: `<`, `>`
/// and `&` written as `\u003c`, `\u003e`, `\u0026` (so `</script>` or
/// `<!--` in a name cannot end or change the element), and the line
/// separators U+2028/U+2029 escaped.
pub fn json_in_script(value: &serde_json::Value) -> String {
    value
        .to_string()
        .replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026")
        .replace('\u{2028}', "\\u2028")
        .replace('\u{2029}', "\\u2029")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn peer_text_cannot_open_an_element_or_leave_an_attribute() {
        let evil = "<script>alert(1)</script>\" onmouseover='x' &amp;\u{7}";
        let e = esc(evil);
        assert!(!e.contains('<') && !e.contains('>') && !e.contains('"') && !e.contains('\''));
        assert_eq!(
            e,
            "&lt;script&gt;alert(1)&lt;/script&gt;&quot; onmouseover=&#39;x&#39; &amp;amp; "
        );
        let j = json_in_script(&serde_json::json!({ "name": "</script><!--" }));
        assert!(!j.contains('<') && !j.contains('>'), "{j}");
        let back: serde_json::Value = serde_json::from_str(&j).expect("still JSON");
        assert_eq!(back["name"], "</script><!--");
    }
}
