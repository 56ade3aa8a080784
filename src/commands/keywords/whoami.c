/*
 * whoami <userid> <password>: what the server holds of an account: the
 * address it is registered to, the full name, the boards still being
 * played (from the index of players.h) and its ratings (ratings.h, as the
 * rating command shows them), answered to the sender once the
 * password is right (checked through the throttle, as every password is).
 * Nothing is written.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/msg.h"
#include "base/strbuf.h"
#include "commands/lib/away.h"
#include "commands/lib/settingstext.h"
#include "commands/pipeline/job.h"
#include "commands/pipeline/mailcmd.h"
#include "commands/services/standings.h"
#include "game/gamefile.h"
#include "store/players.h"
#include "store/ratings.h"
#include "store/settings.h"

#define WHOAMI_BOARDS_MAX 200	/* boards listed; more are counted */

/* The boards userid plays that are not over, one line each, into sb; *count of them. */
static enum process_status active_boards(struct job *j, const char *userid, struct strbuf *sb, size_t *count)
{
	enum store_status ss;
	long *boards = NULL;
	size_t nb = 0, i, len;
	char *text;
	struct game g;

	*count = 0;
	ss = players_boards(j->srv.st, j->srv.cfg.lock_timeout_ms, userid, &boards, &nb);
	if (ss != STORE_OK)
		return job_store_failure(j, ss, "cannot list the boards");
	for (i = 0; i < nb; i++) {
		if (store_board_read(j->srv.st, boards[i], &text, &len) != STORE_OK)
			continue;	/* removed meanwhile, or unreadable: not listed */
		if (gamefile_parse_header(text, len, &g, NULL) == GAME_OK && g.board == boards[i] &&
		    !game_over(&g) && game_color_of(&g, userid) != RULES_EMPTY) {
			const char *to_move = game_is_open(&g) ? "an open challenge, nobody" : game_player_to_move(&g);

			if (++*count <= WHOAMI_BOARDS_MAX) {
				if (g.shape == RULES_HEX)
					strbuf_printf(sb, "    %ld  hex side %d  %s (Black) against %s (White), "
					    "%s to move\n", g.board, g.size, g.black, g.white, to_move);
				else
					strbuf_printf(sb, "    %ld  %dx%d  %s (Black) against %s (White), "
					    "%s to move\n", g.board, g.size, g.size, g.black, g.white, to_move);
			}
			game_release(&g);
		}
		free(text);
	}
	if (*count > WHOAMI_BOARDS_MAX)
		strbuf_printf(sb, "    ... and %zu more\n", *count - WHOAMI_BOARDS_MAX);
	free(boards);
	return PROCESS_OK;
}

enum process_status whoami_run(struct job *j)
{
	struct strbuf sb = STRBUF_INIT;
	struct reply_mail m;
	const struct store_user *u = &j->user;	/* the password checked (MAILCMD_LOGIN) */
	enum mail_status rs;
	enum process_status ps;
	char subject[200], count[24], *list = NULL, away[200], bank[AWAY_BANK_MAX], err[RATINGS_ERR_MAX], set[SETTINGS_LINE_MAX];
	char v[SETTINGS_VALUE_MAX];
	size_t k, len = 0;
	struct settings prefs;
	struct ratings r = { 0 };
	char *rated = NULL;
	enum store_status ss;
	size_t n = 0;

	ps = active_boards(j, u->userid, &sb, &n);
	if (ps != PROCESS_OK)
		goto out;
	list = strbuf_finish(&sb);
	if (list == NULL) {
		job_detail(j, "tempfail", "out of memory");
		ps = PROCESS_TEMPFAIL;
		goto out;
	}
	snprintf(count, sizeof count, "%zu", n);
	ps = away_line(j, u->userid, away, sizeof away);
	if (ps == PROCESS_OK)
		ps = away_bank_of(j, u, bank, sizeof bank);	/* the vacation bank and the absences booked */
	if (ps != PROCESS_OK)
		goto out;
	ss = settings_find(j->srv.st, u->userid, &prefs, err);
	if (ss != STORE_OK) {
		ps = settingstext_failure(j, ss, err);
		goto out;
	}
	/* "    timezone       UTC\n" and so on, under the full name */
	set[0] = '\0';
	for (k = 0; k < settings_nkeys && len < sizeof set; k++) {
		settings_get(&prefs, settings_keys[k], v, sizeof v);
		len += (size_t)snprintf(set + len, sizeof set - len, "    %-14s %s\n", settings_keys[k], v);
	}
	/* the player's ratings and latest rated games, as the rating command gives them */
	ss = ratings_load(j->srv.st, false, &r, err);
	if (ss != STORE_OK) {
		msg_warn("%s", err);
		job_detail(j, store_status_temporary(ss) ? "tempfail" : "failed", "%s", err);
		ps = store_status_temporary(ss) ? PROCESS_TEMPFAIL : PROCESS_SOFTWARE;
		goto out;
	}
	rated = standings_rating_text(&r, u->userid, (int64_t)j->srv.now);
	if (rated == NULL) {
		ps = job_no_memory(j);
		goto out;
	}
	{
		struct reply_var vars[] = { { "userid", u->userid }, { "registered_address", u->address },
		    { "fullname", u->fullname[0] != '\0' ? u->fullname : "(none)" }, { "count", count },
		    { "boards", n > 0 ? list : "    (none)\n" }, { "away", away }, { "ratings", rated },
		    { "settings", set }, { "vacation", bank } };

		snprintf(subject, sizeof subject, "Oust account %s", u->userid);
		rs = reply_account(&j->srv.rc, &(struct reply_to){ j->in.from_addr, job_sender_name(j, u->userid) },
		    "whoami", subject, REPLY_VARS(vars), &m);
	}
	ps = job_send(j, rs, &m);
	if (ps == PROCESS_OK)
		job_detail(j, "ok", "account %s: %zu board%s being played", u->userid, n, n == 1 ? "" : "s");
out:
	strbuf_release(&sb);
	free(list);
	free(rated);
	ratings_release(&r);
	return ps;
}
