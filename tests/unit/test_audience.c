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
	bool changed, yes, found;
	char stamp[AUDIENCE_STAMP_LEN + 1], again[AUDIENCE_STAMP_LEN + 1], other[AUDIENCE_STAMP_LEN + 1];
	char token[AUDIENCE_TOKEN_MAX + 1];
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
	ok_int(audience_watch(st, 1000, "erin", AUDIENCE_ALL, true, NULL, &changed), STORE_OK, "erin watches every board");
	ok(changed, "... a change");
	ok_int(audience_watch(st, 1000, "erin", AUDIENCE_ALL, true, NULL, &changed), STORE_OK, "again");
	ok(!changed, "... no change the second time");
	audience_stamp("<m1@x>", "carol@example.org", 1700000000, stamp);
	audience_stamp("<m1@x>", "carol@example.org", 1700000999, again);
	ok_str(stamp, again, "a mail's stamp is its Message-ID's and sender's, whenever it comes");
	audience_stamp("<m2@x>", "carol@example.org", 1700000000, again);
	ok(strcmp(stamp, again) != 0, "another mail, another stamp");
	audience_stamp("", "carol@example.org", 1700000000, again);
	audience_stamp(NULL, "carol@example.org", 1700000001, other);
	ok(strcmp(again, other) != 0, "mails without a Message-ID never share a stamp");
	ok_int(audience_last(st, "carol", again, &found), STORE_OK, "carol's last change");
	ok(!found && again[0] == '\0', "... none yet");
	ok_int(audience_watch(st, 1000, "carol", AUDIENCE_RESULTS, true, stamp, &changed), STORE_OK,
	    "carol asks for every result, by a stamped mail");
	ok_int(audience_last(st, "carol", again, &found), STORE_OK, "carol's last change, read back");
	ok(found && strcmp(again, stamp) == 0, "... that mail's stamp");
	ok_int(audience_watching(st, "carol", AUDIENCE_ALL, &yes), STORE_OK, "the stamp line");
	ok(!yes, "... is no watch of every board");
	audience_token(stamp, token);
	ok(strncmp(token, "watchers ", 9) == 0 && strcmp(token + 9, stamp) == 0, "the account token names the stamp");
	ok_int(audience_watch(st, 1000, "alice", AUDIENCE_ALL, true, NULL, &changed), STORE_OK, "alice watches every board");
	ok_str(members(st, &g, false), "alice:P bob:P carol:O erin:A", "erin added; alice, a player, once");
	ok_str(members(st, &g, true), "alice:P bob:P carol:O dave:N erin:A", "the final mail: carol once");
	ok_int(audience_watching(st, "carol", AUDIENCE_RESULTS, &yes), STORE_OK, "read back");
	ok(yes, "... carol gets every result");
	ok_int(audience_watching(st, "carol", AUDIENCE_ALL, &yes), STORE_OK, "read back again");
	ok(!yes, "... but not every mail");
	/* an admin's comment and a malformed line are kept and name nobody */
	{
		static const char edited[] = "# mine\nerin all\nfrank sometimes\nbob all\nerin last 0123456789abcdef\n"
		    "carol results\ncarol last 0123\n";

		ok(t_spew(t_path(home, "watchers"), edited, strlen(edited)) == 0, "the admin edits the file");
	}
	ok_str(members(st, &g, false), "alice:P bob:P carol:O erin:A", "bob, a player, not as a watcher too");
	ok_int(audience_last(st, "carol", again, &found), STORE_OK, "a malformed stamp");
	ok(!found, "... is none");
	ok_int(audience_forget(st, 1000, "erin"), STORE_OK, "erin's lines dropped");
	ok_str(members(st, &g, false), "alice:P bob:P carol:O", "erin no more");
	{
		char *text = NULL;
		size_t len;

		ok_int(store_read_file(st, "watchers", 4096, &text, &len), STORE_OK, "the file");
		ok_str(text, "# mine\nfrank sometimes\nbob all\ncarol results\ncarol last 0123\n",
		    "the others' lines kept as they were, erin's stamp gone with the rest");
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
