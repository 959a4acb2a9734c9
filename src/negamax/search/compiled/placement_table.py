"""The placement kernel's transposition table: keys scrambled and split into a bucket and
a stored quotient, entries packed into one 64-bit word (bounds, best slot, work, tag) and
replaced by the work they hold (``placement_kernel`` documents the entry)."""

from __future__ import annotations

from numba import njit

from negamax.search.compiled.placement_layout import (
    ENTRY_BITS,
    IDENTITY_SHIFT,
    KEY_FACTOR,
    MAX_KEY_BITS,
    MAX_SLOTS,
    MIN_LAYOUT_KEY_BITS,
    PLY_BUFFERS,
    SCORE_OFFSET,
    SCRATCH,
    STATE_BUCKET_MASK,
    STATE_TABLE_SHIFT,
    STATE_TAG,
    TABLE_BASE,
    WORK_SHIFT,
)


@njit(cache=True, inline="always")
def popcount(bits: int) -> int:
    bits = bits - ((bits >> 1) & 0x5555555555555555)
    bits = (bits & 0x3333333333333333) + ((bits >> 2) & 0x3333333333333333)
    bits = (bits + (bits >> 4)) & 0x0F0F0F0F0F0F0F0F
    return (bits * 0x0101010101010101) >> 56 & 0xFF


def table_length(bits: int) -> int:
    """The length of the ``table`` array for a transposition table of ``2**bits`` entries."""
    return TABLE_BASE + (1 << bits)


def layout_key_bits(key_bits: int) -> int:
    """The key width the table is laid out for: the game's, but at least
    ``MIN_LAYOUT_KEY_BITS``, so that the stored quotient never has a negative width (a
    3x3 game's 18-bit keys in a table of 2**23 entries)."""
    return max(key_bits, MIN_LAYOUT_KEY_BITS)


def table_shift_for(bits: int, key_bits: int) -> int:
    """``work[STATE_TABLE_SHIFT]`` for a table of ``2**bits`` entries and keys of
    ``key_bits`` bits."""
    return layout_key_bits(key_bits) + 1 - bits


def bucket_index(key: int, bits: int, key_bits: int) -> int:
    """Where ``bucket_of`` puts ``key`` in a table of ``2**bits`` entries."""
    product = (key * KEY_FACTOR) & ((1 << MAX_KEY_BITS) - 1)
    return TABLE_BASE + (((product >> table_shift_for(bits, key_bits)) & ((1 << (bits - 1)) - 1)) << 1)


def tag_bits(bits: int, key_bits: int) -> int:
    """The bits left for the tag in an entry of a table of ``2**bits`` entries: the quotient
    takes ``key_bits + 1 - bits``, the bounds, slot and work ``IDENTITY_SHIFT``."""
    return min(bits - 8, ENTRY_BITS - IDENTITY_SHIFT - table_shift_for(bits, key_bits))


def max_tag(bits: int, key_bits: int) -> int:
    """The last tag a table of ``2**bits`` entries can tell apart for keys of ``key_bits``
    bits (at least ``min_table_bits(key_bits)``). With one tag bit (64-bit keys in a table
    of 2**24 entries) every new tag empties the table by rewriting it."""
    return (1 << tag_bits(bits, key_bits)) - 1


def min_table_bits(key_bits: int) -> int:
    """The smallest table (as bits) whose entries keep a tag beside the quotient of keys of
    ``key_bits`` bits: 64-bit keys need ``2**24`` entries (128 MiB)."""
    return layout_key_bits(key_bits) + 1 + IDENTITY_SHIFT - ENTRY_BITS + 1


@njit(cache=True, inline="always")
def bucket_of(key, work):  # type: ignore[no-untyped-def]
    """``(index, identity)``: the table index of the key's bucket, and what its entry holds
    from bit ``IDENTITY_SHIFT`` on. The key is scrambled by a multiplication that wraps
    modulo ``2**64``: its low ``key_bits`` bits are a bijection of the key, the bucket the
    top ``bits - 1`` of those and the stored quotient the rest."""
    scrambled = key * KEY_FACTOR
    shift = work[STATE_TABLE_SHIFT]
    index = TABLE_BASE + (((scrambled >> shift) & work[STATE_BUCKET_MASK]) << 1)
    return index, (work[STATE_TAG] << shift) | (scrambled & ((1 << shift) - 1))


@njit(cache=True, inline="always")
def ply_buffers(moves):  # type: ignore[no-untyped-def]
    """Where the per-ply buffers of a node with ``moves`` stones start in ``work``: its
    ordered moves, then their scores, their slots, the winning cells each leaves the
    mover, and their table entries' bucket and identity (``MAX_SLOTS`` each)."""
    return SCRATCH + moves * PLY_BUFFERS * MAX_SLOTS


@njit(cache=True, inline="always")
def find_entry(index, identity, table):  # type: ignore[no-untyped-def]
    """The entry of the bucket at ``index`` that holds ``identity`` (0: neither)."""
    entry = table[index]
    if entry >> IDENTITY_SHIFT == identity:
        return entry
    entry = table[index + 1]
    if entry >> IDENTITY_SHIFT == identity:
        return entry
    return 0


@njit(cache=True, inline="always")
def node_store(index, identity, best, best_slot, alpha_original, beta, nodes, table, work):  # type: ignore[no-untyped-def]
    """Step 10. Store what was proven (by a search of ``nodes`` nodes), merged with what is
    known of the same position."""
    first = table[index]
    second = table[index + 1]
    if second >> IDENTITY_SHIFT == identity:
        index += 1
        entry = second
    elif first >> IDENTITY_SHIFT == identity:
        entry = first
    else:
        # Keep the entry that cost more to find, unless it is another solve's.
        tag = work[STATE_TAG]
        shift = IDENTITY_SHIFT + work[STATE_TABLE_SHIFT]
        first_work = (first >> WORK_SHIFT) & 31 if first >> shift == tag else -1
        second_work = (second >> WORK_SHIFT) & 31 if second >> shift == tag else -1
        if second_work < first_work:
            index += 1
        entry = 0
    if entry != 0:
        lower = (entry & 63) - SCORE_OFFSET
        upper = ((entry >> 6) & 63) - SCORE_OFFSET
    else:
        lower = -SCORE_OFFSET
        upper = SCORE_OFFSET - 1
    if best <= alpha_original:
        upper = min(upper, best)
    elif best >= beta:
        lower = max(lower, best)
    else:
        lower = best
        upper = best
    if best <= alpha_original:
        best_slot = -1  # every move failed low: none of them is known to be best
    cost = 0
    while nodes > 1 and cost < 31:
        nodes >>= 1
        cost += 1
    table[index] = (
        (identity << IDENTITY_SHIFT)
        | (cost << WORK_SHIFT)
        | ((best_slot + 1) << 12)
        | ((upper + SCORE_OFFSET) << 6)
        | (lower + SCORE_OFFSET)
    )


@njit(cache=True, inline="always")
def set_table_shift(spec, table, work):  # type: ignore[no-untyped-def]
    """Set ``work[STATE_TABLE_SHIFT]`` and ``work[STATE_BUCKET_MASK]`` for this ``table``
    array and the game of ``spec`` (whose keys fit ``spec.key_bits`` bits)."""
    bits = 0
    while TABLE_BASE + (2 << bits) <= table.shape[0]:
        bits += 1
    work[STATE_TABLE_SHIFT] = max(spec.key_bits, MIN_LAYOUT_KEY_BITS) + 1 - bits  # table_shift_for(bits, key_bits)
    work[STATE_BUCKET_MASK] = (1 << (bits - 1)) - 1
