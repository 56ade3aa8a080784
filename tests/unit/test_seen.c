/* Tests of the record of handled mails (src/store/seen.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/config.h"
#include "store/seen.h"
#include "store/store.h"
#include "t.h"
#include "t_home.h"

#define T0 1700000000L

static bool dup_from(struct store *st, const char *id, const char *sender)
{
	bool dup = false;
	time_t when;

	if (seen_is_duplicate(st, id, sender, &dup, &when) != STORE_OK)
		return false;
	return dup;
}

/*
 * Is id a duplicate for the sender the record gives it (the last line
 * ending in " id"; the sender is the field before)?  Most tests are about
 * ids, not senders.
 */
static bool dup_of(struct store *st, const char *id)
{
	char *text = t_slurp(t_path(store_home(st), SEEN_FILE), NULL), sender[200] = "nobody@example.org";
	char *p, *end, *start;
	size_t n = strlen(id);
	bool dup;

	for (p = text; n > 0 && p != NULL && (p = strstr(p, id)) != NULL; p += n) {
		if (p[-1] != ' ' || (p[n] != '\n' && p[n] != '\0'))
			continue;
		end = p - 1;
		for (start = end; start > text && start[-1] != ' '; start--)
			;
		if ((size_t)(end - start) < sizeof sender) {
			memcpy(sender, start, (size_t)(end - start));
			sender[end - start] = '\0';
		}
	}
	free(text);
	dup = dup_from(st, id, sender);
	return dup;
}

/* The seen file of home, opened to be written by a test; the caller closes it. */
static FILE *write_seen(const char *home)
{
	FILE *f = fopen(t_path(home, SEEN_FILE), "w");

	if (f == NULL)
		abort();
	return f;
}

static int count_lines(const char *home)
{
	char *text = t_slurp(t_path(home, SEEN_FILE), NULL);
	int n = 0;
	char *p;

	if (text == NULL)
		return -1;
	for (p = text; *p != '\0'; p++)
		n += *p == '\n';
	free(text);
	return n;
}

static void test_plain(void)
{
	char *home = t_home_new();
	struct store *st = t_store_open(home, t_store_config());
	struct store_lock lock = STORE_LOCK_INIT;
	unsigned long count = 9;
	bool dup = true;
	time_t when = 1;
	char *text;

	ok(!dup_of(st, "a@example.org"), "nothing is a duplicate in an empty record");
	ok(seen_count_sender(st, "alice@example.org", T0, &count) == STORE_OK && count == 0,
	    "no mails counted without a record");
	ok(seen_lock(st, 100, &lock) == STORE_OK, "seen.lock taken");
	ok(seen_record(st, "a@example.org", "alice@example.org", T0, 0, NULL, 0) == STORE_OK, "a mail recorded");
	ok(seen_record(st, NULL, "alice@example.org", T0 + 10, 0, NULL, 0) == STORE_OK,
	    "a mail without Message-ID recorded");
	ok(seen_record(st, "id with space\nand LF", "bob@example.org", T0 + 20, 0, NULL, 0) == STORE_OK,
	    "an id with blanks recorded");
	store_unlock(&lock);
	ok(seen_is_duplicate(st, "a@example.org", "alice@example.org", &dup, &when) == STORE_OK && dup && when == T0,
	    "the same Message-ID is a duplicate, with its time");
	ok(!dup_from(st, "a@example.org", "mallory@example.org"), "... but not from another sender");
	ok(!dup_of(st, "b@example.org"), "another one is not");
	ok(!dup_of(st, ""), "an empty id is never a duplicate");
	ok(!dup_of(st, "-"), "'-' (the mark of no id) is not matched");
	ok(seen_lock(st, 100, &lock) == STORE_OK && seen_record(st, "-", "c@example.org", T0, 0, NULL, 0) == STORE_OK,
	    "an id '-' recorded");
	store_unlock(&lock);
	ok(dup_from(st, "-", "c@example.org"), "... and matched");
	ok(dup_from(st, "id with space\nand LF", "bob@example.org"), "an id with blanks is matched exactly");
	ok(!dup_from(st, "id with space", "bob@example.org"), "... and not by its first word");
	ok(!dup_from(st, "idwithspace\nandLF", "bob@example.org"), "... nor with its blanks dropped");
	{
		/* two ids alike in their first 600 bytes, recorded whole or by a hash of the whole */
		char long1[1200], long2[1200], *ftext;

		memset(long1, 'x', sizeof long1 - 1);
		long1[sizeof long1 - 1] = '\0';
		memcpy(long2, long1, sizeof long1);
		long2[sizeof long2 - 2] = 'y';
		ok(seen_lock(st, 100, &lock) == STORE_OK &&
		    seen_record(st, long1, "long@example.org", T0 + 30, 0, NULL, 0) == STORE_OK, "a long id recorded");
		store_unlock(&lock);
		ok(dup_from(st, long1, "long@example.org"), "... and matched");
		ok(!dup_from(st, long2, "long@example.org"), "... one that differs only in its last byte is not");
		long2[sizeof long2 - 2] = 'x';
		long2[600] = '\0';
		ok(!dup_from(st, long2, "long@example.org"), "... nor its first 600 bytes");
		long2[250] = '\0';
		ok(!dup_from(st, long2, "long@example.org"), "... nor its first 250 bytes");
		ftext = t_slurp(t_path(home, SEEN_FILE), NULL);
		ok(ftext != NULL && strstr(ftext, " long@example.org %00") != NULL && strstr(ftext, "xxxxxxxxxx") == NULL,
		    "... it is recorded by a hash, not cut");
		free(ftext);
	}
	text = t_slurp(t_path(home, SEEN_FILE), NULL);
	ok(text != NULL && strstr(text, " id%20with%20space%0Aand%20LF\n") != NULL, "blanks are percent-encoded");
	ok(text != NULL && strstr(text, "1700000010 0 - alice@example.org -\n") != NULL,
	    "no Message-ID is recorded as '-'");
	free(text);
	ok(seen_count_sender(st, "alice@example.org", T0 + 100, &count) == STORE_OK && count == 2,
	    "alice's two mails counted");
	ok(seen_count_sender(st, "alice@example.org", T0 + SEEN_RATE_WINDOW, &count) == STORE_OK && count == 1,
	    "an hour later the first is no longer counted");
	ok(seen_count_sender(st, "bob@example.org", T0 + 100, &count) == STORE_OK && count == 1, "bob's counted apart");
	ok(seen_count_sender(st, "alice@example.org", T0 - 1, &count) == STORE_OK && count == 0,
	    "mails recorded in the future are not counted");
	ok(seen_lock(st, 100, &lock) == STORE_OK &&
	    seen_record(st, "f1", "Alice@Example.ORG", T0 + 20, 0, NULL, 0) == STORE_OK &&
	    seen_record(st, "f2", "alice+games@example.org", T0 + 30, 0, NULL, 0) == STORE_OK &&
	    seen_record(st, "f3", "ALICE+x+y@example.org", T0 + 40, 0, NULL, 0) == STORE_OK &&
	    seen_record(st, "f4", "alice.b@example.org", T0 + 50, 0, NULL, 0) == STORE_OK &&
	    seen_record(st, "f5", "+alice@example.org", T0 + 60, 0, NULL, 0) == STORE_OK &&
	    seen_record(st, "f6", "a%b+c@example.org", T0 + 60, 0, NULL, 0) == STORE_OK, "variants of alice recorded");
	store_unlock(&lock);
	ok(seen_count_sender(st, "alice@example.org", T0 + 100, &count) == STORE_OK && count == 5,
	    "case variants and +tags count as one sender (alice.b and +alice do not)");
	ok(seen_count_sender(st, "aLiCe+other@EXAMPLE.org", T0 + 100, &count) == STORE_OK && count == 5,
	    "... whichever variant asks");
	ok(seen_count_sender(st, "+ALICE@example.org", T0 + 100, &count) == STORE_OK && count == 1,
	    "a '+' starting the local part is no tag");
	ok(seen_count_sender(st, "A%B@example.org", T0 + 100, &count) == STORE_OK && count == 1,
	    "a percent-encoded sender ('%%' is atext) is decoded before folding");
	{
		char f[MAILADDR_MAX + 1];

		mailaddr_fold("Bob+Tag@Mail.Example.COM", f);
		ok_str(f, "bob@mail.example.com", "mailaddr_fold: lower case, +tag dropped");
		mailaddr_fold("bob@a+b.example", f);
		ok_str(f, "bob@a+b.example", "mailaddr_fold: a '+' in the domain is kept");
		mailaddr_fold("no-at+x", f);
		ok_str(f, "no-at+x", "mailaddr_fold: no '@', nothing dropped");
	}
	store_close(st);
	t_home_free(home);
}

/* A move: pending until settled; committed or not as the game file says. */
static void test_pending(void)
{
	char *home = t_home_new();
	struct store *st = t_store_open(home, t_store_config());
	struct store_lock lock = STORE_LOCK_INIT;
	const char *old = "old game text\n", *new1 = "new game text\n", *new2 = "later game text\n";
	char *text;

	ok(store_board_write(st, 101, old, strlen(old)) == STORE_OK, "board 101 written");
	ok(seen_lock(st, 100, &lock) == STORE_OK, "seen.lock taken");
	ok(seen_record(st, "m1@x", "alice@example.org", T0, 101, new1, strlen(new1)) == STORE_OK,
	    "a move recorded pending");
	store_unlock(&lock);
	ok(!dup_of(st, "m1@x"), "before its game file is written it is not a duplicate (crash before the commit)");
	ok(store_board_write(st, 101, new1, strlen(new1)) == STORE_OK, "the game file written");
	ok(dup_of(st, "m1@x"), "after it, it is (crash after the commit, before anything else)");
	text = t_slurp(t_path(home, SEEN_FILE), NULL);
	ok(text != NULL && strstr(text, " 101 14:") != NULL, "the entry is pending with the text's length");
	free(text);

	/* the next move on the board settles it, then changes the board */
	ok(seen_lock(st, 100, &lock) == STORE_OK, "seen.lock taken again");
	ok(seen_record(st, "m2@x", "bob@example.org", T0 + 60, 101, new2, strlen(new2)) == STORE_OK,
	    "the next move recorded");
	store_unlock(&lock);
	text = t_slurp(t_path(home, SEEN_FILE), NULL);
	ok(text != NULL && strstr(text, "1700000000 101 = alice@example.org m1@x\n") != NULL,
	    "the committed move is settled: a '=' line is appended");
	ok(text != NULL && strstr(text, " 101 14:") != NULL, "its pending line stays as it was (append only)");
	free(text);
	ok(store_board_write(st, 101, new2, strlen(new2)) == STORE_OK, "the board changed again");
	ok(dup_of(st, "m1@x"), "the settled move stays a duplicate");
	ok(dup_of(st, "m2@x"), "the second one is one too");

	/* a move whose write never happened is dropped at the next settlement */
	ok(seen_lock(st, 100, &lock) == STORE_OK && seen_record(st, "m3@x", "alice@example.org", T0 + 120, 101,
	    "never written\n", 14) == STORE_OK, "a move recorded, its write lost");
	ok(!dup_of(st, "m3@x"), "not a duplicate");
	ok(seen_record(st, "m4@x", "bob@example.org", T0 + 180, 101, "x\n", 2) == STORE_OK,
	    "another move on the board recorded");
	store_unlock(&lock);
	text = t_slurp(t_path(home, SEEN_FILE), NULL);
	ok(text != NULL && strstr(text, "1700000120 101 x alice@example.org m3@x\n") != NULL,
	    "the uncommitted one is settled void: an 'x' line");
	free(text);
	ok(!dup_of(st, "m5@x") && !dup_of(st, "m3@x"), "... so its redelivery is handled");

	/* a pending entry of a board whose file is gone: not committed */
	ok(seen_lock(st, 100, &lock) == STORE_OK && seen_record(st, "c1@x", "alice@example.org", T0 + 200, 102,
	    "new board\n", 10) == STORE_OK, "a challenge recorded for board 102");
	store_unlock(&lock);
	ok(!dup_of(st, "c1@x"), "its board was never written: not a duplicate");
	store_close(st);
	t_home_free(home);
}

/* The record stays bounded: by age, by count, and damaged lines go. */
static void test_bounds(void)
{
	char *home = t_home_new();
	struct store *st = t_store_open(home, t_store_config());
	struct store_lock lock = STORE_LOCK_INIT;
	FILE *f;
	long i;
	char *text;

	f = write_seen(home);
	fprintf(f, "# comment\n");
	fprintf(f, "%ld 0 - old@example.org old@x\n", T0 - SEEN_MAX_AGE - SEEN_COMPACT_SLACK - 10);
	fprintf(f, "garbage line\n");
	fprintf(f, "%ld 0 - a@example.org too many fields here\n", T0);
	fprintf(f, "%ld 101 12:zz a@example.org badhash@x\n", T0);
	fprintf(f, "%ld 0 1:1 a@example.org pending-board-0@x\n", T0);
	for (i = 0; i < SEEN_COMPACT_LINES + 50; i++)
		fprintf(f, "%ld 0 - s%ld@example.org id%ld@x\n", T0 - 1000 + i / 10, i, i);
	fprintf(f, "%ld 0 - cut@example.org cut-short", T0);
	fclose(f);
	ok(dup_of(st, "id0@x"), "the oldest of the big file is there before a rewrite");
	ok(!dup_of(st, "badhash@x") && !dup_of(st, "pending-board-0@x"), "damaged lines are never matched");
	ok(!dup_of(st, "cut-short"), "a line without its end is ignored");
	ok(seen_lock(st, 100, &lock) == STORE_OK &&
	    seen_record(st, "new@x", "n@example.org", T0, 0, NULL, 0) == STORE_OK, "one more recorded");
	store_unlock(&lock);
	ok_int(count_lines(home), SEEN_MAX_ENTRIES + 1, "at most SEEN_MAX_ENTRIES entries (and the header) kept");
	ok(!dup_of(st, "id0@x") && !dup_of(st, "id2050@x"), "the oldest were dropped");
	ok(dup_of(st, "id2051@x") && dup_of(st, "new@x"), "the newest kept");
	text = t_slurp(t_path(home, SEEN_FILE), NULL);
	ok(text != NULL && strstr(text, "old@x") == NULL, "entries older than SEEN_MAX_AGE dropped");
	ok(text != NULL && strstr(text, "garbage") == NULL && strstr(text, "badhash") == NULL,
	    "damaged lines dropped at the rewrite");
	free(text);

	/* a record over SEEN_FILE_MAX starts afresh */
	f = write_seen(home);
	for (i = 0; i < SEEN_FILE_MAX / 50 + 10; i++)
		fprintf(f, "%ld 0 - big@example.org %040ld\n", T0, i);
	fclose(f);
	ok(!dup_of(st, "0000000000000000000000000000000000000001"), "an oversized record is read as empty");
	ok(seen_lock(st, 100, &lock) == STORE_OK &&
	    seen_record(st, "fresh@x", "n@example.org", T0, 0, NULL, 0) == STORE_OK, "and rewritten");
	store_unlock(&lock);
	ok_int(count_lines(home), 2, "with the new entry alone");
	store_close(st);
	t_home_free(home);
}

/* Records are appended; compaction folds the settlements in. */
static void test_append(void)
{
	char *home = t_home_new();
	struct store *st = t_store_open(home, t_store_config());
	struct store_lock lock = STORE_LOCK_INIT;
	const char *g1 = "game one\n", *g2 = "game two\n";
	unsigned long count = 0;
	FILE *f;
	char *text;

	f = write_seen(home);
	fprintf(f, "# header\n%ld 0 - a@example.org first@x\n%ld 0 - a@example.org torn", T0, T0);
	fclose(f);
	ok(seen_lock(st, 100, &lock) == STORE_OK &&
	    seen_record(st, "second@x", "a@example.org", T0 + 1, 0, NULL, 0) == STORE_OK, "recorded after a torn line");
	store_unlock(&lock);
	text = t_slurp(t_path(home, SEEN_FILE), NULL);
	ok(text != NULL && strstr(text, "torn") == NULL && strstr(text, "1700000000 0 - a@example.org first@x\n"
	    "1700000001 0 - a@example.org second@x\n") != NULL, "a torn last line: rewritten whole, without it");
	free(text);
	ok(dup_of(st, "second@x") && dup_of(st, "first@x") && !dup_of(st, "torn"), "both entries are read");
	ok(seen_lock(st, 100, &lock) == STORE_OK &&
	    seen_record(st, "third@x", "a@example.org", T0 + 1, 0, NULL, 0) == STORE_OK, "one more recorded");
	store_unlock(&lock);
	text = t_slurp(t_path(home, SEEN_FILE), NULL);
	ok(text != NULL && strstr(text, "1700000001 0 - a@example.org second@x\n1700000001 0 - a@example.org third@x\n")
	    != NULL, "appended after the last line");
	free(text);

	/* a move settled, another voided: the settlement lines are not mails */
	ok(store_board_write(st, 101, g1, strlen(g1)) == STORE_OK, "board 101 written");
	ok(seen_lock(st, 100, &lock) == STORE_OK, "seen.lock taken");
	ok(seen_record(st, "m1@x", "a@example.org", T0 + 2, 101, g2, strlen(g2)) == STORE_OK, "m1 pending");
	ok(store_board_write(st, 101, g2, strlen(g2)) == STORE_OK, "and committed");
	ok(seen_record(st, "m2@x", "a@example.org", T0 + 3, 101, "lost\n", 5) == STORE_OK, "m2 pending, never written");
	ok(seen_record(st, "m3@x", "a@example.org", T0 + 4, 101, g1, strlen(g1)) == STORE_OK, "m3 pending");
	store_unlock(&lock);
	ok(seen_count_sender(st, "a@example.org", T0 + 10, &count) == STORE_OK && count == 5,
	    "five mails counted: not the settlement lines, not the move never committed (%lu)", count);
	ok(dup_of(st, "m1@x") && !dup_of(st, "m2@x"), "m1 stands, m2 does not");
	ok(store_board_write(st, 101, "other\n", 6) == STORE_OK, "the board changes again (not by m3)");
	ok(dup_of(st, "m1@x"), "m1 still stands: its '=' line says so, not the board");

	/* compaction: everything older than SEEN_MAX_AGE + SEEN_COMPACT_SLACK makes one due */
	ok(seen_lock(st, 100, &lock) == STORE_OK &&
	    seen_record(st, "late@x", "b@example.org", T0 + SEEN_MAX_AGE + SEEN_COMPACT_SLACK + 1, 102,
	    "b\n", 2) == STORE_OK, "a mail a week and a day later");
	store_unlock(&lock);
	text = t_slurp(t_path(home, SEEN_FILE), NULL);
	ok(text != NULL && strncmp(text, "# oustpbm: handled mails", 24) == 0, "compacted: rewritten with the header");
	ok(text != NULL && strstr(text, "first@x") == NULL && strstr(text, "m1@x") == NULL,
	    "entries out of SEEN_MAX_AGE are gone");
	ok(text != NULL && strstr(text, " = ") == NULL && strstr(text, " x ") == NULL, "no settlement line is left");
	free(text);
	ok(dup_of(st, "late@x") == false, "the new entry is pending (its board was never written)");

	store_close(st);
	t_home_free(home);
}

/* compact() itself: folded, kept, dropped, within the age limit */
static void test_compact(void)
{
	char *home = t_home_new();
	struct store *st = t_store_open(home, t_store_config());
	struct store_lock lock = STORE_LOCK_INIT;
	FILE *f;
	long i;
	char *text;

	f = write_seen(home);
	for (i = 0; i < SEEN_COMPACT_LINES; i++)
		fprintf(f, "%ld 0 - f@example.org f%ld@x\n", T0, i);
	fprintf(f, "%ld 103 5:00000000000000aa a@example.org s1@x\n", T0);
	fprintf(f, "%ld 103 5:00000000000000bb a@example.org s2@x\n", T0);
	fprintf(f, "%ld 103 = a@example.org s1@x\n", T0);
	fprintf(f, "%ld 103 x a@example.org s2@x\n", T0);
	fprintf(f, "%ld 104 5:00000000000000cc a@example.org s3@x\n", T0);
	fclose(f);
	ok(dup_of(st, "s1@x") && !dup_of(st, "s2@x") && !dup_of(st, "s3@x"), "read as settled, void, pending");
	ok(seen_lock(st, 100, &lock) == STORE_OK &&
	    seen_record(st, "n@x", "a@example.org", T0 + 5, 0, NULL, 0) == STORE_OK, "recorded, compaction due by size");
	store_unlock(&lock);
	ok_int(count_lines(home), SEEN_MAX_ENTRIES + 1, "SEEN_MAX_ENTRIES entries and the header");
	text = t_slurp(t_path(home, SEEN_FILE), NULL);
	ok(text != NULL && strstr(text, "1700000000 103 - a@example.org s1@x\n") != NULL,
	    "a settled move is folded into one '-' entry");
	ok(text != NULL && strstr(text, "s2@x") == NULL, "a void one is dropped");
	ok(text != NULL && strstr(text, "1700000000 104 5:00000000000000cc a@example.org s3@x\n") != NULL,
	    "an undecided one stays pending");
	ok(text != NULL && strstr(text, " = ") == NULL && strstr(text, " x ") == NULL, "no settlement line is left");
	ok(text != NULL && strstr(text, " f0@x\n") == NULL && strstr(text, " f2002@x\n") == NULL &&
	    strstr(text, " f2003@x\n") != NULL, "the oldest went for room");
	free(text);
	ok(dup_of(st, "s1@x") && !dup_of(st, "s2@x") && dup_of(st, "n@x"), "read back the same");
	store_close(st);
	t_home_free(home);
}

/* seen.lock is a lock: a second taker times out. */
static void test_lock(void)
{
	char *home = t_home_new();
	struct store *st = t_store_open(home, t_store_config());
	struct store_lock lock = STORE_LOCK_INIT;
	int release;
	pid_t pid;
	long t;

	pid = t_hold_lock(t_path(home, SEEN_LOCK_FILE), &release);
	ok(pid > 0, "another process holds seen.lock");
	t = t_ms();
	ok(seen_lock(st, 100, &lock) == STORE_TIMEOUT, "seen_lock times out");
	ok(t_ms() - t < 2000, "within about lock_timeout_ms");
	t_release(pid, release);
	ok(seen_lock(st, 100, &lock) == STORE_OK, "taken once released");
	store_unlock(&lock);
	ok(store_text_hash("", 0) == 0xcbf29ce484222325ULL, "FNV-1a 64 of nothing is its offset basis");
	ok(store_text_hash("a", 1) == 0xaf63dc4c8601ec8cULL, "FNV-1a 64 of 'a'");
	store_close(st);
	t_home_free(home);
}

/* An account change recorded pending its write (issue 31: a copy by Message-ID, never by password). */
static void test_account(void)
{
	char *home = t_home_new();
	struct store *st = t_store_open(home, t_store_config());
	struct store_lock lock = STORE_LOCK_INIT;
	struct store_user u;
	char *text;

	ok(store_user_add(st, "alice", "alice@example.org", "secret", NULL) == STORE_OK, "alice registered");
	ok(store_user_find(st, "alice", &u) == STORE_OK, "... found");
	ok(seen_lock(st, 100, &lock) == STORE_OK, "seen.lock taken");
	ok(seen_record_account(st, "p1@x", "alice@example.org", T0, "alice", "$y$new-hash-not-written") == STORE_OK,
	    "a password change recorded pending");
	ok(!dup_from(st, "p1@x", "alice@example.org"), "its write not made: no copy (a crash before it)");
	ok(seen_record_account(st, "p2@x", "alice@example.org", T0 + 1, "alice", u.hash) == STORE_OK,
	    "a change whose token the account holds recorded pending");
	ok(dup_from(st, "p2@x", "alice@example.org"), "... a copy: the account holds its token (a crash after)");
	ok(!dup_from(st, "p2@x", "mallory@example.net"), "... for its sender only");
	ok(seen_settle_account(st, "p1@x", "alice@example.org", T0 + 2, false) == STORE_OK, "the first voided");
	ok(seen_settle_account(st, "p2@x", "alice@example.org", T0 + 2, true) == STORE_OK, "the second settled");
	store_unlock(&lock);
	ok(!dup_from(st, "p1@x", "alice@example.org") && dup_from(st, "p2@x", "alice@example.org"),
	    "settled: the void one no copy, the other one");
	text = t_slurp(t_path(home, SEEN_FILE), NULL);
	ok(text != NULL && strstr(text, " alice\n") != NULL && strstr(text, " 0 = ") != NULL,
	    "the pending entries name the account; settlements of board 0");
	free(text);
	store_close(st);
	t_home_free(home);
}

int main(void)
{
	test_plain();
	test_pending();
	test_account();
	test_bounds();
	test_append();
	test_compact();
	test_lock();
	return t_done();
}
