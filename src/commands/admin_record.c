/* admin_record: export BOARD and import FILE [BOARD], game records as SGF (game/sgf.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/ident.h"
#include "commands/admincmd.h"
#include "game/game.h"
#include "game/gamefile.h"
#include "game/sgf.h"
#include "store/players.h"
#include "store/store.h"

/* export BOARD: the game record as SGF (game/sgf.h) on standard output. */
enum admin_status admin_export(struct admin *a)
{
	struct sgf_error serr;
	struct game g;
	enum sgf_status sg;
	enum admin_status as;
	char *sgf = NULL;
	long board;
	size_t len;

	if (a->nargs != 1)
		return admin_usage_error();
	if (!ident_board_parse(a->args[0], strlen(a->args[0]), &board)) {
		store_complain(a->st, "'%s' is not a board (%d to %d)", a->args[0], IDENT_BOARD_MIN, IDENT_BOARD_MAX);
		return ADMIN_USAGE;
	}
	as = admin_load_board(a, board, &g);
	if (as != ADMIN_OK)
		goto out;
	sg = sgf_format(&g, &sgf, &len, &serr);
	if (sg != SGF_OK) {
		store_complain(a->st, "%s", sg == SGF_NO_MEMORY ? "out of memory" : serr.msg);
		as = sg == SGF_NO_MEMORY ? ADMIN_TEMPFAIL : ADMIN_DATAERR;
		goto out;
	}
	fwrite(sgf, 1, len, stdout);
	as = admin_output_done();
out:
	free(sgf);
	game_release(&g);
	return as;
}

/* The bytes of FILE ("-": standard input), at most cap, NUL-terminated; NULL with errno-style complaint. */
static char *read_input(struct admin *a, const char *path, size_t cap, size_t *len)
{
	FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
	char *buf = NULL;
	size_t n = 0;

	if (f == NULL) {
		store_complain(a->st, "cannot open %s: %s", path, strerror(errno));
		return NULL;
	}
	buf = malloc(cap + 2);
	if (buf != NULL) {
		n = fread(buf, 1, cap + 1, f);
		if (ferror(f)) {
			store_complain(a->st, "cannot read %s: %s", path, strerror(errno));
			free(buf);
			buf = NULL;
		} else if (n > cap) {
			store_complain(a->st, "%s: more than %zu bytes: not a game record", path, cap);
			free(buf);
			buf = NULL;
		} else {
			buf[n] = '\0';
		}
	} else {
		store_complain(a->st, "out of memory");
	}
	if (f != stdin)
		fclose(f);
	*len = n;
	return buf;
}

/*
 * import FILE [BOARD]: the game file of an SGF record written by export, as
 * board BOARD (default: the record's own number), which must not exist.
 * The board is added to its players' lists first, as a challenge does
 * (players.h), then written under its lock.
 */
enum admin_status admin_import(struct admin *a)
{
	struct store_lock lock = STORE_LOCK_INIT;
	struct sgf_error serr;
	struct game g;
	enum store_status ss;
	enum sgf_status sg;
	enum admin_status as = ADMIN_DATAERR;
	char *sgf = NULL, *text = NULL;
	long board = 0;
	size_t len;

	memset(&g, 0, sizeof g);
	if (a->nargs != 1 && a->nargs != 2)
		return admin_usage_error();
	if (a->nargs == 2 && !ident_board_parse(a->args[1], strlen(a->args[1]), &board)) {
		store_complain(a->st, "'%s' is not a board (%d to %d)", a->args[1], IDENT_BOARD_MIN, IDENT_BOARD_MAX);
		return ADMIN_USAGE;
	}
	sgf = read_input(a, a->args[0], SGF_MAX_BYTES, &len);
	if (sgf == NULL)
		return ADMIN_NOINPUT;
	sg = sgf_parse(sgf, len, &g, &serr);
	if (sg != SGF_OK) {
		store_complain(a->st, "%s: %s", a->args[0], sg == SGF_NO_MEMORY ? "out of memory" : serr.msg);
		as = sg == SGF_NO_MEMORY ? ADMIN_TEMPFAIL : ADMIN_DATAERR;
		goto out;
	}
	if (board != 0)
		g.board = board;
	if (gamefile_format(&g, &text, &len) != GAMEFILE_OK) {
		store_complain(a->st, "out of memory");
		as = ADMIN_TEMPFAIL;
		goto out;
	}
	ss = store_lock_board(a->st, g.board, &lock);
	if (ss == STORE_OK)
		ss = store_board_exists(a->st, g.board);
	if (ss == STORE_OK) {
		store_complain(a->st, "board %ld exists: give the number of a new board (oustpbm import %s BOARD)",
		    g.board, a->args[0]);
		as = ADMIN_EXISTS;
		goto out;
	}
	if (ss == STORE_NOT_FOUND)
		ss = players_add(a->st, a->cfg.lock_timeout_ms, g.board, g.black, g.white);
	if (ss == STORE_OK)
		ss = store_board_write(a->st, g.board, text, len);
	if (ss != STORE_OK) {
		store_complain(a->st, "%s", store_error(a->st));
		as = admin_of_store(ss);
		goto out;
	}
	store_log(a->st, "%s admin import board %ld from %s: %d turns", a->stamp, g.board, a->args[0], g.nturns);
	printf("board %ld: %s - %s, %d turns, imported from %s\n", g.board, g.black, g.white, g.nturns, a->args[0]);
	as = admin_output_done();
out:
	store_unlock(&lock);
	free(text);
	free(sgf);
	game_release(&g);
	return as;
}

