/* trace_io.c - buffered input (plain or zstd) and a zstd-compressing FILE. */
#include "trace_io.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>
#include <zstd_errors.h>

#define INBUF_CAP (256u << 10)	    /* large reads keep the syscalls rare */
#define INBUF_MAX_CAP (16u << 20)   /* longest line or record we accept */

static const unsigned char zstd_magic[4] = {0x28, 0xb5, 0x2f, 0xfd};

struct ss_zin {
	ZSTD_DCtx *dctx;
	unsigned char *in;
	size_t in_pos, in_len, in_cap;
	int in_eof;
	size_t frame_left; /* last ZSTD_decompressStream() hint: 0 = frame done */
};

/* Read up to n bytes of the stream, copying them to the tee if any (a
 * failed copy fails the read: the second reading would miss them). */
static int raw_read(struct ss_inbuf *b, unsigned char *dst, size_t n, size_t *got)
{
	*got = fread(dst, 1, n, b->fp);
	if (*got < n && ferror(b->fp))
		return -1;
	if (b->tee && *got && fwrite(dst, 1, *got, b->tee) != *got) {
		b->tee_failed = 1;
		return -1;
	}
	return 0;
}

/* The error of a failed raw_read(), errno still its. */
static int read_failed(const struct ss_inbuf *b, const char *path, struct ss_error *err)
{
	if (b->tee_failed)
		return ss_errorf(err, "%s: cannot keep a copy for a second reading: %s", path,
				 strerror(errno));
	return ss_errorf(err, "%s: read error: %s", path, strerror(errno));
}

static int zin_init(struct ss_inbuf *b)
{
	struct ss_zin *z = calloc(1, sizeof(*z));

	if (!z)
		return -1;
	z->in_cap = ZSTD_DStreamInSize();
	if (z->in_cap < b->len)
		z->in_cap = b->len;
	z->in = malloc(z->in_cap);
	z->dctx = ZSTD_createDCtx();
	if (!z->in || !z->dctx) {
		free(z->in);
		ZSTD_freeDCtx(z->dctx);
		free(z);
		return -1;
	}
	/* the bytes already read are compressed input, not data */
	memcpy(z->in, b->buf, b->len);
	z->in_len = b->len;
	z->in_eof = b->eof;
	z->frame_left = 1;
	b->len = 0;
	b->eof = 0;
	b->z = z;
	return 0;
}

/* The first bytes of b->fp: plain or zstd. */
static int start(struct ss_inbuf *b, const char *path, struct ss_error *err)
{
	size_t got;

	if (raw_read(b, b->buf, b->cap, &got)) {
		read_failed(b, path, err);
		ss_inbuf_close(b);
		return -1;
	}
	b->len = got;
	b->eof = got < b->cap;
	if (got >= sizeof(zstd_magic) && !memcmp(b->buf, zstd_magic, sizeof(zstd_magic)) &&
	    zin_init(b)) {
		ss_inbuf_close(b);
		return ss_errorf(err, "%s: out of memory", path);
	}
	return 0;
}

static int init(struct ss_inbuf *b, const char *path, struct ss_error *err)
{
	memset(b, 0, sizeof(*b));
	b->cap = INBUF_CAP;
	b->max_cap = INBUF_MAX_CAP;
	b->buf = malloc(b->cap);
	return b->buf ? 0 : ss_errorf(err, "%s: out of memory", path);
}

int ss_inbuf_open(struct ss_inbuf *b, const char *path, struct ss_error *err)
{
	if (init(b, path, err))
		return -1;
	b->fp = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	if (!b->fp) {
		int e = errno;

		ss_inbuf_close(b);
		return ss_errorf(err, "%s: cannot open trace: %s", path, strerror(e));
	}
	b->own_fp = b->fp != stdin;
	return start(b, path, err);
}

int ss_inbuf_open_stream(struct ss_inbuf *b, FILE *fp, FILE *tee, const char *path,
			 struct ss_error *err)
{
	if (init(b, path, err))
		return -1;
	b->fp = fp;
	b->tee = tee;
	return start(b, path, err);
}

void ss_inbuf_close(struct ss_inbuf *b)
{
	if (b->fp && b->own_fp)
		fclose(b->fp);
	if (b->z) {
		ZSTD_freeDCtx(b->z->dctx);
		free(b->z->in);
		free(b->z);
	}
	free(b->buf);
	memset(b, 0, sizeof(*b));
}

/* Decompress into buf[len .. cap); sets eof at the end of the input. */
static int zin_refill(struct ss_inbuf *b, const char *path, struct ss_error *err)
{
	struct ss_zin *z = b->z;
	ZSTD_outBuffer out = {b->buf, b->cap, b->len};

	while (out.pos < out.size) {
		ZSTD_inBuffer in = {z->in, z->in_len, z->in_pos};
		size_t rc, before = out.pos;

		if (z->in_pos == z->in_len && !z->in_eof) {
			size_t got;

			if (raw_read(b, z->in, z->in_cap, &got))
				return read_failed(b, path, err);
			z->in_pos = 0;
			z->in_len = got;
			z->in_eof = got < z->in_cap;
			continue;
		}
		/* called with no input too: the decoder may hold output back */
		rc = ZSTD_decompressStream(z->dctx, &out, &in);
		if (ZSTD_isError(rc) && ZSTD_getErrorCode(rc) == ZSTD_error_checksum_wrong)
			return ss_errorf(err, "%s: zstd content checksum mismatch: the trace is corrupt",
					 path);
		if (ZSTD_isError(rc))
			return ss_errorf(err, "%s: bad zstd data: %s", path,
					 ZSTD_getErrorName(rc));
		if (in.pos == z->in_pos && out.pos == before)
			break; /* input exhausted, nothing held back */
		z->in_pos = in.pos;
		z->frame_left = rc;
	}
	b->len = out.pos;
	if (out.pos < out.size) {
		if (z->frame_left)
			return ss_errorf(err, "%s: truncated zstd stream", path);
		b->eof = 1;
	}
	return 0;
}

static int plain_refill(struct ss_inbuf *b, const char *path, struct ss_error *err)
{
	size_t got;

	if (raw_read(b, b->buf + b->len, b->cap - b->len, &got))
		return read_failed(b, path, err);
	b->len += got;
	if (b->len < b->cap)
		b->eof = 1;
	return 0;
}

/* Move the unread bytes to the front of the buffer. */
static void slide(struct ss_inbuf *b)
{
	memmove(b->buf, b->buf + b->pos, b->len - b->pos);
	b->base += b->pos;
	b->len -= b->pos;
	b->pos = 0;
}

ssize_t ss_inbuf_fill(struct ss_inbuf *b, size_t n, const char *path,
		      struct ss_error *err)
{
	while (ss_inbuf_avail(b) < n && !b->eof) {
		if (n > b->cap) {
			size_t cap = b->cap;
			unsigned char *nb;

			while (cap < n)
				cap *= 2;
			if (cap > b->max_cap)
				cap = b->max_cap;
			if (cap <= b->cap)
				return ss_errorf(err, "%s: record or line longer than %zu bytes",
						 path, b->max_cap);
			nb = realloc(b->buf, cap);
			if (!nb)
				return ss_errorf(err, "%s: out of memory", path);
			b->buf = nb;
			b->cap = cap;
		}
		if (b->pos)
			slide(b);
		if (b->z ? zin_refill(b, path, err) : plain_refill(b, path, err))
			return -1;
	}
	return (ssize_t)ss_inbuf_avail(b);
}

/* Make buf[len] writable, so the last unterminated line can get its NUL. */
static int room_after(struct ss_inbuf *b)
{
	unsigned char *nb;

	if (b->len < b->cap)
		return 0;
	if (b->pos) {
		slide(b);
		return 0;
	}
	nb = realloc(b->buf, b->cap + 1);
	if (!nb)
		return -1;
	b->buf = nb;
	b->cap++;
	return 0;
}

int ss_inbuf_line(struct ss_inbuf *b, char **line, size_t *len,
		  const char *path, struct ss_error *err)
{
	size_t scanned = 0;

	for (;;) {
		char *start = (char *)b->buf + b->pos;
		size_t avail = ss_inbuf_avail(b);
		char *nl = memchr(start + scanned, '\n', avail - scanned);

		if (nl || (b->eof && avail)) {
			*len = nl ? (size_t)(nl - start) : avail;
			if (!nl) { /* the last line, without a newline */
				if (room_after(b))
					return ss_errorf(err, "%s: out of memory", path);
				start = (char *)b->buf + b->pos;
			}
			start[*len] = '\0';
			b->pos += nl ? *len + 1 : *len;
			b->cut = !nl;
			b->lines++;
			*line = start;
			return 1;
		}
		if (b->eof)
			return 0;
		if (avail >= b->max_cap) /* the fill below would fail unnamed */
			return ss_errorf(err, "%s:%lu: line longer than %zu bytes",
					 path, b->lines + 1, b->max_cap);
		scanned = avail;
		if (ss_inbuf_fill(b, avail + 1, path, err) < 0)
			return -1;
	}
}

/* ---- zstd output through fopencookie ---- */

struct zout {
	FILE *sink;
	ZSTD_CCtx *cctx;
	unsigned char *out;
	size_t out_cap;
	int failed; /* the errno of the failed write (ENOSPC, EFBIG...), or 0 */
};

static int zout_drain(struct zout *z, ZSTD_inBuffer *in, ZSTD_EndDirective mode)
{
	size_t left;

	do {
		ZSTD_outBuffer out = {z->out, z->out_cap, 0};

		left = ZSTD_compressStream2(z->cctx, &out, in, mode);
		if (ZSTD_isError(left)) {
			z->failed = EIO;
			return -1;
		}
		if (fwrite(z->out, 1, out.pos, z->sink) != out.pos) {
			z->failed = errno ? errno : EIO;
			return -1;
		}
	} while (mode == ZSTD_e_end ? left != 0 : in->pos < in->size);
	return 0;
}

static ssize_t zout_write(void *cookie, const char *data, size_t n)
{
	struct zout *z = cookie;
	ZSTD_inBuffer in = {data, n, 0};

	if (z->failed || zout_drain(z, &in, ZSTD_e_continue)) {
		errno = z->failed;
		return -1;
	}
	return (ssize_t)n;
}

static int zout_close(void *cookie)
{
	struct zout *z = cookie;
	ZSTD_inBuffer in = {NULL, 0, 0};
	int rc = z->failed || zout_drain(z, &in, ZSTD_e_end) ? -1 : 0;
	int e = z->failed ? z->failed : EIO;

	ZSTD_freeCCtx(z->cctx);
	free(z->out);
	free(z);
	if (rc)
		errno = e;
	return rc;
}

FILE *ss_zstd_wopen(FILE *sink, int level)
{
	cookie_io_functions_t io = {.write = zout_write, .close = zout_close};
	struct zout *z = calloc(1, sizeof(*z));
	FILE *fp;

	if (!z)
		return NULL;
	z->sink = sink;
	z->out_cap = ZSTD_CStreamOutSize();
	z->out = malloc(z->out_cap);
	z->cctx = ZSTD_createCCtx();
	if (!z->out || !z->cctx ||
	    ZSTD_isError(ZSTD_CCtx_setParameter(z->cctx, ZSTD_c_compressionLevel, level)) ||
	    /* a content checksum (XXH64) closes every frame: the reader's
	     * ZSTD_decompressStream() then refuses a corrupted trace instead
	     * of replaying other figures */
	    ZSTD_isError(ZSTD_CCtx_setParameter(z->cctx, ZSTD_c_checksumFlag, 1)))
		goto fail;
	fp = fopencookie(z, "w", io);
	if (!fp)
		goto fail;
	setvbuf(fp, NULL, _IOFBF, 128u << 10);
	return fp;
fail:
	ZSTD_freeCCtx(z->cctx);
	free(z->out);
	free(z);
	return NULL;
}
