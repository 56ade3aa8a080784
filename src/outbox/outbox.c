/* outbox: queue of outgoing replies, crash-safe commit with the game file, flush. */
#include "base/errbuf.h"
#include "mail/mailout.h"
#include "outbox/outbox.h"

#include <assert.h>
#include <ctype.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "outbox/hosts.h"
#include "store/accounts.h"
#include "store/bounces.h"

/* The outbox takes every reply the mail layer composes. */
_Static_assert(OUTBOX_MESSAGE_MAX == MAILOUT_MESSAGE_MAX, "outbox and mailout message caps differ");

#define QUEUE_MAGIC "oustpbm-queue 1\n"
#define QUEUE_ENVELOPE_MAX (2048 + 2 * TRANSPORT_REPLY_MAX)	/* bytes before the message in a queue file */
#define QUEUE_ID_MAX OUTBOX_ID_MAX
#define HOST_MAX 64
#define PATH_BUF 512
#define RECOVER_ACCOUNTS (-1L)	/* recover(): the account batches, accounts.lock held */

struct outbox {
	struct store *st;
	char host[HOST_MAX + 1];	/* for queue ids, Maildir-safe */
	char **mine;		/* queue ids this process put into new/ (a mail's own replies) */
	size_t nmine, capmine;
	char err[OUTBOX_ERR_MAX];
};

struct outbox_batch {
	struct outbox *ob;
	long board;
	char account[IDENT_USERID_MAX + 1];	/* an account batch: the user id; "" if not */
	size_t game_len;
	uint64_t game_hash;
	char **names;		/* queue ids written into tmp/ */
	size_t n, cap;
	bool done;		/* committed or aborted */
};

/* A parsed queue file; msg points into the text it was parsed from. */
struct queue_file {
	char from[MAILADDR_MAX + 1];
	char rcpt[MAILADDR_MAX + 1];
	long board;		/* 0: none */
	char account[IDENT_USERID_MAX + 1];	/* "" unless an account batch's */
	size_t game_len;
	uint64_t game_hash;
	unsigned long attempts;	/* failed attempts so far */
	long long first;	/* time of the first failed attempt, 0: none */
	long long next;		/* no attempt before this time, 0: at once */
	char error[OUTBOX_ERROR_LINE_MAX + 1];	/* the last failure, "" if none */
	char reply[TRANSPORT_REPLY_MAX + 1];	/* the server's reply to it, lines joined by '\n', or "" */
	char host[HOSTS_NAME_MAX + 1];	/* deferred because this host was down (hosts.h), or "" */
	const char *msg;
	size_t len;
};

const char *outbox_status_str(enum outbox_status status)
{
	switch (status) {
	case OUTBOX_OK:
		return "ok";
	case OUTBOX_BAD_ADDRESS:
		return "invalid address";
	case OUTBOX_TOO_BIG:
		return "message too big";
	case OUTBOX_TIMEOUT:
		return "lock timeout";
	case OUTBOX_TEMPFAIL:
		return "temporary system error";
	case OUTBOX_IO:
		return "system error";
	}
	return "unknown status";
}

bool outbox_status_temporary(enum outbox_status status)
{
	return status == OUTBOX_TIMEOUT || status == OUTBOX_TEMPFAIL;
}

#define set_err(ob, ...) errbuf_set((ob)->err, sizeof (ob)->err, __VA_ARGS__)

/* Take over the store's message and map its status. */
static enum outbox_status from_store(struct outbox *ob, enum store_status status)
{
	if (status == STORE_OK)
		return OUTBOX_OK;
	set_err(ob, "%s", store_error(ob->st));
	switch (status) {
	case STORE_TIMEOUT:
		return OUTBOX_TIMEOUT;
	case STORE_TEMPFAIL:
		return OUTBOX_TEMPFAIL;
	case STORE_TOO_BIG:
		return OUTBOX_TOO_BIG;
	default:
		return OUTBOX_IO;
	}
}

struct store *outbox_store(const struct outbox *ob)
{
	return ob->st;
}

const char *outbox_error(const struct outbox *ob)
{
	return ob->err;
}

/* A queue id as outbox_new_id makes them: never '.'-first, no '/'. */
static bool queue_id_ok(const char *id)
{
	size_t i;

	if (id[0] == '\0' || id[0] == '.')
		return false;
	for (i = 0; id[i] != '\0'; i++) {
		char c = id[i];

		if (i >= QUEUE_ID_MAX)
			return false;
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
			c == '.' || c == '_' || c == '-'))
			return false;
	}
	return true;
}

/* Maildir unique name: time.M<usec>P<pid>Q<counter>.<host> */
static void new_id(struct outbox *ob, char *buf, size_t size)
{
	static unsigned long counter;	/* per process, whatever the outbox object */
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	snprintf(buf, size, "%lld.M%06ldP%ldQ%lu.%s", (long long)ts.tv_sec, ts.tv_nsec / 1000,
	    (long)getpid(), ++counter, ob->host);
}

/* Seconds since the id was made, -1 if the id does not start with a time. */
static long id_age(const char *id, time_t now)
{
	long long t = 0;
	size_t i;

	for (i = 0; id[i] >= '0' && id[i] <= '9' && i < 12; i++)
		t = t * 10 + (id[i] - '0');
	if (i == 0 || id[i] != '.')
		return -1;
	return now > t ? (long)(now - t) : 0;
}

enum outbox_status outbox_open(struct store *st, struct outbox **out, char *err, size_t errlen)
{
	static const char *const dirs[] = { "outbox", "outbox/tmp", "outbox/new", "outbox/failed",
		"outbox/sent" };
	enum store_status status;
	struct outbox *ob;
	size_t i;

	*out = NULL;
	ob = calloc(1, sizeof *ob);
	if (ob == NULL) {
		snprintf(err, errlen, "out of memory");
		return OUTBOX_TEMPFAIL;
	}
	ob->st = st;
	if (gethostname(ob->host, sizeof ob->host) != 0)
		snprintf(ob->host, sizeof ob->host, "localhost");
	ob->host[HOST_MAX] = '\0';
	/* Maildir names may not hold '/' or ':'; keep ids to [A-Za-z0-9._-] */
	for (i = 0; ob->host[i] != '\0'; i++) {
		char c = ob->host[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
			c == '.' || c == '-'))
			ob->host[i] = '_';
	}
	if (ob->host[0] == '\0')
		snprintf(ob->host, sizeof ob->host, "localhost");
	for (i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
		status = store_mkdir(st, dirs[i]);
		if (status != STORE_OK) {
			enum outbox_status r = from_store(ob, status);

			snprintf(err, errlen, "%s", ob->err);
			free(ob);
			return r;
		}
	}
	*out = ob;
	return OUTBOX_OK;
}

void outbox_close(struct outbox *ob)
{
	size_t i;

	if (ob == NULL)
		return;
	for (i = 0; i < ob->nmine; i++)
		free(ob->mine[i]);
	free(ob->mine);
	free(ob);
}

/* Note id as one of this process's own replies (flushed first); failing, it is only not first. */
static void note_mine(struct outbox *ob, const char *id)
{
	char *copy;

	if (ob->nmine == ob->capmine) {
		size_t ncap = ob->capmine ? ob->capmine * 2 : 8;
		char **bigger = realloc(ob->mine, ncap * sizeof *bigger);

		if (bigger == NULL)
			return;
		ob->mine = bigger;
		ob->capmine = ncap;
	}
	copy = strdup(id);
	if (copy != NULL)
		ob->mine[ob->nmine++] = copy;
}

static bool is_mine(const struct outbox *ob, const char *id)
{
	size_t i;

	for (i = 0; i < ob->nmine; i++)
		if (strcmp(ob->mine[i], id) == 0)
			return true;
	return false;
}

/* --- queue files --- */

/* Read the value of "key value\n" at *p (up to end); advances *p. */
static bool envelope_line(const char **p, const char *end, const char **key, size_t *keylen,
    const char **val, size_t *vallen)
{
	const char *nl = memchr(*p, '\n', (size_t)(end - *p));
	const char *sp;

	if (nl == NULL)
		return false;
	sp = memchr(*p, ' ', (size_t)(nl - *p));
	*key = *p;
	*keylen = (size_t)((sp != NULL ? sp : nl) - *p);
	*val = sp != NULL ? sp + 1 : nl;
	*vallen = (size_t)(nl - *val);
	*p = nl + 1;
	return true;
}

static bool parse_ulong(const char *s, size_t n, unsigned long long max, unsigned long long *out)
{
	unsigned long long v = 0;
	size_t i;

	if (n == 0 || n > 20 || (n > 1 && s[0] == '0'))
		return false;
	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		if (v > (max - (unsigned long long)(s[i] - '0')) / 10)
			return false;
		v = v * 10 + (unsigned long long)(s[i] - '0');
	}
	*out = v;
	return true;
}

static bool parse_hex64(const char *s, size_t n, uint64_t *out)
{
	uint64_t v = 0;
	size_t i;

	if (n != 16)
		return false;
	for (i = 0; i < n; i++) {
		char c = s[i];

		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (uint64_t)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (uint64_t)(c - 'a' + 10);
		else
			return false;
	}
	*out = v;
	return true;
}

static bool copy_addr(char *out, const char *s, size_t n, bool empty_ok)
{
	if (n > MAILADDR_MAX || memchr(s, '\0', n) != NULL)
		return false;
	memcpy(out, s, n);
	out[n] = '\0';
	return (empty_ok && n == 0) || mailaddr_ok(out, NULL);
}

/*
 * The retry lines (attempts, first, next, error) that a flush adds: 1 if
 * key is one of them and it was parsed, 0 if it is not one of them, -1 with
 * *why if it is damaged.
 */
static int parse_retry_line(struct queue_file *q, const char *key, size_t keylen, const char *val,
    size_t vallen, const char **why)
{
	unsigned long long v;

#define RKEY(k) (keylen == strlen(k) && memcmp(key, k, keylen) == 0)
	if (RKEY("attempts") || RKEY("first") || RKEY("next")) {
		*why = "bad retry line";
		if (!parse_ulong(val, vallen, RKEY("attempts") ? 1000000ULL : 253402300799ULL, &v))
			return -1;
		if (RKEY("attempts"))
			q->attempts = (unsigned long)v;
		else if (RKEY("first"))
			q->first = (long long)v;
		else
			q->next = (long long)v;
		return 1;
	}
	if (RKEY("error")) {
		*why = "bad error line";
		if (vallen > OUTBOX_ERROR_LINE_MAX || memchr(val, '\0', vallen) != NULL)
			return -1;
		memcpy(q->error, val, vallen);
		q->error[vallen] = '\0';
		return 1;
	}
	if (RKEY("host")) {
		size_t i;

		*why = "bad host line";
		if (vallen == 0 || vallen > HOSTS_NAME_MAX)
			return -1;
		for (i = 0; i < vallen; i++)
			if ((unsigned char)val[i] <= 0x20 || val[i] == 0x7f)
				return -1;
		memcpy(q->host, val, vallen);
		q->host[vallen] = '\0';
		return 1;
	}
	if (RKEY("reply")) {
		/* one line of the server's reply each, in order */
		size_t have = strlen(q->reply), i;

		*why = "bad reply line";
		if (have + (have > 0) + vallen > TRANSPORT_REPLY_MAX)
			return -1;
		for (i = 0; i < vallen; i++)
			if ((unsigned char)val[i] < 0x20 || val[i] == 0x7f)
				return -1;
		if (have > 0)
			q->reply[have++] = '\n';
		memcpy(q->reply + have, val, vallen);
		q->reply[have + vallen] = '\0';
		return 1;
	}
#undef RKEY
	return 0;
}

/* Parse a queue file; false with *why if it is damaged. */
static bool parse_queue(const char *text, size_t len, struct queue_file *q, const char **why)
{
	const char *p = text, *end = text + len, *key, *val;
	size_t keylen, vallen, magic = strlen(QUEUE_MAGIC);
	bool have_from = false, have_rcpt = false, have_size = false, have_commit = false;
	unsigned long long v, size = 0;
	int retry;

	memset(q, 0, sizeof *q);
	*why = "bad first line";
	if (len < magic || memcmp(text, QUEUE_MAGIC, magic) != 0)
		return false;
	p += magic;
	for (;;) {
		if (p - text > QUEUE_ENVELOPE_MAX) {
			*why = "envelope too long";
			return false;
		}
		if (!envelope_line(&p, end, &key, &keylen, &val, &vallen)) {
			*why = "envelope not ended by a blank line";
			return false;
		}
		if (keylen == 0 && vallen == 0)
			break;
#define KEY(k) (keylen == strlen(k) && memcmp(key, k, keylen) == 0)
		if (KEY("from") && !have_from) {
			have_from = true;
			*why = "bad from";
			if (!copy_addr(q->from, val, vallen, true))
				return false;
		} else if (KEY("rcpt") && !have_rcpt) {
			have_rcpt = true;
			*why = "bad rcpt";
			if (!copy_addr(q->rcpt, val, vallen, false))
				return false;
		} else if (KEY("board") && q->board == 0) {
			*why = "bad board";
			if (!ident_board_parse(val, vallen, &q->board))
				return false;
		} else if (KEY("account") && q->account[0] == '\0') {
			*why = "bad account";
			if (vallen == 0 || vallen > IDENT_USERID_MAX)
				return false;
			memcpy(q->account, val, vallen);
			q->account[vallen] = '\0';
			if (!ident_userid_ok(q->account))
				return false;
		} else if (KEY("commit") && !have_commit) {
			const char *sp = memchr(val, ' ', vallen);

			have_commit = true;
			*why = "bad commit";
			if (sp == NULL || !parse_ulong(val, (size_t)(sp - val), STORE_BOARD_FILE_MAX, &v) ||
			    !parse_hex64(sp + 1, vallen - (size_t)(sp + 1 - val), &q->game_hash))
				return false;
			q->game_len = (size_t)v;
		} else if (KEY("size") && !have_size) {
			have_size = true;
			*why = "bad size";
			if (!parse_ulong(val, vallen, OUTBOX_MESSAGE_MAX, &size))
				return false;
		} else if ((retry = parse_retry_line(q, key, keylen, val, vallen, why)) != 0) {
			if (retry < 0)
				return false;
		} else {
			*why = "unknown or repeated envelope line";
			return false;
		}
#undef KEY
	}
	if (!have_from || !have_rcpt || !have_size) {
		*why = "envelope lacks from, rcpt or size";
		return false;
	}
	if ((q->board != 0 || q->account[0] != '\0') != have_commit || (q->board != 0 && q->account[0] != '\0')) {
		*why = "board or account without commit, or commit without one of them";
		return false;
	}
	if ((size_t)(end - p) != size) {
		*why = "message size does not match";
		return false;
	}
	q->msg = p;
	q->len = (size_t)size;
	return true;
}

/* --- batches --- */

enum outbox_status outbox_batch_new(struct outbox *ob, long board, const char *game, size_t game_len,
    struct outbox_batch **out)
{
	struct outbox_batch *b;

	*out = NULL;
	if (board != 0 && (board < IDENT_BOARD_MIN || board > IDENT_BOARD_MAX)) {
		set_err(ob, "board number %ld is out of range", board);
		return OUTBOX_IO;
	}
	if (board != 0 && game_len > STORE_BOARD_FILE_MAX) {
		set_err(ob, "game text for board %ld is larger than %ld bytes", board, STORE_BOARD_FILE_MAX);
		return OUTBOX_TOO_BIG;
	}
	b = calloc(1, sizeof *b);
	if (b == NULL) {
		set_err(ob, "out of memory");
		return OUTBOX_TEMPFAIL;
	}
	b->ob = ob;
	b->board = board;
	if (board != 0) {
		b->game_len = game_len;
		b->game_hash = store_text_hash(game, game_len);
	}
	*out = b;
	return OUTBOX_OK;
}

enum outbox_status outbox_batch_new_account(struct outbox *ob, const char *userid, const char *hash,
    struct outbox_batch **out)
{
	enum outbox_status result;

	*out = NULL;
	if (!ident_userid_ok(userid) || strlen(userid) > IDENT_USERID_MAX) {
		set_err(ob, "'%s' is not a user id", userid);
		return OUTBOX_IO;
	}
	result = outbox_batch_new(ob, 0, NULL, 0, out);
	if (result != OUTBOX_OK)
		return result;
	snprintf((*out)->account, sizeof (*out)->account, "%s", userid);
	(*out)->game_len = strlen(hash);
	(*out)->game_hash = store_text_hash(hash, strlen(hash));
	return OUTBOX_OK;
}

enum outbox_status outbox_batch_add(struct outbox_batch *b, const char *from, const char *rcpt,
    const char *msg, size_t len)
{
	struct outbox *ob = b->ob;
	enum outbox_status result = OUTBOX_OK;
	char id[QUEUE_ID_MAX + 1], path[PATH_BUF], commit[64 + IDENT_USERID_MAX] = "";
	char *head = NULL, *file = NULL;
	const char *why;
	int hn;

	assert(!b->done);
	if (from[0] != '\0' && !mailaddr_ok(from, &why)) {
		set_err(ob, "sender address %s", why);
		return OUTBOX_BAD_ADDRESS;
	}
	if (!mailaddr_ok(rcpt, &why)) {
		set_err(ob, "recipient address %s", why);
		return OUTBOX_BAD_ADDRESS;
	}
	if (len > OUTBOX_MESSAGE_MAX) {
		set_err(ob, "reply to %s is larger than %ld bytes", rcpt, OUTBOX_MESSAGE_MAX);
		return OUTBOX_TOO_BIG;
	}
	if (b->n == b->cap) {
		size_t ncap = b->cap ? b->cap * 2 : 4;
		char **bigger = realloc(b->names, ncap * sizeof *bigger);

		if (bigger == NULL)
			goto nomem;
		b->names = bigger;
		b->cap = ncap;
	}
	if (b->board != 0)
		snprintf(commit, sizeof commit, "board %ld\ncommit %zu %016" PRIx64 "\n", b->board, b->game_len,
		    b->game_hash);
	else if (b->account[0] != '\0')
		snprintf(commit, sizeof commit, "account %s\ncommit %zu %016" PRIx64 "\n", b->account, b->game_len,
		    b->game_hash);
	hn = asprintf(&head, QUEUE_MAGIC "from %s\nrcpt %s\n%ssize %zu\n\n", from, rcpt, commit, len);
	if (hn < 0) {
		head = NULL;
		goto nomem;
	}
	file = malloc((size_t)hn + len + 1);
	if (file == NULL)
		goto nomem;
	memcpy(file, head, (size_t)hn);
	memcpy(file + hn, msg, len);
	new_id(ob, id, sizeof id);
	snprintf(path, sizeof path, "outbox/tmp/%s", id);
	b->names[b->n] = strdup(id);
	if (b->names[b->n] == NULL)
		goto nomem;
	result = from_store(ob, store_create_file(ob->st, path, file, (size_t)hn + len));
	if (result != OUTBOX_OK) {
		store_unlink(ob->st, path);
		free(b->names[b->n]);
		goto out;
	}
	b->n++;
	goto out;
nomem:
	set_err(ob, "out of memory");
	result = OUTBOX_TEMPFAIL;
out:
	free(file);
	free(head);
	return result;
}

enum outbox_status outbox_batch_commit(struct outbox_batch *b)
{
	struct outbox *ob = b->ob;
	char from[PATH_BUF], to[PATH_BUF];
	enum store_status status = STORE_OK;
	size_t i;

	assert(!b->done);
	b->done = true;
	for (i = 0; i < b->n && status == STORE_OK; i++) {
		snprintf(from, sizeof from, "outbox/tmp/%s", b->names[i]);
		snprintf(to, sizeof to, "outbox/new/%s", b->names[i]);
		status = store_rename(ob->st, from, to);
		if (status == STORE_OK)
			note_mine(ob, b->names[i]);
	}
	/*
	 * Those not renamed stay in tmp/, where recovery releases a board's.
	 * For the same reason a board batch needs no fsync of new/: a rename
	 * lost in a crash leaves the reply in tmp/, tagged with a game file
	 * that is durable, and recovery moves it again.
	 */
	if (status == STORE_OK && b->n > 0 && b->board == 0 && b->account[0] == '\0')
		status = store_sync_dir(ob->st, "outbox/new");
	return from_store(ob, status);
}

static void unlink_tmp(struct outbox *ob, char **names, size_t n)
{
	char path[PATH_BUF];
	size_t i;

	for (i = 0; i < n; i++) {
		snprintf(path, sizeof path, "outbox/tmp/%s", names[i]);
		store_unlink(ob->st, path);
	}
}

/*
 * Is game_len/game_hash the current content of board's game file?  *same
 * false also when there is no game file.
 */
static enum outbox_status game_matches(struct outbox *ob, long board, size_t game_len, uint64_t game_hash,
    bool *same)
{
	return from_store(ob, store_board_holds(ob->st, board, game_len, game_hash, same));
}

/*
 * Does the account userid hold the token of length len and store_text_hash
 * hash (accounts.h: a password hash, a code's hash, a new address, a
 * signoff)?  *same false also when there is no such account.  Each token
 * names one write of the account.
 */
static enum outbox_status account_matches(struct outbox *ob, const char *userid, size_t len, uint64_t hash,
    bool *same)
{
	return from_store(ob, accounts_holds(ob->st, userid, len, hash, same));
}

enum outbox_status outbox_batch_abort(struct outbox_batch *b, bool *committed)
{
	struct outbox *ob = b->ob;
	enum outbox_status result;
	bool same = false;

	assert(!b->done);
	*committed = false;
	if (b->board != 0 || b->account[0] != '\0') {
		result = b->board != 0 ? game_matches(ob, b->board, b->game_len, b->game_hash, &same) :
		    account_matches(ob, b->account, b->game_len, b->game_hash, &same);
		if (result != OUTBOX_OK)
			return result;	/* undecided: the files wait in tmp/ for recovery */
	}
	if (same) {
		*committed = true;
		return outbox_batch_commit(b);
	}
	b->done = true;
	unlink_tmp(ob, b->names, b->n);
	return OUTBOX_OK;
}

void outbox_batch_free(struct outbox_batch *b)
{
	size_t i;

	if (b == NULL)
		return;
	for (i = 0; i < b->n; i++)
		free(b->names[i]);
	free(b->names);
	free(b);
}

enum outbox_status outbox_enqueue(struct outbox *ob, const char *from, const char *rcpt, const char *msg,
    size_t len)
{
	struct outbox_batch *b = NULL;
	enum outbox_status result;
	bool committed;

	result = outbox_batch_new(ob, 0, NULL, 0, &b);
	if (result != OUTBOX_OK)
		return result;
	result = outbox_batch_add(b, from, rcpt, msg, len);
	if (result == OUTBOX_OK)
		result = outbox_batch_commit(b);
	else
		outbox_batch_abort(b, &committed);
	outbox_batch_free(b);
	return result;
}

/* --- recovery --- */

/*
 * Read and parse outbox/<dir>/<id>; *text owned by the caller.  *parsed
 * false with *why: damaged.  *gone: the file was removed meanwhile.
 */
static enum outbox_status read_queue(struct outbox *ob, const char *dir, const char *id, char **text,
    struct queue_file *q, bool *parsed, bool *gone, const char **why)
{
	char path[PATH_BUF];
	enum store_status status;
	size_t len;

	*parsed = false;
	*gone = false;
	snprintf(path, sizeof path, "outbox/%s/%s", dir, id);
	status = store_read_file(ob->st, path, OUTBOX_MESSAGE_MAX + QUEUE_ENVELOPE_MAX, text, &len);
	if (status == STORE_NOT_FOUND) {
		*gone = true;
		return OUTBOX_OK;
	}
	if (status == STORE_TOO_BIG) {
		*why = "queue file too big";
		return OUTBOX_OK;
	}
	if (status != STORE_OK)
		return from_store(ob, status);
	*parsed = parse_queue(*text, len, q, why);
	return OUTBOX_OK;
}

/* With board's lock held: tmp/<id> to new/ if its game was committed, else delete it. */
static enum outbox_status settle(struct outbox *ob, const char *id, const struct queue_file *q,
    struct outbox_stats *stats)
{
	char from[PATH_BUF], to[PATH_BUF];
	enum outbox_status result;
	enum store_status status;
	bool same;

	result = q->board != 0 ? game_matches(ob, q->board, q->game_len, q->game_hash, &same) :
	    account_matches(ob, q->account, q->game_len, q->game_hash, &same);
	if (result != OUTBOX_OK)
		return result;
	snprintf(from, sizeof from, "outbox/tmp/%s", id);
	snprintf(to, sizeof to, "outbox/new/%s", id);
	status = same ? store_rename(ob->st, from, to) : store_unlink(ob->st, from);
	if (status == STORE_NOT_FOUND)
		return OUTBOX_OK;	/* its writer committed or aborted it after we read it */
	if (status == STORE_OK) {
		if (same)
			stats->released++;
		else
			stats->discarded++;
	}
	return from_store(ob, status);
}

/*
 * Settle the tmp/ files of board (board > 0, lock held by the caller), or
 * those of account batches (RECOVER_ACCOUNTS, accounts.lock held), or with
 * board 0 of every board, and of the accounts, whose lock is free, deleting
 * junk older than OUTBOX_TMP_MAX_AGE.
 */
static enum outbox_status recover(struct outbox *ob, long board, struct outbox_stats *stats)
{
	enum outbox_status result = OUTBOX_OK, r;
	unsigned released = stats->released;
	char **names = NULL, path[PATH_BUF];
	size_t n = 0, i;
	time_t now = time(NULL);

	result = from_store(ob, store_list_dir(ob->st, "outbox/tmp", &names, &n));
	if (result != OUTBOX_OK)
		return result;
	for (i = 0; i < n; i++) {
		struct store_lock lock = STORE_LOCK_INIT;
		struct queue_file q;
		const char *why;
		char *text = NULL;
		bool parsed, gone;

		if (!queue_id_ok(names[i]))
			continue;
		r = read_queue(ob, "tmp", names[i], &text, &q, &parsed, &gone, &why);
		if (gone) {
			/* settled by another process meanwhile */
		} else if (r == OUTBOX_OK && board > 0 && parsed && q.board == board) {
			r = settle(ob, names[i], &q, stats);
		} else if (r == OUTBOX_OK && board == RECOVER_ACCOUNTS && parsed && q.account[0] != '\0') {
			r = settle(ob, names[i], &q, stats);
		} else if (r == OUTBOX_OK && board == 0 && parsed && q.account[0] != '\0') {
			enum store_status ls = store_lock_accounts(ob->st, false, &lock);

			/* held: an account change is being committed; its writer decides */
			if (ls == STORE_OK)
				r = settle(ob, names[i], &q, stats);
			else if (ls != STORE_TIMEOUT)
				r = from_store(ob, ls);
			store_unlock(&lock);
		} else if (r == OUTBOX_OK && board == 0 && parsed && q.board != 0) {
			enum store_status ls = store_trylock_board(ob->st, q.board, &lock);

			/* a busy board (STORE_TIMEOUT) has its writer at work: leave it */
			if (ls == STORE_OK)
				r = settle(ob, names[i], &q, stats);
			else if (ls != STORE_TIMEOUT)
				r = from_store(ob, ls);
			store_unlock(&lock);
		} else if (r == OUTBOX_OK && board == 0 && id_age(names[i], now) > OUTBOX_TMP_MAX_AGE) {
			/* untagged or incomplete, and long abandoned */
			snprintf(path, sizeof path, "outbox/tmp/%s", names[i]);
			r = from_store(ob, store_unlink(ob->st, path));
			if (r == OUTBOX_OK)
				stats->discarded++;
		}
		free(text);
		if (r != OUTBOX_OK && result == OUTBOX_OK)
			result = r;	/* keep going: other files may be fine */
	}
	store_free_names(names, n);
	if (stats->released != released) {
		r = from_store(ob, store_sync_dir(ob->st, "outbox/new"));
		if (result == OUTBOX_OK)
			result = r;
	}
	return result;
}

enum outbox_status outbox_recover_accounts(struct outbox *ob, struct outbox_stats *stats)
{
	struct outbox_stats local;

	memset(&local, 0, sizeof local);
	return recover(ob, RECOVER_ACCOUNTS, stats != NULL ? stats : &local);
}

enum outbox_status outbox_recover(struct outbox *ob, long board, struct outbox_stats *stats)
{
	struct outbox_stats local;

	memset(&local, 0, sizeof local);
	if (board < IDENT_BOARD_MIN || board > IDENT_BOARD_MAX) {
		set_err(ob, "board number %ld is out of range", board);
		return OUTBOX_IO;
	}
	return recover(ob, board, stats != NULL ? stats : &local);
}

/* --- flush --- */

static void log_mail3(struct outbox *ob, const struct config *cfg, const char *id, const char *rcpt,
    const char *what, const char *why, const char *more)
{
	char stamp[32];
	struct tm tm;
	time_t now = config_now(cfg);

	if (gmtime_r(&now, &tm) == NULL || strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
		snprintf(stamp, sizeof stamp, "%lld", (long long)now);
	store_log(ob->st, "%s outbox %s rcpt=%s %s: %s%s", stamp, id, rcpt[0] != '\0' ? rcpt : "?", what, why,
	    more);
}

static void log_mail(struct outbox *ob, const struct config *cfg, const char *id, const char *rcpt,
    const char *what, const char *why)
{
	log_mail3(ob, cfg, id, rcpt, what, why, "");
}

/*
 * Split a transport's why (transport.h) into q's error, its first line
 * (OUTBOX_ERROR_LINE_MAX bytes at most), and q's reply, the server's lines
 * after it; control characters but the line breaks become '?'.
 */
static void record_why(struct queue_file *q, const char *why)
{
	const char *nl = strchr(why, '\n');
	size_t i, n = nl != NULL ? (size_t)(nl - why) : strlen(why);

	for (i = 0; i < n && i < OUTBOX_ERROR_LINE_MAX; i++)
		q->error[i] = (unsigned char)why[i] < 0x20 || why[i] == 0x7f ? '?' : why[i];
	q->error[i] = '\0';
	q->reply[0] = '\0';
	if (nl == NULL)
		return;
	for (why = nl + 1, i = 0; why[i] != '\0' && i < TRANSPORT_REPLY_MAX; i++)
		q->reply[i] = why[i] == '\n' ? '\n' : (unsigned char)why[i] < 0x20 || why[i] == 0x7f ? '?' : why[i];
	q->reply[i] = '\0';
}

/*
 * The log's text of a failure: the error, then the server's reply as
 * server="...", its lines joined by \n, '"' and '\\' escaped with a
 * backslash, so no server can forge a field of the line.  Cut to size.
 */
static void why_for_log(const struct queue_file *q, char *out, size_t size)
{
	size_t n, i;

	n = (size_t)snprintf(out, size, "%s", q->error);
	if (q->reply[0] == '\0' || n + 12 >= size)
		return;
	n += (size_t)snprintf(out + n, size - n, " server=\"");
	for (i = 0; q->reply[i] != '\0' && n + 4 < size; i++) {
		if (q->reply[i] == '\n') {
			out[n++] = '\\';
			out[n++] = 'n';
			continue;
		}
		if (q->reply[i] == '"' || q->reply[i] == '\\')
			out[n++] = '\\';
		out[n++] = q->reply[i];
	}
	out[n++] = '"';
	out[n] = '\0';
}

/* Rewrite outbox/new/<id> with q's envelope, retry lines included, durably and atomically. */
static enum outbox_status rewrite_queue(struct outbox *ob, const char *id, const struct queue_file *q)
{
	char path[PATH_BUF], commit[64] = "", *head = NULL, *file = NULL;
	char replies[2 * TRANSPORT_REPLY_MAX + 8], host[HOSTS_NAME_MAX + 8] = "";
	const char *p;
	enum outbox_status result;
	size_t rn = 0;
	int hn;

	if (q->board != 0)
		snprintf(commit, sizeof commit, "board %ld\ncommit %zu %016" PRIx64 "\n", q->board, q->game_len,
		    q->game_hash);
	/* "reply LINE" for each line of the server's reply */
	for (p = q->reply; *p != '\0'; ) {
		size_t len = strcspn(p, "\n");

		rn += (size_t)snprintf(replies + rn, sizeof replies - rn, "reply %.*s\n", (int)len, p);
		p += len;
		if (*p == '\n')
			p++;
	}
	replies[rn] = '\0';
	if (q->host[0] != '\0')
		snprintf(host, sizeof host, "host %s\n", q->host);
	hn = asprintf(&head, QUEUE_MAGIC "from %s\nrcpt %s\n%ssize %zu\nattempts %lu\nfirst %lld\nnext %lld\n"
	    "%serror %s\n%s\n", q->from, q->rcpt, commit, q->len, q->attempts, q->first, q->next, host, q->error,
	    replies);
	if (hn < 0 || (file = malloc((size_t)hn + q->len + 1)) == NULL) {
		if (hn >= 0)
			free(head);
		set_err(ob, "out of memory");
		return OUTBOX_TEMPFAIL;
	}
	memcpy(file, head, (size_t)hn);
	memcpy(file + hn, q->msg, q->len);
	snprintf(path, sizeof path, "outbox/new/%s", id);
	result = from_store(ob, store_write_file(ob->st, path, file, (size_t)hn + q->len));
	free(file);
	free(head);
	return result;
}

/* The wait after the attempts-th failed attempt: 1 minute, doubling, at most 1 hour. */
static long backoff(unsigned long attempts)
{
	long wait = OUTBOX_BACKOFF_FIRST;

	while (attempts > 1 && wait < OUTBOX_BACKOFF_MAX) {
		wait *= 2;
		attempts--;
	}
	return wait < OUTBOX_BACKOFF_MAX ? wait : OUTBOX_BACKOFF_MAX;
}

static enum outbox_status move_failed(struct outbox *ob, const char *id);

/* A permanent failure: the error goes into the queue file, which moves to failed/. */
static void fail_mail(struct outbox *ob, const struct config *cfg, const char *id, struct queue_file *q,
    const char *what, const char *why, struct outbox_stats *stats, bool *removed)
{
	char logged[OUTBOX_ERROR_LINE_MAX + 2 * TRANSPORT_REPLY_MAX + 16];

	record_why(q, why);
	why_for_log(q, logged, sizeof logged);
	log_mail(ob, cfg, id, q->rcpt, what, logged);
	if (rewrite_queue(ob, id, q) != OUTBOX_OK)
		log_mail(ob, cfg, id, q->rcpt, "error not recorded", ob->err);
	if (move_failed(ob, id) == OUTBOX_OK) {
		stats->failed++;
		*removed = true;
	}
}

/*
 * A temporary failure: one more attempt, the next one after the backoff, the
 * error recorded; after retry_days since the first failed attempt the mail
 * moves to failed/.
 */
static void defer_mail(struct outbox *ob, const struct config *cfg, const char *id, struct queue_file *q,
    const char *why, const char *host, struct outbox_stats *stats, bool *removed)
{
	time_t now = config_now(cfg);
	char what[160], logged[OUTBOX_ERROR_LINE_MAX + 2 * TRANSPORT_REPLY_MAX + 16];

	/* the host was down (hosts.h): its first success makes this reply due again */
	snprintf(q->host, sizeof q->host, "%s", host != NULL ? host : "");
	q->attempts++;
	if (q->first == 0)
		q->first = (long long)now;
	q->next = (long long)now + backoff(q->attempts);
	if ((long long)now - q->first >= (long long)cfg->retry_days * 86400) {
		snprintf(what, sizeof what, "still failing after %lu attempts in %lu day%s, moved to failed/",
		    q->attempts, cfg->retry_days, cfg->retry_days == 1 ? "" : "s");
		fail_mail(ob, cfg, id, q, what, why, stats, removed);
		return;
	}
	record_why(q, why);
	why_for_log(q, logged, sizeof logged);
	snprintf(what, sizeof what, " (attempt %lu, next in %ld s)", q->attempts, backoff(q->attempts));
	log_mail3(ob, cfg, id, q->rcpt, "deferred", logged, what);
	if (rewrite_queue(ob, id, q) != OUTBOX_OK)
		log_mail(ob, cfg, id, q->rcpt, "retry state not recorded", ob->err);
	stats->deferred++;
}

/*
 * Delivered: the queue file moves to sent/ with the time of sending as its
 * modification time (what prune_sent goes by), or goes when none are kept.
 */
static enum outbox_status keep_sent(struct outbox *ob, const struct config *cfg, const char *id)
{
	char from[PATH_BUF], to[PATH_BUF], abs[PATH_BUF + 4096];
	struct timespec ts[2];
	enum outbox_status result;

	snprintf(from, sizeof from, "outbox/new/%s", id);
	if (cfg->sent_keep_days == 0)
		return from_store(ob, store_unlink(ob->st, from));
	snprintf(to, sizeof to, "outbox/sent/%s", id);
	result = from_store(ob, store_rename(ob->st, from, to));
	if (result != OUTBOX_OK)
		return result;
	snprintf(abs, sizeof abs, "%s/%s", store_home(ob->st), to);
	ts[0].tv_sec = ts[1].tv_sec = config_now(cfg);
	ts[0].tv_nsec = ts[1].tv_nsec = 0;
	utimensat(AT_FDCWD, abs, ts, 0);	/* failing, the copy is kept for its queue time instead */
	return OUTBOX_OK;
}

/*
 * Remove the copies in sent/ older than sent_keep_days, at most once per
 * OUTBOX_PRUNE_EVERY: a busy server keeps thousands, and looking at each on
 * every mail cost milliseconds.  The time of the last pass is the
 * modification time of outbox/.pruned.
 */
static void prune_sent(struct outbox *ob, const struct config *cfg, struct outbox_stats *stats)
{
	time_t now = config_now(cfg);
	long long limit = (long long)now - (long long)cfg->sent_keep_days * 86400;
	char **names = NULL, abs[PATH_BUF + 4096];
	size_t n = 0, i;
	struct stat sb;
	struct timespec ts[2];
	int fd;

	snprintf(abs, sizeof abs, "%s/outbox/.pruned", store_home(ob->st));
	if (stat(abs, &sb) == 0 && (long long)sb.st_mtime <= (long long)now &&
	    (long long)sb.st_mtime > (long long)now - OUTBOX_PRUNE_EVERY)
		return;
	fd = open(abs, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
	if (fd >= 0) {
		ts[0].tv_sec = ts[1].tv_sec = now;
		ts[0].tv_nsec = ts[1].tv_nsec = 0;
		futimens(fd, ts);	/* failing, the next flush prunes again */
		close(fd);
	}
	if (store_list_dir(ob->st, "outbox/sent", &names, &n) != STORE_OK)
		return;
	for (i = 0; i < n; i++) {
		if (!queue_id_ok(names[i]))
			continue;
		snprintf(abs, sizeof abs, "%s/outbox/sent/%s", store_home(ob->st), names[i]);
		if (stat(abs, &sb) == 0 && (long long)sb.st_mtime <= limit && unlink(abs) == 0)
			stats->pruned++;
	}
	store_free_names(names, n);
}

static enum outbox_status move_failed(struct outbox *ob, const char *id)
{
	char from[PATH_BUF], to[PATH_BUF];

	snprintf(from, sizeof from, "outbox/new/%s", id);
	snprintf(to, sizeof to, "outbox/failed/%s", id);
	return from_store(ob, store_rename(ob->st, from, to));
}

/*
 * The (recipient, board) pairs with an earlier reply still waiting in this
 * flush: a later reply to the same address about the same board waits too,
 * so that a player reads a board's replies in commit order (queue ids, the
 * order of new/, are in commit order) even after an outage during which the
 * earlier ones were backing off.  The recipient is kept as a hash: a
 * collision only holds a reply back until the next flush.
 */
struct held {
	long board;
	uint64_t rcpt;
};

struct held_set {
	struct held *v;
	size_t n, cap;
};

static uint64_t rcpt_key(const char *rcpt)
{
	char low[MAILADDR_MAX + 1];
	size_t i;

	for (i = 0; rcpt[i] != '\0' && i < MAILADDR_MAX; i++)
		low[i] = (char)tolower((unsigned char)rcpt[i]);
	low[i] = '\0';
	return store_text_hash(low, i);
}

static bool held_has(const struct held_set *hs, const struct queue_file *q)
{
	uint64_t k = rcpt_key(q->rcpt);
	size_t i;

	for (i = 0; q->board != 0 && i < hs->n; i++)
		if (hs->v[i].board == q->board && hs->v[i].rcpt == k)
			return true;
	return false;
}

/* Hold back the later replies of q's pair; without memory, they go (order is then not kept). */
static void held_add(struct held_set *hs, const struct queue_file *q)
{
	if (q->board == 0 || held_has(hs, q))
		return;
	if (hs->n == hs->cap) {
		size_t cap = hs->cap == 0 ? 16 : hs->cap * 2;
		struct held *v = realloc(hs->v, cap * sizeof *v);

		if (v == NULL)
			return;
		hs->v = v;
		hs->cap = cap;
	}
	hs->v[hs->n].board = q->board;
	hs->v[hs->n].rcpt = rcpt_key(q->rcpt);
	hs->n++;
}

/* What a staged mail needs for its log line once finish() has spoken. */
struct staged_info {
	char rcpt[MAILADDR_MAX + 1];
	long board;
	unsigned long attempts;
	long long first;
};

/* One flush's state, shared by its steps. */
struct flush_run {
	struct outbox *ob;
	const struct transport_ops *ops;
	const struct config *cfg;
	void *ctx;		/* the transport's, once opened */
	struct outbox_stats *stats;
	struct held_set held;
	bool removed, failed;	/* files left new/ (delivered; refused or damaged) */
	struct hosts hosts;	/* each host's backoff (hosts.h) */
	struct host_state *host;	/* the transport's host, in hosts */
	bool hosts_dirty;	/* hosts to be written */
	struct bounce *bounces;	/* the bounces file (bounces.h), read once */
	size_t nbounces;
};

/* The server refused q's recipient: one more bounce of the address (bounces.h). */
static void count_bounce(struct flush_run *fr, const char *id, const struct queue_file *q)
{
	char status[BOUNCES_STATUS_MAX + 1], what[120];
	unsigned long count = 0;

	bounces_status_of(q->reply, status);
	if (bounces_add(fr->ob->st, q->rcpt, status, (int64_t)config_now(fr->cfg), fr->cfg->bounce_limit,
	    fr->cfg->lock_timeout_ms, &count) != STORE_OK) {
		log_mail(fr->ob, fr->cfg, id, q->rcpt, "bounce not recorded", store_error(fr->ob->st));
		return;
	}
	if (fr->cfg->bounce_limit == 0)
		snprintf(what, sizeof what, "bounce %lu (%s; bounce_limit 0: its mail never stops)", count, status);
	else
		snprintf(what, sizeof what, "bounce %lu of %lu (%s)%s", count, fr->cfg->bounce_limit, status,
		    count >= fr->cfg->bounce_limit ? ", no more mail to it until it writes" : "");
	log_mail(fr->ob, fr->cfg, id, q->rcpt, "the address bounced", what);
}

/*
 * Does q's recipient get no mail (bounce_limit reached, bounces.h)?  Then
 * the reply goes to failed/ unsent, and true.
 */
static bool stopped(struct flush_run *fr, const char *id, struct queue_file *q)
{
	const struct bounce *b = bounces_of(fr->bounces, fr->nbounces, q->rcpt);
	char why[200];

	if (!bounces_stopped(b, fr->cfg->bounce_limit))
		return false;
	snprintf(why, sizeof why, "the address bounced %lu times (bounce_limit %lu): nothing is sent to it until "
	    "it writes again", b->count, fr->cfg->bounce_limit);
	fail_mail(fr->ob, fr->cfg, id, q, "not sent, moved to failed/", why, fr->stats, &fr->failed);
	return true;
}

/* A reply that had been deferred is delivered at last: the admin sees the end of its story. */
static void log_delivered(struct outbox *ob, const struct config *cfg, const char *id, const char *rcpt,
    unsigned long attempts, long long first)
{
	char what[200], when[32];
	time_t t = (time_t)first;
	struct tm tm;

	if (attempts == 0)
		return;
	if (gmtime_r(&t, &tm) == NULL || strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
		snprintf(when, sizeof when, "%lld", first);
	snprintf(what, sizeof what, "after %lu failed attempt%s since %s", attempts, attempts == 1 ? "" : "s",
	    when);
	log_mail(ob, cfg, id, rcpt, "delivered", what);
}

/*
 * The host took a mail: a host that was down works again, and every reply
 * it held back is due at once (hosts.h).
 */
static void host_worked(struct flush_run *fr)
{
	struct host_state *hs = fr->host;
	char stamp[32];
	time_t now = config_now(fr->cfg);
	struct tm tm;
	unsigned long failed = hs != NULL ? hs->attempts : 0;

	if (hs == NULL || !hosts_worked(hs, (long long)now))
		return;
	fr->hosts_dirty = true;
	if (gmtime_r(&now, &tm) == NULL || strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
		snprintf(stamp, sizeof stamp, "%lld", (long long)now);
	store_log(fr->ob->st, "%s outbox host %s works again after %lu failed run%s: the replies it held back "
	    "are due", stamp, hs->name, failed, failed == 1 ? "" : "s");
}

/* The host is down (TRANSPORT_UNAVAILABLE, or the transport could not open): one more failed run. */
static void host_failed(struct flush_run *fr, const char *why)
{
	if (fr->host == NULL)
		return;
	hosts_failed(fr->host, (long long)config_now(fr->cfg), backoff(fr->host->attempts + 1), why);
	fr->hosts_dirty = true;
}

/*
 * Is q due?  Its own backoff over, or deferred because its host was down
 * and the host has delivered since q's last attempt (next minus the wait
 * defer_mail() set).
 */
static bool due(const struct flush_run *fr, const struct queue_file *q, unsigned flags)
{
	if ((flags & OUTBOX_FLUSH_ALL) || q->next <= (long long)config_now(fr->cfg))
		return true;
	return hosts_released(fr->host, q->host, q->next - backoff(q->attempts));
}

/*
 * Complete the mails a transport with finish() staged (names[staged[k]]):
 * delivered, or, if finish() failed, deferred like any temporary failure.
 */
static void finish_staged(struct flush_run *fr, char **names, const size_t *staged, const struct staged_info *info,
    size_t nstaged)
{
	enum transport_result tr;
	char why[TRANSPORT_WHY_MAX] = "";
	size_t k;

	if (nstaged == 0)
		return;
	tr = fr->ops->finish(fr->ctx, why, sizeof why);
	if (tr == TRANSPORT_OK)
		host_worked(fr);
	else if (tr == TRANSPORT_UNAVAILABLE)
		host_failed(fr, why);
	for (k = 0; k < nstaged; k++) {
		const char *id = names[staged[k]];
		struct queue_file q;
		const char *bad = NULL;
		char *text = NULL;
		bool parsed, gone;

		if (tr == TRANSPORT_OK) {
			if (keep_sent(fr->ob, fr->cfg, id) != OUTBOX_OK)
				log_mail(fr->ob, fr->cfg, id, "", "delivered but not removed", fr->ob->err);
			log_delivered(fr->ob, fr->cfg, id, info[k].rcpt, info[k].attempts, info[k].first);
			fr->stats->delivered++;
			fr->removed = true;
			continue;
		}
		/* read again for its retry lines: it was read and parsed a moment ago */
		if (read_queue(fr->ob, "new", id, &text, &q, &parsed, &gone, &bad) == OUTBOX_OK && parsed && !gone) {
			defer_mail(fr->ob, fr->cfg, id, &q, why, tr == TRANSPORT_UNAVAILABLE ? fr->host->name : NULL,
			    fr->stats, &fr->failed);
			held_add(&fr->held, &q);
		} else
			fr->stats->deferred++;
		free(text);
	}
}

static long monotonic_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * Put the names this process queued (is_mine) first, the others after, each
 * part in name order (names is sorted); *nmine says how many came first.
 */
static void mine_first(const struct outbox *ob, char **names, size_t n, size_t *nmine)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++) {
		if (is_mine(ob, names[i])) {
			char *t = names[i];

			memmove(names + k + 1, names + k, (i - k) * sizeof *names);
			names[k++] = t;
		}
	}
	*nmine = k;
}

/*
 * OUTBOX_FLUSH_MINE: the (recipient, board) pairs of the backlog, so that
 * the mail's own replies never pass an older reply of the same board to the
 * same address still in the queue: those pairs wait.
 */
static void older_pairs(struct outbox *ob, char **names, size_t n, size_t nmine, struct held_set *older)
{
	size_t i;

	for (i = nmine; nmine > 0 && i < n; i++) {
		struct queue_file q;
		const char *bad = NULL;
		char *text = NULL;
		bool parsed, gone;

		if (queue_id_ok(names[i]) &&
		    read_queue(ob, "new", names[i], &text, &q, &parsed, &gone, &bad) == OUTBOX_OK && parsed && !gone)
			held_add(older, &q);
		free(text);
	}
}

enum outbox_status outbox_flush(struct outbox *ob, const struct transport_ops *ops, const struct config *cfg,
    struct outbox_stats *stats)
{
	return outbox_flush_opts(ob, ops, cfg, 0, stats);
}

enum outbox_status outbox_flush_opts(struct outbox *ob, const struct transport_ops *ops, const struct config *cfg,
    unsigned flags, struct outbox_stats *stats)
{
	struct store_lock lock = STORE_LOCK_INIT;
	struct outbox_stats local;
	enum outbox_status result, r;
	char **names = NULL, why[TRANSPORT_WHY_MAX], hostname[HOSTS_NAME_MAX + 1];
	size_t n = 0, i, staged[TRANSPORT_BATCH_MAX], nstaged = 0, nmine = 0, backlog = 0;
	static struct staged_info info[TRANSPORT_BATCH_MAX];	/* 16 KB: not on the stack */
	static struct flush_run run;	/* the hosts' lines: not on the stack */
	struct flush_run *fr = &run;
	struct held_set older = { NULL, 0, 0 };
	bool opened = false;
	long start = monotonic_ms();

	if (stats == NULL)
		stats = &local;
	memset(stats, 0, sizeof *stats);
	memset(fr, 0, sizeof *fr);
	fr->ob = ob;
	fr->ops = ops;
	fr->cfg = cfg;
	fr->stats = stats;
	result = from_store(ob, store_lock_path(ob->st, "outbox/flush.lock", cfg->lock_timeout_ms, &lock));
	if (result != OUTBOX_OK)
		return result;
	/* the fsyncs of the run are made together where they can be (store.h) */
	store_defer_begin(ob->st);
	/* a leftover that cannot be settled now waits; sending goes on */
	recover(ob, 0, stats);
	result = from_store(ob, store_list_dir(ob->st, "outbox/new", &names, &n));
	if (result != OUTBOX_OK)
		goto out;
	if (n > 0) {
		hosts_read(ob->st, &fr->hosts);
		if (bounces_read(ob->st, &fr->bounces, &fr->nbounces) != STORE_OK)
			log_mail(ob, cfg, "-", "", "bounces not read, none stopped", store_error(ob->st));
		transport_host(ops, cfg, hostname, sizeof hostname);
		fr->host = hosts_get(&fr->hosts, hostname);
	}
	if (flags & OUTBOX_FLUSH_MINE)
		mine_first(ob, names, n, &nmine);
	older_pairs(ob, names, n, nmine, &older);
	for (i = 0; i < n; i++) {
		struct transport_envelope env;
		struct queue_file q;
		enum transport_result tr;
		const char *bad = NULL;
		char *text = NULL;
		bool parsed, gone;

		if (!queue_id_ok(names[i]))
			continue;	/* not ours */
		if ((flags & OUTBOX_FLUSH_MINE) && i >= nmine && (backlog >= cfg->flush_backlog_max ||
		    monotonic_ms() - start >= (long)cfg->flush_backlog_seconds * 1000L)) {
			/* the mail's own replies are out; the rest of the backlog is for flush and cron */
			stats->left += (unsigned)(n - i);
			break;
		}
		r = read_queue(ob, "new", names[i], &text, &q, &parsed, &gone, &bad);
		if (gone)
			continue;
		if (r != OUTBOX_OK) {
			free(text);
			log_mail(ob, cfg, names[i], "", "deferred", ob->err);
			stats->deferred++;
			continue;
		}
		if (!parsed) {
			log_mail(ob, cfg, names[i], "", "damaged queue file, moved to failed/", bad);
			free(text);
			if (move_failed(ob, names[i]) == OUTBOX_OK) {
				stats->failed++;
				fr->removed = fr->failed = true;
			}
			continue;
		}
		if (!due(fr, &q, flags) || held_has(&fr->held, &q) || (i < nmine && held_has(&older, &q))) {
			/* backing off, or an earlier reply of the same board to the same address is */
			held_add(&fr->held, &q);
			stats->waiting++;
			free(text);
			continue;
		}
		if (i >= nmine)
			backlog++;
		if (stopped(fr, names[i], &q)) {
			free(text);
			continue;
		}
		if (!opened) {
			why[0] = '\0';
			tr = ops->open(ob->st, cfg, &fr->ctx, why, sizeof why);
			if (tr != TRANSPORT_OK) {
				log_mail(ob, cfg, names[i], q.rcpt, "transport not available", why);
				host_failed(fr, why);
				defer_mail(ob, cfg, names[i], &q, why, fr->host->name, stats, &fr->failed);
				stats->deferred += (unsigned)(n - i - 1);
				free(text);
				break;
			}
			opened = true;
		}
		env.id = names[i];
		env.from = q.from;
		env.rcpt = q.rcpt;
		why[0] = '\0';
		tr = ops->deliver(fr->ctx, &env, q.msg, q.len, why, sizeof why);
		if (tr == TRANSPORT_OK && ops->finish != NULL) {
			snprintf(info[nstaged].rcpt, sizeof info[nstaged].rcpt, "%s", q.rcpt);
			info[nstaged].board = q.board;
			info[nstaged].attempts = q.attempts;
			info[nstaged].first = q.first;
			staged[nstaged++] = i;	/* delivered at finish_staged() */
			if (nstaged == TRANSPORT_BATCH_MAX) {
				finish_staged(fr, names, staged, info, nstaged);
				nstaged = 0;
			}
		} else if (tr == TRANSPORT_OK) {
			host_worked(fr);
			r = keep_sent(ob, cfg, names[i]);
			if (r != OUTBOX_OK)
				log_mail(ob, cfg, names[i], q.rcpt, "delivered but not removed", ob->err);
			log_delivered(ob, cfg, names[i], q.rcpt, q.attempts, q.first);
			stats->delivered++;
			fr->removed = true;
		} else if (tr == TRANSPORT_TEMPFAIL || tr == TRANSPORT_UNAVAILABLE) {
			if (tr == TRANSPORT_UNAVAILABLE)
				host_failed(fr, why);
			else
				host_worked(fr);	/* the host answered: it is up */
			defer_mail(ob, cfg, names[i], &q, why, tr == TRANSPORT_UNAVAILABLE ? fr->host->name : NULL, stats,
			    &fr->failed);
			held_add(&fr->held, &q);
		} else {
			host_worked(fr);
			fail_mail(ob, cfg, names[i], &q, "refused, moved to failed/", why, stats, &fr->failed);
			if (tr == TRANSPORT_BOUNCED)
				count_bounce(fr, names[i], &q);
		}
		free(text);
		if (tr == TRANSPORT_UNAVAILABLE) {
			/* the server or the link is down: the others wait for the next flush */
			stats->deferred += (unsigned)(n - i - 1);
			break;
		}
	}
	if (opened)
		finish_staged(fr, names, staged, info, nstaged);
	fr->removed = fr->removed || fr->failed;
	prune_sent(ob, cfg, stats);
	if (fr->hosts_dirty && hosts_write(ob->st, &fr->hosts) != STORE_OK)
		log_mail(ob, cfg, "-", "", "hosts not recorded", store_error(ob->st));
	/*
	 * One directory fsync for all the removals of this flush, so a crash
	 * does not send them again; not needed when delivering again is
	 * harmless (transport.h).  The copies in sent/ are an archive: losing
	 * one in a crash loses nothing, so sent/ is not fsync'ed.
	 */
	if (fr->failed || (fr->removed && !ops->idempotent))
		result = from_store(ob, store_sync_dir(ob->st, "outbox/new"));
	if (fr->failed && result == OUTBOX_OK)
		result = from_store(ob, store_sync_dir(ob->st, "outbox/failed"));
out:
	if (opened)
		ops->close(fr->ctx);
	r = from_store(ob, store_defer_end(ob->st));
	if (result == OUTBOX_OK)
		result = r;
	store_free_names(names, n);
	free(fr->held.v);
	free(fr->bounces);
	free(older.v);
	store_unlock(&lock);
	return result;
}

/* --- requeue --- */

/*
 * failed/<id> back into new/, its retry lines dropped: tried at once,
 * retry_days counted anew.  *moved false with OUTBOX_OK: no such reply, or
 * a damaged one (ob->err says which).
 */
static enum outbox_status requeue_one(struct outbox *ob, const char *id, bool *moved)
{
	char path[PATH_BUF];
	struct queue_file q;
	enum outbox_status r;
	const char *why = NULL;
	char *text = NULL;
	bool parsed, gone;

	*moved = false;
	if (!queue_id_ok(id)) {
		set_err(ob, "'%s' is not a queue id", id);
		return OUTBOX_OK;
	}
	r = read_queue(ob, "failed", id, &text, &q, &parsed, &gone, &why);
	if (r == OUTBOX_OK && gone) {
		set_err(ob, "no reply %s in outbox/failed/", id);
	} else if (r == OUTBOX_OK && !parsed) {
		set_err(ob, "outbox/failed/%s is damaged (%s): not requeued", id, why);
	} else if (r == OUTBOX_OK) {
		q.attempts = 0;
		q.first = q.next = 0;
		q.error[0] = '\0';
		q.reply[0] = '\0';
		q.host[0] = '\0';
		/* new/ first: a crash in between leaves a copy in failed/, never no copy */
		r = rewrite_queue(ob, id, &q);
		snprintf(path, sizeof path, "outbox/failed/%s", id);
		if (r == OUTBOX_OK)
			r = from_store(ob, store_unlink(ob->st, path));
		*moved = r == OUTBOX_OK;
	}
	free(text);
	return r;
}

enum outbox_status outbox_requeue(struct outbox *ob, char *const *ids, size_t nids, const struct config *cfg,
    unsigned *moved, unsigned *refused)
{
	struct store_lock lock = STORE_LOCK_INIT;
	enum outbox_status result, r;
	char **names = NULL;
	size_t n = 0, i;
	bool one;

	*moved = *refused = 0;
	/* no flush moves these files meanwhile */
	result = from_store(ob, store_lock_path(ob->st, "outbox/flush.lock", cfg->lock_timeout_ms, &lock));
	if (result != OUTBOX_OK)
		return result;
	if (ids == NULL) {
		result = from_store(ob, store_list_dir(ob->st, "outbox/failed", &names, &n));
		if (result != OUTBOX_OK)
			goto out;
		ids = names;
		nids = n;
	}
	for (i = 0; i < nids; i++) {
		if (names != NULL && !queue_id_ok(ids[i]))
			continue;	/* not ours */
		r = requeue_one(ob, ids[i], &one);
		if (one) {
			(*moved)++;
			log_mail(ob, cfg, ids[i], "", "requeued from failed/", "by the admin");
		} else {
			(*refused)++;
			fprintf(stderr, "oustpbm: requeue: %s\n", ob->err);
			if (result == OUTBOX_OK)
				result = r;
		}
	}
	if (*moved > 0) {
		r = from_store(ob, store_sync_dir(ob->st, "outbox/new"));
		if (r == OUTBOX_OK)
			r = from_store(ob, store_sync_dir(ob->st, "outbox/failed"));
		if (result == OUTBOX_OK)
			result = r;
	}
out:
	store_free_names(names, n);
	store_unlock(&lock);
	return result;
}

/* --- listing --- */

/* The Subject of the header of msg, unfolded, into out (OUTBOX_SUBJECT_MAX + 1 bytes). */
static void header_subject(const char *msg, size_t len, char *out)
{
	const char *p = msg, *end = msg + len;
	size_t n = 0;

	out[0] = '\0';
	while (p < end && *p != '\n' && !(*p == '\r' && p + 1 < end && p[1] == '\n')) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl != NULL ? nl : end;

		if (eol - p >= 8 && strncasecmp(p, "subject:", 8) == 0) {
			const char *v = p + 8;

			for (;;) {
				for (; v < eol && n < OUTBOX_SUBJECT_MAX; v++) {
					if (*v == '\r')
						continue;
					if (n == 0 && (*v == ' ' || *v == '\t'))
						continue;
					out[n++] = (unsigned char)*v < 0x20 || *v == 0x7f ? ' ' : *v;
				}
				/* RFC 5322 2.2.3: a line starting with a blank continues the field */
				if (eol >= end || eol + 1 >= end || (eol[1] != ' ' && eol[1] != '\t'))
					break;
				v = eol + 1;
				nl = memchr(v, '\n', (size_t)(end - v));
				eol = nl != NULL ? nl : end;
			}
			out[n] = '\0';
			return;
		}
		p = nl != NULL ? nl + 1 : end;
	}
}

/* The queue files of outbox/<dir>/ (new or failed), as outbox_list says. */
static enum outbox_status list_dir(struct outbox *ob, const char *dir, struct outbox_entry **entries,
    size_t *count)
{
	struct outbox_entry *list = NULL;
	enum outbox_status result;
	char **names = NULL, path[PATH_BUF];
	size_t n = 0, i, k = 0;

	*entries = NULL;
	*count = 0;
	snprintf(path, sizeof path, "outbox/%s", dir);
	result = from_store(ob, store_list_dir(ob->st, path, &names, &n));
	if (result != OUTBOX_OK)
		return result;
	list = calloc(n > 0 ? n : 1, sizeof *list);
	if (list == NULL) {
		store_free_names(names, n);
		set_err(ob, "out of memory");
		return OUTBOX_TEMPFAIL;
	}
	for (i = 0; i < n; i++) {
		struct outbox_entry *e = &list[k];
		struct queue_file q;
		const char *why = NULL;
		char *text = NULL;
		bool parsed, gone;

		if (!queue_id_ok(names[i]))
			continue;
		result = read_queue(ob, dir, names[i], &text, &q, &parsed, &gone, &why);
		if (result != OUTBOX_OK) {
			free(text);
			break;
		}
		if (gone) {
			free(text);
			continue;	/* sent meanwhile */
		}
		snprintf(e->id, sizeof e->id, "%s", names[i]);
		if (parsed) {
			snprintf(e->rcpt, sizeof e->rcpt, "%s", q.rcpt);
			header_subject(q.msg, q.len, e->subject);
			e->attempts = q.attempts;
			e->next = q.next;
			snprintf(e->error, sizeof e->error, "%s", q.error);
			snprintf(e->reply, sizeof e->reply, "%s", q.reply);
		} else {
			e->damaged = true;
			snprintf(e->error, sizeof e->error, "%s", why);
		}
		free(text);
		k++;
	}
	store_free_names(names, n);
	if (result != OUTBOX_OK) {
		free(list);
		return result;
	}
	*entries = list;
	*count = k;
	return OUTBOX_OK;
}

enum outbox_status outbox_list(struct outbox *ob, struct outbox_entry **entries, size_t *count)
{
	return list_dir(ob, "new", entries, count);
}

enum outbox_status outbox_list_failed(struct outbox *ob, struct outbox_entry **entries, size_t *count)
{
	return list_dir(ob, "failed", entries, count);
}
