/* tokens: the home's secret and the accounts' token states.  See tokens.h. */
#include "store/tokens.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "base/ident.h"

#define SECRET_FILE "token.secret"
#define SECRET_LOCK "token.secret.lock"
#define STATE_FILE "tokens"
#define STATE_LOCK "tokens.lock"
#define STATE_HEAD "# oustpbm: reply tokens, \"userid N\" or \"userid N off\" (tokens <userid> <password> off|new)\n"

/* The secret's text: 64 hex digits and a line end. */
static bool secret_parse(const char *text, size_t len, unsigned char out[TOKENS_SECRET_BYTES])
{
	unsigned v;
	size_t i;

	if (len != 2 * TOKENS_SECRET_BYTES + 1 || text[len - 1] != '\n')
		return false;
	for (i = 0; i < TOKENS_SECRET_BYTES; i++) {
		if (sscanf(text + 2 * i, "%2x", &v) != 1 || strchr("0123456789abcdef", text[2 * i]) == NULL ||
		    strchr("0123456789abcdef", text[2 * i + 1]) == NULL)
			return false;
		out[i] = (unsigned char)v;
	}
	return true;
}

static enum store_status secret_read(struct store *st, unsigned char out[TOKENS_SECRET_BYTES], char *err)
{
	enum store_status ss;
	char *text = NULL;
	size_t len;

	ss = store_read_file(st, SECRET_FILE, 4096, &text, &len);
	if (ss == STORE_NOT_FOUND)
		return ss;
	if (ss != STORE_OK) {
		snprintf(err, TOKENS_ERR_MAX, "cannot read %s: %s", SECRET_FILE, store_error(st));
		return ss;
	}
	if (!secret_parse(text, len, out)) {
		snprintf(err, TOKENS_ERR_MAX, "%s: want %d hex digits (lower case) and a line end", SECRET_FILE,
		    2 * TOKENS_SECRET_BYTES);
		ss = STORE_CORRUPT;
	}
	explicit_bzero(text, len);
	free(text);
	return ss;
}

enum store_status tokens_secret(struct store *st, unsigned long timeout_ms, unsigned char out[TOKENS_SECRET_BYTES],
    char *err)
{
	struct store_lock lock = STORE_LOCK_INIT;
	char text[2 * TOKENS_SECRET_BYTES + 2];
	enum store_status ss;
	ssize_t got;
	size_t i;

	ss = secret_read(st, out, err);
	if (ss != STORE_NOT_FOUND)
		return ss;
	/* a home made before tokens: one secret, whoever comes first */
	ss = store_lock_path(st, SECRET_LOCK, timeout_ms, &lock);
	if (ss != STORE_OK) {
		snprintf(err, TOKENS_ERR_MAX, "cannot lock %s: %s", SECRET_FILE, store_error(st));
		return ss;
	}
	ss = secret_read(st, out, err);
	if (ss != STORE_NOT_FOUND)
		goto out;
	do
		got = getrandom(out, TOKENS_SECRET_BYTES, 0);
	while (got < 0 && errno == EINTR);
	if (got != TOKENS_SECRET_BYTES) {
		snprintf(err, TOKENS_ERR_MAX, "cannot read random bytes for %s: %s", SECRET_FILE,
		    got < 0 ? strerror(errno) : "short read");
		ss = STORE_TEMPFAIL;
		goto out;
	}
	for (i = 0; i < TOKENS_SECRET_BYTES; i++)
		snprintf(text + 2 * i, 3, "%02x", out[i]);
	text[2 * TOKENS_SECRET_BYTES] = '\n';
	/* store.c's files are 0600 */
	ss = store_write_file(st, SECRET_FILE, text, 2 * TOKENS_SECRET_BYTES + 1);
	if (ss != STORE_OK)
		snprintf(err, TOKENS_ERR_MAX, "cannot write %s: %s", SECRET_FILE, store_error(st));
	explicit_bzero(text, sizeof text);
out:
	store_unlock(&lock);
	return ss;
}

/*
 * Look userid up in the state file's text (or write it without userid's
 * line into sb when sb is not NULL); STORE_CORRUPT naming a bad line.
 */
static enum store_status state_scan(const char *text, size_t len, const char *userid, bool *off, unsigned long *gen,
    FILE *sb, char *err)
{
	struct store_lines it = { text, len, 0, 0, STATE_FILE };
	char line[80], *sp, *end;
	unsigned long v;
	int more;

	*off = false;
	*gen = 0;
	while ((more = store_lines_next(&it, line, sizeof line, err, TOKENS_ERR_MAX)) > 0) {
		sp = strchr(line, ' ');
		if (sp != NULL)
			*sp = '\0';
		v = sp != NULL ? strtoul(sp + 1, &end, 10) : 0;
		if (sp == NULL || !ident_userid_ok(line) || sp[1] < '0' || sp[1] > '9' || v > TOKENS_GEN_MAX ||
		    (*end != '\0' && strcmp(end, " off") != 0)) {
			snprintf(err, TOKENS_ERR_MAX, "%s:%d: want 'userid N' or 'userid N off', not '%s%s%s'",
			    STATE_FILE, it.lineno, line, sp != NULL ? " " : "", sp != NULL ? sp + 1 : "");
			return STORE_CORRUPT;
		}
		if (strcmp(line, userid) == 0) {
			*off = *end != '\0';
			*gen = v;
		} else if (sb != NULL) {
			fprintf(sb, "%s %s\n", line, sp + 1);
		}
	}
	return more < 0 ? STORE_CORRUPT : STORE_OK;
}

static enum store_status state_read(struct store *st, char **text, size_t *len, char *err)
{
	enum store_status ss = store_read_file(st, STATE_FILE, TOKENS_FILE_MAX, text, len);

	if (ss == STORE_NOT_FOUND) {
		*text = NULL;
		*len = 0;
		return STORE_OK;
	}
	if (ss != STORE_OK)
		snprintf(err, TOKENS_ERR_MAX, "cannot read %s: %s", STATE_FILE, store_error(st));
	return ss;
}

enum store_status tokens_state(struct store *st, const char *userid, bool *off, unsigned long *gen, char *err)
{
	char *text = NULL;
	size_t len = 0;
	enum store_status ss = state_read(st, &text, &len, err);

	*off = false;
	*gen = 0;
	if (ss == STORE_OK)
		ss = state_scan(text, len, userid, off, gen, NULL, err);
	free(text);
	return ss;
}

enum store_status tokens_set(struct store *st, unsigned long timeout_ms, const char *userid, bool off,
    unsigned long *gen, char *err)
{
	struct store_lock lock = STORE_LOCK_INIT;
	enum store_status ss;
	char *text = NULL, *out = NULL;
	size_t len = 0, outlen = 0;
	bool was_off;
	FILE *sb = NULL;

	ss = store_lock_path(st, STATE_LOCK, timeout_ms, &lock);
	if (ss != STORE_OK) {
		snprintf(err, TOKENS_ERR_MAX, "cannot lock %s: %s", STATE_FILE, store_error(st));
		return ss;
	}
	ss = state_read(st, &text, &len, err);
	if (ss != STORE_OK)
		goto out;
	sb = open_memstream(&out, &outlen);
	if (sb == NULL) {
		snprintf(err, TOKENS_ERR_MAX, "out of memory writing %s", STATE_FILE);
		ss = STORE_TEMPFAIL;
		goto out;
	}
	fputs(STATE_HEAD, sb);
	ss = state_scan(text, len, userid, &was_off, gen, sb, err);
	if (ss != STORE_OK)
		goto out;
	/* the generation goes on across off: a token from before off never comes back */
	if (!off)
		*gen = *gen < TOKENS_GEN_MAX ? *gen + 1 : 1;
	fprintf(sb, "%s %lu%s\n", userid, *gen, off ? " off" : "");
	if (fclose(sb) != 0) {
		sb = NULL;
		snprintf(err, TOKENS_ERR_MAX, "out of memory writing %s", STATE_FILE);
		ss = STORE_TEMPFAIL;
		goto out;
	}
	sb = NULL;
	ss = store_write_file(st, STATE_FILE, out, outlen);
	if (ss != STORE_OK)
		snprintf(err, TOKENS_ERR_MAX, "cannot write %s: %s", STATE_FILE, store_error(st));
out:
	if (sb != NULL)
		fclose(sb);
	free(out);
	free(text);
	store_unlock(&lock);
	return ss;
}
