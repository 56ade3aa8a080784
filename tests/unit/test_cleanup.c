/*
 * test_cleanup: the remind: header line of the game file, remind_at() (services/remind.h)
 * and cleanup_run() on scratch homes with a fixed clock: reminders and losses
 * on time made once, a player without an account, a damaged file, missing
 * templates.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/config.h"
#include "commands/services/cleanup.h"
#include "commands/services/remind.h"
#include "game/game.h"
#include "game/gamefile.h"
#include "store/store.h"
#include "store/vacations.h"
#include "t.h"
#include "t_home.h"

#define T0 INT64_C(1700000000)
#define DAY INT64_C(86400)

static struct config cfg;

/* Board 101, 5x5, alice (x) against bob (o), after alice's C3 at T0. */
static void make_game(struct game *g)
{
	int p;

	game_init(g, 101, 5, true, "alice", "bob", T0);
	p = rules_parse_point(&g->rg.board, "C3", 2);
	if (game_move(g, "alice", &p, 1, T0, NULL) != GAME_OK)
		abort();
	snprintf(g->thread, sizeof g->thread, "<board-101@example.net>");
	g->remind = remind_at(&cfg, g);
}

static char *format(const struct game *g)
{
	char *text;
	size_t len;

	if (gamefile_format(g, &text, &len) != GAME_OK)
		abort();
	return text;
}

static void test_header(void)
{
	struct gamefile_error err;
	struct game g, h;
	char *text, *p, *edited;

	make_game(&g);
	ok_int(g.remind, T0 + 7 * DAY, "remind_at: last move + remind_days (7)");
	text = format(&g);
	ok(strstr(text, "\nlast-move: 2023-11-14T22:13:20Z\nremind: 2023-11-21T22:13:20Z\n") != NULL,
	    "the remind: line follows last-move:");
	ok_int(gamefile_parse(text, strlen(text), &h, &err), GAME_OK, "it parses back");
	ok_int(h.remind, g.remind, "... with the same time");
	game_release(&h);
	ok_int(gamefile_parse_header(text, strlen(text), &h, &err), GAME_OK, "the header alone parses");
	ok_int(h.remind, g.remind, "... with the remind time");

	/* a file from before reminders: no line, remind 0 */
	edited = strdup(text);
	p = strstr(edited, "remind: ");
	memmove(p, strchr(p, '\n') + 1, strlen(strchr(p, '\n') + 1) + 1);
	ok_int(gamefile_parse(edited, strlen(edited), &h, &err), GAME_OK, "a file without remind: loads");
	ok_int(h.remind, 0, "... remind 0");
	game_release(&h);
	free(edited);

	edited = strdup(text);
	p = strstr(edited, "remind: 2023");
	memcpy(p + 8, "2023-13", 7);
	ok_int(gamefile_parse(edited, strlen(edited), &h, &err), GAME_BAD_FILE, "a bad remind time is refused");
	ok_str(err.msg, "line 12: bad time '2023-13-21T22:13:20Z' (want e.g. 2026-11-21T18:41:07Z)",
	    "... naming the line");
	free(edited);
	free(text);

	/* a finished game has no reminder */
	if (game_resign(&g, "bob", T0 + DAY) != GAME_OK)
		abort();
	g.remind = T0 + 8 * DAY;
	text = format(&g);
	ok(strstr(text, "remind:") == NULL, "a finished game is written without remind:");
	ok_int(remind_at(&cfg, &g), 0, "remind_at of a finished game: 0");
	p = strstr(text, "thread:");
	edited = malloc(strlen(text) + 40);
	sprintf(edited, "%.*sremind: 2023-11-22T22:13:20Z\n%s", (int)(p - text), text, p);
	ok_int(gamefile_parse(edited, strlen(edited), &h, &err), GAME_BAD_FILE, "remind: in a finished game is refused");
	ok_str(err.msg, "line 12: remind given, but the game is over", "... naming the line");
	free(edited);
	free(text);
	game_release(&g);

	cfg.remind_days = 0;
	make_game(&g);
	ok_int(g.remind, 0, "remind_days 0: no reminder");
	game_release(&g);
	cfg.remind_days = 7;
}

/* A scratch home with alice and bob (bob only if with_bob) and board 101. */
struct home {
	char *path;
	struct store *st;
};

static void home_open(struct home *h, bool with_bob)
{
	char serr[STORE_ERR_MAX];
	struct game g;
	char *text;

	h->path = t_home_new();
	if (store_open(h->path, &cfg, &h->st, serr, sizeof serr) != STORE_OK ||
	    store_user_add(h->st, "alice", "alice@example.org", "secret", "") != STORE_OK ||
	    (with_bob && store_user_add(h->st, "bob", "bob@example.com", "secret", "") != STORE_OK))
		abort();
	make_game(&g);
	text = format(&g);
	if (store_board_write(h->st, 101, text, strlen(text)) != STORE_OK)
		abort();
	free(text);
	game_release(&g);
}

static void home_close(struct home *h)
{
	store_close(h->st);
	t_home_free(h->path);
}

/* cleanup_run() on h with configuration c at time now, in a server context of its own. */
static enum process_status run_at(struct home *h, const struct config *c, time_t now, struct cleanup_stats *stats)
{
	struct server srv;
	enum process_status cs;

	server_init(&srv, h->path);
	srv.cfg = *c;
	srv.st = h->st;
	server_at(&srv, now);
	cs = cleanup_run(&srv, stats);
	srv.st = NULL;	/* the home's, closed by home_close */
	server_close(&srv);
	return cs;
}

static int mails(struct home *h, const char *addr)
{
	char dir[600];
	int n;

	snprintf(dir, sizeof dir, "mail/%s/new", addr);
	n = t_count_entries(t_path(h->path, dir));
	return n < 0 ? 0 : n;	/* no directory yet: no mail */
}

static bool load(struct home *h, struct game *g)
{
	char *text;
	size_t len;
	bool good;

	if (store_board_read(h->st, 101, &text, &len) != STORE_OK)
		return false;
	good = gamefile_parse(text, len, g, NULL) == GAME_OK;
	free(text);
	return good;
}

static void test_remind(void)
{
	struct cleanup_stats s;
	struct home h;
	struct game g;

	home_open(&h, true);
	ok_int(run_at(&h, &cfg, (time_t)(T0 + 7 * DAY - 1), &s), PROCESS_OK, "a second early: ok");
	ok(s.boards == 1 && s.reminded == 0 && mails(&h, "bob@example.com") == 0, "... nothing sent");
	ok_int(run_at(&h, &cfg, (time_t)(T0 + 7 * DAY), &s), PROCESS_OK, "on time: ok");
	ok_int(s.reminded, 1, "... one reminder");
	ok_int(s.flush.delivered, 1, "... delivered by the flush");
	ok_int(mails(&h, "bob@example.com"), 1, "... to bob");
	ok_int(mails(&h, "alice@example.org"), 0, "... none to alice");
	ok(load(&h, &g) && g.remind == T0 + 14 * DAY && !game_over(&g), "... next reminder a week later");
	game_release(&g);
	ok_int(run_at(&h, &cfg, (time_t)(T0 + 7 * DAY), &s), PROCESS_OK, "again: ok");
	ok(s.reminded == 0 && s.flush.delivered == 0 && mails(&h, "bob@example.com") == 1, "... nothing new");
	home_close(&h);

	/* bob has no account: nobody to remind, but the schedule moves on */
	home_open(&h, false);
	ok_int(run_at(&h, &cfg, (time_t)(T0 + 7 * DAY), &s), PROCESS_OK, "player without account: ok");
	ok(s.reminded == 0 && s.failed == 0, "... no reminder, no failure");
	ok(load(&h, &g) && g.remind == T0 + 14 * DAY, "... next reminder set all the same");
	game_release(&g);
	home_close(&h);
}

static void test_timeout(void)
{
	struct game_replay *r = malloc(sizeof *r);
	struct cleanup_stats s;
	struct home h;
	struct game g;

	cfg.timeout_days = 10;
	home_open(&h, true);
	ok_int(run_at(&h, &cfg, (time_t)(T0 + 10 * DAY), &s), PROCESS_OK, "timeout: ok");
	ok(s.timed_out == 1 && s.reminded == 0, "... one game ended on time, no reminder");
	ok(mails(&h, "bob@example.com") == 1 && mails(&h, "alice@example.org") == 1, "... both players told");
	ok(load(&h, &g), "... the file loads");
	ok(g.rg.result == RULES_BLACK_WINS && g.end == GAME_END_TIMEOUT, "... black (alice) won on time");
	ok(g.nturns == 2 && g.turns[1].action == GAME_TIMEOUT && strcmp(g.turns[1].player, "bob") == 0 &&
	    g.turns[1].time == T0 + 10 * DAY, "... the history ends with bob's timeout");
	ok_int(g.remind, 0, "... no reminder any more");
	ok_int(game_verify(&g, r), GAME_OK, "... the history replays to the file");
	game_release(&g);
	ok_int(run_at(&h, &cfg, (time_t)(T0 + 30 * DAY), &s), PROCESS_OK, "later: ok");
	ok(s.timed_out == 0 && s.reminded == 0 && mails(&h, "bob@example.com") == 1, "... nothing new");
	home_close(&h);
	cfg.timeout_days = 0;
	free(r);
}

static void test_failures(void)
{
	struct cleanup_stats s;
	struct config bad;
	struct home h;
	char *before, *after;
	size_t blen, alen;

	home_open(&h, true);
	if (store_write_file(h.st, "games/102.game", "board: 102\n", 11) != STORE_OK)
		abort();
	ok_int(run_at(&h, &cfg, (time_t)(T0 + 7 * DAY), &s), PROCESS_DATAERR, "a damaged board: DATAERR");
	ok(s.failed == 1 && s.reminded == 1, "... the other board is done");
	home_close(&h);

	home_open(&h, true);
	bad = cfg;
	snprintf(bad.templates, sizeof bad.templates, "/nonexistent");
	store_board_read(h.st, 101, &before, &blen);
	ok_int(run_at(&h, &bad, (time_t)(T0 + 7 * DAY), &s), PROCESS_CONFIG, "no templates: CONFIG");
	store_board_read(h.st, 101, &after, &alen);
	ok(blen == alen && memcmp(before, after, blen) == 0 && s.reminded == 0, "... the game file unchanged");
	free(before);
	free(after);
	home_close(&h);
}

/*
 * bob, to move since T0, away from T0 + 2 days for 10 days: his clocks
 * stop.  The reminder due at T0 + 7 days and the loss on time due at T0 +
 * 10 days wait for the 10 days of the absence; so does the next reminder.
 */
static void test_vacation(void)
{
	struct vacation v = { .userid = "bob", .banked = true, .bank = 20, .n = 1,
	    .away = { { T0 + 2 * DAY, T0 + 12 * DAY, 10 } } };
	struct cleanup_stats s;
	struct home h;
	struct game g;

	cfg.timeout_days = 10;
	home_open(&h, true);
	ok_int(vacations_set(h.st, &v), STORE_OK, "bob goes away for 10 days");
	ok_int(run_at(&h, &cfg, (time_t)(T0 + 7 * DAY), &s), PROCESS_OK, "a week on: ok");
	ok(s.reminded == 0 && mails(&h, "bob@example.com") == 0, "... no reminder while bob is away");
	ok_int(run_at(&h, &cfg, (time_t)(T0 + 11 * DAY), &s), PROCESS_OK, "past the time limit: ok");
	ok(s.timed_out == 0 && s.reminded == 0, "... no loss on time while bob is away");
	ok_int(run_at(&h, &cfg, (time_t)(T0 + 17 * DAY - 1), &s), PROCESS_OK, "back, a second early");
	ok(s.reminded == 0, "... the reminder waits for the days away");
	ok_int(run_at(&h, &cfg, (time_t)(T0 + 17 * DAY), &s), PROCESS_OK, "7 running days: ok");
	ok_int(s.reminded, 1, "... bob is reminded");
	ok(load(&h, &g) && g.remind == T0 + 14 * DAY, "... the header's next reminder on the running clock");
	game_release(&g);
	ok_int(run_at(&h, &cfg, (time_t)(T0 + 20 * DAY - 1), &s), PROCESS_OK, "a second early");
	ok(s.timed_out == 0, "... no loss on time yet");
	ok_int(run_at(&h, &cfg, (time_t)(T0 + 20 * DAY), &s), PROCESS_OK, "10 running days: ok");
	ok_int(s.timed_out, 1, "... bob loses on time");
	home_close(&h);

	/* a damaged vacations file: nobody is reminded or timed out, and the run says why */
	home_open(&h, true);
	if (store_write_file(h.st, VACATIONS_FILE, "bob soon\n", 9) != STORE_OK)
		abort();
	ok_int(run_at(&h, &cfg, (time_t)(T0 + 30 * DAY), &s), PROCESS_DATAERR, "damaged: DATAERR");
	ok(s.timed_out == 0 && s.reminded == 0, "... nothing done");
	home_close(&h);
	cfg.timeout_days = 0;
}

int main(void)
{
	const char *top = getenv("OUSTPBM_TOP");
	char here[4096];

	if (top == NULL)
		top = realpath(".", here);

	config_defaults(&cfg);
	cfg.password_cost = 1;	/* the cheapest: not about the cost */
	cfg.lock_timeout_ms = 1000;
	/* bob has not played on these boards for weeks: reminders and losses, not expiry (expire.sh) */
	cfg.challenge_expiry_days = 0;
	snprintf(cfg.from_address, sizeof cfg.from_address, "oust@example.net");
	snprintf(cfg.templates, sizeof cfg.templates, "%s/templates", top);
	cfg.test_time_set = true;
	test_header();
	test_remind();
	test_timeout();
	test_vacation();
	test_failures();
	return t_done();
}
