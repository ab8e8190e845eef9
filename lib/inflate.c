// SPDX-License-Identifier: GPL-2.0
/*
 * gunzip(): a gzip member (RFC 1952) around a deflate stream (RFC 1951),
 * decoded into a buffer of known size, its CRC-32 and length checked. The
 * boot archive carries user programs so (kernel/initramfs.c), a third of
 * their size, and the kernel unpacks one when it is first executed.
 *
 * Huffman codes are decoded canonically, one bit at a time: for each code
 * length, the codes of that length are consecutive, so a code of n bits is
 * in the table when it is below the first code of n bits plus their count.
 * Slow next to table lookups, but a program is unpacked once.
 */
#include <linux/kernel.h>
#include <linux/bug.h>
#include <linux/errno.h>
#include <linux/inflate.h>
#include <linux/init.h>
#include <linux/string.h>

#define MAX_BITS 15
#define MAX_LIT 288
#define MAX_DIST 30

struct huffman {
	u16 count[MAX_BITS + 1]; /* codes of each length */
	u16 symbol[MAX_LIT]; /* symbols, by code */
};

struct inflate {
	const u8 *in;
	size_t in_len, in_pos;
	u32 bitbuf;
	unsigned int bitcnt;
	u8 *out;
	size_t out_len, out_pos;
	struct huffman lit, dist;
};

static int get_bits(struct inflate *s, unsigned int n, u32 *val)
{
	while (s->bitcnt < n) {
		if (s->in_pos == s->in_len)
			return -EINVAL; /* truncated */
		s->bitbuf |= (u32)s->in[s->in_pos++] << s->bitcnt;
		s->bitcnt += 8;
	}
	*val = s->bitbuf & ((1U << n) - 1);
	s->bitbuf >>= n;
	s->bitcnt -= n;
	return 0;
}

/*
 * The canonical code of lengths[0..n): 0, or -EINVAL when the lengths ask
 * for more codes than there are (an incomplete code is allowed: a code
 * that is not in it fails decode()).
 */
static int build(struct huffman *h, const u8 *lengths, unsigned int n)
{
	u16 offs[MAX_BITS + 2];
	unsigned int i, len;
	int left = 1;

	memset(h->count, 0, sizeof(h->count));
	for (i = 0; i < n; i++)
		h->count[lengths[i]]++;
	for (len = 1; len <= MAX_BITS; len++) {
		left = (left << 1) - h->count[len];
		if (left < 0)
			return -EINVAL;
	}
	offs[1] = 0;
	for (len = 1; len <= MAX_BITS; len++)
		offs[len + 1] = offs[len] + h->count[len];
	for (i = 0; i < n; i++)
		if (lengths[i])
			h->symbol[offs[lengths[i]]++] = i;
	return 0;
}

static int decode(struct inflate *s, const struct huffman *h)
{
	int code = 0, first = 0, index = 0;
	unsigned int len;
	u32 bit;

	for (len = 1; len <= MAX_BITS; len++) {
		if (get_bits(s, 1, &bit))
			return -EINVAL;
		code |= bit;
		if (code - first < h->count[len])
			return h->symbol[index + code - first];
		index += h->count[len];
		first = (first + h->count[len]) << 1;
		code <<= 1;
	}
	return -EINVAL;
}

static const u16 len_base[29] = { 3,  4,  5,  6,   7,	8,   9,	  10,  11, 13,
				  15, 17, 19, 23,  27,	31,  35,  43,  51, 59,
				  67, 83, 99, 115, 131, 163, 195, 227, 258 };
static const u8 len_extra[29] = { 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
				  2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0 };
static const u16 dist_base[30] = { 1,	 2,    3,    4,	    5,	   7,
				   9,	 13,   17,   25,    33,	   49,
				   65,	 97,   129,  193,   257,   385,
				   513,	 769,  1025, 1537,  2049,  3073,
				   4097, 6145, 8193, 12289, 16385, 24577 };
static const u8 dist_extra[30] = { 0, 0, 0,  0,	 1,  1,	 2,  2,	 3,  3,
				   4, 4, 5,  5,	 6,  6,	 7,  7,	 8,  8,
				   9, 9, 10, 10, 11, 11, 12, 12, 13, 13 };

/* The literals and matches of a block, up to its end code (256). */
static int codes(struct inflate *s)
{
	u32 extra;
	int sym;

	for (;;) {
		size_t len, dist;

		sym = decode(s, &s->lit);
		if (sym < 0)
			return -EINVAL;
		if (sym < 256) {
			if (s->out_pos == s->out_len)
				return -ENOSPC;
			s->out[s->out_pos++] = sym;
			continue;
		}
		if (sym == 256)
			return 0;
		sym -= 257;
		if (sym >= 29 || get_bits(s, len_extra[sym], &extra))
			return -EINVAL;
		len = len_base[sym] + extra;
		sym = decode(s, &s->dist);
		if (sym < 0 || sym >= 30 ||
		    get_bits(s, dist_extra[sym], &extra))
			return -EINVAL;
		dist = dist_base[sym] + extra;
		if (dist > s->out_pos)
			return -EINVAL; /* before the start */
		if (len > s->out_len - s->out_pos)
			return -ENOSPC;
		/* Byte by byte: a match may overlap what it writes. */
		while (len--) {
			s->out[s->out_pos] = s->out[s->out_pos - dist];
			s->out_pos++;
		}
	}
}

static int stored(struct inflate *s)
{
	size_t len;

	s->bitbuf = 0; /* to the next byte */
	s->bitcnt = 0;
	if (s->in_len - s->in_pos < 4)
		return -EINVAL;
	len = s->in[s->in_pos] | s->in[s->in_pos + 1] << 8;
	if ((s->in[s->in_pos + 2] | s->in[s->in_pos + 3] << 8) !=
	    (~len & 0xffff))
		return -EINVAL;
	s->in_pos += 4;
	if (len > s->in_len - s->in_pos)
		return -EINVAL;
	if (len > s->out_len - s->out_pos)
		return -ENOSPC;
	memcpy(s->out + s->out_pos, s->in + s->in_pos, len);
	s->in_pos += len;
	s->out_pos += len;
	return 0;
}

static int fixed(struct inflate *s)
{
	u8 lengths[MAX_LIT];
	unsigned int i;

	for (i = 0; i < 144; i++)
		lengths[i] = 8;
	for (; i < 256; i++)
		lengths[i] = 9;
	for (; i < 280; i++)
		lengths[i] = 7;
	for (; i < MAX_LIT; i++)
		lengths[i] = 8;
	build(&s->lit, lengths, MAX_LIT);
	for (i = 0; i < MAX_DIST; i++)
		lengths[i] = 5;
	build(&s->dist, lengths, MAX_DIST);
	return codes(s);
}

static int dynamic(struct inflate *s)
{
	static const u8 order[19] = { 16, 17, 18, 0, 8,	 7, 9,	6, 10, 5,
				      11, 4,  12, 3, 13, 2, 14, 1, 15 };
	u8 lengths[MAX_LIT + MAX_DIST];
	u32 nlit, ndist, ncode, val, rep;
	unsigned int i;
	int sym;

	if (get_bits(s, 5, &nlit) || get_bits(s, 5, &ndist) ||
	    get_bits(s, 4, &ncode))
		return -EINVAL;
	nlit += 257;
	ndist += 1;
	ncode += 4;
	if (nlit > 286 || ndist > MAX_DIST)
		return -EINVAL;
	memset(lengths, 0, sizeof(lengths));
	for (i = 0; i < ncode; i++) {
		if (get_bits(s, 3, &val))
			return -EINVAL;
		lengths[order[i]] = val;
	}
	if (build(&s->lit, lengths, 19)) /* the code lengths' own code */
		return -EINVAL;
	for (i = 0; i < nlit + ndist;) {
		u8 fill = 0;

		sym = decode(s, &s->lit);
		if (sym < 0)
			return -EINVAL;
		if (sym < 16) {
			lengths[i++] = sym;
			continue;
		}
		if (sym == 16) {
			if (!i || get_bits(s, 2, &rep))
				return -EINVAL;
			fill = lengths[i - 1];
			rep += 3;
		} else if (sym == 17) {
			if (get_bits(s, 3, &rep))
				return -EINVAL;
			rep += 3;
		} else {
			if (get_bits(s, 7, &rep))
				return -EINVAL;
			rep += 11;
		}
		if (i + rep > nlit + ndist)
			return -EINVAL;
		while (rep--)
			lengths[i++] = fill;
	}
	if (!lengths[256]) /* no end-of-block code */
		return -EINVAL;
	if (build(&s->lit, lengths, nlit) ||
	    build(&s->dist, lengths + nlit, ndist))
		return -EINVAL;
	return codes(s);
}

static int inflate_blocks(struct inflate *s)
{
	u32 last, type;
	int ret;

	do {
		if (get_bits(s, 1, &last) || get_bits(s, 2, &type))
			return -EINVAL;
		switch (type) {
		case 0:
			ret = stored(s);
			break;
		case 1:
			ret = fixed(s);
			break;
		case 2:
			ret = dynamic(s);
			break;
		default:
			return -EINVAL;
		}
		if (ret)
			return ret;
	} while (!last);
	return 0;
}

static u32 crc_table[256] __ro_after_init;

static int __init crc_table_init(void)
{
	unsigned int i, bit;

	for (i = 0; i < 256; i++) {
		u32 c = i;

		for (bit = 0; bit < 8; bit++)
			c = (c >> 1) ^ (0xedb88320 & -(c & 1));
		crc_table[i] = c;
	}
	return 0;
}
early_initcall(crc_table_init);

/* zlib's CRC-32: reflected, polynomial 0xedb88320. */
u32 crc32_le(u32 crc, const void *data, size_t len)
{
	const u8 *p = data;

	crc = ~crc;
	while (len--)
		crc = crc_table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return ~crc;
}

#define GZ_FHCRC 0x02
#define GZ_FEXTRA 0x04
#define GZ_FNAME 0x08
#define GZ_FCOMMENT 0x10

static u32 le32(const u8 *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (u32)p[3] << 24;
}

bool is_gzip(const void *data, size_t len)
{
	const u8 *p = data;

	return len >= 18 && p[0] == 0x1f && p[1] == 0x8b && p[2] == 8;
}

size_t gzip_size(const void *data, size_t len)
{
	return is_gzip(data, len) ? le32((const u8 *)data + len - 4) : 0;
}

/* Where the deflate data starts, past the header's optional fields. */
static int gzip_header(const u8 *p, size_t len, size_t *pos)
{
	u8 flags = p[3];
	size_t i = 10;

	if (flags & 0xe0)
		return -EINVAL;
	if (flags & GZ_FEXTRA) {
		if (len - i < 2 + 8)
			return -EINVAL;
		i += 2 + (p[i] | p[i + 1] << 8);
	}
	if (flags & GZ_FNAME)
		while (i < len && p[i++])
			;
	if (flags & GZ_FCOMMENT)
		while (i < len && p[i++])
			;
	if (flags & GZ_FHCRC)
		i += 2;
	if (i + 8 > len)
		return -EINVAL;
	*pos = i;
	return 0;
}

ssize_t gunzip(const void *in, size_t in_len, void *out, size_t out_len,
	       struct inflate_work *work)
{
	struct inflate *s = (struct inflate *)work;
	const u8 *p = in;
	size_t pos;
	int ret;

	BUILD_BUG_ON(sizeof(struct inflate_work) < sizeof(struct inflate));
	if (!is_gzip(in, in_len) || gzip_header(p, in_len, &pos))
		return -EINVAL;
	*s = (struct inflate){ .in = p,
			       .in_len = in_len - 8,
			       .in_pos = pos,
			       .out = out,
			       .out_len = out_len };
	ret = inflate_blocks(s);
	if (ret)
		return ret;
	if (le32(p + in_len - 4) != s->out_pos ||
	    le32(p + in_len - 8) != crc32_le(0, out, s->out_pos))
		return -EBADMSG;
	return s->out_pos;
}
