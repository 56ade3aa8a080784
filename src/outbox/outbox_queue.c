/* outbox: the queue files, the batches committed with a game file, recovery after a crash. */
#include "outbox/outbox.h"

#include <assert.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "outbox/outbox_int.h"
#include "store/accounts.h"


/* Is b a batch whose mails wait for a commit (a board's or an account's)? */
static bool tagged(const struct outbox_batch *b)
{
	return b->board != 0 || b->account[0] != '\0';
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
		outbox_set_err(ob, "board number %ld is out of range", board);
		return OUTBOX_IO;
	}
	if (board != 0 && game_len > STORE_BOARD_FILE_MAX) {
		outbox_set_err(ob, "game text for board %ld is larger than %ld bytes", board, STORE_BOARD_FILE_MAX);
		return OUTBOX_TOO_BIG;
	}
	b = calloc(1, sizeof *b);
	if (b == NULL) {
		outbox_set_err(ob, "out of memory");
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
		outbox_set_err(ob, "'%s' is not a user id", userid);
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
		outbox_set_err(ob, "sender address %s", why);
		return OUTBOX_BAD_ADDRESS;
	}
	if (!mailaddr_ok(rcpt, &why)) {
		outbox_set_err(ob, "recipient address %s", why);
		return OUTBOX_BAD_ADDRESS;
	}
	if (len > OUTBOX_MESSAGE_MAX) {
		outbox_set_err(ob, "reply to %s is larger than %ld bytes", rcpt, OUTBOX_MESSAGE_MAX);
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
	outbox_new_id(ob, id, sizeof id);
	snprintf(path, sizeof path, "outbox/tmp/%s", id);
	b->names[b->n] = strdup(id);
	if (b->names[b->n] == NULL)
		goto nomem;
	if (tagged(b)) {
		/* its data made durable by the batch's record, one fsync for all (outbox_batch_seal) */
		assert(!b->sealed);
		if (outbox_record_add(&b->rec, &b->rec_len, &b->rec_cap, id, file, (size_t)hn + len) != 0) {
			free(b->names[b->n]);
			goto nomem;
		}
		result = outbox_from_store(ob, store_create_file_unsynced(ob->st, path, file, (size_t)hn + len));
	} else {
		result = outbox_from_store(ob, store_create_file(ob->st, path, file, (size_t)hn + len));
	}
	if (result != OUTBOX_OK) {
		store_unlink(ob->st, path);
		free(b->names[b->n]);
		goto out;
	}
	b->n++;
	goto out;
nomem:
	outbox_set_err(ob, "out of memory");
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
	/* the mails are durable before their release; a caller committing a game sealed before its write */
	if (!b->sealed) {
		enum outbox_status sealed = outbox_batch_seal(b);

		if (sealed != OUTBOX_OK)
			return sealed;	/* the mails wait in tmp/ for recovery */
	}
	b->done = true;
	for (i = 0; i < b->n && status == STORE_OK; i++) {
		snprintf(from, sizeof from, "outbox/tmp/%s", b->names[i]);
		snprintf(to, sizeof to, "outbox/new/%s", b->names[i]);
		status = store_rename(ob->st, from, to);
		if (status == STORE_OK)
			outbox_note_mine(ob, b->names[i]);
	}
	/*
	 * Those not renamed stay in tmp/, where recovery releases a board's.
	 * For the same reason a board batch needs no fsync of new/: a rename
	 * lost in a crash leaves the reply in tmp/, tagged with a game file
	 * that is durable, and recovery moves it again.
	 */
	if (status == STORE_OK && b->n > 0 && b->board == 0 && b->account[0] == '\0')
		status = store_sync_dir(ob->st, "outbox/new");
	/* the record goes once the mails are delivered or durable: at the end of the flush */
	if (b->sealed && b->rec_name[0] != '\0')
		outbox_record_note_mine(ob, b->rec_name);
	return outbox_from_store(ob, status);
}

enum outbox_status outbox_batch_seal(struct outbox_batch *b)
{
	enum outbox_status result;

	assert(!b->done && !b->sealed);
	if (!tagged(b) || b->n == 0) {
		b->sealed = true;
		return OUTBOX_OK;
	}
	result = outbox_record_write(b);
	if (result == OUTBOX_OK)
		b->sealed = true;
	return result;
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
	return outbox_from_store(ob, store_board_holds(ob->st, board, game_len, game_hash, same));
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
	return outbox_from_store(ob, accounts_holds(ob->st, userid, len, hash, same));
}

bool outbox_queue_parse(const char *text, size_t len, struct queue_file *q, const char **why)
{
	return parse_queue(text, len, q, why);
}

enum outbox_status outbox_queue_committed(struct outbox *ob, long board, const char *account, size_t len,
    uint64_t hash, bool *same)
{
	return board != 0 ? game_matches(ob, board, len, hash, same) : account_matches(ob, account, len, hash, same);
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
	if (b->sealed && b->rec_name[0] != '\0')
		store_unlink(ob->st, b->rec_name);	/* after its mails: a record without them is settled as done */
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
	free(b->rec);
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
 * Read and parse outbox/<dir>/<id>; *text owned by the caller.  *why NULL:
 * parsed into *q; else damaged, *why saying how.  *gone: the file was
 * removed meanwhile.
 */
enum outbox_status outbox_queue_read(struct outbox *ob, const char *dir, const char *id, char **text,
    struct queue_file *q, bool *gone, const char **why)
{
	char path[PATH_BUF];
	enum store_status status;
	size_t len;

	*why = NULL;
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
		return outbox_from_store(ob, status);
	if (parse_queue(*text, len, q, why))
		*why = NULL;	/* parse_queue names the step it is at even when it succeeds */
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
	return outbox_from_store(ob, status);
}

/*
 * Settle the tmp/ files of board (board > 0, lock held by the caller), or
 * those of account batches (RECOVER_ACCOUNTS, accounts.lock held), or with
 * board 0 of every board, and of the accounts, whose lock is free, deleting
 * junk older than OUTBOX_TMP_MAX_AGE.
 */
enum outbox_status outbox_queue_recover(struct outbox *ob, long board, struct outbox_stats *stats)
{
	enum outbox_status result = OUTBOX_OK, r;
	unsigned released = stats->released;
	char **names = NULL, path[PATH_BUF];
	size_t n = 0, i;
	time_t now = time(NULL);

	/* the records first: after a power cut they rewrite what their mails lost (outbox_record.c) */
	result = outbox_record_recover(ob, board, stats);
	if (result != OUTBOX_OK)
		return result;
	result = outbox_from_store(ob, store_list_dir(ob->st, "outbox/tmp", &names, &n));
	if (result != OUTBOX_OK)
		return result;
	for (i = 0; i < n; i++) {
		struct store_lock lock = STORE_LOCK_INIT;
		struct queue_file q;
		const char *why;
		char *text = NULL;
		bool gone;

		if (!outbox_id_ok(names[i]))
			continue;
		r = outbox_queue_read(ob, "tmp", names[i], &text, &q, &gone, &why);
		if (gone) {
			/* settled by another process meanwhile */
		} else if (r == OUTBOX_OK && board > 0 && why == NULL && q.board == board) {
			r = settle(ob, names[i], &q, stats);
		} else if (r == OUTBOX_OK && board == RECOVER_ACCOUNTS && why == NULL && q.account[0] != '\0') {
			r = settle(ob, names[i], &q, stats);
		} else if (r == OUTBOX_OK && board == 0 && why == NULL && q.account[0] != '\0') {
			enum store_status ls = store_lock_accounts(ob->st, false, &lock);

			/* held: an account change is being committed; its writer decides */
			if (ls == STORE_OK)
				r = settle(ob, names[i], &q, stats);
			else if (ls != STORE_TIMEOUT)
				r = outbox_from_store(ob, ls);
			store_unlock(&lock);
		} else if (r == OUTBOX_OK && board == 0 && why == NULL && q.board != 0) {
			enum store_status ls = store_trylock_board(ob->st, q.board, &lock);

			/* a busy board (STORE_TIMEOUT) has its writer at work: leave it */
			if (ls == STORE_OK)
				r = settle(ob, names[i], &q, stats);
			else if (ls != STORE_TIMEOUT)
				r = outbox_from_store(ob, ls);
			store_unlock(&lock);
		} else if (r == OUTBOX_OK && board == 0 && (outbox_id_age(names[i], now) > OUTBOX_TMP_MAX_AGE ||
		    outbox_id_orphan(ob, names[i]))) {
			/* untagged or incomplete, and long abandoned, or its writer killed (a tournament's round mails) */
			snprintf(path, sizeof path, "outbox/tmp/%s", names[i]);
			r = outbox_from_store(ob, store_unlink(ob->st, path));
			if (r == OUTBOX_OK)
				stats->discarded++;
		}
		free(text);
		if (r != OUTBOX_OK && result == OUTBOX_OK)
			result = r;	/* keep going: other files may be fine */
	}
	store_free_names(names, n);
	if (stats->released != released) {
		r = outbox_from_store(ob, store_sync_dir(ob->st, "outbox/new"));
		if (result == OUTBOX_OK)
			result = r;
	}
	return result;
}

enum outbox_status outbox_recover_accounts(struct outbox *ob, struct outbox_stats *stats)
{
	struct outbox_stats local;

	memset(&local, 0, sizeof local);
	return outbox_queue_recover(ob, RECOVER_ACCOUNTS, stats != NULL ? stats : &local);
}

enum outbox_status outbox_recover(struct outbox *ob, long board, struct outbox_stats *stats)
{
	struct outbox_stats local;

	memset(&local, 0, sizeof local);
	if (board < IDENT_BOARD_MIN || board > IDENT_BOARD_MAX) {
		outbox_set_err(ob, "board number %ld is out of range", board);
		return OUTBOX_IO;
	}
	return outbox_queue_recover(ob, board, stats != NULL ? stats : &local);
}

/* Rewrite outbox/new/<id> with q's envelope, retry lines included, durably and atomically. */
enum outbox_status outbox_queue_rewrite(struct outbox *ob, const char *id, const struct queue_file *q)
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
		outbox_set_err(ob, "out of memory");
		return OUTBOX_TEMPFAIL;
	}
	memcpy(file, head, (size_t)hn);
	memcpy(file + hn, q->msg, q->len);
	snprintf(path, sizeof path, "outbox/new/%s", id);
	result = outbox_from_store(ob, store_write_file(ob->st, path, file, (size_t)hn + q->len));
	free(file);
	free(head);
	return result;
}
