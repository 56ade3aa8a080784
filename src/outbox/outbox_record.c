/*
 * outbox_record: the batch record (outbox.h, "Batch records"): the mails
 * of a board's or an account's batch written into tmp/ without an fsync
 * each, their bytes made durable by one record file under outbox/batch/,
 * fsync'ed once before the commit point.  The record goes once the mails
 * no longer need it: delivered, or fsync'ed where they wait.
 *
 * A record, outbox/batch/b<board>.<id> or outbox/batch/a.<id> (<id> its
 * first mail's queue id):
 *
 *     oustpbm-batch 1
 *     board 101                  or: account alice
 *     commit 2345 89abcdef01234567   the tag of its mails
 *     mail <queue id> <size>     then size bytes, the queue file, and "\n"
 *     ...
 */
#include "outbox/outbox_int.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define RECORD_MAX (64L * 1024 * 1024)	/* bytes read of a record */

int outbox_record_add(char **rec, size_t *len, size_t *cap, const char *id, const char *data, size_t size)
{
	char head[QUEUE_ID_MAX + 64];
	int hn = snprintf(head, sizeof head, "mail %s %zu\n", id, size);
	size_t need = *len + (size_t)hn + size + 1;

	if (need > *cap) {
		size_t ncap = *cap ? *cap : 4096;
		char *bigger;

		while (ncap < need)
			ncap *= 2;
		bigger = realloc(*rec, ncap);
		if (bigger == NULL)
			return -1;
		*rec = bigger;
		*cap = ncap;
	}
	memcpy(*rec + *len, head, (size_t)hn);
	memcpy(*rec + *len + hn, data, size);
	(*rec)[*len + (size_t)hn + size] = '\n';
	*len = need;
	return 0;
}

enum outbox_status outbox_record_write(struct outbox_batch *b)
{
	struct outbox *ob = b->ob;
	long board = b->board;
	const char *account = b->account, *first_id = b->names[0], *rec = b->rec;
	size_t game_len = b->game_len, rec_len = b->rec_len, namelen = sizeof b->rec_name;
	uint64_t game_hash = b->game_hash;
	char *name = b->rec_name;
	enum outbox_status result;
	char head[200 + IDENT_USERID_MAX], *file;
	int hn;

	if (board != 0) {
		snprintf(name, namelen, RECORD_DIR "/b%ld.%s", board, first_id);
		hn = snprintf(head, sizeof head, RECORD_MAGIC "board %ld\ncommit %zu %016" PRIx64 "\n", board, game_len,
		    game_hash);
	} else {
		snprintf(name, namelen, RECORD_DIR "/a.%s", first_id);
		hn = snprintf(head, sizeof head, RECORD_MAGIC "account %s\ncommit %zu %016" PRIx64 "\n", account,
		    game_len, game_hash);
	}
	file = malloc((size_t)hn + rec_len);
	if (file == NULL) {
		name[0] = '\0';
		outbox_set_err(ob, "out of memory");
		return OUTBOX_TEMPFAIL;
	}
	memcpy(file, head, (size_t)hn);
	memcpy(file + hn, rec, rec_len);
	result = outbox_from_store(ob, store_create_file(ob->st, name, file, (size_t)hn + rec_len));
	if (result != OUTBOX_OK)
		name[0] = '\0';	/* store_create_file left nothing */
	free(file);
	return result;
}

void outbox_record_note_mine(struct outbox *ob, const char *name)
{
	char *copy;

	if (ob->nrecords == ob->caprecords) {
		size_t ncap = ob->caprecords ? ob->caprecords * 2 : 4;
		char **bigger = realloc(ob->records, ncap * sizeof *bigger);

		if (bigger == NULL)
			return;	/* not retired by this process: the next recovery does it */
		ob->records = bigger;
		ob->caprecords = ncap;
	}
	copy = strdup(name);
	if (copy != NULL)
		ob->records[ob->nrecords++] = copy;
}

static bool is_mine(const struct outbox *ob, const char *name)
{
	size_t i;

	for (i = 0; i < ob->nrecords; i++)
		if (strcmp(ob->records[i], name) == 0)
			return true;
	return false;
}

void outbox_record_forget(struct outbox *ob)
{
	size_t i;

	for (i = 0; i < ob->nrecords; i++)
		free(ob->records[i]);
	free(ob->records);
	ob->records = NULL;
	ob->nrecords = ob->caprecords = 0;
}

/* One parsed record: its tag and its entries, pointing into its text. */
struct record {
	long board;
	char account[IDENT_USERID_MAX + 1];
	size_t game_len;
	uint64_t game_hash;
	const char *entries, *end;
};

/* The next entry of a record at *p: its id and bytes; false at the end or on a damaged entry. */
static bool next_entry(const char **p, const char *end, char id[QUEUE_ID_MAX + 1], const char **data, size_t *size)
{
	const char *nl = memchr(*p, '\n', (size_t)(end - *p));
	char line[QUEUE_ID_MAX + 64];
	unsigned long long n;
	int used = 0;

	if (nl == NULL || (size_t)(nl - *p) >= sizeof line)
		return false;
	memcpy(line, *p, (size_t)(nl - *p));
	line[nl - *p] = '\0';
	if (sscanf(line, "mail %200s %llu%n", id, &n, &used) != 2 || line[used] != '\0' || !outbox_id_ok(id))
		return false;
	if (n > (unsigned long long)(end - nl - 1) || (size_t)(end - nl - 1) - n < 1 || nl[1 + n] != '\n')
		return false;
	*data = nl + 1;
	*size = (size_t)n;
	*p = nl + 1 + n + 1;
	return true;
}

static bool parse_record(const char *text, size_t len, struct record *r)
{
	const char *end = text + len, *p = text;
	char line[200 + IDENT_USERID_MAX];
	const char *nl;
	int i;

	memset(r, 0, sizeof *r);
	if (len < sizeof RECORD_MAGIC - 1 || memcmp(text, RECORD_MAGIC, sizeof RECORD_MAGIC - 1) != 0)
		return false;
	p += sizeof RECORD_MAGIC - 1;
	for (i = 0; i < 2; i++) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (nl == NULL || (size_t)(nl - p) >= sizeof line)
			return false;
		memcpy(line, p, (size_t)(nl - p));
		line[nl - p] = '\0';
		p = nl + 1;
		if (i == 0 && sscanf(line, "board %ld", &r->board) == 1 && r->board >= IDENT_BOARD_MIN &&
		    r->board <= IDENT_BOARD_MAX)
			continue;
		if (i == 0 && strncmp(line, "account ", 8) == 0 && ident_userid_ok(line + 8) &&
		    strlen(line + 8) <= IDENT_USERID_MAX) {
			memcpy(r->account, line + 8, strlen(line + 8) + 1);	/* its length checked above */
			continue;
		}
		if (i == 1 && sscanf(line, "commit %zu %" SCNx64, &r->game_len, &r->game_hash) == 2)
			continue;
		return false;
	}
	r->entries = p;
	r->end = end;
	return true;
}

/*
 * A committed batch's mail id, its bytes data[0..size): where it waits
 * (tmp/ or new/) it is made durable, rewritten from the record if it lost
 * them (a power cut before its pages were written); delivered (in neither)
 * it needs nothing.
 */
static enum outbox_status keep_mail(struct outbox *ob, const char *id, const char *data, size_t size)
{
	static const char *const dirs[] = { "tmp", "new" };
	enum store_status ss;
	char path[PATH_BUF], *text = NULL;
	struct queue_file q, want;
	const char *why;
	size_t len, i;

	for (i = 0; i < 2; i++) {
		snprintf(path, sizeof path, "outbox/%s/%s", dirs[i], id);
		ss = store_read_file(ob->st, path, OUTBOX_MESSAGE_MAX + QUEUE_ENVELOPE_MAX, &text, &len);
		if (ss == STORE_NOT_FOUND)
			continue;
		if (ss != STORE_OK)
			return outbox_from_store(ob, ss);
		/* the same mail (a retry may have rewritten its envelope), or its bytes from the record */
		if (outbox_queue_parse(text, len, &q, &why) && outbox_queue_parse(data, size, &want, &why) &&
		    q.len == want.len && memcmp(q.msg, want.msg, q.len) == 0)
			ss = store_sync_file(ob->st, path);
		else
			ss = store_write_file(ob->st, path, data, size);
		free(text);
		return outbox_from_store(ob, ss == STORE_NOT_FOUND ? STORE_OK : ss);
	}
	return OUTBOX_OK;
}

/* Settle the record name: its lock is held (or it is this process's, committed). */
static enum outbox_status settle_record(struct outbox *ob, const char *name, bool known_committed,
    struct outbox_stats *stats)
{
	enum outbox_status result = OUTBOX_OK;
	enum store_status ss;
	struct record r;
	char *text = NULL, id[QUEUE_ID_MAX + 1], path[PATH_BUF];
	const char *p, *data;
	size_t len, size;
	bool same = known_committed;

	(void)stats;
	ss = store_read_file(ob->st, name, RECORD_MAX, &text, &len);
	if (ss == STORE_NOT_FOUND)
		return OUTBOX_OK;	/* settled by another process meanwhile */
	if (ss != STORE_OK)
		return outbox_from_store(ob, ss);
	if (!parse_record(text, len, &r)) {
		/* cut short: its writer died before its fsync, so before any commit; tmp/'s scan settles the mails */
		goto remove;
	}
	if (!known_committed) {
		result = outbox_queue_committed(ob, r.board, r.account, r.game_len, r.game_hash, &same);
		if (result != OUTBOX_OK)
			goto out;	/* undecided: the record waits */
	}
	for (p = r.entries; next_entry(&p, r.end, id, &data, &size); ) {
		if (same) {
			result = keep_mail(ob, id, data, size);
		} else {
			snprintf(path, sizeof path, "outbox/tmp/%s", id);
			ss = store_unlink(ob->st, path);
			result = outbox_from_store(ob, ss == STORE_NOT_FOUND ? STORE_OK : ss);
		}
		if (result != OUTBOX_OK)
			goto out;
	}
remove:
	ss = store_unlink(ob->st, name);
	result = outbox_from_store(ob, ss == STORE_NOT_FOUND ? STORE_OK : ss);
out:
	free(text);
	return result;
}

enum outbox_status outbox_record_recover(struct outbox *ob, long board, struct outbox_stats *stats)
{
	enum outbox_status result = OUTBOX_OK, r;
	enum store_status ss;
	char **names = NULL, path[PATH_BUF], prefix[32] = "";
	size_t n = 0, i, pn;
	long b;

	ss = store_list_dir(ob->st, RECORD_DIR, &names, &n);
	if (ss == STORE_NOT_FOUND)
		return OUTBOX_OK;	/* a home from before the records */
	if (ss != STORE_OK)
		return outbox_from_store(ob, ss);
	if (board > 0)
		snprintf(prefix, sizeof prefix, "b%ld.", board);
	pn = strlen(prefix);
	for (i = 0; i < n; i++) {
		struct store_lock lock = STORE_LOCK_INIT;

		snprintf(path, sizeof path, RECORD_DIR "/%s", names[i]);
		r = OUTBOX_OK;
		if (board > 0) {
			if (strncmp(names[i], prefix, pn) == 0)
				r = settle_record(ob, path, false, stats);
		} else if (board == RECOVER_ACCOUNTS) {
			if (strncmp(names[i], "a.", 2) == 0)
				r = settle_record(ob, path, false, stats);
		} else if (is_mine(ob, path)) {
			/* this process's own: retired after its flush has delivered them */
		} else if (strncmp(names[i], "a.", 2) == 0) {
			ss = store_lock_accounts(ob->st, false, &lock);
			/* held: an account change is being committed; its writer decides */
			if (ss == STORE_OK)
				r = settle_record(ob, path, false, stats);
			else if (ss != STORE_TIMEOUT)
				r = outbox_from_store(ob, ss);
		} else if (sscanf(names[i], "b%ld.", &b) == 1 && b >= IDENT_BOARD_MIN && b <= IDENT_BOARD_MAX) {
			ss = store_trylock_board(ob->st, b, &lock);
			/* a busy board has its writer at work: leave it */
			if (ss == STORE_OK)
				r = settle_record(ob, path, false, stats);
			else if (ss != STORE_TIMEOUT)
				r = outbox_from_store(ob, ss);
		}
		store_unlock(&lock);
		if (r != OUTBOX_OK && result == OUTBOX_OK)
			result = r;	/* keep going: other records may be fine */
	}
	store_free_names(names, n);
	return result;
}

void outbox_record_retire_mine(struct outbox *ob)
{
	struct outbox_stats unused;
	size_t i;

	memset(&unused, 0, sizeof unused);
	for (i = 0; i < ob->nrecords; i++)
		(void)settle_record(ob, ob->records[i], true, &unused);	/* failing, the next recovery does it */
	outbox_record_forget(ob);
}
