//! Xiangqi rules of play: board, FEN, legal moves, notations, PGN, perft. Pure, no I/O.
