//! The seven kinds of piece (兵种), without colour.

use std::fmt;

/// A kind of piece. Order is used for table indices (King = 0 … Pawn = 6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    /// King / general (帅 for Red, 将 for Black).
    King = 0,
    /// Advisor / guard (仕, 士).
    Advisor = 1,
    /// Elephant / minister (相, 象).
    Elephant = 2,
    /// Horse (马, 傌).
    Horse = 3,
    /// Rook / chariot (车, 俥).
    Rook = 4,
    /// Cannon (炮, 砲, 包).
    Cannon = 5,
    /// Pawn / soldier (兵, 卒).
    Pawn = 6,
}

impl Role {
    /// All roles in index order.
    pub const ALL: [Role; 7] = [
        Role::King,
        Role::Advisor,
        Role::Elephant,
        Role::Horse,
        Role::Rook,
        Role::Cannon,
        Role::Pawn,
    ];

    /// 0..=6 (table index).
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The role with this index, if any.
    pub const fn from_index(i: usize) -> Option<Role> {
        if i < 7 {
            Some(Role::ALL[i])
        } else {
            None
        }
    }

    /// Upper-case FEN letter: K A B N R C P.
    pub const fn upper_char(self) -> char {
        match self {
            Role::King => 'K',
            Role::Advisor => 'A',
            Role::Elephant => 'B',
            Role::Horse => 'N',
            Role::Rook => 'R',
            Role::Cannon => 'C',
            Role::Pawn => 'P',
        }
    }

    /// The name in English texts, lower case (what `Display` writes):
    /// `king`, `advisor`, `elephant`, `horse`, `rook`, `cannon`, `pawn`.
    pub const fn name_en(self) -> &'static str {
        match self {
            Role::King => "king",
            Role::Advisor => "advisor",
            Role::Elephant => "elephant",
            Role::Horse => "horse",
            Role::Rook => "rook",
            Role::Cannon => "cannon",
            Role::Pawn => "pawn",
        }
    }

    /// Most pieces of this role one side can have (1 king, 5 pawns, 2 of the others).
    pub const fn max_count(self) -> u32 {
        match self {
            Role::King => 1,
            Role::Pawn => 5,
            _ => 2,
        }
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name_en())
    }
}
