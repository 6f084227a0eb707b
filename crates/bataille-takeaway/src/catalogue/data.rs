//! Verbatim excerpts of the documents (as converted to text), parsed by the checks.
//!
//! Kept as printed, conversion defects included: the checks parse them and report the defects.

/// Seed 003, A.I: the hand-made list of couples for the 2n rule (right-hand column).
pub(super) const LIST_2N: &str = "\
(50,1)G2 (49,1)G1 (48,1)P (48,2)P (48,3)P (48,4)P (48,5)P (48,6)P... (48,7)G13 (47,1)G1(46,1)P (46,2)G3 (45,1)G2 (44,1)G1 (43,1)P (43,2)P (43,3)P... (43,4)G8 (42,1)G2 (41,1)G1 (40,1)P (40,2)P... (40,3)G5 (39,1)G1(38,1)P (38,2)G3 (37,1)G2 (36,1)G1 \
(35,1)P (35,2)P (35,3)P (35,4)P (35,5)P (35,6)P (35,7)P (35,8) P (35,9) P(35,10)P...(35,17)G34 (34,1)G1 (33,1)P ... (33,2)G3 (32,1)G2 (31,1)G1 (30,1)P (30,2)P (30,3)P ... (30,4)G8 (29,1)G2 (28,1)G1 \
(27,1)P (27,2)P ... (27,3)G5 (26,1)G1 \
(25,1)P ... (25,2)G3 (24,1)G2 (23,1)G1 (22,1)P (22,2)P (22,3)P (22,4)P (22,5)P (22,6)P (22,7)P (22,8)P (22,9)P (22,10)P ... (22,11)G21 (21,1)G2 (20,1)G1 (19,1)P (19,2)P ... (19,3)G5 (18,1)G1 \
(17,1)P (17,2)G3 (16,1)G2 (15,1)G1 (14,1)P (14,2)P (14,3)P (14,4)P (14,5)P (14,6)P (14,7)G13 (13,1)G1 \
(12,1)P ... (12,2)G3 (11,1)G2 (10,1)G1 \
(9,1)P (9,2)P (9,3)P ... (9,4)G8 (8,1)G2 (7,1)G1 \
(6,1)P (6,2)P ... (6,3)G5 (5,1)G1 \
(4,1)P ... (4,2)G3 (3,1)G2 (2,1)G1 \
(1,n)P";

/// Seed 003, A.III: the decompositions `a = 1 + F_p1 + ...` of 2 to 31 (two columns).
pub(super) const DECOMPOSITIONS: &[&str] = &[
    "2 = 1 + F_1 (= F_2)",
    "17 = 1 + F_6 + F_3",
    "3 = 1 + F_2 (= F_3)",
    "18 = 1 + F_6 + F_3 + F_1",
    "4 = 1 + F_3",
    "19 = 1 + F_6 + F_4",
    "5 = 1 + F_3 + F_1 (= F_4)",
    "20 = 1 + F_6 + F_4 + F_1",
    "6 = 1 + F_4",
    "21 = 1 + F_6 + F_4 + F_2 (= F_7)",
    "7 = 1 + F_4 + F_1",
    "22 = 1 + F_7",
    "8 = 1 + F_4 + F_2 (= F_5)",
    "23 = 1 + F_7 + F_1",
    "9 = 1 + F_5",
    "24 = 1 + F_7 + F_2",
    "10 = 1 + F_5 + F_1",
    "25 = 1 + F_7 + F_3",
    "11 = 1 + F_5 + F_2",
    "26 = 1 + F_7 + F_3 + F_1",
    "12 = 1 + F_5 + F_3",
    "27 = 1 + F_7 + F_4",
    "13 = 1 + F_5 + F_3 + F_1 (= F_6)",
    "28 = 1 + F_7 + F_4 + F_1",
    "14 = 1 + F_6",
    "29 = 1 + F_7 + F_4 + F_2",
    "15 = 1 + F_6 + F_1",
    "30 = 1 + F_7 + F_5",
    "16 = 1 + F_6 + F_2",
    "31 = 1 + F_7 + F_5 + F_1",
];

/// Seed 003, B.II: the table of triplets `(a, b, n)` for two heaps, one printed row a line.
pub(super) const TRIPLETS: &[&str] = &[
    "(6, 1, 1)G IA (6, 2, 1)P (6, 3, 1)G IB (6, 4, 1)G 2A (6, 5, 1)G IA (6, 6, 1)P",
    "(6, 1, 2)G IA (6, 2, 2)G 4A (6, 3, 2)G IB (6, 4, 2)G 2A (6, 5, 2)G IA (6, 6, 2)P",
    "(6, 1, 3)G IA (6, 2, 3)G 4A (6, 3, 3)G IB (6, 4, 2)G 2A (6, 5, 3)G IA (6, 6, 3)P",
    "(5, 1, 1)P (5, 2, 1)G IB (5, 3, 1)G 2A (5, 4, 1)G IA (5, 5, 1)P",
    "(5, 1, 2)P (5, 2, 2)G IB (5, 3, 2)G 2A (5, 4, 2)G IA (5, 5, 2)P",
    "(5, 1, 3)G 5A (5, 2, 3)G IB (5, 3, 3)G 2A (5, 4, 3)G IA (5, 5, 3)P",
    "(4, 1, 1)G IA (4, 2, 1)G A (4, 3, 1)G IA (4, 4, 1)P",
    "(4, 1, 2)G IA (4, 2, 2)G 2A (4, 3, 2)G IA (4, 4, 2)P",
    "(3, 1, 1)P (3, 2, 1)G IA (3, 3, 1)P",
    "(3, 1, 2)G 3A (3, 2, 2)G IA (3, 3, 2)P",
    "(2, 1, 1)G 2A (2, 2, 1)P",
    "(1, 1, n)G IA",
];

/// Seed 003, B.IV: the hand-made list of couples for the n+1 rule (both columns).
pub(super) const LIST_N_PLUS_1: &str = "\
(81,1)P...(81,79)G80 (40,1)G1 \
(80,1)G1 (39,1)P (39,2)G3 \
(79,1)P (79,2)G3 (38,1)G2 \
(78,1)G2 (37,1)G1 \
(77,1)G1 (36,1)P ...(36,4)G5 \
(76,1)P ...(76,4)G5 (35,1)G1 \
(75,1)G1 (34,1)P (34,2)G3 \
(74,1)P (74,2)G3 (33,1)G2 \
(73,1)G2 (32,1)G1 \
(72,1)G1 (31,1)P (31,9)G10 \
(71,1)P ...(71,9)G10 (30,1)G1 \
(70,1)G1 (29,1)P (29,2)G3 \
(69,1)P (69,2)G3 (28,1)G2 \
(68,1)G2 (27,1)G1 \
(67,1)G1 (26,1)P ..(26,4)G5 \
(66,1)P ...(66,4)G5 (25,1)G1 \
(65,1)G1 (24,1)P (24,2)G3 \
(64,1)P (64,2)G3 (23,1)G2 \
(63,1)G2 (22,1)G1 \
(61,1)P ...(61,19)G20 (21,1)P ...(21,19)G20 \
(60,1)G1 (20,1)G1 \
(59,1)P (59,2)G3 (19,1)P (19,2)G3 \
(58,1)G2 (18,1)G2 \
(57,1)G1 (17,1)G1 \
(56,1)P ...(56,4)G5 (16,1)P ...(16,4)G5 \
(55,1)G1 (15,1)G1 \
(54,1)P (54,2)G3 (14,1)P (14,2)G3 \
(53,1)G2 (13,1)G2 \
(52,1)G1 (12,1)G1 \
(51,1)P ...(51,9)G10 (11,1)P...(11,9)G10 \
(50,1)G1 (10,1)G1 \
(49,1)P (49,2)G3 (9,1)P (9,2)G3 \
(48,1)G2 (8,1)G2 \
(47,1)G1 (7,1)G1 \
(46,1)P.. (46,4)G5 (6,1)P (6,2)P..(6,4)G5 (5,1)G1 \
(45,1)G1 (4,1)P (4,2)G3 \
(44,1)P (44,2)G3 (3,1)G2 \
(43,1)G2 (2,1)G1 \
(42,1)G1 (1,n)P \
(41,1)P ...(41,39)G40";

/// Seed 003, A.II: "la suite gagnante" for the 2n rule, heaps of 2 to 56 matches.
pub(super) const SEQUENCE_2N: &str = "1 2 3 1 5 1 2 8 1 2 3 1 13 1 2 3 1 5 1 2 21 1 2 3 1 5 1 2 8 1 2 3 1 \
34 1 2 3 1 5 1 2 8 1 2 3 1 13 1 2 3 1 5 1 2 55";

/// Seed 003, A.II: the first lines of the construction of the 2n sequence.
pub(super) const CONSTRUCTION_2N: &str = "1 2 3 1 5 1 2 8 1 2 3 1 13 1 2 3 1 5 1 2 21";

/// Seed 003, B.III: the sequence for the 3n rule, heaps of 2 to 51 matches.
pub(super) const SEQUENCE_3N: &str = "1 2 3 4 1 6 1 8 1 2 11 1 2 3 15 1 2 3 4 1 21 1 2 3 4 \
1 6 1 29 1 2 3 4 1 6 1 8 1 2 40 1 2 3 4 1 6 1 8 1 2";

/// Seed 003, B.III: the editors' guess for the terms after the 3n sequence.
pub(super) const CONTINUATION_3N: &str = "11 1 2 3 55";

/// Seed 003, B.III: the base sequence of the 3n rule.
pub(super) const BASE_3N: &str = "1 2 3 4 6 8 11 15 21 29 40 55";

/// Seed 003, B.III: the sequence for the 4n rule, heaps of 2 to 51 matches.
pub(super) const SEQUENCE_4N: &str = "1 2 3 4 5 1 7 1 9 1 2 12 1 2 15 1 2 3 19 1 2 3 4 24 1 \
2 3 4 5 1 31 1 2 3 4 5 1 7 1 40 1 2 3 4 5 1 7 1 9";

/// Seed 003, B.III: the base sequence of the 4n rule.
pub(super) const BASE_4N: &str = "1 2 3 4 5 7 9 12 15 19 24 31 40";

/// Seed 003, A.II: the Fibonacci numbers as the document lists them.
pub(super) const FIBONACCI: &str = "1 2 3 5 8 13 21 34 55 89 144 233 377 610 987";

/// Seed 004: the losing and winning stick counts of the notebook, up to 18.
pub(super) const FORT_BOYARD_LOSING: &str = "1 5 9 13 17";
/// Seed 004: the winning stick counts.
pub(super) const FORT_BOYARD_WINNING: &str = "2 3 4 6 7 8 10 11 12 14 15 16 18";
