"""Properties of the record and frame codecs (hypothesis), on CPython."""
from hypothesis import given, settings, strategies as st

from playboard import link as L
from playboard.record.codec import encode_record
from playboard.record.read import parse_game

moves = st.lists(st.text(alphabet="0123456789x-:", min_size=1, max_size=12), max_size=40)


def _game(ms, tags):
    data = encode_record(0x47, "toguz\x00u1\x00")
    for k, v in tags.items():
        data += encode_record(0x54, k + "\x00" + v)
    for m in ms:
        data += encode_record(0x4D, m)
    return data


@settings(max_examples=150, deadline=None)
@given(moves, st.dictionaries(st.text("abcXYZ", min_size=1, max_size=5), st.text(max_size=20), max_size=3),
       st.data())
def test_any_cut_or_flip_gives_a_prefix_of_the_moves(ms, tags, data):
    raw = _game(ms, tags)
    full = parse_game(raw)
    assert full.moves == ms and full.tags == tags and full.problem is None
    cut = data.draw(st.integers(0, len(raw)))
    g = parse_game(raw[:cut])
    assert g.moves == ms[:len(g.moves)]
    if cut < len(raw):
        flip = data.draw(st.integers(0, len(raw) - 1))
        bad = bytearray(raw)
        bad[flip] ^= data.draw(st.integers(1, 255))
        g = parse_game(bytes(bad))
        assert g.moves == ms[:len(g.moves)] or g.name is None
        assert g.problem is not None or g.name is None


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 255), st.sampled_from("HSLFARWVPGT"), st.binary(max_size=L.MAX_PAYLOAD))
def test_frames_round_trip_and_hold_no_control_byte(seq, t, payload):
    fr = L.encode_frame(seq, t, payload)
    assert all(b >= 0x20 for b in fr[1:-1])
    dec = L.Decoder()
    res = [dec.feed(b) for b in fr]
    assert res[-1] == 1 and res.count(1) == 1 and -1 not in res
    assert (dec.seq, chr(dec.type), bytes(dec.payload())) == (seq, t, payload)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=600))
def test_decoder_never_raises_on_noise(noise):
    dec = L.Decoder()
    for b in noise:
        r = dec.feed(b)
        assert r in (-1, 0, 1)
        if r == -1:
            assert dec.err in ("control", "escape", "short", "crc", "oversized", "truncated", "garbled")
