//! Competition rules: AXF 2008 repetition rulings, natural move limit, clocks, fouls, scoring. Pure.
