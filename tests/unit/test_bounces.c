/*
 * Unit tests for store/bounces: counting, the limit, clearing, pruning of
 * old lines and of the oldest past BOUNCES_MAX, a damaged file, and the
 * outbox's hosts file (outbox/hosts.h) read back as written.
 */
#include "outbox/hosts.h"
#include "store/bounces.h"
#include "t.h"
#include "t_home.h"

#define T0 INT64_C(1700000000)

/* The count of address in the file, 0 if none; -1 if it cannot be read. */
static long count_of(struct store *st, const char *address)
{
	struct bounce *list = NULL;
	const struct bounce *b;
	size_t n = 0;
	long c;

	if (bounces_read(st, &list, &n) != STORE_OK)
		return -1;
	b = bounces_of(list, n, address);
	c = b != NULL ? (long)b->count : 0;
	free(list);
	return c;
}

static void test_count_and_clear(void)
{
	char *home = t_home_new();
	struct store *st = t_store_open(home, t_store_config());
	struct bounce *list = NULL;
	unsigned long count = 0, had = 9;
	size_t n = 9;

	ok(bounces_read(st, &list, &n) == STORE_OK && n == 0, "no file: no bounces");
	free(list);
	ok(bounces_add(st, "Alice@Example.org", "5.1.1", T0, 3, 200, &count) == STORE_OK && count == 1, "one bounce");
	ok(bounces_add(st, "alice@example.org", "550", T0 + 10, 3, 200, &count) == STORE_OK && count == 2,
	    "the same address in another case: two");
	ok(bounces_add(st, "bob@example.com", "5.2.2", T0 + 20, 3, 200, &count) == STORE_OK && count == 1,
	    "another address: one");
	ok(bounces_read(st, &list, &n) == STORE_OK && n == 2, "two lines");
	if (n == 2) {
		const struct bounce *al = bounces_of(list, n, "alice@example.org");

		ok(al == &list[0], "the address written lower case; bob, bounced after, last");
		ok(al != NULL && strcmp(al->status, "550") == 0, "its last status");
		ok(al != NULL && al->last == T0 + 10, "its last time");
		ok(!bounces_stopped(al, 3), "two of three: not stopped");
		ok(bounces_stopped(al, 2), "at the limit: stopped");
		ok(!bounces_stopped(al, 0), "limit 0: never stopped");
	}
	free(list);
	ok(bounces_add(st, "a b@example.org", "5.1.1", T0, 3, 200, &count) == STORE_BAD_ADDRESS, "a bad address refused");
	ok(bounces_add(st, "carol@example.net", "x;y", T0, 3, 200, &count) == STORE_OK, "a bad status kept as 5");
	ok(bounces_clear(st, "ALICE@example.org", 200, &had) == STORE_OK && had == 2, "cleared: it had two");
	ok(count_of(st, "alice@example.org") == 0, "... gone");
	ok(count_of(st, "bob@example.com") == 1, "... the others kept");
	ok(bounces_clear(st, "nobody@example.org", 200, &had) == STORE_OK && had == 0, "clearing none: nothing");
	store_close(st);
	t_home_free(home);
}

static void test_prune(void)
{
	char *home = t_home_new();
	struct store *st = t_store_open(home, t_store_config());
	unsigned long count = 0;
	int64_t day = 86400;
	size_t i;
	FILE *f;

	bounces_add(st, "old@example.org", "5.1.1", T0, 3, 200, NULL);
	for (i = 0; i < 3; i++)
		bounces_add(st, "dead@example.org", "5.1.1", T0, 3, 200, NULL);
	bounces_add(st, "new@example.org", "5.1.1", T0 + BOUNCES_KEEP_DAYS * day + 10, 3, 200, &count);
	ok(count_of(st, "old@example.org") == 0, "a line under the limit %d days old pruned", BOUNCES_KEEP_DAYS);
	ok(count_of(st, "dead@example.org") == 3, "a stopped address kept, however old");
	ok(count_of(st, "new@example.org") == 1, "the new one kept");
	/* past BOUNCES_MAX lines the oldest go: a full file written at once, then one more */
	f = fopen(t_path(home, BOUNCES_FILE), "w");
	if (f == NULL)
		abort();
	for (i = 0; i < BOUNCES_MAX; i++)
		fprintf(f, "u%zu@example.org 3 2023-11-14T22:13:20Z 5.1.1\n", i);
	fclose(f);
	ok(bounces_add(st, "last@example.org", "5.1.1", T0, 3, 1000, NULL) == STORE_OK, "one more to a full file");
	ok(count_of(st, "u0@example.org") == 0, "past %d lines the oldest dropped", BOUNCES_MAX);
	ok(count_of(st, "u1@example.org") == 3 && count_of(st, "last@example.org") == 1, "the others and the new one kept");
	store_close(st);
	t_home_free(home);
}

static void test_damaged(void)
{
	char *home = t_home_new();
	struct store *st = t_store_open(home, t_store_config());
	struct bounce *list = NULL;
	size_t n = 0;
	FILE *f = fopen(t_path(home, BOUNCES_FILE), "w");

	if (f == NULL)
		abort();
	fputs("# a comment\nalice@example.org 2 2023-11-14T22:13:20Z 5.1.1\nbob@example.org 0 2023-11-14T22:13:20Z 5.1.1\n",
	    f);
	fclose(f);
	ok(bounces_read(st, &list, &n) == STORE_CORRUPT, "a count of 0 is damage");
	ok(strstr(store_error(st), "line 3") != NULL, "... the line named: %s", store_error(st));
	free(list);
	ok(bounces_add(st, "carol@example.org", "5.1.1", T0, 3, 200, NULL) == STORE_CORRUPT, "adding refused then");
	store_close(st);
	t_home_free(home);
}

/* A delivery report's bounce carries its mail's mark: the same mail reported again counts once. */
static void test_marks(void)
{
	char *home = t_home_new();
	struct store *st = t_store_open(home, t_store_config());
	struct bounce b, *list = NULL;
	unsigned long count = 0;
	bool counted = false;
	size_t n = 0;
	FILE *f;

	memset(&b, 0, sizeof b);
	snprintf(b.address, sizeof b.address, "alice@example.org");
	snprintf(b.status, sizeof b.status, "5.1.1");
	snprintf(b.mark, sizeof b.mark, "7dbebb4327f778f7");
	b.last = T0;
	ok(bounces_add_report(st, &b, 3, 200, &count, &counted) == STORE_OK && counted && count == 1, "a report: one");
	b.last = T0 + 60;
	ok(bounces_add_report(st, &b, 3, 200, &count, &counted) == STORE_OK && !counted && count == 1,
	    "the same mail reported again: not counted, still one");
	snprintf(b.mark, sizeof b.mark, "0123456789abcdef");
	ok(bounces_add_report(st, &b, 3, 200, &count, &counted) == STORE_OK && counted && count == 2,
	    "another mail's report: two");
	ok(bounces_read(st, &list, &n) == STORE_OK && n == 1 && strcmp(list[0].mark, "0123456789abcdef") == 0,
	    "the line keeps the last report's mark");
	free(list);
	ok(bounces_add(st, "alice@example.org", "550", T0 + 120, 3, 200, &count) == STORE_OK && count == 3,
	    "a refusal at RCPT counts too");
	ok(bounces_read(st, &list, &n) == STORE_OK && n == 1 && list[0].mark[0] == '\0', "... and has no mark");
	free(list);
	snprintf(b.mark, sizeof b.mark, "NOT-HEX");
	ok(bounces_add_report(st, &b, 3, 200, &count, &counted) == STORE_BAD_ADDRESS && !counted, "a bad mark refused");
	/* a line of before the marks (four fields) reads; a bad mark is damage */
	f = fopen(t_path(home, BOUNCES_FILE), "w");
	if (f == NULL)
		abort();
	fputs("bob@example.org 1 2023-11-14T22:13:20Z 5.1.1\ncarol@example.org 1 2023-11-14T22:13:20Z 5.1.1 abc\n", f);
	fclose(f);
	ok(bounces_read(st, &list, &n) == STORE_OK && n == 2, "lines with and without a mark read");
	free(list);
	f = fopen(t_path(home, BOUNCES_FILE), "w");
	if (f == NULL)
		abort();
	fputs("bob@example.org 1 2023-11-14T22:13:20Z 5.1.1 xyz\n", f);
	fclose(f);
	ok(bounces_read(st, &list, &n) == STORE_CORRUPT, "a mark that is not hex is damage");
	free(list);
	store_close(st);
	t_home_free(home);
}

static void test_hosts(void)
{
	char *home = t_home_new();
	struct store *st = t_store_open(home, t_store_config());
	struct hosts h, back;
	struct host_state *hs;
	size_t i;

	mkdir(t_path(home, "outbox"), 0700);
	memset(&h, 0, sizeof h);
	hosts_read(st, &h);
	ok(h.n == 0, "no hosts file: no hosts");
	hs = hosts_get(&h, "127.0.0.1:2525");
	hs->attempts = 3;
	hs->first = T0;
	hs->next = T0 + 240;
	snprintf(hs->error, sizeof hs->error, "smtp: connection refused\nwith a line break");
	hosts_get(&h, "local")->ok = T0 + 5;
	ok(hosts_write(st, &h) == STORE_OK, "written");
	hosts_read(st, &back);
	ok(back.n == 2, "two hosts read back");
	hs = (struct host_state *)hosts_find(&back, "127.0.0.1:2525");
	ok(hs != NULL && hs->attempts == 3 && hs->first == T0 && hs->next == T0 + 240, "its numbers");
	ok(hs != NULL && strcmp(hs->error, "smtp: connection refused?with a line break") == 0,
	    "its error on one line: %s", hs != NULL ? hs->error : "");
	ok(hosts_find(&back, "local") != NULL && hosts_find(&back, "local")->ok == T0 + 5 &&
	    hosts_find(&back, "local")->error[0] == '\0', "a working host, no error");
	for (i = 0; i < HOSTS_MAX + 3; i++) {
		char name[32];

		snprintf(name, sizeof name, "h%zu:25", i);
		hosts_get(&back, name)->attempts = 1;
	}
	ok(back.n == HOSTS_MAX, "at most %d hosts kept", HOSTS_MAX);
	ok(hosts_find(&back, "local") == NULL, "a working host's line dropped first");
	store_close(st);
	t_home_free(home);
}

static void test_status_of(void)
{
	char st[BOUNCES_STATUS_MAX + 1];

	bounces_status_of("550 5.1.1 no such user", st);
	ok_str(st, "5.1.1", "the RFC 3463 code of a reply");
	bounces_status_of("550-5.1.10 RESOLVER.ADR.RecipientNotFound\n550 5.1.10 more", st);
	ok_str(st, "5.1.10", "... of a multi-line one");
	bounces_status_of("553 sorry, no mailbox here", st);
	ok_str(st, "553", "the reply code without one");
	bounces_status_of("", st);
	ok_str(st, "5", "nothing: 5");
}

int main(void)
{
	test_status_of();
	test_count_and_clear();
	test_marks();
	test_prune();
	test_damaged();
	test_hosts();
	return t_done();
}
