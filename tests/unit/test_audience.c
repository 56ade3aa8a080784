/*
 * test_audience: who gets a board's mail (store/audience.h): the players,
 * the board's observers (notify: only the final mail), the watchers of
 * every board; each once, a player never as an observer, the robot and
 * removed accounts never; the watchers file written and read back.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/config.h"
#include "game/game.h"
#include "store/audience.h"
#include "store/store.h"
#include "t.h"
#include "t_home.h"

static struct config cfg;

/* "alice:P bob:P carol:O" for the members, in order (P player, O/N board observer/notify, A/R watchers) */
static const char *members(struct store *st, const struct game *g, bool final)
{
	static char buf[400];
	static const char via[] = "PONAR";
	struct audience_member *m = NULL;
	size_t n = 0, i, used = 0;

	buf[0] = '\0';
	if (audience_of_board(st, g, final, &m, &n) != STORE_OK)
		return "error";
	for (i = 0; i < n && used < sizeof buf; i++)
		used += (size_t)snprintf(buf + used, sizeof buf - used, "%s%s:%c", i > 0 ? " " : "", m[i].user.userid,
		    via[m[i].via]);
	free(m);
	return buf;
}

int main(void)
{
	char *home = t_home_new(), err[STORE_ERR_MAX];
	const char *names[] = { "alice", "bob", "carol", "dave", "erin" };
	struct store *st = NULL;
	struct game g;
	bool changed, yes;
	size_t i;

	config_defaults(&cfg);
	cfg.password_cost = 1;
	if (store_open(home, &cfg, &st, err, sizeof err) != STORE_OK) {
		printf("# %s\n", err);
		abort();
	}
	for (i = 0; i < sizeof names / sizeof names[0]; i++) {
		char addr[64];

		snprintf(addr, sizeof addr, "%s@example.org", names[i]);
		ok_int(store_user_add(st, names[i], addr, "pw", NULL), STORE_OK, "account %s", names[i]);
	}
	game_init(&g, 101, 5, true, "alice", "bob", 1700000000);
	ok_str(members(st, &g, false), "alice:P bob:P", "no observers: the two players, black first");
	ok(game_observer_add(&g, "carol", false) && game_observer_add(&g, "dave", true), "carol observes, dave notify");
	ok_str(members(st, &g, false), "alice:P bob:P carol:O", "a turn: the players and carol, not dave");
	ok_str(members(st, &g, true), "alice:P bob:P carol:O dave:N", "the final mail: dave too");
	ok_int(audience_watch(st, 1000, "erin", AUDIENCE_ALL, true, &changed), STORE_OK, "erin watches every board");
	ok(changed, "... a change");
	ok_int(audience_watch(st, 1000, "erin", AUDIENCE_ALL, true, &changed), STORE_OK, "again");
	ok(!changed, "... no change the second time");
	ok_int(audience_watch(st, 1000, "carol", AUDIENCE_RESULTS, true, &changed), STORE_OK,
	    "carol asks for every result");
	ok_int(audience_watch(st, 1000, "alice", AUDIENCE_ALL, true, &changed), STORE_OK, "alice watches every board");
	ok_str(members(st, &g, false), "alice:P bob:P carol:O erin:A", "erin added; alice, a player, once");
	ok_str(members(st, &g, true), "alice:P bob:P carol:O dave:N erin:A", "the final mail: carol once");
	ok_int(audience_watching(st, "carol", AUDIENCE_RESULTS, &yes), STORE_OK, "read back");
	ok(yes, "... carol gets every result");
	ok_int(audience_watching(st, "carol", AUDIENCE_ALL, &yes), STORE_OK, "read back again");
	ok(!yes, "... but not every mail");
	/* an admin's comment and a malformed line are kept and name nobody */
	{
		static const char edited[] = "# mine\nerin all\nfrank sometimes\nbob all\n";

		ok(t_spew(t_path(home, "watchers"), edited, strlen(edited)) == 0, "the admin edits the file");
	}
	ok_str(members(st, &g, false), "alice:P bob:P carol:O erin:A", "bob, a player, not as a watcher too");
	ok_int(audience_forget(st, 1000, "erin"), STORE_OK, "erin's lines dropped");
	ok_str(members(st, &g, false), "alice:P bob:P carol:O", "erin no more");
	{
		char *text = NULL;
		size_t len;

		ok_int(store_read_file(st, "watchers", 4096, &text, &len), STORE_OK, "the file");
		ok_str(text, "# mine\nfrank sometimes\nbob all\n", "the others' lines kept as they were");
		free(text);
	}
	/* the robot and a removed account get nothing */
	game_release(&g);
	game_init(&g, 102, 5, true, "robot", "alice", 1700000000);
	game_observer_add(&g, "ghost", false);
	ok_str(members(st, &g, false), "alice:P bob:A", "the robot and an id without account: no mail");
	game_release(&g);
	game_init(&g, 103, 5, true, "alice", GAME_OPEN_SEAT, 1700000000);
	ok_str(members(st, &g, false), "alice:P bob:A", "an open challenge: the challenger, nobody for the open seat");
	game_release(&g);
	store_close(st);
	t_home_free(home);
	return t_done();
}
