# The product board's flash storage region (frozen; mpconfigboard.h): the record's
# journal in its first JOURNAL_BYTES, then littlefs, FS_BYTES, at the stock image's
# offset 0xA0000 (firmware/playboard/record/journal.py finds the journal through this).
JOURNAL_BYTES = 16 * 1024
FS_BYTES = 1408 * 1024
