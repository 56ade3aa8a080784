/* admin_import: oustpbm import FILE [BOARD], a new game file made from an SGF record (game/sgf.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/ident.h"
#include "commands/admin/admincmd.h"
#include "commands/services/fsck.h"
#include "game/sgf.h"
#include "store/players.h"

/* The bytes of FILE ("-": standard input), at most cap, NUL-terminated; NULL with errno-style complaint. */
static char *read_input(struct admin *a, const char *path, size_t cap, size_t *len)
{
	FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
	char *buf = NULL;
	size_t n = 0;

	if (f == NULL) {
		store_complain(a->srv.st, "cannot open %s: %s", path, strerror(errno));
		return NULL;
	}
	buf = malloc(cap + 2);
	if (buf != NULL) {
		n = fread(buf, 1, cap + 1, f);
		if (ferror(f)) {
			store_complain(a->srv.st, "cannot read %s: %s", path, strerror(errno));
			free(buf);
			buf = NULL;
		} else if (n > cap) {
			store_complain(a->srv.st, "%s: more than %zu bytes: not a game record", path, cap);
			free(buf);
			buf = NULL;
		} else {
			buf[n] = '\0';
		}
	} else {
		store_complain(a->srv.st, "out of memory");
	}
	if (f != stdin)
		fclose(f);
	*len = n;
	return buf;
}

/*
 * The players of an imported game, as a challenge takes them: two
 * different existing accounts, or one account and the robot.  False after
 * saying why.
 */
static bool import_players_ok(struct admin *a, const struct game *g)
{
	const char *seat[2] = { g->black, g->white };
	struct store_user u;
	enum store_status ss;
	int i;

	if (strcasecmp(g->black, g->white) == 0) {
		store_complain(a->srv.st, "%s: %s would play himself: the players of a game are two accounts",
		    a->args[0], g->black);
		return false;
	}
	for (i = 0; i < 2; i++) {
		if (game_user_is_robot(seat[i]))
			continue;	/* the other one is an account (checked on its turn): as a challenge of the robot */
		if (strcmp(seat[i], GAME_OPEN_SEAT) == 0) {
			store_complain(a->srv.st, "%s: the %s seat is open: a game record has two players", a->args[0],
			    i == 0 ? "black" : "white");
			return false;
		}
		ss = store_user_find(a->srv.st, seat[i], &u);
		if (ss == STORE_NOT_FOUND) {
			store_complain(a->srv.st, "%s: there is no account %s (oustpbm adduser first)", a->args[0], seat[i]);
			return false;
		}
		if (ss != STORE_OK) {
			store_complain(a->srv.st, "%s", store_error(a->srv.st));
			return false;
		}
	}
	return true;
}

/* Do a and b have the same players (either colour), board and placements? */
static bool same_game(const struct game *a, const struct game *b)
{
	bool players = (strcasecmp(a->black, b->black) == 0 && strcasecmp(a->white, b->white) == 0) ||
	    (strcasecmp(a->black, b->white) == 0 && strcasecmp(a->white, b->black) == 0);

	return players && a->shape == b->shape && a->size == b->size && a->npoints == b->npoints &&
	    (a->npoints == 0 || memcmp(a->points, b->points, a->npoints * sizeof *a->points) == 0);
}

/*
 * The board holding a game equal to g (same_game), into *dup (0: none); an
 * unreadable board is skipped (fsck reports it).  False on a failure said.
 */
static bool import_duplicate(struct admin *a, const struct game *g, long *dup)
{
	struct gamefile_error gerr;
	struct game o;
	long *boards = NULL;
	size_t n = 0, i;
	char *text = NULL;
	size_t len;
	enum store_status ss;

	*dup = 0;
	ss = store_list_boards(a->srv.st, &boards, &n);
	if (ss != STORE_OK) {
		store_complain(a->srv.st, "%s", store_error(a->srv.st));
		return false;
	}
	for (i = 0; i < n && *dup == 0; i++) {
		if (boards[i] == g->board)
			continue;	/* "board exists", said under its lock */
		if (store_board_read(a->srv.st, boards[i], &text, &len) != STORE_OK)
			continue;
		memset(&o, 0, sizeof o);
		if (gamefile_parse(text, len, &o, &gerr) == GAME_OK && same_game(g, &o))
			*dup = boards[i];
		game_release(&o);
		free(text);
		text = NULL;
	}
	free(boards);
	return true;
}

/*
 * The game file made of the record, read back as a mail's run reads it:
 * gamefile_parse, then fsck's checks of a board (the history replays, the
 * players have accounts).  A value the game file cannot hold (an
 * OUSTTHREAD with "]") is refused here, never written.  False after saying
 * why.
 */
static bool import_reads_back(struct admin *a, long board, const char *text, size_t len)
{
	struct gamefile_error gerr;
	struct game back;
	unsigned problems = 0;
	bool ok;

	memset(&back, 0, sizeof back);
	ok = gamefile_parse(text, len, &back, &gerr) == GAME_OK;
	game_release(&back);
	if (!ok) {
		store_complain(a->srv.st, "%s: the game file made of it would not read back (%s): nothing imported",
		    a->args[0], gerr.msg);
		return false;
	}
	if (fsck_game(a->srv.st, board, "the imported game file", text, len, stderr, &problems) != PROCESS_OK ||
	    problems > 0) {
		store_complain(a->srv.st, "%s: the game file made of it has %u problem%s (above): nothing imported",
		    a->args[0], problems, problems == 1 ? "" : "s");
		return false;
	}
	return true;
}

/*
 * import FILE [BOARD]: the game file of an SGF record written by export, as
 * board BOARD (default: the record's own number), which must not exist.
 * Checked as a mail's game is (issue 31): two different existing accounts
 * (or one and the robot), the game file read back before anything is
 * written, no copy of an existing game (the same players, board and
 * placements).  The counter of board numbers is advanced past it, the
 * board is added to its players' lists, as a challenge does (players.h),
 * then written under its lock.
 */
enum process_status admin_import_run(struct admin *a)
{
	struct store_lock lock = STORE_LOCK_INIT;
	struct sgf_error serr;
	struct game g;
	enum store_status ss;
	enum game_status sg;
	enum process_status as = PROCESS_DATAERR;
	char *sgf = NULL, *text = NULL;
	long board = 0, dup = 0;
	size_t len;

	memset(&g, 0, sizeof g);
	if (a->nargs != 1 && a->nargs != 2)
		return admin_usage_error();
	if (a->nargs == 2 && !ident_board_parse(a->args[1], strlen(a->args[1]), &board)) {
		store_complain(a->srv.st, "'%s' is not a board (%d to %d)", a->args[1], IDENT_BOARD_MIN, IDENT_BOARD_MAX);
		return PROCESS_USAGE;
	}
	sgf = read_input(a, a->args[0], SGF_MAX_BYTES, &len);
	if (sgf == NULL)
		return PROCESS_NOINPUT;
	sg = sgf_parse(sgf, len, &g, &serr);
	if (sg != GAME_OK) {
		store_complain(a->srv.st, "%s: %s", a->args[0], sg == GAME_NO_MEMORY ? game_status_str(sg) : serr.msg);
		as = sg == GAME_NO_MEMORY ? PROCESS_TEMPFAIL : PROCESS_DATAERR;
		goto out;
	}
	if (board != 0)
		g.board = board;
	if (!import_players_ok(a, &g))
		goto out;
	if (gamefile_format(&g, &text, &len) != GAME_OK) {
		store_complain(a->srv.st, "out of memory");
		as = PROCESS_TEMPFAIL;
		goto out;
	}
	if (!import_reads_back(a, g.board, text, len))
		goto out;
	if (store_board_exists(a->srv.st, g.board) == STORE_OK) {
		store_complain(a->srv.st, "board %ld exists: give the number of a new board (oustpbm import %s BOARD)",
		    g.board, a->args[0]);
		as = PROCESS_EXISTS;
		goto out;
	}
	if (!import_duplicate(a, &g, &dup)) {
		as = PROCESS_TEMPFAIL;
		goto out;
	}
	if (dup != 0) {
		store_complain(a->srv.st, "%s: board %ld is the same game (players, board and placements): not imported "
		    "twice", a->args[0], dup);
		as = PROCESS_EXISTS;
		goto out;
	}
	/* the counter past it first: no challenge is given its number meanwhile */
	ss = store_claim_board_id(a->srv.st, g.board);
	if (ss != STORE_OK) {
		store_complain(a->srv.st, "%s", store_error(a->srv.st));
		as = admin_of_store(ss);
		goto out;
	}
	ss = store_lock_board(a->srv.st, g.board, &lock);
	if (ss == STORE_OK)
		ss = store_board_exists(a->srv.st, g.board);
	if (ss == STORE_OK) {
		store_complain(a->srv.st, "board %ld exists: give the number of a new board (oustpbm import %s BOARD)",
		    g.board, a->args[0]);
		as = PROCESS_EXISTS;
		goto out;
	}
	if (ss == STORE_NOT_FOUND)
		ss = players_add(a->srv.st, a->srv.cfg.lock_timeout_ms, g.board, g.black, g.white);
	if (ss == STORE_OK)
		ss = store_board_write(a->srv.st, g.board, text, len);
	if (ss != STORE_OK) {
		store_complain(a->srv.st, "%s", store_error(a->srv.st));
		as = admin_of_store(ss);
		goto out;
	}
	store_log(a->srv.st, "%s admin import board %ld from %s: %d turns", a->srv.stamp, g.board, a->args[0], g.nturns);
	printf("board %ld: %s - %s, %d turns, imported from %s\n", g.board, g.black, g.white, g.nturns, a->args[0]);
	as = admin_output_done();
out:
	store_unlock(&lock);
	free(text);
	free(sgf);
	game_release(&g);
	return as;
}
